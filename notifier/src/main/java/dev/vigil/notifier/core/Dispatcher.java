package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The inbound port: {@link #dispatch} takes one event to a final outcome on every channel it routes to. Events
 * of one fingerprint run in order; different fingerprints and different channels run in parallel. The returned
 * Mono completes only when every channel is final (delivered, deduplicated, silenced or dead-lettered): that is
 * when the consumer may commit.
 */
public final class Dispatcher {
    /** Counter of override names an app event was not allowed, tagged with the channel. */
    public static final String OVERRIDE_REFUSED = "vigil.notifier.override.refused";
    /** The tag value for a refused name that is no configured channel. */
    static final String UNCONFIGURED = "unconfigured";
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private final Routes routes;
    private final Map<String, ChannelPipeline> pipelines;
    private final DeliveryLog log;
    private final Scheduler timer;
    private final MeterRegistry meters;
    private final KeyedSequencer sequencer = new KeyedSequencer();

    public Dispatcher(Routes routes, Map<String, ChannelPipeline> pipelines, DeliveryLog log, Scheduler timer) {
        this(routes, pipelines, log, timer, new SimpleMeterRegistry());
    }

    /** @param meters where refused app overrides are counted ({@value #OVERRIDE_REFUSED}) */
    public Dispatcher(Routes routes, Map<String, ChannelPipeline> pipelines, DeliveryLog log, Scheduler timer,
                      MeterRegistry meters) {
        this.meters = meters;
        this.routes = routes;
        this.pipelines = Map.copyOf(pipelines);
        this.log = log;
        this.timer = timer;
        for (String ch : routes.channels()) {
            if (!pipelines.containsKey(ch)) {
                throw new IllegalArgumentException("no pipeline for configured channel " + ch);
            }
        }
    }

    public Mono<EventResult> dispatch(AlertEvent e) {
        return sequencer.run(e.fingerprint(), () -> dispatchNow(e));
    }

    private Mono<EventResult> dispatchNow(AlertEvent e) {
        RouteDecision d = routes.route(e);
        if (!d.refused().isEmpty()) {
            refused(e, d);
        }
        Mono<Void> incident = ClaimStage.untilStored(() -> log.recordIncident(e), timer, "incident");
        if (e.silenced()) {
            LOG.info("silenced event {} recorded, not paged (would have gone to {})", e.eventId(), d.channels());
            return incident.then(ClaimStage.untilStored(() -> log.recordSilenced(e, d.channels()), timer, "silenced"))
                    .thenReturn(new EventResult(e.eventId(), d, d.channels().stream()
                            .map(c -> new ChannelResult(c, FinalOutcome.SILENCED, 0, "silenced")).toList()));
        }
        // the incident upsert runs alongside the deliveries; the event is final only when both are done
        Mono<Void> recorded = incident.cache();
        recorded.subscribe(null, err -> { });
        return Flux.fromIterable(d.channels())
                .flatMap(ch -> pipelines.get(ch).deliver(e, d.channels(), recorded))
                .collectList()
                .flatMap(results -> recorded.thenReturn(new EventResult(e.eventId(), d, sortLike(d.channels(), results))));
    }

    /**
     * One warn line naming the event, never its summary or attributes (app-supplied text, possibly personal).
     * Names that are no configured channel share one tag value: the app chooses them, and a tag per name would let
     * it create meters without end.
     */
    private void refused(AlertEvent e, RouteDecision d) {
        for (String ch : d.refused()) {
            meters.counter(OVERRIDE_REFUSED, "channel", routes.channels().contains(ch) ? ch : UNCONFIGURED).increment();
        }
        LOG.warn("event {}: channel override {} refused (not allowed for this app by the routing's apps section);"
                + " routed to {} ({})", e.eventId(), d.refused(), d.channels(), d.reason());
    }

    private static List<ChannelResult> sortLike(List<String> order, List<ChannelResult> results) {
        return results.stream().sorted(java.util.Comparator.comparingInt(r -> order.indexOf(r.channel()))).toList();
    }

    public int activeFingerprints() {
        return sequencer.activeKeys();
    }
}
