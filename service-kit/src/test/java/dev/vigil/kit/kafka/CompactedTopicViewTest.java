package dev.vigil.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.ContractViolation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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

/** The one way a service follows a compacted topic: caught up, the map, tombstones, bad records, broker faults. */
class CompactedTopicViewTest {
    private static final String TOPIC = "vigil.things";
    private static final Node NODE = new Node(1, "127.0.0.1", 9092);
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    /** Fails its first metadata and end-offset calls as a broker slow to answer does. */
    private static final class FlakyConsumer extends MockConsumer<String, byte[]> {
        final AtomicInteger metadataFailures;
        final AtomicInteger offsetFailures;
        volatile boolean topicExists = true;

        FlakyConsumer(int metadataFailures, int offsetFailures) {
            super("earliest");
            this.metadataFailures = new AtomicInteger(metadataFailures);
            this.offsetFailures = new AtomicInteger(offsetFailures);
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
            if (metadataFailures.getAndDecrement() > 0) {
                throw new TimeoutException("Timeout expired while fetching topic metadata");
            }
            return topicExists ? super.partitionsFor(topic, timeout) : List.of();
        }

        @Override
        public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
            if (offsetFailures.getAndDecrement() > 0) {
                throw new TimeoutException("Failed to get offsets by times");
            }
            return super.endOffsets(partitions);
        }
    }

    private static void partitions(MockConsumer<String, byte[]> c, int count) {
        List<PartitionInfo> infos = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            infos.add(new PartitionInfo(TOPIC, i, NODE, new Node[] {NODE}, new Node[] {NODE}));
        }
        c.updatePartitions(TOPIC, infos);
    }

    private static ConsumerRecord<String, byte[]> record(int partition, long offset, String key, String value) {
        return new ConsumerRecord<>(
                TOPIC, partition, offset, key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** Values are text; "bad" breaks the contract. */
    private static String decode(ConsumerRecord<String, byte[]> r) {
        String v = new String(r.value(), StandardCharsets.UTF_8);
        if (v.equals("bad")) {
            throw new ContractViolation("value", "must not be bad");
        }
        return v;
    }

    private static final class Heard implements CompactedTopicView.Listener<String> {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void upserted(String key, String value) {
            events.add(key + "=" + value);
        }

        @Override
        public void removed(String key) {
            events.add(key + " removed");
        }

        @Override
        public void skipped(ConsumerRecord<String, byte[]> record, RuntimeException cause) {
            events.add("skipped@" + record.offset());
        }

        @Override
        public void caughtUp() {
            events.add("caught up");
        }
    }

    private static CompactedTopicView.Options options(CompactedTopicView.MissingTopic missing, boolean keep) {
        return new CompactedTopicView.Options(
                "test-view", missing, keep, Duration.ofMillis(20), Duration.ofMillis(20), Duration.ofMillis(50));
    }

    @Test
    void readsEveryPartitionFromTheStartAppliesTombstonesAndIsCaughtUpOnlyAtTheEndsItHadAtTheStart() {
        FlakyConsumer c = new FlakyConsumer(0, 0);
        partitions(c, 2);
        c.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        c.updateEndOffsets(Map.of(P0, 3L, P1, 1L));
        c.schedulePollTask(() -> {
            c.addRecord(record(0, 0, "a", "1"));
            c.addRecord(record(0, 1, "b", "1"));
        });
        c.schedulePollTask(() -> {
            c.addRecord(record(1, 0, "c", "1"));
        });
        c.schedulePollTask(() -> c.addRecord(record(0, 2, "a", null)));
        Heard heard = new Heard();
        try (var view = new CompactedTopicView<>(
                        c,
                        TOPIC,
                        CompactedTopicViewTest::decode,
                        heard,
                        options(CompactedTopicView.MissingTopic.WAIT, true))
                .start()) {
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(view::isCaughtUp);
            assertThat(heard.events).containsExactly("a=1", "b=1", "c=1", "a removed", "caught up");
            assertThat(view.get("a")).isNull();
            assertThat(view.values()).containsExactlyInAnyOrder("1", "1");
            assertThat(view.size()).isEqualTo(2);
        }
    }

    @Test
    void aBadRecordIsSkippedAndTheKeyKeepsItsPreviousValue() {
        FlakyConsumer c = new FlakyConsumer(0, 0);
        partitions(c, 1);
        c.updateBeginningOffsets(Map.of(P0, 0L));
        c.updateEndOffsets(Map.of(P0, 3L));
        c.schedulePollTask(() -> {
            c.addRecord(record(0, 0, "mute", "everything"));
            c.addRecord(record(0, 1, "mute", "bad"));
            c.addRecord(record(0, 2, null, "no key"));
        });
        Heard heard = new Heard();
        try (var view = new CompactedTopicView<>(
                        c,
                        TOPIC,
                        CompactedTopicViewTest::decode,
                        heard,
                        options(CompactedTopicView.MissingTopic.WAIT, true))
                .start()) {
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(view::isCaughtUp);
            assertThat(view.get("mute")).isEqualTo("everything");
            assertThat(view.skipped()).isEqualTo(1);
            assertThat(heard.events).containsExactly("mute=everything", "skipped@1", "caught up");
        }
    }

    @Test
    void brokerErrorsAtStartAreRetriedNotTheEndOfTheView() {
        FlakyConsumer c = new FlakyConsumer(2, 2);
        partitions(c, 1);
        c.updateBeginningOffsets(Map.of(P0, 0L));
        c.updateEndOffsets(Map.of(P0, 1L));
        c.schedulePollTask(() -> c.addRecord(record(0, 0, "a", "1")));
        Heard heard = new Heard();
        try (var view = new CompactedTopicView<>(
                        c,
                        TOPIC,
                        CompactedTopicViewTest::decode,
                        heard,
                        options(CompactedTopicView.MissingTopic.WAIT, false))
                .start()) {
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(view::isCaughtUp);
            assertThat(heard.events).containsExactly("a=1", "caught up");
            assertThat(view.size()).as("the listener keeps the copy").isZero();
        }
    }

    @Test
    void anAbsentTopicIsWaitedForOrHoldsNothingAsTheCallerSays() throws InterruptedException {
        FlakyConsumer waiting = new FlakyConsumer(0, 0);
        waiting.topicExists = false;
        FlakyConsumer empty = new FlakyConsumer(0, 0);
        empty.topicExists = false;
        try (var wait = new CompactedTopicView<>(
                                waiting,
                                TOPIC,
                                CompactedTopicViewTest::decode,
                                new Heard(),
                                options(CompactedTopicView.MissingTopic.WAIT, true))
                        .start();
                var nothing = new CompactedTopicView<>(
                                empty,
                                TOPIC,
                                CompactedTopicViewTest::decode,
                                new Heard(),
                                options(CompactedTopicView.MissingTopic.HOLDS_NOTHING, true))
                        .start()) {
            assertThat(nothing.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(wait.awaitCaughtUp(Duration.ofMillis(300)))
                    .as("not before the topic exists")
                    .isFalse();

            // the topic appears: both read it from its beginning
            for (FlakyConsumer c : List.of(waiting, empty)) {
                partitions(c, 1);
                c.updateBeginningOffsets(Map.of(P0, 0L));
                c.updateEndOffsets(Map.of(P0, 1L));
                c.schedulePollTask(() -> c.addRecord(record(0, 0, "a", "1")));
                c.topicExists = true;
            }
            assertThat(wait.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            Awaitility.await()
                    .atMost(10, TimeUnit.SECONDS)
                    .until(() -> "1".equals(wait.get("a")) && "1".equals(nothing.get("a")));
        }
    }

    @Test
    void partitionsAddedLaterAreReadFromTheirBeginning() {
        FlakyConsumer c = new FlakyConsumer(0, 0);
        partitions(c, 1);
        c.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        c.updateEndOffsets(Map.of(P0, 0L));
        Heard heard = new Heard();
        try (var view = new CompactedTopicView<>(
                        c,
                        TOPIC,
                        CompactedTopicViewTest::decode,
                        heard,
                        options(CompactedTopicView.MissingTopic.WAIT, true))
                .start()) {
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(view::isCaughtUp);
            partitions(c, 2);
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> c.assignment()
                    .contains(P1));
            c.schedulePollTask(() -> c.addRecord(record(1, 0, "late", "1")));
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> "1".equals(view.get("late")));
        }
    }
}
