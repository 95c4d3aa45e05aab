package dev.vigil.ingest.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.ingest.IngestServer;
import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.sign.RequestSigner;
import dev.vigil.schemas.topic.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** An ingest server on loopback against an embedded broker, with known keys, plus HTTP and consumer helpers. */
final class IngestHarness implements AutoCloseable {
    static final String CHECKOUT_KEY = "ck_live_checkout_0123456789abcdef";
    static final String BILLING_KEY = "ck_live_billing_0123456789abcdef";
    static final String DEMO_KEY = "ck_live_demo_0123456789abcdef";
    static final String US_EAST_SECRET = "us-east-worker-secret-0123456789abcdef";
    static final String EU_WEST_SECRET = "eu-west-worker-secret-0123456789abcdef";
    /** In the environment always; used only where a test configures the BetterStack integration. */
    static final String BETTERSTACK_TOKEN = "vgl_bS7kQ2xW9mLp4Rt8Zc1Vn6Yd3Hf0Jg5Ae_Ku-Ow";

    static final String BETTERSTACK_TOKEN_ENV = "VIGIL_BETTERSTACK_WEBHOOK_TOKEN";

    final EmbeddedKafka kafka;
    final IngestServer.Running server;
    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    final RequestSigner usEast = new RequestSigner(US_EAST_SECRET.getBytes(StandardCharsets.UTF_8));
    final RequestSigner euWest = new RequestSigner(EU_WEST_SECRET.getBytes(StandardCharsets.UTF_8));

    IngestHarness(EmbeddedKafka kafka) {
        this(kafka, 5_000);
    }

    IngestHarness(EmbeddedKafka kafka, long sendTimeoutMs) {
        this(kafka, sendTimeoutMs, c -> c);
    }

    /** @param customize adjusts the configuration (limits, HTTP settings) before the server starts */
    IngestHarness(EmbeddedKafka kafka, java.util.function.UnaryOperator<IngestConfig> customize) {
        this(kafka, 5_000, customize);
    }

