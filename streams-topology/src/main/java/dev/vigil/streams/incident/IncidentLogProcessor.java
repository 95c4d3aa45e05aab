package dev.vigil.streams.incident;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.streams.alerting.AlertStateRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads every alert event ({@code vigil.alerts}) and every incident note ({@code vigil.incident-notes}), both keyed by
 * fingerprint, into each incident's timeline; and folds the events of incidents only their senders know
 * ({@link ExternalIncidents}) into an alert store of their own, so the API lists them with the topology's.
 * Timelines and ended external incidents are kept for {@code retention} after their last change.
 */
public final class IncidentLogProcessor implements Processor<String, Object, Void, Void> {
    /** The stores this processor owns. */
    public record Stores(String timelines, String externalAlerts) {}

    private static final Duration SWEEP_EVERY = Duration.ofMinutes(10);

    private final Stores names;
    private final Duration retention;
    private KeyValueStore<String, IncidentTimeline> timelines;
    private KeyValueStore<String, AlertStateRecord> external;
    private ProcessorContext<Void, Void> context;

    public IncidentLogProcessor(Stores names, Duration retention) {
        this.names = names;
        this.retention = retention;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        timelines = context.getStateStore(names.timelines());
        external = context.getStateStore(names.externalAlerts());
        context.schedule(SWEEP_EVERY, PunctuationType.WALL_CLOCK_TIME, this::sweep);
    }

    @Override
    public void process(Record<String, Object> record) {
        if (record.value() instanceof AlertEvent e) {
            event(e, record.timestamp());
        } else if (record.value() instanceof IncidentNote n) {
            note(n);
        }
    }

    /** @param at the record's time: when the event was written (an acknowledgement's own time, not its incident's) */
    private void event(AlertEvent e, long at) {
        long now = context.currentSystemTimeMs();
        append(e.fingerprint(), e.incidentId(), List.of(entryOf(e, at)), now);
        if (ExternalIncidents.isExternal(e)) {
            Optional<AlertStateRecord> next = ExternalIncidents.apply(external.get(e.fingerprint()), e);
            next.ifPresent(r -> external.put(e.fingerprint(), r));
        }
    }

    private void note(IncidentNote n) {
        long now = context.currentSystemTimeMs();
        List<TimelineEntry> add = new ArrayList<>();
        switch (n.kind()) {
            case IncidentNote.DELIVERIES -> n.deliveries()
                    .forEach(d -> add.add(new TimelineEntry(
                            n.at(),
                            "page",
                            n.state() == null ? null : n.state().wire(),
                            n.eventId(),
                            d.channel(),
                            d.outcome(),
                            d.attempts(),
                            null,
                            d.detail(),
                            null)));
            default -> add.add(new TimelineEntry(
                    n.at(), n.kind(), null, n.eventId(), null, null, null, n.by(), n.summary(), null));
        }
        if (!add.isEmpty()) {
            append(n.fingerprint(), n.incidentId(), add, now);
        }
    }

    private void append(String fingerprint, String incidentId, List<TimelineEntry> add, long now) {
        IncidentTimeline current = timelines.get(fingerprint);
        if (current != null && !current.incidentId().equals(incidentId) && isOlder(incidentId, current.incidentId())) {
            return; // a late fact of an incident already replaced by a newer one
        }
        timelines.put(fingerprint, IncidentTimeline.append(current, fingerprint, incidentId, add, now));
    }

    /**
     * Whether {@code candidate} is an earlier incident of the same fingerprint than {@code current}: incident ids the
     * topology makes end in {@code @<first breach ms>}; others (an app's own ids) are never judged older.
     */
    static boolean isOlder(String candidate, String current) {
        long a = firstBreach(candidate);
        long b = firstBreach(current);
        return a >= 0 && b >= 0 && a < b;
    }

    private static long firstBreach(String incidentId) {
        int at = incidentId.lastIndexOf('@');
        if (at < 0 || at == incidentId.length() - 1) {
            return -1;
        }
        try {
            return Long.parseLong(incidentId.substring(at + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static TimelineEntry entryOf(AlertEvent e, long at) {
        String by = e.state() == AlertState.ACKNOWLEDGED ? e.attributes().get("acknowledgedBy") : null;
        return new TimelineEntry(
                at,
                e.state().wire(),
                null,
                e.eventId(),
                null,
                null,
                null,
                by,
                e.summary(),
                e.silenced() ? Boolean.TRUE : null);
    }

    private void sweep(long now) {
        long before = now - retention.toMillis();
        List<String> oldTimelines = new ArrayList<>();
        try (var it = timelines.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null && kv.value.updatedAt() < before) {
                    oldTimelines.add(kv.key);
                }
            });
        }
        oldTimelines.forEach(timelines::delete);
        List<String> ended = new ArrayList<>();
        try (var it = external.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null && !kv.value.isOpen() && kv.value.lastNotified() < before) {
                    ended.add(kv.key);
                }
            });
        }
        ended.forEach(external::delete);
    }
}
