package dev.vigil.kit.auth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * Files that hold a secret (a generated token or key): created exclusively, readable by the owner only, never
 * through a symbolic link (a link planted in the data directory cannot redirect the write or the read).
 */
public final class SecretFiles {
    private SecretFiles() {}

    /**
     * The secret in {@code file} if it exists (a regular file, not a link), else {@code fresh} written there with
     * {@code CREATE_NEW} and mode 0600. Returns the secret in use.
     */
    public static String readOrCreate(Path file, String fresh) throws IOException {
        Optional<String> existing = read(file);
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            write(file, fresh);
            return fresh;
        } catch (FileAlreadyExistsException e) {
            // another process created it between the read and the write: use theirs
            return read(file).orElseThrow(() -> e);
        }
    }

    /** The trimmed contents of {@code file}, empty when it does not exist; refuses links and non-regular files. */
    public static Optional<String> read(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (Files.isSymbolicLink(file) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(
                    file + " is not a regular file (a symbolic link or other); refusing to read a secret through it");
        }
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            var attrs = Files.readAttributes(
                    file, java.nio.file.attribute.PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            var loose = java.util.EnumSet.copyOf(attrs.permissions());
            loose.retainAll(java.util.EnumSet.of(
                    java.nio.file.attribute.PosixFilePermission.GROUP_READ,
                    java.nio.file.attribute.PosixFilePermission.GROUP_WRITE,
                    java.nio.file.attribute.PosixFilePermission.OTHERS_READ,
                    java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE));
            if (!loose.isEmpty()) {
                throw new IOException(file + " can be read or written by other users (mode "
                        + PosixFilePermissions.toString(attrs.permissions())
                        + "); a secret file must be private: chmod 600 " + file);
            }
            String me = System.getProperty("user.name");
            if (me != null && !attrs.owner().getName().equals(me)) {
                throw new IOException(file + " belongs to " + attrs.owner().getName() + ", not to " + me
                        + "; refusing to trust a secret another user may have planted");
            }
        }
        try (SeekableByteChannel ch =
                Files.newByteChannel(file, Set.<OpenOption>of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 64 * 1024));
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // read it all
            }
            return Optional.of(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).trim());
        }
    }

    /** Creates {@code file} (it must not exist) with mode 0600 where the file system supports it, holding {@code secret}. */
    public static void write(Path file, String secret) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Set<OpenOption> options =
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        try (SeekableByteChannel ch = posix
                ? Files.newByteChannel(
                        file,
                        options,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.newByteChannel(file, options)) {
            ch.write(ByteBuffer.wrap((secret + "\n").getBytes(StandardCharsets.UTF_8)));
        }
    }
}
