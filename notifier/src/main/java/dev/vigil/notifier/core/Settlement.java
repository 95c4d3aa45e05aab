package dev.vigil.notifier.core;

/** How a claim ends after an attempt. */
public enum Settlement {
    /** Sent: keeps the claim for the dedupe window. */
    DELIVERED,
    /** Dead-lettered: keeps the claim for the dedupe window (a redelivery does not page again). */
    DEAD,
    /** Transient failure: gives the claim back so a retry (ours or another instance's) may send. */
    RELEASED
}
