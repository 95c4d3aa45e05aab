package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.deadletter.DeadLetters;
import dev.vigil.streams.metrics.MetricAggregate;
import dev.vigil.streams.metrics.MetricKey;
import dev.vigil.streams.metrics.SeriesState;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.DefaultRules;
import dev.vigil.streams.rules.MetricRules;
import dev.vigil.streams.store.MirroredStore;
import io.micrometer.core.instrument.Counter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Metric windows and metric rules. Each {@link DomainMetric} (key {@code appId/metricName}) is added to its
 * one-minute window (store {@code metric-windows}, per {@code appId/metricName/class},
 * retained {@code metricRetention}). A minute closes when the series' event time passes its end plus the
 * grace, or (punctuator) when the task's stream time does, or, when this task has seen no metric for
 * {@code idleClose}, when wall clock does (so absence of data is noticed, without wall clock racing ahead of a
 * replay); on close, every rule in force for the app and metric
 * is evaluated at the minute's end over exactly its lookback of windows, and the result goes through the alert
 * state machine. The punctuator also resolves open alerts whose rule was deleted, disabled or narrowed.
 */
public final class MetricAlertProcessor implements Processor<String, DomainMetric, String, Object> {
    /** At most this many minutes are evaluated when a series catches up after a long gap; older ones are skipped. */
    static final int MAX_CATCH_UP_MINUTES = 120;

    private static final long MIN = MetricAggregate.MINUTE_MS;

    /** The stores it owns (windows, series, alerts) and the global ones it reads (rules, silences, acks). */
    public record Stores(String windows, String series, String rules, String alerts, String silences, String acks) {}

    private final AlertingConfig config;
    private final Stores stores;
    private final String alertsChild;
    private final String deadLetterChild;
    private final MetricRules rules;
    private final AlertEmitter.Counters counters;
    private final Counter lateMetrics;
    private final Counter expiredMetrics;

    private ProcessorContext<String, Object> context;
    private WindowStore<String, MetricAggregate> windows;
    /** Each series' state as persisted (minutes closed, classes seen), read on every metric. */
    private MirroredStore<SeriesState, SeriesState> series;

    private ReadOnlyKeyValueStore<String, AlertRule> publishedRules;
    private AlertEmitter emitter;
    /**
     * Each series' event-time high-water mark, when newer than its persisted one: deliberately not state (never
     * written, forgotten on init), since after a restart a lower mark only closes a minute at the next record.
     */
    private final Map<String, Long> highWater = new HashMap<>();

    private long lastRecordWallClock;

