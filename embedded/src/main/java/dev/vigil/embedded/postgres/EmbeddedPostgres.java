package dev.vigil.embedded.postgres;

import dev.vigil.embedded.internal.Dirs;
import io.r2dbc.spi.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server for Vigil: an embedded one (zonky binaries, PostgreSQL 17) or, when
 * {@value #URL_ENV} is set, the external server it names (see {@link PostgresUrl} for the accepted forms).
 *
 * <p>The embedded server keeps its port and data directory across {@link #stop()} / {@link #start()},
 * which is how outage tests take the database away and bring it back. {@link #createDatabase(String)}
 * gives each test class its own database on one server.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    public static final String URL_ENV = "VIGIL_DB_URL";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
    private static final String LOCAL_HOST = "localhost";
    private static final String SUPERUSER = "postgres";
    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final PostgresUrl external;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Map<String, String> serverConfig;
    private final int poolSize;
    private final int port;
    private final PostgresDatabase defaultDatabase;
    private final Set<PostgresDatabase> createdDatabases = new LinkedHashSet<>();
    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;
    private boolean running;
    private boolean closed;
    private Duration lastStartDuration = Duration.ZERO;

    private EmbeddedPostgres(Builder builder) {
        this.poolSize = builder.poolSize;
        this.external = builder.externalUrl();
        if (external != null) {
            this.dataDir = null;
            this.ownsDataDir = false;
            this.port = external.port();
            this.serverConfig = Map.of();
            this.defaultDatabase = new PostgresDatabase(external, poolSize, null);
        } else {
            this.ownsDataDir = builder.dataDir == null;
            this.dataDir = ownsDataDir ? Dirs.createTemp("vigil-postgres-") : builder.dataDir.toAbsolutePath();
            this.port = builder.port != 0 ? builder.port : freePort();
            this.serverConfig = serverConfig(ownsDataDir, builder.serverConfig);
            this.defaultDatabase = new PostgresDatabase(
                    new PostgresUrl(LOCAL_HOST, port, "postgres", SUPERUSER, null), poolSize, null);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts the embedded server (or checks that the external one answers) and returns this. */
    public synchronized EmbeddedPostgres start() {
        if (closed) {
            throw new IllegalStateException("PostgreSQL handle is closed; build a new one");
        }
        if (running) {
            return this;
        }
        long began = System.nanoTime();
        if (external != null) {
            checkReachable();
        } else {
            server = startEmbedded();
        }
        running = true;
        lastStartDuration = Duration.ofNanos(System.nanoTime() - began);
        LOG.info("{} PostgreSQL ready at {} in {} ms", external != null ? "External" : "Embedded",
                defaultDatabase.url(), lastStartDuration.toMillis());
        return this;
    }

    /**
     * Stops the embedded server and keeps its data; {@link #start()} brings it back on the same port.
     * Open connections break; the R2DBC pools replace them once the server is back.
     *
     * @throws UnsupportedOperationException for an external server ({@link #isEmbedded()} is false)
     */
    public synchronized void stop() {
        if (external != null) {
            throw new UnsupportedOperationException("cannot stop the external PostgreSQL named by " + URL_ENV
                    + " (" + external + "); outage tests need the embedded server (unset " + URL_ENV + ")");
        }
        if (!running) {
            return;
        }
        long began = System.nanoTime();
        running = false;
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("embedded PostgreSQL on port {} did not stop cleanly: {}", port, e.getMessage());
        } finally {
            server = null;
        }
        LOG.info("Embedded PostgreSQL on port {} stopped in {} ms", port,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
    }

    /**
     * Closes every database handle (dropping the databases made by {@link #createDatabase(String)} on an
     * external server), stops an embedded server and deletes its data unless the caller gave the directory.
     */
    @Override
    public void close() {
        List<PostgresDatabase> created;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            created = new ArrayList<>(createdDatabases);
        }
        created.forEach(PostgresDatabase::close);
        defaultDatabase.close();
        synchronized (this) {
            if (external == null) {
                stop();
                if (ownsDataDir) {
                    Dirs.deleteRecursively(dataDir);
                }
            }
            running = false;
        }
    }

    /** False when {@value #URL_ENV} named an external server: then {@link #stop()} is not available. */
    public boolean isEmbedded() {
        return external == null;
    }

    public synchronized boolean isRunning() {
        return running;
    }

    public String host() {
        return defaultDatabase.host();
    }

    public int port() {
        return port;
    }

    /** The server's default database ({@code postgres} when embedded, the URL's database when external). */
    public PostgresDatabase database() {
        return defaultDatabase;
    }

    /** Pooled R2DBC connections to {@link #database()}. */
    public ConnectionFactory connectionFactory() {
        return defaultDatabase.connectionFactory();
    }

    public String jdbcUrl() {
        return defaultDatabase.jdbcUrl();
    }

    public String user() {
        return defaultDatabase.user();
    }

    /** May be null (the embedded server trusts local connections). */
    public String password() {
        return defaultDatabase.password();
    }

    /** Wall time of the last successful {@link #start()}. */
    public synchronized Duration lastStartDuration() {
        return lastStartDuration;
    }

    /** Creates an empty database with a unique name. */
    public PostgresDatabase createDatabase() {
        return createUniqueDatabase("vigil");
    }

    /**
     * Creates an empty database named {@code <prefix>_<random>}, the prefix lower-cased and reduced to
     * letters, digits and {@code _} (a test class name makes a good prefix).
     */
    public PostgresDatabase createUniqueDatabase(String prefix) {
        String base = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (base.isEmpty() || Character.isDigit(base.charAt(0))) {
            base = "db_" + base;
        }
        base = base.length() > 46 ? base.substring(0, 46) : base;
        return createDatabase(base + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    /**
     * Creates an empty database (lower-case letters, digits and {@code _}, at most 63 characters) and returns
     * its handle; closing the handle drops the database. On an external server the user needs CREATEDB.
     */
    public PostgresDatabase createDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("database name '" + name
                    + "' must be lower-case letters, digits and '_', start with a letter or '_', at most 63 characters");
        }
        synchronized (this) {
            if (!running) {
                throw new IllegalStateException("cannot create database " + name + ": PostgreSQL at "
                        + defaultDatabase.url() + " is not running (call start())");
            }
        }
        try {
            execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name + " on " + defaultDatabase.url()
                    + (external != null ? " (the user needs the CREATEDB privilege)" : "") + ": " + e.getMessage(), e);
        }
        PostgresDatabase database = new PostgresDatabase(defaultDatabase.url().withDatabase(name), poolSize, this::drop);
        synchronized (this) {
            createdDatabases.add(database);
        }
        return database;
    }

    @Override
    public String toString() {
        return "EmbeddedPostgres[" + defaultDatabase.url() + (external != null ? ", external" : ", data=" + dataDir)
                + ", running=" + isRunning() + "]";
    }

    private void drop(PostgresDatabase database) {
        boolean serverGoingAway;
        synchronized (this) {
            createdDatabases.remove(database);
            // An embedded server that is closing takes its databases with it.
            serverGoingAway = (closed && external == null) || !running;
        }
        if (serverGoingAway) {
            return;
        }
        try {
            execute("DROP DATABASE IF EXISTS \"" + database.name() + "\" WITH (FORCE)");
        } catch (SQLException e) {
            LOG.warn("could not drop database {} on {}: {}", database.name(), defaultDatabase.url(), e.getMessage());
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = defaultDatabase.openJdbcConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private void checkReachable() {
        try {
            execute("SELECT 1");
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL named by " + URL_ENV + " (" + external + ") is not reachable: "
                    + e.getMessage(), e);
        }
    }

    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres startEmbedded() {
        try {
            Files.createDirectories(dataDir);
            var builder = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(Duration.ofSeconds(30));
            serverConfig.forEach(builder::setServerConfig);
            return builder.start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("embedded PostgreSQL failed to start on port " + port + " (data " + dataDir
                    + "): " + rootMessage(e) + "; is the port taken or the data directory used by another server?", e);
        }
    }

    private static Map<String, String> serverConfig(boolean throwaway, Map<String, String> overrides) {
        Map<String, String> config = new HashMap<>();
        // Throwaway data trades crash safety for speed; a caller-owned directory (the launcher) stays durable.
        config.put("fsync", throwaway ? "off" : "on");
        config.put("synchronous_commit", throwaway ? "off" : "on");
        config.putAll(overrides);
        return Map.copyOf(config);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (cause: " + root + ")";
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port for the embedded PostgreSQL", e);
        }
    }

    /** Builds an {@link EmbeddedPostgres}; nothing starts until {@link EmbeddedPostgres#start()}. */
    public static final class Builder {
        private int port;
        private Path dataDir;
        private int poolSize = 4;
        private String externalUrl;
        private boolean useEnvironment = true;
        private final Map<String, String> serverConfig = new HashMap<>();

        private Builder() {
        }

        /** Embedded server port; 0 (the default) picks a free one, kept across restarts. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("PostgreSQL port must be 0 (any free port) or 1-65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** Embedded data directory owned by the caller: kept on close, reused (no initdb) on the next start. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
            return this;
        }

        /** Maximum connections of each R2DBC pool handed out (default 4). */
        public Builder poolSize(int poolSize) {
            if (poolSize < 1) {
                throw new IllegalArgumentException("R2DBC pool size must be at least 1, was " + poolSize);
            }
            this.poolSize = poolSize;
            return this;
        }

        /** Use this external server instead of an embedded one (takes precedence over {@value #URL_ENV}). */
        public Builder externalUrl(String url) {
            PostgresUrl.parse(url);
            this.externalUrl = url;
            return this;
        }

        /** Whether {@value EmbeddedPostgres#URL_ENV} may name an external server (default true). */
        public Builder useEnvironment(boolean useEnvironment) {
            this.useEnvironment = useEnvironment;
            return this;
        }

        /** A {@code postgresql.conf} setting for the embedded server, e.g. {@code max_connections}. */
        public Builder serverConfig(String key, String value) {
            serverConfig.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public EmbeddedPostgres build() {
            return new EmbeddedPostgres(this);
        }

        /** Shorthand for {@code build().start()}. */
        public EmbeddedPostgres start() {
            return build().start();
        }

        private PostgresUrl externalUrl() {
            if (externalUrl != null) {
                return PostgresUrl.parse(externalUrl);
            }
            String fromEnv = useEnvironment ? System.getenv(URL_ENV) : null;
            if (fromEnv == null || fromEnv.isBlank()) {
                return null;
            }
            try {
                return PostgresUrl.parse(fromEnv);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(URL_ENV + ": " + e.getMessage(), e);
            }
        }
    }
}
