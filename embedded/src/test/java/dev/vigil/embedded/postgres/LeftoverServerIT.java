package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.net.LocalPorts;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server outlives a JVM killed with {@code kill -9} (it is a daemon of {@code pg_ctl}); the next start
 * on the same data directory must take it over explicitly, not use it silently, and two live processes must not
 * share a directory.
 */
class LeftoverServerIT {
    @TempDir
    Path dir;

    @Test
    void aServerLeftByAKilledJvmIsStoppedAndReplacedWithNothingLost() throws Exception {
        Path data = dir.resolve("pg");
        int port = LocalPorts.free();
        Process child = child(data, port);
        long orphan;
        try {
            awaitReady(child);
            orphan = LeftoverServer.postmasterPid(data).orElseThrow();
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
        // what kill -9 leaves: the postmaster still runs, nobody owns it
        assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive)).contains(true);

        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(data)
                .port(port)
                .start()) {
            assertThat(pg.leftoverStopped()).hasValue(orphan);
            assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
            long own = LeftoverServer.postmasterPid(data).orElseThrow();
            assertThat(own).isNotEqualTo(orphan);
            assertThat(Sql.query(pg.connectionFactory(), "SELECT v FROM kept", row -> row.get("v", String.class)))
                    .containsExactly("written before the kill");
        }
        assertThat(Files.exists(data.resolve("postmaster.pid"))).isFalse();
    }

    @Test
    void aDirectoryInUseByALiveServerIsRefusedAndTheServerKeepsRunning() {
        Path data = dir.resolve("shared");
        try (EmbeddedPostgres first =
                EmbeddedPostgres.builder().useEnvironment(false).dataDir(data).start()) {
            EmbeddedPostgres second = EmbeddedPostgres.builder()
                    .useEnvironment(false)
                    .dataDir(data)
                    .build();
            assertThatThrownBy(second::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is in use by another running Vigil process")
                    .hasMessageContaining(data.toString());
            second.close();
            assertThat(first.leftoverStopped()).isEmpty();
            assertThat(Sql.query(first.connectionFactory(), "SELECT 1 AS one", row -> row.get("one", Integer.class)))
                    .containsExactly(1);
        }
        // closed: the directory is free again, and nothing is left to stop
        try (EmbeddedPostgres again =
                EmbeddedPostgres.builder().useEnvironment(false).dataDir(data).start()) {
            assertThat(again.leftoverStopped()).isEmpty();
        }
    }

    @Test
    void anOrderlyJvmExitStopsTheServerUnlessItsOwnerStopsItInOrder() throws Exception {
        // by default the JVM's exit (SIGTERM here) stops the server: a test that never closes it leaves none behind
        Path plain = dir.resolve("plain");
        Process child = child(plain, LocalPorts.free());
        awaitReady(child);
        long server = LeftoverServer.postmasterPid(plain).orElseThrow();
        child.destroy();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        await("the server stopped with the JVM").atMost(Duration.ofSeconds(30)).until(() -> !alive(server));

        // an application that stops its services in order keeps the server until it closes it itself, last; this
        // child closes nothing, so its exit leaves the server running for the next start to take over
        Path owned = dir.resolve("owned");
        int port = LocalPorts.free();
        Process owner = child(owned, port, "owner-stops");
        awaitReady(owner);
        long kept = LeftoverServer.postmasterPid(owned).orElseThrow();
        owner.destroy();
        assertThat(owner.waitFor(60, TimeUnit.SECONDS)).isTrue();
        await("the server not stopped by the JVM's exit")
                .during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> alive(kept));
        try (EmbeddedPostgres next = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(owned)
                .port(port)
                .start()) {
            assertThat(next.leftoverStopped()).hasValue(kept);
        }
    }

    private static Process child(Path data, int port, String... mode) throws java.io.IOException {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LeftoverServerChild.class.getName(),
                data.toString(),
                Integer.toString(port)));
        cmd.addAll(java.util.List.of(mode));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void awaitReady(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        String line;
        while ((line = out.readLine()) != null) {
            if (line.equals("READY")) {
                return;
            }
            seen.append(line).append('\n');
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        throw new AssertionError("the child JVM never started its server:\n" + seen);
    }
}
