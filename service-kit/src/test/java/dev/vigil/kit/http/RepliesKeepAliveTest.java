package dev.vigil.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A keep-alive connection keeps being read after requests that arrived while an earlier answer was still in flight.
 * Reactor Netty 1.3.7 holds such requests back and, when one is answered synchronously on the event loop, never
 * reads the connection again (reactor-netty#4347). A slow first request with quick ones pipelined behind it forces
 * that interleaving every time; written with {@link Replies}, every answer comes (written directly, the quick answers
 * hang).
 */
class RepliesKeepAliveTest {
    private DisposableServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.disposeNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void connectionKeepsAnsweringAfterRequestsHeldBackBehindASlowOne() throws Exception {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.get("/slow", (req, res) -> Mono.delay(Duration.ofMillis(150))
                                .then(json(res, "slow")))
                        .get("/quick", (req, res) -> json(res, "quick"))
                        .route(
                                req -> true,
                                (req, res) -> Replies.problem(
                                        res, Problem.of(404, "not-found", "Not found", "no such endpoint"))))
                .bindNow(Duration.ofSeconds(10));
        try (RawHttpConnection conn = new RawHttpConnection(server.port(), 5_000)) {
            conn.send(get("/slow"), get("/quick"), get("/quick"));
            assertThat(conn.read().body()).contains("\"slow\"");
            assertThat(conn.read().body()).contains("\"quick\"");
            assertThat(conn.read().body()).contains("\"quick\"");
            for (int i = 0; i < 3; i++) {
                conn.send(get("/quick"));
                assertThat(conn.read().body())
                        .as("request %d after the pipelined ones", i + 1)
                        .contains("\"quick\"");
            }
            conn.send(get("/slow"), get("/no-such-endpoint"), get("/quick"));
            assertThat(conn.read().status()).isEqualTo(200);
            assertThat(conn.read().status()).isEqualTo(404);
            assertThat(conn.read().body()).as("the connection is still read").contains("\"quick\"");
        }
    }

    private static Mono<Void> json(HttpServerResponse res, String r) {
        return Replies.send(res, 200, "application/json", ("{\"r\":\"" + r + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static String get(String path) {
        return RawHttpConnection.get(path);
    }
}
