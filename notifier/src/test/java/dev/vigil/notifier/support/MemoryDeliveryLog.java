package dev.vigil.notifier.support;

import dev.vigil.notifier.core.Attempt;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryLog;
import dev.vigil.notifier.core.FailingChannel;
import dev.vigil.notifier.core.Settlement;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * The claim rules of ClaimStore in memory (no window expiry), with a switch to simulate a store outage. Incidents
 * keep the fingerprint of their first event, as the table does; channels' failing alerts are kept like
 * {@code failing_channels}.
 */
public final class MemoryDeliveryLog implements DeliveryLog {
    private static final Set<AlertState> PAGES = Set.of(AlertState.OPENED, AlertState.REMINDER, AlertState.ESCALATED);
    public final AtomicBoolean down = new AtomicBoolean();
    public final List<Attempt> attempts = new ArrayList<>();
    public final List<String> silenced = new ArrayList<>();
    public final Map<String, String> vendorRefs = new HashMap<>();
    /** incident id → the fingerprint that recorded it first */
    public final Map<String, String> incidents = new HashMap<>();
    /** incident id → the latest event recorded for it (of its first fingerprint) */
    public final Map<String, AlertEvent> latest = new HashMap<>();
    /** channel → its open delivery-failing alert */
    public final Map<String, FailingChannel> failing = new HashMap<>();

    private final Map<String, String[]> claims = new HashMap<>();

    private Mono<Void> check() {
        return down.get() ? Mono.error(new IllegalStateException("store down")) : Mono.empty();
    }

