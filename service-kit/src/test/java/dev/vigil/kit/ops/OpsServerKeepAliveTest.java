package dev.vigil.kit.ops;

import static dev.vigil.embedded.http.RawHttpConnection.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import org.junit.jupiter.api.Test;

/**
 * Pipelined requests on one keep-alive connection are answered in order and the connection stays read, since
 * answers are written through {@code Replies} (reactor-netty#4347; the hang itself is forced deterministically in
 * RepliesKeepAliveTest, the query API's QueryServerKeepAliveTest and the ingest's IngestEndToEndIT).
 */
class OpsServerKeepAliveTest {
    @Test
    void everyPipelinedRequestIsAnsweredAndTheConnectionStaysRead() throws Exception {
        try (var server = OpsServer.start("127.0.0.1", 0, "test", null, OpsRoutes.of(() -> "# metrics\n"));
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
