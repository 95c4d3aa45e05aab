package dev.vigil.notifier.core;

import dev.vigil.kit.config.DurationText;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
    /**
     * Counter of routes an app event matched by service or attributes but was not allowed (its app may not speak
     * for the event's service), tagged with the route's configured name.
     */
    public static final String ROUTE_REFUSED = "vigil.notifier.route.refused";
    /** Counter of events muted here (not by the topology), tagged {@code reason} silence or acknowledged. */
    public static final String MUTED = "vigil.notifier.muted";
    /** Counter of application pages folded into the open incident of a monitor they are linked to. */
    public static final String FOLDED = "vigil.notifier.folded";
    /** Counter of escalation tiers paged (or recorded silenced), tagged with the tier's number. */
    public static final String TIER_FIRED = "vigil.notifier.tier.fired";
    /** Counter of escalation tiers cancelled before their time, tagged {@code reason} acknowledged or resolved. */
    public static final String TIER_CANCELLED = "vigil.notifier.tier.cancelled";
    /** The tag value for a refused name that is no configured channel. */
    static final String UNCONFIGURED = "unconfigured";
    /** Why an acknowledgement was not sent to a channel of its route: its incident was never paged there. */
    static final String NOT_PAGED = "no page of this incident was delivered here";

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private final Routes routes;
    private final Map<String, ChannelPipeline> pipelines;
    private final DeliveryLog log;
    private final Scheduler timer;
    private final MeterRegistry meters;
    private final Muting muting;
    private final KeyedSequencer sequencer = new KeyedSequencer();
    private final Map<String, GroupWait> groupWaits = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean groupsEnded;
    private final java.util.function.Predicate<AlertEvent> selfWatch;
    private final TierLog tiers;
    private final IncidentNotes notes;
    private final Clock clock;
    /** The route of an event the self-watch consumed: no channel. */
    static final String SELF_WATCH = "self-watch: consumed before routing";
    /** The route of a tier that was fired elsewhere or cancelled after this instance claimed it: no channel. */
    static final String TIER_ENDED = "escalation: tier already ended";
    /** The contract's longest summary. */
    private static final int SUMMARY_MAX = 300;

    public Dispatcher(Routes routes, Map<String, ChannelPipeline> pipelines, DeliveryLog log, Scheduler timer) {
        this(routes, pipelines, log, timer, new SimpleMeterRegistry());
    }

    /** @param meters where refused app overrides are counted ({@value #OVERRIDE_REFUSED}) */
    public Dispatcher(
            Routes routes,
            Map<String, ChannelPipeline> pipelines,
            DeliveryLog log,
            Scheduler timer,
            MeterRegistry meters) {
        this(routes, pipelines, log, timer, meters, Muting.none());
    }

    /**
     * @param muting silences and acknowledgements for the events the topology did not decide on (see
     *               {@link SilenceGate}); consulted before routing, in the fingerprint's order
     */
    public Dispatcher(
            Routes routes,
            Map<String, ChannelPipeline> pipelines,
            DeliveryLog log,
            Scheduler timer,
            MeterRegistry meters,
            Muting muting) {
        this(routes, pipelines, log, timer, meters, muting, e -> false);
    }

    /**
     * @param selfWatch takes Vigil's own liveness events (the end-to-end canary) out before anything else: true
     *                  means consumed there, never muted, routed, claimed, delivered or dead-lettered
     */
    public Dispatcher(
            Routes routes,
            Map<String, ChannelPipeline> pipelines,
            DeliveryLog log,
            Scheduler timer,
            MeterRegistry meters,
            Muting muting,
            java.util.function.Predicate<AlertEvent> selfWatch) {
        this(routes, pipelines, log, timer, meters, muting, selfWatch, TierLog.none(), Clock.systemUTC());
    }

    /**
     * @param tiers where escalation tiers are scheduled, cancelled and read (a route's {@code escalation})
     * @param clock the time tiers are counted in
     */
    public Dispatcher(
            Routes routes,
            Map<String, ChannelPipeline> pipelines,
            DeliveryLog log,
            Scheduler timer,
            MeterRegistry meters,
            Muting muting,
            java.util.function.Predicate<AlertEvent> selfWatch,
            TierLog tiers,
            Clock clock) {
        this(routes, pipelines, log, timer, meters, muting, selfWatch, tiers, clock, IncidentNotes.none());
    }

    /** @param notes where each event's outcome per channel is noted for its incident's timeline (not waited for) */
    public Dispatcher(
            Routes routes,
            Map<String, ChannelPipeline> pipelines,
            DeliveryLog log,
            Scheduler timer,
            MeterRegistry meters,
            Muting muting,
            java.util.function.Predicate<AlertEvent> selfWatch,
            TierLog tiers,
            Clock clock,
            IncidentNotes notes) {
        this.notes = notes;
        this.tiers = tiers;
        this.clock = clock;
        this.selfWatch = selfWatch;
        this.meters = meters;
        this.muting = muting;
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
        if (selfWatch.test(e)) {
            return Mono.just(new EventResult(e.eventId(), new RouteDecision(List.of(), SELF_WATCH), List.of()));
        }
        return sequencer.run(e.fingerprint(), () -> dispatchNow(e)).doOnNext(r -> noted(e, r));
    }

    private void noted(AlertEvent e, EventResult r) {
        try {
            dev.vigil.schemas.contract.IncidentNote n = IncidentNotes.of(e, r, clock.millis());
            if (n != null) {
                notes.note(n);
            }
        } catch (RuntimeException err) {
            LOG.warn("event {}: its outcome was not noted for the timeline: {}", e.eventId(), err.toString());
        }
    }

    /**
     * An application's page linked to a monitor it speaks for folds into that monitor's open incident: recorded, noted
     * on the monitor's timeline, and paged to nobody, so one outage pages once. Without an open incident (or a right
     * to the link) it pages under the app's namespace as any app event.
     */
    private Mono<EventResult> dispatchNow(AlertEvent received) {
        java.util.Optional<String> monitor = routes.linkedMonitor(received);
        if (monitor.isEmpty()) {
            // a linked incident's end is owed where its pages went, and only there: like a silenced resolution
            return dispatchUnlinked(
                    received.isResolution() && routes.linkTarget(received).isPresent()
                            ? received.withSilenced()
                            : received);
        }
        String monitorFp = Routes.monitorFingerprint(monitor.get());
        return ClaimStage.untilStored(() -> log.openIncident(monitorFp), timer, "linked incident")
                .flatMap(open -> open.filter(i -> routes.speaksFor(received, i))
                        .map(i -> fold(received, i))
                        .orElseGet(() -> dispatchUnlinked(received)));
    }

    private Mono<EventResult> fold(AlertEvent received, IncidentRecord monitorIncident) {
        String reason = "folded into " + monitorIncident.fingerprint() + "'s open incident";
        LOG.info("event {} {}", received.eventId(), reason);
        meters.counter(FOLDED).increment();
        AlertEvent e = received.withSilenced();
        RouteDecision d = routes.route(e);
        try {
            String app = Routes.appId(e.fingerprint());
            notes.note(new dev.vigil.schemas.contract.IncidentNote(
                    1,
                    dev.vigil.schemas.contract.IncidentNote.FOLDED,
                    monitorIncident.fingerprint(),
                    monitorIncident.incidentId(),
                    e.eventId(),
                    e.state(),
                    clock.millis(),
                    null,
                    Text.truncate("app " + app + ": " + e.summary(), SUMMARY_MAX),
                    null));
        } catch (RuntimeException err) {
            LOG.warn("event {}: its fold was not noted for the timeline: {}", e.eventId(), err.toString());
        }
        return ClaimStage.untilStored(() -> log.recordIncident(e), timer, "incident")
                .then(ClaimStage.untilStored(() -> log.recordSilenced(e, d.channels()), timer, "silenced"))
                .thenReturn(new EventResult(e.eventId(), d, silencedOn(d.channels(), reason)));
    }

    private Mono<EventResult> dispatchUnlinked(AlertEvent received) {
        java.util.Optional<String> muted = muting.mutedBecause(received);
        if (muted.isPresent()) {
            // the reason names a silence id or a token name, never the event's own text
            LOG.info("event {} muted in the notifier: {}", received.eventId(), muted.get());
            meters.counter(MUTED, "reason", muted.get().startsWith("silence") ? "silence" : "acknowledged")
                    .increment();
        }
        AlertEvent e = muted.isPresent() ? received.withSilenced() : received;
        RouteDecision d = routes.route(e);
        if (muted.isPresent() && muted.get().startsWith(SilenceGate.ACKNOWLEDGED)) {
            // an application's page held by an acknowledgement: the climb stops as for an acknowledged event
            return cancelTiers(e, "acknowledged").then(dispatchRouted(e, d));
        }
        return dispatchRouted(e, d);
    }

    private Mono<EventResult> dispatchRouted(AlertEvent e, RouteDecision d) {
        if (!d.refused().isEmpty()) {
            refused(e, d);
        }
        for (String route : d.refusedRoutes()) {
            // route names come from the routing config, so the tag values are bounded; nothing of the event is logged
            meters.counter(ROUTE_REFUSED, "route", route).increment();
        }
        if (e.state() == AlertState.ACKNOWLEDGED) {
            // as for a resolution: the look-up runs after the incident's earlier events are final here, and the
            // resolution that follows waits for this one in the same sequencer
            return cancelTiers(e, "acknowledged")
                    .then(ClaimStage.untilStored(
                            () -> log.pagedChannels(e.incidentId(), e.fingerprint()), timer, "paged"))
                    .flatMap(paged -> acknowledgement(e, d, paged));
        }
        Mono<Void> recordIncident = ClaimStage.untilStored(() -> log.recordIncident(e), timer, "incident");
        if (e.isResolution()) {
            // runs after the incident's earlier events are final here (the sequencer), so every page of it that
            // was going to be delivered has been recorded by now
            return cancelTiers(e, "resolved")
                    .then(ClaimStage.untilStored(
                            () -> log.pagedChannels(e.incidentId(), e.fingerprint()), timer, "paged"))
                    .flatMap(paged -> resolution(e, d, paged, recordIncident));
        }
        Mono<Void> incident = recordIncident;
        if (!d.tiers().isEmpty() && (e.state() == AlertState.OPENED || e.state() == AlertState.ESCALATED)) {
            // the climb starts with the page that opens (or escalates) the incident; it is durable before the event
            // is final, and writing it again for a redelivered page changes nothing
            Instant base = Instant.ofEpochMilli(Math.min(e.lastSeen(), clock.millis()));
            incident = incident.then(ClaimStage.untilStored(() -> tiers.schedule(e, d.tiers(), base), timer, "tiers"));
        }
        if (e.silenced()) {
            return silenced(e, d, d.channels(), incident);
        }
        if (e.state() == AlertState.REMINDER && !d.tiers().isEmpty()) {
            // a reminder reaches every tier the incident climbed to, not only the route's first
            Mono<Void> recorded = incident;
            return ClaimStage.untilStored(() -> tiers.firedChannels(e.incidentId(), e.fingerprint()), timer, "tiers")
                    .flatMap(fired -> {
                        List<String> to = new ArrayList<>(d.channels());
                        new TreeSet<>(fired)
                                .stream()
                                        .filter(c -> pipelines.containsKey(c) && !to.contains(c))
                                        .forEach(to::add);
                        RouteDecision all = to.size() == d.channels().size()
                                ? d
                                : d.to(
                                        to,
                                        d.reason() + " + tiers "
                                                + to.subList(d.channels().size(), to.size()));
                        return deliver(e, all, to, recorded);
                    });
        }
        return deliver(e, d, d.channels(), incident);
    }

    /**
     * Pages an escalation tier whose time has come, in its incident's order: unless the tier was ended meanwhile
     * (acknowledged, resolved, fired by another instance), its channels get the page that started the climb as a
     * page of their own ({@link #tierPage}). An acknowledgement that holds now cancels the rest of the climb; a
     * silence records the tier on its channels without paging them. Completes when the tier is final.
     */
    public Mono<EventResult> escalate(DueTier t) {
        AlertEvent page = tierPage(t);
        return sequencer
                .run(t.fingerprint(), () -> ClaimStage.untilStored(() -> tiers.pending(t), timer, "tiers")
                        .flatMap(pending -> {
                            if (!pending) {
                                return Mono.just(new EventResult(
                                        page.eventId(), new RouteDecision(List.of(), TIER_ENDED), List.of()));
                            }
                            RouteDecision d = new RouteDecision(
                                    t.channels(),
                                    "escalation:tier " + t.tier() + " of " + t.tiers(),
                                    List.of(),
                                    List.of());
                            java.util.Optional<String> muted = muting.tierMutedBecause(page);
                            if (muted.isPresent() && muted.get().startsWith(SilenceGate.ACKNOWLEDGED)) {
                                LOG.info("tier {} of incident {} not paged: {}", t.tier(), t.incidentId(), muted.get());
                                return cancelTiers(page, "acknowledged")
                                        .thenReturn(new EventResult(
                                                page.eventId(), d, silencedOn(t.channels(), muted.get())));
                            }
                            Mono<EventResult> sent = muted.isPresent()
                                    ? silenced(page.withSilenced(), d, t.channels(), Mono.empty())
                                    : deliver(page, d, t.channels(), Mono.empty());
                            return sent.flatMap(
                                    r -> ClaimStage.untilStored(() -> tiers.fired(t, clock.instant()), timer, "tiers")
                                            .then(Mono.fromRunnable(() -> {
                                                meters.counter(TIER_FIRED, "tier", Integer.toString(t.tier()))
                                                        .increment();
                                                LOG.info(
                                                        "incident {} unacknowledged: tier {} of {} paged {}",
                                                        t.incidentId(),
                                                        t.tier(),
                                                        t.tiers(),
                                                        t.channels());
                                            }))
                                            .thenReturn(r));
                        }))
                .doOnNext(r -> noted(page, r));
    }

    /**
     * The page a tier sends: the climb's first page under an event id of its own (so claims deliver it once per
     * channel however often the tier is tried), its summary saying how long nobody acknowledged it.
     */
    static AlertEvent tierPage(DueTier t) {
        AlertEvent p = t.page();
        String id = p.incidentId().startsWith(p.fingerprint() + "@")
                ? p.incidentId() + "/tier/" + t.tier()
                // an incident id not derived from its fingerprint could be another's: the fingerprint keeps it apart
                : "tier/" + t.tier() + "/" + sha256Hex(p.fingerprint() + "\n" + p.incidentId());
        long waited = Math.max(
                0, t.dueAt().toEpochMilli() - Math.min(p.lastSeen(), t.dueAt().toEpochMilli()));
        String prefix = "Unacknowledged for " + DurationText.format(Duration.ofSeconds(Math.round(waited / 1000.0)))
                + ", tier " + t.tier() + ": ";
        String summary = prefix + p.summary();
        if (summary.length() > SUMMARY_MAX) {
            int cut = SUMMARY_MAX - 1;
            if (Character.isHighSurrogate(summary.charAt(cut - 1))) {
                cut--;
            }
            summary = summary.substring(0, cut) + "…";
        }
        return new AlertEvent(
                p.schemaVersion(),
                id,
                p.fingerprint(),
                p.incidentId(),
                p.state(),
                p.severity(),
                p.service(),
                p.componentType(),
                summary,
                p.links(),
                p.attributes(),
                p.occurrences(),
                p.firstSeen(),
                p.lastSeen(),
                p.source(),
                false,
                List.of());
    }

    private static String sha256Hex(String text) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private Mono<Void> cancelTiers(AlertEvent e, String reason) {
        return ClaimStage.untilStored(() -> tiers.cancel(e.incidentId(), e.fingerprint(), reason), timer, "tiers")
                .doOnNext(n -> {
                    if (n > 0) {
                        meters.counter(TIER_CANCELLED, "reason", reason).increment(n);
                        LOG.info("incident {} {}: {} escalation tier(s) cancelled", e.incidentId(), reason, n);
                    }
                })
                .then();
    }

    /**
     * A silence never eats a resolution: the channels a page of this incident reached are owed its end, silenced
     * or not, and even when today's routing would not pick them (a changed route, an escalation's channels). A
     * silenced resolution goes only to those; on its other channels it is recorded as silenced, not paged.
     */
    private Mono<EventResult> resolution(AlertEvent e, RouteDecision d, Set<String> paged, Mono<Void> incident) {
        // a channel paged once but no longer configured cannot be reached
        List<String> owed =
                new TreeSet<>(paged).stream().filter(pipelines::containsKey).toList();
        List<String> targets = new ArrayList<>();
        if (!e.silenced()) {
            targets.addAll(d.channels());
        } else {
            d.channels().stream().filter(owed::contains).forEach(targets::add);
        }
        owed.stream().filter(c -> !targets.contains(c)).forEach(targets::add);
        List<String> extra =
                targets.stream().filter(c -> !d.channels().contains(c)).toList();
        RouteDecision to = extra.isEmpty()
                ? d
                : new RouteDecision(
                        targets,
                        d.reason() + " + paged " + extra,
                        d.refused(),
                        d.refusedRoutes(),
                        List.of(),
                        d.group());
        if (!e.silenced()) {
            return deliver(e, to, targets, incident);
        }
        List<String> muted =
                d.channels().stream().filter(c -> !targets.contains(c)).toList();
        if (targets.isEmpty()) {
            return silenced(e, d, muted, incident);
        }
        LOG.info(
                "silenced resolution {} delivered to {} (its pages reached them), recorded silenced on {}",
                e.eventId(),
                targets,
                muted);
        List<String> order = new ArrayList<>(targets);
        order.addAll(muted);
        Mono<EventResult> sent = deliver(
                e,
                new RouteDecision(order, to.reason(), d.refused(), d.refusedRoutes(), List.of(), d.group()),
                targets,
                incident);
        if (muted.isEmpty()) {
            return sent;
        }
        Mono<List<ChannelResult>> quiet = ClaimStage.untilStored(() -> log.recordSilenced(e, muted), timer, "silenced")
                .thenReturn(silencedOn(muted));
        return sent.zipWith(quiet, (r, rest) -> {
            List<ChannelResult> all = new ArrayList<>(r.channels());
            all.addAll(rest);
            return new EventResult(r.eventId(), r.route(), all);
        });
    }

    /**
     * An acknowledgement is a notice to the people already paged: it goes exactly to the configured channels where
     * a page of this incident (incident id and fingerprint) was delivered, whatever today's route or a silence says,
     * and to no other. The rest of its route records it as silenced ({@value #NOT_PAGED}); paged nowhere, it is
     * recorded silenced on its whole route and sent nowhere. It leaves the incident row alone: the notice is no
     * occurrence, and an acknowledgement must not overwrite the state of an incident already resolved.
     */
    private Mono<EventResult> acknowledgement(AlertEvent e, RouteDecision d, Set<String> paged) {
        List<String> owed =
                new TreeSet<>(paged).stream().filter(pipelines::containsKey).toList();
        List<String> targets = new ArrayList<>();
        d.channels().stream().filter(owed::contains).forEach(targets::add);
        owed.stream().filter(c -> !targets.contains(c)).forEach(targets::add);
        List<String> rest =
                d.channels().stream().filter(c -> !targets.contains(c)).toList();
        if (targets.isEmpty()) {
            LOG.info(
                    "acknowledgement {} sent nowhere: no page of its incident was delivered (route {})",
                    e.eventId(),
                    rest);
            return ClaimStage.untilStored(() -> log.recordSilenced(e, rest), timer, "silenced")
                    .thenReturn(new EventResult(e.eventId(), d, silencedOn(rest, NOT_PAGED)));
        }
        List<String> order = new ArrayList<>(targets);
        order.addAll(rest);
        RouteDecision to =
                new RouteDecision(order, "acknowledgement: paged " + targets, d.refused(), d.refusedRoutes());
        Mono<EventResult> sent = deliver(e, to, targets, Mono.empty());
        if (rest.isEmpty()) {
            return sent;
        }
        Mono<List<ChannelResult>> quiet = ClaimStage.untilStored(() -> log.recordSilenced(e, rest), timer, "silenced")
                .thenReturn(silencedOn(rest, NOT_PAGED));
        return sent.zipWith(quiet, (r, q) -> {
            List<ChannelResult> all = new ArrayList<>(r.channels());
            all.addAll(q);
            return new EventResult(r.eventId(), r.route(), all);
        });
    }

    private Mono<EventResult> silenced(AlertEvent e, RouteDecision d, List<String> channels, Mono<Void> incident) {
        LOG.info("silenced event {} recorded, not paged (would have gone to {})", e.eventId(), channels);
        return incident.then(ClaimStage.untilStored(() -> log.recordSilenced(e, channels), timer, "silenced"))
                .thenReturn(new EventResult(e.eventId(), d, silencedOn(channels)));
    }

    private Mono<EventResult> deliver(AlertEvent e, RouteDecision d, List<String> channels, Mono<Void> incident) {
        // the incident upsert runs alongside the deliveries; the event is final only when both are done
        Mono<Void> recorded = incident.cache();
        recorded.subscribe(null, err -> {});
        if (channels.size() == 1) {
            // the common route, without the fan-out's operators
            return deliverTo(channels.get(0), e, d, channels, recorded)
                    .flatMap(r -> recorded.thenReturn(new EventResult(e.eventId(), d, List.of(r))));
        }
        return Flux.fromIterable(channels)
                .flatMap(ch -> deliverTo(ch, e, d, channels, recorded))
                .collectList()
                .flatMap(results -> recorded.thenReturn(new EventResult(e.eventId(), d, sortLike(channels, results))));
    }

    /**
     * One channel's delivery: through the channel's group wait when the route groups and the channel shows groups
     * (chat and e-mail), else on its own. Incident-keeping vendors and machines never wait, so each event keeps its
     * own incident there and resolves on its own.
     */
    private Mono<ChannelResult> deliverTo(
            String ch, AlertEvent e, RouteDecision d, List<String> channels, Mono<Void> recorded) {
        ChannelPipeline p = pipelines.get(ch);
        Grouping g = d.group();
        if (g == null || !p.rendersGroups() || !Grouping.groups(e.state()) || groupsEnded) {
            return p.deliver(e, channels, recorded);
        }
        // the grouping itself is part of the key: routes grouping alike share a message, others never do
        List<Object> key = List.of(g, g.key(e));
        GroupWait wait = groupWaits.computeIfAbsent(ch, c -> new GroupWait(p, timer));
        // the event's delivery span covers its wait and the group message that carried it
        return Mono.deferContextual(context -> {
            io.opentelemetry.api.trace.Span span = DeliveryTrace.start(context, e, ch);
            return wait.offer(e, channels, key, g.within())
                    .doOnNext(r -> DeliveryTrace.end(span, e, r))
                    .doOnError(err -> DeliveryTrace.fail(span, err));
        });
    }

    /**
     * Ends every group wait: what waits is sent now, and later events of grouped routes are sent without waiting.
     * For a stopping notifier, before its consumer drains.
     */
    public void sendWaitingGroups() {
        groupsEnded = true;
        groupWaits.values().forEach(GroupWait::sendAll);
    }

    /** Events waiting in a group wait on any channel now. */
    public int waitingInGroups() {
        return groupWaits.values().stream().mapToInt(GroupWait::waiting).sum();
    }

    private static List<ChannelResult> silencedOn(List<String> channels) {
        return silencedOn(channels, "silenced");
    }

    private static List<ChannelResult> silencedOn(List<String> channels, String reason) {
        return channels.stream()
                .map(c -> new ChannelResult(c, FinalOutcome.SILENCED, 0, reason))
                .toList();
    }

    /**
     * One warn line naming the event, never its summary or attributes (app-supplied text, possibly personal).
     * Names that are no configured channel share one tag value: the app chooses them, and a tag per name would let
     * it create meters without end.
     */
    private void refused(AlertEvent e, RouteDecision d) {
        for (String ch : d.refused()) {
            meters.counter(OVERRIDE_REFUSED, "channel", routes.channels().contains(ch) ? ch : UNCONFIGURED)
                    .increment();
        }
        LOG.warn(
                "event {}: channel override {} refused (not allowed for this app by the routing's apps section);"
                        + " routed to {} ({})",
                e.eventId(),
                d.refused(),
                d.channels(),
                d.reason());
    }

    private static List<ChannelResult> sortLike(List<String> order, List<ChannelResult> results) {
        return results.stream()
                .sorted(java.util.Comparator.comparingInt(r -> order.indexOf(r.channel())))
                .toList();
    }

    public int activeFingerprints() {
        return sequencer.activeKeys();
    }
}
