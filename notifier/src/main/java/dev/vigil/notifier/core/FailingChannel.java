package dev.vigil.notifier.core;

import java.util.List;

/**
 * The {@code notifier/delivery-failing/<channel>} alert a channel has open: every opened raised while it is open,
 * and the resolved that ends it, carry this incident id, first-seen time and channel override, so BetterStack
 * resolves the incident it opened and the resolution reaches the channels the page went to.
 *
 * @param recipients the override of the alert: the channels that should hear that {@code channel} cannot deliver
 */
public record FailingChannel(String channel, String incidentId, long firstSeen, List<String> recipients) {
    public FailingChannel {
        recipients = List.copyOf(recipients);
    }

    public String fingerprint() {
        return DeliveryFailing.FINGERPRINT_PREFIX + "/" + channel;
    }
}
