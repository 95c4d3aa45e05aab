package dev.vigil.embedded.postgres;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One database on a PostgreSQL server: coordinates for JDBC (migrations) and a pooled R2DBC
 * {@link ConnectionFactory} (the application path). Closing disposes the pool and, for a database made
 * by {@link EmbeddedPostgres#createDatabase(String)}, drops the database.
 */
public final class PostgresDatabase implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresDatabase.class);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final PostgresUrl url;
    private final int poolSize;
    private final Consumer<PostgresDatabase> onClose;
    private ConnectionPool pool;
    private boolean closed;

    PostgresDatabase(PostgresUrl url, int poolSize, Consumer<PostgresDatabase> onClose) {
        this.url = url;
        this.poolSize = poolSize;
        this.onClose = onClose;
    }

    public String name() {
        return url.database();
    }

    public String host() {
        return url.host();
    }

    public int port() {
        return url.port();
    }

    public String user() {
        return url.user();
    }

    /** Never null on the embedded server (it requires one); may be null for an external server's URL. */
    public String password() {
        return url.password();
    }

    /** {@code jdbc:postgresql://host:port/name}; credentials come from {@link #user()} / {@link #password()}. */
    public String jdbcUrl() {
        return url.jdbcUrl();
    }

    /** All coordinates, e.g. to hand {@link PostgresUrl#toUrlString()} to a service as its {@code VIGIL_DB_URL}. */
    public PostgresUrl url() {
        return url;
    }

    /** A plain JDBC connection (for migrations and assertions); the caller closes it. */
    public Connection openJdbcConnection() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user());
        if (password() != null) {
            props.setProperty("password", password());
        }
        props.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT.toSeconds()));
        return DriverManager.getConnection(jdbcUrl(), props);
    }

    /**
     * The R2DBC pool of this database, created on first use. Connections broken by a server restart are
     * dropped on their next acquisition, so the same factory works again once the server is back.
     */
    public synchronized ConnectionFactory connectionFactory() {
        if (closed) {
            throw new IllegalStateException("database handle " + name() + " is closed");
        }
        if (pool == null) {
            PostgresqlConnectionConfiguration.Builder connection = PostgresqlConnectionConfiguration.builder()
                    .host(url.host())
                    .port(url.port())
                    .database(url.database())
                    .username(url.user())
                    .connectTimeout(CONNECT_TIMEOUT)
                    .applicationName("vigil");
            if (url.password() != null) {
                connection.password(url.password());
            }
            pool = new ConnectionPool(
                    ConnectionPoolConfiguration.builder(new PostgresqlConnectionFactory(connection.build()))
                            .name("vigil-" + name())
                            .initialSize(0)
                            .maxSize(poolSize)
                            .maxAcquireTime(Duration.ofSeconds(10))
                            .maxCreateConnectionTime(CONNECT_TIMEOUT)
                            .build());
        }
        return pool;
    }

    /** Disposes the pool; a database created per test is also dropped. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            disposePool();
        }
        if (onClose != null) {
            onClose.accept(this);
        }
    }

    synchronized void disposePool() {
        if (pool != null) {
            try {
                pool.disposeLater().block(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.warn("could not dispose the R2DBC pool of database {}: {}", name(), e.getMessage());
            }
            pool = null;
        }
    }

    @Override
    public String toString() {
        return "PostgresDatabase[" + url + "]";
    }
}
