package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.rules.Evaluation;
import java.time.Duration;
import java.util.Optional;

/**
 * The alert state machine of docs/design.md#alert-state-machine, as a pure function {@code (state, evaluation, silenced) ->
 * (state, optional event)}. "Now" is always the evaluation's event time, so the same evaluations give the
 * same events and the same event ids on a replay.
 *
 * <pre>
 * from      on                                      to                      emits
 * healthy   breach                                  firing                  opened (lastNotified=now, occurrences=1)
 * firing    breach, now - lastNotified &lt; debounce  firing                  nothing (occurrences+1)
 * firing    breach, now - lastNotified &gt;= debounce firing                  reminder (lastNotified=now)
 * firing    breach at a higher severity             firing                  escalated at once
 * firing    healthy                                 resolving (healthy=1)   nothing
 * resolving healthy                                 healthy after N in a row resolved
 * resolving breach                                  firing (healthy=0)      nothing unless a reminder is due
 * firing    breach, reminder due, acknowledged     firing                  nothing (lastNotified kept)
 * </pre>
 *
 * Decisions where the table is silent:
 * <ul>
 *   <li>An evaluation older than the last one applied to the fingerprint is ignored (no state change, no
 *       event); equal times are applied (several regions may report the same window).</li>
 *   <li>A breach at a higher severity escalates in {@code resolving} too (the incident is still open).
 *       A lower severity never lowers the incident's severity and emits nothing of its own.</li>
 *   <li>Every breach counts as an occurrence; every emitted event advances the incident's sequence number,
 *       which with the incident id and state makes the event id.</li>
 *   <li>Silences: an event emitted while the evaluation is silenced carries {@code silenced=true}. As long
 *       as no event of an open incident has gone out unsilenced ({@link AlertStateRecord#paged()} false),
 *       the first unsilenced breach emits an {@code opened} (next sequence number, so a new event id) at
 *       once, whatever the debounce says: an outage that outlives its silence pages once. A
 *       {@code resolved} of an incident nobody was paged for is marked silenced as well, so no resolution
 *       arrives for a page that never went out.</li>
 *   <li>A healthy evaluation of a fingerprint without a record changes nothing and creates no record.</li>
 *   <li>Holds (docs/monitors.md#dependencies): while an evaluation is held (the monitor's parent is down), the
 *       {@code opened}, reminder or escalation it would emit is not emitted at all, and nothing it would change about
 *       notifying changes: the sequence number, the last notification time, {@code paged} and (once paged) the
 *       severity stay, so the notification is still owed. The first evaluation that is not held, or a
 *       {@link #release}, sends it. A resolution is never held: it goes out wherever the incident paged. An incident
 *       that never emitted anything ({@code sequence} 0) resolves without an event.</li>
 * </ul>
 */
public final class AlertStateMachine {

    /**
     * @param debounce minimum time between notifications of one incident; a breach after it is a reminder (15 min)
     * @param healthyToResolve healthy evaluations in a row that resolve an incident (2)
     */
    public record Config(Duration debounce, int healthyToResolve) {
        public static final Config DEFAULT = new Config(Duration.ofMinutes(15), 2);

        /** The machine's settings from the service's alerting configuration. */
        public static Config of(AlertingConfig config) {
            return new Config(config.debounce(), config.healthyToResolve());
        }

        public Config {
            if (debounce == null || debounce.isNegative() || debounce.isZero()) {
                throw new ContractViolation("debounce", "must be a positive duration");
            }
            if (healthyToResolve < 1) {
                throw new ContractViolation("healthyToResolve", "must be at least 1");
            }
        }
    }

    /**
     * The outcome of one evaluation.
     *
     * @param state the record to store; {@code null} when the fingerprint has (and needs) no record
     * @param event the notification to emit, if any
     */
    public record Transition(AlertStateRecord state, Optional<AlertEvent> event) {
        public Transition {
            event = event == null ? Optional.empty() : event;
        }
    }

    private final long debounceMs;
    private final int healthyToResolve;

    public AlertStateMachine(Config config) {
        this.debounceMs = config.debounce().toMillis();
        this.healthyToResolve = config.healthyToResolve();
    }

    public AlertStateMachine() {
        this(Config.DEFAULT);
    }

    /**
     * Applies one evaluation.
     *
     * @param current the stored record of the evaluation's fingerprint, or {@code null}
     * @param ev the evaluation
     * @param silenced whether a silence matches the evaluation at its event time
     */
    public Transition apply(AlertStateRecord current, Evaluation ev, boolean silenced) {
        return apply(current, ev, silenced, null);
    }

