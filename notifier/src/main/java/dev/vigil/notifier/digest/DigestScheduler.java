package dev.vigil.notifier.digest;

import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Sends the daily digest once per day across restarts and instances. Each instance wakes at the digest's time (and
 * once at start), notes the next day's digest as owed, and claims the latest due day's: the one instance that gets
 * it composes the digest and delivers it through the digest channels' pipelines (claims per channel, retries,
 * dead letters, as for any event), then marks the day sent. An instance that finds the day held by another checks
 * again after {@code recheck}, so a digest whose sender died is taken over once its lease has run out. A digest is
 * owed only when some notifier was running before its time: a first start after the time sends nothing for that
 * day, a restart after it (with the digest unsent) sends it once, late.
 */
public final class DigestScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DigestScheduler.class);
    public static final String FINGERPRINT = "vigil/digest";
    static final String SENT = "vigil.notifier.digests";

    /** Delivers the event carrying a digest to every digest channel; completes with each channel's final outcome. */
    @FunctionalInterface
    public interface Delivery {
        Mono<List<ChannelResult>> deliver(AlertEvent event);
    }

    private final DigestSchedule schedule;
    private final DigestStore store;
    private final Delivery delivery;
    private final DigestReports reports;
    private final Predicate<IncidentRow> liveAck;
    private final String owner;
    private final Duration lease;
    private final Duration recheck;
    private final Clock clock;
    private final Scheduler scheduler;
    private final MeterRegistry meters;
    private final Timer composing;
    private final AtomicLong lastSent = new AtomicLong();
    private volatile Disposable loop;

    /**
     * @param liveAck whether an open incident is acknowledged now (the acknowledgements the notifier mirrors); an
     *                incident the store knows an acknowledgement notice of counts as acknowledged either way
     * @param lease   how long a claimed day stays ours unsent: longer than a delivery may take with its retries
     * @param recheck how soon an instance that found the day held, or the store unreachable, looks again
     */
    public DigestScheduler(
            DigestSchedule schedule,
            DigestStore store,
            Delivery delivery,
            DigestReports reports,
            Predicate<IncidentRow> liveAck,
            String owner,
            Duration lease,
            Duration recheck,
            Clock clock,
            Scheduler scheduler,
            MeterRegistry meters) {
        this.schedule = schedule;
        this.store = store;
        this.delivery = delivery;
        this.reports = reports;
        this.liveAck = liveAck;
        this.owner = owner;
        this.lease = lease;
        this.recheck = recheck;
        this.clock = clock;
        this.scheduler = scheduler;
        this.meters = meters;
        this.composing = Timer.builder("vigil.notifier.digest.compose").register(meters);
        for (String outcome : List.of("delivered", "failed")) {
            meters.counter(SENT, "outcome", outcome);
        }
        meters.gauge("vigil.notifier.digest.last.sent", lastSent, AtomicLong::doubleValue);
    }

    /** Checks now, then at every digest time (and sooner while another instance holds the day). */
    public DigestScheduler start() {
        LOG.info("daily digest at {} {}", schedule.at(), schedule.zone());
        loop = Mono.defer(this::check)
                .flatMap(wake -> Mono.delay(until(wake), scheduler))
                .repeat()
                .subscribe(x -> {}, e -> LOG.error("the digest schedule stopped: {}", e.toString()));
        return this;
    }

    private Duration until(Instant wake) {
        Duration d = Duration.between(clock.instant(), wake);
        return d.isNegative() ? Duration.ZERO : d;
    }

    /** One check: claims the latest due day's digest and sends it if ours; completes with when to check next. */
    Mono<Instant> check() {
        Instant now = clock.instant();
        LocalDate due = schedule.latestDueDay(now);
        Instant next = schedule.dueOn(due.plusDays(1));
        Instant soon = now.plus(recheck).isBefore(next) ? now.plus(recheck) : next;
        return store.expect(due.plusDays(1))
                .then(store.claim(due, owner, lease))
                .flatMap(state -> switch (state) {
                    case CLAIMED -> send(due).thenReturn(next);
                    case HELD -> Mono.just(soon);
                    case SENT, NOT_OWED -> Mono.just(next);
                })
                .onErrorResume(e -> {
                    // the store is down or a delivery broke: the claim's lease lets this or another instance retry
                    LOG.warn("digest of {} not sent yet: {}", due, e.toString());
                    return Mono.just(soon);
                });
    }

    /** Composes {@code day}'s digest and delivers it; marks it sent once every channel's delivery is final. */
    Mono<Void> send(LocalDate day) {
        Instant from = schedule.windowStart(day);
        Instant to = schedule.dueOn(day);
        String eventId = DigestReports.eventId(day);
        long started = System.nanoTime();
        return store.read(from, to)
                .map(data ->
                        DigestComposer.compose(day, schedule.zone(), from, to, clock.instant(), acknowledged(data)))
                .doOnNext(r -> composing.record(Duration.ofNanos(System.nanoTime() - started)))
                .flatMap(report -> {
                    reports.put(eventId, report);
                    return delivery.deliver(event(report, eventId))
                            .flatMap(results -> store.markSent(
                                            day,
                                            results.stream()
                                                    .map(ChannelResult::channel)
                                                    .toList())
                                    .thenReturn(results))
                            .doOnNext(results -> sent(day, report, results))
                            .doFinally(s -> reports.remove(eventId));
                })
                .then();
    }

    private DigestData acknowledged(DigestData data) {
        return new DigestData(
                data.incidents().stream()
                        .map(i -> i.acknowledged() || !i.open() ? i : i.withAcknowledged(liveAck.test(i)))
                        .toList(),
                data.failures(),
                data.recorded());
    }

    private void sent(LocalDate day, DigestReport report, List<ChannelResult> results) {
        boolean ok = results.stream()
                .allMatch(r -> r.outcome() == FinalOutcome.DELIVERED || r.outcome() == FinalOutcome.DEDUPLICATED);
        meters.counter(SENT, "outcome", ok ? "delivered" : "failed").increment();
        lastSent.set(clock.millis() / 1000);
        LOG.info(
                "digest of {} ({}): {}",
                day,
                report.nothingToReport() ? "nothing to report" : "with news",
                results.stream()
                        .map(r -> r.channel() + " " + r.outcome().name().toLowerCase(Locale.ROOT))
                        .toList());
    }

    /** The event that carries a digest through the pipelines: its id names the day, its summary the counts. */
    static AlertEvent event(DigestReport r, String eventId) {
        long due = r.to().toEpochMilli();
        return new AlertEvent(
                1,
                eventId,
                FINGERPRINT,
                AlertEvent.incidentIdFor(FINGERPRINT, due),
                AlertState.OPENED,
                Severity.INFO,
                "vigil",
                null,
                dev.vigil.notifier.core.Text.truncate(DigestText.title(r) + ": " + DigestText.summary(r), 300),
                null,
                null,
                1,
                due,
                due,
                AlertSource.METRIC,
                false,
                null);
    }

    @Override
    public void close() {
        Disposable d = loop;
        if (d != null) {
            d.dispose();
        }
    }
}
