package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.contract.VendorIncidentUpdate.Action;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class VendorAcknowledgementsTest {
    private static final long NOW = T0 + 600_000;
    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final Map<String, Ack> acks = new HashMap<>();
    private final List<Object[]> written = new ArrayList<>();
    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

    private VendorAcknowledgements acknowledgements() {
        return new VendorAcknowledgements(
                log,
                Map.of("betterstack", List.of("pager", "betterstack")),
                acks::get,
                (ack, notice, audit) -> Mono.fromRunnable(() -> written.add(new Object[] {ack, notice, audit})),
                clock);
    }

    private AlertEvent pagedOn(String channel, String vendorId) {
        AlertEvent opened = TestEvents.opened("monitor/checkout-api", Severity.CRITICAL);
        log.recordIncident(opened).block();
        log.saveVendorRef(opened.incidentId(), opened.fingerprint(), channel, vendorId)
                .block();
        return opened;
    }

    private static VendorIncidentUpdate update(String id, Action action, String by, long at) {
        return new VendorIncidentUpdate(1, "betterstack", id, action, by, at, NOW);
    }

    @Test
    void anAcknowledgementInBetterStackAcknowledgesTheVigilIncidentThatChannelOpened() {
        AlertEvent opened = pagedOn("betterstack", "987");
        var outcome = acknowledgements()
                .apply(update("987", Action.ACKNOWLEDGED, "Alice Example", T0 + 300_000))
                .block();

        assertThat(outcome).isEqualTo(VendorAcknowledgements.Outcome.ACKNOWLEDGED);
        assertThat(written).hasSize(1);
        Ack ack = (Ack) written.get(0)[0];
        assertThat(ack.fingerprint()).isEqualTo(opened.fingerprint());
        assertThat(ack.incidentId()).isEqualTo(opened.incidentId());
        assertThat(ack.by()).isEqualTo("Alice Example via BetterStack");
        assertThat(ack.until()).isNull();
        assertThat(ack.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(ack.at()).isEqualTo(T0 + 300_000);
        AlertEvent notice = (AlertEvent) written.get(0)[1];
        assertThat(notice.state()).isEqualTo(AlertState.ACKNOWLEDGED);
        assertThat(notice.eventId()).isEqualTo(opened.incidentId() + "/acknowledged/" + (T0 + 300_000));
        assertThat(notice.incidentId()).isEqualTo(opened.incidentId());
        assertThat(notice.source()).isEqualTo(AlertSource.PROBE);
        assertThat(notice.summary()).startsWith("Acknowledged by Alice Example via BetterStack");
        assertThat(notice.attributes()).containsEntry("acknowledgedBy", "Alice Example via BetterStack");
        AuditRecord audit = (AuditRecord) written.get(0)[2];
        assertThat(audit.actor()).isEqualTo("betterstack-webhook");
        assertThat(audit.action()).isEqualTo("alert.acknowledged");
        assertThat(audit.target()).isEqualTo("alert/" + opened.fingerprint());
        assertThat(audit.details())
                .containsEntry("vendorIncidentId", "987")
                .containsEntry("incidentId", opened.incidentId());
    }

    @Test
    void aPersonResolvingInBetterStackAcknowledgesAndSaysVigilStillDecidesTheResolution() {
        pagedOn("pager", "55");
        acknowledgements().apply(update("55", Action.RESOLVED, null, T0 + 1000)).block();
        Ack ack = (Ack) written.get(0)[0];
        assertThat(ack.by()).isEqualTo("BetterStack");
        assertThat(ack.comment()).contains("resolved in BetterStack").contains("checks pass");
    }

    @Test
    void anUnknownVendorIdOrAnotherChannelsIdOrAnotherVendorWritesNothing() {
        pagedOn("slack", "987"); // a Slack message id, not a BetterStack incident
        assertThat(acknowledgements()
                        .apply(update("987", Action.ACKNOWLEDGED, "a", T0))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.UNKNOWN_INCIDENT);
        assertThat(acknowledgements()
                        .apply(update("nope", Action.ACKNOWLEDGED, "a", T0))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.UNKNOWN_INCIDENT);
        assertThat(acknowledgements()
                        .apply(new VendorIncidentUpdate(1, "pagerduty", "987", Action.ACKNOWLEDGED, "a", T0, NOW))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.UNKNOWN_INCIDENT);
        assertThat(written).isEmpty();
    }

    @Test
    void aResolvedIncidentIsLeftAlone() {
        AlertEvent opened = pagedOn("betterstack", "987");
        log.recordIncident(TestEvents.event(opened.fingerprint(), AlertState.RESOLVED, Severity.CRITICAL, 2))
                .block();
        assertThat(acknowledgements()
                        .apply(update("987", Action.ACKNOWLEDGED, "a", T0))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.ALREADY_RESOLVED);
        assertThat(written).isEmpty();
    }

    @Test
    void theEchoOfAnAcknowledgementVigilSentToBetterStackIsDropped() {
        AlertEvent opened = pagedOn("betterstack", "987");
        acks.put(
                opened.fingerprint(),
                new Ack(
                        1,
                        opened.fingerprint(),
                        opened.incidentId(),
                        "standalone-admin",
                        T0,
                        null,
                        "on it",
                        Severity.CRITICAL));
        assertThat(acknowledgements()
                        .apply(update("987", Action.ACKNOWLEDGED, "standalone-admin", T0 + 1000))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.ALREADY_ACKNOWLEDGED);
        assertThat(written).isEmpty();
    }

    @Test
    void anExpiredVigilAcknowledgementDoesNotStopABetterStackOne() {
        AlertEvent opened = pagedOn("betterstack", "987");
        acks.put(
                opened.fingerprint(),
                new Ack(1, opened.fingerprint(), opened.incidentId(), "bob", T0, T0 + 1000, null, Severity.CRITICAL));
        assertThat(acknowledgements()
                        .apply(update("987", Action.ACKNOWLEDGED, "alice", T0 + 2000))
                        .block())
                .isEqualTo(VendorAcknowledgements.Outcome.ACKNOWLEDGED);
    }

    @Test
    void aRedeliveredWebhookWritesTheSameRecords() {
        pagedOn("betterstack", "987");
        VendorIncidentUpdate u = update("987", Action.ACKNOWLEDGED, "alice", T0 + 5000);
        acknowledgements().apply(u).block();
        acknowledgements().apply(u).block();
        assertThat(written).hasSize(2);
        assertThat(written.get(1)[0]).isEqualTo(written.get(0)[0]);
        assertThat(((AlertEvent) written.get(1)[1]).eventId()).isEqualTo(((AlertEvent) written.get(0)[1]).eventId());
        assertThat(((AuditRecord) written.get(1)[2]).id()).isEqualTo(((AuditRecord) written.get(0)[2]).id());
    }

    @Test
    void aVendorTimeInTheFutureIsClampedToNow() {
        pagedOn("betterstack", "987");
        acknowledgements()
                .apply(update("987", Action.ACKNOWLEDGED, "alice", NOW + 86_400_000))
                .block();
        assertThat(((Ack) written.get(0)[0]).at()).isEqualTo(NOW);
    }

    @Test
    void aStoreOutageFailsTheUpdateSoItIsRetried() {
        pagedOn("betterstack", "987");
        log.down.set(true);
        assertThatThrownBy(() -> acknowledgements()
                        .apply(update("987", Action.ACKNOWLEDGED, "a", T0))
                        .block())
                .hasMessageContaining("store down");
        assertThat(written).isEmpty();
    }
}
