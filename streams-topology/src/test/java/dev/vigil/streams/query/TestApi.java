package dev.vigil.streams.query;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.http.ServerLimits;
import dev.vigil.kit.ops.OpsRoutes;
import java.util.List;

/** Tokens and a query server for tests: one token per scope, plus an admin, and the instance credential. */
public final class TestApi {
    public static final String ADMIN = "vgl_test-admin";
    public static final String READER = "vgl_test-reader";
    public static final String SILENCER = "vgl_test-silencer";
    public static final String ACKER = "vgl_test-acker";
    public static final String INSTANCE = "vgl_test-instance";

    private TestApi() {
    }

    public static List<TokenSpec> tokens() {
        return List.of(new TokenSpec("test-admin", BearerTokens.hash(ADMIN), List.of("admin")),
                new TokenSpec("test-reader", BearerTokens.hash(READER), List.of("read")),
                new TokenSpec("test-silencer", BearerTokens.hash(SILENCER), List.of("silence")),
                new TokenSpec("test-acker", BearerTokens.hash(ACKER), List.of("ack")));
    }

    public static ApiAccess access() {
        return new ApiAccess(BearerTokens.of(tokens(), INSTANCE), INSTANCE);
    }

    /** {@code Authorization} value of the admin token. */
    public static String admin() {
        return "Bearer " + ADMIN;
    }

    public static Forwarder forwarder(java.time.Duration timeout) {
        return new Forwarder(timeout, access().instanceAuthorization());
    }

    /** A query server over {@code routes}, with ops endpoints that are always healthy and ready. */
    public static QueryServer start(ApiRoutes routes) {
        return start(routes, OpsRoutes.of(() -> ""));
    }

    public static QueryServer start(ApiRoutes routes, OpsRoutes ops) {
        return QueryServer.start("127.0.0.1", 0, routes, ops, access(), ServerLimits.defaults("127.0.0.1"), null);
    }
}
