package dev.vigil.standalone.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The processes a cluster launcher started, remembered in pid files ({@code run/<name>.pid}: the pid and the
 * process's start time) so that {@code down}, {@code status} and the drills act on exactly those: a pid that was
 * reused by an unrelated process since (its start time differs) is never signalled, nor is one whose command line
 * does not name the cluster's data directory (every command the launcher runs does), and a pid file is believed only
 * when it is this user's, writable by no one else and not a link.
 *
 * <p>Each process runs in its own session ({@code setsid}), so an interrupt in the terminal that ran {@code up}
 * does not reach it, and writes stdout and stderr to {@code logs/<name>.log} (appended across restarts).
 */
public final class ProcessTable {
    private static final Duration START_TIME_TOLERANCE = Duration.ofSeconds(2);
    private final Path runDir;
    private final Path logDir;
    private final Path dataDir;

    /** @param runDir {@code <data-dir>/run}, whose parent every started command names */
    public ProcessTable(Path runDir, Path logDir) {
        this.runDir = runDir.toAbsolutePath().normalize();
        this.logDir = logDir;
        this.dataDir = this.runDir.getParent();
    }

    /** A process this table started and that is still the same process. */
    public record Running(String name, long pid, Instant started) {}

    public Running start(ProcessSpec spec) {
        if (!TrustedPaths.names(spec.command(), dataDir)) {
            throw new IllegalArgumentException(spec.name() + ": the command must name the data directory " + dataDir
                    + " (how a pid file's process is told from an unrelated one): " + spec.command());
        }
        Optional<Running> already = running(spec.name());
        if (already.isPresent()) {
            return already.get();
        }
        try {
            Files.createDirectories(runDir);
            Files.createDirectories(logDir);
            if (Files.isSymbolicLink(log(spec.name()))) {
                throw new TrustedPaths.UntrustedPathException(log(spec.name()) + " is a symbolic link; refusing to"
                        + " write a process's output through it: remove it");
            }
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
                command.add("/usr/bin/setsid");
            }
            command.addAll(spec.command());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ProcessBuilder.Redirect.appendTo(log(spec.name()).toFile()))
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().putAll(spec.env());
            Files.writeString(
                    log(spec.name()),
                    "=== " + Instant.now() + " start " + String.join(" ", spec.command()) + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            Process process = builder.start();
            Instant started = process.info().startInstant().orElse(Instant.now());
            TrustedPaths.writePrivate(
                    pidFile(spec.name()),
                    process.pid() + " " + started.toEpochMilli() + " " + spec.stopSignal() + "\n");
            return new Running(spec.name(), process.pid(), started);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + spec.name() + ": " + e.getMessage(), e);
        }
    }

    public Path log(String name) {
        return logDir.resolve(name + ".log");
    }

    private Path pidFile(String name) {
        return runDir.resolve(name + ".pid");
    }

    /**
     * The named process, when this table started it and it still runs.
     *
     * @throws TrustedPaths.UntrustedPathException when its pid file is a link, another user's or writable by others
     */
    public Optional<Running> running(String name) {
        Optional<String> text = TrustedPaths.readTrusted(pidFile(name));
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            String[] parts = text.get().trim().split(" ");
            long pid = Long.parseLong(parts[0]);
            Instant started = Instant.ofEpochMilli(Long.parseLong(parts[1]));
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> h.info()
                            .startInstant()
                            .map(s -> Duration.between(s, started).abs().compareTo(START_TIME_TOLERANCE) <= 0)
                            .orElse(false))
                    .filter(h -> TrustedPaths.startedFor(h, dataDir))
                    .map(h -> new Running(name, pid, started));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Names of every process with a pid file, in the order they were started. */
    public List<String> names() {
        if (!Files.isDirectory(runDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(runDir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".pid"))
                    .sorted((a, b) -> {
                        try {
                            return Files.getLastModifiedTime(a).compareTo(Files.getLastModifiedTime(b));
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .map(p -> p.getFileName().toString().replaceFirst("\\.pid$", ""))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL, as a crash: the pid file stays, so {@code status} shows the process as down. */
    public boolean kill9(String name) {
        return running(name)
                .map(r -> {
                    ProcessHandle.of(r.pid()).ifPresent(h -> {
                        h.destroyForcibly();
                        waitForExit(h, Duration.ofSeconds(10));
                    });
                    return true;
                })
                .orElse(false);
    }

    /**
     * Stops the named process with its clean stop signal, then SIGKILL after {@code grace}; removes its pid file.
     *
     * @return true when it was running
     */
    public boolean stop(String name, Duration grace) {
        Optional<Running> r = running(name);
        if (r.isPresent()) {
            ProcessHandle h = ProcessHandle.of(r.get().pid()).orElse(null);
            if (h != null) {
                signal(r.get().pid(), stopSignal(name));
                if (!waitForExit(h, grace)) {
                    h.destroyForcibly();
                    waitForExit(h, Duration.ofSeconds(10));
                }
            }
        }
        try {
            Files.deleteIfExists(pidFile(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r.isPresent();
    }

    /** Sends a signal such as STOP or CONT to a running process of this table. */
    public boolean signal(String name, String signal) {
        return running(name)
                .map(r -> {
                    signal(r.pid(), signal);
                    return true;
                })
                .orElse(false);
    }

    private String stopSignal(String name) {
        String[] parts =
                TrustedPaths.readTrusted(pidFile(name)).orElse("").trim().split(" ");
        return parts.length > 2 && List.of("TERM", "INT").contains(parts[2]) ? parts[2] : "TERM";
    }

    private static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            kill.getInputStream().readAllBytes();
            kill.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean waitForExit(ProcessHandle h, Duration timeout) {
        try {
            h.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return !h.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !h.isAlive();
        }
    }
}
