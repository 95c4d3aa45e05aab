package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.silence.SilenceMatcher;
import dev.vigil.streams.rules.Evaluation;
import dev.vigil.streams.store.MirroredStore;
import dev.vigil.streams.trace.HopSpans;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The thin shell around {@link AlertStateMachine} that every alert processor shares: read the fingerprint's
 * record, ask the silences, apply, store the new record (same exactly_once_v2 transaction as the output),
 * forward the event keyed by fingerprint with the evaluation's event time as record timestamp (capped at wall
 * clock).
 */
public final class AlertEmitter {
    private static final AttributeKey<String> FINGERPRINT = AttributeKey.stringKey("vigil.alert.fingerprint");
    private static final AttributeKey<String> INCIDENT = AttributeKey.stringKey("vigil.alert.incident_id");
    private static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("vigil.alert.event_id");
    private static final AttributeKey<String> SEVERITY = AttributeKey.stringKey("vigil.alert.severity");
    private final AlertStateMachine machine;
    private final KeyValueStore<String, AlertStateRecord> store;
    private final ReadOnlyKeyValueStore<String, Silence> silences;
    private final ProcessorContext<String, Object> context;
    private final String alertsChild;
    private final Counters counters;
    /** The store mirrored in memory, when it is small enough to hold (null: read the store each time). */
    private final MirroredStore<AlertStateRecord, AlertStateRecord> mirror;
    /** The global acknowledgements store's name; the store is looked up on first use (every task can read it). */
    private final String acksStore;
    /** The global acknowledgements store, looked up on first use (every task can read a global store). */
    private ReadOnlyKeyValueStore<String, Ack> acks;
    /** The alert event's hop of a trace (set once, at init). */
    private HopSpans spans = HopSpans.OFF;
    /** The headers of the record being processed, whose trace an event it causes continues. */
    private Headers cause;

    public AlertEmitter(
            AlertStateMachine machine,
            KeyValueStore<String, AlertStateRecord> store,
            ReadOnlyKeyValueStore<String, Silence> silences,
            String acksStore,
            ProcessorContext<String, Object> context,
            String alertsChild,
            Counters counters) {
        this(machine, store, silences, acksStore, context, alertsChild, counters, null);
    }

    private AlertEmitter(
            AlertStateMachine machine,
            KeyValueStore<String, AlertStateRecord> store,
            ReadOnlyKeyValueStore<String, Silence> silences,
            String acksStore,
            ProcessorContext<String, Object> context,
            String alertsChild,
            Counters counters,
            MirroredStore<AlertStateRecord, AlertStateRecord> mirror) {
        this.machine = machine;
        this.store = store;
        this.silences = silences;
        this.acksStore = acksStore;
        this.context = context;
        this.alertsChild = alertsChild;
        this.counters = counters;
        this.mirror = mirror;
    }

    /**
     * An emitter that reads the store once, here, and keeps its records decoded in memory (writes still go to the
     * store): for a store every input reads, such as the per-monitor alerts (three reads per verdict). Create it in
     * the processor's {@code init}, after the store was restored.
     */
    public static AlertEmitter mirrored(
            AlertStateMachine machine,
            KeyValueStore<String, AlertStateRecord> store,
            ReadOnlyKeyValueStore<String, Silence> silences,
            String acksStore,
            ProcessorContext<String, Object> context,
            String alertsChild,
            Counters counters) {
        return new AlertEmitter(
                machine, store, silences, acksStore, context, alertsChild, counters, MirroredStore.load(store));
    }

    /** Alert events continue the trace of the record that caused them, through {@code spans}. */
    public AlertEmitter tracedBy(HopSpans spans) {
        this.spans = spans;
        return this;
    }

    /** The headers of the record now processed (null when done, or in a punctuation). */
    public void causedBy(Headers headers) {
        this.cause = headers;
    }

    /** The fingerprint's record, or null. */
    public AlertStateRecord current(String fingerprint) {
        return mirror != null ? mirror.get(fingerprint) : store.get(fingerprint);
    }

    public Optional<AlertEvent> apply(Evaluation ev) {
        return apply(ev, false);
    }

    /**
     * As {@link #apply(Evaluation)}; {@code folded} says another incident already pages for the same cause (a dead
     * worker of a blind region): the event is then recorded as if silenced, and pages as soon as it is no longer
     * folded, as after a silence.
     */
    public Optional<AlertEvent> apply(Evaluation ev, boolean folded) {
        return apply(ev, folded, null);
    }

    /**
     * As {@link #apply(Evaluation, boolean)}, under {@code held} (null for none): the monitor's parent is down, and
     * the notification the evaluation would send is owed until {@link #release} or the first evaluation not held.
     */
    public Optional<AlertEvent> apply(Evaluation ev, boolean folded, AlertStateRecord.Held held) {
        AlertStateRecord current = current(ev.fingerprint());
        if (!ev.breach() && (current == null || !current.isOpen())) {
            // healthy with nothing open: the machine keeps the record as it is and emits nothing, so the silences
            // (a scan of their store) need not be read; this is every healthy verdict of a healthy fleet
            return Optional.empty();
        }
        boolean silenced = folded || silenced(ev.fingerprint(), ev.service(), ev.attributes(), ev.at());
        return commit(current, machine.apply(current, ev, silenced, ack(ev.fingerprint()), held), ev.at());
    }

