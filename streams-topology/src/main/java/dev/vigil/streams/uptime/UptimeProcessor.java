package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.MonitorStatus;
import java.time.Duration;
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

    private KeyValueStore<String, DailyUptime> store;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, MonitorStatus> record) {
        MonitorStatus verdict = record.value();
        long day = Math.floorDiv(verdict.windowStart(), DAY_MS);
        String key = key(verdict.monitorId(), day);
        DailyUptime current = store.get(key);
        store.put(key, (current == null ? DailyUptime.empty(day) : current).plus(verdict.status()));
    }

    /** Store key: monitor id, a separator sorting after slug characters, and the zero-padded UTC epoch day. */
    public static String key(String monitorId, long epochDay) {
        return monitorId + "|" + String.format("%07d", epochDay);
    }
}
