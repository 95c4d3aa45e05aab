package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.window.Windows;

/**
 * How one monitor's time is cut into windows, and when each window's verdict is due: the only place the verdict
 * processor asks "is this a window start", "which window comes next" and "until when do we wait".
 *
 * <ul>
 *   <li>{@link Probed} (every type but heartbeat): {@code intervalSeconds} windows aligned to the epoch; the verdict is
 *       due at the monitor's own collection deadline ({@link Windows#collectionDeadline}: its scheduled probe start
 *       + timeout + grace), so a fleet's verdicts fall due spread over the window as its probes are. A window
 *       nobody reported for is {@code unknown}: the fleet was silent, which says nothing about the target.</li>
 *   <li>{@link Pushed} (heartbeat): the windows of {@link HeartbeatSchedules} (aligned {@code intervalSeconds}
 *       windows, or cron fire time to next fire time); the verdict is due at the window's end plus the monitor's
 *       {@code graceSeconds} plus the pipeline's {@code verdict.grace} (so a ping accepted just before the end is
 *       not outrun by the deadline on its way through Kafka). A window without a ping by then <em>is</em> the
 *       failure: it is decided with {@link #MISSED_HEARTBEAT} as the push region's result, so it is {@code down}.</li>
 * </ul>
 *
 * <p>Instances belong to one definition and one stream thread: {@link Pushed} remembers the last window it computed,
 * because the punctuator asks for the same deadline every second and a cron window costs a few hundred
 * microseconds to compute.
 */
public sealed interface MonitorWindows permits MonitorWindows.Probed, MonitorWindows.Pushed {

    /** The push region's result in a heartbeat window that got no ping by its deadline. */
    RegionResult MISSED_HEARTBEAT = new RegionResult(Outcome.NETWORK_FAILURE, ErrorKind.MISSED_HEARTBEAT, null, null);

    /** The windows of {@code def}; {@code graceMs} is the pipeline's {@code verdict.grace}. */
    static MonitorWindows of(MonitorDefinition def, long graceMs) {
        return def.isProbed()
                ? new Probed(def.id(), def.intervalMs(), def.timeoutMs(), graceMs)
                : new Pushed(def, graceMs);
    }

    /** True when a window of this monitor starts at {@code t}: a result for any other start is misaligned. */
    boolean isStart(long t);

    /** The start of the window after the one starting at {@code windowStart}. */
    long next(long windowStart);

    /** {@code t} when it is a window start, else the start of the next window. */
    long startAtOrAfter(long t);

    /** The first window that starts strictly after {@code now}: where responsibility for silent windows begins. */
    long firstStartAfter(long now);

    /** Wall-clock time at which the window starting at {@code windowStart} is decided with what it has. */
    long deadline(long windowStart);

    /** The window as decided at its deadline: for a heartbeat window without a ping, with the missed heartbeat. */
    PendingWindow atDeadline(PendingWindow window);

    /** Why a result whose {@code windowStart} is not {@link #isStart a window start} is dead-lettered. */
    String misaligned();

    /**
     * True when verdicts must go out in window order: a complete window waits while an earlier one is undecided.
     * Heartbeat windows need it, since the next window's ping usually arrives within the grace of a missed one.
     */
    boolean decidesInOrder();

    /** Aligned {@code intervalSeconds} windows, decided at the monitor's collection deadline; silence is {@code unknown}. */
    record Probed(String monitorId, long intervalMs, long timeoutMs, long graceMs) implements MonitorWindows {
        @Override
        public boolean isStart(long t) {
            return t % intervalMs == 0;
        }

        @Override
        public long next(long windowStart) {
            return Windows.nextWindowStart(windowStart, intervalMs);
        }

        @Override
        public long startAtOrAfter(long t) {
            return isStart(t) ? t : Windows.nextWindowStart(t, intervalMs);
        }

        @Override
        public long firstStartAfter(long now) {
            return Windows.nextWindowStart(now, intervalMs);
        }

        @Override
        public long deadline(long windowStart) {
            return Windows.collectionDeadline(monitorId, windowStart, intervalMs, timeoutMs, graceMs);
        }

        @Override
        public PendingWindow atDeadline(PendingWindow window) {
            return window;
        }

        @Override
        public String misaligned() {
            return "windowStart is not aligned to the monitor's interval";
        }

        @Override
        public boolean decidesInOrder() {
            return false;
        }
    }

    /** A heartbeat monitor's windows ({@link HeartbeatSchedules}); silence by the deadline is a missed heartbeat. */
    final class Pushed implements MonitorWindows {
        private final MonitorDefinition def;
        private final long afterEndMs;
        private HeartbeatSchedules.Window last;

        Pushed(MonitorDefinition def, long graceMs) {
            this.def = def;
            this.afterEndMs = def.heartbeat().graceSeconds() * 1000L + graceMs;
        }

        private HeartbeatSchedules.Window windowAt(long t) {
            HeartbeatSchedules.Window w = last;
            if (w == null || t < w.start() || t >= w.end()) {
                w = HeartbeatSchedules.windowAt(def, t);
                last = w;
            }
            return w;
        }

        @Override
        public boolean isStart(long t) {
            return t >= 0 && windowAt(t).start() == t;
        }

        @Override
        public long next(long windowStart) {
            return windowAt(windowStart).end();
        }

        @Override
        public long startAtOrAfter(long t) {
            HeartbeatSchedules.Window w = windowAt(t);
            return w.start() == t ? t : w.end();
        }

        @Override
        public long firstStartAfter(long now) {
            return windowAt(now).end();
        }

        @Override
        public long deadline(long windowStart) {
            return windowAt(windowStart).end() + afterEndMs;
        }

        @Override
        public PendingWindow atDeadline(PendingWindow window) {
            return window.results().containsKey(MonitorDefinition.PUSH_REGION)
                    ? window
                    : window.with(MonitorDefinition.PUSH_REGION, MISSED_HEARTBEAT);
        }

        @Override
        public String misaligned() {
            return "windowStart is not a window start of the monitor's heartbeat schedule";
        }

        @Override
        public boolean decidesInOrder() {
            return true;
        }
    }
}
