package dev.vigil.streams.query;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.http.ServerLimits;
import dev.vigil.kit.ops.OpsRoutes;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;

/** Tokens and a query server for tests: one token per scope, plus an admin, and the instance credential. */
public final class TestApi {
    public static final String ADMIN = "vgl_test-admin";
    public static final String READER = "vgl_test-reader";
    public static final String SILENCER = "vgl_test-silencer";
    public static final String ACKER = "vgl_test-acker";
    /** A second token with the silence scope (another author). */
    public static final String SILENCER_2 = "vgl_test-silencer-2";

    /** Manages monitors (scope monitors) and nothing else. */
    public static final String MONITOR_EDITOR = "vgl_test-monitors";

    public static final String INSTANCE = "vgl_test-instance";

    private TestApi() {}

    public static List<TokenSpec> tokens() {
        return List.of(
                new TokenSpec("test-admin", BearerTokens.hash(ADMIN), List.of("admin")),
                new TokenSpec("test-reader", BearerTokens.hash(READER), List.of("read")),
                new TokenSpec("test-silencer", BearerTokens.hash(SILENCER), List.of("silence")),
                new TokenSpec("test-silencer-2", BearerTokens.hash(SILENCER_2), List.of("silence")),
                new TokenSpec("test-acker", BearerTokens.hash(ACKER), List.of("ack")),
                new TokenSpec("test-monitors", BearerTokens.hash(MONITOR_EDITOR), List.of("monitors", "read")));
    }

    public static ApiAccess access() {
        return new ApiAccess(BearerTokens.of(tokens(), INSTANCE), INSTANCE);
    }

    /** {@code Authorization} value of the admin token. */
    public static String admin() {
        return "Bearer " + ADMIN;
    }

    /**
     * An API writer whose commits succeed at once without Kafka (a {@link MockProducer}); every record sent in a
     * committed write is handed to {@code sink} (the audit record too), so a test can apply it to its stores.
     */
    public static dev.vigil.streams.audit.ApiWriter acceptingWriter(
            java.util.function.Consumer<org.apache.kafka.clients.producer.ProducerRecord<String, byte[]>> sink) {
        return new dev.vigil.streams.audit.ApiWriter(
                () ->
                        new MockProducer<String, byte[]>(
                                true,
                                null,
                                new org.apache.kafka.common.serialization.StringSerializer(),
                                new org.apache.kafka.common.serialization.ByteArraySerializer()) {
                            @Override
                            public synchronized java.util.concurrent.Future<
                                            org.apache.kafka.clients.producer.RecordMetadata>
                                    send(
                                            org.apache.kafka.clients.producer.ProducerRecord<String, byte[]> record,
                                            org.apache.kafka.clients.producer.Callback callback) {
                                sink.accept(record);
                                return super.send(record, callback);
                            }
                        },
                "vigil.audit",
                java.time.Duration.ofSeconds(5));
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
