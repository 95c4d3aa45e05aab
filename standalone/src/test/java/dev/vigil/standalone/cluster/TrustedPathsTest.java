package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.standalone.cli.CliRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the cluster launcher's data directory by another local user of a shared host: a directory they created
 * or can write, a jar swapped for one of the same size, links planted where the launcher writes or reads, and pid
 * files naming processes the launcher did not start.
 */
class TrustedPathsTest {
    @TempDir
    Path tmp;

    private Process foreign;

    @AfterEach
    void stopForeign() {
        if (foreign != null) {
            foreign.destroyForcibly();
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private ClusterLayout layout(Path dir) {
        return ClusterLayout.standard(dir, 21000);
    }

    @Test
    void theDefaultDataDirIsOnePerUser() {
        // a shared /var/tmp/vigil-cluster was the directory another user could create first
        assertThat(ClusterCommand.defaultDataDir().toString()).matches("/var/tmp/vigil-cluster-\\d+");
        if (root()) {
            assertThat(ClusterCommand.defaultDataDir()).isEqualTo(Path.of("/var/tmp/vigil-cluster-0"));
        }
    }

    @Test
    void anAbsentDataDirIsCreatedPrivateWithItsSubdirectories() throws Exception {
        Path dir = tmp.resolve("fresh/cluster");
        TrustedPaths.prepareDataDir(dir);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
                .isEqualTo(root() ? "rwx--x--x" : "rwx------");
        for (String sub : List.of("logs", "run", "config", "lib")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(sub))))
                    .as(sub)
                    .isEqualTo("rwx------");
        }
    }

    @Test
    void aWorldWritableDataDirIsRefused() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> TrustedPaths.prepareDataDir(dir))
                .isInstanceOf(TrustedPaths.UntrustedPathException.class)
                .hasMessageContaining(dir + " can be written by other users (mode rwxrwxrwx)")
                .hasMessageContaining("chmod go-w " + dir);
        assertThat(dir.resolve("lib")).doesNotExist();
    }

    @Test
    void aGroupWritableSubdirectoryIsRefused() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        Files.setPosixFilePermissions(dir.resolve("run"), PosixFilePermissions.fromString("rwxrwx---"));
        assertThatThrownBy(() -> TrustedPaths.prepareDataDir(dir))
                .hasMessageContaining(dir.resolve("run") + " can be written by other users");
    }

    @Test
    void aSymlinkedDataDirIsRefused() throws Exception {
        Path real = Files.createDirectory(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(tmp.resolve("cluster"), real);
        assertThatThrownBy(() -> TrustedPaths.prepareDataDir(link)).hasMessageContaining(link + " is a symbolic link");
    }

    @Test
    void aDataDirOfAnotherUserIsRefused() throws Exception {
        Assumptions.assumeTrue(root(), "only root can give a directory to another user (nobody) to simulate one");
        Path dir = Files.createDirectory(tmp.resolve("theirs"));
        Files.setOwner(dir, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        assertThatThrownBy(() -> TrustedPaths.prepareDataDir(dir))
                .hasMessageContaining(dir + " belongs to nobody, not to root");
    }

    @Test
    void theCliRefusesAWorldWritableDataDirWithExit2() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        CliRun run = CliRun.vigil("cluster", "status", "--data-dir", dir.toString(), "--repo", "..");
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("vigil cluster status: " + dir + " can be written by other users");
    }

    @Test
    void aSameSizeJarWithOtherContentsIsReplacedBeforeItRuns() throws Exception {
        Path jar = tmp.resolve("vigil.jar");
        Files.writeString(jar, "the real build");
        ClusterLayout layout = layout(tmp.resolve("cluster"));
        TrustedPaths.prepareDataDir(layout.dataDir());
        Path copy = Path.of(LocalCluster.runnableClasspath(layout, jar.toString()));
        assertThat(copy).startsWith(layout.dataDir().resolve("lib"));

        Files.writeString(copy, "an evil build!"); // same size
        assertThat(Files.size(copy)).isEqualTo(Files.size(jar));
        Path again = Path.of(LocalCluster.runnableClasspath(layout, jar.toString()));

        assertThat(Files.readString(again)).isEqualTo("the real build");
    }

    @Test
    void aSymlinkedJarInLibIsRefused() throws Exception {
        Path jar = tmp.resolve("vigil.jar");
        Files.writeString(jar, "the real build");
        ClusterLayout layout = layout(tmp.resolve("cluster"));
        TrustedPaths.prepareDataDir(layout.dataDir());
        Path copy = Path.of(LocalCluster.runnableClasspath(layout, jar.toString()));
        Path evil = Files.writeString(tmp.resolve("evil.jar"), "the real build"); // even with the same bytes
        Files.delete(copy);
        Files.createSymbolicLink(copy, evil);

        assertThatThrownBy(() -> LocalCluster.runnableClasspath(layout, jar.toString()))
                .hasMessageContaining(copy + " is a symbolic link");
    }

    @Test
    void aGroupWritableJarInLibIsRefused() throws Exception {
        Path jar = tmp.resolve("vigil.jar");
        Files.writeString(jar, "the real build");
        ClusterLayout layout = layout(tmp.resolve("cluster"));
        TrustedPaths.prepareDataDir(layout.dataDir());
        Path copy = Path.of(LocalCluster.runnableClasspath(layout, jar.toString()));
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-rw-r--"));

        assertThatThrownBy(() -> LocalCluster.runnableClasspath(layout, jar.toString()))
                .hasMessageContaining(copy + " can be written by other users");
    }

    @Test
    void aPidFileNamingAProcessTheLauncherDidNotStartIsNotSignalled() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        foreign = new ProcessBuilder("sleep", "60").start();
        long started = foreign.info().startInstant().orElseThrow().toEpochMilli();
        Files.writeString(dir.resolve("run/streams-1.pid"), foreign.pid() + " " + started + " TERM\n");
        Files.setPosixFilePermissions(dir.resolve("run/streams-1.pid"), PosixFilePermissions.fromString("rw-------"));
        ProcessTable table = new ProcessTable(dir.resolve("run"), dir.resolve("logs"));

        assertThat(table.running("streams-1")).isEmpty();
        assertThat(table.stop("streams-1", Duration.ofSeconds(1))).isFalse();
        assertThat(table.kill9("streams-1")).isFalse();
        assertThat(table.signal("streams-1", "STOP")).isFalse();
        assertThat(foreign.isAlive()).isTrue();
    }

    @Test
    void aProcessTheLauncherStartedIsStillFoundAndStopped() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        ProcessTable table = new ProcessTable(dir.resolve("run"), dir.resolve("logs"));
        // the directory as the shell's $0: every command the launcher runs names its data directory
        ProcessTable.Running r = table.start(new ProcessSpec(
                "probe-x",
                List.of("sh", "-c", "sleep 60", dir.resolve("config/marker").toString()),
                Map.of()));

        assertThat(table.running("probe-x")).isPresent();
        assertThat(table.stop("probe-x", Duration.ofSeconds(10))).isTrue();
        assertThat(ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
    }

    @Test
    void aPidFileWritableByOthersOrALinkIsNotTrusted() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        ProcessTable table = new ProcessTable(dir.resolve("run"), dir.resolve("logs"));
        ProcessTable.Running r = table.start(new ProcessSpec(
                "probe-y",
                List.of("sh", "-c", "sleep 60", dir.resolve("config/marker").toString()),
                Map.of()));
        try {
            Path pid = dir.resolve("run/probe-y.pid");
            Files.setPosixFilePermissions(pid, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertThatThrownBy(() -> table.running("probe-y"))
                    .hasMessageContaining(pid + " can be written by other users");
            assertThatThrownBy(() -> table.stop("probe-y", Duration.ofSeconds(1)))
                    .hasMessageContaining(pid + " can be written by other users");

            Path planted = Files.writeString(tmp.resolve("planted.pid"), Files.readString(pid));
            Files.delete(pid);
            Files.createSymbolicLink(pid, planted);
            assertThatThrownBy(() -> table.running("probe-y")).hasMessageContaining(pid + " is a symbolic link");
            assertThat(ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive).orElse(false))
                    .isTrue();
        } finally {
            ProcessHandle.of(r.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aLinkPlantedWhereTheTokensFileIsWrittenIsReplacedNotFollowed() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        Path victim = Files.writeString(tmp.resolve("victim"), "untouched");
        Path tokens = dir.resolve("config/streams-tokens.yaml");
        Files.createSymbolicLink(tokens, victim);

        LocalCluster.write(tokens, "tokens: []\n");

        assertThat(Files.readString(victim)).isEqualTo("untouched");
        assertThat(Files.isSymbolicLink(tokens)).isFalse();
        assertThat(Files.readString(tokens)).isEqualTo("tokens: []\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rw-------");
    }

    @Test
    void aConfigReadBackMustBeTrusted() throws Exception {
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        Path routing = dir.resolve("config/routing.path");
        LocalCluster.write(routing, "/etc/vigil/routing.yaml");
        assertThat(TrustedPaths.readTrusted(routing)).contains("/etc/vigil/routing.yaml");

        Files.setPosixFilePermissions(routing, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> TrustedPaths.readTrusted(routing))
                .hasMessageContaining("can be written by other users");

        Files.delete(routing);
        Files.createSymbolicLink(
                routing, Files.writeString(tmp.resolve("theirs"), "/tmp/evil.yaml", StandardCharsets.UTF_8));
        assertThatThrownBy(() -> TrustedPaths.readTrusted(routing)).hasMessageContaining("is a symbolic link");
    }

    @Test
    void aFileOfAnotherUserIsNotTrusted() throws Exception {
        Assumptions.assumeTrue(root(), "only root can give a file to another user (nobody) to simulate one");
        Path dir = tmp.resolve("cluster");
        TrustedPaths.prepareDataDir(dir);
        Path routing = dir.resolve("config/routing.path");
        LocalCluster.write(routing, "/etc/vigil/routing.yaml");
        Files.setOwner(
                routing, routing.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        assertThatThrownBy(() -> TrustedPaths.readTrusted(routing)).hasMessageContaining("belongs to nobody");
    }

    @Test
    void theClusterRefusesAnUntrustedDataDirBeforeCopyingAnything() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path jar = Files.writeString(tmp.resolve("vigil.jar"), "the real build");
        assertThatThrownBy(() -> new LocalCluster(
                        layout(dir), Path.of(".."), new PrintWriter(new StringWriter()), jar.toString()))
                .isInstanceOf(TrustedPaths.UntrustedPathException.class);
        assertThat(dir.resolve("lib")).doesNotExist();
    }
}
