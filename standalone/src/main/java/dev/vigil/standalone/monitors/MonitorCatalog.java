package dev.vigil.standalone.monitors;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.contract.AuditRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Reads and writes the compacted monitors topic: the catalogue of what Vigil probes. */
public final class MonitorCatalog {
    private final String bootstrapServers;
    private final String topic;
    private final Duration timeout;

    public MonitorCatalog(String bootstrapServers, String topic, Duration timeout) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.timeout = timeout;
    }

    /**
     * Reads the topic from the beginning to its current end; later records win, tombstones delete.
     * Records that break the contract are reported to {@code onPoison} and skipped.
     */
    public Map<String, MonitorDefinition> current(Consumer<String> onPoison) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigil-cli-monitors");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        Map<String, MonitorDefinition> monitors = new TreeMap<>();
        JsonSerde<MonitorDefinition> serde = VigilSerdes.monitorDefinition();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading " + topic + " from " + bootstrapServers
                            + " after " + timeout.toSeconds() + " s; is the broker reachable?");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        monitors.remove(r.key());
                        continue;
                    }
                    try {
                        monitors.put(r.key(), serde.deserialize(topic, r.value()));
                    } catch (JsonSerde.PoisonRecordException e) {
                        onPoison.accept("skipping " + topic + "/" + r.partition() + "@" + r.offset()
                                + " (key " + r.key() + "): " + e.getMessage());
                    }
                }
            }
        }
        return monitors;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Publishes upserts and tombstones, waiting until the broker acknowledged every one. */
    public void publish(List<MonitorDefinition> upserts, List<String> deletes) {
        publish(upserts, deletes, null, null);
    }

    /**
     * {@link #publish(List, List)}, then {@code audit} (who applied what) to {@code auditTopic} with the same producer,
     * acknowledged like the changes; null for none (the demo and tests seeding monitors).
     */
    public void publish(List<MonitorDefinition> upserts, List<String> deletes, String auditTopic, AuditRecord audit) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "vigil-cli-monitors");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // delivery.timeout.ms must cover request.timeout.ms + linger.ms, or the producer refuses to start.
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1_000, timeout.toMillis() / 2));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        var serde = VigilSerdes.monitorDefinition();
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), serde)) {
            List<java.util.concurrent.Future<RecordMetadata>> sent = new java.util.ArrayList<>();
            upserts.forEach(m -> sent.add(producer.send(new ProducerRecord<>(topic, m.id(), m))));
            deletes.forEach(id -> sent.add(producer.send(new ProducerRecord<>(topic, id, null))));
            producer.flush();
            for (var f : sent) {
                f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            if (audit != null) {
                try (var auditProducer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                    auditProducer.send(new ProducerRecord<>(auditTopic, audit.target(), Json.bytes(audit)))
                            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("publishing to " + topic + " failed: " + cause.getMessage()
                    + "; nothing is lost by re-running the same apply", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing to " + topic, e);
        }
    }
}
