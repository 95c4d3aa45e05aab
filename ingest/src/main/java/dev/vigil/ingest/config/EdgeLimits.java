package dev.vigil.ingest.config;

import dev.vigil.kit.http.ServerLimits;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/** Maps the ingest configuration onto the service kit's {@link ServerLimits}. */
public final class EdgeLimits {
    /**
     * Added to {@code limits.requestTimeout} for the server's own body-read bound: ingest's body reader answers a
     * slow body with its problem+json 408 at the configured time; the server's bound (which closes the connection
     * without an answer) stays behind it as a backstop for a route that does not read its body.
     */
    static final Duration SERVER_READ_GRACE = Duration.ofSeconds(2);

    private EdgeLimits() {}

    public static ServerLimits of(IngestConfig config) {
        IngestConfig.Limits l = config.limits();
        return new ServerLimits(
                l.headerTimeout(),
                l.requestTimeout().plus(SERVER_READ_GRACE),
                l.idleTimeout(),
                l.maxInFlightBodyBytes(),
                allowedHosts(config));
    }

    /** Empty = any host. See {@link IngestConfig.Http#allowedHosts()}. */
    static Set<String> allowedHosts(IngestConfig config) {
        Set<String> configured = new HashSet<>(config.http().allowedHosts());
        if (configured.contains("*")) {
            return Set.of();
        }
        return ServerLimits.defaultAllowedHosts(config.http().host(), configured);
    }
}
