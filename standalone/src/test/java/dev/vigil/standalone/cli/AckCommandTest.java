package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** {@code vigil ack|unack} against a stand-in query API on loopback. */
class AckCommandTest {
    private final List<String> calls = new CopyOnWriteArrayList<>();

    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle((req, res) -> req.receive()
                    .aggregate()
                    .asString()
                    .defaultIfEmpty("")
                    .flatMap(body -> {
                        calls.add(req.method() + " " + req.uri() + " " + body + " "
                                + req.requestHeaders().get("Authorization"));
                        if (req.uri().contains("none")) {
                            return res.status(404)
                                    .header("Content-Type", "application/problem+json")
                                    .sendString(
                                            Mono.just(
                                                    "{\"title\":\"Not found\",\"status\":404,\"detail\":\"no open incident with fingerprint monitor/none\"}"))
                                    .then();
                        }
                        String answer = req.method().name().equals("POST")
                                ? "{\"fingerprint\":\"monitor/demo-outage\",\"acknowledgedBy\":\"oncall\",\"acknowledgedUntil\":1796162400000}"
                                : "{\"fingerprint\":\"monitor/demo-outage\"}";
                        return res.header("Content-Type", "application/json")
                                .sendString(Mono.just(answer))
                                .then();
                    }))
            .bindNow();

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private String url() {
        return "http://127.0.0.1:" + api.port();
    }

    @Test
    void ackPostsUntilAndCommentForTheEncodedFingerprintAndPrintsWhoAndUntilWhen() {
        CliRun run = CliRun.vigil(
                "ack",
                "monitor/demo-outage",
                "--until",
                "30m",
                "--comment",
                "on it",
                "--url",
                url(),
                "--token",
                "vgl_t");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("monitor/demo-outage acknowledged by oncall until 2026-12-01T22:00:00 UTC");
        assertThat(calls)
                .containsExactly(
                        "POST /v1/alerts/monitor%2Fdemo-outage/ack {\"comment\":\"on it\",\"until\":\"30m\"} Bearer vgl_t");
    }

    @Test
    void unackDeletesAndAnUnknownIncidentIsAClearError() {
        CliRun run = CliRun.vigil("unack", "monitor/demo-outage", "--url", url(), "--token", "vgl_t");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("monitor/demo-outage is no longer acknowledged");
        assertThat(calls).containsExactly("DELETE /v1/alerts/monitor%2Fdemo-outage/ack  Bearer vgl_t");
        CliRun none = CliRun.vigil("ack", "monitor/none", "--url", url(), "--token", "vgl_t");
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains("no open incident with fingerprint monitor/none");
    }
}
