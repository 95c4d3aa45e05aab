package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.claim.Migrations;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code vigil digest --preview} composes the digest so far from the notifier's PostgreSQL and sends nothing. */
@WithPostgres
class DigestCommandTest {
    PostgresDatabase db;

    private String url() {
        return db.url().toUrlString();
    }

    @Test
    void printsTheDigestSoFarWithItsSections() throws Exception {
        Migrations.run(db.jdbcUrl(), db.user(), db.password()).block(Duration.ofSeconds(60));
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO incidents (incident_id, fingerprint, service, severity, state, first_seen,"
                    + " last_seen, occurrences) VALUES ('monitor/preview-api@1', 'monitor/preview-api', 'api',"
                    + " 'critical', 'opened', now() - interval '10 minutes', now(), 3)");
            s.execute("INSERT INTO digest_entries (event_id, channel, fingerprint, incident_id, service, severity,"
                    + " state, summary) VALUES ('e1', 'daily', 'app/shop/deploy', 'app/shop/deploy@1', 'shop', 'info',"
                    + " 'opened', 'deployed 4.2')");
            s.execute("INSERT INTO digests (day) VALUES (current_date + 1)");
        }

        CliRun run = CliRun.vigil("digest", "--preview", "--db-url", url());

        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
        assertThat(run.out()).startsWith("Vigil digest · ").contains("New since the previous digest");
        assertThat(run.out()).contains("[critical] monitor/preview-api (api) at ");
        assertThat(run.out()).contains("monitor/preview-api (api) open for 10m").contains("not acknowledged");
        assertThat(run.out()).contains("app/shop/deploy (shop): 1 event(s), latest \"deployed 4.2\"");
        // a preview claims and sends nothing
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement();
                var rs =
                        s.executeQuery("SELECT count(*) FROM digests WHERE owner IS NOT NULL OR sent_at IS NOT NULL")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }

    @Test
    void previewIsRequired() {
        CliRun run = CliRun.vigil("digest");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required option: '--preview'");
    }
}
