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
 */
public final class MonitorAlertProcessor implements Processor<String, MonitorEvent, String, Object> {
    /**
     * The stores it owns (rule states, alerts) and the global ones it reads (silences, acknowledgements, the regions'
     * pictures).
     */
    public record Stores(String ruleStates, String alerts, String silences, String acks, String regions) {
        /** Without the regions' pictures: no unknown window is taken for Vigil's gap. */
        public Stores(String ruleStates, String alerts, String silences, String acks) {
            this(ruleStates, alerts, silences, acks, null);
        }
    }

    private final AlertingConfig config;
    private final Stores stores;
    private final String alertsChild;
    private final MonitorRules rules;
    private final AlertEmitter.Counters counters;
    private final long silentRegionAfterMs;
    private ProcessorContext<String, Object> context;
    /** The global regions store, looked up on first use; null in a topology without it. */
    private ReadOnlyKeyValueStore<String, RegionStatus> regions;

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
        if (event instanceof MonitorEvent.Decided decided) {
            onVerdict(decided);
        } else if (event instanceof MonitorEvent.TlsObserved tls) {
            MonitorRuleState state = stateOf(tls.monitorId());
            apply(tls.monitorId(), state, rules.onProbeResult(state, tls.definition(), tls.result()));
        } else if (event instanceof MonitorEvent.Disabled disabled) {
            resolveAll(disabled.monitorId(), record.timestamp(), "monitor disabled");
        } else if (event instanceof MonitorEvent.Deleted deleted) {
            resolveAll(deleted.monitorId(), record.timestamp(), "monitor deleted");
            ruleStates.delete(deleted.monitorId());
        }
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
        apply(def.id(), state, rules.onVerdict(state, def, verdict, facts));
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
    private void apply(String monitorId, MonitorRuleState before, MonitorRules.Result result) {
        MonitorRuleState after = result.state();
        if (!after.withLastWindowStart(before.lastWindowStart()).equals(before)) {
            ruleStates.put(monitorId, after);
        }
        result.evaluations().forEach(emitter::apply);
    }

    private void resolveAll(String monitorId, long at, String why) {
        for (String fp : new String[] {
            Fingerprints.monitor(monitorId), Fingerprints.noData(monitorId), Fingerprints.tls(monitorId)
        }) {
            emitter.forceResolve(fp, at, "Resolved: " + why);
        }
    }
}
