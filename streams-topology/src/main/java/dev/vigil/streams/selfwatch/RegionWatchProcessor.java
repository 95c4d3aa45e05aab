package dev.vigil.streams.selfwatch;

import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.alerting.AlertEmitter;
import dev.vigil.streams.alerting.AlertStateMachine;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.health.HeartbeatClock;
import dev.vigil.streams.rules.AlertLinks;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The region watch, keyed by region on the internal signals topic: it keeps each region's workers and the count of
 * monitors naming it ({@link RegionWatch}), writes the region's picture ({@link RegionStatus}) to {@link #regionsChild}
 * whenever it changes and at least once a minute, and raises Vigil's self-alerts ({@link SelfWatchRules}) through the shared {@link AlertEmitter}:
 * on every signal and on a wall-clock punctuation, so a region whose workers fall silent turns blind without any new
 * record, and an open incident gets its reminders and its healthy evaluations. The dead-letter signals, all under one
 * key, keep the one dead-letter incident here too.
 *
 * <p>Liveness is judged on a {@link HeartbeatClock}, not on wall clock alone: while this task reads the heartbeats
 * behind (a rebalance, a burst of work, a restart catching up) every worker's latest heartbeat looks old on wall clock,
 * and a wall-clock judge would call every region blind at once. The heartbeats' own time says what the workers were
 * doing up to the point read; once nothing more arrives, the clock runs on with wall time, so a region whose workers all
 * died still turns blind.
 */
public final class RegionWatchProcessor implements Processor<String, WatchSignal, String, Object> {
    /** The stores it owns (region watches, the dead-letter burst, alerts) and the global silences and acks. */
    public record Stores(String regions, String deadLetters, String alerts, String silences, String acks) {}

    private static final String BURST = "burst";
    /** A region's picture is written again after this long even when nothing changed. */
    static final long REFRESH_MS = 60_000;

    private final TopologyConfig config;
    private final AlertingConfig alerting;
    private final Stores stores;
    private final String regionsChild;
    private final String alertsChild;
    private final AlertEmitter.Counters counters;
    private final SelfWatchRules rules;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, RegionWatch> regions;
    private KeyValueStore<String, DeadLetterWatch> deadLetters;
    private AlertEmitter emitter;
    private final HeartbeatClock clock = new HeartbeatClock();

    public RegionWatchProcessor(
            TopologyConfig config,
            AlertingConfig alerting,
            Stores stores,
            String regionsChild,
            String alertsChild,
            AlertEmitter.Counters counters) {
        this.config = config;
        this.alerting = alerting;
        this.stores = stores;
        this.regionsChild = regionsChild;
        this.alertsChild = alertsChild;
        this.counters = counters;
        this.rules = new SelfWatchRules(new AlertLinks(alerting.consoleUrl()));
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.regions = context.getStateStore(stores.regions());
        this.deadLetters = context.getStateStore(stores.deadLetters());
        ReadOnlyKeyValueStore<String, Silence> silences = context.getStateStore(stores.silences());
        KeyValueStore<String, AlertStateRecord> alerts = context.getStateStore(stores.alerts());
        this.emitter = new AlertEmitter(
                new AlertStateMachine(AlertStateMachine.Config.of(alerting)),
                alerts,
                silences,
                stores.acks(),
                context,
                alertsChild,
                counters);
        context.schedule(config.workers().punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, WatchSignal> record) {
        WatchSignal signal = record.value();
        if (record.key() == null || signal == null) {
            return;
        }
        long wall = context.currentSystemTimeMs();
        if (!signal.isHeartbeat()) {
            onDeadLetter(signal, wall);
            return;
        }
        clock.read(signal.sentAt(), wall);
        long now = clock.at(wall);
        RegionWatch watch = regions.get(record.key());
        if (watch == null) {
            watch = RegionWatch.first(record.key(), now);
        }
        judge(watch, watch.heard(signal, config.selfWatch().skippedOver().toMillis()), now, wall);
    }

    private void onDeadLetter(WatchSignal signal, long now) {
        long quiet = config.selfWatch().deadLetterQuiet().toMillis();
        if (now - signal.sentAt() >= quiet) {
            return; // an old dead letter (a first start reading the topic's past): its burst is over
        }
        DeadLetterWatch burst = DeadLetterWatch.heard(deadLetters.get(BURST), now, quiet);
        // every dead letter is a breach of the one incident: the state machine's debounce turns a stream of them into
        // reminders, never a page per record
        deadLetters.put(BURST, burst);
        emitter.apply(rules.deadLetters(burst, false, config.topics().deadLetter(), now));
    }

    /**
     * @param stored the watch as stored (or new), {@code heard} it with the signal applied
     * @param now    the heartbeat clock liveness is judged at
     * @param wall   wall-clock time, the time of the evaluations (the alert state machine's reminders run on it)
     */
    private void judge(RegionWatch stored, RegionWatch heard, long now, long wall) {
        long healthy = config.workers().healthy().toMillis();
        RegionWatch watch = heard.judged(
                now, healthy, config.selfWatch().forgetWorkerAfter().toMillis());
        RegionStatus picture = watch.status(now, healthy);
        if (!watch.alreadyPublished(picture, REFRESH_MS)) {
            watch = watch.withPublished(picture);
            context.forward(new Record<String, Object>(watch.region(), picture, now), regionsChild);
        }
        if (!watch.equals(stored)) {
            regions.put(watch.region(), watch);
        }
        emitter.apply(rules.regionBlind(picture, wall));
        var s = config.selfWatch();
        for (var e : watch.workers().entrySet()) {
            // a worker no longer live skips nothing: its death is the worker alert's, its region's blindness this one's
            boolean live = now - e.getValue().lastHeartbeatAt() < healthy;
            emitter.apply(rules.workerSkipping(
                    watch.region(),
                    e.getKey(),
                    live ? watch.skips(e.getKey(), s.skippedOver().toMillis()) : null,
                    s.skippedShare(),
                    s.skippedMinimum(),
                    wall));
        }
    }

    void punctuate(long wall) {
        long now = clock.at(wall);
        List<RegionWatch> all = new ArrayList<>();
        try (var it = regions.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null) {
                    all.add(kv.value);
                }
            });
        }
        all.forEach(watch -> judge(watch, watch, now, wall));
        // a skipping alert of a worker the watch has forgotten heals
        for (AlertStateRecord open : emitter.open()) {
            String region = open.attributes().get("region");
            String workerId = open.attributes().get("workerId");
            if (region != null && workerId != null && open.fingerprint().startsWith("vigil/worker-skipping/")) {
                RegionWatch watch = regions.get(region);
                if (watch == null || !watch.workers().containsKey(workerId)) {
                    emitter.apply(
                            rules.workerSkipping(region, workerId, null, 1, 1, Math.max(wall, open.lastEvaluated())));
                }
            }
        }
        // the dead-letter incident heals on wall clock once quiet; new dead letters, not the clock, give its reminders
        DeadLetterWatch burst = deadLetters.get(BURST);
        if (burst != null
                && burst.quiet(wall, config.selfWatch().deadLetterQuiet().toMillis())) {
            emitter.apply(rules.deadLetters(burst, true, config.topics().deadLetter(), wall));
            AlertStateRecord incident = emitter.current(dev.vigil.streams.rules.Fingerprints.deadLetters());
            if (incident == null || !incident.isOpen()) {
                deadLetters.delete(BURST);
            }
        }
    }
}
