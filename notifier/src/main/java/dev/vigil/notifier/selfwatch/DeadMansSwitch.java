package dev.vigil.notifier.selfwatch;

import dev.vigil.notifier.core.Escalations;
import dev.vigil.schemas.contract.AlertEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The dead-man's switch: every {@code interval} it asks the {@link CanaryWatch} and pings the operator's external
 * heartbeat URL (a plain GET) only while the canary is fresh, so that the heartbeat service pages when any stage
 * stalls, this notifier included. While the canary is stale it raises {@link PipelineStalled} through the same
 * path as the notifier's delivery-failing alerts (the alerts topic, routed like any page) and resolves it once the
 * canary passes again. A failed ping is not retried: the next tick pings again, and heartbeat services allow a
 * grace period for that.
 *
 * <p>The URL is a secret (it lets anyone check in): only its host is ever logged.
 */
public final class DeadMansSwitch implements AutoCloseable {
    public static final String AGE = "vigil.canary.age";
    public static final String PINGS = "vigil.deadman.pings";
    /** The bound the age is judged against, so that an alert rule need not repeat the configuration. */
    public static final String MAX_AGE = "vigil.canary.max.age";

    private static final Logger LOG = LoggerFactory.getLogger(DeadMansSwitch.class);

    /** A GET of the heartbeat URL: completes with the HTTP status. */
    @FunctionalInterface
    public interface Pinger {
        Mono<Integer> get(URI url);
    }

    /** A plain GET through Reactor Netty with a response timeout; the answer's body is read and dropped. */
    public static Pinger httpPinger(Duration timeout) {
        reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create()
                .responseTimeout(timeout)
                .headers(h -> h.set("User-Agent", "Vigil-Notifier/1"));
        return url -> client.get().uri(url).responseSingle((resp, body) -> body.asByteArray()
                .then(Mono.just(resp.status().code())));
    }

    private final CanaryWatch watch;
    private final URI url;
    private final Duration interval;
    private final Duration pingTimeout;
    private final Pinger pinger;
    private final Escalations escalations;
    private final Scheduler scheduler;
    private final Counter sent;
    private final Counter failed;
    private final Counter withheld;
    /** The start of the stall whose alert is open (null: none open). */
    private final AtomicReference<Long> openStall = new AtomicReference<>();

    private volatile Disposable ticks;
    /** The stall alert a previous run of the notifier left open, found at start (empty: none). */
    private Mono<java.util.OptionalLong> openBefore = Mono.just(java.util.OptionalLong.empty());

    public DeadMansSwitch(
            CanaryWatch watch,
            URI url,
            Duration interval,
            Duration pingTimeout,
            Pinger pinger,
            Escalations escalations,
            Scheduler scheduler,
            MeterRegistry registry) {
        this.watch = watch;
        this.url = url;
        this.interval = interval;
        this.pingTimeout = pingTimeout;
        this.pinger = pinger;
        this.escalations = escalations;
        this.scheduler = scheduler;
        this.sent = Counter.builder(PINGS)
                .tag("result", "sent")
                .description("heartbeat pings answered 2xx")
                .register(registry);
        this.failed = Counter.builder(PINGS)
                .tag("result", "failed")
                .description("heartbeat pings that failed or timed out")
                .register(registry);
        this.withheld = Counter.builder(PINGS)
                .tag("result", "withheld")
                .description("heartbeat pings not sent: the canary was not fresh")
                .register(registry);
        Gauge.builder(AGE, this, s -> s.watch.judge(s.now()).ageSeconds())
                .baseUnit("seconds")
                .description("seconds since the end-to-end canary last passed (NaN: another instance judges it)")
                .register(registry);
        Gauge.builder(MAX_AGE, watch, w -> w.maxAge().toMillis() / 1000.0)
                .baseUnit("seconds")
                .description("the canary's bound (deadMan.maxCanaryAge)")
                .register(registry);
    }