    @Override
    public synchronized Mono<Claim> claim(String eventId, String channel) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                String key = eventId + "|" + channel;
                String[] row = claims.get(key);
                if (row == null || row[0].equals("released") || row[0].equals("stale")) {
                    String token = UUID.randomUUID().toString();
                    claims.put(key, new String[] {"claimed", token});
                    return new Claim(
                            eventId,
                            channel,
                            Claim.Status.CLAIMED,
                            token,
                            row != null && row[0].equals("stale") ? row[1] : null);
                }
                return new Claim(
                        eventId, channel, row[0].equals("claimed") ? Claim.Status.BUSY : Claim.Status.DUPLICATE, null);
            }
        }));
    }

    /** Marks a key as claimed by someone else (for BUSY tests). */
    public synchronized void holdByOther(String eventId, String channel) {
        claims.put(eventId + "|" + channel, new String[] {"claimed", "other"});
    }

    /** Leaves a key claimed by {@code owner} with its lease run out, as a sender that died mid-send does. */
    public synchronized void abandonByOther(String eventId, String channel, String owner) {
        claims.put(eventId + "|" + channel, new String[] {"stale", owner});
    }

    public synchronized void settleOther(String eventId, String channel, String status) {
        claims.put(eventId + "|" + channel, new String[] {status, "other"});
    }

    public synchronized String status(String eventId, String channel) {
        String[] row = claims.get(eventId + "|" + channel);
        return row == null ? null : row[0];
    }

    @Override
    public Mono<Boolean> settle(Claim claim, Attempt attempt, Settlement settlement) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                String key = claim.eventId() + "|" + claim.channel();
                String[] row = claims.get(key);
                if (row != null && row[1].equals(claim.token())) {
                    claims.put(key, new String[] {settlement.name().toLowerCase(java.util.Locale.ROOT), row[1]});
                }
                attempts.add(attempt);
                FailingChannel f = failing.get(claim.channel());
                return settlement == Settlement.DELIVERED
                        && f != null
                        && f.fingerprint().equals(incidents.get(f.incidentId()));
            }
        }));
    }

    @Override
    public Mono<Void> recordIncident(AlertEvent event) {
        return check().then(Mono.fromRunnable(() -> {
            synchronized (this) {
                incidents.putIfAbsent(event.incidentId(), event.fingerprint());
                if (incidents.get(event.incidentId()).equals(event.fingerprint())) {
                    latest.put(event.incidentId(), event);
                }
            }
        }));
    }

    @Override
    public Mono<Void> recordSilenced(AlertEvent event, List<String> channels) {
        return check().then(Mono.fromRunnable(() -> {
            synchronized (this) {
                channels.forEach(c -> silenced.add(event.eventId() + "|" + c));
            }
        }));
    }

    @Override
    public Mono<Optional<String>> vendorRef(String incidentId, String fingerprint, String channel) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                return Optional.ofNullable(vendorRefs.get(incidentId + "|" + fingerprint + "|" + channel));
            }
        }));
    }

    @Override
    public Mono<Set<String>> pagedChannels(String incidentId, String fingerprint) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                return attempts.stream()
                        .filter(a -> incidentId.equals(a.incidentId())
                                && fingerprint.equals(a.fingerprint())
                                && "delivered".equals(a.outcome())
                                && PAGES.contains(a.state()))
                        .map(Attempt::channel)
                        .collect(Collectors.toUnmodifiableSet());
            }
        }));
    }

    @Override
    public Mono<FailingChannel> openFailing(FailingChannel candidate) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                return failing.computeIfAbsent(candidate.channel(), c -> candidate);
            }
        }));
    }

    @Override
    public Mono<Optional<FailingChannel>> dispatchedFailing(String channel) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                FailingChannel f = failing.get(channel);
                return f != null && f.fingerprint().equals(incidents.get(f.incidentId()))
                        ? Optional.of(f)
                        : Optional.<FailingChannel>empty();
            }
        }));
    }

    @Override
    public Mono<Void> closeFailing(String channel, String incidentId) {
        return check().then(Mono.fromRunnable(() -> {
            synchronized (this) {
                failing.computeIfPresent(channel, (c, f) -> f.incidentId().equals(incidentId) ? null : f);
            }
        }));
    }

    @Override
    public Mono<Void> saveVendorRef(String incidentId, String fingerprint, String channel, String vendorRef) {
        return check().then(Mono.fromRunnable(() -> {
            synchronized (this) {
                vendorRefs.put(incidentId + "|" + fingerprint + "|" + channel, vendorRef);
            }
        }));
    }

    @Override
    public Mono<Optional<dev.vigil.notifier.core.IncidentRecord>> incidentByVendorRef(
            String channel, String vendorRef) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                for (var e : vendorRefs.entrySet()) {
                    String[] k = e.getKey().split("\\|");
                    AlertEvent ev = latest.get(k[0]);
                    if (k[2].equals(channel)
                            && e.getValue().equals(vendorRef)
                            && ev != null
                            && ev.fingerprint().equals(k[1])) {
                        return Optional.of(new dev.vigil.notifier.core.IncidentRecord(
                                ev.incidentId(),
                                ev.fingerprint(),
                                ev.service(),
                                ev.severity().wire(),
                                ev.state().wire(),
                                ev.firstSeen(),
                                ev.lastSeen(),
                                ev.occurrences(),
                                ev.source().wire()));
                    }
                }
                return Optional.<dev.vigil.notifier.core.IncidentRecord>empty();
            }
        }));
    }

    @Override
    public Mono<Optional<dev.vigil.notifier.core.IncidentRecord>> openIncident(String fingerprint) {
        return check().then(Mono.fromSupplier(() -> {
            synchronized (this) {
                return latest.values().stream()
                        .filter(ev -> ev.fingerprint().equals(fingerprint))
                        .max(java.util.Comparator.comparingLong(AlertEvent::firstSeen))
                        .filter(ev -> ev.state() != dev.vigil.schemas.contract.AlertState.RESOLVED)
                        .map(ev -> new dev.vigil.notifier.core.IncidentRecord(
                                ev.incidentId(),
                                ev.fingerprint(),
                                ev.service(),
                                ev.severity().wire(),
                                ev.state().wire(),
                                ev.firstSeen(),
                                ev.lastSeen(),
                                ev.occurrences(),
                                ev.source().wire()));
            }
        }));
    }
}
