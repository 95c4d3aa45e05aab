package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.embedded.junit.WithPostgres;
import io.r2dbc.spi.ConnectionFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

@WithPostgres
class EmbeddedPostgresIT {
    private static final String UPSERT =
            """
            INSERT INTO claims (event_id, channel, attempts, state) VALUES ($1, $2, 1, $3)
            ON CONFLICT (event_id, channel) DO UPDATE SET attempts = claims.attempts + 1, state = EXCLUDED.state
            RETURNING attempts, state, (xmax = 0) AS inserted""";

    record Claim(int attempts, String state, boolean inserted) {}

    @BeforeAll
    static void createSchema(PostgresDatabase database) throws Exception {
        try (Connection connection = database.openJdbcConnection()) {
            connection
                    .createStatement()
                    .execute(
                            """
                    CREATE TABLE claims (
                        event_id text NOT NULL,
                        channel  text NOT NULL,
                        attempts int  NOT NULL,
                        state    text NOT NULL,
                        PRIMARY KEY (event_id, channel))""");
        }
    }

    @Test
    void upsertWithReturningInsertsThenUpdatesTheSameRow(ConnectionFactory factory) {
        List<Claim> first = upsert(factory, "evt-1", "slack", "claimed");
        List<Claim> second = upsert(factory, "evt-1", "slack", "sent");
        List<Claim> otherChannel = upsert(factory, "evt-1", "discord", "claimed");

        assertThat(first).containsExactly(new Claim(1, "claimed", true));
        assertThat(second).containsExactly(new Claim(2, "sent", false));
        assertThat(otherChannel).containsExactly(new Claim(1, "claimed", true));
        assertThat(Sql.query(
                        factory,
                        "SELECT state FROM claims WHERE event_id = $1 ORDER BY channel",
                        row -> row.get("state", String.class),
                        "evt-1"))
                .containsExactly("claimed", "sent");
    }

    @Test
    void concurrentUpsertsOfOneKeyCountEveryAttempt(ConnectionFactory factory) {
        int attempts = 40;
        Flux.range(0, attempts)
                .flatMap(
                        i -> Mono.fromCallable(() -> upsert(factory, "evt-race", "webhook", "claimed"))
                                .subscribeOn(Schedulers.boundedElastic()),
                        4)
                .blockLast();

        assertThat(Sql.query(
                        factory,
                        "SELECT attempts FROM claims WHERE event_id = $1",
                        row -> row.get("attempts", Integer.class),
                        "evt-race"))
                .containsExactly(attempts);
    }

    @Test
    void eachTestClassGetsItsOwnDatabaseOnTheServer(EmbeddedPostgres server, PostgresDatabase database)
            throws Exception {
        assertThat(database.name()).startsWith("embeddedpostgresit_");
        assertThat(database.port()).isEqualTo(server.port());

        String otherName;
        try (PostgresDatabase other = server.createDatabase()) {
            otherName = other.name();
            assertThat(otherName).isNotEqualTo(database.name());
            assertThat(tableExists(other, "claims")).isFalse();
            assertThat(tableExists(database, "claims")).isTrue();
        }
        assertThat(databaseExists(server.database(), otherName)).isFalse();
    }

    @Test
    void invalidDatabaseNamesAreRejectedBeforeReachingSql(EmbeddedPostgres server) {
        assertThatThrownBy(() -> server.createDatabase("x\"; DROP DATABASE postgres; --"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be lower-case letters");
    }

    private static List<Claim> upsert(ConnectionFactory factory, String eventId, String channel, String state) {
        return Sql.query(
                factory,
                UPSERT,
                row -> new Claim(
                        row.get("attempts", Integer.class),
                        row.get("state", String.class),
                        row.get("inserted", Boolean.class)),
                eventId,
                channel,
                state);
    }

    private static boolean tableExists(PostgresDatabase database, String table) throws Exception {
        try (Connection connection = database.openJdbcConnection();
                var statement = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            statement.setString(1, table);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static boolean databaseExists(PostgresDatabase admin, String name) throws Exception {
        try (Connection connection = admin.openJdbcConnection();
                var statement = connection.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
    }
}
