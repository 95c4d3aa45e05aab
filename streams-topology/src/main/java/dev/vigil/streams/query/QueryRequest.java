package dev.vigil.streams.query;

import dev.vigil.kit.auth.Principal;
import java.util.Map;

/**
 * One request as the handlers see it: method, path, path parameters from the route template, query parameters
 * (first value of each), whether another instance already forwarded it here (only ever true for a request
 * authenticated with the instance credential), the body (empty for GET and DELETE; at most the route's
 * {@link ApiRoutes.Route#maxBodyBytes}), who is calling and from which address (for the audit log), and the
 * conditional headers of a write ({@link #CONDITION_HEADERS}).
 */
public record QueryRequest(
        ApiRoutes.Method method,
        String path,
        Map<String, String> pathParams,
        Map<String, String> query,
        boolean forwarded,
        String uri,
        byte[] body,
        Principal principal,
        String remoteAddress,
        Map<String, String> conditions) {
    public static final String FORWARDED_HEADER = "X-Vigil-Forwarded";
    /** The request headers a handler may read: the conditions of a conditional write (RFC 9110 section 13). */
    public static final java.util.List<String> CONDITION_HEADERS = java.util.List.of("If-Match", "If-None-Match");

    public QueryRequest {
        method = method == null ? ApiRoutes.Method.GET : method;
        pathParams = pathParams == null ? Map.of() : Map.copyOf(pathParams);
        query = query == null ? Map.of() : Map.copyOf(query);
        body = body == null ? new byte[0] : body;
        remoteAddress = remoteAddress == null ? "" : remoteAddress;
        conditions = conditions == null ? Map.of() : Map.copyOf(conditions);
    }

    /** A request without conditional headers. */
    public QueryRequest(
            ApiRoutes.Method method,
            String path,
            Map<String, String> pathParams,
            Map<String, String> query,
            boolean forwarded,
            String uri,
            byte[] body,
            Principal principal,
            String remoteAddress) {
        this(method, path, pathParams, query, forwarded, uri, body, principal, remoteAddress, Map.of());
    }

    /** The value of the conditional header {@code name} ({@code If-Match}, {@code If-None-Match}), or null. */
    public String condition(String name) {
        return conditions.get(name);
    }

    /** A request without a known caller (handlers under test). */
    public QueryRequest(
            ApiRoutes.Method method,
            String path,
            Map<String, String> pathParams,
            Map<String, String> query,
            boolean forwarded,
            String uri,
            byte[] body) {
        this(method, path, pathParams, query, forwarded, uri, body, null, null);
    }

    /** A GET request without a body. */
    public QueryRequest(
            String path, Map<String, String> pathParams, Map<String, String> query, boolean forwarded, String uri) {
        this(ApiRoutes.Method.GET, path, pathParams, query, forwarded, uri, null, null, null);
    }

    public String param(String name) {
        return pathParams.get(name);
    }

    public String queryParam(String name) {
        return query.get(name);
    }

    /** The caller's name: the token's name, which is the author of every change it makes. */
    public String actor() {
        return principal == null ? "anonymous" : principal.name();
    }
}
