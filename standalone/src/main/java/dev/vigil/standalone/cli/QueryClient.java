package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/** The CLI's client of the query API. Blocking is fine here: the CLI thread is not an event loop. */
final class QueryClient {
    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    /** @param token the bearer token sent with every request, or null for none */
    QueryClient(String baseUrl, Duration timeout, String token) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeout = timeout;
        this.http = HttpClient.create().responseTimeout(timeout)
                .headers(h -> {
                    h.add("Accept", "application/json");
                    if (token != null) {
                        h.add("Authorization", "Bearer " + token);
                    }
                });
    }

    /** A response: status and parsed JSON body (null when the body is not JSON). */
    record Reply(int status, JsonNode body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The problem detail of an error response, or the status alone. */
        String problem() {
            if (body != null && body.hasNonNull("detail")) {
                return status + " " + body.path("title").asText("") + ": " + body.get("detail").asText();
            }
            return "HTTP " + status;
        }
    }

    Reply get(String path) {
        return exchange(http.get().uri(baseUrl + path));
    }

    Reply delete(String path) {
        return exchange(http.delete().uri(baseUrl + path));
    }

    Reply post(String path, Object body) {
        byte[] bytes = Json.bytes(body);
        return exchange(http.headers(h -> h.add("Content-Type", "application/json"))
                .post().uri(baseUrl + path).send(ByteBufFlux.fromString(Mono.just(new String(bytes, StandardCharsets.UTF_8)))));
    }

    private Reply exchange(HttpClient.ResponseReceiver<?> request) {
        try {
            Reply reply = request.responseSingle((res, content) -> content.asByteArray()
                            .map(bytes -> new Reply(res.status().code(), parse(bytes)))
                            .defaultIfEmpty(new Reply(res.status().code(), null)))
                    .block(timeout.plusSeconds(1));
            if (reply == null) {
                throw new IllegalStateException("no answer from " + baseUrl);
            }
            return reply;
        } catch (RuntimeException e) {
            if (e instanceof IllegalStateException ise && ise.getMessage() != null && ise.getMessage().startsWith("no answer")) {
                throw ise;
            }
            throw new IllegalStateException("cannot reach the query API at " + baseUrl + " (" + rootMessage(e)
                    + "); is Vigil running? set --url or VIGIL_QUERY_URL", e);
        }
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return Json.tree(bytes);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
