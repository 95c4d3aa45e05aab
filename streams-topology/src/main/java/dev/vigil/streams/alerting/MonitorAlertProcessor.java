package dev.vigil.streams.alerting;

import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.rules.MonitorRuleState;
import dev.vigil.streams.rules.MonitorRules;
import dev.vigil.schemas.silence.Silence;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * The built-in per-monitor alerts (availability, no data, TLS) in the verdict sub-topology, so they share
 * the monitor's partition: verdicts (from the verdicts node), probe results (TLS) and definition changes
 * (a deleted or disabled monitor resolves its open alerts). Reads the verdict processor's definitions and history
 * stores.
 */
public final class MonitorAlertProcessor implements Processor<String, Object, String, Object> {
    private final AlertingConfig config;
    private final String monitorsTopic;
    private final String definitionsStore;
    private final String historyStore;
    private final String alertsChild;
    private final MonitorRules rules;
    private final AlertEmitter.Counters counters;

    private ProcessorContext<String, Object> context;
    private ReadOnlyKeyValueStore<String, MonitorDefinition> definitions;
    /**
     * Definitions read from the store, dropped whenever the monitors topic carries a record for the id: a
     * store read decodes the definition's JSON, and every verdict needs it.
     */
    private final Map<String, MonitorDefinition> definitionCache = new HashMap<>();
    private KeyValueStore<String, MonitorRuleState> ruleStates;
    /**
     * Each monitor's rule state, decoded: the store's entry, except that {@code lastWindowStart} may be newer (see
     * {@link #apply}).
     */
    private final Map<String, MonitorRuleState> ruleStateCache = new HashMap<>();
    /** Monitors whose cached {@code lastWindowStart} was checked against the verdict history since init. */
    private final Set<String> lastWindowChecked = new HashSet<>();
    private ReadOnlyWindowStore<String, MonitorStatus> history;
    private AlertEmitter emitter;

    public MonitorAlertProcessor(AlertingConfig config, String monitorsTopic, String definitionsStore,
                                 String historyStore, String alertsChild, AlertEmitter.Counters counters) {
        this.config = config;
        this.monitorsTopic = monitorsTopic;
        this.definitionsStore = definitionsStore;
        this.historyStore = historyStore;
        this.alertsChild = alertsChild;
        this.rules = new MonitorRules(new AlertLinks(config.queryBaseUrl()));
        this.counters = counters;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.definitions = context.getStateStore(definitionsStore);
        this.ruleStates = context.getStateStore(AlertStores.MONITOR_RULE_STATE_STORE);
        this.history = context.getStateStore(historyStore);
        ReadOnlyKeyValueStore<String, Silence> silences = context.getStateStore(AlertStores.SILENCES_STORE);
        KeyValueStore<String, AlertStateRecord> alerts = context.getStateStore(AlertStores.MONITOR_ALERTS_STORE);
        this.emitter = AlertEmitter.decodedInMemory(new AlertStateMachine(AlertStateMachine.Config.of(config)), alerts, silences, context,
                alertsChild, counters);
        // init runs again on a revived task, whose stores were restored to the last commit: forget what was cached
        definitionCache.clear();
        ruleStateCache.clear();
        lastWindowChecked.clear();
        try (var it = ruleStates.all()) {
            it.forEachRemaining(kv -> ruleStateCache.put(kv.key, kv.value));
        }
    }

    @Override
    public void process(Record<String, Object> record) {
        Object value = record.value();
        if (record.key() != null && (value instanceof MonitorDefinition || value == null)) {
            definitionCache.remove(record.key());
        }
        if (value instanceof MonitorStatus verdict) {
            onVerdict(verdict);
        } else if (value instanceof ProbeResult result) {
            onResult(result);
        } else if (value instanceof MonitorDefinition def) {
            if (!def.enabled()) {
                resolveAll(def.id(), record.timestamp(), "monitor disabled");
            }
        } else if (value == null && record.key() != null && fromMonitorsTopic()) {
            resolveAll(record.key(), record.timestamp(), "monitor deleted");
            ruleStates.delete(record.key());
            ruleStateCache.remove(record.key());
            lastWindowChecked.remove(record.key());
        }
        // anything else was already dead-lettered by the verdict processor
    }

