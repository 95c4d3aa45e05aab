package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A keep-alive connection must keep being read after requests that arrived while an earlier answer was still in
 * flight. Reactor Netty 1.3.7 buffers such requests and, when one is answered synchronously on the event loop,
 * never re-arms the read (reactor-netty#4347/#4361): the connection hangs. It surfaced as a rare
 * {@code HttpTimeoutException} in {@link QueryApiTest}; here a slow first request with quick ones pipelined behind
 * it forces the interleaving every time.
 */
class QueryServerKeepAliveTest {
    private QueryServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void connectionKeepsAnsweringAfterRequestsBufferedBehindASlowOne() throws Exception {
        ApiRoutes routes = new ApiRoutes()
                .get("/slow", req -> Mono.delay(Duration.ofMillis(150)).thenReturn(HttpResult.ok(Map.of("r", "slow"))))
                .get("/quick", req -> Mono.just(HttpResult.ok(Map.of("r", "quick"))));
        server = TestApi.start(routes);
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
            conn.send(get("/no-such-endpoint"));
            assertThat(conn.read().status()).isEqualTo(404);
        }
    }

    /** A bodyless GET with the admin token (every non-ops route needs one). */
    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + TestApi.admin() + "\r\n\r\n";
    }
}
