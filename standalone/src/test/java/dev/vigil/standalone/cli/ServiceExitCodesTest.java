package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.main.ExitCode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil <service>} ends with the kit's exit codes: 2 for a configuration to fix, 3 for a start to retry. */
class ServiceExitCodesTest {
    @TempDir
    Path dir;

    @Test
    void anInvalidConfigurationExitsWith2AndSaysWhichKey() throws Exception {
        Path config = Files.writeString(dir.resolve("ingest.yaml"), "http:\n  host: 127.0.0.1\n  port: -5\n");
        CliRun run = CliRun.vigil("ingest", "--config", config.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(ExitCode.CONFIG.code()).isEqualTo(2);
        assertThat(run.err()).startsWith("vigil ingest: ").contains("port");
    }

    @Test
    void aServiceThatCannotStartExitsWith3() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path config = Files.writeString(
                    dir.resolve("ingest.yaml"),
                    "http:\n  host: 127.0.0.1\n  port: " + taken.getLocalPort()
                            + "\nkafka:\n  bootstrapServers: 127.0.0.1:1\n");
            CliRun run = CliRun.vigil("ingest", "--config", config.toString());
            assertThat(run.exit())
                    .as(run.err())
                    .isEqualTo(ExitCode.STARTUP.code())
                    .isEqualTo(3);
            assertThat(run.err()).startsWith("vigil ingest failed to start: ");
        }
    }
}
