package dev.vigil.standalone.monitors;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.VigilSerdes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
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
        return CompactedTopic.read(
                bootstrapServers, topic, timeout, VigilSerdes.monitorDefinition(), "vigil-cli-monitors", onPoison);
    }

    /**
     * Publishes upserts and tombstones, waiting until the broker acknowledged every one: how Vigil seeds its own
     * monitors (the demo's, the canary, benchmarks' fleets). Operators manage monitors through the query API.
     */
    public void publish(List<MonitorDefinition> upserts, List<String> deletes) {
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
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException(
                    "publishing to " + topic + " failed: " + cause.getMessage()
                            + "; nothing is lost by re-running the same apply",
                    cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing to " + topic, e);
        }
    }
}
