package dev.vigil.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against an in-process Kafka broker and injects
 * {@link dev.vigil.embedded.kafka.EmbeddedKafka} into constructor, method and lifecycle-method parameters
 * and into non-final instance fields of that type. {@code @Nested} classes share the outer class's broker.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedKafkaExtension.class)
public @interface WithKafka {
    /**
     * False (default): a fresh broker for this class, closed after it — no topics, offsets or data from
     * other classes. True: one broker for the whole test run, started once (about 2-4 s saved per class);
     * use unique topic names and group ids, and never stop a shared broker.
     */
    boolean shared() default false;

    /** Create every topic of {@link dev.vigil.schemas.topic.Topics#all()} before the tests run. */
    boolean createVigilTopics() default false;
}
