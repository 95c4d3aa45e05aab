package dev.vigil.notifier;

import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.ResolvedChannel;
import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.ChannelPipeline;
import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.DeliveryLog;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.digest.DigestReports;
import dev.vigil.notifier.digest.DigestSchedule;
import dev.vigil.notifier.digest.DigestScheduler;
import dev.vigil.notifier.digest.DigestStore;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * The daily digest's wiring: a pipeline per digest channel (the same claim, retry, record and dead-letter stages
 * as every delivery, with the channel's digest sender in place of its alert sender) and the scheduler.
 */
final class DigestWiring {
    /** How soon an instance that found today's digest held by another (or the store down) looks again. */
    private static final Duration RECHECK = Duration.ofMinutes(1);

    private DigestWiring() {}

    /** The digest lanes to close with the notifier. */
    record Wired(DigestScheduler scheduler, List<ChannelLane> lanes) {}

    static Wired wire(
            NotifierConfig cfg,
            Map<String, ResolvedChannel> channels,
            Channels adapters,
            DigestStore store,
            DeliveryLog log,
            DeadLetterStage deadLetters,
            RetryPolicy policy,
            Function<String, Ack> acks,
            String instance,
            Clock clock,
            Scheduler timer,
            MeterRegistry meters) {
        NotifierConfig.Delivery d = cfg.delivery();
        DigestReports reports = new DigestReports();
        List<ChannelLane> lanes = new java.util.ArrayList<>();
        List<ChannelPipeline> pipelines = new java.util.ArrayList<>();
        for (String name : cfg.digest().channels()) {
            ResolvedChannel c = channels.get(name);
            ChannelLane lane = new ChannelLane(c.name(), c.ratePerSecond(), c.concurrency(), timer);
            lanes.add(lane);
            pipelines.add(new ChannelPipeline(
                    c.name(),
                    new ClaimStage(log, timer),
                    lane,
                    new SendStage(
                            adapters.buildDigest(c, d.sendTimeoutDuration(), clock, reports),
                            d.sendTimeoutDuration(),
                            timer),
                    new RecordStage(log, timer),
                    deadLetters,
                    policy,
                    clock,
                    timer,
                    Duration.ofSeconds(1),
                    meters));
        }
        List<String> names = cfg.digest().channels();
        DigestScheduler.Delivery delivery = event -> Flux.fromIterable(pipelines)
                .flatMap(p -> p.deliver(event, names))
                .collectList();
        // a claimed day stays with its sender while its deliveries may still be retrying
        Duration lease = d.deadlineDuration().plus(d.sendTimeoutDuration()).plusMinutes(1);
        DigestScheduler scheduler = new DigestScheduler(
                new DigestSchedule(cfg.digest().time(), cfg.digest().zoneId()),
                store,
                delivery,
                reports,
                i -> {
                    Ack a = acks.apply(i.fingerprint());
                    return a != null && a.holdsFor(i.incidentId(), Severity.parseLenient(i.severity()), clock.millis());
                },
                instance,
                lease,
                RECHECK,
                clock,
                timer,
                meters);
        return new Wired(scheduler, lanes);
    }
}
