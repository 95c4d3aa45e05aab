package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.MonitorDefinition;

/** Where monitor changes go (the scheduler, and beside it the worker's view of the fleet). */
public interface MonitorSink {
    void upsert(MonitorDefinition definition);

    void remove(String monitorId);

    /** A sink that hands every change to {@code first}, then to {@code second}. */
    static MonitorSink both(MonitorSink first, MonitorSink second) {
        return new MonitorSink() {
            @Override
            public void upsert(MonitorDefinition definition) {
                first.upsert(definition);
                second.upsert(definition);
            }

            @Override
            public void remove(String monitorId) {
                first.remove(monitorId);
                second.remove(monitorId);
            }
        };
    }
}
