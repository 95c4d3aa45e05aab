package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** A handler that never answers: the caller gets a 503 with Retry-After once the handler bound passes, not a 500. */
class QueryServerTimeoutTest {
    private QueryServer server;

    @BeforeEach
    void start() {
        server = TestApi.start(new ApiRoutes().get("/v1/stuck", req -> Mono.never()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aHandlerThatNeverAnswersIsUnavailableNotAnInternalError() throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/stuck"))
                                .header("Authorization", TestApi.admin())
                                .timeout(Duration.ofSeconds(60))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(503);
        assertThat(res.headers().firstValue("Retry-After")).isPresent();
        assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(res.body()).contains("no answer within " + QueryServer.HANDLER_TIMEOUT.toSeconds() + " s");
    }
}
