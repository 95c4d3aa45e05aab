package dev.vigil.embedded.postgres;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Row;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Minimal blocking R2DBC helpers for the tests: one connection per call, returned to the pool after. */
final class Sql {
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private Sql() {}

    static <T> List<T> query(ConnectionFactory factory, String sql, Function<Row, T> mapper, Object... params) {
        return Flux.usingWhen(
                        factory.create(),
                        connection -> Flux.from(bind(connection, sql, params).execute())
                                .flatMap(result -> result.map((row, metadata) -> mapper.apply(row))),
                        Connection::close)
                .collectList()
                .block(TIMEOUT);
    }

    static long update(ConnectionFactory factory, String sql, Object... params) {
        return Flux.usingWhen(
                        factory.create(),
                        connection -> Flux.from(bind(connection, sql, params).execute())
                                .flatMap(result -> Mono.from(result.getRowsUpdated())),
                        Connection::close)
                .reduce(0L, Long::sum)
                .block(TIMEOUT);
    }

    private static io.r2dbc.spi.Statement bind(Connection connection, String sql, Object... params) {
        var statement = connection.createStatement(sql);
        for (int i = 0; i < params.length; i++) {
            statement.bind(i, params[i]);
        }
        return statement;
    }
}
