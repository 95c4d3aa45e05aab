package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.Attempt;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.core.Settlement;
import dev.vigil.schemas.contract.AlertEvent;
import reactor.core.publisher.Mono;

/**
 * Settles the claim as the retry decision says and records the attempt. A delivered page's vendor id is kept first
 * (after the incident row exists), so a later event of the incident finds it as soon as the claim reads delivered.
 */
public final class SettleStep implements DeliveryStage {
    private final RecordStage records;

    public SettleStep(RecordStage records) {
        this.records = records;
    }

    @Override
    public String name() {
        return "settle";
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        AlertEvent e = d.event();
        DeliveryOutcome o = d.sent().outcome();
        Mono<Void> ref = Mono.empty();
        if (d.decision() instanceof RetryPolicy.Done
                && o instanceof DeliveryOutcome.Delivered ok
                && ok.vendorRef() != null) {
            ref = d.incidentRecorded()
                    .then(records.saveVendorRef(e.incidentId(), e.fingerprint(), d.channel(), ok.vendorRef()));
        }
        Attempt attempt = attempt(e, d.channel(), d.attempt(), d.sent(), null);
        return ref.then(records.settle(d.claim(), attempt, settlement(d.decision())))
                .defaultIfEmpty(false)
                .flatMap(failing -> next.proceed(d.settled(failing)));
    }

    /** How a claim is settled after a send the policy decided on. */
    public static Settlement settlement(RetryPolicy.Decision d) {
        if (d instanceof RetryPolicy.Done) {
            return Settlement.DELIVERED;
        }
        return d instanceof RetryPolicy.GiveUp ? Settlement.DEAD : Settlement.RELEASED;
    }

    /** The attempt log's row for one send of {@code e}; {@code groupId} names the group message that carried it. */
    public static Attempt attempt(AlertEvent e, String channel, int n, SendStage.Sent sent, String groupId) {
        DeliveryOutcome o = sent.outcome();
        return new Attempt(
                e.eventId(),
                e.incidentId(),
                e.fingerprint(),
                e.state(),
                channel,
                n,
                DeliveryMeters.kind(o),
                o.httpStatus(),
                sent.latencyMs(),
                error(o),
                groupId);
    }

    private static String error(DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Transient t) {
            return t.reason();
        }
        if (o instanceof DeliveryOutcome.Permanent p) {
            return p.reason();
        }
        return null;
    }
}
