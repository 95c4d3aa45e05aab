package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;

/**
 * What the core asks a channel to deliver: the event (what happened, not how it looks) and, for vendors that keep
 * their own incident, the id they gave it when it was opened (null when none is known).
 */
public record Notification(AlertEvent event, String channel, String vendorRef) {}
