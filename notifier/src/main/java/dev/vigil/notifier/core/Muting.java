package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.util.Optional;

/**
 * The port that decides, before routing, whether an event the topology did not already decide on is muted by a
 * silence or an acknowledgement. The topology applies both to its own monitor, metric and worker alerts; this applies
 * the same silences and acknowledgements (the same matcher code) to application, Alertmanager and the notifier's own
 * delivery-failing events.
 */
@FunctionalInterface
public interface Muting {
    /** Why {@code event} must be recorded and not paged, or empty to page it as it is. */
    Optional<String> mutedBecause(AlertEvent event);

    /**
     * Why an escalation tier's page must not go out, whatever its source: the notifier raises it itself, so no
     * topology decided on it. An acknowledgement ({@code acknowledged by …}) ends the climb; a silence
     * ({@code silence …}) records the tier without paging it.
     */
    default Optional<String> tierMutedBecause(AlertEvent tierPage) {
        return Optional.empty();
    }

    static Muting none() {
        return e -> Optional.empty();
    }
}
