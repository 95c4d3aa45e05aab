package dev.vigil.streams.query;

/**
 * Adds endpoints to the query API (the alerting half's {@code /v1/alerts}, the silences): the application registers
 * each extension's routes with the query server's {@link ApiRoutes}, backend and forwarder. It lives with the routes
 * it fills, so the packages that provide routes depend on {@code query}, never on the application that assembles
 * them.
 */
@FunctionalInterface
public interface RouteExtension {
    void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder);
}
