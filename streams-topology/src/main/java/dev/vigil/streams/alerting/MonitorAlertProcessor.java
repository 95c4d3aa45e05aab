package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.rules.MonitorRuleState;
import dev.vigil.streams.rules.MonitorRules;
import dev.vigil.streams.rules.VigilGaps;
import dev.vigil.streams.store.MirroredStore;
import dev.vigil.streams.store.OptionalStore;
import dev.vigil.streams.trace.HopSpans;
import dev.vigil.streams.verdict.MonitorEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The built-in per-monitor alerts (availability, no data, TLS) in the verdict sub-topology, so they share the
 * monitor's partition. Its one input is the verdict processor's {@link MonitorEvent}s: verdicts, TLS observations,
 * disabled and deleted monitors, each with the definition it was decided under. It owns the rule-state and the
 * monitor alerts stores and reads no other processor's store.
 *
 * <p>Dependencies (docs/monitors.md#dependencies): a monitor's parents are usually in other tasks, so whether a parent
 * is down is read from a global store of the monitors whose latest verdict is down, fed by the status topic. While one
 * of its parents is down, a monitor's availability notifications are held ({@link AlertStateRecord#held()}); held
 * incidents are kept in a small in-memory index, and a wall-clock punctuation releases those whose parents are no
 * longer down, so a child still failing pages as soon as its parent recovers rather than at its next verdict. The
 * parent's verdict reaches the global store through the status topic, tens of milliseconds after it was decided: a
 * child's verdict for the same window decided before that (parent and child failing together, on their first failing
 * window) is not held and pages beside its parent's. Holding every child's first page for a grace would delay every
 * real page of a child whose parent is fine; the race costs at most one extra page per outage, the safe side.
 */
public final class MonitorAlertProcessor implements Processor<String, MonitorEvent, String, Object> {
    /**
     * The stores it owns (rule states, alerts) and the global ones it reads (silences, acknowledgements, the regions'
     * pictures).
     */
    public record Stores(
            String ruleStates, String alerts, String silences, String acks, String regions, String monitorsDown) {
        /** Without the regions' pictures: no unknown window is taken for Vigil's gap. */
        public Stores(String ruleStates, String alerts, String silences, String acks) {
            this(ruleStates, alerts, silences, acks, null);
        }

        /** Without the down monitors: no dependency holds a notification. */
        public Stores(String ruleStates, String alerts, String silences, String acks, String regions) {
            this(ruleStates, alerts, silences, acks, regions, null);
        }
    }

    /** How often held incidents are checked for a recovered parent (wall clock). */
    static final Duration RELEASE_CHECK = Duration.ofSeconds(1);

    private final AlertingConfig config;
    private final Stores stores;
    private final String alertsChild;
    private final MonitorRules rules;
    private final AlertEmitter.Counters counters;
    private final long silentRegionAfterMs;
    private ProcessorContext<String, Object> context;
    /** The global regions store, looked up on first use; null in a topology without it. */
    private ReadOnlyKeyValueStore<String, RegionStatus> regions;
    /** The global store of monitors whose latest verdict is down; null in a topology without it. */
    private ReadOnlyKeyValueStore<String, MonitorStatus> monitorsDown;
    /**
     * The monitors of this task whose availability incident is held, with their parents: the release check reads
     * only these, never every monitor. Rebuilt from the alert store on init (with the parent each hold names).
     */
    private final Map<String, List<String>> held = new HashMap<>();

    /** Each monitor's rule state, read on every verdict. */
    private MirroredStore<MonitorRuleState, MonitorRuleState> ruleStates;

    private AlertEmitter emitter;
    private final HopSpans spans;

    public MonitorAlertProcessor(
            AlertingConfig config, Stores stores, String alertsChild, AlertEmitter.Counters counters) {
        this(
                config,
                stores,
                alertsChild,
                counters,
                TopologyConfig.SelfWatchSettings.defaults().silentRegionAfter());
    }

