package dev.vigil.streams.audit;

import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code vigil.audit} for a time range: every partition from the first record at or after {@code from} up to
 * {@code to} or the end, committed records only, at most {@code limit} records (oldest first). A short-lived
 * consumer per call: the audit log is read by administrators, rarely, and needs no state on the instance.
 */
public final class AuditLog {
    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** The answer: records in time order, and whether the limit cut the range short. */
    public record Page(List<AuditRecord> records, boolean truncated) {}

    /** Records held while reading one range, whatever the limit: bounds the memory of one call. */
    static final int MAX_HELD = 10_000;

    private final String bootstrapServers;
    private final String topic;
    private final Map<String, String> extra;
    private final Duration timeout;

    public AuditLog(String bootstrapServers, String topic, Map<String, String> extra, Duration timeout) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.extra = Map.copyOf(extra);
        this.timeout = timeout;
    }

    /** Blocking (call it off the event loop). */
    public Page read(long from, long to, int limit) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigil-audit-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        p.putAll(extra);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<AuditRecord> out = new ArrayList<>();
        boolean truncated = false;
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, from));
            Map<TopicPartition, OffsetAndTimestamp> starts = consumer.offsetsForTimes(query, timeout);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions, timeout));
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp start = starts.get(tp);
                if (start == null) {
                    ends.remove(tp); // nothing at or after 'from'
                } else {
                    consumer.seek(tp, start.offset());
                }
            }
            consumer.assign(ends.keySet());
            while (!ends.isEmpty() && System.nanoTime() < deadline && out.size() < MAX_HELD) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (!ends.containsKey(tp)) {
                        continue;
                    }
                    if (r.timestamp() >= to) {
                        ends.remove(tp);
                        continue;
                    }
                    try {
                        AuditRecord a = Json.read(r.value(), AuditRecord.class);
                        if (a.at() >= from && a.at() < to) {
                            out.add(a);
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("unreadable audit record at {}@{} skipped", tp, r.offset());
                    }
                }
                ends.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
                consumer.assign(ends.keySet());
            }
            truncated = !ends.isEmpty();
        }
        out.sort(Comparator.comparing(AuditRecord::at).thenComparing(AuditRecord::id));
        if (out.size() > limit) {
            return new Page(List.copyOf(out.subList(0, limit)), true);
        }
        return new Page(out, truncated);
    }
}
