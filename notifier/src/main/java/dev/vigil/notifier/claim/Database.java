package dev.vigil.notifier.claim;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.ValidationDepth;
import java.time.Duration;
import reactor.netty.resources.LoopResources;

/**
 * The R2DBC connection pool, built from an R2DBC URL, a user and a password (taken from the environment). The
 * driver gets event-loop threads of its own: sharing Reactor Netty's default loops with the vendor HTTP clients
 * lets a burst of sends delay every database answer, and every delivery waits on the database twice.
 */
public final class Database implements AutoCloseable {
    private final LoopResources loops;
    private final ConnectionPool pool;

    private Database(LoopResources loops, ConnectionPool pool) {
        this.loops = loops;
        this.pool = pool;
    }

    public static Database open(String r2dbcUrl, String username, String password, int size) {
        LoopResources loops = LoopResources.create("vigil-notifier-db", 2, true);
        ConnectionFactoryOptions.Builder b = ConnectionFactoryOptions.parse(r2dbcUrl)
                .mutate()
                .option(ConnectionFactoryOptions.USER, username)
                .option(ConnectionFactoryOptions.CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .option(PostgresqlConnectionFactoryProvider.LOOP_RESOURCES, loops)
                .option(PostgresqlConnectionFactoryProvider.APPLICATION_NAME, "vigil-notifier");
        if (password != null && !password.isEmpty()) {
            b.option(ConnectionFactoryOptions.PASSWORD, password);
        }
        ConnectionPool pool = new ConnectionPool(ConnectionPoolConfiguration.builder(ConnectionFactories.get(b.build()))
                .name("vigil-notifier")
                .registerJmx(false)
                .initialSize(1)
                .maxSize(size)
                .maxAcquireTime(Duration.ofSeconds(5))
                .maxCreateConnectionTime(Duration.ofSeconds(5))
                .maxIdleTime(Duration.ofMinutes(5))
                // LOCAL: the driver's own connection state, no round trip per acquire (a SELECT 1 per statement
                // would double the database work); broken connections after an outage are replaced on error.
                .validationDepth(ValidationDepth.LOCAL)
                .build());
        return new Database(loops, pool);
    }

    public ConnectionPool pool() {
        return pool;
    }

    @Override
    public void close() {
        pool.dispose();
        loops.dispose();
    }
}
