package dev.vigil.ingest.it;

import static dev.vigil.embedded.http.RawHttpConnection.get;
import static dev.vigil.embedded.http.RawHttpConnection.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A client that posts on one keep-alive connection keeps getting answers when requests queue behind a batch
 * waiting for Kafka's acknowledgement and are refused (no key, unknown endpoint) or answered at once (health). Reactor Netty 1.3.7
 * stops reading such a connection when a queued request is answered synchronously on the event loop
 * (reactor-netty#4347); the ingest answers from another thread so it cannot.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeepAliveIT {
    private IngestHarness ingest;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        ingest = new IngestHarness(kafka);
    }

    @AfterAll
    void stop() {
        ingest.close();
    }

    @Test
    void refusalsQueuedBehindAnAcceptedBatchDoNotStallTheConnection() throws Exception {
        String batch = Events.metrics(50, System.currentTimeMillis(), "keepalive");
        String auth = "Authorization: Bearer " + IngestHarness.CHECKOUT_KEY;
        try (RawHttpConnection conn = new RawHttpConnection(ingest.server.port(), 10_000)) {
            conn.send(post("/v1/metrics", "application/json", batch, auth),
                    post("/v1/metrics", "application/json", batch),
                    get("/v1/nothing-here"));
            assertThat(conn.read().status()).isEqualTo(202);
            assertThat(conn.read().status()).isEqualTo(401);
            assertThat(conn.read().status()).isEqualTo(404);
            for (int i = 0; i < 3; i++) {
                conn.send(post("/v1/metrics", "application/json", batch, auth));
                assertThat(conn.read().status()).as("batch %d after the queued refusals", i + 1).isEqualTo(202);
            }
            // answers that need no body (health, readiness) queued behind a batch
            conn.send(post("/v1/metrics", "application/json", batch, auth), get("/health"), get("/health"));
            assertThat(conn.read().status()).isEqualTo(202);
            assertThat(conn.read().body()).contains("\"ok\"");
            assertThat(conn.read().body()).contains("\"ok\"");
            conn.send(get("/health"));
            assertThat(conn.read().body()).as("the connection is still read").contains("\"ok\"");
        }
    }
}
