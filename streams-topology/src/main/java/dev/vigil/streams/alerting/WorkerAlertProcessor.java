package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.health.Health;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.health.WorkerHealthUpdate;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.WorkerRules;
import dev.vigil.streams.store.OptionalStore;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Worker death alerts ({@code worker/<region>/<workerId>}) in the heartbeat sub-topology. Health changes
 * are evaluated as they come; every update of a worker's health is kept in this processor's own store, and while a
 * worker alert is open a wall-clock punctuator re-evaluates the worker from there, so a dead worker gets its
 * reminders and a worker that came back gives the consecutive healthy evaluations that resolve it (changes alone
 * would give only one).
 */
public final class WorkerAlertProcessor implements Processor<String, WorkerHealthUpdate, String, Object> {
    /**
     * The stores it owns (each worker's latest health, alerts) and the global silences, acknowledgements and regions'
     * pictures.
     */
    public record Stores(String health, String alerts, String silences, String acks, String regions) {
        /** Without the regions' pictures: no worker alert is folded into its region's. */
        public Stores(String health, String alerts, String silences, String acks) {
            this(health, alerts, silences, acks, null);
        }
    }

    private final AlertingConfig config;
    private final Stores stores;
    private final String alertsChild;
    private final WorkerRules rules;
    private final AlertEmitter.Counters counters;
    private KeyValueStore<String, WorkerHealth> health;
    private AlertEmitter emitter;
    private ProcessorContext<String, Object> context;
    private ReadOnlyKeyValueStore<String, RegionStatus> regions;

    public WorkerAlertProcessor(
            AlertingConfig config, Stores stores, String alertsChild, AlertEmitter.Counters counters) {
        this.config = config;
        this.stores = stores;
        this.alertsChild = alertsChild;
        this.rules = new WorkerRules(new AlertLinks(config.consoleUrl()));
        this.counters = counters;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.regions = OptionalStore.find(context, stores.regions());
        this.health = context.getStateStore(stores.health());
        ReadOnlyKeyValueStore<String, Silence> silences = context.getStateStore(stores.silences());
        KeyValueStore<String, AlertStateRecord> alerts = context.getStateStore(stores.alerts());
        this.emitter = new AlertEmitter(
                new AlertStateMachine(AlertStateMachine.Config.of(config)),
                alerts,
                silences,
                stores.acks(),
                context,
                alertsChild,
                counters);
        context.schedule(
                java.time.Duration.ofMillis(
                        Math.max(config.punctuationInterval().toMillis(), 1000)),
                PunctuationType.WALL_CLOCK_TIME,
                this::punctuate);
    }

    @Override
    public void process(Record<String, WorkerHealthUpdate> record) {
        WorkerHealthUpdate update = record.value();
        if (update == null || update.health() == null) {
            return;
        }
        WorkerHealth w = update.health();
        health.put(w.workerId(), w);
        if (!update.changed()) {
            return;
        }
        boolean dead = w.health() == Health.DEAD;
        emitter.apply(
                rules.onHealth(w.region(), w.workerId(), dead, w.lastHeartbeatAt(), w.evaluatedAt()),
                dead && blind(w.region()));
    }

    /**
     * True while the worker's region is blind: its one self-alert ({@code vigil/region-blind/<region>}) pages for the
     * gap, so the dead workers of that region are recorded without paging (one gap, one page); a worker still dead
     * once the region is served again pages then.
     */
    private boolean blind(String region) {
        RegionStatus picture = regions == null ? null : regions.get(region);
        return picture != null && picture.blind();
    }

    void punctuate(long now) {
        for (AlertStateRecord open : emitter.open()) {
            String workerId = open.attributes().get("workerId");
            String region = open.attributes().get("region");
            if (workerId == null || region == null) {
                continue;
            }
            WorkerHealth w = health.get(workerId);
            if (w != null) { // dead: keeps the incident's reminders going; alive again: heals it
                boolean dead = w.health() == Health.DEAD;
                emitter.apply(
                        rules.onHealth(
                                region, workerId, dead, w.lastHeartbeatAt(), Math.max(now, open.lastEvaluated())),
                        dead && blind(region));
            }
        }
    }
}
