package dev.vigil.streams.query;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.Principal;
import dev.vigil.kit.auth.Scope;
import java.util.Optional;
import java.util.Set;

/**
 * Who may call which query API route: the one place that maps a route to the scope it needs (docs/security.md#credentials).
 * Deny by default: a route not named here needs {@code admin}.
 */
public final class ApiAccess {
    /**
     * Routes answered without a token: what load balancers and Prometheus call, the console's static shell (it holds
     * no data; the data it shows comes from {@code /v1} with the user's token), public status pages and badges (they
     * show only what a configured status page lists). Matched by route template, never by path prefix, so no
     * spelling of a path can reach a {@code /v1} route through a public one.
     */
    public static final Set<String> PUBLIC_TEMPLATES = Set.of(
            "/health",
            "/ready",
            "/metrics",
            "/",
            "/favicon.ico",
            "/console/{file}",
            "/console/vendor/{file}",
            "/status/{page}",
            "/status/{page}/summary.json",
            "/badge/{id}/status.svg",
            "/badge/{id}/uptime.svg");
    /** Answered to any valid token, whatever its scopes (the console asks who it is signed in as). */
    public static final String WHOAMI = "/v1/whoami";

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

    /** Whether the route {@code template} matched by {@code method} is answered without authentication. */
    public static boolean isPublic(ApiRoutes.Method method, String template) {
        return method == ApiRoutes.Method.GET && PUBLIC_TEMPLATES.contains(template);
    }

    /** The scope a matched route needs; null for a route any authenticated caller may use. */
    public static Scope required(ApiRoutes.Method method, String template) {
        if (template.equals(WHOAMI)) {
            return null;
        }
        if (template.equals("/v1/audit")) {
            return Scope.ADMIN;
        }
        if (template.equals("/v1/monitors") || template.equals("/v1/monitors/{id}/definition")) {
            // whole definitions: URLs, plain header values and bodies, which every other read redacts
            return Scope.MONITORS;
        }
        if (method == ApiRoutes.Method.GET && template.startsWith("/v1/")) {
            return Scope.READ;
        }
        if (template.equals("/v1/silences") || template.equals("/v1/silences/{id}")) {
            return Scope.SILENCE;
        }
        if (template.equals("/v1/alerts/{fingerprint}/ack")) {
            return Scope.ACK;
        }
        if (template.startsWith("/v1/monitors")) {
            return Scope.MONITORS;
        }
        if (template.startsWith("/v1/rules")) {
            return Scope.RULES;
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
