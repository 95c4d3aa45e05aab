package dev.vigil.streams.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * GET routes of the query API: templates such as {@code /v1/monitors/{id}/history} mapped to handlers.
 * Other concerns add their endpoints with {@link #get} before the server starts (e.g. {@code /v1/alerts}).
 */
public final class RouteTable {
    /** Answers one request; never blocks the calling (event-loop) thread. */
    @FunctionalInterface
    public interface Handler {
        Mono<HttpResult> handle(QueryRequest request);
    }

    /** A matched route: its handler and the path parameters bound from the template. */
    public record Match(String template, Handler handler, Map<String, String> params) {
    }

    private record Route(String template, String[] segments, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();

    public RouteTable get(String template, Handler handler) {
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("route template must start with /: " + template);
        }
        for (Route r : routes) {
            if (r.template.equals(template)) {
                throw new IllegalArgumentException("route already registered: " + template);
            }
        }
        routes.add(new Route(template, split(template), handler));
        return this;
    }

    public List<String> templates() {
        return routes.stream().map(Route::template).toList();
    }

    public Optional<Match> match(String path) {
        String[] parts = split(path);
        for (Route r : routes) {
            if (r.segments.length != parts.length) {
                continue;
            }
            Map<String, String> params = new HashMap<>();
            boolean ok = true;
            for (int i = 0; i < parts.length && ok; i++) {
                String seg = r.segments[i];
                if (seg.startsWith("{") && seg.endsWith("}")) {
                    if (parts[i].isEmpty()) {
                        ok = false;
                    } else {
                        params.put(seg.substring(1, seg.length() - 1), decode(parts[i]));
                    }
                } else {
                    ok = seg.equals(parts[i]);
                }
            }
            if (ok) {
                return Optional.of(new Match(r.template, r.handler, params));
            }
        }
        return Optional.empty();
    }

    private static String[] split(String path) {
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return p.substring(1).split("/", -1);
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
