package dev.vigil.notifier.core.stage;

import java.util.List;
import reactor.core.publisher.Mono;

/**
 * One named step of a channel's delivery. Middleware rather than a plain function, so a step can end the run
 * (a duplicate needs no send) or act on what the steps after it did (the retry decision outlives the settle).
 */
public interface DeliveryStage {
    /** The name the pipeline's description shows. */
    String name();

    /** The names this stage shows when the pipeline is printed; a stage that runs others inside it lists them. */
    default List<String> names() {
        return List.of(name());
    }

    /**
     * Runs this step for {@code d}; {@code next} runs the steps after it (and returns its argument unchanged once
     * the delivery has {@linkplain Delivery#stopped() stopped}).
     */
    Mono<Delivery> apply(Delivery d, Chain next);

    /** The steps after the current one. */
    @FunctionalInterface
    interface Chain {
        Mono<Delivery> proceed(Delivery d);
    }
}
