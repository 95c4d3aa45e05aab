package dev.vigil.ingest.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.validate.Rejection;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlertmanagerTranslatorTest {
    private static final long NOW = Instant.parse("2026-01-01T11:00:00Z").toEpochMilli();
    private final AlertmanagerTranslator translator = new AlertmanagerTranslator();

    private static JsonNode payload(String alerts) {
        return Json.tree(("{\"version\":\"4\",\"groupKey\":\"g\",\"status\":\"firing\",\"receiver\":\"vigil\","
                        + "\"externalURL\":\"http://am:9093\",\"alerts\":[" + alerts + "]}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String alert(String status, String labels, String extra) {
        return "{\"status\":\"" + status + "\",\"labels\":{" + labels
                + "},\"annotations\":{\"summary\":\"Disk\\nalmost full\","
                + "\"runbook_url\":\"https://wiki/runbooks/disk?x=1\"},\"startsAt\":\"2026-01-01T10:00:00Z\","
                + "\"endsAt\":\"2026-01-01T10:45:00.5+00:00\",\"generatorURL\":\"http://prom:9090/graph?g0.expr=x\""
                + extra + "}";
    }

    private AlertEvent only(JsonNode p) {
        var r = translator.translate(p, "infra", NOW, 1000);
        assertThat(r.rejected()).isEmpty();
        return r.accepted().get(0).value();
    }

    @Test
    void firingBecomesOpenedWithAlertmanagerFingerprint() {
        AlertEvent e = only(payload(alert(
                "firing",
                "\"alertname\":\"DiskFull\",\"severity\":\"P1\",\"service\":\"db\"",
                ",\"fingerprint\":\"a1b2c3d4e5f60718\"")));
        assertThat(e.state()).isEqualTo(AlertState.OPENED);
        assertThat(e.fingerprint()).isEqualTo("app/infra/alertmanager/a1b2c3d4e5f60718");
        assertThat(e.eventId())
                .isEqualTo(AlertEvent.appEventId("app/infra/alertmanager/a1b2c3d4e5f60718", AlertState.OPENED));
        assertThat(e.incidentId())
                .isEqualTo("app/infra/alertmanager/a1b2c3d4e5f60718@"
                        + Instant.parse("2026-01-01T10:00:00Z").toEpochMilli());
        assertThat(e.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(e.summary()).isEqualTo("Disk almost full");
        assertThat(e.service()).isEqualTo("db");
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.firstSeen())
                .isEqualTo(Instant.parse("2026-01-01T10:00:00Z").toEpochMilli());
        assertThat(e.lastSeen()).isEqualTo(NOW);
        assertThat(e.links())
                .containsEntry("source", "http://prom:9090/graph")
                .containsEntry("alertmanager", "http://am:9093")
                .containsEntry("runbook", "https://wiki/runbooks/disk");
        assertThat(e.attributes()).containsEntry("alertname", "DiskFull").containsEntry("app", "infra");
    }

    @Test
    void resolvedBecomesResolvedEndingAtEndsAt() {
        AlertEvent e = only(payload(alert("resolved", "\"alertname\":\"DiskFull\"", "")));
        assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
        assertThat(e.lastSeen())
                .isEqualTo(Instant.parse("2026-01-01T10:45:00.500Z").toEpochMilli());
        assertThat(e.severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void fingerprintFromLabelsIsStableAndOrderIndependent() {
        AlertEvent a = only(payload(alert("firing", "\"alertname\":\"X\",\"job\":\"api\"", "")));
        AlertEvent b = only(payload(alert("resolved", "\"job\":\"api\",\"alertname\":\"X\"", "")));
        AlertEvent c = only(payload(alert("firing", "\"alertname\":\"X\",\"job\":\"web\"", "")));
        assertThat(a.fingerprint())
                .matches("app/infra/alertmanager/[0-9a-f]{16}")
                .isEqualTo(b.fingerprint())
                .isNotEqualTo(c.fingerprint());
        assertThat(a.service()).isEqualTo("api");
    }

    @ParameterizedTest
    @CsvSource({"critical,CRITICAL", "P2,WARNING", "warning,WARNING", "p3,INFO", "page,INFO"})
    void severityLabelWithAliases(String label, Severity expected) {
        assertThat(only(payload(alert("firing", "\"alertname\":\"X\",\"severity\":\"" + label + "\"", "")))
                        .severity())
                .isEqualTo(expected);
    }

    @Test
    void serviceFallsBackToTheApp() {
        assertThat(only(payload(alert("firing", "\"alertname\":\"X\"", ""))).service())
                .isEqualTo("infra");
    }

    @Test
    void eachBadAlertIsRejectedUnderItsIndex() {
        var r = translator.translate(
                payload(alert("pending", "\"alertname\":\"X\"", "") + ","
                        + "{\"status\":\"firing\",\"startsAt\":\"2026-01-01T10:00:00Z\"}" + ","
                        + alert("firing", "\"alertname\":\"X\"", "").replace("2026-01-01T10:00:00Z", "yesterday") + ","
                        + alert("firing", "\"alertname\":\"X\",\"owner\":\"bob@example.com\"", "") + ","
                        + alert("firing", "\"alertname\":\"X\"", "")),
                "infra",
                NOW,
                1000);
        assertThat(r.rejected())
                .extracting(Rejection::field)
                .containsExactly(
                        "alerts[0].status", "alerts[1].labels", "alerts[2].startsAt", "alerts[3].attributes.owner");
        assertThat(r.accepted()).extracting(a -> a.index()).containsExactly(4);
    }

    @Test
    void aLabelCannotOverrideTheAppAttribute() {
        AlertEvent e = only(payload(alert("firing", "\"alertname\":\"X\",\"app\":\"billing\"", "")));
        assertThat(e.attributes()).containsEntry("app", "infra");
        assertThat(e.source()).isEqualTo(AlertSource.APP);
    }

    @Test
    void malformedExtremeOrFarFutureTimesRejectTheAlert() {
        String ok = alert("resolved", "\"alertname\":\"X\"", "");
        var r = translator.translate(
                payload(ok.replace("2026-01-01T10:00:00Z", "+999999999-01-01T00:00:00Z") + ","
                        + ok.replace("2026-01-01T10:00:00Z", "2026-13-45T99:00:00Z") + ","
                        + ok.replace("\"2026-01-01T10:00:00Z\"", "-1") + ","
                        + ok.replace("\"2026-01-01T10:45:00.5+00:00\"", "1e300") + ","
                        + ok.replace("2026-01-01T10:45:00.5+00:00", "+999999999-01-01T00:00:00Z") + ","
                        + ok.replace("2026-01-01T10:00:00Z", "1969-12-31T23:59:59Z") + ","
                        + ok.replace("2026-01-01T10:45:00.5+00:00", "9999-12-31T23:59:59Z") + ","
                        + ok),
                "infra",
                NOW,
                1000);
        assertThat(r.rejected())
                .extracting(Rejection::field)
                .containsExactly(
                        "alerts[0].startsAt",
                        "alerts[1].startsAt",
                        "alerts[2].startsAt",
                        "alerts[3].endsAt",
                        "alerts[4].endsAt",
                        "alerts[5].startsAt",
                        "alerts[6].endsAt");
        assertThat(r.rejected())
                .extracting(Rejection::reason)
                .containsExactly(
                        "is out of range (must be between 1970 and year 292278994)",
                        "must be an RFC 3339 time",
                        "must be an RFC 3339 time string",
                        "must be an RFC 3339 time string",
                        "is out of range (must be between 1970 and year 292278994)",
                        "must not be before 1970",
                        "is more than 300 s ahead of the server clock");
        assertThat(r.accepted()).extracting(a -> a.index()).containsExactly(7);
    }

    @Test
    void refusesPayloadsThatAreNotVersion4Webhooks() {
        assertThatThrownBy(() -> translator.translate(
                        Json.tree("{\"alerts\":[]}".getBytes(StandardCharsets.UTF_8)), "a", NOW, 10))
                .isInstanceOfSatisfying(
                        HttpProblem.class, p -> assertThat(p.detail()).startsWith("version"));
        assertThatThrownBy(() -> translator.translate(
                        Json.tree("{\"version\":\"4\",\"alerts\":{}}".getBytes(StandardCharsets.UTF_8)), "a", NOW, 10))
                .isInstanceOfSatisfying(
                        HttpProblem.class, p -> assertThat(p.detail()).startsWith("alerts"));
        assertThatThrownBy(() -> translator.translate(
                        payload(alert("firing", "\"a\":\"b\"", "") + "," + alert("firing", "\"a\":\"c\"", "")),
                        "a",
                        NOW,
                        1))
                .isInstanceOfSatisfying(
                        HttpProblem.class, p -> assertThat(p.status()).isEqualTo(413));
    }

    @Test
    void detectsWebhookPayloadsButNotAlertEvents() {
        assertThat(AlertmanagerTranslator.isWebhook(payload(""))).isTrue();
        assertThat(AlertmanagerTranslator.isWebhook(
                        Json.tree("{\"fingerprint\":\"a/b\",\"alerts\":1}".getBytes(StandardCharsets.UTF_8))))
                .isFalse();
        assertThat(AlertmanagerTranslator.isWebhook(Json.tree("[]".getBytes(StandardCharsets.UTF_8))))
                .isFalse();
    }
}
