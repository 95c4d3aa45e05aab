package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.streams.topology.StoreKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Daily uptime rollup: counts each window verdict into its monitor's UTC day (the day of the window start).
 * Each verdict passes once (the verdict processor guarantees one per window), so counts are exact.
 */
public final class UptimeProcessor implements Processor<String, MonitorStatus, Void, Void> {
    public static final String STORE = "uptime-daily";
    private static final long DAY_MS = Duration.ofDays(1).toMillis();

    private final int retentionDays;
    private KeyValueStore<String, DailyUptime> store;
    /** monitorId -> its newest day's counts as last written: nearly every verdict adds to that day. */
    private final Map<String, DailyUptime> latestDay = new HashMap<>();

    /** @param retentionDays days kept per monitor (the verdict history retention); older days are deleted */
    public UptimeProcessor(int retentionDays) {
        this.retentionDays = retentionDays;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(STORE);
        latestDay.clear(); // init runs again on a revived task, whose store was restored to the last commit
    }

    @Override
    public void process(Record<String, MonitorStatus> record) {
        MonitorStatus verdict = record.value();
        long day = Math.floorDiv(verdict.windowStart(), DAY_MS);
        String key = key(verdict.monitorId(), day);
        DailyUptime cached = latestDay.get(verdict.monitorId());
        DailyUptime current = cached != null && cached.epochDay() == day ? cached : store.get(key);
        DailyUptime next = (current == null ? DailyUptime.empty(day) : current).plus(verdict.status());
        store.put(key, next);
        if (cached == null || cached.epochDay() <= day) {
            latestDay.put(verdict.monitorId(), next);
        }
        if (current == null) {
            forgetBefore(verdict.monitorId(), day - retentionDays + 1);
        }
    }

    /** A monitor's first window of a new day removes its days that fell out of retention. */
    private void forgetBefore(String monitorId, long firstKeptDay) {
        if (firstKeptDay <= 0) {
            return;
        }
        java.util.List<String> old = new java.util.ArrayList<>();
        try (var it = store.range(key(monitorId, 0), key(monitorId, firstKeptDay - 1))) {
            it.forEachRemaining(kv -> old.add(kv.key));
        }
        old.forEach(store::delete);
    }

    /** Store key: monitor id, a separator sorting after slug characters, and the zero-padded UTC epoch day. */
    public static String key(String monitorId, long epochDay) {
        return StoreKeys.of(monitorId, epochDay, 7);
    }
}
