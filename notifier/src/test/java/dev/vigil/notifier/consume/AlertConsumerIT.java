package dev.vigil.notifier.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.schemas.topic.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;

/** The bridge on a real broker: pauses without demand, commits only contiguous finished offsets. */
@WithKafka
class AlertConsumerIT {
    EmbeddedKafka kafka;

    @Test
    void pausesAtTheInFlightBoundAndCommitsOnlyFinishedPrefixes() throws Exception {
        String topic = "bridge-" + System.nanoTime();
        kafka.createTopics(new Topics.TopicSpec(topic, 1, false));
        try (KafkaProducer<byte[], byte[]> p =
                new KafkaProducer<>(kafka.producerProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 20; i++) {
                p.send(new ProducerRecord<>(topic, ("k" + i).getBytes(), ("v" + i).getBytes()))
                        .get(10, TimeUnit.SECONDS);
            }
        }
        Map<Long, Sinks.One<String>> gates = new ConcurrentHashMap<>();
        Map<String, Object> props = kafka.consumerProps("bridge-group");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5);
        String group = "bridge-group";
        try (AlertConsumer c = new AlertConsumer(
                                props,
                                topic,
                                5,
                                r -> {
                                    Sinks.One<String> gate = Sinks.one();
                                    gates.put(r.offset(), gate);
                                    return gate.asMono();
                                },
                                Duration.ofSeconds(2),
                                new SimpleMeterRegistry())
                        .start();
                Admin admin = Admin.create(kafka.adminProps())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> gates.size() == 5 && c.isPaused());
            // no demand: nothing more is read while five are unfinished
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> gates.size() == 5);
            assertThat(c.inFlight()).isEqualTo(5);

            gates.get(1L).tryEmitValue("done");
            gates.get(2L).tryEmitValue("done");
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(2))
                    .until(() -> committed(admin, group, topic) <= 0);
            gates.get(0L).tryEmitValue("done");
            await().atMost(Duration.ofSeconds(10)).until(() -> committed(admin, group, topic) == 3);

            // below half the bound, reading resumes
            gates.get(3L).tryEmitValue("done");
            await().atMost(Duration.ofSeconds(10)).until(() -> gates.size() > 5);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                gates.values().forEach(g -> g.tryEmitValue("done"));
                return gates.size() == 20 && committed(admin, group, topic) == 20;
            });
        }
    }

    @Test
    void aRebalanceThatTookPartitionsAndAfterWhichTheConsumerWentOnCountsOnce() throws Exception {
        String topic = "rebalance-" + System.nanoTime();
        String group = "rebalance-group-" + System.nanoTime();
        kafka.createTopics(new Topics.TopicSpec(topic, 4, false));
        SimpleMeterRegistry firstMeters = new SimpleMeterRegistry();
        SelfHeals first = new SelfHeals(firstMeters);
        try (AlertConsumer a = consumer(group, topic, firstMeters).start()) {
            await().atMost(Duration.ofSeconds(30)).until(a::isAssigned);
            assertThat(first.count(SelfHeals.CONSUMER_REBALANCE_SURVIVED))
                    .as("the first assignment took nothing away")
                    .isZero();
            // a second member joins: the first gives up its partitions and goes on with its share
            SimpleMeterRegistry secondMeters = new SimpleMeterRegistry();
            try (AlertConsumer b = consumer(group, topic, secondMeters).start()) {
                await().atMost(Duration.ofSeconds(60)).until(b::isAssigned);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> first.count(SelfHeals.CONSUMER_REBALANCE_SURVIVED) == 1.0);
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(2))
                        .until(() -> first.count(SelfHeals.CONSUMER_REBALANCE_SURVIVED) == 1.0);
            }
        }
    }

    private AlertConsumer consumer(String group, String topic, SimpleMeterRegistry meters) {
        return new AlertConsumer(
                kafka.consumerProps(group),
                topic,
                5,
                r -> reactor.core.publisher.Mono.empty(),
                Duration.ofSeconds(2),
                meters);
    }

    private static long committed(Admin admin, String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        OffsetAndMetadata o = m.get(new TopicPartition(topic, 0));
        return o == null ? -1 : o.offset();
    }
}
