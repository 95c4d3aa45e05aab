package dev.vigil.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The feed outlives a broker that is slow to answer or being replaced (a rolling restart, a broker killed while
 * the worker starts): a retriable error from the metadata or offsets calls is retried, never the end of the feed.
 */
class KafkaMonitorFeedTest {
    private static final String TOPIC = "vigil.monitors";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

    /** Fails the first {@code metadataFailures} metadata calls and the first {@code offsetFailures} end-offset calls. */
    private static final class FlakyBrokerConsumer extends MockConsumer<String, byte[]> {
        final AtomicInteger metadataFailures;
        final AtomicInteger offsetFailures;
        final AtomicInteger metadataCalls = new AtomicInteger();
        final AtomicInteger offsetCalls = new AtomicInteger();

        FlakyBrokerConsumer(int metadataFailures, int offsetFailures) {
            super("earliest");
            this.metadataFailures = new AtomicInteger(metadataFailures);
            this.offsetFailures = new AtomicInteger(offsetFailures);
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
            metadataCalls.incrementAndGet();
            if (metadataFailures.getAndDecrement() > 0) {
                throw new TimeoutException("Timeout expired while fetching topic metadata");
            }
            return super.partitionsFor(topic, timeout);
        }

        @Override
        public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
            offsetCalls.incrementAndGet();
            if (offsetFailures.getAndDecrement() > 0) {
                throw new TimeoutException("Failed to get offsets by times in 60000ms");
            }
            return super.endOffsets(partitions);
        }
    }

    private static final class Recorder implements MonitorSink {
        final List<String> upserts = new CopyOnWriteArrayList<>();

        @Override
        public void upsert(MonitorDefinition definition) {
            upserts.add(definition.id());
        }

        @Override
        public void remove(String monitorId) {
            upserts.remove(monitorId);
        }
    }

    @Test
    void retriableBrokerErrorsAtStartAreRetriedAndTheMonitorsStillLoad() {
        FlakyBrokerConsumer consumer = new FlakyBrokerConsumer(2, 1);
        Node node = new Node(1, "127.0.0.1", 9092);
        consumer.updatePartitions(
                TOPIC, List.of(new PartitionInfo(TOPIC, 0, node, new Node[] {node}, new Node[] {node})));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 1L));
        MonitorDefinition def = ProbeSchedulerTest.monitor("api", 60);
        consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0L, "api", Json.bytes(def))));
        Recorder sink = new Recorder();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (KafkaMonitorFeed feed = new KafkaMonitorFeed(consumer, TOPIC, sink, dead::add).start()) {
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(feed::ready);
            assertThat(sink.upserts).containsExactly("api");
            assertThat(consumer.metadataCalls.get()).isEqualTo(3);
            assertThat(consumer.offsetCalls.get()).isGreaterThanOrEqualTo(2);
            assertThat(dead).isEmpty();
        }
    }

    @Test
    void aRecordWrittenBeforeTheHttpsRuleThatWouldSendASecretOverPlainHttpIsNeverProbed() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        Node node = new Node(1, "127.0.0.1", 9092);
        consumer.updatePartitions(
                TOPIC, List.of(new PartitionInfo(TOPIC, 0, node, new Node[] {node}, new Node[] {node})));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 2L));
        byte[] old = ("{\"schemaVersion\":1,\"id\":\"legacy\",\"url\":\"http://legacy.example.com/health\","
                        + "\"regions\":[\"eu-west\"],\"headers\":{\"Authorization\":{\"secretEnv\":\"HEALTH_TOKEN\"}}}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        consumer.schedulePollTask(() -> {
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0L, "legacy", old));
            consumer.addRecord(
                    new ConsumerRecord<>(TOPIC, 0, 1L, "api", Json.bytes(ProbeSchedulerTest.monitor("api", 60))));
        });
        Recorder sink = new Recorder();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (KafkaMonitorFeed feed = new KafkaMonitorFeed(consumer, TOPIC, sink, dead::add).start()) {
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(feed::ready);
            assertThat(sink.upserts).containsExactly("api");
            assertThat(dead).singleElement().satisfies(d -> assertThat(Json.string(d))
                    .contains("headers.Authorization")
                    .contains("only sent over https"));
        }
    }
}
