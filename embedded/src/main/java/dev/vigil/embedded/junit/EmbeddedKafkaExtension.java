package dev.vigil.embedded.junit;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.topic.Topics;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/** Backs {@link WithKafka}: one broker per test class, or one per test run when shared. */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {
    private static final Namespace NAMESPACE = Namespace.create(EmbeddedKafkaExtension.class);
    private static final String CLASS_BROKER = "class-broker";
    private static final String SHARED_BROKER = "shared-broker";

    @Override
    public void beforeAll(ExtensionContext context) {
        EmbeddedKafka kafka = broker(context);
        if (ExtensionSupport.config(context, WithKafka.class).createVigilTopics()) {
            kafka.createTopics(Topics.all());
        }
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        ExtensionSupport.injectFields(testInstance, EmbeddedKafka.class, () -> broker(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return broker(extensionContext);
    }

    private static EmbeddedKafka broker(ExtensionContext context) {
        ExtensionContext classContext = ExtensionSupport.classContext(context);
        // The stores close AutoCloseable values when their context ends: the class, or the whole run (root).
        if (ExtensionSupport.config(classContext, WithKafka.class).shared()) {
            return classContext
                    .getRoot()
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(
                            SHARED_BROKER, key -> EmbeddedKafka.builder().start(), EmbeddedKafka.class);
        }
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        CLASS_BROKER, key -> EmbeddedKafka.builder().start(), EmbeddedKafka.class);
    }
}
