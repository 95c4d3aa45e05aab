package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.rules.MonitorRules;
import dev.vigil.streams.store.StoreKeys;
import dev.vigil.streams.verdict.MonitorEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Daily uptime rollup: counts each window verdict into its monitor's UTC day (the day of the window start).
 * Each verdict passes once (the verdict processor guarantees one per window), so counts are exact.
 *
 * <p>A window whose start falls inside an occurrence of a maintenance window (a silence with a schedule, see
 * docs/design.md#incident-lifecycle) matching the monitor is also counted as under maintenance, by status; see
 * {@link MaintenanceWindows}
 * for the matching, which is the availability alert's own, at the window start (event time), so a replay over the
 * same silences counts the same. One-off silences are not maintenance: a silence added mid-outage to stop the noise
 * does not excuse the outage. Silences come from the global silences store; in a topology
 * without it (the status half alone) nothing is under maintenance. The definition (service, component) comes with
 * the verdict.
 */
public final class UptimeProcessor implements Processor<String, MonitorEvent, Void, Void> {
    /** The uptime store it owns and the global silences store it reads (absent in a topology without alerting). */
    public record Stores(String uptime, String silences) {}

    private final Stores stores;
    private static final long DAY_MS = Duration.ofDays(1).toMillis();

    private final int retentionDays;
    private KeyValueStore<String, DailyUptime> store;
    private ProcessorContext<Void, Void> context;
    private MaintenanceSnapshot maintenance;

    /** @param retentionDays days kept per monitor (the verdict history retention); older days are deleted */
    public UptimeProcessor(Stores stores, int retentionDays) {
        this.stores = stores;
        this.retentionDays = retentionDays;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        store = context.getStateStore(stores.uptime());
        maintenance = new MaintenanceSnapshot(optionalStore(context, stores.silences()), stores.silences());
    }

    /** The store, or null when this topology (or test context) has none. */
    private static <S> S optionalStore(ProcessorContext<Void, Void> context, String name) {
        try {
            return context.getStateStore(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public void process(Record<String, MonitorEvent> record) {
        if (!(record.value() instanceof MonitorEvent.Decided decided)) {
            return;
        }
        MonitorStatus verdict = decided.verdict();
        long day = Math.floorDiv(verdict.windowStart(), DAY_MS);
        String key = key(verdict.monitorId(), day);
        DailyUptime current = store.get(key);
        DailyUptime next = (current == null ? DailyUptime.empty(day) : current)
                .plus(verdict.status(), underMaintenance(decided.definition(), verdict));
        store.put(key, next);
        if (current == null) {
            forgetBefore(verdict.monitorId(), day - retentionDays + 1);
        }
    }

    /**
     * Whether a maintenance window covers the verdict's window (see {@link MaintenanceWindows}): one is active at the
     * window start and matches fingerprint {@code monitor/<id>}, the definition's service and the availability
     * alert's attributes. The cheap tests come first so that the common cases read no definition: no maintenance
     * window at all, none for this fingerprint, none in force.
     */
    private boolean underMaintenance(MonitorDefinition def, MonitorStatus verdict) {
        List<Silence> windows = maintenance.windows(context.currentSystemTimeMs());
        if (windows.isEmpty()) {
            return false;
        }
        String fingerprint = Fingerprints.monitor(verdict.monitorId());
        Map<String, String> attributes = null;
        for (Silence s : windows) {
            if (!MaintenanceWindows.fingerprintAccepts(s, fingerprint) || !s.activeAt(verdict.windowStart())) {
                continue;
            }
            if (attributes == null) {
                attributes = MonitorRules.attributes(def, verdict);
            }
            if (s.matches(fingerprint, def.service(), attributes)) {
                return true;
            }
        }
        return false;
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
