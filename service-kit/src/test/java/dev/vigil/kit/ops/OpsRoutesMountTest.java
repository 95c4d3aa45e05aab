package dev.vigil.kit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.http.Problem;
import dev.vigil.kit.http.Replies;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The ops endpoints mounted on a service's own API server, beside its routes and before its catch-all. */
class OpsRoutesMountTest {
    private DisposableServer server;
    private HttpAnswers http;

    @BeforeEach
    void start() {
        OpsRoutes ops = OpsRoutes.of(() -> "# api metrics\n").readiness(() -> Check.down("the broker is unreachable"));
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> {
                    r.get(
                            "/v1/things/{id}",
                            (req, res) -> Replies.send(
                                    res, 200, "application/json", ("{\"id\":\"" + req.param("id") + "\"}").getBytes()));
                    ops.accept(r);
                    r.route(
                            req -> true,
                            (req, res) -> Replies.problem(
                                    res, Problem.of(404, "not-found", "Not found", "the API's own catch-all")));
                })
                .bindNow(Duration.ofSeconds(10));
        http = new HttpAnswers(server.port());
    }

    @AfterEach
    void stop() {
        server.disposeNow(Duration.ofSeconds(5));
    }

    @Test
    void theServiceKeepsItsRoutesAndItsCatchAll() {
        assertThat(http.get("/v1/things/a-1").body()).isEqualTo("{\"id\":\"a-1\"}");
        assertThat(http.get("/health").body()).isEqualTo("{\"status\":\"ok\"}");
        var ready = http.get("/ready");
        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.body()).contains("\"detail\":\"the broker is unreachable\"");
        assertThat(http.get("/metrics").body()).isEqualTo("# api metrics\n");
        assertThat(http.send(HttpMethod.POST, "/metrics").status()).isEqualTo(405);
        var other = http.get("/v1/nothing");
        assertThat(other.status()).isEqualTo(404);
        assertThat(other.body()).contains("the API's own catch-all");
    }
}
