package dev.vigil.probe.probe;

import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.window.Windows;
import java.util.EnumMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Routes a monitor to the probe of its {@link MonitorDefinition#type() type}. Heartbeat monitors are pushed to, not
 * probed: they complete empty here (and the scheduler never starts them), so a stray definition cannot turn into a
 * fabricated result.
 *
 * <p>A timeout that this worker could not itself enforce on time is the worker's gap, not the target's failure: when a
 * probe ends in a timeout more than {@link #STARVED_DEADLINE_MS} after its deadline, the worker's own threads were
 * starved (a machine saturated, a long pause) and the time it measured is mostly its own. Such a probe is published as
 * skipped ({@code overloaded}): the verdict counts the region as missing and the worker's skip count (and its
 * self-alert) says so, instead of a page that calls a healthy target down.
 *
 * <p>The same holds for a timeout in the worker's first {@link #WARM_UP_MS} (its warm-up): its code is not compiled
 * yet, every connection and name is new, and a fleet's first probes all start at once, so a timeout then says more
 * about the cold worker than about the target (measured: a standalone started with 10,000 monitors paged hundreds of
 * healthy targets down in its first window, every failure a timeout). Such a probe is skipped ({@code overloaded}) too:
 * a target that hangs is paged one window later, and any other failure (refused, reset, a wrong status, a failed
 * assertion) counts at once. The region watch does not judge a worker's skips over the same first span.
 *
 * <p>And the same holds for a timeout while the worker's own threads stalled for {@link #STARVED_DEADLINE_MS} or more
 * ({@link StallWatch}: the process not scheduled on a saturated host, a long GC pause): the wait it measured was partly
 * its own, even when its deadline then fired on time.
 */
public final class Probes implements Probe {
    /** How late a probe's own deadline may fire before the timeout says more about the worker than the target. */
    public static final long STARVED_DEADLINE_MS = 250;
    /** How long after the worker starts a timeout is the cold worker's, not the target's (see the class comment). */
    public static final long WARM_UP_MS = Windows.WORKER_WARM_UP_MS;

    private final Map<CheckType, Probe> byType;
    private final long warmUntil;
    private final StallWatch.Stalls stalls;

    /** Probes without a warm-up (a timeout is the target's from the start). */
    public Probes(Map<CheckType, Probe> byType) {
        this(byType, Long.MIN_VALUE);
    }

    /** Probes that know of no stall of their worker. */
    public Probes(Map<CheckType, Probe> byType, long warmUntil) {
        this(byType, warmUntil, StallWatch.Stalls.NONE);
    }

    /**
     * @param byType    a probe for every probed type; a missing one is a wiring error, reported at construction
     * @param warmUntil epoch ms until which a timeout is the worker's own (its start plus {@link #WARM_UP_MS})
     * @param stalls    the worker's own stalls, from its {@link StallWatch}
     */
    public Probes(Map<CheckType, Probe> byType, long warmUntil, StallWatch.Stalls stalls) {
        this.warmUntil = warmUntil;
        this.stalls = java.util.Objects.requireNonNull(stalls, "stalls");
        EnumMap<CheckType, Probe> copy = new EnumMap<>(CheckType.class);
        copy.putAll(byType);
        for (CheckType t : CheckType.values()) {
            if (t != CheckType.HEARTBEAT && !copy.containsKey(t)) {
                throw new IllegalArgumentException("no probe for check type " + t.wire());
            }
        }
        copy.remove(CheckType.HEARTBEAT);
        this.byType = copy;
    }

    /**
     * The worker's probes: one per type, sharing the SSRF guard and the settings, warming up for {@link #WARM_UP_MS}
     * from now on the settings' clock, knowing of no stall.
     */
    public static Probes standard(TargetGuard guard, ProbeSettings settings) {
        return standard(guard, settings, StallWatch.Stalls.NONE);
    }

    /** The worker's probes, as {@link #standard(TargetGuard, ProbeSettings)}, judging timeouts by its stalls. */
    public static Probes standard(TargetGuard guard, ProbeSettings settings, StallWatch.Stalls stalls) {
        return new Probes(
                Map.of(
                        CheckType.HTTP, new HttpProbe(guard, settings),
                        CheckType.TCP, new TcpProbe(guard, settings),
                        CheckType.TLS, new TlsProbe(guard, settings),
                        CheckType.DNS, new DnsProbe(guard, settings)),
                settings.wallClock().getAsLong() + WARM_UP_MS,
                stalls);
    }

    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        if (!monitor.isProbed()) {
            return Mono.empty();
        }
        return byType.get(monitor.type()).probe(monitor, windowStart).map(r -> {
            if (starved(monitor, r)) {
                return skipped(
                        r,
                        "not probed faithfully: its timeout fired " + r.totalMs()
                                + " ms after the start, the worker was" + " overloaded");
            }
            long stalled = stalledFor(monitor, r);
            if (stalled >= STARVED_DEADLINE_MS) {
                return skipped(
                        r,
                        "not probed faithfully: it timed out while the worker's own threads stalled " + stalled
                                + " ms, the worker's host was overloaded");
            }
            if (warmingUp(r)) {
                return skipped(
                        r,
                        "not probed faithfully: it timed out in the worker's first " + WARM_UP_MS / 1000
                                + " s, while the worker was still cold");
            }
            return r;
        });
    }

    /** A timeout of a probe that started during the worker's warm-up (see the class comment). */
    boolean warmingUp(ProbeResult r) {
        return timedOut(r) && r.startedAt() < warmUntil;
    }

    /** For a timeout, the worker's worst stall while the probe ran (see the class comment); 0 for any other result. */
    long stalledFor(MonitorDefinition monitor, ProbeResult r) {
        if (!timedOut(r)) {
            return 0;
        }
        return stalls.worstMs(r.startedAt(), r.startedAt() + Math.max(waitedMs(r), monitor.timeoutMs()));
    }

    /** A timeout measured well past the probe's own deadline (see the class comment). */
    static boolean starved(MonitorDefinition monitor, ProbeResult r) {
        return timedOut(r) && waitedMs(r) > monitor.timeoutMs() + STARVED_DEADLINE_MS;
    }

    private static boolean timedOut(ProbeResult r) {
        return r.errorKind() == ErrorKind.TIMEOUT || r.errorKind() == ErrorKind.CONNECT_TIMEOUT;
    }

    /** How long the probe waited, as it measured it. */
    private static long waitedMs(ProbeResult r) {
        return Math.max(r.totalMs() == null ? 0 : r.totalMs(), r.responseMs() == null ? 0 : r.responseMs());
    }

    private static ProbeResult skipped(ProbeResult r, String detail) {
        return new ProbeResult(
                r.schemaVersion(),
                r.monitorId(),
                r.region(),
                r.workerId(),
                r.windowStart(),
                r.startedAt(),
                Outcome.SKIPPED,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                detail,
                r.requestId(),
                r.checkType(),
                null,
                SkipReason.OVERLOADED);
    }
}