    /**
     * @param silentRegionAfter a region without a heartbeat for this long counts as Vigil's gap for the no-data rule
     */
    public MonitorAlertProcessor(
            AlertingConfig config,
            Stores stores,
            String alertsChild,
            AlertEmitter.Counters counters,
            Duration silentRegionAfter) {
        this(config, stores, alertsChild, counters, silentRegionAfter, HopSpans.OFF);
    }

    /** @param spans alert events continue the trace of the verdict (or TLS observation) that caused them */
    public MonitorAlertProcessor(
            AlertingConfig config,
            Stores stores,
            String alertsChild,
            AlertEmitter.Counters counters,
            Duration silentRegionAfter,
            HopSpans spans) {
        this.spans = spans;
        this.silentRegionAfterMs = silentRegionAfter.toMillis();
        this.config = config;
        this.stores = stores;
        this.alertsChild = alertsChild;
        this.rules = new MonitorRules(new AlertLinks(config.consoleUrl()));
        this.counters = counters;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.regions = OptionalStore.find(context, stores.regions());
        this.monitorsDown = OptionalStore.find(context, stores.monitorsDown());
        this.ruleStates = MirroredStore.load(context.getStateStore(stores.ruleStates()));
        ReadOnlyKeyValueStore<String, Silence> silences = context.getStateStore(stores.silences());
        KeyValueStore<String, AlertStateRecord> alerts = context.getStateStore(stores.alerts());
        // the mirrors are made anew on every init: a revived task's stores were restored to the last commit
        this.emitter = AlertEmitter.mirrored(
                        new AlertStateMachine(AlertStateMachine.Config.of(config)),
                        alerts,
                        silences,
                        stores.acks(),
                        context,
                        alertsChild,
                        counters)
                .tracedBy(spans);
        held.clear();
        for (AlertStateRecord r : emitter.open()) {
            String id = availabilityMonitor(r.fingerprint());
            if (id != null && r.held() != null) {
                held.put(id, List.of(r.held().dependsOn()));
            }
        }
        if (monitorsDown != null) {
            context.schedule(RELEASE_CHECK, PunctuationType.WALL_CLOCK_TIME, now -> releaseRecovered());
        }
    }

    /** Releases each held incident none of whose parents is down any more: it pages now if still failing. */
    private void releaseRecovered() {
        if (held.isEmpty()) {
            return;
        }
        for (var e : List.copyOf(held.entrySet())) {
            if (downParent(e.getValue()) == null) {
                held.remove(e.getKey());
                emitter.release(Fingerprints.monitor(e.getKey()));
            }
        }
    }

    /** The first of {@code parents} whose latest verdict is down, or null. */
    private String downParent(List<String> parents) {
        if (monitorsDown == null || parents.isEmpty()) {
            return null;
        }
        for (String parent : parents) {
            MonitorStatus status = monitorsDown.get(parent);
            // the store may hold statuses that are not down (restored from the topic as they are): read, then judge
            if (status != null && status.status() == Status.DOWN) {
                return parent;
            }
        }
        return null;
    }

    /** The monitor id of an availability fingerprint ({@code monitor/<id>}), or null for any other fingerprint. */
    private static String availabilityMonitor(String fingerprint) {
        String prefix = Fingerprints.monitor("");
        return fingerprint.startsWith(prefix) && fingerprint.indexOf('/', prefix.length()) < 0
                ? fingerprint.substring(prefix.length())
                : null;
    }

    @Override
    public void process(Record<String, MonitorEvent> record) {
        emitter.causedBy(record.headers());
        try {
            dispatch(record);
        } finally {
            emitter.causedBy(null);
        }
    }

    private void dispatch(Record<String, MonitorEvent> record) {
        MonitorEvent event = record.value();
        if (config.isCanary(event.monitorId()) && !endsTheMonitor(event)) {
            // the end-to-end canary's verdicts travel on as vigil/canary events, and the notifier's pipeline-stalled
            // self-alert stands for them: a canary probe failing because Vigil's own cores are busy is Vigil's gap,
            // not an outage of someone's service. Disabling or deleting it still resolves what an older release opened.
            return;
        }
        if (event instanceof MonitorEvent.Decided decided) {
            onVerdict(decided);
        } else if (event instanceof MonitorEvent.TlsObserved tls) {
            MonitorRuleState state = stateOf(tls.monitorId());
            apply(tls.monitorId(), state, rules.onProbeResult(state, tls.definition(), tls.result()), null);
        } else if (event instanceof MonitorEvent.Disabled disabled) {
            resolveAll(disabled.monitorId(), record.timestamp(), "monitor disabled");
            held.remove(disabled.monitorId());
        } else if (event instanceof MonitorEvent.Deleted deleted) {
            resolveAll(deleted.monitorId(), record.timestamp(), "monitor deleted");
            held.remove(deleted.monitorId());
            ruleStates.delete(deleted.monitorId());
        }
    }

