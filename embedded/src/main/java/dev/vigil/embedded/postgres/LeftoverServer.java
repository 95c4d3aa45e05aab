package dev.vigil.embedded.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code kill -9} of the JVM leaves behind: the embedded PostgreSQL is a daemon started by {@code pg_ctl},
 * so it outlives the JVM that started it, and the next start on the same data directory would find it answering
 * on the port and use it without a word (zonky's start waits for a connection, and the orphan accepts one). That
 * server was started by another process, is stopped by no one, and keeps the settings of the old run.
 *
 * <p>Ownership is made explicit instead. A process that runs the embedded server on a data directory holds an
 * exclusive lock on {@code <data dir>.lock} beside it until it stops; the kernel drops the lock when the process
 * dies, however it dies. So a process that takes the lock and still finds a live {@code postgres} named by the
 * directory's {@code postmaster.pid} knows that server is a leftover: it logs that, stops it with a fast shutdown
 * (SIGINT: sessions are cut, the data is checkpointed) and starts its own. A lock held by a live process means
 * another Vigil uses the directory, and the start fails with that said.
 */
final class LeftoverServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeftoverServer.class);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private final FileChannel channel;
    private final FileLock lock;

    private LeftoverServer(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock file that marks {@code dataDir} as in use by a live process. */
    static Path lockFile(Path dataDir) {
        return dataDir.resolveSibling(dataDir.getFileName() + ".lock");
    }

    /**
     * Takes the data directory's lock, or fails when a live process (this one included) holds it.
     *
     * @throws IllegalStateException naming the directory when another process uses it
     */
    static LeftoverServer claim(Path dataDir) {
        Path file = lockFile(dataDir);
        FileChannel ch = null;
        try {
            Files.createDirectories(file.getParent());
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l == null) {
                throw inUse(dataDir, file);
            }
            return new LeftoverServer(ch, l);
        } catch (OverlappingFileLockException e) {
            closeQuietly(ch);
            throw inUse(dataDir, file);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new UncheckedIOException("cannot lock " + file, e);
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    private static IllegalStateException inUse(Path dataDir, Path file) {
        return new IllegalStateException("the PostgreSQL data directory " + dataDir + " is in use by another running"
                + " Vigil process (it holds " + file + "); stop that one first, or give this one another directory");
    }

    /**
     * With the lock held: stops the server a dead process left running on {@code dataDir}, if any, and returns its
     * pid. A stale {@code postmaster.pid} whose process is gone, or whose pid now belongs to another program, is
     * left to PostgreSQL, which handles it on start.
     *
     * @throws IllegalStateException when the leftover does not stop within {@link #STOP_TIMEOUT}
     */
    OptionalLong stopLeftover(Path dataDir) {
        OptionalLong pid = postmasterPid(dataDir);
        if (pid.isEmpty()) {
            return OptionalLong.empty();
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid.getAsLong()).filter(ProcessHandle::isAlive);
        if (process.isEmpty() || !isPostgresOn(pid.getAsLong(), dataDir)) {
            return OptionalLong.empty();
        }
        LOG.warn(
                "Embedded PostgreSQL (pid {}) is still running on {}, left by an earlier process that did not stop"
                        + " it (killed?); stopping it (fast shutdown) to start this process's own server",
                pid.getAsLong(),
                dataDir);
        long began = System.nanoTime();
        signalInterrupt(pid.getAsLong());
        try {
            process.get().onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the PostgreSQL server (pid " + pid.getAsLong() + ") left running on "
                    + dataDir + " did not stop within " + STOP_TIMEOUT.toSeconds() + " s of a fast shutdown; stop it"
                    + " (kill -INT " + pid.getAsLong() + ") and start again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the leftover PostgreSQL server", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("waiting for the leftover PostgreSQL server to stop: " + e.getCause(), e);
        }
        LOG.info(
                "leftover PostgreSQL (pid {}) stopped in {} ms",
                pid.getAsLong(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        return pid;
    }

    /** The first line of {@code postmaster.pid}: the postmaster's pid. */
    static OptionalLong postmasterPid(Path dataDir) {
        Path file = dataDir.resolve("postmaster.pid");
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.isEmpty()
                    ? OptionalLong.empty()
                    : OptionalLong.of(Long.parseLong(lines.get(0).trim()));
        } catch (java.nio.file.NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            LOG.warn("cannot read {} ({}); leaving it to PostgreSQL", file, e.toString());
            return OptionalLong.empty();
        }
    }

    /** Whether {@code pid} runs a {@code postgres} binary with {@code dataDir} on its command line (Linux /proc). */
    private static boolean isPostgresOn(long pid, Path dataDir) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            List<String> args = List.of(new String(raw, StandardCharsets.UTF_8).split("\0"));
            String dir = dataDir.toAbsolutePath().normalize().toString();
            return !args.isEmpty()
                    && Path.of(args.get(0)).getFileName().toString().startsWith("postgres")
                    && args.stream().anyMatch(a -> a.equals(dir) || a.endsWith("=" + dir));
        } catch (IOException | RuntimeException e) {
            // no /proc, or the process just went: nothing of ours to stop
            return false;
        }
    }

    private static void signalInterrupt(long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                throw new IllegalStateException("kill -INT " + pid + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -INT " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the leftover PostgreSQL server", e);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // nothing held
            }
        }
    }

    /** Releases the lock (the server is stopped or handed back). */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            LOG.debug("releasing the data directory lock: {}", e.toString());
        }
        closeQuietly(channel);
    }
}
