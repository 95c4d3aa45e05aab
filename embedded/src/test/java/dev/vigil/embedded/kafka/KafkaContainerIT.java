package dev.vigil.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The embedded broker's produce/consume test against a real Kafka container of the same version.
 * Skipped where there is no Docker engine; every other test runs without one.
 */
@Testcontainers(disabledWithoutDocker = true)
class KafkaContainerIT {
    @Container
    private static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:" + AppInfoParser.getVersion());

    @Test
    void idempotentProducerRecordsAreAllConsumedBackExactlyOnce() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.getBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("it.container", 3, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }

        List<String> sent = RoundTrip.produce(producerProps(), "it.container", "c", 1_000);
        var received = RoundTrip.consume(consumerProps(), "it.container", 1_000);

        assertThat(RoundTrip.values(received)).containsExactlyInAnyOrderElementsOf(sent);
    }

    private static Map<String, Object> producerProps() {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return props;
    }

    private static Map<String, Object> consumerProps() {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "container");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return props;
    }
}