    private static boolean endsTheMonitor(MonitorEvent event) {
        return event instanceof MonitorEvent.Disabled || event instanceof MonitorEvent.Deleted;
    }

    private void onVerdict(MonitorEvent.Decided decided) {
        MonitorDefinition def = decided.definition();
        MonitorStatus verdict = decided.verdict();
        MonitorRuleState state = stateOf(def.id());
        // The stored state's last window may be behind (see apply): the verdict processor's newest window before
        // this verdict was applied here, in the transaction that decided it; an older window arrived out of order.
        if (decided.newestBefore() > state.lastWindowStart()) {
            state = state.withLastWindowStart(decided.newestBefore());
        }
        var facts = new MonitorRules.Facts(
                isOpen(Fingerprints.monitor(def.id())),
                isOpen(Fingerprints.noData(def.id())),
                verdict.status() == Status.UNKNOWN && vigilGap(verdict));
        String parent = downParent(def.dependsOn());
        apply(
                def.id(),
                state,
                rules.onVerdict(state, def, verdict, facts),
                parent == null ? null : AlertStateRecord.Held.by(parent));
        AlertStateRecord availability = emitter.current(Fingerprints.monitor(def.id()));
        if (availability != null && availability.isOpen() && availability.held() != null) {
            held.put(def.id(), def.dependsOn());
        } else {
            held.remove(def.id());
        }
    }

    /**
     * Whether every missing region of an unknown window is a gap the self-alerts already page for (skipped, blind,
     * unserved or its workers silent), judged on wall clock as worker health is: then the monitor's no-data rule does
     * not count the window, and the region's one self-alert stands for it.
     */
    private boolean vigilGap(MonitorStatus verdict) {
        ReadOnlyKeyValueStore<String, RegionStatus> pictures = regions;
        if (pictures == null && verdict.skipped().isEmpty()) {
            return false;
        }
        return VigilGaps.allMissingAreVigilsGap(
                verdict,
                region -> pictures == null ? null : pictures.get(region),
                context.currentSystemTimeMs(),
                silentRegionAfterMs);
    }

    private boolean isOpen(String fingerprint) {
        AlertStateRecord record = emitter.current(fingerprint);
        return record != null && record.isOpen();
    }

    private MonitorRuleState stateOf(String monitorId) {
        MonitorRuleState s = ruleStates.get(monitorId);
        return s == null ? MonitorRuleState.INITIAL : s;
    }

    /**
     * A state that differs only in {@code lastWindowStart} (a healthy monitor's every window) is not written: the
     * changelog record it would cost per window is what the verdict's {@code newestBefore} makes unnecessary.
     */
    private void apply(
            String monitorId, MonitorRuleState before, MonitorRules.Result result, AlertStateRecord.Held hold) {
        MonitorRuleState after = result.state();
        if (!after.withLastWindowStart(before.lastWindowStart()).equals(before)) {
            ruleStates.put(monitorId, after);
        }
        // only the availability incident is held: no data and TLS expiry say nothing the parent's outage explains
        String availability = Fingerprints.monitor(monitorId);
        for (var ev : result.evaluations()) {
            emitter.apply(ev, false, ev.fingerprint().equals(availability) ? hold : null);
        }
    }

    private void resolveAll(String monitorId, long at, String why) {
        for (String fp : new String[] {
            Fingerprints.monitor(monitorId), Fingerprints.noData(monitorId), Fingerprints.tls(monitorId)
        }) {
            emitter.forceResolve(fp, at, "Resolved: " + why);
        }
    }
}
