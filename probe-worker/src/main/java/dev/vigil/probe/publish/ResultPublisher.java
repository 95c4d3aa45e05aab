package dev.vigil.probe.publish;

import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import java.time.Duration;

/**
 * Hands results and heartbeats on (Kafka, or ingest in remote mode). Calls never block the caller: the
 * caller may be a Netty event loop. {@link #close(Duration)} flushes what was handed over.
 */
public interface ResultPublisher extends AutoCloseable {
    void publish(ProbeResult result);

    void heartbeat(WorkerHeartbeat heartbeat);

    /** Results acknowledged by the destination so far. */
    long acknowledged();

    /** Results the destination refused or that could not be delivered in time. */
    long failed();

    /** True while the destination is reachable as far as this publisher knows. */
    boolean healthy();

    /** Flushes everything handed over and releases resources, waiting at most {@code timeout}. */
    void close(Duration timeout);

    @Override
    default void close() {
        close(Duration.ofSeconds(30));
    }

    /** Observes delivery, for metrics and tests. */
    interface Listener {
        Listener NONE = new Listener() {};

        default void acknowledged(ProbeResult result) {}

        default void failed(ProbeResult result, Throwable error) {}

        /** The destination took a heartbeat. */
        default void heartbeatAcknowledged(WorkerHeartbeat heartbeat) {}

        /** A heartbeat was not delivered (no retry: the next one follows within the heartbeat period). */
        default void heartbeatFailed(WorkerHeartbeat heartbeat, Throwable error) {}

        /** A batch the destination did not take for a transient reason was taken on a retry (once per batch). */
        default void retrySucceeded() {}
    }
}
