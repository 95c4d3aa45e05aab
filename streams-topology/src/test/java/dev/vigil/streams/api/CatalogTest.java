package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.kafka.CompactedTopicView;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A catalogue reads its own writes at once, judges two writes against one value once, and yields to the topic. */
class CatalogTest {
    private static final String TOPIC = "vigil.things";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final Node NODE = new Node(1, "127.0.0.1", 9092);

    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private final MutableClock clock = new MutableClock();
    private Catalog<String> catalog;

    /** Values are "id:text". */
    private void start() {
        consumer.updatePartitions(
                TOPIC, List.of(new PartitionInfo(TOPIC, 0, NODE, new Node[] {NODE}, new Node[] {NODE})));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 0L));
        catalog = new Catalog<String>(
                        listener -> new CompactedTopicView<>(
                                consumer,
                                TOPIC,
                                r -> new String(r.value(), StandardCharsets.UTF_8),
                                listener,
                                new CompactedTopicView.Options(
                                        "catalog-test",
                                        CompactedTopicView.MissingTopic.HOLDS_NOTHING,
                                        true,
                                        Duration.ofMillis(10),
                                        Duration.ofMillis(10),
                                        Duration.ofMinutes(1))),
                        v -> v.substring(0, v.indexOf(':')),
                        clock)
                .start();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(catalog::ready);
    }

    @AfterEach
    void stop() {
        if (catalog != null) {
            catalog.close();
        }
    }

    private void onTopic(long offset, String key, String value) {
        consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(
                TOPIC, 0, offset, key, value == null ? null : value.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void itsOwnWritesAreReadAtOnceAndOnlyOneOfTwoWritesOfTheSameValuePasses() {
        start();
        assertThat(catalog.reserve("a", null, "a:1")).isTrue();
        assertThat(catalog.get("a")).as("read back before the topic has it").isEqualTo("a:1");
        assertThat(catalog.snapshot()).containsEntry("a", "a:1");
        assertThat(catalog.reserve("a", null, "a:other"))
                .as("judged against the first write")
                .isFalse();

        onTopic(0, "a", "a:1");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> catalog.snapshot()
                .equals(Map.of("a", "a:1")));
        // the topic moves on (another instance's write): the view is the truth once the overlay is gone
        onTopic(1, "a", "a:2");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> "a:2".equals(catalog.get("a")));

        assertThat(catalog.reserve("a", "a:2", null)).isTrue();
        assertThat(catalog.get("a")).as("a delete reads as absent at once").isNull();
        assertThat(catalog.snapshot()).doesNotContainKey("a");
    }

    @Test
    void aWriteThatFailedIsReleasedAndAForgottenOverlayYieldsToTheTopic() {
        start();
        assertThat(catalog.reserve("b", null, "b:1")).isTrue();
        catalog.release("b", "b:1");
        assertThat(catalog.get("b")).isNull();

        assertThat(catalog.reserve("c", null, "c:mine")).isTrue();
        onTopic(0, "c", "c:theirs");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> consumer.position(P0) >= 1);
        assertThat(catalog.get("c"))
                .as("within the overlay bound this instance's write stands")
                .isEqualTo("c:mine");
        clock.advance(Catalog.OVERLAY_FOR.plusSeconds(1));
        assertThat(catalog.get("c")).isEqualTo("c:theirs");
        assertThat(catalog.snapshot()).containsEntry("c", "c:theirs");
    }

    private static final class MutableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-12-06T10:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
