package dev.vigil.kit.ops;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import reactor.netty.http.client.HttpClient;

/** Requests over loopback with Reactor Netty's client, answers as status, headers and body text. */
final class HttpAnswers {
    record Answer(int status, HttpHeaders headers, String body) {
        String header(String name) {
            return headers.get(name);
        }
    }

    private final HttpClient client;

    HttpAnswers(int port) {
        this.client = HttpClient.create().baseUrl("http://127.0.0.1:" + port);
    }

    Answer get(String path) {
        return send(HttpMethod.GET, path);
    }

    Answer send(HttpMethod method, String path) {
        return client.request(method)
                .uri(path)
                .responseSingle((res, body) -> body.asString()
                        .defaultIfEmpty("")
                        .map(text -> new Answer(res.status().code(), res.responseHeaders(), text)))
                .block(Duration.ofSeconds(10));
    }
}
