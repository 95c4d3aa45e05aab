package dev.vigil.embedded.postgres;

import dev.vigil.embedded.internal.Dirs;
import dev.vigil.embedded.net.LocalPorts;
import io.r2dbc.spi.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server for Vigil: an embedded one (zonky binaries, PostgreSQL 17) or, when
 * {@value #URL_ENV} is set, the external server it names (see {@link PostgresUrl} for the accepted forms).
 *
 * <p>The embedded server keeps its port and data directory across {@link #stop()} / {@link #start()},
 * which is how outage tests take the database away and bring it back. {@link #createDatabase(String)}
 * gives each test class its own database on one server.
 *
 * <p>The embedded server requires a password for every connection (SCRAM-SHA-256 in {@code pg_hba.conf},
 * over TCP and the Unix socket alike): anyone else on the machine could otherwise connect as its superuser.
 * The password is generated per data directory and kept in a file inside it ({@link PasswordFile}), so a
 * restart on the same directory uses it again; {@link #password()}, {@link #database()} and the URLs it gives
 * carry it. A data directory made by an older Vigil, which trusted every local connection, is converted on
 * its first start: it gets a password and stops trusting.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    public static final String URL_ENV = "VIGIL_DB_URL";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
    private static final String LOCAL_HOST = "localhost";
    private static final String SUPERUSER = "postgres";
    private static final String PASSWORD_AUTH = "scram-sha-256";
    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final PostgresUrl external;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Map<String, String> serverConfig;
    private final int poolSize;
    private final boolean stopOnJvmExit;
    private final int port;
    private final PostgresDatabase defaultDatabase;
    private final Set<PostgresDatabase> createdDatabases = new LinkedHashSet<>();
    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;
    private boolean running;
    private boolean closed;
    private Duration lastStartDuration = Duration.ZERO;
    /** Held from the first start to close on a data directory the caller gave; see {@link LeftoverServer}. */
    private LeftoverServer ownership;

    private OptionalLong leftoverStopped = OptionalLong.empty();

    private EmbeddedPostgres(Builder builder) {
        this.poolSize = builder.poolSize;
        this.stopOnJvmExit = builder.stopOnJvmExit;
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
            this.port = builder.port != 0 ? builder.port : LocalPorts.free();
            this.serverConfig = serverConfig(ownsDataDir, builder.serverConfig);
            // Known before start() so database() and its URLs can be handed out first; written by the first start.
            String password = PasswordFile.read(PasswordFile.in(dataDir)).orElseGet(PasswordFile::generate);
            this.defaultDatabase = new PostgresDatabase(
                    new PostgresUrl(LOCAL_HOST, port, "postgres", SUPERUSER, password), poolSize, null);
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
            try {
                server = startEmbedded();
            } catch (RuntimeException e) {
                // no server of ours runs on the directory: another process may take it
                if (ownership != null) {
                    ownership.close();
                    ownership = null;
                }
                throw e;
            }
        }
        running = true;
        lastStartDuration = Duration.ofNanos(System.nanoTime() - began);
        LOG.info(
                "{} PostgreSQL ready at {} in {} ms",
                external != null ? "External" : "Embedded",
                defaultDatabase.url(),
                lastStartDuration.toMillis());
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
            throw new UnsupportedOperationException("cannot stop the external PostgreSQL named by " + URL_ENV + " ("
                    + external + "); outage tests need the embedded server (unset " + URL_ENV + ")");
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
        LOG.info(
                "Embedded PostgreSQL on port {} stopped in {} ms",
                port,
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
                if (ownership != null) {
                    ownership.close();
                    ownership = null;
                }
            }
            running = false;
        }
    }

    /**
     * The pid of a server that an earlier process left running on this data directory (it died without stopping
     * it) and that a start of this one stopped; empty when there was none.
     */
    public synchronized OptionalLong leftoverStopped() {
        return leftoverStopped;
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

    /**
     * The superuser's password: generated for (and stored in) the data directory of an embedded server, so never
     * null there; the URL's for an external server (null if it has none). Never log it.
     */
    public String password() {
        return defaultDatabase.password();
    }

    /**
     * The password an embedded server on {@code dataDir} requires, for a client in another process (the CLI next
     * to a running {@code vigil standalone}); empty if no server has started on that directory yet.
     *
     * @throws IllegalStateException if the file is a symlink, not a regular file, or readable by other users
     */
    public static Optional<String> storedPassword(Path dataDir) {
        return PasswordFile.read(PasswordFile.in(dataDir.toAbsolutePath()));
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
        return createDatabase(
                base + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    /**
     * Creates an empty database (lower-case letters, digits and {@code _}, at most 63 characters) and returns
     * its handle; closing the handle drops the database. On an external server the user needs CREATEDB.
     */
    public PostgresDatabase createDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "database name '" + name
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
            throw new IllegalStateException(
                    "could not create database " + name + " on " + defaultDatabase.url()
                            + (external != null ? " (the user needs the CREATEDB privilege)" : "") + ": "
                            + e.getMessage(),
                    e);
        }
        PostgresDatabase database =
                new PostgresDatabase(defaultDatabase.url().withDatabase(name), poolSize, this::drop);
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
        try (Connection connection = defaultDatabase.openJdbcConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private void checkReachable() {
        try {
            execute("SELECT 1");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "PostgreSQL named by " + URL_ENV + " (" + external + ") is not reachable: " + e.getMessage(), e);
        }
    }

    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres startEmbedded() {
        if (!ownsDataDir) {
            if (ownership == null) {
                ownership = LeftoverServer.claim(dataDir);
            }
            OptionalLong stopped = ownership.stopLeftover(dataDir);
            if (stopped.isPresent()) {
                leftoverStopped = stopped;
            }
        }
        Path passwordFile = PasswordFile.in(dataDir);
        boolean initialised = Files.exists(dataDir.resolve("postgresql.conf"));
        boolean stored = Files.exists(passwordFile, LinkOption.NOFOLLOW_LINKS);
        if (initialised && !stored && !trustsAnyone()) {
            // The file is written before the server first runs, so only a crash right after initdb (or a foreign
            // cluster) gets here; a new password would not match the one initdb set.
            throw new IllegalStateException("the PostgreSQL cluster in " + dataDir + " requires a password but "
                    + passwordFile.getFileName() + " is missing (was its first start interrupted?); if it holds"
                    + " nothing you need, delete " + dataDir + " and start again");
        }
        try {
            var server = startServer(initialised, !stored);
            if (PgHba.trustsAnyone(dataDir)) {
                server = requirePasswords(server);
            }
            return server;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "embedded PostgreSQL failed to start on port " + port + " (data " + dataDir + "): " + rootMessage(e)
                            + "; is the port taken or the data directory used by another server?",
                    e);
        }
    }

    private boolean trustsAnyone() {
        try {
            return PgHba.trustsAnyone(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dataDir.resolve(PgHba.FILE), e);
        }
    }

    /**
     * Starts zonky's server; a new cluster is made by initdb with password authentication only, the superuser's
     * password handed over in a private temporary file, deleted as soon as initdb is done.
     */
    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres startServer(boolean initialised, boolean writePassword)
            throws IOException {
        Files.createDirectories(dataDir);
        String password = defaultDatabase.password();
        Path initdbPassword = initialised ? null : initdbPasswordFile(password);
        try {
            var builder = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(Duration.ofSeconds(30))
                    .setRegisterShutdownHook(stopOnJvmExit)
                    // zonky's readiness check and data sources connect with this
                    .setConnectConfig("password", password)
                    // runs after initdb, before the server starts: the password is on disk before it is needed
                    .setDataDirectoryCustomizer(dir -> {
                        deleteQuietly(initdbPassword);
                        if (writePassword) {
                            try {
                                PasswordFile.create(PasswordFile.in(dataDir), password);
                            } catch (IOException e) {
                                throw new UncheckedIOException("cannot create " + PasswordFile.in(dataDir), e);
                            }
                        }
                    });
            if (initdbPassword != null) {
                // passed to initdb as --key=value after zonky's own "-A trust", which they override
                builder.setLocaleConfig("auth-host", PASSWORD_AUTH)
                        .setLocaleConfig("auth-local", PASSWORD_AUTH)
                        .setLocaleConfig("pwfile", initdbPassword.toString());
            }
            serverConfig.forEach(builder::setServerConfig);
            return builder.start();
        } finally {
            deleteQuietly(initdbPassword);
        }
    }

    /**
     * Converts a cluster made before passwords were required (trust authentication): sets the superuser's
     * password over the still-trusting connection (pgjdbc sends only the SCRAM verifier, never the password),
     * then restarts with {@code pg_hba.conf} requiring it. A restart rather than a reload, so no connection
     * is let in by the old rules once this returns.
     */
    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres requirePasswords(
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres server) throws IOException {
        try (Connection connection = defaultDatabase.openJdbcConnection()) {
            connection
                    .unwrap(PGConnection.class)
                    .alterUserPassword(SUPERUSER, defaultDatabase.password().toCharArray(), PASSWORD_AUTH);
        } catch (SQLException e) {
            server.close();
            throw new IllegalStateException("could not set a password on the trusting cluster in " + dataDir, e);
        }
        server.close();
        PgHba.requirePasswords(dataDir, PASSWORD_AUTH);
        LOG.info("Embedded PostgreSQL in {} now requires a password (it trusted local connections)", dataDir);
        return startServer(true, false);
    }

    /** initdb's copy of the password, outside the data directory (initdb wants it empty) and owner-only. */
    private static Path initdbPasswordFile(String password) throws IOException {
        Path dir = Files.createTempDirectory("vigil-initdb-");
        Path file = dir.resolve("pwfile");
        try {
            PasswordFile.create(file, password);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file);
            throw e;
        }
        return file;
    }

    private static void deleteQuietly(Path initdbPassword) {
        if (initdbPassword == null) {
            return;
        }
        try {
            Files.deleteIfExists(initdbPassword);
            Files.deleteIfExists(initdbPassword.getParent());
        } catch (IOException e) {
            LOG.warn("could not delete the temporary initdb password file {}: {}", initdbPassword, e.getMessage());
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

    /** Builds an {@link EmbeddedPostgres}; nothing starts until {@link EmbeddedPostgres#start()}. */
    public static final class Builder {
        private int port;
        private Path dataDir;
        private int poolSize = 4;
        private String externalUrl;
        private boolean useEnvironment = true;
        private boolean stopOnJvmExit = true;
        private final Map<String, String> serverConfig = new HashMap<>();

        private Builder() {}

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

        /**
         * Whether a JVM exit stops the server by itself (default true: a test that never closes it leaves no server
         * behind). An application that stops its services in order on exit passes false and closes the server last:
         * a hook of its own would stop the database while the services that use it are still finishing.
         */
        public Builder stopOnJvmExit(boolean stopOnJvmExit) {
            this.stopOnJvmExit = stopOnJvmExit;
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
