package dev.vigil.streams.query;

import java.util.Map;

/**
 * One GET request as the handlers see it: path, path parameters from the route template, query parameters
 * (first value of each), and whether another instance already forwarded it here.
 */
public record QueryRequest(String path, Map<String, String> pathParams, Map<String, String> query, boolean forwarded,
                           String uri) {
    public static final String FORWARDED_HEADER = "X-Vigil-Forwarded";

    public QueryRequest {
        pathParams = pathParams == null ? Map.of() : Map.copyOf(pathParams);
        query = query == null ? Map.of() : Map.copyOf(query);
    }

    public String param(String name) {
        return pathParams.get(name);
    }

    public String queryParam(String name) {
        return query.get(name);
    }
}
