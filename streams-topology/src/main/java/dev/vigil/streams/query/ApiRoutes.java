package dev.vigil.streams.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * The query API's endpoints: (method, template) such as {@code GET /v1/monitors/{id}/history} and the handler that
 * answers it. Each concern adds its endpoints with {@link #get}, {@link #post}, {@link #put} or {@link #delete} before the server
 * starts (e.g. {@code /v1/alerts}, {@code /v1/silences}); {@link QueryServer} hands them to Reactor Netty's routing,
 * which matches request paths against the templates and binds their {@code {parameters}}.
 */
public final class ApiRoutes {
    /** Answers one request; called on a boundedElastic thread (store reads are fine), never waits for another request. */
    @FunctionalInterface
    public interface Handler {
        Mono<HttpResult> handle(QueryRequest request);
    }

    /** The HTTP methods an endpoint can answer ({@code HEAD} is answered by the GET endpoint). */
    public enum Method {
        GET,
        POST,
        PUT,
        DELETE;

        /** Whether a request of this method carries a JSON body. */
        public boolean hasBody() {
            return this == POST || this == PUT;
        }
    }

    /** The largest body a route takes unless it says otherwise. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    /**
     * One endpoint, in registration order (Reactor Netty answers with the first that matches), with the largest body
     * it reads (a bigger one is refused with 413 before the handler runs).
     */
    public record Route(Method method, String template, Handler handler, int maxBodyBytes) {}

    private final List<Route> routes = new ArrayList<>();

    public ApiRoutes get(String template, Handler handler) {
        return add(Method.GET, template, handler);
    }

    public ApiRoutes post(String template, Handler handler) {
        return add(Method.POST, template, handler);
    }

    /** A POST endpoint that takes bodies up to {@code maxBodyBytes} (a whole file's worth of monitors). */
    public ApiRoutes post(String template, int maxBodyBytes, Handler handler) {
        return add(Method.POST, template, handler, maxBodyBytes);
    }

    public ApiRoutes put(String template, Handler handler) {
        return add(Method.PUT, template, handler);
    }

    public ApiRoutes delete(String template, Handler handler) {
        return add(Method.DELETE, template, handler);
    }

    private ApiRoutes add(Method method, String template, Handler handler) {
        return add(method, template, handler, DEFAULT_MAX_BODY_BYTES);
    }

    private ApiRoutes add(Method method, String template, Handler handler, int maxBodyBytes) {
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("route template must start with /: " + template);
        }
        if (handler(method, template).isPresent()) {
            throw new IllegalArgumentException("route already registered: " + method + " " + template);
        }
        routes.add(new Route(method, template, handler, maxBodyBytes));
        return this;
    }

    /** Every endpoint, in registration order. */
    public List<Route> routes() {
        return List.copyOf(routes);
    }

    /** The handler registered for exactly {@code method template}, for an in-process call (no path matching). */
    public Optional<Handler> handler(Method method, String template) {
        return routes.stream()
                .filter(r -> r.method() == method && r.template().equals(template))
                .map(Route::handler)
                .findFirst();
    }
}
