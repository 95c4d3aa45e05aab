package dev.vigil.notifier.core;

/**
 * The answer to "may I send (eventId, channel) now?".
 *
 * @param token         identifies this claim when it is settled; null unless {@link Status#CLAIMED}
 * @param takenOverFrom for a claim that became ours because another sender's lease on it ran out unsettled (that
 *                      sender died or hung mid-send), that sender's name; null for any other claim
 */
public record Claim(String eventId, String channel, Status status, String token, String takenOverFrom) {
    public enum Status {
        /** Ours: send it. */
        CLAIMED,
        /** Delivered or dead-lettered within the dedupe window: fold it, send nothing. */
        DUPLICATE,
        /** Another sender holds a live claim right now: ask again shortly (it may fail and release). */
        BUSY
    }

    /** A claim that took nothing over. */
    public Claim(String eventId, String channel, Status status, String token) {
        this(eventId, channel, status, token, null);
    }

    /** Whether this claim is ours because its previous holder left it unsettled past its lease. */
    public boolean takenOver() {
        return status == Status.CLAIMED && takenOverFrom != null;
    }
}
