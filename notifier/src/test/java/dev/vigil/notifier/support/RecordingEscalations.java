package dev.vigil.notifier.support;

import dev.vigil.notifier.core.Escalations;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;

public final class RecordingEscalations implements Escalations {
    public final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    public final List<AlertEvent> raised = new CopyOnWriteArrayList<>();

    @Override
    public Mono<Void> deadLetter(String key, DeadLetter envelope) {
        return Mono.fromRunnable(() -> deadLetters.add(envelope));
    }

    @Override
    public Mono<Void> raise(AlertEvent alert) {
        return Mono.fromRunnable(() -> raised.add(alert));
    }
}
