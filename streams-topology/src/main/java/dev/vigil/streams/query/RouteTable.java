package dev.vigil.streams.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * Routes of the query API: (method, template) such as {@code GET /v1/monitors/{id}/history} mapped to handlers.
 * Other concerns add their endpoints with {@link #get}, {@link #post} or {@link #delete} before the server starts
 * (e.g. {@code /v1/alerts}, {@code /v1/silences}).
 */
public final class RouteTable {
    /** Answers one request; called on a boundedElastic thread (store reads are fine), never waits for another request. */
    @FunctionalInterface
    public interface Handler {
        Mono<HttpResult> handle(QueryRequest request);
    }

    /** The HTTP methods a route can answer ({@code HEAD} is answered by the GET route). */
    public enum Method { GET, POST, DELETE }

    /** A matched route: its handler and the path parameters bound from the template. */
    public record Match(String template, Handler handler, Map<String, String> params) {
    }

    /**
     * The outcome of looking up (method, path): {@code match} present when a route answers; otherwise
     * {@code allowed} lists the methods of the routes the path matches (empty: no such endpoint → 404,
     * non-empty: wrong method → 405 with {@code Allow}).
     */
    public record Lookup(Optional<Match> match, Set<Method> allowed) {
        public Lookup {
            allowed = Set.copyOf(allowed);
        }
    }

    private record Route(Method method, String template, String[] segments, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();

    public RouteTable get(String template, Handler handler) {
        return add(Method.GET, template, handler);
    }

    public RouteTable post(String template, Handler handler) {
        return add(Method.POST, template, handler);
    }

    public RouteTable delete(String template, Handler handler) {
        return add(Method.DELETE, template, handler);
    }

    private RouteTable add(Method method, String template, Handler handler) {
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("route template must start with /: " + template);
        }
        for (Route r : routes) {
            if (r.method == method && r.template.equals(template)) {
                throw new IllegalArgumentException("route already registered: " + method + " " + template);
            }
        }
        routes.add(new Route(method, template, split(template), handler));
        return this;
    }

    /** The distinct templates, in registration order. */
    public List<String> templates() {
        return routes.stream().map(Route::template).distinct().toList();
    }

    /** The GET route matching {@code path}. */
    public Optional<Match> match(String path) {
        return lookup(Method.GET, path).match();
    }

    public Lookup lookup(Method method, String path) {
        String[] parts = split(path);
        Set<Method> allowed = new LinkedHashSet<>();
        for (Route r : routes) {
            Map<String, String> params = bind(r.segments, parts);
            if (params == null) {
                continue;
            }
            if (r.method == method) {
                return new Lookup(Optional.of(new Match(r.template, r.handler, params)), Set.of(method));
            }
            allowed.add(r.method);
        }
        return new Lookup(Optional.empty(), allowed);
    }

    private static Map<String, String> bind(String[] segments, String[] parts) {
        if (segments.length != parts.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < parts.length; i++) {
            String seg = segments[i];
            if (seg.startsWith("{") && seg.endsWith("}")) {
                if (parts[i].isEmpty()) {
                    return null;
                }
                params.put(seg.substring(1, seg.length() - 1), decode(parts[i]));
            } else if (!seg.equals(parts[i])) {
                return null;
            }
        }
        return params;
    }

    private static String[] split(String path) {
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return p.substring(1).split("/", -1);
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
