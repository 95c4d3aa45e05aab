package dev.vigil.notifier.core;

/**
 * The answer to "may I send (eventId, channel) now?".
 *
 * @param token identifies this claim when it is settled; null unless {@link Status#CLAIMED}
 */
public record Claim(String eventId, String channel, Status status, String token) {
    public enum Status {
        /** Ours: send it. */
        CLAIMED,
        /** Delivered or dead-lettered within the dedupe window: fold it, send nothing. */
        DUPLICATE,
        /** Another sender holds a live claim right now: ask again shortly (it may fail and release). */
        BUSY
    }
}
