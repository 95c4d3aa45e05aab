package dev.vigil.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import io.r2dbc.spi.ConnectionFactory;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One shared broker, one database: injected the same way into constructor, fields, methods and nested classes. */
@WithKafka(shared = true, createVigilTopics = true)
@WithPostgres
class ExtensionsIT {
    private static EmbeddedKafka fromBeforeAll;
    private final EmbeddedKafka fromConstructor;
    private EmbeddedKafka kafkaField;
    private PostgresDatabase databaseField;
    private ConnectionFactory factoryField;

    ExtensionsIT(EmbeddedKafka kafka) {
        this.fromConstructor = kafka;
    }

    @BeforeAll
    static void remember(EmbeddedKafka kafka) {
        fromBeforeAll = kafka;
    }

    @Test
    void everyInjectionPointGetsTheSameRunningBroker(EmbeddedKafka fromMethod) {
        assertThat(fromMethod.isRunning()).isTrue();
        assertThat(fromConstructor).isSameAs(fromMethod).isSameAs(kafkaField).isSameAs(fromBeforeAll);
    }

    @Test
    void vigilTopicsExistBeforeTheFirstTest(EmbeddedKafka kafka) throws Exception {
        try (Admin admin = Admin.create(kafka.adminProps())) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .containsAll(Topics.all().stream().map(TopicSpec::name).toList());
        }
    }

    @Test
    void postgresInjectionPointsAgree(EmbeddedPostgres server, PostgresDatabase database, ConnectionFactory factory) {
        assertThat(server.isRunning()).isTrue();
        assertThat(databaseField).isSameAs(database);
        assertThat(factoryField).isSameAs(factory).isSameAs(database.connectionFactory());
        assertThat(database.name()).startsWith("extensionsit_");
    }

    @Nested
    class NestedTests {
        @Test
        void shareTheOuterClassResources(EmbeddedKafka kafka, PostgresDatabase database) {
            assertThat(kafka).isSameAs(fromConstructor);
            assertThat(database).isSameAs(databaseField);
        }
    }
}