    /**
     * Ends the hold on the fingerprint's open incident (its parent recovered): what it owes goes out now, judged at
     * its latest evaluation's time, under the silences and the acknowledgement that hold then.
     */
    public Optional<AlertEvent> release(String fingerprint) {
        AlertStateRecord current = current(fingerprint);
        if (current == null || !current.isOpen() || current.held() == null) {
            return Optional.empty();
        }
        long at = current.lastEvaluated();
        boolean silenced = silenced(fingerprint, current.service(), current.attributes(), at);
        Ack ack = ack(fingerprint);
        boolean acknowledged = ack != null && ack.holdsFor(current.incidentId(), current.severity(), at);
        return commit(current, machine.release(current, at, silenced, acknowledged), at);
    }

    /** Resolves the fingerprint's open incident at once (rule or monitor deleted or disabled). */
    public Optional<AlertEvent> forceResolve(String fingerprint, long at, String summary) {
        AlertStateRecord current = current(fingerprint);
        if (current == null || !current.isOpen()) {
            return Optional.empty();
        }
        long when = Math.max(at, current.lastEvaluated());
        boolean silenced = silenced(fingerprint, current.service(), current.attributes(), when);
        return commit(current, machine.forceResolve(current, when, summary, silenced), when);
    }

    /** Fingerprints of open incidents in this task's store. */
    public List<AlertStateRecord> open() {
        List<AlertStateRecord> out = new ArrayList<>();
        if (mirror != null) {
            mirror.values().stream().filter(AlertStateRecord::isOpen).forEach(out::add);
            return out;
        }
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null && kv.value.isOpen()) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }

    private Optional<AlertEvent> commit(AlertStateRecord current, AlertStateMachine.Transition t, long at) {
        if (t.state() != null && !t.state().equals(current)) {
            if (mirror != null) {
                mirror.put(t.state().fingerprint(), t.state());
            } else {
                store.put(t.state().fingerprint(), t.state());
            }
        }
        // The record timestamp is the evaluation's event time, except when that lies ahead of wall clock (a
        // producer's clock running fast): brokers refuse timestamps too far in the future, and a refused
        // record would fail the task. Replays of past data are unaffected.
        long timestamp = Math.min(at, context.currentSystemTimeMs());
        t.event().ifPresent(e -> {
            counters.emitted(e);
            Headers headers = traceOf(e);
            context.forward(
                    headers == null
                            ? new Record<String, Object>(e.fingerprint(), e, timestamp)
                            : new Record<String, Object>(e.fingerprint(), spans.stamp(e, headers), timestamp, headers),
                    alertsChild);
        });
        return t.event();
    }

    /** The event's hop of its cause's trace: the headers its record carries (null without a trace). */
    private Headers traceOf(AlertEvent e) {
        if (!spans.recording()) {
            return spans.hop("alert", cause, Attributes.empty());
        }
        return spans.hop(
                "alert " + e.state().wire(),
                cause,
                Attributes.of(
                        FINGERPRINT, e.fingerprint(),
                        INCIDENT, e.incidentId(),
                        EVENT_ID, e.eventId(),
                        SEVERITY, e.severity().wire()));
    }

    /** The acknowledgement of {@code fingerprint} from the global acks store, or null (none, or no such store). */
    private Ack ack(String fingerprint) {
        if (acks == null) {
            try {
                acks = context.getStateStore(acksStore);
            } catch (RuntimeException e) {
                return null; // a topology (or test context) without acknowledgements
            }
            if (acks == null) {
                return null;
            }
        }
        return acks.get(fingerprint);
    }

    private boolean silenced(String fingerprint, String service, Map<String, String> attributes, long at) {
        if (silences == null) {
            return false;
        }
        List<Silence> all = new ArrayList<>();
        try (var it = silences.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null) {
                    all.add(kv.value);
                }
            });
        }
        return !all.isEmpty() && new SilenceMatcher(all).isSilenced(fingerprint, service, attributes, at);
    }

    /** {@code vigil.streams.alerts.emitted{state, silenced}}: bounded tags only. */
    public static final class Counters {
        private final Map<dev.vigil.schemas.contract.AlertState, Counter> paged =
                new EnumMap<>(dev.vigil.schemas.contract.AlertState.class);
        private final Map<dev.vigil.schemas.contract.AlertState, Counter> quiet =
                new EnumMap<>(dev.vigil.schemas.contract.AlertState.class);

        public Counters(MeterRegistry registry) {
            for (var s : dev.vigil.schemas.contract.AlertState.values()) {
                paged.put(
                        s,
                        Counter.builder("vigil.streams.alerts.emitted")
                                .tag("state", s.wire())
                                .tag("silenced", "false")
                                .description("alert events emitted by the topology")
                                .register(registry));
                quiet.put(
                        s,
                        Counter.builder("vigil.streams.alerts.emitted")
                                .tag("state", s.wire())
                                .tag("silenced", "true")
                                .description("alert events emitted by the topology")
                                .register(registry));
            }
        }

        void emitted(AlertEvent e) {
            (e.silenced() ? quiet : paged).get(e.state()).increment();
        }
    }
}
