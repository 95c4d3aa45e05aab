package dev.vigil.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives the test class its own empty PostgreSQL database, dropped after the class, and injects into
 * constructor, method and lifecycle-method parameters and non-final instance fields of these types:
 * {@link dev.vigil.embedded.postgres.PostgresDatabase} (the class's database),
 * {@link io.r2dbc.spi.ConnectionFactory} (its R2DBC pool) and
 * {@link dev.vigil.embedded.postgres.EmbeddedPostgres} (the server).
 *
 * <p>The server is the embedded PostgreSQL, or the one named by {@code VIGIL_DB_URL} when set.
 * {@code @Nested} classes share the outer class's database.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedPostgresExtension.class)
public @interface WithPostgres {
    /**
     * False (default): the database lives on one server shared by the whole test run. True: a server of
     * this class's own, always embedded (even with {@code VIGIL_DB_URL} set), which the tests may
     * {@code stop()} and {@code start()} for outage tests.
     */
    boolean dedicatedServer() default false;
}
