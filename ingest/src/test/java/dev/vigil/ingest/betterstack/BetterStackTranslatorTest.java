package dev.vigil.ingest.betterstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.contract.VendorIncidentUpdate.Action;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BetterStackTranslatorTest {
    private static final long NOW = Instant.parse("2026-03-09T18:00:00Z").toEpochMilli();
    private static final long ACKED = Instant.parse("2026-03-09T17:40:00Z").toEpochMilli();
    private static final long RESOLVED = Instant.parse("2026-03-09T17:55:12.5Z").toEpochMilli();
    private final BetterStackTranslator translator = new BetterStackTranslator(300_000);

    /** BetterStack's incident resource as its webhook posts it, with some attributes replaced. */
    static String incident(Map<String, Object> attributes) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("name", "checkout-api");
        a.put("url", null);
        a.put("http_method", "get");
        a.put("cause", "Status 500");
        a.put("incident_group_id", null);
        a.put("started_at", "2026-03-09T17:37:56.662Z");
        a.put("acknowledged_at", null);
        a.put("acknowledged_by", null);
        a.put("resolved_at", null);
        a.put("resolved_by", null);
        a.put("status", "Started");
        a.put("team_name", "Testing team");
        a.put("response_content", null);
        a.put("regions", java.util.List.of("us", "eu"));
        a.putAll(attributes);
        ObjectNode node = Json.mapper().createObjectNode();
        a.forEach((k, v) -> node.set(k, v == null ? NullNode.getInstance() : Json.toTree(v)));
        return "{\"data\":{\"id\":\"123456789\",\"type\":\"incident\",\"attributes\":" + node
                + ",\"relationships\":{\"monitor\":{\"data\":{\"id\":\"2\",\"type\":\"monitor\"}}}}}";
    }

    static String acknowledged(String by) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("status", "Acknowledged");
        a.put("acknowledged_at", "2026-03-09T17:40:00Z");
        a.put("acknowledged_by", by);
        return incident(a);
    }

    static String resolved(String by) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("status", "Resolved");
        a.put("acknowledged_at", "2026-03-09T17:40:00Z");
        a.put("acknowledged_by", "Alice Example");
        a.put("resolved_at", "2026-03-09T17:55:12.500+00:00");
        a.put("resolved_by", by);
        return incident(a);
    }

    private BetterStackTranslator.Translation translate(String body) {
        return translator.translate(body.getBytes(StandardCharsets.UTF_8), NOW);
    }

    private VendorIncidentUpdate update(String body) {
        var t = translate(body);
        assertThat(t).isInstanceOf(BetterStackTranslator.Update.class);
        return ((BetterStackTranslator.Update) t).update();
    }

    private BetterStackTranslator.Ignored ignored(String body) {
        var t = translate(body);
        assertThat(t).isInstanceOf(BetterStackTranslator.Ignored.class);
        return (BetterStackTranslator.Ignored) t;
    }

    private void refused(String body, String type, String detail) {
        assertThatThrownBy(() -> translate(body)).isInstanceOfSatisfying(HttpProblem.class, p -> {
            assertThat(p.status()).isEqualTo(400);
            assertThat(p.type()).isEqualTo(type);
            assertThat(p.detail()).isEqualTo(detail);
        });
    }

    @Test
    void aPersonsAcknowledgementBecomesAcknowledgedByThemAtTheirTime() {
        VendorIncidentUpdate u = update(acknowledged("Alice Example"));
        assertThat(u)
                .isEqualTo(new VendorIncidentUpdate(
                        1, "betterstack", "123456789", Action.ACKNOWLEDGED, "Alice Example", ACKED, NOW));
        assertThat(u.key()).isEqualTo("betterstack/123456789");
    }

    @Test
    void aPersonsResolutionBecomesResolvedByThemAtTheirTimeEvenWhenItWasAcknowledgedBefore() {
        assertThat(update(resolved("Bob Builder")))
                .isEqualTo(new VendorIncidentUpdate(
                        1, "betterstack", "123456789", Action.RESOLVED, "Bob Builder", RESOLVED, NOW));
    }

    @Test
    void aResolutionIsReadFromResolvedAtWhateverTheStatusSays() {
        assertThat(update(incident(Map.of(
                                "status",
                                "Started",
                                "resolved_at",
                                "2026-03-09T17:55:12.5Z",
                                "resolved_by",
                                "Bob Builder")))
                        .action())
                .isEqualTo(Action.RESOLVED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vigil", "Vigil", "VIGIL", " vigil ", "vi\u200bgil", "\u202evigil"})
    void vigilsOwnResolutionEchoedBackIsIgnoredEvenWhenAPersonAcknowledgedBefore(String by) {
        var i = ignored(resolved(by));
        assertThat(i.reason()).isEqualTo(BetterStackTranslator.Reason.OWN_RESOLUTION);
        assertThat(i.detail()).contains("Vigil itself");
    }

    @Test
    void aResolutionWithoutAResolverIsIgnored() {
        assertThat(ignored(resolved(null)).reason()).isEqualTo(BetterStackTranslator.Reason.NO_PERSON);
        assertThat(ignored(resolved(" \u200b ")).reason()).isEqualTo(BetterStackTranslator.Reason.NO_PERSON);
        assertThat(ignored(incident(Map.of("status", "Resolved"))).reason())
                .isEqualTo(BetterStackTranslator.Reason.NO_PERSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Started", "Unconfirmed", "Validating", "started"})
    void statusesThatAreNoPersonsActAreIgnoredNamingTheStatus(String status) {
        var i = ignored(incident(Map.of("status", status)));
        assertThat(i.reason()).isEqualTo(BetterStackTranslator.Reason.STATUS);
        String canonical = status.substring(0, 1).toUpperCase() + status.substring(1);
        assertThat(i.detail()).isEqualTo("status " + canonical + " is not a person's acknowledgement or resolution");
    }

    @Test
    void anUnknownStatusIsIgnoredWithoutEchoingIt() {
        var i = ignored(incident(Map.of("status", "Escalated<script>")));
        assertThat(i.reason()).isEqualTo(BetterStackTranslator.Reason.STATUS);
        assertThat(i.detail()).doesNotContain("Escalated").contains("none of Unconfirmed, Started, Acknowledged");
        assertThat(ignored(incident(Map.of("status", "Escalated", "name", "x"))).reason())
                .isEqualTo(BetterStackTranslator.Reason.STATUS);
    }

    @Test
    void anUnknownStatusWithAnAcknowledgementIsAnAcknowledgement() {
        assertThat(update(incident(Map.of(
                                "status",
                                "Escalated",
                                "acknowledged_at",
                                "2026-03-09T17:40:00Z",
                                "acknowledged_by",
                                "Alice")))
                        .action())
                .isEqualTo(Action.ACKNOWLEDGED);
    }

    @Test
    void statusAcknowledgedWithoutTimeOrNameIsAcknowledgedNowByNobody() {
        VendorIncidentUpdate u = update(incident(Map.of("status", "Acknowledged")));
        assertThat(u.action()).isEqualTo(Action.ACKNOWLEDGED);
        assertThat(u.at()).isEqualTo(NOW);
        assertThat(u.by()).isNull();
        assertThat(u.receivedAt()).isEqualTo(NOW);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "alice@example.com",
                "Alice (alice@example.com)",
                "+44 20 7946 0958",
                "alice＠example．com",
                "Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
            })
    void aNameCarryingContactDataIsDroppedButTheAcknowledgementStands(String by) {
        VendorIncidentUpdate u = update(acknowledged(by));
        assertThat(u.action()).isEqualTo(Action.ACKNOWLEDGED);
        assertThat(u.by()).isNull();
        assertThat(Json.string(u)).doesNotContain("example").doesNotContain("7946");
    }

    @Test
    void aContactPastTheCutIsStillFoundAndDropped() {
        assertThat(update(acknowledged("A".repeat(95) + " bob@example.com")).by())
                .isNull();
    }

    @Test
    void aNameIsCleanedOfControlAndInvisibleCharacters() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("  Alice Example  ", "Alice Example");
        cases.put("Alice\tExample\r\n", "Alice Example");
        cases.put("Alice\u202e elpmaxE", "Alice elpmaxE");
        cases.put("Ali\u200bce\u0000", "Alice");
        cases.put("Zo\u00eb \u2003 \u00dcnal", "Zo\u00eb \u00dcnal");
        cases.forEach((by, expected) ->
                assertThat(update(acknowledged(by)).by()).as(by).isEqualTo(expected));
    }

    @Test
    void aNameIsCutToOneHundredCharactersWithoutSplittingACharacter() {
        assertThat(update(acknowledged("x".repeat(300))).by()).hasSize(100);
        String emoji = "x".repeat(99) + "\uD83D\uDE00" + "y";
        assertThat(update(acknowledged(emoji)).by()).isEqualTo("x".repeat(99));
        assertThat(update(acknowledged("\u0001\u200b")).by()).isNull();
    }

    @Test
    void aNumericIdIsTakenAsItsDigits() {
        String body = acknowledged("Alice").replace("\"id\":\"123456789\"", "\"id\":123456789");
        assertThat(update(body).vendorIncidentId()).isEqualTo("123456789");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"id\":\"123 456\"        | data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])",
                "\"id\":\"../../etc\"      | data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])",
                "\"id\":\"\"               | data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])",
                "\"id\":-5                 | data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])",
                "\"id\":1.5                | data.id: must be a string or an integer",
                "\"id\":{\"a\":1}          | data.id: must be a string or an integer",
                "\"id\":true               | data.id: must be a string or an integer",
                "\"id\":null               | data.id: is required"
            })
    void aBadIdIsRefusedNamingTheField(String id, String detail) {
        refused(acknowledged("Alice").replace("\"id\":\"123456789\"", id), "betterstack-payload", detail);
    }

    @Test
    void anOverlongIdIsRefused() {
        refused(
                acknowledged("Alice").replace("123456789", "1".repeat(129)),
                "betterstack-payload",
                "data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])");
    }

    @Test
    void aMissingIdIsRefused() {
        refused(
                acknowledged("Alice").replace("\"id\":\"123456789\",", ""),
                "betterstack-payload",
                "data.id: is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"monitor\"", "\"Incident\"", "null", "1"})
    void aResourceOtherThanAnIncidentIsRefused(String type) {
        refused(
                acknowledged("Alice").replace("\"type\":\"incident\"", "\"type\":" + type),
                "betterstack-payload",
                "data.type: must be \"incident\" (configure the webhook for incidents)");
    }

    @Test
    void aBodyThatIsNoJsonOrNoIncidentIsRefused() {
        refused("{\"data\":", "malformed-json", "the body is not valid JSON");
        refused("", "malformed-json", "the body is not valid JSON");
        refused("{\"data\":{}} trailing", "malformed-json", "the body is not valid JSON");
        refused(
                "[" + acknowledged("Alice") + "]",
                "betterstack-payload",
                "$: must be a JSON object (BetterStack's incident webhook)");
        refused("\"incident\"", "betterstack-payload", "$: must be a JSON object (BetterStack's incident webhook)");
        refused("{}", "betterstack-payload", "data: is required and must be an object");
        refused("{\"data\":[1]}", "betterstack-payload", "data: is required and must be an object");
        refused(
                "{\"data\":{\"id\":\"1\",\"type\":\"incident\"}}",
                "betterstack-payload",
                "data.attributes: is required and must be an object");
        refused(
                "{\"data\":{\"id\":\"1\",\"type\":\"incident\",\"attributes\":\"x\"}}",
                "betterstack-payload",
                "data.attributes: is required and must be an object");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "status          | 7                               | must be a string or null",
                "acknowledged_by | 42                              | must be a string or null",
                "resolved_by     | [\"x\"]                         | must be a string or null",
                "acknowledged_at | \"yesterday\"                   | must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z",
                "acknowledged_at | \"2026-03-09T17:40:00\"         | must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z",
                "acknowledged_at | \"2026-13-45T99:00:00Z\"        | must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z",
                "acknowledged_at | \"\"                            | must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z",
                "acknowledged_at | 1583775600000                   | must be an ISO-8601 time string or null",
                "resolved_at     | \"+999999999-01-01T00:00:00Z\"  | is out of range (must be between 1970 and year 292278994)",
                "resolved_at     | \"1969-12-31T23:59:59Z\"        | must not be before 1970",
                "resolved_at     | \"9999-12-31T23:59:59Z\"        | is more than 300 s ahead of the server clock",
                "acknowledged_at | \"2026-03-09T18:05:01Z\"        | is more than 300 s ahead of the server clock"
            })
    void aBadAttributeIsRefusedNamingIt(String attribute, String json, String reason) {
        String body = acknowledged("Alice")
                .replaceFirst(
                        "\"" + attribute + "\":(null|\"[^\"]*\")",
                        "\"" + attribute + "\":" + java.util.regex.Matcher.quoteReplacement(json));
        assertThat(body).contains("\"" + attribute + "\":" + json);
        refused(body, "betterstack-payload", "data.attributes." + attribute + ": " + reason);
    }

    @Test
    void aTimeAheadOfTheServerClockWithinTheSkewIsKeptSoARedeliveryCarriesTheSameTime() {
        VendorIncidentUpdate u =
                update(incident(Map.of("acknowledged_at", "2026-03-09T18:04:00Z", "acknowledged_by", "Alice")));
        assertThat(u.at()).isEqualTo(Instant.parse("2026-03-09T18:04:00Z").toEpochMilli());
        assertThat(update(incident(Map.of("acknowledged_at", "2026-03-09T18:04:00Z")))
                        .at())
                .isEqualTo(u.at());
    }

    @Test
    void anOffsetTimeIsReadAsTheInstantItNames() {
        VendorIncidentUpdate u = update(incident(Map.of("acknowledged_at", "2026-03-09T18:40:00+01:00")));
        assertThat(u.at()).isEqualTo(ACKED);
    }
}
