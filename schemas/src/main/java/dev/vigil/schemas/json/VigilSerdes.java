package dev.vigil.schemas.json;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.WorkerHeartbeat;

/** One serde per contract. Serdes are stateless and thread-safe; share them. */
public final class VigilSerdes {
    private static final JsonSerde<MonitorDefinition> MONITOR_DEFINITION = new JsonSerde<>(MonitorDefinition.class);
    private static final JsonSerde<ProbeResult> PROBE_RESULT =
            new JsonSerde<>(ProbeResult.class, ProbeResultReader::readOrNull);
    private static final JsonSerde<WorkerHeartbeat> WORKER_HEARTBEAT = new JsonSerde<>(WorkerHeartbeat.class);
    private static final JsonSerde<DomainMetric> DOMAIN_METRIC = new JsonSerde<>(DomainMetric.class);
    private static final JsonSerde<MonitorStatus> MONITOR_STATUS =
            new JsonSerde<>(MonitorStatus.class, null, MonitorStatusWriter::write);
    private static final JsonSerde<AlertRule> ALERT_RULE = new JsonSerde<>(AlertRule.class);
    private static final JsonSerde<AlertEvent> ALERT_EVENT = new JsonSerde<>(AlertEvent.class);
    private static final JsonSerde<DeadLetter> DEAD_LETTER = new JsonSerde<>(DeadLetter.class);
    private static final JsonSerde<RegionStatus> REGION_STATUS = new JsonSerde<>(RegionStatus.class);

    private VigilSerdes() {}

    public static JsonSerde<MonitorDefinition> monitorDefinition() {
        return MONITOR_DEFINITION;
    }

    public static JsonSerde<ProbeResult> probeResult() {
        return PROBE_RESULT;
    }

    public static JsonSerde<WorkerHeartbeat> workerHeartbeat() {
        return WORKER_HEARTBEAT;
    }

    public static JsonSerde<DomainMetric> domainMetric() {
        return DOMAIN_METRIC;
    }

    public static JsonSerde<MonitorStatus> monitorStatus() {
        return MONITOR_STATUS;
    }

    public static JsonSerde<AlertRule> alertRule() {
        return ALERT_RULE;
    }

    public static JsonSerde<AlertEvent> alertEvent() {
        return ALERT_EVENT;
    }

    public static JsonSerde<RegionStatus> regionStatus() {
        return REGION_STATUS;
    }

    public static JsonSerde<DeadLetter> deadLetter() {
        return DEAD_LETTER;
    }
}
