package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * Collects probe results per (monitorId, windowStart) and emits exactly one verdict per window:
 * as soon as every expected region has reported, or at the window's deadline on wall clock, enforced by a
 * punctuator so that a silent fleet still yields verdicts ({@code unknown} when nothing arrived). Results
 * arriving after their window's verdict are counted and dropped.
 *
 * <p>Each monitor's windows and deadlines come from its {@link MonitorWindows}: the collection deadline of aligned
 * interval windows for the probed types; for a heartbeat monitor its schedule's windows (interval or cron), due at
 * the window's end plus its grace, and a window without a ping by then is decided {@code down} with a missed
 * heartbeat as the push region's result. A heartbeat window's first ping decides it at once (push is its only
 * region), so later pings of the window are late; only while an earlier window is still undecided (missed, in its
 * grace) does it wait for that one, so a monitor's heartbeat verdicts always go out in window order.
 *
 * <p>Input: the co-partitioned {@code vigil.monitors} (values {@link MonitorDefinition}, null = deleted) and
 * {@code vigil.probe-results} (values {@link ProbeResult}), both keyed by monitor id. Output: verdicts to
 * {@link #verdictsChild} and dead letters to {@link #deadLetterChild}.
 *
 * <p>Exactly once per window, across restarts: every decision is recorded in changelogged stores in the
 * same exactly_once_v2 transaction as the output record; a window counts as decided when the history
 * store holds its verdict. The in-memory indexes below are caches of the stores, rebuilt in {@link #init}.
 */
public final class VerdictProcessor implements Processor<String, Object, String, Object> {
    public static final String DEFINITIONS_STORE = "monitor-definitions";
    public static final String PENDING_STORE = "verdict-pending";
    public static final String CURSOR_STORE = "verdict-cursor";
    public static final String STATUS_STORE = "monitor-status-latest";
    public static final String HISTORY_STORE = "verdict-history";

    private final TopologyConfig config;
    private final String monitorsTopic;
    private final String verdictsChild;
    private final String deadLetterChild;
    private final VerdictMetrics metrics;

    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, MonitorDefinition> definitions;
    private KeyValueStore<String, PendingWindow> pending;
    private KeyValueStore<String, Long> cursors;
    private KeyValueStore<String, MonitorStatus> latest;
    private WindowStore<String, MonitorStatus> history;

    private final Map<String, MonitorDefinition> definitionCache = new HashMap<>();
    /** monitorId -> the windows of its cached definition (replaced with the definition). */
    private final Map<String, MonitorWindows> windowsCache = new HashMap<>();
    private final Map<String, Long> cursorCache = new HashMap<>();
    /**
     * pending store key -> the window as last written to the store: the punctuator finds due windows without a
     * scan, and a result extends its window without reading and decoding it from the store.
     */
    private final Map<String, PendingWindow> pendingIndex = new HashMap<>();
    /** monitorId -> the latest decided window start: a window after it cannot have been decided yet. */
    private final Map<String, Long> latestDecided = new HashMap<>();
    private long holdDeadlinesUntil;

    public VerdictProcessor(TopologyConfig config, String verdictsChild, String deadLetterChild, VerdictMetrics metrics) {
        this.config = config;
        this.monitorsTopic = config.topics().monitors();
        this.verdictsChild = verdictsChild;
        this.deadLetterChild = deadLetterChild;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.definitions = context.getStateStore(DEFINITIONS_STORE);
        this.pending = context.getStateStore(PENDING_STORE);
        skipTombstonesOfUnwrittenWindows(pending);
        this.cursors = context.getStateStore(CURSOR_STORE);
        this.latest = context.getStateStore(STATUS_STORE);
        this.history = context.getStateStore(HISTORY_STORE);
        // Kafka Streams calls init again on this same instance when it revives a task (EOS: the stores are wiped and
        // restored to the last commit): what the caches learned from the aborted transaction must go with it.
        definitionCache.clear();
        windowsCache.clear();
        cursorCache.clear();
        latestDecided.clear();
        pendingIndex.clear();
        try (var it = definitions.all()) {
            it.forEachRemaining(kv -> definitionCache.put(kv.key, kv.value));
        }
        try (var it = cursors.all()) {
            it.forEachRemaining(kv -> cursorCache.put(kv.key, kv.value));
        }
        rebuildLatest();
        try (var it = pending.all()) {
            it.forEachRemaining(kv -> pendingIndex.put(kv.key, kv.value));
        }
        // After a restart the backlog of results may still be unread: give it one grace period before deadlines
        // turn silence into verdicts, so buffered results are not declared late.
        holdDeadlinesUntil = context.currentSystemTimeMs() + config.verdict().grace().toMillis();
        context.schedule(config.verdict().punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /**
     * The latest-status store has no changelog (one record less per window): each monitor's entry is the newest
     * verdict in its history, so it is rebuilt from there on every init, for the monitors this task knows (a deleted
     * monitor has no definition and no latest status; a disabled one keeps its last).
     */
    private void rebuildLatest() {
        List<String> stale = new ArrayList<>();
        try (var it = latest.all()) {
            it.forEachRemaining(kv -> stale.add(kv.key));
        }
        stale.forEach(latest::delete);
        for (String monitorId : definitionCache.keySet()) {
            try (var it = history.backwardFetch(monitorId, 0L, Long.MAX_VALUE)) {
                if (it.hasNext()) {
                    MonitorStatus newest = it.next().value;
                    latest.put(monitorId, newest);
                    latestDecided.put(monitorId, newest.windowStart());
                }
            }
        }
    }

    @Override
    public void process(Record<String, Object> record) {
        Object value = record.value();
        if (value instanceof ProbeResult result) {
            onResult(record.key(), result);
        } else if (value instanceof MonitorDefinition definition) {
            onDefinition(record.key(), definition);
        } else if (value == null && isMonitorsTopic()) {
            onDelete(record.key());
        } else {
            deadLetter(record.key(), value, value == null ? "tombstone on the probe-results topic" : "unexpected value type");
        }
    }

    private boolean isMonitorsTopic() {
        return context.recordMetadata().map(m -> monitorsTopic.equals(m.topic())).orElse(false);
    }

    private void onResult(String key, ProbeResult result) {
        if (key == null || !key.equals(result.monitorId())) {
            deadLetter(key, result, "record key does not equal monitorId");
            return;
        }
        MonitorDefinition def = definitionCache.get(key);
        if (def == null || !def.enabled()) {
            metrics.unmonitored();
            return;
        }
        long windowStart = result.windowStart();
        MonitorWindows windows = windows(def);
        if (!def.isProbed() && !MonitorDefinition.PUSH_REGION.equals(result.region())) {
            deadLetter(key, result, "a heartbeat monitor's results are its pings (region push), not probes");
            return;
        }
        if (!windows.isStart(windowStart)) {
            deadLetter(key, result, windows.misaligned());
            return;
        }
        long now = context.currentSystemTimeMs();
        if (decided(key, windowStart) || windows.deadline(windowStart) < now - config.verdict().historyRetention().toMillis()) {
            metrics.late();
            return;
        }
        String pendingKey = PendingWindow.key(key, windowStart);
        PendingWindow window = pendingIndex.get(pendingKey);
        if (window == null) {
            window = PendingWindow.empty(key, windowStart);
        }
        if (window.results().containsKey(result.region())) {
            metrics.duplicate();
            return;
        }
        window = window.with(result.region(), RegionResult.of(result));
        if (VerdictRule.complete(def.regions(), window.results()) && !heldBack(def, windows, windowStart)) {
            emit(def, window, VerdictMetrics.Trigger.COMPLETE, now);
        } else {
            pending.put(pendingKey, window);
            pendingIndex.put(pendingKey, window);
        }
    }

    private void onDefinition(String key, MonitorDefinition def) {
        if (key == null || !key.equals(def.id())) {
            deadLetter(key, def, "record key does not equal the monitor id");
            return;
        }
        definitions.put(key, def);
        definitionCache.put(key, def);
        windowsCache.remove(key);
        if (!def.enabled()) {
            dropMonitorState(key);
            return;
        }
        // Regions removed mid-window can make a pending window complete: emit it now rather than at the deadline.
        long now = context.currentSystemTimeMs();
        for (PendingWindow window : pendingOf(key)) {
            if (VerdictRule.complete(def.regions(), window.results()) && !heldBack(def, windows(def), window.windowStart())) {
                emit(def, window, VerdictMetrics.Trigger.DEFINITION_CHANGE, now);
            }
        }
    }

    private void onDelete(String key) {
        if (key == null) {
            return;
        }
        definitions.delete(key);
        definitionCache.remove(key);
        windowsCache.remove(key);
        dropMonitorState(key);
        // A deleted monitor leaves the fleet status; its verdict history stays until retention expires.
        latest.delete(key);
        latestDecided.remove(key);
    }

    private void dropMonitorState(String monitorId) {
        for (PendingWindow window : pendingOf(monitorId)) {
            String k = PendingWindow.key(monitorId, window.windowStart());
            removePending(k);
            pendingIndex.remove(k);
        }
        cursors.delete(monitorId);
        cursorCache.remove(monitorId);
    }

    private List<PendingWindow> pendingOf(String monitorId) {
        List<PendingWindow> windows = new ArrayList<>();
        try (var it = pending.prefixScan(PendingWindow.prefix(monitorId), Serdes.String().serializer())) {
            it.forEachRemaining(kv -> windows.add(kv.value));
        }
        return windows;
    }

    /** Wall-clock punctuation: decide windows whose deadline passed, then turn silent windows into {@code unknown}. */
    void punctuate(long now) {
        if (now < holdDeadlinesUntil) {
            return;
        }
        List<String> due = new ArrayList<>();
        for (var e : pendingIndex.entrySet()) {
            PendingWindow window = e.getValue();
            MonitorDefinition def = definitionCache.get(window.monitorId());
            if (def == null || !def.enabled()) {
                due.add(e.getKey());
                continue;
            }
            MonitorWindows windows = windows(def);
            if (windows.decidesInOrder() && !behindCursor(def.id(), window.windowStart())) {
                continue; // decided by the in-order sweep of emitSilentWindows
            }
            if (windows.deadline(window.windowStart()) <= now) {
                due.add(e.getKey());
            }
        }
        due.sort(null); // keys sort by monitor, then window start: each monitor's windows are decided in order
        for (String key : due) {
            PendingWindow window = pendingIndex.remove(key);
            removePending(key);
            MonitorDefinition def = definitionCache.get(window.monitorId());
            if (def != null && def.enabled()) {
                emit(def, windows(def).atDeadline(window), VerdictMetrics.Trigger.DEADLINE, now);
            }
        }
        for (MonitorDefinition def : definitionCache.values()) {
            if (def.enabled()) {
                emitSilentWindows(def, now);
            }
        }
    }

    private void emitSilentWindows(MonitorDefinition def, long now) {
        MonitorWindows windows = windows(def);
        Long stored = cursorCache.get(def.id());
        if (stored == null) {
            // Responsibility starts with the first whole window after the monitor became known here.
            long first = windows.firstStartAfter(now);
            cursorCache.put(def.id(), first);
            cursors.put(def.id(), first);
            return;
        }
        // a cursor of an earlier definition (another interval or schedule) moves to this one's next window start
        long cursor = windows.startAtOrAfter(stored);
        if (windows.decidesInOrder()) {
            cursor = sweepInOrder(def, windows, cursor, now);
        } else {
            int budget = config.verdict().maxBackfillWindows();
            while (budget-- > 0 && windows.deadline(cursor) <= now) {
                if (!decided(def.id(), cursor) && !pendingIndex.containsKey(PendingWindow.key(def.id(), cursor))) {
                    emit(def, PendingWindow.empty(def.id(), cursor), VerdictMetrics.Trigger.DEADLINE, now);
                }
                cursor = windows.next(cursor);
            }
        }
        if (cursor != stored) {
            cursorCache.put(def.id(), cursor);
            cursors.put(def.id(), cursor);
        }
    }

    private void emit(MonitorDefinition def, PendingWindow window, VerdictMetrics.Trigger trigger, long now) {
        String pendingKey = PendingWindow.key(def.id(), window.windowStart());
        if (pendingIndex.remove(pendingKey) != null) {
            removePending(pendingKey);
        }
        MonitorStatus verdict = VerdictRule.verdict(def.id(), window.windowStart(), def.regions(), window.results(), now);
        history.put(def.id(), verdict, window.windowStart());
        Long previous = latestDecided.get(def.id());
        if (previous == null || previous <= verdict.windowStart()) {
            latest.put(def.id(), verdict);
            latestDecided.put(def.id(), verdict.windowStart());
        }
        metrics.emitted(trigger, verdict.status());
        // Event time of a verdict is its window start; a window "from the future" (a worker's clock ahead) is
        // stamped now, since brokers reject timestamps too far ahead.
        context.forward(new Record<String, Object>(def.id(), verdict, Math.min(window.windowStart(), now)), verdictsChild);
    }

    /**
     * Nearly every window is opened and removed within one commit interval, so only the record cache ever held it; yet
     * on flush the cache writes a tombstone for it to the store below and to the changelog (one record per window).
     * Kafka Streams' caching layer skips a removal whose key the store below never held when the cache has a flush
     * listener (the layer's KTable path), so the pending store gets one that does nothing. This is Kafka Streams'
     * internal API ({@code CachedStateStore}); without a caching layer the call does nothing.
     */
    @SuppressWarnings("unchecked")
    private static void skipTombstonesOfUnwrittenWindows(KeyValueStore<String, PendingWindow> store) {
        if (store instanceof CachedStateStore<?, ?> cached) {
            ((CachedStateStore<String, PendingWindow>) cached).setFlushListener(record -> { }, false);
        }
    }

    /** {@code put(key, null)} deletes like {@code delete(key)} without reading and decoding the old value back. */
    private void removePending(String key) {
        pending.put(key, null);
    }

    private boolean decided(String monitorId, long windowStart) {
        Long latestWindow = latestDecided.get(monitorId);
        if (latestWindow == null || windowStart > latestWindow) {
            return false; // the common case, a new window: no store read
        }
        return history.fetch(monitorId, windowStart) != null;
    }

    /**
     * The sweep of a monitor whose verdicts go out in window order (heartbeat): from the cursor, each window is
     * released when it is held back complete (its ping came while an earlier window was undecided), skipped when it
     * was decided early, and decided with what it has at its deadline; the sweep stops at the first window that is
     * neither decided nor due. Returns the new cursor.
     */
    private long sweepInOrder(MonitorDefinition def, MonitorWindows windows, long cursor, long now) {
        int budget = config.verdict().maxBackfillWindows();
        while (budget-- > 0) {
            PendingWindow waiting = pendingIndex.get(PendingWindow.key(def.id(), cursor));
            if (waiting != null) {
                boolean complete = VerdictRule.complete(def.regions(), waiting.results());
                if (!complete && windows.deadline(cursor) > now) {
                    break;
                }
                emit(def, windows.atDeadline(waiting),
                        complete ? VerdictMetrics.Trigger.COMPLETE : VerdictMetrics.Trigger.DEADLINE, now);
            } else if (!decided(def.id(), cursor)) {
                if (windows.deadline(cursor) > now) {
                    break;
                }
                emit(def, windows.atDeadline(PendingWindow.empty(def.id(), cursor)), VerdictMetrics.Trigger.DEADLINE, now);
            }
            cursor = windows.next(cursor);
        }
        return cursor;
    }

    /**
     * True when a complete window must wait because its monitor decides in window order and an earlier window it is
     * responsible for (from the cursor on) is still undecided: a heartbeat window missed and still in its grace when
     * the next window's ping arrives must be {@code down} before the next is {@code up}, or alerting, which ignores a
     * verdict older than the last one it applied, would never see the missed run.
     */
    private boolean heldBack(MonitorDefinition def, MonitorWindows windows, long windowStart) {
        if (!windows.decidesInOrder()) {
            return false;
        }
        Long stored = cursorCache.get(def.id());
        if (stored == null) {
            return false; // responsible for no window yet
        }
        int budget = config.verdict().maxBackfillWindows();
        for (long w = windows.startAtOrAfter(stored); w < windowStart && budget-- > 0; w = windows.next(w)) {
            if (!decided(def.id(), w)) {
                return true;
            }
        }
        return false;
    }

    /** A pending window the monitor's silent-window cursor has passed (left behind by a schedule change). */
    private boolean behindCursor(String monitorId, long windowStart) {
        Long cursor = cursorCache.get(monitorId);
        return cursor != null && windowStart < cursor;
    }

    /** The windows of a cached definition, made once per definition (a heartbeat's remembers its last window). */
    private MonitorWindows windows(MonitorDefinition def) {
        MonitorWindows windows = windowsCache.get(def.id());
        if (windows == null) {
            windows = MonitorWindows.of(def, config.verdict().grace().toMillis());
            windowsCache.put(def.id(), windows);
        }
        return windows;
    }

    private void deadLetter(String key, Object value, String reason) {
        metrics.invalid();
        DeadLetter letter = DeadLetters.invalid(context, key, value, reason);
        context.forward(new Record<String, Object>(key, letter, context.currentSystemTimeMs()), deadLetterChild);
    }
}
