package dev.vigil.streams.query;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.Principal;
import dev.vigil.kit.auth.Scope;
import java.util.Optional;
import java.util.Set;

/**
 * Who may call which query API route: the one place that maps a route to the scope it needs (SPEC section 11).
 * Deny by default: a route not named here needs {@code admin}.
 */
public final class ApiAccess {
    /** Paths answered without a token: what load balancers and Prometheus call. */
    static final Set<String> PUBLIC_PATHS = Set.of("/health", "/ready", "/metrics");

    private final BearerTokens tokens;
    private final String instanceToken;

    /**
     * @param tokens        the configured tokens plus the instance credential
     * @param instanceToken the credential this instance presents when it forwards a query to a peer
     */
    public ApiAccess(BearerTokens tokens, String instanceToken) {
        this.tokens = tokens;
        this.instanceToken = instanceToken;
    }

    /** Whether {@code path} is answered without authentication. */
    public static boolean isPublic(RouteTable.Method method, String path) {
        return method == RouteTable.Method.GET && PUBLIC_PATHS.contains(path);
    }

    /** The scope a matched route needs. */
    public static Scope required(RouteTable.Method method, String template) {
        if (template.equals("/v1/audit")) {
            return Scope.ADMIN;
        }
        if (method == RouteTable.Method.GET && template.startsWith("/v1/")) {
            return Scope.READ;
        }
        if (template.equals("/v1/silences") || template.equals("/v1/silences/{id}")) {
            return Scope.SILENCE;
        }
        if (template.equals("/v1/alerts/{fingerprint}/ack")) {
            return Scope.ACK;
        }
        return Scope.ADMIN;
    }

    public Optional<Principal> authenticate(String authorizationHeader) {
        return tokens.authenticate(authorizationHeader);
    }

    /** The {@code Authorization} header value this instance sends to a peer. */
    public String instanceAuthorization() {
        return "Bearer " + instanceToken;
    }

    /** Whether no token but the instance credential is configured (every /v1 call is then refused). */
    public boolean noClientTokens() {
        return tokens.size() <= 1;
    }
}
