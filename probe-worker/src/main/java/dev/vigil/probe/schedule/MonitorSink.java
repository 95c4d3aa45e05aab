package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.MonitorDefinition;

/** Where monitor changes go (the scheduler). */
public interface MonitorSink {
    void upsert(MonitorDefinition definition);

    void remove(String monitorId);
}
