package dev.vigil.probe.http;

import static dev.vigil.embedded.http.RawHttpConnection.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import org.junit.jupiter.api.Test;

/**
 * Pipelined requests on one keep-alive connection are answered in order and the connection stays read, now that
 * answers are written from another thread (see HealthServer on reactor-netty#4347; the hang itself is forced
 * deterministically in the query API's QueryServerKeepAliveTest and the ingest's IngestEndToEndIT).
 */
class HealthServerKeepAliveTest {
    @Test
    void everyPipelinedRequestIsAnsweredAndTheConnectionStaysRead() throws Exception {
        try (var server = new HealthServer("127.0.0.1", 0, () -> null, () -> "# metrics\n");
             RawHttpConnection conn = new RawHttpConnection(server.port(), 5_000)) {
            for (int round = 0; round < 20; round++) {
                conn.send(get("/health"), get("/metrics"), get("/ready"), get("/nope"));
                assertThat(conn.read().status()).isEqualTo(200);
                assertThat(conn.read().body()).isEqualTo("# metrics\n");
                assertThat(conn.read().status()).isEqualTo(200);
                assertThat(conn.read().status()).as("round %d", round).isEqualTo(404);
            }
        }
    }
}