    /**
     * Applies one evaluation under an acknowledgement ({@code ack}, null for none): while it holds for the incident
     * ({@link Ack#holdsFor}), a due reminder is not sent and the incident's last notification time stays where it
     * was, so the reminder goes out at the first breach after the acknowledgement ends. Escalations, openings after
     * a silence and resolutions are unaffected.
     */
    public Transition apply(AlertStateRecord current, Evaluation ev, boolean silenced, Ack ack) {
        return apply(current, ev, silenced, ack, null);
    }

    /**
     * As above, with the hold in force ({@code held}, null for none): the monitor's parent is down, so the
     * notification this breach would send is owed instead (see the class comment).
     */
    public Transition apply(
            AlertStateRecord current, Evaluation ev, boolean silenced, Ack ack, AlertStateRecord.Held held) {
        if (current != null && !current.fingerprint().equals(ev.fingerprint())) {
            throw new IllegalArgumentException(
                    "evaluation of " + ev.fingerprint() + " applied to the state of " + current.fingerprint());
        }
        if (current != null && ev.at() < current.lastEvaluated()) {
            return new Transition(current, Optional.empty());
        }
        if (ev.breach()) {
            return current == null || !current.isOpen()
                    ? open(ev, silenced, held)
                    : breachWhileOpen(
                            current,
                            ev,
                            silenced,
                            ack != null && ack.holdsFor(current.incidentId(), current.severity(), ev.at()),
                            held);
        }
        if (current == null || !current.isOpen()) {
            return new Transition(current, Optional.empty());
        }
        return healthyWhileOpen(current, ev, silenced, held);
    }

    /**
     * Ends the hold on an open incident ({@code at}: its latest evaluation's time): a firing incident sends what it
     * owes at once, an {@code opened} when nobody was paged yet, a reminder when one is due; a resolving one (the
     * monitor is recovering) sends nothing. A record without a hold is returned unchanged.
     */
    public Transition release(AlertStateRecord current, long at, boolean silenced, boolean acknowledged) {
        if (current == null || !current.isOpen() || current.held() == null) {
            return new Transition(current, Optional.empty());
        }
        long now = Math.max(at, current.lastEvaluated());
        AlertState emit = null;
        if (current.phase() == AlertPhase.FIRING) {
            if (!silenced && !current.paged()) {
                emit = AlertState.OPENED;
            } else if (current.paged() && now - current.lastNotified() >= debounceMs && !acknowledged) {
                emit = AlertState.REMINDER;
            } else if (current.sequence() == 0) {
                emit = AlertState.OPENED; // held from the start and silenced now: recorded as a silence would be
            }
        }
        int seq = emit == null ? current.sequence() : current.sequence() + 1;
        AlertStateRecord next = new AlertStateRecord(
                current.fingerprint(),
                current.incidentId(),
                current.phase(),
                current.severity(),
                current.service(),
                current.componentType(),
                current.summary(),
                current.links(),
                current.attributes(),
                current.source(),
                current.firstSeen(),
                current.lastSeen(),
                emit == null ? current.lastNotified() : now,
                current.lastEvaluated(),
                current.occurrences(),
                current.consecutiveHealthy(),
                seq,
                emit == null ? current.silenced() : silenced,
                current.paged() || (emit != null && !silenced),
                null);
        return new Transition(next, emit == null ? Optional.empty() : Optional.of(event(next, emit, silenced)));
    }

    /**
     * Resolves an open incident at once, whatever the healthy run (used when its rule is deleted or disabled).
     * A record that is not open is returned unchanged with no event.
     */
    public Transition forceResolve(AlertStateRecord current, long at, String summary, boolean silenced) {
        if (current == null || !current.isOpen()) {
            return new Transition(current, Optional.empty());
        }
        long now = Math.max(at, current.lastEvaluated());
        boolean neverEmitted = current.sequence() == 0;
        int seq = neverEmitted ? 0 : current.sequence() + 1;
        boolean quiet = silenced || !current.paged();
        AlertStateRecord next = new AlertStateRecord(
                current.fingerprint(),
                current.incidentId(),
                AlertPhase.HEALTHY,
                current.severity(),
                current.service(),
                current.componentType(),
                Evaluation.oneLine(summary),
                current.links(),
                current.attributes(),
                current.source(),
                current.firstSeen(),
                current.lastSeen(),
                now,
                now,
                current.occurrences(),
                0,
                seq,
                silenced,
                current.paged());
        return new Transition(
                next, neverEmitted ? Optional.empty() : Optional.of(event(next, AlertState.RESOLVED, quiet)));
    }

