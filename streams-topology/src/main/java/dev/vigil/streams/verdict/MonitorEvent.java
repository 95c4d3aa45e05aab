package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;

/**
 * What the verdict processor tells the processors after it about one monitor, in the order of its partition: each
 * event carries the definition it was decided under, so that no processor downstream reads the verdict processor's
 * stores.
 */
public sealed interface MonitorEvent {
    String monitorId();

    /**
     * A window's verdict.
     *
     * @param newestBefore the newest window start decided for this monitor before this verdict ({@link Long#MIN_VALUE}
     *                     for none): a verdict whose window is older arrived out of order
     */
    record Decided(MonitorDefinition definition, MonitorStatus verdict, long newestBefore) implements MonitorEvent {
        @Override
        public String monitorId() {
            return definition.id();
        }
    }

    /** A probe result of an enabled monitor that carries a TLS certificate's days left. */
    record TlsObserved(MonitorDefinition definition, ProbeResult result) implements MonitorEvent {
        @Override
        public String monitorId() {
            return definition.id();
        }
    }

    /** The monitor was disabled (its state stays; nothing more is decided for it). */
    record Disabled(MonitorDefinition definition) implements MonitorEvent {
        @Override
        public String monitorId() {
            return definition.id();
        }
    }

    /** The monitor was deleted. */
    record Deleted(String monitorId) implements MonitorEvent {}
}
