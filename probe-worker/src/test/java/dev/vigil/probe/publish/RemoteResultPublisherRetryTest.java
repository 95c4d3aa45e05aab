package dev.vigil.probe.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.sign.RequestSigner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The remote publisher's retries: the service kit's transient rule and backoff, and ingest's Retry-After. */
class RemoteResultPublisherRetryTest {
    private static final byte[] SECRET = "remote-publisher-test-secret-0123456789".getBytes(StandardCharsets.UTF_8);

    record Arrival(long nanos, String requestId) {}

    private static ProbeResult result() {
        return new ProbeResult(
                1,
                "api",
                "us-east",
                "w-1",
                0L,
                5L,
                Outcome.NETWORK_FAILURE,
                ErrorKind.TIMEOUT,
                null,
                null,
                2500,
                0L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                "r-1");
    }

    /** Answers the statuses in order (the last one for ever), with {@code Retry-After: 2} on a 503. */
    private static DisposableServer ingest(List<Arrival> arrivals, int... statuses) {
        AtomicInteger n = new AtomicInteger();
        return HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.post("/v1/probe-results", (req, res) -> {
                    arrivals.add(
                            new Arrival(System.nanoTime(), req.requestHeaders().get(RequestSigner.HEADER_REQUEST_ID)));
                    int status = statuses[Math.min(n.getAndIncrement(), statuses.length - 1)];
                    if (status == 503) {
                        res.header("Retry-After", "2");
                    }
                    return req.receive().then(Mono.from(res.status(status).send()));
                }))
                .bindNow();
    }

    /** Counts the batches taken on a retry, as the worker's metrics count them as self-heals. */
    private final AtomicInteger retriesSucceeded = new AtomicInteger();

    private final ResultPublisher.Listener counting = new ResultPublisher.Listener() {
        @Override
        public void retrySucceeded() {
            retriesSucceeded.incrementAndGet();
        }
    };

    @Test
    void a503IsRetriedNoSoonerThanItsRetryAfterWithTheSameRequestId() {
        List<Arrival> arrivals = new CopyOnWriteArrayList<>();
        DisposableServer server = ingest(arrivals, 503, 202);
        var publisher = new RemoteResultPublisher(
                "http://127.0.0.1:" + server.port(),
                "key",
                "us-east",
                SECRET,
                1,
                Duration.ofMillis(50),
                System::currentTimeMillis,
                counting);
        try {
            publisher.publish(result());
            await().atMost(Duration.ofSeconds(20)).until(() -> publisher.acknowledged() == 1);
            assertThat(retriesSucceeded)
                    .as("the batch got through on its retry")
                    .hasValue(1);
            assertThat(arrivals).hasSize(2);
            // the backoff alone would have retried within 500 ms: the wait is ingest's Retry-After
            assertThat(Duration.ofNanos(
                            arrivals.get(1).nanos() - arrivals.get(0).nanos()))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
            assertThat(arrivals.get(1).requestId()).isEqualTo(arrivals.get(0).requestId());
            assertThat(publisher.failed()).isZero();

            // a batch taken at once is no recovery
            publisher.publish(result());
            await().atMost(Duration.ofSeconds(20)).until(() -> publisher.acknowledged() == 2);
            assertThat(arrivals).hasSize(3);
            assertThat(retriesSucceeded).hasValue(1);
        } finally {
            publisher.close(Duration.ofSeconds(1));
            server.disposeNow();
        }
    }

    @Test
    void aRefusalIsTheAnswerAndIsNotRetried() {
        List<Arrival> arrivals = new CopyOnWriteArrayList<>();
        DisposableServer server = ingest(arrivals, 400);
        var publisher = new RemoteResultPublisher(
                "http://127.0.0.1:" + server.port(),
                "key",
                "us-east",
                SECRET,
                1,
                Duration.ofMillis(50),
                System::currentTimeMillis,
                counting);
        try {
            publisher.publish(result());
            await().atMost(Duration.ofSeconds(20)).until(() -> publisher.failed() == 1);
            // a second look after several backoff ceilings: still the one request
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> arrivals.size() == 1);
            assertThat(publisher.acknowledged()).isZero();
            assertThat(retriesSucceeded).hasValue(0);
        } finally {
            publisher.close(Duration.ofSeconds(1));
            server.disposeNow();
        }
    }
}
