package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.standalone.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drill counts pages on a fresh cluster; the rest of it is {@code ClusterDrillIT}. */
class ClusterDrillCommandTest {
    @TempDir
    Path dir;

    @Test
    void aDataDirThatHoldsAClusterIsRefusedBeforeAnythingStarts() throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/streams-1.log"), "an earlier run\n");

        CliRun run = CliRun.vigil("cluster", "drill", "--short", "--data-dir", dir.toString(), "--base-port", "21000");

        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err())
                .contains(dir.toString() + " already holds a cluster")
                .contains("vigil cluster down --data-dir " + dir)
                .contains("pass --data-dir with a new one");
        assertThat(run.out()).doesNotContain("cluster:");
        // nothing was started or written: no pid files, no generated secrets
        assertThat(dir.resolve("run")).doesNotExist();
        assertThat(dir.resolve("config")).doesNotExist();
        assertThat(Files.readString(dir.resolve("logs/streams-1.log"))).isEqualTo("an earlier run\n");
    }

    @Test
    void anAbsentOrEmptyDirectoryIsFresh() throws Exception {
        assertThat(ClusterDrillCommand.isEmpty(dir.resolve("absent"))).isTrue();
        assertThat(ClusterDrillCommand.isEmpty(Files.createDirectories(dir.resolve("empty"))))
                .isTrue();
        Files.writeString(dir.resolve("empty/x"), "");
        assertThat(ClusterDrillCommand.isEmpty(dir.resolve("empty"))).isFalse();
    }
}
