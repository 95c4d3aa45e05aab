package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A picked port is bound only when the server starts; meanwhile the kernel may give a port of its ephemeral range
 * to anyone binding port 0. So an embedded server's port is picked below that range.
 */
class EmbeddedPostgresPortTest {
    @Test
    void aPickedPortLiesBelowTheKernelsEphemeralRange() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        assumeTrue(Files.isReadable(range), "the kernel's ephemeral range is known on Linux only");
        int low = Integer.parseInt(Files.readAllLines(range).get(0).strip().split("\\s+")[0]);
        for (int i = 0; i < 5; i++) {
            try (EmbeddedPostgres pg =
                    EmbeddedPostgres.builder().useEnvironment(false).build()) {
                assertThat(pg.port()).isLessThan(low).isGreaterThanOrEqualTo(1024);
            }
        }
    }
}
