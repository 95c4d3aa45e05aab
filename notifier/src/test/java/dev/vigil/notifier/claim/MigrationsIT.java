package dev.vigil.notifier.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Flyway applies the notifier's scripts once, also when instances start together, and takes over a database an
 * earlier release prepared with its own {@code notifier_schema_version} table without applying anything twice.
 */
@WithPostgres
class MigrationsIT {
    private static final String[] SCRIPTS = {
        "V1__schema.sql", "V2__resolutions_and_failing_channels.sql", "V3__vendor_lookup.sql"
    };
    EmbeddedPostgres server;

    /** The versions of the scripts this build ships, in order; the newest is where every migration ends. */
    static final List<Integer> SHIPPED = shipped();

    static final int LATEST = SHIPPED.get(SHIPPED.size() - 1);

    private static List<Integer> shipped() {
        try (java.util.stream.Stream<java.nio.file.Path> files =
                java.nio.file.Files.list(java.nio.file.Path.of("src/main/resources/db/notifier"))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("V[0-9]+__.+\\.sql"))
                    .map(n -> Integer.valueOf(n.substring(1, n.indexOf("__"))))
                    .sorted()
                    .toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Flyway's history rows of the shipped scripts newer than {@code after}, each applied once. */
    private static List<String> appliedAfter(int after) {
        return SHIPPED.stream().filter(v -> v > after).map(v -> v + " SQL true").toList();
    }

    private static List<String> baselinedAt(int version) {
        List<String> rows = new ArrayList<>(List.of(version + " BASELINE true"));
        rows.addAll(appliedAfter(version));
        return rows;
    }

    private final List<PostgresDatabase> databases = new ArrayList<>();

    @AfterEach
    void drop() {
        databases.forEach(PostgresDatabase::close);
        databases.clear();
    }

    private PostgresDatabase fresh() {
        PostgresDatabase db = server.createUniqueDatabase("migrations");
        databases.add(db);
        return db;
    }

    private static Migrations.Target target(PostgresDatabase db) {
        return new Migrations.Target(db.jdbcUrl(), db.user(), db.password());
    }

    /** What the earlier releases did: the scripts up to {@code version} by hand, recorded in their own table. */
    private static void migrateLikeAnEarlierRelease(PostgresDatabase db, int version) throws Exception {
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notifier_schema_version (version integer PRIMARY KEY,"
                    + " applied_at timestamptz NOT NULL DEFAULT now())");
            for (int v = 1; v <= version; v++) {
                s.execute(script(SCRIPTS[v - 1]));
                s.execute("INSERT INTO notifier_schema_version (version) VALUES (" + v + ")");
            }
            s.execute("INSERT INTO claims (event_id, channel, status, claimed_at, lease_until)"
                    + " VALUES ('kept', 'slack', 'delivered', now(), now())");
        }
    }

