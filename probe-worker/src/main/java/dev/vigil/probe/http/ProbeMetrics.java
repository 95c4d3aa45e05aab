package dev.vigil.probe.http;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.probe.publish.ResultPublisher;
import dev.vigil.probe.schedule.ScheduleListener;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The worker's Micrometer meters. Tags are bounded: check type, outcome, error kind, skip reason, delivery result. */
public final class ProbeMetrics implements ScheduleListener, ResultPublisher.Listener {
    private final PrometheusMeterRegistry registry;
    private final Map<String, Counter> results = new ConcurrentHashMap<>();
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();
    private final Map<SkipReason, Counter> skips = new ConcurrentHashMap<>();
    private final Map<CheckType, Counter> notRun = new ConcurrentHashMap<>();
    private final Timer lag;
    private final Counter published;
    private final Counter publishFailed;
    private final Counter heartbeatsAcknowledged;
    private final Counter heartbeatsFailed;
    private final SelfHeals heals;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public ProbeMetrics() {
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        this.lag = Timer.builder("vigil.probe.schedule.lag")
                .description("how late probes start relative to their planned time")
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        this.published = Counter.builder("vigil.probe.published")
                .tag("result", "acknowledged")
                .register(registry);
        this.publishFailed =
                Counter.builder("vigil.probe.published").tag("result", "failed").register(registry);
        this.heartbeatsAcknowledged = Counter.builder("vigil.probe.heartbeats")
                .tag("result", "acknowledged")
                .description("heartbeats by delivery result")
                .register(registry);
        this.heartbeatsFailed = Counter.builder("vigil.probe.heartbeats")
                .tag("result", "failed")
                .description("heartbeats by delivery result")
                .register(registry);
        this.heals = new SelfHeals(registry, SelfHeals.PUBLISH_RETRY_SUCCEEDED);
        for (SkipReason r : SkipReason.values()) {
            skips.put(
                    r,
                    Counter.builder("vigil.probe.skipped.windows")
                            .tag("reason", r.wire())
                            .description("windows not probed")
                            .register(registry));
        }
        // The default check type's successes exist before the first probe, so the dashboard's result and latency
        // panels read 0 on an idle worker instead of "No data". Other types, outcomes and error kinds appear with
        // their first probe (a latency histogram is some 70 series: not made for what a worker may never run).
        resultCounter(CheckType.HTTP.wire(), Outcome.SUCCESS.wire(), "none");
        durationTimer(CheckType.HTTP.wire(), Outcome.SUCCESS.wire());
    }

    private Counter resultCounter(String type, String outcome, String kind) {
        return results.computeIfAbsent(type + "/" + outcome + "/" + kind, k -> Counter.builder("vigil.probe.results")
                .tag("type", type)
                .tag("outcome", outcome)
                .tag("error_kind", kind)
                .register(registry));
    }

    private Timer durationTimer(String type, String outcome) {
        return durations.computeIfAbsent(type + "/" + outcome, k -> Timer.builder("vigil.probe.duration")
                .tag("type", type)
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry));
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Gauges over live state (in flight, monitors assigned). */
    public void bindGauges(Supplier<Number> inFlight, Supplier<Number> monitors) {
        Gauge.builder("vigil.probe.in.flight", inFlight)
                .description("probes running now")
                .register(registry);
        Gauge.builder("vigil.probe.monitors", monitors)
                .description("monitors assigned to this worker")
                .register(registry);
    }

    /** The worker's worst stall of the last minute ({@code StallWatch}): how long its own threads could not run. */
    public void bindStalls(Supplier<Number> worstLastMinuteSeconds) {
        Gauge.builder("vigil.probe.worker.stall", worstLastMinuteSeconds)
                .description("the worker's worst stall in the last minute (its threads not run: host overloaded, GC)")
                .baseUnit("seconds")
                .register(registry);
    }

    /** A probe's result; a skipped one counts as a skipped window, never as a probe's outcome. */
    public void record(ProbeResult r) {
        if (r.skipped()) {
            skipped(r.skipReason(), 1);
            return;
        }
        String outcome = r.outcome().wire();
        String kind = r.errorKind() == null ? "none" : r.errorKind().wire();
        String type = (r.checkType() == null ? CheckType.HTTP : r.checkType()).wire();
        resultCounter(type, outcome, kind).increment();
        if (r.totalMs() != null) {
            durationTimer(type, outcome).record(r.totalMs(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A probe that produced no result for a reason of ours (a secret header's variable unset on this worker, no
     * DNS resolver configured): counted, since nothing else shows it.
     */
    public void notRun(CheckType type) {
        notRun.computeIfAbsent(type, t -> Counter.builder("vigil.probe.not.run")
                        .tag("type", t.wire())
                        .description("probes that produced no result because of this worker's configuration")
                        .register(registry))
                .increment();
    }

    @Override
    public void skipped(SkipReason reason, long windows) {
        skips.get(reason).increment(windows);
    }

    @Override
    public void lag(long millis) {
        lag.record(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void acknowledged(ProbeResult result) {
        published.increment();
    }

    @Override
    public void failed(ProbeResult result, Throwable error) {
        publishFailed.increment();
    }

    @Override
    public void heartbeatAcknowledged(WorkerHeartbeat heartbeat) {
        heartbeatsAcknowledged.increment();
    }

    @Override
    public void heartbeatFailed(WorkerHeartbeat heartbeat, Throwable error) {
        heartbeatsFailed.increment();
    }

    @Override
    public void retrySucceeded() {
        heals.record(SelfHeals.PUBLISH_RETRY_SUCCEEDED);
    }

    public String scrape() {
        return registry.scrape();
    }

    public void close() {
        gc.close();
        registry.close();
    }
}
