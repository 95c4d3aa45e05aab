package dev.vigil.ingest.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlertEventValidatorTest {
    private static final long NOW = 1_764_500_000_000L;
    private final AlertEventValidator validator = new AlertEventValidator(300_000);

    private static List<JsonNode> batch(String json) {
        List<JsonNode> out = new ArrayList<>();
        Json.tree(json.getBytes(StandardCharsets.UTF_8)).forEach(out::add);
        return out;
    }

    private static String event(String extra) {
        return event("checkout/payments", extra);
    }

    private static String event(String fingerprint, String extra) {
        return "{\"schemaVersion\":1,\"fingerprint\":\"" + fingerprint
                + "\",\"state\":\"opened\",\"service\":\"checkout\","
                + "\"summary\":\"Payments failing\",\"firstSeen\":1000,\"lastSeen\":2000" + extra + "}";
    }

    private BatchResult<AlertEvent> validate(String json) {
        return validator.validate(batch(json), "checkout", NOW);
    }

    @Test
    void appEventsAreNamespacedToTheirAppWithTheAppEventId() {
        var r = validate("[" + event("") + "]");
        AlertEvent e = r.accepted().get(0).value();
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.fingerprint()).isEqualTo("app/checkout/checkout/payments");
        assertThat(e.incidentId()).isEqualTo("app/checkout/checkout/payments@1000");
        assertThat(e.eventId()).isEqualTo(AlertEvent.appEventId("app/checkout/checkout/payments", AlertState.OPENED));
        assertThat(e.attributes()).containsEntry("app", "checkout");
        assertThat(r.accepted().get(0).key()).isEqualTo("app/checkout/checkout/payments");
    }

    @Test
    void anEventCannotSpeakForAnotherIncidentAppOrSource() {
        // The attack: an app key posting the resolution of a probe incident under the topology's ids.
        var r = validator.validate(
                batch("[{\"schemaVersion\":1,\"fingerprint\":\"monitor/checkout\","
                        + "\"incidentId\":\"monitor/checkout@1700000000000\",\"eventId\":\"monitor/checkout@1700000000000/opened/2\","
                        + "\"state\":\"resolved\",\"source\":\"probe\",\"service\":\"checkout\",\"summary\":\"all good\","
                        + "\"firstSeen\":1700000000000,\"lastSeen\":1700000060000,\"attributes\":{\"app\":\"billing\",\"team\":\"pay\"},"
                        + "\"channels\":[\"ops-pager\"]}]"),
                "demo",
                NOW);
        assertThat(r.rejected()).isEmpty();
        AlertEvent e = r.accepted().get(0).value();
        assertThat(e.fingerprint()).isEqualTo("app/demo/monitor/checkout");
        assertThat(e.incidentId()).isEqualTo("app/demo/monitor/checkout@1700000000000");
        assertThat(e.eventId()).isEqualTo("app/demo/monitor/checkout/resolved");
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.attributes()).containsEntry("app", "demo").containsEntry("team", "pay");
        assertThat(e.channels())
                .as("the notifier decides which channels an app may name")
                .containsExactly("ops-pager");
    }

    @Test
    void clientIdsAndSourceAreIgnoredEvenWhenIllFormed() {
        var r = validate(
                "[" + event(",\"source\":\"heartbeat\",\"eventId\":\"" + "x".repeat(400) + "\",\"incidentId\":\"\"")
                        + "," + event(",\"source\":\"not-a-source\"") + "]");
        assertThat(r.rejected()).isEmpty();
        assertThat(r.accepted()).extracting(a -> a.value().source()).containsExactly(AlertSource.APP, AlertSource.APP);
        assertThat(r.accepted())
                .extracting(a -> a.value().eventId())
                .containsOnly("app/checkout/checkout/payments/opened");
    }

    @ParameterizedTest
    @CsvSource({
        "app/checkout/db/primary, app/checkout/db/primary",
        "app/billing/db, app/checkout/app/billing/db",
        "app/checkoutx/db, app/checkout/app/checkoutx/db",
        "app/checkout, app/checkout/app/checkout"
    })
    void aFingerprintAlreadyInTheAppsNamespaceIsKeptAnyOtherIsPrefixed(String sent, String published) {
        var r = validate("[" + event(sent, "") + "]");
        assertThat(r.accepted()).singleElement().satisfies(a -> {
            assertThat(a.value().fingerprint()).isEqualTo(published);
            assertThat(a.key()).isEqualTo(published);
            assertThat(a.value().incidentId()).isEqualTo(published + "@1000");
        });
    }

    @Test
    void aFingerprintThatNoLongerFitsOnceNamespacedIsRejectedPerEvent() {
        String longHead = "h".repeat(64);
        var r = validate(
                "[" + event("svc/a/b/c", "") + "," + event(longHead + "/" + "s".repeat(128) + "/" + "t".repeat(128), "")
                        + "," + event("svc/a/b", "") + "]");
        assertThat(r.rejected())
                .extracting(Rejection::index, Rejection::field)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "fingerprint"),
                        org.assertj.core.groups.Tuple.tuple(1, "fingerprint"));
        assertThat(r.rejected().get(0).reason()).contains("too many parts once namespaced as app/checkout/");
        assertThat(r.rejected().get(1).reason())
                .contains("too long once namespaced")
                .contains("256");
        assertThat(r.accepted())
                .singleElement()
                .satisfies(a -> assertThat(a.value().fingerprint()).isEqualTo("app/checkout/svc/a/b"));
    }

    @Test
    void anAttributeSlotIsKeptForTheApp() {
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            attrs.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        var r = validate("[" + event(",\"attributes\":{" + attrs + "}") + "]");
        assertThat(r.rejected()).singleElement().satisfies(x -> {
            assertThat(x.field()).isEqualTo("attributes");
            assertThat(x.reason()).contains("at most 15 entries besides app");
        });
    }

    @Test
    void timesFarAheadOrOutOfRangeAreRejectedPerEvent() {
        var r = validate("[" + event("").replace("\"lastSeen\":2000", "\"lastSeen\":9223372036854775807") + ","
                + event("")
                        .replace("\"firstSeen\":1000", "\"firstSeen\":" + (NOW + 400_000))
                        .replace("\"lastSeen\":2000", "\"lastSeen\":" + (NOW + 400_000))
                + ","
                + event("").replace("\"lastSeen\":2000", "\"lastSeen\":9223372036854775808") + ","
                + event("").replace("\"firstSeen\":1000", "\"firstSeen\":\"+999999999-01-01T00:00:00Z\"") + ","
                + event("").replace("\"firstSeen\":1000", "\"firstSeen\":-1") + ","
                + event("").replace("\"lastSeen\":2000", "\"lastSeen\":" + (NOW + 200_000)) + "]");
        assertThat(r.rejected())
                .extracting(Rejection::field)
                .containsExactly("lastSeen", "firstSeen", "lastSeen", "firstSeen", "firstSeen");
        assertThat(r.rejected().get(0).reason()).isEqualTo("is more than 300 s ahead of the server clock");
        assertThat(r.rejected().get(2).reason()).contains("out of range");
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(5);
    }

    @Test
    void privacyGuardCoversLinksAndAttributes() {
        var r = validate("[" + event(",\"links\":{\"dash\":\"https://grafana/d?user=bob\"}") + ","
                + event(",\"attributes\":{\"owner\":\"bob@example.com\"}") + "]");
        assertThat(r.accepted()).isEmpty();
        assertThat(r.rejected()).extracting(Rejection::field).containsExactly("links.dash", "attributes.owner");
    }
}
