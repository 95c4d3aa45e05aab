package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** Reads are asked again after a transient answer (the kit's rule and backoff); writes are sent once. */
class QueryClientRetryTest {
    private static final String PROBLEM =
            "{\"title\":\"Service unavailable\",\"status\":503,\"detail\":\"REBALANCING\"}";
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();

    /** Two 503s with Retry-After 0, then the answer; writes always 503. */
    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.get(
                            "/v1/status",
                            (req, res) -> reads.incrementAndGet() <= 2
                                    ? res.status(503)
                                            .header("Retry-After", "0")
                                            .header("Content-Type", "application/problem+json")
                                            .sendString(Mono.just(PROBLEM))
                                    : res.header("Content-Type", "application/json")
                                            .sendString(Mono.just("{\"monitors\":[]}")))
                    .get("/v1/missing", (req, res) -> {
                        reads.incrementAndGet();
                        return res.status(404).send();
                    })
                    .post("/v1/alerts/ack", (req, res) -> {
                        writes.incrementAndGet();
                        return res.status(503).header("Retry-After", "0").send();
                    }))
            .bindNow();

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private QueryClient client() {
        return new QueryClient("http://127.0.0.1:" + api.port(), Duration.ofSeconds(10), null);
    }

    @Test
    void aReadIsAskedAgainAfterATransientAnswer() {
        QueryClient.Reply reply = client().get("/v1/status");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().path("monitors").isArray()).isTrue();
        assertThat(reads).as("two 503s, then the answer").hasValue(3);
    }

    @Test
    void aFinalAnswerIsNotAskedAgain() {
        assertThat(client().get("/v1/missing").status()).isEqualTo(404);
        assertThat(reads).hasValue(1);
    }

    @Test
    void aWriteIsSentOnce() {
        QueryClient.Reply reply = client().post("/v1/alerts/ack", Map.of("fingerprint", "monitor/api"));
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.retryAfter()).isEqualTo(Duration.ZERO);
        assertThat(writes)
                .as("an acknowledgement is not repeated behind the operator's back")
                .hasValue(1);
    }
}
