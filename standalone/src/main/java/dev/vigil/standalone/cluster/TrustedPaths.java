package dev.vigil.standalone.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the cluster launcher trusts on disk. Its data directory holds the jar every process runs, the pid files it
 * signals and the configs and secrets it reads back, so on a shared host another local user who could create or
 * write any of them could run code as the operator. Every directory and file the launcher trusts must therefore be
 * owned by the user running it, writable by nobody else, and not a symbolic link (checked without following links);
 * anything else is refused with a message naming the path and the reason, never repaired silently.
 */
public final class TrustedPaths {
    private static final Set<PosixFilePermission> WRITABLE_BY_OTHERS =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
    /** Under root PostgreSQL runs as the postgres user, which must traverse (not list, not write) the data dir. */
    private static final Set<PosixFilePermission> TRAVERSABLE_DIR = PosixFilePermissions.fromString("rwx--x--x");

    private TrustedPaths() {}

    /** A path the launcher will not use: who owns it, its mode, or a link; the message says which and how to fix it. */
    public static final class UntrustedPathException extends IllegalStateException {
        UntrustedPathException(String message) {
            super(message);
        }
    }

    /**
     * Creates the cluster's data directory (mode 0700, or 0711 under root so PostgreSQL's own user can reach its
     * subdirectory) and its {@code logs}, {@code run}, {@code config} and {@code lib} (0700), or checks the existing
     * ones: each must be a real directory owned by this user and writable by no one else.
     */
    public static void prepareDataDir(Path dataDir) {
        requireOwnedDir(dataDir, "root".equals(System.getProperty("user.name")) ? TRAVERSABLE_DIR : PRIVATE_DIR);
        for (String sub : List.of("logs", "run", "config", "lib")) {
            requireOwnedDir(dataDir.resolve(sub), PRIVATE_DIR);
        }
    }

    /** {@code dir} created with {@code mode} when absent (parents too), else checked; refused when not trusted. */
    static Path requireOwnedDir(Path dir, Set<PosixFilePermission> mode) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Path parent = dir.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(mode));
                // the umask may have narrowed or kept bits: set exactly what was asked
                Files.setPosixFilePermissions(dir, mode);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // created by someone else meanwhile: checked below like any existing one
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
            }
        }
        PosixFileAttributes attrs = attributes(dir);
        if (attrs.isSymbolicLink()) {
            throw new UntrustedPathException(dir + " is a symbolic link; the cluster's directories must be real"
                    + " directories (a link can point the launcher at a directory another user controls)");
        }
        if (!attrs.isDirectory()) {
            throw new UntrustedPathException(dir + " is not a directory");
        }
        requireOwnerAndMode(dir, attrs, "directory");
        return dir;
    }

    /**
     * Checks a file the launcher is about to trust (run, signal on the strength of, or read back): a regular file,
     * not a link, owned by this user and writable by no one else.
     */
    static void requireTrustedFile(Path file) {
        PosixFileAttributes attrs = attributes(file);
        if (attrs.isSymbolicLink()) {
            throw new UntrustedPathException(file + " is a symbolic link; refusing to trust it (the launcher only"
                    + " uses files it wrote itself): remove it");
        }
        if (!attrs.isRegularFile()) {
            throw new UntrustedPathException(file + " is not a regular file; refusing to trust it: remove it");
        }
        requireOwnerAndMode(file, attrs, "file");
    }

    /** The text of a trusted file, empty when it does not exist. */
    static Optional<String> readTrusted(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        requireTrustedFile(file);
        try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code text} to {@code file} (mode 0600) by a new file in the same directory moved over it, so a link
     * planted at {@code file} is replaced rather than followed.
     */
    static void writePrivate(Path file, String text) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
            try {
                Files.writeString(
                        tmp,
                        text,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS);
                replace(tmp, file);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The copy of {@code source} at {@code copy}: reused only when it is trusted and its SHA-256 digest is the
     * source's (a same-size jar with other contents is replaced); a link or a file of another user there is refused.
     */
    static Path copyVerified(Path source, Path copy) {
        String want = sha256(source);
        if (Files.exists(copy, LinkOption.NOFOLLOW_LINKS)) {
            requireTrustedFile(copy);
            if (sha256(copy).equals(want)) {
                return copy;
            }
        }
        try {
            Path dir = copy.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, "." + copy.getFileName(), ".tmp");
            try {
                Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
                if (!sha256(tmp).equals(want)) {
                    throw new IllegalStateException(source + " changed while it was copied to " + copy + "; run again");
                }
                replace(tmp, copy);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + source + " to " + copy + ": " + e.getMessage(), e);
        }
    }

    /** The SHA-256 digest of a file's contents, in hex. */
    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                digest.update(buf, 0, n);
            }
            return java.util.HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether {@code process} is one the launcher started for the cluster in {@code dataDir}: every command it runs
     * names that directory (the jar under {@code lib/}, a config under {@code config/}, or
     * {@code -Dvigil.cluster.dir=}). A pid file naming any other process (a reused pid, or an edited file) must not
     * make the launcher signal it.
     */
    static boolean startedFor(ProcessHandle process, Path dataDir) {
        ProcessHandle.Info info = process.info();
        List<String> words = new java.util.ArrayList<>();
        info.command().ifPresent(words::add);
        info.arguments().ifPresent(a -> words.addAll(List.of(a)));
        if (info.arguments().isEmpty()) {
            // some platforms give only the whole line; it still has to name the directory
            info.commandLine().ifPresent(words::add);
        }
        return names(words, dataDir);
    }

    /** Whether one of {@code words} (a command line) names {@code dataDir} or a path inside it. */
    static boolean names(List<String> words, Path dataDir) {
        String dir = dataDir.toAbsolutePath().normalize().toString();
        return words.stream().anyMatch(w -> w.equals(dir) || w.endsWith("=" + dir) || w.contains(dir + "/"));
    }

    private static void replace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** By uid where the file system tells it (a user without a name in /etc/passwd too), else by name. */
    private static boolean ownedByMe(Path path, UserPrincipal owner, String me) {
        try {
            Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            return uid instanceof Integer u && u == new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException | LinkageError e) {
            return owner.getName().equals(me);
        }
    }

    private static PosixFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the attributes of " + path + ": " + e.getMessage(), e);
        }
    }

    private static void requireOwnerAndMode(Path path, PosixFileAttributes attrs, String what) {
        UserPrincipal owner = attrs.owner();
        String me = System.getProperty("user.name");
        if (!ownedByMe(path, owner, me)) {
            throw new UntrustedPathException(path + " belongs to " + owner.getName() + ", not to " + me
                    + "; refusing a " + what + " another user controls: remove it, or pass --data-dir (or set"
                    + " VIGIL_CLUSTER_DIR) to a directory of your own");
        }
        Set<PosixFilePermission> loose = EnumSet.noneOf(PosixFilePermission.class);
        loose.addAll(attrs.permissions());
        loose.retainAll(WRITABLE_BY_OTHERS);
        if (!loose.isEmpty()) {
            throw new UntrustedPathException(path + " can be written by other users (mode "
                    + PosixFilePermissions.toString(attrs.permissions()) + "); refusing a " + what + " anyone else"
                    + " can change: chmod go-w " + path);
        }
    }
}
