package dev.vigil.streams.selfwatch;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.streams.verdict.MonitorEvent;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The end-to-end canary's middle leg: every decided verdict of the canary monitor becomes one {@code vigil/canary}
 * event on the alerts topic, so that the notifier can tell that probe, verdict and alert stage all moved. The
 * notifier recognises the fingerprint and never routes it; nothing here keeps state, so a replay forwards the same
 * events with the same ids.
 */
public final class CanaryProcessor implements Processor<String, MonitorEvent, String, AlertEvent> {
    public static final String FINGERPRINT = "vigil/canary";
    /** Its node and its sink in the topology (its own sink: a shared one would merge sub-topologies). */
    public static final String NODE = "canary";

    public static final String SINK = "canary-sink";
    private final String canaryMonitorId;
    private ProcessorContext<String, AlertEvent> context;

    /** @param canaryMonitorId the canary monitor's id; empty: nothing is forwarded */
    public CanaryProcessor(String canaryMonitorId) {
        this.canaryMonitorId = canaryMonitorId == null ? "" : canaryMonitorId;
    }

    @Override
    public void init(ProcessorContext<String, AlertEvent> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, MonitorEvent> record) {
        if (canaryMonitorId.isEmpty()
                || !(record.value() instanceof MonitorEvent.Decided decided)
                || !canaryMonitorId.equals(decided.monitorId())) {
            return;
        }
        context.forward(new Record<>(FINGERPRINT, event(decided.verdict()), record.timestamp()));
    }

    /**
     * The canary event of one verdict: its own incident per window ({@code vigil/canary@<windowStart>}) so that every
     * window's event id differs and none is folded by a dedupe window; the window and the verdict's decision time
     * and status in its attributes.
     */
    public static AlertEvent event(MonitorStatus verdict) {
        long windowStart = verdict.windowStart();
        long decidedAt = verdict.decidedAt() == null ? windowStart : Math.max(windowStart, verdict.decidedAt());
        String incident = AlertEvent.incidentIdFor(FINGERPRINT, windowStart);
        return new AlertEvent(
                1,
                AlertEvent.topologyEventId(incident, AlertState.OPENED, 1),
                FINGERPRINT,
                incident,
                AlertState.OPENED,
                Severity.INFO,
                "vigil",
                "canary",
                "Canary " + verdict.monitorId() + " window " + Instant.ofEpochMilli(windowStart) + " decided "
                        + verdict.status().wire(),
                Map.of(),
                Map.of(
                        "canary",
                        "true",
                        "monitorId",
                        verdict.monitorId(),
                        "windowStart",
                        Long.toString(windowStart),
                        "decidedAt",
                        Long.toString(decidedAt),
                        "status",
                        verdict.status().wire()),
                1,
                windowStart,
                decidedAt,
                AlertSource.HEARTBEAT,
                false,
                null);
    }
}
