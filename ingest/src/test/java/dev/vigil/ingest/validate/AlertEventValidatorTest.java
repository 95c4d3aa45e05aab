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

class AlertEventValidatorTest {
    private static List<JsonNode> batch(String json) {
        List<JsonNode> out = new ArrayList<>();
        Json.tree(json.getBytes(StandardCharsets.UTF_8)).forEach(out::add);
        return out;
    }

    private static String event(String extra) {
        return "{\"schemaVersion\":1,\"fingerprint\":\"checkout/payments\",\"state\":\"opened\",\"service\":\"checkout\","
                + "\"summary\":\"Payments failing\",\"firstSeen\":1000,\"lastSeen\":2000" + extra + "}";
    }

    @Test
    void appEventsDefaultToSourceAppWithTheAppEventId() {
        var r = new AlertEventValidator().validate(batch("[" + event("") + "]"));
        AlertEvent e = r.accepted().get(0).value();
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.eventId()).isEqualTo(AlertEvent.appEventId("checkout/payments", AlertState.OPENED));
        assertThat(r.accepted().get(0).key()).isEqualTo("checkout/payments");
    }

    @Test
    void refusesEventsClaimingAnotherSource() {
        var r = new AlertEventValidator().validate(batch("[" + event(",\"source\":\"probe\",\"eventId\":\"x\"") + ","
                + event(",\"source\":\"app\"") + "]"));
        assertThat(r.rejected()).singleElement().satisfies(x -> {
            assertThat(x.index()).isZero();
            assertThat(x.field()).isEqualTo("source");
        });
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(1);
    }

    @Test
    void privacyGuardCoversLinksAndAttributes() {
        var r = new AlertEventValidator().validate(batch("[" + event(",\"links\":{\"dash\":\"https://grafana/d?user=bob\"}") + ","
                + event(",\"attributes\":{\"owner\":\"bob@example.com\"}") + "]"));
        assertThat(r.accepted()).isEmpty();
        assertThat(r.rejected()).extracting(Rejection::field).containsExactly("links.dash", "attributes.owner");
    }
}
