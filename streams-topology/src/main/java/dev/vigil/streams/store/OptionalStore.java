package dev.vigil.streams.store;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * A store a processor reads when its topology has it: a global store that a smaller topology (the status half alone,
 * or a test's) leaves out, which the processor then does without.
 */
public final class OptionalStore {
    private OptionalStore() {}

    /** The store named {@code name} if this processor's topology connects it; null otherwise (or for a null name). */
    public static <S extends StateStore> S find(ProcessorContext<?, ?> context, String name) {
        if (name == null) {
            return null;
        }
        try {
            return context.getStateStore(name);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
