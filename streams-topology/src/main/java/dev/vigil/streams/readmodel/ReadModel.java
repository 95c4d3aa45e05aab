package dev.vigil.streams.readmodel;

import dev.vigil.streams.query.ApiDocs;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryBackend;
import java.time.Clock;

/**
 * The store-backed reads of the query API (docs/api.md#query-api-streams): the fleet's status, a monitor's status,
 * history and uptime, the workers; with the API's own document and {@code /v1/whoami}. Keyed answers are read where
 * the key lives (forwarded to its owner, or from a standby copy); fleet answers gather every instance's rows and fail
 * whole (503) rather than pass a partial list for a complete one.
 */
public final class ReadModel {
    private ReadModel() {}

    public static ApiRoutes register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder, Clock clock) {
        new StatusResource(backend, forwarder, clock).register(routes);
        new MonitorResource(backend, forwarder, clock).register(routes);
        new WorkersResource(backend, forwarder, clock).register(routes);
        return ApiDocs.register(routes);
    }
}
