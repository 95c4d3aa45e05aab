package dev.vigil.embedded.postgres;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The embedded server's superuser password, one per data directory, kept in {@value #NAME} inside it so a
 * restart on the same directory (the launcher's, an outage test's) finds it again.
 *
 * <p>The file is created exclusively ({@code CREATE_NEW}: an existing file or a planted symlink makes it fail
 * rather than be written through) with mode 0600 from the start, so there is no moment where another user
 * could read it; it is read without following symlinks and refused when anyone but its owner may read it.
 * The password is never logged: errors name the file, never its content.
 */
final class PasswordFile {
    static final String NAME = "vigil-postgres.password";
    /** 32 of 62 symbols: about 190 bits, and nothing that needs escaping in a URL, a pgpass line or an env file. */
    static final int LENGTH = 32;

    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final int MAX_BYTES = 1024;
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordFile() {}

    static Path in(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    static String generate() {
        char[] out = new char[LENGTH];
        for (int i = 0; i < out.length; i++) {
            out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(out);
    }

    /** The stored password, or empty when there is no file. */
    static Optional<String> read(Path file) {
        try (SeekableByteChannel channel =
                Files.newByteChannel(file, Set.<OpenOption>of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            if (isPosix(file)) {
                PosixFileAttributes attributes =
                        Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (!attributes.isRegularFile()) {
                    throw new IllegalStateException(file + " is not a regular file");
                }
                if (!OWNER_ONLY.containsAll(attributes.permissions())) {
                    throw new IllegalStateException(file + " may be read by other users (mode "
                            + PosixFilePermissions.toString(attributes.permissions())
                            + "); make it readable by its owner only (chmod 600)");
                }
            }
            if (channel.size() > MAX_BYTES) {
                throw new IllegalStateException(file + " is too large to be a password file");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read until full: size() was checked above
            }
            String password = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
            if (password.isEmpty()) {
                throw new IllegalStateException(file + " is empty");
            }
            return Optional.of(password);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // ELOOP from NOFOLLOW_LINKS arrives as a FileSystemException naming the path
            throw new IllegalStateException(
                    "cannot read the PostgreSQL password file " + file + " (it must be a regular file, not a symlink): "
                            + e.getClass().getSimpleName(),
                    e);
        }
    }

    /** Creates {@code file} holding {@code password}; fails if anything (file, directory, symlink) is there. */
    static void create(Path file, String password) throws IOException {
        Set<OpenOption> options =
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        FileAttribute<?>[] attributes = isPosix(file)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        try (SeekableByteChannel channel = Files.newByteChannel(file, options, attributes)) {
            ByteBuffer bytes = ByteBuffer.wrap((password + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            if (channel instanceof java.nio.channels.FileChannel fileChannel) {
                fileChannel.force(true); // the cluster is useless without it: on disk before the server starts
            }
        }
    }

    private static boolean isPosix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