    private Transition open(Evaluation ev, boolean silenced, AlertStateRecord.Held held) {
        long now = ev.at();
        AlertStateRecord next = new AlertStateRecord(
                ev.fingerprint(),
                AlertEvent.incidentIdFor(ev.fingerprint(), now),
                AlertPhase.FIRING,
                ev.severity(),
                ev.service(),
                ev.componentType(),
                ev.summary(),
                ev.links(),
                ev.attributes(),
                ev.source(),
                now,
                now,
                now,
                now,
                1,
                0,
                held == null ? 1 : 0,
                silenced,
                held == null && !silenced,
                held);
        return new Transition(
                next, held == null ? Optional.of(event(next, AlertState.OPENED, silenced)) : Optional.empty());
    }

    private Transition breachWhileOpen(
            AlertStateRecord cur, Evaluation ev, boolean silenced, boolean acknowledged, AlertStateRecord.Held held) {
        long now = ev.at();
        // once paged, a held escalation keeps the lower severity, so the first breach after the hold escalates
        boolean higher = ev.severity().isHigherThan(cur.severity()) && (held == null || !cur.paged());
        AlertState emit;
        if (cur.sequence() == 0 || (!silenced && !cur.paged())) {
            // the incident began (or was only ever notified) under a silence, or its opening was held
            emit = AlertState.OPENED;
        } else if (higher) {
            emit = AlertState.ESCALATED;
        } else if (now - cur.lastNotified() >= debounceMs && !acknowledged) {
            emit = AlertState.REMINDER;
        } else {
            emit = null; // debounced (a flap back to firing included)
        }
        if (held != null) {
            emit = null; // owed, not sent: the parent's incident pages for the outage
        }
        int seq = emit == null ? cur.sequence() : cur.sequence() + 1;
        long lastNotified = emit == null ? cur.lastNotified() : now;
        AlertStateRecord next = new AlertStateRecord(
                cur.fingerprint(),
                cur.incidentId(),
                AlertPhase.FIRING,
                higher ? ev.severity() : cur.severity(),
                ev.service(),
                ev.componentType(),
                ev.summary(),
                ev.links(),
                ev.attributes(),
                ev.source(),
                cur.firstSeen(),
                Math.max(now, cur.lastSeen()),
                lastNotified,
                now,
                cur.occurrences() + 1,
                0,
                seq,
                silenced,
                cur.paged() || (emit != null && !silenced),
                held);
        return new Transition(next, emit == null ? Optional.empty() : Optional.of(event(next, emit, silenced)));
    }

    private Transition healthyWhileOpen(
            AlertStateRecord cur, Evaluation ev, boolean silenced, AlertStateRecord.Held held) {
        long now = ev.at();
        int healthy = cur.phase() == AlertPhase.RESOLVING ? cur.consecutiveHealthy() + 1 : 1;
        if (healthy < healthyToResolve) {
            AlertStateRecord next = new AlertStateRecord(
                    cur.fingerprint(),
                    cur.incidentId(),
                    AlertPhase.RESOLVING,
                    cur.severity(),
                    cur.service(),
                    cur.componentType(),
                    cur.summary(),
                    cur.links(),
                    cur.attributes(),
                    cur.source(),
                    cur.firstSeen(),
                    cur.lastSeen(),
                    cur.lastNotified(),
                    now,
                    cur.occurrences(),
                    healthy,
                    cur.sequence(),
                    silenced,
                    cur.paged(),
                    held);
            return new Transition(next, Optional.empty());
        }
        boolean neverEmitted = cur.sequence() == 0;
        AlertStateRecord next = new AlertStateRecord(
                cur.fingerprint(),
                cur.incidentId(),
                AlertPhase.HEALTHY,
                cur.severity(),
                cur.service(),
                cur.componentType(),
                ev.summary(),
                cur.links(),
                cur.attributes(),
                cur.source(),
                cur.firstSeen(),
                cur.lastSeen(),
                now,
                now,
                cur.occurrences(),
                healthy,
                neverEmitted ? 0 : cur.sequence() + 1,
                silenced,
                cur.paged());
        // never held: a resolution reaches everyone the incident paged (quiet only where it never paged)
        return new Transition(
                next,
                neverEmitted
                        ? Optional.empty()
                        : Optional.of(event(next, AlertState.RESOLVED, silenced || !cur.paged())));
    }

    /** The notification for {@code s}, numbered with {@code s.sequence()}. */
    static AlertEvent event(AlertStateRecord s, AlertState state, boolean silenced) {
        return new AlertEvent(
                1,
                AlertEvent.topologyEventId(s.incidentId(), state, s.sequence()),
                s.fingerprint(),
                s.incidentId(),
                state,
                s.severity(),
                s.service(),
                s.componentType(),
                s.summary(),
                s.links(),
                s.attributes(),
                s.occurrences(),
                s.firstSeen(),
                s.lastSeen(),
                s.source(),
                silenced,
                null);
    }
}
