package dev.vigil.notifier.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;

/** What the notifier tells an operator at start-up about the server its claims are committed to. */
@WithPostgres
class ServerDurabilityIT {
    PostgresDatabase pg;

    @Test
    void aServerThatDoesNotFlushAtCommitIsNamedWithTheSettingsThatAreOff() {
        // the shared test server runs with throwaway settings: both off
        assertThat(ServerDurability.warning(new Migrations.Target(pg.jdbcUrl(), pg.user(), pg.password())))
                .hasValueSatisfying(w -> assertThat(w)
                        .contains("fsync and synchronous_commit off")
                        .contains("sent again")
                        .doesNotContain(pg.password()));
    }

    @Test
    void aServerAsPostgresqlShipsItGivesNoWarning() {
        try (EmbeddedPostgres durable = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .serverConfig("fsync", "on")
                .serverConfig("synchronous_commit", "on")
                .start()) {
            PostgresDatabase db = durable.createDatabase("durable");
            assertThat(ServerDurability.warning(new Migrations.Target(db.jdbcUrl(), db.user(), db.password())))
                    .isEmpty();
        }
    }

    @Test
    void onlyOffLosesTheFlushAndEachSettingThatIsOffIsNamed() {
        for (String flushes : new String[] {"on", "local", "remote_write", "remote_apply"}) {
            assertThat(ServerDurability.warning("on", flushes)).as(flushes).isEmpty();
        }
        assertThat(ServerDurability.warning("off", "on"))
                .hasValueSatisfying(w -> assertThat(w).startsWith("PostgreSQL runs with fsync off"));
        assertThat(ServerDurability.warning("on", "off"))
                .hasValueSatisfying(w -> assertThat(w).startsWith("PostgreSQL runs with synchronous_commit off"));
    }

    @Test
    void anUnreachableServerIsReportedAsUnknownNotAsDurable() {
        assertThat(ServerDurability.warning(new Migrations.Target("jdbc:postgresql://127.0.0.1:1/none", "x", "y")))
                .hasValueSatisfying(w -> assertThat(w).startsWith("could not read whether PostgreSQL flushes"));
    }
}
