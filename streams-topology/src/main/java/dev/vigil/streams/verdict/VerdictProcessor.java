package dev.vigil.streams.verdict;

import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetters;
import dev.vigil.streams.store.MirroredStore;
import dev.vigil.streams.trace.HopSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Collects probe results per (monitorId, windowStart) and emits exactly one verdict per window:
 * as soon as every expected region has reported, or at the window's deadline on wall clock, enforced by a
 * punctuator so that a silent fleet still yields verdicts ({@code unknown} when nothing arrived). Results
 * arriving after their window's verdict are counted and dropped. A skipped result (the worker did not probe, and says
 * why) is kept in the pending window as the region's skip: it completes the window like a result, the verdict counts
 * the region as missing and names the skip, and a real result of the same region that still arrives replaces it.
 *
 * <p>Each monitor's windows and deadlines come from its {@link MonitorWindows}: the collection deadline of aligned
 * interval windows for the probed types; for a heartbeat monitor its schedule's windows (interval or cron), due at
 * the window's end plus its grace, and a window without a ping by then is decided {@code down} with a missed
 * heartbeat as the push region's result. A heartbeat window's first ping decides it at once (push is its only
 * region), so later pings of the window are late; only while an earlier window is still undecided (missed, in its
 * grace) does it wait for that one, so a monitor's heartbeat verdicts always go out in window order.
 *
 * <p>Input: the co-partitioned {@code vigil.monitors} and {@code vigil.probe-results}, both keyed by monitor id, as
 * {@link VerdictInput}s. Output: {@link MonitorEvent}s (verdicts, TLS observations, disabled and deleted monitors,
 * each with its definition) to {@link #eventsChild} and dead letters to {@link #deadLetterChild}.
 *
 * <p>A deadline turns missing results into a verdict only when they are missing, not unread: while this task reads its
 * results behind the wall clock (the last result it processed was produced more than the grace ago, and results are
 * still coming in), a due window is decided only once the task's stream time has passed its deadline, since until
 * then its results may sit in the backlog (Streams starved of CPU, catching up after a pause). The hold ends when the
 * input catches up, stops (a silent fleet still yields verdicts), or after {@link #BACKLOG_HOLD_MAX_MS}.
 *
 * <p>Exactly once per window, across restarts: every decision is recorded in changelogged stores in the
 * same exactly_once_v2 transaction as the output record; a window counts as decided when the history
 * store holds its verdict. The stores read per record are {@link MirroredStore}s, made anew in {@link #init}.
 */
public final class VerdictProcessor implements Processor<String, VerdictInput, String, Object> {
    /** The longest a due window waits for a backlog of results: past it, what is missing is decided missing. */
    static final long BACKLOG_HOLD_MAX_MS = 5 * 60_000L;

    /** The names of the stores it owns: definitions, pending windows, cursors, latest status, verdict history. */
    public record Stores(String definitions, String pending, String cursors, String latest, String history) {}

    private final TopologyConfig config;
    private final Stores stores;
    private final String eventsChild;
    private final String deadLetterChild;
    private final VerdictMetrics metrics;

    private ProcessorContext<String, Object> context;
    /** Each monitor's definition, with its windows made once per definition (a heartbeat's remembers its last). */
    private MirroredStore<MonitorDefinition, MonitorWindows> definitions;
    /** The open windows: the punctuator finds due ones without a scan and decoding of the store. */
    private MirroredStore<PendingWindow, PendingWindow> pending;

    private MirroredStore<Long, Long> cursors;
    /** Each monitor's newest verdict: a window after it cannot have been decided yet. */
    private MirroredStore<MonitorStatus, MonitorStatus> latest;

    private WindowStore<String, MonitorStatus> history;
    private long holdDeadlinesUntil;
    /** Wall-clock time the last probe result was processed, and how long after it was produced. */
    private long lastResultReadAt = Long.MIN_VALUE;

    private long lastResultDelayMs;

    private static final AttributeKey<String> MONITOR_ID = AttributeKey.stringKey("vigil.monitor.id");
    private static final AttributeKey<String> STATUS = AttributeKey.stringKey("vigil.verdict.status");
    private static final AttributeKey<String> TRIGGER = AttributeKey.stringKey("vigil.verdict.trigger");
    private static final AttributeKey<Long> WINDOW_START = AttributeKey.longKey("vigil.window.start");

    private final HopSpans spans;
    /** The headers of the result being processed: its trace is the one a verdict it completes continues. */
    private Headers cause;
    /**
     * The trace context of each pending window's latest result, for a verdict decided at its deadline (a region's
     * result late or missing) to continue that trace. In memory only and bounded: after a restart, or past the bound,
     * such a verdict starts a trace of its own — tracing is a view of the pipeline, never a part of its state.
     */
    private final Map<String, Header> pendingTraces = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Header> eldest) {
            return size() > MAX_PENDING_TRACES;
        }
    };

    private static final int MAX_PENDING_TRACES = 100_000;

    public VerdictProcessor(
            TopologyConfig config, Stores stores, String eventsChild, String deadLetterChild, VerdictMetrics metrics) {
        this(config, stores, eventsChild, deadLetterChild, metrics, HopSpans.OFF);
    }

    /** @param spans the verdict's hop of a trace: a verdict a result completed continues that result's trace */
    public VerdictProcessor(
            TopologyConfig config,
            Stores stores,
            String eventsChild,
            String deadLetterChild,
            VerdictMetrics metrics,
            HopSpans spans) {
        this.spans = spans;
        this.config = config;
        this.stores = stores;
        this.eventsChild = eventsChild;
        this.deadLetterChild = deadLetterChild;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        long graceMs = config.verdict().grace().toMillis();
        this.definitions = MirroredStore.load(
                context.getStateStore(stores.definitions()), (id, def) -> MonitorWindows.of(def, graceMs));
        this.pending = MirroredStore.load(context.getStateStore(stores.pending()));
        this.cursors = MirroredStore.load(context.getStateStore(stores.cursors()));
        this.history = context.getStateStore(stores.history());
        this.latest = rebuildLatest(context.getStateStore(stores.latest()));
        // After a restart the backlog of results may still be unread: give it one grace period before deadlines
        // turn silence into verdicts, so buffered results are not declared late.
        holdDeadlinesUntil =
                context.currentSystemTimeMs() + config.verdict().grace().toMillis();
        context.schedule(config.verdict().punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /**
     * The latest-status store has no changelog (one record less per window): each monitor's entry is the newest
     * verdict in its history, so it is rebuilt from there on every init, for the monitors this task knows (a deleted
     * monitor has no definition and no latest status; a disabled one keeps its last).
     */
    private MirroredStore<MonitorStatus, MonitorStatus> rebuildLatest(KeyValueStore<String, MonitorStatus> store) {
        MirroredStore<MonitorStatus, MonitorStatus> rebuilt = MirroredStore.load(store);
        rebuilt.keys().forEach(rebuilt::delete);
        for (String monitorId : definitions.keys()) {
            MonitorStatus newest = LatestStatus.newest(history, monitorId);
            if (newest != null) {
                rebuilt.put(monitorId, newest);
            }
        }
        return rebuilt;
    }

    @Override
    public void process(Record<String, VerdictInput> record) {
        cause = record.headers();
        try {
            dispatch(record);
        } finally {
            cause = null;
        }
    }

    private void dispatch(Record<String, VerdictInput> record) {
        String key = record.key();
        VerdictInput input = record.value();
        if (input instanceof VerdictInput.Result in) {
            if (in.result() == null) {
                deadLetter(key, null, "tombstone on the probe-results topic");
            } else {
                long now = context.currentSystemTimeMs();
                lastResultReadAt = now;
                lastResultDelayMs = now - record.timestamp();
                onResult(key, in.result());
                tlsObserved(key, in.result(), record.timestamp());
            }
        } else if (input instanceof VerdictInput.Definition in) {
            if (in.definition() == null) {
                onDelete(key, record.timestamp());
            } else {
                onDefinition(key, in.definition(), record.timestamp());
            }
        } else {
            deadLetter(key, null, "no verdict input");
        }
    }

    /** After the result was applied (a verdict it completed goes first), the TLS rule hears of its certificate. */
    private void tlsObserved(String key, ProbeResult result, long timestamp) {
        if (result.tlsDaysLeft() == null || key == null) {
            return;
        }
        MonitorDefinition def = definitions.get(result.monitorId());
        if (def != null && def.enabled()) {
            forward(def.id(), new MonitorEvent.TlsObserved(def, result), timestamp);
        }
    }

    private void rememberTrace(String pendingKey) {
        Header parent = cause == null ? null : cause.lastHeader(Tracing.TRACEPARENT);
        if (parent != null) {
            pendingTraces.put(pendingKey, parent);
        }
    }

    private void forward(String key, MonitorEvent event, long timestamp) {
        context.forward(new Record<String, Object>(key, event, timestamp), eventsChild);
    }

    private void forward(String key, MonitorEvent event, long timestamp, Headers headers) {
        context.forward(
                headers == null
                        ? new Record<String, Object>(key, event, timestamp)
                        : new Record<String, Object>(key, event, timestamp, headers),
                eventsChild);
    }

    private void onResult(String key, ProbeResult result) {
        if (key == null || !key.equals(result.monitorId())) {
            deadLetter(key, result, "record key does not equal monitorId");
            return;
        }
        MonitorDefinition def = definitions.get(key);
        if (def == null || !def.enabled()) {
            metrics.unmonitored();
            return;
        }
        long windowStart = result.windowStart();
        MonitorWindows windows = definitions.view(key);
        if (!def.isProbed() && !MonitorDefinition.PUSH_REGION.equals(result.region())) {
            deadLetter(key, result, "a heartbeat monitor's results are its pings (region push), not probes");
            return;
        }
        if (!windows.isStart(windowStart)) {
            deadLetter(key, result, windows.misaligned());
            return;
        }
        long now = context.currentSystemTimeMs();
        if (decided(key, windowStart)
                || windows.deadline(windowStart)
                        < now - config.verdict().historyRetention().toMillis()) {
            metrics.late();
            return;
        }
        String pendingKey = PendingWindow.key(key, windowStart);
        PendingWindow window = pending.get(pendingKey);
        if (window == null) {
            window = PendingWindow.empty(key, windowStart);
        }
        if (result.skipped()) {
            if (window.heardFrom(result.region())) {
                metrics.duplicate(); // a skip says nothing once the region reported (or skipped) already
                return;
            }
            window = window.withSkip(result.region(), result.skipReason());
        } else if (window.results().containsKey(result.region())) {
            metrics.duplicate();
            return;
        } else {
            window = window.with(result.region(), RegionResult.of(result)); // replaces a skip of the region
        }
        if (VerdictRule.complete(def.regions(), window) && !heldBack(def, windows, windowStart)) {
            emit(def, window, VerdictMetrics.Trigger.COMPLETE, now);
        } else {
            pending.put(pendingKey, window);
            rememberTrace(pendingKey);
        }
    }

    private void onDefinition(String key, MonitorDefinition def, long timestamp) {
        if (key == null || !key.equals(def.id())) {
            deadLetter(key, def, "record key does not equal the monitor id");
            return;
        }
        definitions.put(key, def);
        if (!def.enabled()) {
            dropMonitorState(key);
            forward(key, new MonitorEvent.Disabled(def), timestamp);
            return;
        }
        // Regions removed mid-window can make a pending window complete: emit it now rather than at the deadline.
        long now = context.currentSystemTimeMs();
        MonitorWindows windows = definitions.view(key);
        for (PendingWindow window : pending.valuesWithPrefix(PendingWindow.prefix(key))) {
            if (VerdictRule.complete(def.regions(), window) && !heldBack(def, windows, window.windowStart())) {
                emit(def, window, VerdictMetrics.Trigger.DEFINITION_CHANGE, now);
            }
        }
    }

    private void onDelete(String key, long timestamp) {
        if (key == null) {
            return;
        }
        definitions.delete(key);
        dropMonitorState(key);
        // A deleted monitor leaves the fleet status; its verdict history stays until retention expires.
        latest.delete(key);
        forward(key, new MonitorEvent.Deleted(key), timestamp);
    }

    private void dropMonitorState(String monitorId) {
        pending.keysWithPrefix(PendingWindow.prefix(monitorId)).forEach(pending::delete);
        cursors.delete(monitorId);
    }

    /** Wall-clock punctuation: decide windows whose deadline passed, then turn silent windows into {@code unknown}. */
    void punctuate(long now) {
        if (now < holdDeadlinesUntil) {
            return;
        }
        long horizon = deadlineHorizon(now);
        List<PendingWindow> due = new ArrayList<>();
        for (PendingWindow window : pending.values()) { // in key order: by monitor, then window start
            MonitorDefinition def = definitions.get(window.monitorId());
            if (def == null || !def.enabled()) {
                due.add(window);
                continue;
            }
            MonitorWindows windows = definitions.view(def.id());
            if (windows.decidesInOrder() && !behindCursor(def.id(), window.windowStart())) {
                continue; // decided by the in-order sweep of emitSilentWindows
            }
            if (windows.deadline(window.windowStart()) <= horizon) {
                due.add(window);
            }
        }
        for (PendingWindow window : due) {
            pending.delete(PendingWindow.key(window.monitorId(), window.windowStart()));
            MonitorDefinition def = definitions.get(window.monitorId());
            if (def != null && def.enabled()) {
                emit(def, definitions.view(def.id()).atDeadline(window), VerdictMetrics.Trigger.DEADLINE, now);
            }
        }
        for (MonitorDefinition def : new ArrayList<>(definitions.values())) {
            if (def.enabled()) {
                emitSilentWindows(def, now, horizon);
            }
        }
    }

    /**
     * The latest deadline this punctuation may pass: the wall clock, or while the task reads its results behind it
     * (see the class comment) its stream time, held back by at most {@link #BACKLOG_HOLD_MAX_MS}.
     */
    long deadlineHorizon(long now) {
        long grace = config.verdict().grace().toMillis();
        boolean reading = lastResultReadAt != Long.MIN_VALUE && now - lastResultReadAt <= Math.max(grace, 1_000);
        if (!reading || lastResultDelayMs <= grace) {
            return now;
        }
        long horizon = Math.max(Math.min(now, context.currentStreamTimeMs()), now - BACKLOG_HOLD_MAX_MS);
        if (horizon < now) {
            metrics.heldForBacklog();
        }
        return horizon;
    }

    private void emitSilentWindows(MonitorDefinition def, long now, long horizon) {
        MonitorWindows windows = definitions.view(def.id());
        Long stored = cursors.get(def.id());
        if (stored == null) {
            // Responsibility starts with the first whole window after the monitor became known here.
            cursors.put(def.id(), windows.firstStartAfter(now));
            return;
        }
        // a cursor of an earlier definition (another interval or schedule) moves to this one's next window start
        long cursor = windows.startAtOrAfter(stored);
        if (windows.decidesInOrder()) {
            cursor = sweepInOrder(def, windows, cursor, now, horizon);
        } else {
            int budget = config.verdict().maxBackfillWindows();
            while (budget-- > 0 && windows.deadline(cursor) <= horizon) {
                if (!decided(def.id(), cursor) && !pending.containsKey(PendingWindow.key(def.id(), cursor))) {
                    emit(def, PendingWindow.empty(def.id(), cursor), VerdictMetrics.Trigger.DEADLINE, now);
                }
                cursor = windows.next(cursor);
            }
        }
        if (cursor != stored) {
            cursors.put(def.id(), cursor);
        }
    }

    private void emit(MonitorDefinition def, PendingWindow window, VerdictMetrics.Trigger trigger, long now) {
        String pendingKey = PendingWindow.key(def.id(), window.windowStart());
        pending.delete(pendingKey);
        Header remembered = pendingTraces.isEmpty() ? null : pendingTraces.remove(pendingKey);
        MonitorStatus verdict = VerdictRule.verdict(def.regions(), window, now);
        history.put(def.id(), verdict, window.windowStart());
        MonitorStatus previous = latest.get(def.id());
        long newestBefore = previous == null ? Long.MIN_VALUE : previous.windowStart();
        if (newestBefore <= verdict.windowStart()) {
            latest.put(def.id(), verdict);
        }
        metrics.emitted(trigger, verdict.status());
        // Event time of a verdict is its window start; a window "from the future" (a worker's clock ahead) is
        // stamped now, since brokers reject timestamps too far ahead.
        Headers headers = traceOf(def, verdict, trigger, remembered);
        forward(
                def.id(),
                new MonitorEvent.Decided(def, verdict, newestBefore),
                Math.min(window.windowStart(), now),
                headers);
    }

    /** The verdict's hop of its trace: the headers its record carries (null without a trace, as is common). */
    private Headers traceOf(
            MonitorDefinition def, MonitorStatus verdict, VerdictMetrics.Trigger trigger, Header remembered) {
        Headers from = cause != null || remembered == null ? cause : new RecordHeaders().add(remembered);
        if (!spans.recording()) {
            return spans.hop("verdict", from, Attributes.empty());
        }
        return spans.hop(
                "verdict",
                from,
                Attributes.of(
                        MONITOR_ID, def.id(),
                        STATUS, verdict.status().name(),
                        TRIGGER, trigger.name(),
                        WINDOW_START, verdict.windowStart()));
    }

    private boolean decided(String monitorId, long windowStart) {
        MonitorStatus newest = latest.get(monitorId);
        if (newest == null || windowStart > newest.windowStart()) {
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
    private long sweepInOrder(MonitorDefinition def, MonitorWindows windows, long cursor, long now, long horizon) {
        int budget = config.verdict().maxBackfillWindows();
        while (budget-- > 0) {
            PendingWindow waiting = pending.get(PendingWindow.key(def.id(), cursor));
            if (waiting != null) {
                boolean complete = VerdictRule.complete(def.regions(), waiting);
                if (!complete && windows.deadline(cursor) > horizon) {
                    break;
                }
                emit(
                        def,
                        windows.atDeadline(waiting),
                        complete ? VerdictMetrics.Trigger.COMPLETE : VerdictMetrics.Trigger.DEADLINE,
                        now);
            } else if (!decided(def.id(), cursor)) {
                if (windows.deadline(cursor) > horizon) {
                    break;
                }
                emit(
                        def,
                        windows.atDeadline(PendingWindow.empty(def.id(), cursor)),
                        VerdictMetrics.Trigger.DEADLINE,
                        now);
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
        Long stored = cursors.get(def.id());
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
        Long cursor = cursors.get(monitorId);
        return cursor != null && windowStart < cursor;
    }

    private void deadLetter(String key, Object value, String reason) {
        metrics.invalid();
        DeadLetter letter = DeadLetters.invalid(context, key, value, reason);
        context.forward(new Record<String, Object>(key, letter, context.currentSystemTimeMs()), deadLetterChild);
    }
}
