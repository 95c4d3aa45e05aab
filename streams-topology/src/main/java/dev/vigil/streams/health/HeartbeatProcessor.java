package dev.vigil.streams.health;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import dev.vigil.streams.deadletter.DeadLetters;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the latest heartbeat of each worker and its health, re-evaluated by a wall-clock punctuator so a
 * worker that falls silent moves through warn / stale / dead without any new record. A heartbeat's age is taken on
 * the {@link HeartbeatClock}: while this task reads heartbeats behind, its workers are judged at the point read, not
 * called dead for heartbeats still to be read. Every write of a worker's
 * health is forwarded to {@link #updatesChild} as a {@link WorkerHealthUpdate} (a worker-dead alert attaches there).
 */
public final class HeartbeatProcessor implements Processor<String, WorkerHeartbeat, String, Object> {
    private final String storeName;
    private final WorkerSettings settings;
    private final String updatesChild;
    private final String deadLetterChild;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, WorkerHealth> store;
    private final HeartbeatClock clock = new HeartbeatClock();

    public HeartbeatProcessor(WorkerSettings settings, String storeName, String updatesChild, String deadLetterChild) {
        this.storeName = storeName;
        this.settings = settings;
        this.updatesChild = updatesChild;
        this.deadLetterChild = deadLetterChild;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        context.schedule(settings.punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, this::evaluate);
    }

    @Override
    public void process(Record<String, WorkerHeartbeat> record) {
        WorkerHeartbeat hb = record.value();
        if (hb == null || record.key() == null || !record.key().equals(hb.workerId())) {
            DeadLetter letter = DeadLetters.invalid(
                    context,
                    record.key(),
                    hb,
                    hb == null ? "tombstone on the heartbeats topic" : "record key does not equal workerId");
            context.forward(
                    new Record<String, Object>(record.key(), letter, context.currentSystemTimeMs()), deadLetterChild);
            return;
        }
        WorkerHealth previous = store.get(hb.workerId());
        if (previous != null && previous.lastHeartbeatAt() >= hb.sentAt()) {
            return; // out of order: an older heartbeat says nothing new
        }
        long now = context.currentSystemTimeMs();
        clock.read(hb.sentAt(), now);
        Health health = Health.of(clock.at(now) - hb.sentAt(), settings);
        long since = previous != null && previous.health() == health ? previous.healthSince() : now;
        WorkerHealth next = WorkerHealth.of(hb, health, since, now);
        store.put(hb.workerId(), next);
        boolean changed = previous == null || previous.health() != health;
        context.forward(
                new Record<String, Object>(hb.workerId(), new WorkerHealthUpdate(next, changed), now), updatesChild);
    }

    void evaluate(long now) {
        long judgedAt = clock.at(now);
        List<WorkerHealth> changed = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                Health health = Health.of(judgedAt - kv.value.lastHeartbeatAt(), settings);
                if (health != kv.value.health()) {
                    changed.add(kv.value.evaluated(health, now));
                }
            });
        }
        for (WorkerHealth w : changed) {
            store.put(w.workerId(), w);
            context.forward(
                    new Record<String, Object>(w.workerId(), new WorkerHealthUpdate(w, true), now), updatesChild);
        }
    }
}
