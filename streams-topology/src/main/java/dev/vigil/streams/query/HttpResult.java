package dev.vigil.streams.query;

import dev.vigil.kit.http.Problem;
import dev.vigil.schemas.json.Json;
import java.util.Map;

/** A complete HTTP answer: status, content type, body and extra headers. */
public record HttpResult(int status, String contentType, byte[] body, Map<String, String> headers) {
    public static final String JSON = "application/json";
    /** Seconds a client should wait before retrying while the instance rebalances. */
    public static final int RETRY_AFTER_SECONDS = 2;

    public HttpResult {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /** This answer with one more header (replacing one of the same name). */
    public HttpResult withHeader(String name, String value) {
        Map<String, String> more = new java.util.HashMap<>(headers);
        more.put(name, value);
        return new HttpResult(status, contentType, body, more);
    }

    public static HttpResult json(int status, Object value) {
        return new HttpResult(status, JSON, Json.bytes(value), Map.of());
    }

    public static HttpResult ok(Object value) {
        return json(200, value);
    }

    public static HttpResult text(int status, String contentType, String body) {
        return new HttpResult(status, contentType, body.getBytes(java.nio.charset.StandardCharsets.UTF_8), Map.of());
    }

    /** The service kit's problem details ({@code type} a slug under {@link Problem#TYPE_BASE}). */
    public static HttpResult problem(int status, String type, String title, String detail, String instance) {
        return of(new Problem(status, type, title, detail, instance), Map.of());
    }

    /** A problem with extension members (e.g. {@code limit}: the configuration key a refusal enforces). */
    public static HttpResult problem(
            int status, String type, String title, String detail, String instance, Map<String, ?> extensions) {
        return of(new Problem(status, type, title, detail, instance), extensions);
    }

    private static HttpResult of(Problem problem, Map<String, ?> extensions) {
        return new HttpResult(problem.status(), Problem.CONTENT_TYPE, problem.bytes(extensions), Map.of());
    }

    public static HttpResult badRequest(String detail, String instance) {
        return problem(400, "bad-request", "Bad request", detail, instance);
    }

    /** 400 naming the request body's {@code field} at fault (extension member {@code field}). */
    public static HttpResult badRequest(String detail, String instance, String field) {
        return of(new Problem(400, "bad-request", "Bad request", detail, instance), Map.of("field", field));
    }

    public static HttpResult notFound(String detail, String instance) {
        return problem(404, "not-found", "Not found", detail, instance);
    }

    /** 503 with Retry-After: the instance cannot give a whole and correct answer right now. */
    public static HttpResult unavailable(String detail, String instance) {
        HttpResult p = problem(503, "unavailable", "Service unavailable", detail, instance);
        return new HttpResult(
                503, p.contentType(), p.body(), Map.of("Retry-After", String.valueOf(RETRY_AFTER_SECONDS)));
    }

    public String bodyText() {
        return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
}