    private boolean fromMonitorsTopic() {
        return context.recordMetadata().map(m -> monitorsTopic.equals(m.topic())).orElse(false);
    }

    private MonitorDefinition definition(String monitorId) {
        MonitorDefinition def = definitionCache.get(monitorId);
        if (def == null) {
            def = definitions.get(monitorId);
            if (def != null) {
                definitionCache.put(monitorId, def);
            }
        }
        return def;
    }

    private void onVerdict(MonitorStatus verdict) {
        MonitorDefinition def = definition(verdict.monitorId());
        if (def == null || !def.enabled()) {
            return;
        }
        MonitorRuleState state = stateBefore(verdict);
        var result = rules.onVerdict(state, def, verdict, isOpen(Fingerprints.monitor(def.id())),
                isOpen(Fingerprints.noData(def.id())));
        apply(def.id(), state, result);
    }

    private boolean isOpen(String fingerprint) {
        AlertStateRecord record = emitter.current(fingerprint);
        return record != null && record.isOpen();
    }

    private void onResult(ProbeResult r) {
        if (r.tlsDaysLeft() == null) {
            return;
        }
        MonitorDefinition def = definition(r.monitorId());
        if (def == null || !def.enabled()) {
            return;
        }
        MonitorRuleState state = stateOf(def.id());
        apply(def.id(), state, rules.onProbeResult(state, def, r));
    }

    private MonitorRuleState stateOf(String monitorId) {
        MonitorRuleState s = ruleStateCache.get(monitorId);
        return s == null ? MonitorRuleState.INITIAL : s;
    }

    /**
     * The rule state before a verdict. The store's {@code lastWindowStart} may be behind (see {@link #apply}), so the
     * first verdict of a monitor since init takes it from the verdict history: every verdict there was applied
     * here, in the transaction that wrote it; a newer window there means this verdict arrived out of order.
     */
    private MonitorRuleState stateBefore(MonitorStatus verdict) {
        MonitorRuleState s = stateOf(verdict.monitorId());
        if (lastWindowChecked.add(verdict.monitorId())) {
            try (var newer = history.backwardFetch(verdict.monitorId(), Instant.ofEpochMilli(verdict.windowStart() + 1),
                    Instant.ofEpochMilli(Long.MAX_VALUE))) {
                long newest = newer.hasNext() ? newer.next().key : Long.MIN_VALUE;
                if (newest > s.lastWindowStart()) {
                    s = s.withLastWindowStart(newest);
                    ruleStateCache.put(verdict.monitorId(), s); // an ignored verdict leaves the state as it is
                }
            }
        }
        return s;
    }

    /**
     * A state that differs only in {@code lastWindowStart} (a healthy monitor's every window) stays in memory: the
     * changelog record it would cost per window is what {@link #stateBefore} saves.
     */
    private void apply(String monitorId, MonitorRuleState before, MonitorRules.Result result) {
        MonitorRuleState after = result.state();
        if (!after.equals(before)) {
            ruleStateCache.put(monitorId, after);
            if (!after.withLastWindowStart(before.lastWindowStart()).equals(before)) {
                ruleStates.put(monitorId, after);
            }
        }
        result.evaluations().forEach(emitter::apply);
    }

    private void resolveAll(String monitorId, long at, String why) {
        for (String fp : new String[] {Fingerprints.monitor(monitorId), Fingerprints.noData(monitorId),
                Fingerprints.tls(monitorId)}) {
            emitter.forceResolve(fp, at, "Resolved: " + why);
        }
    }
}
