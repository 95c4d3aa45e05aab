package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.silence.SilenceMatcher;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Silences and acknowledgements for the events that reach the notifier without the topology's decision: those of
 * source {@code app} (applications, Alertmanager through ingest, and the notifier's own delivery-failing alerts).
 * Monitor, metric and worker alerts arrive already decided (the topology marks them silenced and holds reminders of
 * acknowledged incidents), so they pass untouched.
 *
 * <ul>
 *   <li>A silence active now that matches the event's fingerprint, service and attributes
 *       ({@link SilenceMatcher}, the topology's own code) mutes {@code opened}, {@code reminder} and
 *       {@code escalated}.</li>
 *   <li>An acknowledgement that holds now for the event's incident ({@link Ack#holdsFor}: same incident, not
 *       expired, not more severe) mutes {@code opened} and {@code reminder}: an application re-sending its firing
 *       alert after the dedupe window is a reminder in all but name. An escalation still pages.</li>
 *   <li>{@code resolved} and {@code acknowledged} are never muted here: the dispatcher sends them to the channels
 *       the incident's pages reached.</li>
 * </ul>
 * The time is the notifier's clock: these events carry no event time Vigil decided, and a silence is a promise
 * about the wall clock.
 */
public final class SilenceGate implements Muting {
    /** How a reason given for an acknowledgement starts (a silence's starts {@code silence}). */
    public static final String ACKNOWLEDGED = "acknowledged by ";

    private final Supplier<SilenceMatcher> silences;
    private final Function<String, Ack> acks;
    private final Clock clock;

    /**
     * @param silences a matcher over the silences now known (an immutable snapshot, replaced when they change)
     * @param acks     the acknowledgement of a fingerprint, or null
     */
    public SilenceGate(Supplier<SilenceMatcher> silences, Function<String, Ack> acks, Clock clock) {
        this.silences = silences;
        this.acks = acks;
        this.clock = clock;
    }

    @Override
    public Optional<String> mutedBecause(AlertEvent e) {
        if (e.source() != AlertSource.APP || e.silenced()) {
            return Optional.empty();
        }
        AlertState state = e.state();
        if (state == AlertState.RESOLVED || state == AlertState.ACKNOWLEDGED) {
            return Optional.empty();
        }
        long now = clock.millis();
        List<Silence> matching = silences.get().matching(e.fingerprint(), e.service(), e.attributes(), now);
        if (!matching.isEmpty()) {
            return Optional.of("silence " + matching.get(0).id());
        }
        if (state == AlertState.OPENED || state == AlertState.REMINDER) {
            return acknowledged(e, now);
        }
        return Optional.empty();
    }

    /** Silences and acknowledgements hold for a tier's page of any source, escalated or not. */
    @Override
    public Optional<String> tierMutedBecause(AlertEvent tierPage) {
        long now = clock.millis();
        Optional<String> ack = acknowledged(tierPage, now);
        if (ack.isPresent()) {
            return ack;
        }
        List<Silence> matching =
                silences.get().matching(tierPage.fingerprint(), tierPage.service(), tierPage.attributes(), now);
        return matching.isEmpty()
                ? Optional.empty()
                : Optional.of("silence " + matching.get(0).id());
    }

    private Optional<String> acknowledged(AlertEvent e, long now) {
        Ack ack = acks.apply(e.fingerprint());
        return ack != null && ack.holdsFor(e.incidentId(), e.severity(), now)
                ? Optional.of(ACKNOWLEDGED + ack.by())
                : Optional.empty();
    }
}
