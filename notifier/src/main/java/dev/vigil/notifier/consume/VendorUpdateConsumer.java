package dev.vigil.notifier.consume;

import dev.vigil.notifier.core.VendorAcknowledgements;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.json.JsonSerde;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code vigil.vendor-updates} (low volume: people's clicks in a vendor's tool) in a consumer group of its own
 * and hands each update to {@link VendorAcknowledgements}, one at a time on this dedicated thread, committing after
 * each. A failure (the database or the broker unreachable) rewinds to the update and retries it with a growing pause:
 * an acknowledgement is never dropped, and a retried one writes the same records again.
 * An unreadable record is logged by position, counted and skipped (ingest validated it; only a foreign writer makes
 * one).
 */
public final class VendorUpdateConsumer implements AutoCloseable {
    /** Counter of updates by outcome (acknowledged, unknown-incident, already-resolved, already-acknowledged, unreadable). */
    public static final String UPDATES = "vigil.notifier.vendor.updates";

    private static final Logger LOG = LoggerFactory.getLogger(VendorUpdateConsumer.class);
    private static final Duration APPLY_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final VendorAcknowledgements acknowledgements;
    private final MeterRegistry meters;
    private final JsonSerde<VendorIncidentUpdate> serde = new JsonSerde<>(VendorIncidentUpdate.class);
    private final Thread thread;
    private volatile boolean running = true;

    public VendorUpdateConsumer(
            String bootstrapServers,
            String groupId,
            String topic,
            VendorAcknowledgements acknowledgements,
            MeterRegistry meters) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigil-notifier-vendor-updates");
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topic = topic;
        this.acknowledgements = acknowledgements;
        this.meters = meters;
        this.thread = new Thread(this::run, "vigil-notifier-vendor-updates");
        this.thread.setDaemon(true);
    }

    public VendorUpdateConsumer start() {
        thread.start();
        return this;
    }

    private void run() {
        long pause = 200;
        try {
            consumer.subscribe(List.of(topic));
            while (running) {
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
                for (TopicPartition tp : batch.partitions()) {
                    for (ConsumerRecord<byte[], byte[]> r : batch.records(tp)) {
                        if (!handle(r)) {
                            consumer.seek(tp, r.offset());
                            Thread.sleep(pause);
                            pause = Math.min(pause * 2, 30_000);
                            break;
                        }
                        pause = 200;
                        consumer.commitSync(Map.of(tp, new OffsetAndMetadata(r.offset() + 1)));
                    }
                }
            }
        } catch (WakeupException e) {
            if (running) {
                LOG.warn("vendor update consumer woken unexpectedly");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("vendor update consumer stopped: {}", e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** False when the update must be retried. */
    private boolean handle(ConsumerRecord<byte[], byte[]> r) {
        VendorIncidentUpdate u;
        try {
            u = serde.deserialize(r.topic(), r.value());
        } catch (RuntimeException e) {
            LOG.warn(
                    "vendor update {}-{}@{} unreadable, skipped ({})",
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    e.getClass().getSimpleName());
            meters.counter(UPDATES, "outcome", "unreadable").increment();
            return true;
        }
        if (u == null) {
            return true;
        }
        try {
            VendorAcknowledgements.Outcome o = acknowledgements.apply(u).block(APPLY_TIMEOUT);
            String outcome = o == null
                    ? "unknown-incident"
                    : o.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            meters.counter(UPDATES, "outcome", outcome).increment();
            // ids only: the person's name is in the acknowledgement and the audit log, not in the log file
            LOG.info(
                    "{} incident {} {}: {}",
                    u.vendor(),
                    u.vendorIncidentId(),
                    u.action().wire(),
                    outcome);
            return true;
        } catch (RuntimeException e) {
            LOG.warn(
                    "{} incident {} {}: not applied yet ({}); retrying",
                    u.vendor(),
                    u.vendorIncidentId(),
                    u.action().wire(),
                    e.toString());
            return false;
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