    private static String script(String name) throws IOException {
        try (InputStream in = MigrationsIT.class.getResourceAsStream("/db/notifier/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Flyway's history: "version type success" per row, in order. */
    private static List<String> history(PostgresDatabase db) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT version, type, success FROM flyway_schema_history" + " ORDER BY installed_rank")) {
            while (r.next()) {
                rows.add(r.getString(1) + " " + r.getString(2) + " " + r.getBoolean(3));
            }
        }
        return rows;
    }

    private static boolean columnExists(PostgresDatabase db, String table, String column) throws Exception {
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM information_schema.columns WHERE table_name = '"
                        + table + "' AND column_name = '" + column + "'")) {
            r.next();
            return r.getInt(1) == 1;
        }
    }

    private static long count(PostgresDatabase db, String sql) throws Exception {
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** {@code n} starts released at once; every one's answer. */
    private static List<Integer> startTogether(int n, Callable<Integer> start) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return start.call();
                }));
            }
            go.countDown();
            List<Integer> versions = new ArrayList<>();
            for (Future<Integer> f : futures) {
                versions.add(f.get(120, TimeUnit.SECONDS));
            }
            return versions;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNewDatabaseGetsEveryScriptOnceAndAgainNothing() throws Exception {
        PostgresDatabase db = fresh();
        assertThat(Migrations.migrate(target(db))).isEqualTo(LATEST);
        assertThat(Migrations.migrate(target(db))).isEqualTo(LATEST);
        assertThat(history(db)).containsExactlyElementsOf(appliedAfter(0));
        assertThat(columnExists(db, "incidents", "source")).isTrue();
    }

    @Test
    void instancesStartingTogetherApplyEachScriptOnce() throws Exception {
        PostgresDatabase db = fresh();
        assertThat(startTogether(4, () -> Migrations.migrate(target(db)))).containsOnly(LATEST);
        assertThat(history(db)).containsExactlyElementsOf(appliedAfter(0));
    }

    @Test
    void aDatabaseOfAnEarlierReleaseIsBaselinedAtItsVersionAndOnlyTheNewerScriptsRun() throws Exception {
        PostgresDatabase db = fresh();
        migrateLikeAnEarlierRelease(db, 2);
        assertThat(columnExists(db, "incidents", "source")).isFalse();

        assertThat(Migrations.migrate(target(db))).isEqualTo(LATEST);

        assertThat(history(db)).containsExactlyElementsOf(baselinedAt(2));
        assertThat(columnExists(db, "incidents", "source")).isTrue();
        assertThat(count(db, "SELECT count(*) FROM claims WHERE event_id = 'kept'"))
                .isEqualTo(1);
        // the old table stays as it was: an earlier release started against this database finds its schema whole
        assertThat(count(db, "SELECT max(version) FROM notifier_schema_version"))
                .isEqualTo(2);
        assertThat(Migrations.migrate(target(db))).isEqualTo(LATEST);
        assertThat(history(db)).containsExactlyElementsOf(baselinedAt(2));
    }

    @Test
    void instancesStartingTogetherOnTheLastEarlierReleaseBaselineOnceAndApplyOnlyTheNewerScripts() throws Exception {
        PostgresDatabase db = fresh();
        migrateLikeAnEarlierRelease(db, 3);

        assertThat(startTogether(4, () -> Migrations.run(target(db)).block())).containsOnly(LATEST);

        assertThat(history(db)).containsExactlyElementsOf(baselinedAt(3));
        assertThat(count(db, "SELECT count(*) FROM claims WHERE event_id = 'kept'"))
                .isEqualTo(1);
    }

    @Test
    void aSchemaHoldingOtherTablesButNoVersionTableGetsEveryScript() throws Exception {
        PostgresDatabase db = fresh();
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE someone_elses (id integer)");
        }
        assertThat(Migrations.migrate(target(db))).isEqualTo(LATEST);
        assertThat(history(db)).containsExactlyElementsOf(baselinedAt(0));
    }

    @Test
    void anR2dbcUrlNamesTheSameDatabaseOverJdbc() {
        assertThat(Migrations.Target.fromR2dbc("r2dbc:postgresql://db.example:6543/vigil", "vigil", "pw"))
                .isEqualTo(new Migrations.Target("jdbc:postgresql://db.example:6543/vigil", "vigil", "pw"));
        assertThat(Migrations.Target.fromR2dbc(
                                "r2dbc:postgresql://localhost/vigil?sslMode=VERIFY_FULL&schema=alerts", "vigil", null)
                        .jdbcUrl())
                .isEqualTo("jdbc:postgresql://localhost:5432/vigil?sslmode=verify-full&currentSchema=alerts");
        assertThat(Migrations.Target.fromR2dbc("r2dbc:postgresql://u:secret@localhost:5433/vigil", null, ""))
                .isEqualTo(new Migrations.Target("jdbc:postgresql://localhost:5433/vigil", "u", "secret"));
        assertThat(Migrations.Target.fromR2dbc("r2dbc:postgresql://u:secret@localhost:5433/vigil", null, "")
                        .toString())
                .doesNotContain("secret");
    }
}
