package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
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
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private final Routes routes;
    private final Map<String, ChannelPipeline> pipelines;
    private final DeliveryLog log;
    private final Scheduler timer;
    private final KeyedSequencer sequencer = new KeyedSequencer();

    public Dispatcher(Routes routes, Map<String, ChannelPipeline> pipelines, DeliveryLog log, Scheduler timer) {
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

    private static List<ChannelResult> sortLike(List<String> order, List<ChannelResult> results) {
        return results.stream().sorted(java.util.Comparator.comparingInt(r -> order.indexOf(r.channel()))).toList();
    }

    public int activeFingerprints() {
        return sequencer.activeKeys();
    }
}
