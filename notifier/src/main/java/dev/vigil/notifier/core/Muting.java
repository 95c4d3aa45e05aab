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

    static Muting none() {
        return e -> Optional.empty();
    }
}
