package dev.vigil.notifier.claim;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import java.time.Duration;

/** Builds the R2DBC connection pool from an R2DBC URL, a user and a password (taken from the environment). */
public final class Database {
    private Database() {
    }

    public static ConnectionPool pool(String r2dbcUrl, String username, String password, int size) {
        ConnectionFactoryOptions.Builder b = ConnectionFactoryOptions.parse(r2dbcUrl).mutate()
                .option(ConnectionFactoryOptions.USER, username)
                .option(ConnectionFactoryOptions.CONNECT_TIMEOUT, Duration.ofSeconds(5));
        if (password != null && !password.isEmpty()) {
            b.option(ConnectionFactoryOptions.PASSWORD, password);
        }
        return new ConnectionPool(ConnectionPoolConfiguration.builder(ConnectionFactories.get(b.build()))
                .name("vigil-notifier")
                .initialSize(1)
                .maxSize(size)
                .maxAcquireTime(Duration.ofSeconds(5))
                .maxCreateConnectionTime(Duration.ofSeconds(5))
                .maxIdleTime(Duration.ofMinutes(5))
                // LOCAL: the driver's own connection state, no round trip per acquire (a SELECT 1 per statement
                // would double the database work); broken connections after an outage are replaced on error.
                .validationDepth(io.r2dbc.spi.ValidationDepth.LOCAL)
                .build());
    }
}
