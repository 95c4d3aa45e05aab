package dev.vigil.embedded.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Context lookups and field injection shared by the extensions. */
final class ExtensionSupport {
    private ExtensionSupport() {}

    /**
     * The context of the innermost test class. Resources live in class stores so that they close after the
     * class, and lookups from method contexts (and {@code @Nested} classes) find them through the parents.
     */
    static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current;
    }

    /** The annotation of the innermost enclosing test class that carries it. */
    static <A extends Annotation> A config(ExtensionContext context, Class<A> annotation) {
        for (ExtensionContext current = context;
                current != null;
                current = current.getParent().orElse(null)) {
            Optional<A> found = current.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, annotation));
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new ExtensionConfigurationException(
                "no @" + annotation.getSimpleName() + " on " + context.getDisplayName()
                        + " or its enclosing classes; annotate the test class instead of registering the extension directly");
    }

    /** Sets every non-static, non-final field of exactly {@code type} that is still null. */
    static void injectFields(Object instance, Class<?> type, Supplier<?> value) {
        for (Class<?> c = instance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (field.getType() != type || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                    if (field.get(instance) == null) {
                        field.set(instance, value.get());
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new ExtensionConfigurationException(
                            "could not inject " + type.getSimpleName() + " into field " + c.getName() + "."
                                    + field.getName() + ": " + e.getMessage(),
                            e);
                }
            }
        }
    }
}