    IngestHarness(EmbeddedKafka kafka, long sendTimeoutMs, java.util.function.UnaryOperator<IngestConfig> customize) {
        this.kafka = kafka;
        kafka.createTopics(Topics.all().stream().map(t -> t.withPartitions(3)).toList());
        IngestConfig.Kafka k = IngestConfig.Kafka.defaults(kafka.bootstrapServers())
                .withTransactionalIdPrefix("ingest-it-" + UUID.randomUUID())
                .withSendTimeout(Duration.ofMillis(sendTimeoutMs));
        IngestConfig config = new IngestConfig(
                new IngestConfig.Http("127.0.0.1", 0),
                k,
                Map.of(
                        "checkout",
                        List.of(ApiKeys.hash(CHECKOUT_KEY)),
                        "billing",
                        List.of(ApiKeys.hash(BILLING_KEY)),
                        "demo",
                        List.of(ApiKeys.hash(DEMO_KEY))),
                Map.of(
                        "w-us-east",
                        new IngestConfig.ProbeWorkerKey("us-east", "US_EAST_SECRET"),
                        "w-eu-west",
                        new IngestConfig.ProbeWorkerKey("eu-west", "EU_WEST_SECRET"),
                        "k-ap-south",
                        new IngestConfig.ProbeWorkerKey("ap-south", "EU_WEST_SECRET", "probe-ap-south-1")),
                IngestConfig.Limits.defaults());
        this.server = IngestServer.start(
                customize.apply(config),
                Map.of(
                        "US_EAST_SECRET",
                        US_EAST_SECRET,
                        "EU_WEST_SECRET",
                        EU_WEST_SECRET,
                        BETTERSTACK_TOKEN_ENV,
                        BETTERSTACK_TOKEN),
                Clock.systemUTC());
        try {
            if (!server.awaitReady(Duration.ofSeconds(30))) {
                throw new IllegalStateException("ingest producers did not initialise");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    URI uri(String path) {
        return URI.create(server.baseUrl() + path);
    }

    Reply post(String path, String contentType, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        headers.forEach(b::header);
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(
                    r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""),
                    r.headers().firstValue("Retry-After").orElse(null),
                    r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The configuration change that turns the BetterStack webhook on, with the harness's token. */
    static IngestConfig withBetterStack(IngestConfig c) {
        return c.withIntegrations(new IngestConfig.Integrations(new IngestConfig.BetterStack(BETTERSTACK_TOKEN_ENV)));
    }

    /** A BetterStack webhook call as BetterStack makes it: the token in the path. */
    Reply betterStack(String token, String body) {
        return post(
                "/v1/integrations/betterstack/" + token,
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                Map.of());
    }

    Reply get(String path) {
        try {
            HttpResponse<byte[]> r =
                    http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(
                    r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), null, r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A GET with headers (heartbeat pings), the Retry-After kept. */
    Reply getWith(String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(60))
                .GET();
        headers.forEach(b::header);
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(
                    r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""),
                    r.headers().firstValue("Retry-After").orElse(null),
                    r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply metrics(String apiKey, String body) {
        return post("/v1/metrics", "application/json", body.getBytes(StandardCharsets.UTF_8), bearer(apiKey));
    }

    Reply alerts(String apiKey, String body) {
        return post("/v1/alerts", "application/json", body.getBytes(StandardCharsets.UTF_8), bearer(apiKey));
    }

    Reply probeResults(
            String keyId, RequestSigner signer, String region, long timestamp, String requestId, String body) {
        return signedPost("/v1/probe-results", keyId, signer, region, timestamp, requestId, body);
    }

    Reply heartbeats(String keyId, RequestSigner signer, String region, long timestamp, String requestId, String body) {
        return signedPost("/v1/heartbeats", keyId, signer, region, timestamp, requestId, body);
    }

    Reply signedPost(
            String path,
            String keyId,
            RequestSigner signer,
            String region,
            long timestamp,
            String requestId,
            String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, String> h = new HashMap<>();
        h.put(RequestSigner.HEADER_KEY_ID, keyId);
        h.put(RequestSigner.HEADER_TIMESTAMP, Long.toString(timestamp));
        h.put(RequestSigner.HEADER_REQUEST_ID, requestId);
        h.put(RequestSigner.HEADER_REGION, region);
        h.put(RequestSigner.HEADER_SIGNATURE, signer.sign(timestamp, requestId, region, bytes));
        return post(path, "application/json", bytes, h);
    }

    /** The current value of a gauge or counter of the server's registry (0 when it does not exist yet). */
    double meter(String name, String... tags) {
        var search = server.registry().find(name).tags(tags);
        if (search.gauge() != null) {
            return search.gauge().value();
        }
        if (search.functionCounter() != null) {
            return search.functionCounter().count();
        }
        return search.counter() == null ? 0 : search.counter().count();
    }

    static Map<String, String> bearer(String key) {
        return key == null ? Map.of() : Map.of("Authorization", "Bearer " + key);
    }

    KafkaConsumer<String, byte[]> consumer(String... topics) {
        Map<String, Object> props = kafka.consumerProps("it-" + UUID.randomUUID());
        props.put("max.poll.records", 5000);
        KafkaConsumer<String, byte[]> c =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        c.subscribe(List.of(topics));
        return c;
    }

    /** Polls until {@code done} holds over everything read so far (bounded), returning what was read. */
    static List<ConsumerRecord<String, byte[]>> pollUntil(
            KafkaConsumer<String, byte[]> c,
            java.util.function.Predicate<List<ConsumerRecord<String, byte[]>>> done,
            List<ConsumerRecord<String, byte[]>> into,
            Duration bound) {
        org.awaitility.Awaitility.await()
                .atMost(bound)
                .pollInterval(Duration.ZERO)
                .until(() -> {
                    if (done.test(into)) {
                        return true;
                    }
                    c.poll(Duration.ofMillis(200)).forEach(into::add);
                    return done.test(into);
                });
        return into;
    }

    @Override
    public void close() {
        server.close();
    }

    record Reply(int status, String contentType, String retryAfter, byte[] body) {
        JsonNode json() {
            return Json.tree(body);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
