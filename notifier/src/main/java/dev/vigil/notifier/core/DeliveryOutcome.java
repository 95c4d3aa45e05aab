package dev.vigil.notifier.core;

import java.time.Duration;

/** What a channel answered, as a value: adapters never throw for a vendor's answer. */
public sealed interface DeliveryOutcome {

    /** HTTP status of the vendor's answer, or null when none came (timeout, network, log channel). */
    Integer httpStatus();

    /**
     * Accepted. {@code vendorRef} is the vendor's id for the incident when it created one; {@code slowDown}, when
     * the vendor said its rate-limit bucket is empty, holds the channel's next send back that long.
     */
    record Delivered(Integer httpStatus, String vendorRef, Duration slowDown) implements DeliveryOutcome {
        public Delivered(Integer httpStatus, String vendorRef) {
            this(httpStatus, vendorRef, null);
        }
    }

    /** Worth retrying: network, timeout, 408, 429, 5xx. {@code retryAfter} when the vendor said how long to wait. */
    record Transient(String reason, Duration retryAfter, Integer httpStatus) implements DeliveryOutcome {}

    /** A retry cannot help: rejected payload, unknown webhook, revoked credentials. */
    record Permanent(String reason, Integer httpStatus) implements DeliveryOutcome {}

    static Delivered delivered(Integer status) {
        return new Delivered(status, null);
    }
}
