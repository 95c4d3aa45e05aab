package dev.vigil.streams.query;

import java.util.Map;

/**
 * One request as the handlers see it: method, path, path parameters from the route template, query parameters
 * (first value of each), whether another instance already forwarded it here, and the body (empty for GET and
 * DELETE; at most {@link QueryServer#MAX_BODY_BYTES}).
 */
public record QueryRequest(RouteTable.Method method, String path, Map<String, String> pathParams,
                           Map<String, String> query, boolean forwarded, String uri, byte[] body) {
    public static final String FORWARDED_HEADER = "X-Vigil-Forwarded";

    public QueryRequest {
        method = method == null ? RouteTable.Method.GET : method;
        pathParams = pathParams == null ? Map.of() : Map.copyOf(pathParams);
        query = query == null ? Map.of() : Map.copyOf(query);
        body = body == null ? new byte[0] : body;
    }

    /** A GET request without a body. */
    public QueryRequest(String path, Map<String, String> pathParams, Map<String, String> query, boolean forwarded,
                        String uri) {
        this(RouteTable.Method.GET, path, pathParams, query, forwarded, uri, null);
    }

    public String param(String name) {
        return pathParams.get(name);
    }

    public String queryParam(String name) {
        return query.get(name);
    }
}
