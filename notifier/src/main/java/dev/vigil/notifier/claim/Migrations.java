package dev.vigil.notifier.claim;

import io.r2dbc.spi.ConnectionFactoryOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Schema migrations at start, by Flyway: the versioned scripts under {@code db/notifier/} ({@code V1__…sql},
 * {@code V2__…}), each applied once and recorded in Flyway's {@code flyway_schema_history}. Flyway's own PostgreSQL
 * lock keeps notifier instances that start together from applying a version twice.
 *
 * <p>Flyway speaks blocking JDBC: {@link #migrate(Target)} blocks its caller (start-up, before any consumption), and
 * {@link #run} runs it on a bounded-elastic worker, never on an event loop.
 *
 * <p>Databases prepared by earlier releases carry their own version table, {@code notifier_schema_version}, and no
 * Flyway history. The first start on such a database baselines Flyway at the highest version that table records, so
 * no script runs twice; the old table is left in place (an older release started against it still finds its
 * schema complete). A schema that has other tables but neither version table is baselined at version 0: every
 * script applies, as before. That first adoption runs under the advisory lock the earlier releases took, so it is
 * decided once even when instances of both releases start together.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    /** The advisory lock key of the earlier releases' migrations ("vigilnot"). */
    private static final long LEGACY_LOCK_KEY = 0x7669_6769_6c6e_6f74L;

    static final String LEGACY_TABLE = "notifier_schema_version";
    static final String HISTORY_TABLE = "flyway_schema_history";
    private static final int CONNECT_TIMEOUT_SECONDS = 5;

    private Migrations() {}

    /** Where to migrate: a JDBC URL ({@code jdbc:postgresql://host:port/database[?…]}) and credentials. */
    public record Target(String jdbcUrl, String username, String password) {
        public Target {
            if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
                throw new IllegalArgumentException("not a PostgreSQL JDBC URL");
            }
        }

        /**
         * The JDBC coordinates of the database an R2DBC URL names ({@code r2dbc:postgresql://[user[:password]@]host
         * [:port]/database[?…]}): the same host, port and database, user and password given here (or else those in
         * the URL), and the options that change where tables land or how the connection is secured ({@code schema},
         * {@code sslMode}, {@code sslRootCert}, {@code sslCert}, {@code sslKey}, {@code ssl}).
         */
        public static Target fromR2dbc(String r2dbcUrl, String username, String password) {
            ConnectionFactoryOptions o = ConnectionFactoryOptions.parse(r2dbcUrl);
            String host = String.valueOf(o.getRequiredValue(ConnectionFactoryOptions.HOST));
            Object port = o.getValue(ConnectionFactoryOptions.PORT);
            Object database = o.getValue(ConnectionFactoryOptions.DATABASE);
            StringBuilder url = new StringBuilder("jdbc:postgresql://")
                    .append(host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host)
                    .append(':')
                    .append(port == null ? 5432 : Integer.parseInt(String.valueOf(port)))
                    .append('/')
                    .append(database == null ? "" : String.valueOf(database));
            Map<String, String> params = new LinkedHashMap<>();
            Object ssl = o.getValue(ConnectionFactoryOptions.SSL);
            if (ssl != null && Boolean.parseBoolean(String.valueOf(ssl))) {
                params.put("sslmode", "verify-full");
            }
            copy(o, "sslMode", params, "sslmode", true);
            copy(o, "sslRootCert", params, "sslrootcert", false);
            copy(o, "sslCert", params, "sslcert", false);
            copy(o, "sslKey", params, "sslkey", false);
            copy(o, "schema", params, "currentSchema", false);
            String sep = "?";
            for (Map.Entry<String, String> p : params.entrySet()) {
                url.append(sep)
                        .append(p.getKey())
                        .append('=')
                        .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
                sep = "&";
            }
            Object urlUser = o.getValue(ConnectionFactoryOptions.USER);
            Object urlPassword = o.getValue(ConnectionFactoryOptions.PASSWORD);
            return new Target(
                    url.toString(),
                    username != null ? username : urlUser == null ? null : String.valueOf(urlUser),
                    password != null && !password.isEmpty()
                            ? password
                            : urlPassword == null ? null : String.valueOf(urlPassword));
        }

        private static void copy(
                ConnectionFactoryOptions o, String r2dbc, Map<String, String> params, String jdbc, boolean sslMode) {
            Object v = o.getValue(io.r2dbc.spi.Option.valueOf(r2dbc));
            if (v != null) {
                // R2DBC spells SSL modes as its enum (VERIFY_FULL) or as PostgreSQL does (verify-full)
                String text = String.valueOf(v);
                params.put(
                        jdbc, sslMode ? text.toLowerCase(java.util.Locale.ROOT).replace('_', '-') : text);
            }
        }

        Connection connect() throws SQLException {
            Properties props = new Properties();
            if (username != null) {
                props.setProperty("user", username);
            }
            if (password != null && !password.isEmpty()) {
                props.setProperty("password", password);
            }
            props.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_SECONDS));
            props.setProperty("ApplicationName", "vigil-notifier-migrations");
            return DriverManager.getConnection(jdbcUrl, props);
        }

        @Override
        public String toString() {
            return "Target[" + jdbcUrl + " as " + username + "]"; // never the password
        }
    }

    /** {@link #migrate(Target)} on a bounded-elastic worker: completes with the schema version now in place. */
    public static Mono<Integer> run(String jdbcUrl, String username, String password) {
        return run(new Target(jdbcUrl, username, password));
    }

    /** {@link #migrate(Target)} on a bounded-elastic worker: completes with the schema version now in place. */
    public static Mono<Integer> run(Target target) {
        return Mono.fromCallable(() -> migrate(target)).subscribeOn(Schedulers.boundedElastic());
    }

    /** Applies every pending script (blocking JDBC: never call it on an event loop); returns the version in place. */
    public static int migrate(Target target) {
        try (Connection c = target.connect()) {
            if (!exists(c, HISTORY_TABLE)) {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_lock(" + LEGACY_LOCK_KEY + ")");
                }
                try {
                    if (!exists(c, HISTORY_TABLE)) {
                        return apply(target, baselineVersion(c));
                    }
                } finally {
                    try (Statement s = c.createStatement()) {
                        s.execute("SELECT pg_advisory_unlock(" + LEGACY_LOCK_KEY + ")");
                    } catch (SQLException e) {
                        // closing the connection releases the lock too; the migration's own outcome is what counts
                        LOG.debug("advisory unlock failed: {}", e.getMessage());
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot reach the database for the schema migrations: " + e.getMessage(), e);
        }
        return apply(target, null);
    }

    /** The version to baseline a database without Flyway history at: the earlier releases' own record, else 0. */
    private static String baselineVersion(Connection c) throws SQLException {
        if (!exists(c, LEGACY_TABLE)) {
            return "0";
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT coalesce(max(version), 0) FROM " + LEGACY_TABLE)) {
            r.next();
            int v = r.getInt(1);
            LOG.info(
                    "adopting the schema of an earlier release: {} records version {}; Flyway takes over from there",
                    LEGACY_TABLE,
                    v);
            return String.valueOf(v);
        }
    }

    private static int apply(Target target, String baselineVersion) {
        var config = Flyway.configure()
                .dataSource(target.jdbcUrl(), target.username(), target.password())
                .connectRetries(0)
                .locations("classpath:db/notifier")
                .cleanDisabled(true);
        if (baselineVersion != null) {
            config.baselineOnMigrate(true)
                    .baselineVersion(baselineVersion)
                    .baselineDescription(
                            baselineVersion.equals("0")
                                    ? "before the first notifier script"
                                    : "adopted from " + LEGACY_TABLE);
        }
        Flyway flyway = config.load();
        MigrateResult result = flyway.migrate();
        if (result.migrationsExecuted > 0) {
            LOG.info(
                    "applied {} notifier schema migration(s), now at version {}",
                    result.migrationsExecuted,
                    result.targetSchemaVersion);
        }
        MigrationInfo current = flyway.info().current();
        return current == null || current.getVersion() == null
                ? 0
                : Integer.parseInt(current.getVersion().getVersion());
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            s.setString(1, table);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getBoolean(1);
            }
        }
    }
}
