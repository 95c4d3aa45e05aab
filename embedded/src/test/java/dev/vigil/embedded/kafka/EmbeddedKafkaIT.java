package dev.vigil.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.internals.Exit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithKafka
class EmbeddedKafkaIT {
    private static final int RECORDS = 2_000;

    @Test
    void idempotentProducerRecordsAreAllConsumedBackExactlyOnce(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(new TopicSpec("it.round-trip", 3, false));

        List<String> sent = RoundTrip.produce(kafka.producerProps(), "it.round-trip", "r", RECORDS);
        var received = RoundTrip.consume(kafka.consumerProps("round-trip"), "it.round-trip", RECORDS);

        assertThat(RoundTrip.values(received)).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(received).extracting(r -> r.partition()).containsOnly(0, 1, 2);
    }

    @Test
    void restartOnSamePortAndDataKeepsRecordsAndCommittedOffsets(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(new TopicSpec("it.restart", 2, false));
        List<String> before = RoundTrip.produce(kafka.producerProps(), "it.restart", "before", 500);
        assertThat(RoundTrip.consume(kafka.consumerProps("restart-reader"), "it.restart", 500))
                .hasSize(500);
        String bootstrap = kafka.bootstrapServers();

        kafka.stop();
        assertThat(kafka.isRunning()).isFalse();
        assertThat(Files.exists(kafka.dataDir().resolve("meta.properties"))).isTrue();
        kafka.start();

        assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
        List<String> after = RoundTrip.produce(kafka.producerProps(), "it.restart", "after", 100);
        // The group resumes from its committed offsets: only the new records.
        assertThat(RoundTrip.values(RoundTrip.consume(kafka.consumerProps("restart-reader"), "it.restart", 100)))
                .containsExactlyInAnyOrderElementsOf(after);
        // A new group still reads everything written before the restart.
        assertThat(RoundTrip.values(RoundTrip.consume(kafka.consumerProps("restart-fresh"), "it.restart", 600)))
                .containsAll(before)
                .containsAll(after)
                .hasSize(600);
    }

    @Test
    void createTopicsAppliesPartitionsAndCleanupPolicyAndIsIdempotent(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(Topics.all());
        kafka.createTopics(Topics.all());

        try (Admin admin = Admin.create(kafka.adminProps())) {
            List<String> names = Topics.all().stream().map(TopicSpec::name).toList();
            Map<String, TopicDescription> topics =
                    admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
            List<ConfigResource> resources = names.stream()
                    .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
                    .toList();
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);

            for (TopicSpec spec : Topics.all()) {
                assertThat(topics.get(spec.name()).partitions())
                        .as(spec.name())
                        .hasSize(spec.partitions())
                        .allSatisfy(p -> assertThat(p.replicas()).hasSize(1));
                String policy = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()))
                        .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                        .value();
                assertThat(policy).as(spec.name()).isEqualTo(spec.compacted() ? "compact" : "delete");
            }
        }
    }

    @Test
    void transactionsWorkOnTheSingleBrokerSoExactlyOnceStreamsCan(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(new TopicSpec("it.transactions", 1, false));
        Map<String, Object> props = kafka.producerProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-tx");
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("it.transactions", "k", "committed-" + i));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("it.transactions", "k", "aborted"))
                    .get();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("it.transactions", "k", "committed-last"));
            producer.commitTransaction();
        }

        var received = RoundTrip.values(RoundTrip.consume(kafka.consumerProps("tx-reader"), "it.transactions", 11));

        assertThat(received).hasSize(11).doesNotContain("aborted").endsWith("committed-last");
    }

    @Test
    void aBrokerOnACallerDirectoryKeepsItsDataForTheNextBroker(@TempDir Path dir) throws Exception {
        List<String> sent;
        try (EmbeddedKafka first = EmbeddedKafka.builder().dataDir(dir).start()) {
            first.createTopics(new TopicSpec("it.durable", 1, true));
            sent = RoundTrip.produce(first.producerProps(), "it.durable", "d", 50);
        }
        assertThat(dir).isDirectoryContaining(p -> p.getFileName().toString().equals("meta.properties"));

        try (EmbeddedKafka second = EmbeddedKafka.builder().dataDir(dir).start()) {
            assertThat(RoundTrip.values(RoundTrip.consume(second.consumerProps("durable"), "it.durable", 50)))
                    .containsExactlyElementsOf(sent);
        }
    }

    @Test
    void closeDeletesTheTemporaryDataDirectory() {
        EmbeddedKafka kafka = EmbeddedKafka.builder().start();
        Path data = kafka.dataDir();
        assertThat(data).isDirectory();

        kafka.close();

        assertThat(data).doesNotExist();
        assertThat(kafka.isRunning()).isFalse();
        assertThatThrownBy(kafka::start).hasMessageContaining("closed");
    }

    @Test
    void brokerCannotEndTheJvm(EmbeddedKafka kafka) {
        assertThat(kafka.isRunning()).isTrue();

        assertThatThrownBy(() -> Exit.exit(1, "simulated fatal error")).hasMessageContaining("refused");
        assertThatThrownBy(() -> Exit.halt(1, "simulated fatal error")).hasMessageContaining("refused");
    }
}