    /**
     * Where to find a stall alert a previous run left open (the delivery log's incidents): adopted at start, so that
     * the canary passing again resolves it.
     */
    public DeadMansSwitch adoptingOpenStall(Mono<java.util.OptionalLong> lookUp) {
        this.openBefore = lookUp;
        return this;
    }

    /** Adopts an open stall alert, then checks in at once and every interval, on the switch's scheduler. */
    public DeadMansSwitch start() {
        LOG.info(
                "dead-man's switch on: pinging {} every {} s while the canary passed within {} s",
                url.getHost(),
                interval.toSeconds(),
                watch.maxAge().toSeconds());
        Mono<Void> adopt = openBefore
                .timeout(pingTimeout, scheduler)
                .doOnNext(found -> found.ifPresent(start -> {
                    LOG.info(
                            "{} of a previous run is still open: resolved when the canary passes",
                            PipelineStalled.FINGERPRINT);
                    openStall.compareAndSet(null, start);
                }))
                .onErrorResume(e -> {
                    LOG.warn("cannot look up an open {}: {}", PipelineStalled.FINGERPRINT, e.toString());
                    return Mono.empty();
                })
                .then();
        ticks = adopt.thenMany(Flux.interval(Duration.ZERO, interval, scheduler))
                .onBackpressureDrop()
                .concatMap(t -> tick(), 1)
                .subscribe();
        return this;
    }

    private long now() {
        return scheduler.now(TimeUnit.MILLISECONDS);
    }

    /** One judgement: a ping or a withheld one, and the stall alert opened or resolved when that changed. */
    Mono<Void> tick() {
        long now = now();
        CanaryWatch.Judgement j = watch.judge(now);
        Mono<Void> ping;
        if (j.fresh()) {
            ping = pinger.get(url)
                    .timeout(pingTimeout, scheduler)
                    .doOnNext(status -> {
                        if (status >= 200 && status < 300) {
                            sent.increment();
                        } else {
                            failed.increment();
                            LOG.warn("heartbeat ping to {} answered {}", url.getHost(), status);
                        }
                    })
                    .onErrorResume(e -> {
                        failed.increment();
                        LOG.warn(
                                "heartbeat ping to {} failed: {}",
                                url.getHost(),
                                e.getClass().getSimpleName());
                        return Mono.empty();
                    })
                    .then();
        } else {
            withheld.increment();
            ping = Mono.empty();
        }
        return ping.then(stallAlert(j, now));
    }

    private Mono<Void> stallAlert(CanaryWatch.Judgement j, long now) {
        Long open = openStall.get();
        if (j.stale() && open == null) {
            long start =
                    now - Math.round(j.ageSeconds() * 1000) + watch.maxAge().toMillis();
            AlertEvent alert = PipelineStalled.opened(start, j.ageSeconds(), watch.maxAge());
            LOG.warn(
                    "the end-to-end canary has not passed for {} s: raising {}",
                    Math.round(j.ageSeconds()),
                    PipelineStalled.FINGERPRINT);
            return raise(alert, () -> openStall.set(start));
        }
        if (j.fresh() && open != null) {
            LOG.info("the end-to-end canary passes again: resolving {}", PipelineStalled.FINGERPRINT);
            return raise(PipelineStalled.resolved(open, now), () -> openStall.set(null));
        }
        return Mono.empty();
    }

    /** Published with a bound; a failure leaves the state as it was, so the next tick tries again. */
    private Mono<Void> raise(AlertEvent alert, Runnable published) {
        return escalations
                .raise(alert)
                .timeout(pingTimeout, scheduler)
                .then(Mono.fromRunnable(published))
                .onErrorResume(e -> {
                    LOG.warn("publishing {} failed, tried again next tick: {}", alert.eventId(), e.toString());
                    return Mono.empty();
                })
                .then();
    }

    /** True while a stall alert is open. */
    public boolean stallOpen() {
        return openStall.get() != null;
    }

    @Override
    public void close() {
        Disposable d = ticks;
        if (d != null) {
            d.dispose();
        }
    }
}
