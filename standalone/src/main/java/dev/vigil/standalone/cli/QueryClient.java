package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.http.TransientStatus;
import dev.vigil.kit.retry.Backoff;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * The CLI's client of the query API. Blocking is fine here: the CLI thread is not an event loop.
 *
 * <p>A read is safe to repeat: a transient answer (the kit's {@link TransientStatus}: 408, 429, 5xx, such as the 503
 * of an instance still rebalancing) is asked again after the kit's jittered {@link Backoff}, never before the
 * server's {@code Retry-After}, until the request timeout would pass; then the last answer is the result. Writes
 * (acknowledgements, silences) are sent once.
 */
final class QueryClient {
    private static final Backoff READ_RETRY = Backoff.jittered(Duration.ofMillis(250), 2, Duration.ofSeconds(2));
    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    /** @param token the bearer token sent with every request, or null for none */
    QueryClient(String baseUrl, Duration timeout, String token) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeout = timeout;
        this.http = HttpClient.create().responseTimeout(timeout).headers(h -> {
            h.add("Accept", "application/json");
            if (token != null) {
                h.add("Authorization", "Bearer " + token);
            }
        });
    }

    /** A response: status, parsed JSON body (null when the body is not JSON) and its Retry-After (null: none). */
    record Reply(int status, JsonNode body, Duration retryAfter) {
        Reply(int status, JsonNode body) {
            this(status, body, null);
        }

        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The problem detail of an error response, or the status alone. */
        String problem() {
            if (body != null && body.hasNonNull("detail")) {
                return status + " " + body.path("title").asText("") + ": "
                        + body.get("detail").asText();
            }
            return "HTTP " + status;
        }
    }

    Reply get(String path) {
        return retryingTransient(() -> exchange(http.get().uri(baseUrl + path)));
    }

    private Reply retryingTransient(Supplier<Reply> read) {
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            Reply reply = read.get();
            if (!TransientStatus.isTransient(reply.status())) {
                return reply;
            }
            Duration wait = READ_RETRY.delay(attempt, reply.retryAfter());
            if (Backoff.exceeds(Duration.ofNanos(System.nanoTime() - start), wait, timeout)) {
                return reply;
            }
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return reply;
            }
        }
    }

    Reply delete(String path) {
        return exchange(http.delete().uri(baseUrl + path));
    }

    /** A DELETE with extra request headers (such as {@code If-Match}). */
    Reply delete(String path, java.util.Map<String, String> headers) {
        return exchange(http.headers(h -> headers.forEach(h::add)).delete().uri(baseUrl + path));
    }

    Reply post(String path, Object body) {
        byte[] bytes = Json.bytes(body);
        return exchange(http.headers(h -> h.add("Content-Type", "application/json"))
                .post()
                .uri(baseUrl + path)
                .send(ByteBufFlux.fromString(Mono.just(new String(bytes, StandardCharsets.UTF_8)))));
    }

    private Reply exchange(HttpClient.ResponseReceiver<?> request) {
        try {
            Reply reply = request.responseSingle((res, content) -> {
                        Duration retryAfter =
                                TransientStatus.retryAfter(res.responseHeaders().get("Retry-After"), Clock.systemUTC());
                        return content.asByteArray()
                                .map(bytes -> new Reply(res.status().code(), parse(bytes), retryAfter))
                                .defaultIfEmpty(new Reply(res.status().code(), null, retryAfter));
                    })
                    .block(timeout.plusSeconds(1));
            if (reply == null) {
                throw new IllegalStateException("no answer from " + baseUrl);
            }
            return reply;
        } catch (RuntimeException e) {
            if (e instanceof IllegalStateException ise
                    && ise.getMessage() != null
                    && ise.getMessage().startsWith("no answer")) {
                throw ise;
            }
            throw new IllegalStateException(
                    "cannot reach the query API at " + baseUrl + " (" + rootMessage(e)
                            + "); is Vigil running? set --url or VIGIL_QUERY_URL",
                    e);
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
