package dev.vigil.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

class ServerGuardTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicInteger handled = new AtomicInteger();
    private final CountDownLatch releaseSlow = new CountDownLatch(1);
    private DisposableServer server;

    private void start(ServerLimits limits) {
        server = ServerGuard.apply(HttpServer.create().host("127.0.0.1").port(0), limits, "test", registry)
                .route(r -> r.get("/ok", (req, res) -> {
                            handled.incrementAndGet();
                            return res.header("Content-Type", "text/plain").sendString(Mono.just("ok"));
                        })
                        .post("/echo", (req, res) -> {
                            handled.incrementAndGet();
                            return req.receive()
                                    .aggregate()
                                    .asString()
                                    .defaultIfEmpty("")
                                    .flatMap(body -> res.header("Content-Type", "text/plain")
                                            .sendString(Mono.just("got " + body.length()))
                                            .then());
                        })
                        .post("/slow", (req, res) -> {
                            handled.incrementAndGet();
                            return req.receive()
                                    .aggregate()
                                    .asString()
                                    .flatMap(body -> Mono.fromCallable(() -> releaseSlow.await(10, TimeUnit.SECONDS))
                                            .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()))
                                    .flatMap(x -> res.header("Content-Type", "text/plain")
                                            .sendString(Mono.just("slow"))
                                            .then());
                        }))
                .bindNow();
    }

    private static ServerLimits limits() {
        return ServerLimits.defaults("127.0.0.1").withHeaderTimeout(Duration.ofMillis(400));
    }

    @AfterEach
    void stop() {
        releaseSlow.countDown();
        if (server != null) {
            server.disposeNow();
        }
    }

    @Test
    void loopbackServerRefusesAForeignHostHeaderBeforeAnyHandler() throws Exception {
        start(limits());
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.send("GET /ok HTTP/1.1\r\nHost: attacker.example:8081\r\n\r\n");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(421);
            assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
            assertThat(r.body()).contains("https://vigil.dev/problems/host-not-allowed");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.send("GET /ok HTTP/1.1\r\n\r\n"); // no Host at all
            assertThat(c.read().status()).isEqualTo(421);
        }
        assertThat(handled.get()).isZero();
        for (String host : new String[] {"127.0.0.1", "localhost:8081", "[::1]:8081", "LOCALHOST"}) {
            try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
                c.send("GET /ok HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
                assertThat(c.read().status()).as(host).isEqualTo(200);
            }
        }
        assertThat(registry.get("vigil.http.refused")
                        .tag("reason", "host")
                        .counter()
                        .count())
                .isEqualTo(2.0);
    }

    @Test
    void slowlorisHeadIsAnswered408AndCut() throws Exception {
        start(limits());
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.sendPartial("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(408);
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            // a connection that never sends anything is cut as well, silently: there is no request to answer
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(handled.get()).isZero();
        assertThat(registry.get("vigil.http.refused")
                        .tag("reason", "idle_connection")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void keepAliveConnectionGetsAFreshHeadDeadlineAfterEachAnswer() throws Exception {
        start(limits());
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.send(RawHttpConnection.get("/ok"));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(RawHttpConnection.get("/ok"), RawHttpConnection.get("/ok")); // pipelined
            assertThat(c.read().status()).isEqualTo(200);
            assertThat(c.read().status()).isEqualTo(200);
            c.sendPartial("GET /ok HTTP/1.1\r\n");
            assertThat(c.read().status()).isEqualTo(408);
        }
        assertThat(handled.get()).isEqualTo(3);
    }

    @Test
    void anIdleKeepAliveConnectionIsNeverHandedAnUnaskedAnswer() throws Exception {
        start(limits().withAllowedHosts(ServerLimits.LOOPBACK_NAMES));
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 1500)) {
            c.send(RawHttpConnection.get("/ok"));
            assertThat(c.read().status()).isEqualTo(200);
            // well past the head timeout with nothing sent: no 408 arrives (the idle timeout closes it, silently)
            assertThat(c.closedByServer()).isFalse();
            c.send(RawHttpConnection.get("/ok"));
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    @Test
    void bodiesBeyondTheServerBudgetAre503WithRetryAfterAndReleasedWhenAnswered() throws Exception {
        start(limits().withMaxInFlightBodyBytes(1000));
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            // larger than the whole budget: it can never fit, so it is too large rather than "retry later"
            c.send(RawHttpConnection.post("/echo", "text/plain", "x".repeat(1500)));
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(413);
        }
        assertThat(handled.get()).isZero();
        try (RawHttpConnection slow = new RawHttpConnection(server.port(), 10000);
                RawHttpConnection other = new RawHttpConnection(server.port(), 5000)) {
            slow.send(RawHttpConnection.post("/slow", "text/plain", "y".repeat(800)));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> handled.get() == 1);
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> registry.get("vigil.http.body.in.flight.bytes")
                                    .gauge()
                                    .value()
                            == 800.0);
            other.send(RawHttpConnection.post("/echo", "text/plain", "z".repeat(300)));
            assertThat(other.read().status()).isEqualTo(503);
            releaseSlow.countDown();
            assertThat(slow.read().status()).isEqualTo(200);
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() ->
                        registry.get("vigil.http.body.in.flight.bytes").gauge().value() == 0.0);
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.send(RawHttpConnection.post("/echo", "text/plain", "z".repeat(300)));
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("got 300");
        }
    }

    @Test
    void aBodySentAfterItsRequestWasAnsweredHoldsNoBudgetAndIsNoNewHead() throws Exception {
        server = ServerGuard.apply(
                        HttpServer.create().host("127.0.0.1").port(0),
                        limits().withMaxInFlightBodyBytes(1000),
                        "test",
                        registry)
                .route(r -> r.post("/refuse", (req, res) -> res.status(401)
                        .header("Content-Type", "text/plain")
                        .sendString(Mono.just("no"))))
                .bindNow();
        for (int round = 0; round < 3; round++) {
            try (RawHttpConnection c = new RawHttpConnection(server.port(), 1500)) {
                c.sendPartial(
                        "POST /refuse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 900\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(401);
                c.sendPartial("b".repeat(900)); // the body of the refused request, after its answer
                // no unrequested 408 for those bytes (the connection is closed or idle, never answered again)
                try {
                    c.read();
                    org.assertj.core.api.Assertions.fail("an answer nobody asked for");
                } catch (java.io.IOException expected) {
                    // closed, or nothing within the read timeout
                }
            }
        }
        assertThat(registry.get("vigil.http.body.in.flight.bytes").gauge().value())
                .as("three refused 900-byte bodies leave nothing held")
                .isZero();
    }

    @Test
    void hostAllowListParsing() {
        ServerLimits l = ServerLimits.defaults("127.0.0.1").withAllowedHosts(Set.of("vigil.internal", "localhost"));
        assertThat(l.hostAllowed("vigil.internal:8081")).isTrue();
        assertThat(l.hostAllowed("VIGIL.INTERNAL.")).isTrue();
        assertThat(l.hostAllowed("vigil.internal.evil.example")).isFalse();
        assertThat(l.hostAllowed("localhost:99999")).isFalse();
        assertThat(l.hostAllowed("localhost:80x")).isFalse();
        assertThat(l.hostAllowed("127.0.0.1")).isFalse();
        assertThat(l.hostAllowed(null)).isFalse();
        assertThat(ServerLimits.defaults("0.0.0.0").hostAllowed("anything.example"))
                .isTrue();
        assertThat(ServerLimits.defaults("127.0.0.1").hostAllowed("[::1]:8081")).isTrue();
        assertThat(ServerLimits.defaults("127.0.0.1").hostAllowed("[::1")).isFalse();
    }
}
