package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.CHECKOUT_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The service kit's edge guard on the real ingest server (bound to loopback), over raw sockets: a request head
 * that never completes, a foreign Host header, and bodies beyond the server-wide budget are refused before any
 * route runs, and nothing of them is published.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeGuardIT {
    private static final int MAX_BODY = 16 * 1024;
    private IngestHarness ingest;
    private TopicOffsets offsets;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        // A budget of exactly one maximal body, so a second request beyond what the first one holds is refused.
        ingest = new IngestHarness(
                kafka,
                c -> c.withLimits(c.limits()
                        .withMaxBodyBytes(MAX_BODY)
                        .withMaxInFlightBodyBytes(MAX_BODY)
                        .withHeaderTimeout(Duration.ofMillis(500))));
        offsets = new TopicOffsets(
                kafka.consumerProps("x"), Topics.METRICS, Topics.PROBE_RESULTS, Topics.ALERTS, Topics.HEARTBEATS);
    }

    @AfterAll
    void stop() {
        offsets.close();
        ingest.close();
    }

    private int port() {
        return ingest.server.port();
    }

    private static String metricsPost(String host, String body) {
        return RawHttpConnection.post("/v1/metrics", "application/json", body, "Authorization: Bearer " + CHECKOUT_KEY)
                .replace("Host: 127.0.0.1\r\n", "Host: " + host + "\r\n");
    }

    private static String batch(int events) {
        return Events.metrics(events, System.currentTimeMillis(), "edge");
    }

    @Test
    void aSlowlorisHeadIsAnswered408AndTheConnectionClosed() throws Exception {
        try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
            c.sendPartial("POST /v1/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + CHECKOUT_KEY
                    + "\r\nX-Slow: a");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(408);
            assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
            assertThat(Json.tree(r.body().getBytes()).get("type").asText())
                    .isEqualTo("https://vigil.dev/problems/request-timeout");
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(ingest.meter("vigil.http.refused", "server", "ingest", "reason", "header_timeout"))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void aForeignHostHeaderOnTheLoopbackBoundServerIs421AndPublishesNothing() throws Exception {
        long before = offsets.total();
        try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
            c.send(metricsPost("evil.example", batch(1)));
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(421);
            assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
            assertThat(r.body()).contains("https://vigil.dev/problems/host-not-allowed");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
            c.send(metricsPost("localhost:" + port(), batch(1)));
            assertThat(c.read().status()).as("a loopback name is allowed").isEqualTo(202);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> offsets.total() >= before + 2); // the 202's record + marker
        long afterAllowed = offsets.total();
        try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
            c.send(metricsPost("evil.example:" + port(), batch(1)));
            assertThat(c.read().status()).isEqualTo(421);
        }
        assertThat(offsets.total()).as("the refused requests produced nothing").isEqualTo(afterAllowed);
        assertThat(ingest.meter("vigil.http.refused", "server", "ingest", "reason", "host"))
                .isEqualTo(2);
    }

    @Test
    void aBodyBeyondTheServerWideBudgetIs503WithRetryAfterAndPublishesNothing() throws Exception {
        String body = batch(10);
        assertThat(body.length()).isLessThan(MAX_BODY / 2);
        long before = offsets.total();
        try (RawHttpConnection holder = new RawHttpConnection(port(), 5000)) {
            // An authenticated request that sends most of a maximal body and then stalls: its bytes are held.
            holder.sendPartial("POST /v1/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + CHECKOUT_KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + MAX_BODY + "\r\n\r\n"
                    + "[".repeat(MAX_BODY - 100));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> ingest.meter("vigil.http.body.in.flight.bytes", "server", "ingest") == MAX_BODY - 100);
            try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
                c.send(metricsPost("127.0.0.1", body));
                RawHttpConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.headers()).containsKey("retry-after");
                assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
                assertThat(c.closedByServer()).isTrue();
            }
            assertThat(offsets.total())
                    .as("nothing of the refused request was published")
                    .isEqualTo(before);
        }
        // The stalled request's connection is gone: its bytes are released and the same request now fits.
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> ingest.meter("vigil.http.body.in.flight.bytes", "server", "ingest") == 0);
        try (RawHttpConnection c = new RawHttpConnection(port(), 5000)) {
            c.send(metricsPost("127.0.0.1", body));
            assertThat(c.read().status()).isEqualTo(202);
        }
        assertThat(ingest.meter("vigil.http.refused", "server", "ingest", "reason", "budget"))
                .isEqualTo(1);
    }
}
