package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithPostgres;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@WithPostgres(dedicatedServer = true)
class PostgresOutageIT {
    private EmbeddedPostgres server;
    private ConnectionFactory factory;

    @Test
    void stoppedServerRefusesWorkAndRestartsWithItsDataOnTheSamePort() {
        Sql.update(factory, "CREATE TABLE pages (id text PRIMARY KEY)");
        Sql.update(factory, "INSERT INTO pages VALUES ($1)", "before-outage");
        int port = server.port();

        server.stop();

        assertThat(server.isRunning()).isFalse();
        assertThatThrownBy(() -> Sql.query(factory, "SELECT id FROM pages", row -> row.get("id", String.class)))
                .hasMessageContaining(String.valueOf(port));

        server.start();

        assertThat(server.port()).isEqualTo(port);
        // The same pooled factory recovers: connections broken by the outage are replaced.
        await().atMost(Duration.ofSeconds(15))
                .ignoreExceptions()
                .untilAsserted(() -> Sql.update(factory, "INSERT INTO pages VALUES ($1)", "after-outage"));
        assertThat(Sql.query(factory, "SELECT id FROM pages ORDER BY id", row -> row.get("id", String.class)))
                .containsExactly("after-outage", "before-outage");
    }

    @Test
    void dedicatedServerIsAlwaysEmbedded() {
        assertThat(server.isEmbedded()).isTrue();
    }
}