    public MetricAlertProcessor(
            AlertingConfig config,
            Stores stores,
            String alertsChild,
            String deadLetterChild,
            AlertEmitter.Counters counters,
            Counter lateMetrics,
            Counter expiredMetrics) {
        this.config = config;
        this.stores = stores;
        this.alertsChild = alertsChild;
        this.deadLetterChild = deadLetterChild;
        this.rules = new MetricRules(new AlertLinks(config.consoleUrl()));
        this.counters = counters;
        this.lateMetrics = lateMetrics;
        this.expiredMetrics = expiredMetrics;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.windows = context.getStateStore(stores.windows());
        this.series = MirroredStore.load(context.getStateStore(stores.series()));
        this.publishedRules = context.getStateStore(stores.rules());
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
        highWater.clear(); // init runs again on a revived task, whose stores were restored to the last commit
        lastRecordWallClock = context.currentSystemTimeMs();
        context.schedule(config.punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, DomainMetric> record) {
        DomainMetric m = record.value();
        if (m == null || record.key() == null || !record.key().equals(m.key())) {
            DeadLetter letter = DeadLetters.invalid(
                    context,
                    record.key(),
                    m,
                    m == null ? "tombstone on the metrics topic" : "record key does not equal appId/metricName");
            context.forward(
                    new Record<String, Object>(record.key(), letter, context.currentSystemTimeMs()), deadLetterChild);
            return;
        }
        lastRecordWallClock = context.currentSystemTimeMs();
        long minute = MetricAggregate.minuteOf(m.timestamp());
        SeriesState s = current(m.key());
        boolean fresh = s == null;
        if (fresh) {
            s = new SeriesState(m.appId(), m.metricName(), minute, m.timestamp(), List.of());
        }
        if (minute < s.closedUpTo() - config.metricRetention().toMillis()) {
            expiredMetrics.increment();
            return;
        }
        if (minute < s.closedUpTo()) {
            lateMetrics.increment(); // kept in its window for queries; its minute's rules have already run
        }
        String windowKey = MetricKey.of(m).storeKey();
        MetricAggregate agg = windows.fetch(windowKey, minute);
        if (agg == null) {
            agg = MetricAggregate.windowFor(m);
        }
        // (the window store is cached: repeated updates of one minute are coalesced before the changelog)
        windows.put(windowKey, agg.add(m), minute);
        SeriesState before = s;
        SeriesState seen = s.seen(m.statusClass(), m.timestamp());
        s = close(seen, seen.maxTimestamp() - config.metricGrace().toMillis());
        // Persist only what decides output (minutes closed, classes to fetch); a high-water mark that alone moved
        // is kept in memory only.
        if (before.closedUpTo() != s.closedUpTo() || !before.statusClasses().equals(s.statusClasses()) || fresh) {
            series.put(s.key(), s);
            highWater.remove(s.key());
        } else {
            highWater.put(s.key(), s.maxTimestamp());
        }
    }

    /** The series' persisted state with its in-memory high-water mark, or null for a series not seen yet. */
    private SeriesState current(String key) {
        SeriesState s = series.get(key);
        Long mark = highWater.get(key);
        return s == null || mark == null || mark <= s.maxTimestamp() ? s : s.withMaxTimestamp(mark);
    }

    /** Closes every minute whose end is at or before {@code watermark}, evaluating the rules in force at each. */
    private SeriesState close(SeriesState s, long watermark) {
        long target = Math.floorDiv(watermark, MIN) * MIN;
        if (target <= s.closedUpTo()) {
            return s;
        }
        long start = Math.max(s.closedUpTo(), target - MAX_CATCH_UP_MINUTES * MIN);
        List<AlertRule> applicable = new ArrayList<>();
        int lookback = 0;
        for (AlertRule r : DefaultRules.effective(publishedRules).values()) {
            if (r.enabled() && r.metricName().equals(s.metricName()) && r.appliesTo(s.appId())) {
                applicable.add(r);
                lookback = Math.max(lookback, MetricRules.lookbackMinutes(r));
            }
        }
        if (!applicable.isEmpty()) {
            List<MetricAggregate> fetched = fetch(s, start + MIN - lookback * MIN, target - MIN);
            for (long end = start + MIN; end <= target; end += MIN) {
                for (AlertRule r : applicable) {
                    rules.evaluate(r, s.appId(), end, fetched).evaluation().ifPresent(emitter::apply);
                }
            }
        }
        return s.closedUpTo(target);
    }

    private List<MetricAggregate> fetch(SeriesState s, long fromMinute, long toMinute) {
        List<MetricAggregate> out = new ArrayList<>();
        for (String cls : s.statusClasses()) {
            String key = new MetricKey(s.appId(), s.metricName(), cls).storeKey();
            try (var it = windows.fetch(key, fromMinute, toMinute)) {
                it.forEachRemaining(kv -> out.add(kv.value));
            }
        }
        return out;
    }

    /**
     * Closes minutes of quiet series: up to the task's stream time (other series' data moved event time on, so
     * a series that stopped sending is evaluated too, deterministically on a replay), and, when the whole task
     * has been idle for {@code idleClose}, up to wall clock (no data at all is noticed as well).
     */
    void punctuate(long now) {
        long watermark = context.currentStreamTimeMs() - config.metricGrace().toMillis();
        if (now - lastRecordWallClock >= config.idleClose().toMillis()) {
            watermark = Math.max(watermark, now - config.metricGrace().toMillis());
        }
        for (String key : series.keys()) {
            SeriesState s = current(key);
            SeriesState next = close(s, watermark);
            if (next != s) {
                series.put(next.key(), next);
                highWater.remove(next.key());
            }
        }
        resolveOrphans(now);
    }

    /** Open alerts whose rule no longer applies (deleted, disabled, narrowed to other apps) are resolved. */
    private void resolveOrphans(long now) {
        List<AlertStateRecord> open = emitter.open();
        if (open.isEmpty()) {
            return;
        }
        Map<String, AlertRule> inForce = DefaultRules.effective(publishedRules);
        for (AlertStateRecord a : open) {
            String ruleId = a.attributes().get("ruleId");
            String appId = a.attributes().get("appId");
            AlertRule r = ruleId == null ? null : inForce.get(ruleId);
            String why = r == null ? "deleted" : !r.enabled() ? "disabled" : !r.appliesTo(appId) ? "changed" : null;
            if (why != null) {
                SeriesState s = appId == null || r == null ? null : current(appId + "/" + r.metricName());
                long at = Math.max(a.lastEvaluated(), s == null ? a.lastEvaluated() : s.closedUpTo());
                emitter.forceResolve(a.fingerprint(), at, "Resolved: rule " + ruleId + " was " + why);
            }
        }
    }
}
