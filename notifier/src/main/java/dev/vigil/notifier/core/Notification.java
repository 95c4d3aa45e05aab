package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.util.List;

/**
 * What the core asks a channel to deliver: the event (what happened, not how it looks) and, for vendors that keep
 * their own incident, the id they gave it when it was opened (null when none is known).
 *
 * <p>A group message ({@link #isGroup()}) carries several events of one grouped route that a chat channel shows in
 * one message: {@code group} lists them (the first is {@code event}), {@code groupId} names the message. Only
 * adapters whose {@link Notifier#rendersGroups()} is true are ever given one.
 */
public record Notification(AlertEvent event, String channel, String vendorRef, List<AlertEvent> group, String groupId) {
    public Notification {
        group = group == null ? List.of() : List.copyOf(group);
    }

    /** One event in a message of its own. */
    public Notification(AlertEvent event, String channel, String vendorRef) {
        this(event, channel, vendorRef, List.of(), null);
    }

    /** One message listing {@code events} (at least two), named {@code groupId}. */
    public static Notification group(List<AlertEvent> events, String channel, String groupId) {
        return new Notification(events.get(0), channel, null, events, groupId);
    }

    public boolean isGroup() {
        return group.size() > 1;
    }
}
