package dev.vigil.ingest.publish;

/** What happened to one request's records. */
public enum PublishResult {
    /** Every record of the request is committed on its topic (acks=all). */
    ACKNOWLEDGED,
    /** Nothing of the request is visible to read_committed consumers; the caller may resend all of it. */
    UNAVAILABLE
}
