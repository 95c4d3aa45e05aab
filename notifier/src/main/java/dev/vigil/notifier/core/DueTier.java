package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Instant;
import java.util.List;

/**
 * An escalation tier whose time has come, claimed by this instance: the page that started the climb is sent again
 * to the tier's channels unless the incident was acknowledged or resolved meanwhile.
 *
 * @param tiers the number of the incident's last tier (how far the climb goes)
 * @param page  the page that started the climb, as it was routed
 */
public record DueTier(
        String incidentId,
        String fingerprint,
        int tier,
        int tiers,
        List<String> channels,
        Instant dueAt,
        AlertEvent page) {
    public DueTier {
        channels = List.copyOf(channels);
    }
}
