package dev.vigil.streams.query;

import dev.vigil.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/** A complete HTTP answer: status, content type, body and extra headers. */
public record HttpResult(int status, String contentType, byte[] body, Map<String, String> headers) {
    public static final String JSON = "application/json";
    public static final String PROBLEM_JSON = "application/problem+json";
    /** Seconds a client should wait before retrying while the instance rebalances. */
    public static final int RETRY_AFTER_SECONDS = 2;

    public HttpResult {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
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

    /** RFC 9457 problem details. {@code type} is a short slug resolved under the API's problem namespace. */
    public static HttpResult problem(int status, String type, String title, String detail, String instance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "https://vigil.dev/problems/" + type);
        body.put("title", title);
        body.put("status", status);
        body.put("detail", detail);
        if (instance != null) {
            body.put("instance", instance);
        }
        return new HttpResult(status, PROBLEM_JSON, Json.bytes(body), Map.of());
    }

    public static HttpResult badRequest(String detail, String instance) {
        return problem(400, "bad-request", "Bad request", detail, instance);
    }

    public static HttpResult notFound(String detail, String instance) {
        return problem(404, "not-found", "Not found", detail, instance);
    }

    /** 503 with Retry-After: the instance cannot give a whole and correct answer right now. */
    public static HttpResult unavailable(String detail, String instance) {
        HttpResult p = problem(503, "unavailable", "Service unavailable", detail, instance);
        return new HttpResult(503, PROBLEM_JSON, p.body(), Map.of("Retry-After", String.valueOf(RETRY_AFTER_SECONDS)));
    }

    public String bodyText() {
        return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
}
