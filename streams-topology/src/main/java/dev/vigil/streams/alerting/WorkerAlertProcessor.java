package dev.vigil.streams.alerting;

import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.health.Health;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.health.WorkerHealthUpdate;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.WorkerRules;
import dev.vigil.schemas.silence.Silence;
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
    /** The stores it owns (each worker's latest health, alerts) and the global silences and acknowledgements. */
    public record Stores(String health, String alerts, String silences, String acks) {
    }

    private final AlertingConfig config;
    private final Stores stores;
    private final String alertsChild;
    private final WorkerRules rules;
    private final AlertEmitter.Counters counters;
    private KeyValueStore<String, WorkerHealth> health;
    private AlertEmitter emitter;

    public WorkerAlertProcessor(AlertingConfig config, Stores stores, String alertsChild,
                                AlertEmitter.Counters counters) {
        this.config = config;
        this.stores = stores;
        this.alertsChild = alertsChild;
        this.rules = new WorkerRules(new AlertLinks(config.queryBaseUrl()));
        this.counters = counters;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.health = context.getStateStore(stores.health());
        ReadOnlyKeyValueStore<String, Silence> silences = context.getStateStore(stores.silences());
        KeyValueStore<String, AlertStateRecord> alerts = context.getStateStore(stores.alerts());
        this.emitter = new AlertEmitter(new AlertStateMachine(AlertStateMachine.Config.of(config)), alerts, silences, stores.acks(), context, alertsChild,
                counters);
        context.schedule(java.time.Duration.ofMillis(Math.max(config.punctuationInterval().toMillis(), 1000)),
                PunctuationType.WALL_CLOCK_TIME, this::punctuate);
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
        emitter.apply(rules.onHealth(w.region(), w.workerId(), w.health() == Health.DEAD, w.lastHeartbeatAt(),
                w.evaluatedAt()));
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
                emitter.apply(rules.onHealth(region, workerId, w.health() == Health.DEAD, w.lastHeartbeatAt(),
                        Math.max(now, open.lastEvaluated())));
            }
        }
    }
}
