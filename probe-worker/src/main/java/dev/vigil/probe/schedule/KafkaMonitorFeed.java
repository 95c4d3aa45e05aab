package dev.vigil.probe.schedule;

import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the compacted {@code vigil.monitors} topic through the service kit's {@link CompactedTopicView} (every
 * partition from the beginning, no consumer group: every worker needs every monitor) and applies each record to the
 * scheduler: a definition adds or changes a monitor, a tombstone removes it. A record that breaks the contract goes to
 * the dead-letter callback and reading goes on. {@link #ready()} turns true once the topic has been read up to the end
 * offsets seen at start; the topic is created by its owner, so the feed waits for it.
 */
public final class KafkaMonitorFeed implements AutoCloseable {
    public static final String SOURCE = "probe-worker";

    private final org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer;
    private final CompactedTopicView<MonitorDefinition> view;

    public KafkaMonitorFeed(
            String bootstrapServers,
            String clientId,
            String topic,
            MonitorSink sink,
            Consumer<DeadLetter> deadLetters) {
        this(
                new KafkaConsumer<>(
                        CompactedTopicView.consumerProperties(bootstrapServers, clientId, Map.of()),
                        new StringDeserializer(),
                        new ByteArrayDeserializer()),
                topic,
                sink,
                deadLetters);
    }

    /** Over any consumer (a test's {@code MockConsumer}); the feed owns it and closes it. */
    KafkaMonitorFeed(
            org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer,
            String topic,
            MonitorSink sink,
            Consumer<DeadLetter> deadLetters) {
        this.consumer = consumer;
        this.view = new CompactedTopicView<>(
                consumer,
                topic,
                KafkaMonitorFeed::definition,
                new CompactedTopicView.Listener<>() {
                    @Override
                    public void upserted(String key, MonitorDefinition value) {
                        sink.upsert(value);
                    }

                    @Override
                    public void removed(String key) {
                        sink.remove(key);
                    }

                    @Override
                    public void skipped(ConsumerRecord<String, byte[]> r, RuntimeException cause) {
                        String key = r.key();
                        deadLetters.accept(DeadLetter.poison(
                                SOURCE,
                                "invalid MonitorDefinition: " + cause.getMessage(),
                                cause,
                                r.topic(),
                                r.partition(),
                                r.offset(),
                                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                                r.value(),
                                System.currentTimeMillis()));
                    }
                },
                CompactedTopicView.Options.of("vigil-monitor-feed", CompactedTopicView.MissingTopic.WAIT, false));
    }

    /** The definition a record holds; a contract violation (the key must be its id) is a poison record. */
    private static MonitorDefinition definition(ConsumerRecord<String, byte[]> r) {
        MonitorDefinition def = Json.read(r.value(), MonitorDefinition.class);
        if (r.key() != null && !r.key().equals(def.id())) {
            throw new ContractViolation("id", "must equal the record key");
        }
        return def;
    }

    public KafkaMonitorFeed start() {
        view.start();
        return this;
    }

    public org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer() {
        return consumer;
    }

    public boolean ready() {
        return view.isCaughtUp();
    }

    @Override
    public void close() {
        view.close();
    }
}
