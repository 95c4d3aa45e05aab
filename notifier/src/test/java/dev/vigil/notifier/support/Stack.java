package dev.vigil.notifier.support;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.ChannelSpec;
import dev.vigil.notifier.config.ChannelType;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.RoutingSpec;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The notifier's world for end-to-end tests: a real broker and database (from the embedded module), local fake
 * BetterStack, Slack and Discord servers, and a producer for alert events.
 */
public final class Stack implements AutoCloseable {
    private static final String DB_PASSWORD_ENV = "VIGIL_DB_PASSWORD";
    public final FakeVendor betterstack = new FakeVendor();
    public final FakeVendor slack = new FakeVendor();
    public final FakeVendor discord = new FakeVendor();
    private final EmbeddedKafka kafka;
    private final PostgresDatabase db;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<NotifierService.Running> running = new ArrayList<>();
    private int incidentSeq;
    /** Topics of this test only: instances with fresh groups re-read their whole topic, never another test's. */
    public final String alertsTopic =
            "alerts-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    public final String deadLetterTopic =
            "dead-letter-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    public final String silencesTopic =
            "silences-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    public final String acksTopic =
            "acks-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    public final String vendorUpdatesTopic =
            "vendor-updates-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    public final String auditTopic =
            "audit-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    public Stack(EmbeddedKafka kafka, PostgresDatabase db) {
        this(kafka, db, 6);
    }

    public Stack(EmbeddedKafka kafka, PostgresDatabase db, int partitions) {
        this.kafka = kafka;
        this.db = db;
        kafka.createTopics(
                new Topics.TopicSpec(alertsTopic, partitions, false),
                new Topics.TopicSpec(deadLetterTopic, 1, false),
                new Topics.TopicSpec(silencesTopic, 1, true),
                new Topics.TopicSpec(acksTopic, 1, true),
                new Topics.TopicSpec(vendorUpdatesTopic, 1, false),
                new Topics.TopicSpec(auditTopic, 1, false));
        this.producer =
                new KafkaProducer<>(kafka.producerProps(), new ByteArraySerializer(), new ByteArraySerializer());
        betterstack.respond(r -> r.path().endsWith("/resolve")
                ? FakeVendor.Reply.json(200, "{}")
                : FakeVendor.Reply.json(
                        201, "{\"data\":{\"id\":\"" + betterstackId(++incidentSeq) + "\",\"type\":\"incident\"}}"));
    }

    /**
     * The id the fake BetterStack gives the {@code n}-th incident it creates (1-based): unique to this stack, as
     * BetterStack's ids are, since the tests of a class share one database.
     */
    public String betterstackId(int n) {
        return "bs-" + alertsTopic.substring("alerts-".length()) + "-" + n;
    }

    public Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("BS_TOKEN", "token-for-tests");
        env.put("SLACK_URL", slack.uri("/services/T0/B0/secret").toString());
        env.put("DISCORD_URL", discord.uri("/api/webhooks/1/secret").toString());
        if (db.password() != null) {
            env.put(DB_PASSWORD_ENV, db.password()); // the embedded server requires its generated password
        }
        return env;
    }

    public NotifierConfig config(String groupId, double slackRate) {
        Map<String, ChannelSpec> ch = new LinkedHashMap<>();
        ch.put(
                "betterstack",
                new ChannelSpec(ChannelType.BETTERSTACK, betterstack.uri("").toString(), null, "BS_TOKEN", null, 4));
        ch.put("slack", new ChannelSpec(ChannelType.SLACK, null, "SLACK_URL", null, slackRate, 1));
        ch.put("discord", new ChannelSpec(ChannelType.DISCORD, null, "DISCORD_URL", null, null, 4));
        ch.put("log", ChannelSpec.of(ChannelType.LOG));
        RoutingSpec routing = new RoutingSpec(ch, List.of(), null);
        String url = "r2dbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.name();
        return NotifierConfig.defaults()
                .withKafka(new NotifierConfig.Kafka(
                        kafka.bootstrapServers(),
                        groupId,
                        new NotifierConfig.TopicNames(
                                alertsTopic, deadLetterTopic, silencesTopic, acksTopic, vendorUpdatesTopic, auditTopic),
                        null,
                        null))
                .withDatabase(new NotifierConfig.Database(url, db.user(), DB_PASSWORD_ENV, 6))
                .withDelivery(new NotifierConfig.Delivery("1h", "1h", "200ms", 2.0, "2s", "1s", null))
                .withHttp(new NotifierConfig.Http("127.0.0.1", 0))
                .withRouting(routing);
    }

    public NotifierService.Running start(NotifierConfig cfg) {
        NotifierService.Running r = NotifierService.start(cfg, env());
        running.add(r);
        return r;
    }

    public void produce(AlertEvent e) {
        send(alertsTopic, e.fingerprint(), Json.bytes(e));
    }

    public void send(String topic, String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Every value on {@code topic} so far, decoded as {@code type} (null for a tombstone), in offset order. */
    public <T> List<T> read(String topic, Class<T> type, int atLeast) {
        List<T> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                kafka.consumerProps("reader-" + System.nanoTime()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long end = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < end && out.size() < atLeast) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(r.value() == null ? null : Json.read(r.value(), type));
                }
            }
        }
        return out;
    }

    /** Every record on the dead-letter topic so far. */
    public List<DeadLetter> deadLetters() {
        List<DeadLetter> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                kafka.consumerProps("dl-reader-" + System.nanoTime()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(deadLetterTopic));
            long end = System.currentTimeMillis() + 3000;
            while (System.currentTimeMillis() < end) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(Json.read(r.value(), DeadLetter.class));
                }
                if (!out.isEmpty() && c.assignment().size() > 0) {
                    break;
                }
            }
        }
        return out;
    }

    /** Requests to a chat vendor that mention this event id. */
    public static long mentions(FakeVendor v, String eventId) {
        return v.requests.stream().filter(r -> r.body().contains(eventId)).count();
    }

    @Override
    public void close() {
        running.forEach(NotifierService.Running::close);
        producer.close(Duration.ofSeconds(5));
        betterstack.close();
        slack.close();
        discord.close();
    }
}
