package dev.vigil.embedded.junit;

import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import io.r2dbc.spi.ConnectionFactory;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/** Backs {@link WithPostgres}: one database per test class on a shared (or dedicated) server. */
public final class EmbeddedPostgresExtension
        implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {
    private static final Namespace NAMESPACE = Namespace.create(EmbeddedPostgresExtension.class);
    private static final String SHARED_SERVER = "shared-server";
    private static final String DEDICATED_SERVER = "dedicated-server";
    private static final String DATABASE = "database";
    private static final Set<Class<?>> INJECTABLE =
            Set.of(EmbeddedPostgres.class, PostgresDatabase.class, ConnectionFactory.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        database(context);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        for (Class<?> type : INJECTABLE) {
            ExtensionSupport.injectFields(testInstance, type, () -> resolve(type, context));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return INJECTABLE.contains(parameterContext.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return resolve(parameterContext.getParameter().getType(), extensionContext);
    }

    private static Object resolve(Class<?> type, ExtensionContext context) {
        if (type == EmbeddedPostgres.class) {
            return server(context);
        }
        PostgresDatabase database = database(context);
        return type == ConnectionFactory.class ? database.connectionFactory() : database;
    }

    private static EmbeddedPostgres server(ExtensionContext context) {
        ExtensionContext classContext = ExtensionSupport.classContext(context);
        if (ExtensionSupport.config(classContext, WithPostgres.class).dedicatedServer()) {
            return classContext
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(
                            DEDICATED_SERVER,
                            key -> EmbeddedPostgres.builder()
                                    .useEnvironment(false)
                                    .start(),
                            EmbeddedPostgres.class);
        }
        return classContext
                .getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        SHARED_SERVER, key -> EmbeddedPostgres.builder().start(), EmbeddedPostgres.class);
    }

    private static PostgresDatabase database(ExtensionContext context) {
        ExtensionContext classContext = ExtensionSupport.classContext(context);
        String prefix = classContext.getRequiredTestClass().getSimpleName();
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        DATABASE, key -> server(classContext).createUniqueDatabase(prefix), PostgresDatabase.class);
    }
}
