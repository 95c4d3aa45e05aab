package dev.vigil.notifier.channel.pagerduty;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PagerDutyNotifierTest {
    /** 32 characters, like an Events API v2 integration key. */
    private static final String KEY = "R0uT1nGkEy0123456789abcdefABCDEF";

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:10:00Z"), ZoneOffset.UTC);
    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("pagerduty-test", 2, Duration.ofSeconds(5));
    private final PagerDutyNotifier pd = new PagerDutyNotifier(vendor.uri("/v2/enqueue"), KEY, http, CLOCK);

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    private DeliveryOutcome send(AlertEvent e) {
        return pd.send(new Notification(e, "pagerduty", null)).block(Duration.ofSeconds(10));
    }

    private JsonNode lastBody() {
        return Json.tree(vendor.requests.get(vendor.requests.size() - 1).body().getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(String s) {
        return Json.tree(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void openedIsATriggerWithTheFullPayloadAndTheIncidentAsDedupKey() {
        vendor.respond(
                r -> Reply.json(202, "{\"status\":\"success\",\"message\":\"Event processed\",\"dedup_key\":\"x\"}"));
        AlertEvent e = opened("monitor/checkout", Severity.CRITICAL);
        assertThat(send(e)).isEqualTo(new DeliveryOutcome.Delivered(202, null));

        FakeVendor.Request r = vendor.requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/v2/enqueue");
        assertThat(r.header("content-type")).startsWith("application/json");
        assertThat(r.header("authorization"))
                .as("the routing key travels in the body only")
                .isNull();
        assertThat(lastBody())
                .isEqualTo(
                        json(
                                """
                {"routing_key":"R0uT1nGkEy0123456789abcdefABCDEF","event_action":"trigger",
                 "dedup_key":"monitor/checkout@1767225600000",
                 "payload":{"summary":"[CRITICAL] checkout-api: checkout-api is down in 2 of 3 regions",
                   "source":"checkout-api","severity":"critical","timestamp":"2026-01-01T00:00:00Z",
                   "component":"service","group":"checkout-api","class":"probe",
                   "custom_details":{"fingerprint":"monitor/checkout","incident":"monitor/checkout@1767225600000",
                     "event":"monitor/checkout@1767225600000/opened/1","state":"opened","severity":"critical",
                     "occurrences":1,"first_seen":"2026-01-01T00:00:00Z","last_seen":"2026-01-01T00:01:00Z",
                     "attributes":{"region":"us-east"}}},
                 "links":[{"href":"https://grafana.example.test/d/checkout","text":"dashboard"}],
                 "client":"Vigil"}
                """));
    }

    @Test
    void remindersAndEscalationsTriggerTheSameAlertWithTheirOwnTimeAndSeverity() {
        vendor.respond(r -> Reply.json(202, "{\"status\":\"success\"}"));
        AlertEvent reminder = event("monitor/checkout", AlertState.REMINDER, Severity.WARNING, 3);
        AlertEvent escalated = event("monitor/checkout", AlertState.ESCALATED, Severity.CRITICAL, 4);
        assertThat(send(reminder)).isInstanceOf(DeliveryOutcome.Delivered.class);
        JsonNode r = lastBody();
        assertThat(send(escalated)).isInstanceOf(DeliveryOutcome.Delivered.class);
        JsonNode x = lastBody();

        assertThat(r.path("event_action").asText()).isEqualTo("trigger");
        assertThat(x.path("event_action").asText()).isEqualTo("trigger");
        // one incident, one PagerDuty alert: PagerDuty folds them
        assertThat(r.path("dedup_key").asText())
                .isEqualTo(x.path("dedup_key").asText())
                .isEqualTo(reminder.incidentId());
        assertThat(r.path("payload").path("severity").asText()).isEqualTo("warning");
        assertThat(r.path("payload").path("summary").asText())
                .isEqualTo("[Still firing] checkout-api: checkout-api is down in 2 of 3 regions");
        assertThat(r.path("payload").path("timestamp").asText()).isEqualTo("2026-01-01T00:03:00Z");
        assertThat(r.path("payload").path("custom_details").path("state").asText())
                .isEqualTo("reminder");
        assertThat(r.path("payload").path("custom_details").path("occurrences").asInt())
                .isEqualTo(3);
        assertThat(x.path("payload").path("severity").asText()).isEqualTo("critical");
        assertThat(x.path("payload").path("summary").asText()).startsWith("[Escalated to critical] ");
    }

    @Test
    void acknowledgedAndResolvedCarryOnlyTheActionAndTheDedupKey() {
        vendor.respond(r -> Reply.json(202, "{\"status\":\"success\"}"));
        AlertEvent open = opened("monitor/checkout", Severity.CRITICAL);
        AlertEvent ack = TestEvents.acknowledged(open, "alice", T0 + 120_000);
        AlertEvent resolved = event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 5);

        assertThat(send(ack)).isEqualTo(new DeliveryOutcome.Delivered(202, null));
        assertThat(lastBody())
                .isEqualTo(json("{\"routing_key\":\"" + KEY + "\",\"event_action\":\"acknowledge\","
                        + "\"dedup_key\":\"monitor/checkout@1767225600000\"}"));
        assertThat(send(resolved)).isEqualTo(new DeliveryOutcome.Delivered(202, null));
        assertThat(lastBody())
                .isEqualTo(json("{\"routing_key\":\"" + KEY + "\",\"event_action\":\"resolve\","
                        + "\"dedup_key\":\"monitor/checkout@1767225600000\"}"));
        assertThat(pd.usesVendorRef())
                .as("the dedup key is the incident id: nothing to store")
                .isFalse();
    }

    @Test
    void severityMapsOneToOne() {
        assertThat(severity(Severity.CRITICAL)).isEqualTo("critical");
        assertThat(severity(Severity.WARNING)).isEqualTo("warning");
        assertThat(severity(Severity.INFO)).isEqualTo("info");
    }

    private static String severity(Severity s) {
        return PagerDutyEvent.build(opened("monitor/checkout", s), KEY)
                .path("payload")
                .path("severity")
                .asText();
    }

    @Test
    void theSummaryIsOneLineOfAtMost1024Characters() {
        assertThat(PagerDutyEvent.summary("x".repeat(1024))).isEqualTo("x".repeat(1024));
        String cut = PagerDutyEvent.summary("y".repeat(1025));
        assertThat(cut).hasSize(1024).endsWith("…").startsWith("y".repeat(1023));
        // a surrogate pair is never split at the cut
        assertThat(PagerDutyEvent.summary("z".repeat(1022) + "😀😀")).isEqualTo("z".repeat(1022) + "…");
        assertThat(PagerDutyEvent.summary("a\nb\r\nc\u2028d\u2029e\u0085f\tg\u007Fh"))
                .isEqualTo("a b c d e f g h");
    }

    @Test
    void aLongIncidentIdBecomesAStableDedupKeyWithinPagerDutysLimit() {
        String id = "monitor/checkout@" + "9".repeat(239); // 256 characters, the contract's maximum
        String key = PagerDutyEvent.dedupKey(id);
        assertThat(key).hasSize(255).startsWith(id.substring(0, 190) + "#").isEqualTo(PagerDutyEvent.dedupKey(id));
        assertThat(PagerDutyEvent.dedupKey(id.substring(0, 255))).isEqualTo(id.substring(0, 255));
        assertThat(PagerDutyEvent.dedupKey(id.substring(0, 255) + "8")).isNotEqualTo(key);
    }

    @Test
    void onlySafeHttpLinksAreAttached() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dashboard", "https://grafana.example.test/d/checkout");
        links.put("plain", "http://status.example.test/");
        links.put("script", "javascript:alert(1)");
        links.put("data", "data:text/html,<script>alert(1)</script>");
        links.put("ftp", "ftp://example.test/file");
        links.put("userinfo", "https://grafana.example.test@evil.test/");
        links.put("space", "https://example.test/a b");
        links.put("relative", "/d/checkout");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "down", Map.of(), links);
        JsonNode body = PagerDutyEvent.build(e, KEY);
        List<String> hrefs = new ArrayList<>();
        body.path("links")
                .forEach(l ->
                        hrefs.add(l.path("text").asText() + "=" + l.path("href").asText()));
        assertThat(hrefs)
                .containsExactlyInAnyOrder(
                        "dashboard=https://grafana.example.test/d/checkout", "plain=http://status.example.test/");

        AlertEvent none = withSummary(e, "down", Map.of(), Map.of("script", "javascript:alert(1)"));
        assertThat(PagerDutyEvent.build(none, KEY).has("links")).isFalse();
    }

    @Test
    void anAppEventWithoutComponentTypeLeavesComponentOut() {
        AlertEvent app = new AlertEvent(
                1,
                null,
                "app/demo/queue-depth",
                null,
                AlertState.OPENED,
                Severity.WARNING,
                "demo",
                null,
                "queue depth above 1000",
                Map.of(),
                Map.of(),
                1,
                T0,
                T0,
                AlertSource.APP,
                false,
                List.of());
        JsonNode p = PagerDutyEvent.build(app, KEY).path("payload");
        assertThat(p.has("component")).isFalse();
        assertThat(p.path("source").asText()).isEqualTo("demo");
        assertThat(p.path("class").asText()).isEqualTo("app");
        assertThat(p.path("timestamp").asText()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void aHostileSummaryIsSerialisedSafely() {
        vendor.respond(r -> Reply.json(202, "{\"status\":\"success\"}"));
        // the contract refuses \n in a summary; these line breakers and controls it lets through
        String hostile =
                "db \"down\" \\ '</script><script>alert(1)</script>' \u2028next\u0085line\ttab \u202Eevil\u200B";
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("note\"}", "</script>\"},{\"injected\":true");
        attrs.put("we\u202Eird", "\u2066isolated\u2069");
        AlertEvent e = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                hostile,
                attrs,
                Map.of("run\"book\u202E", "https://runbooks.example.test/checkout"));
        assertThat(send(e)).isInstanceOf(DeliveryOutcome.Delivered.class);

        String raw = vendor.requests.get(0).body();
        assertThat(raw)
                .doesNotContain("\u202E")
                .doesNotContain("\u200B")
                .doesNotContain("\u2066")
                .doesNotContain("\u2028")
                .doesNotContain("\n")
                .doesNotContain("\u0085");
        JsonNode body = Json.tree(raw.getBytes(StandardCharsets.UTF_8));
        assertThat(body.path("payload").path("summary").asText())
                .isEqualTo(
                        "[CRITICAL] checkout-api: db \"down\" \\ '</script><script>alert(1)</script>'  next line tab evil");
        // quotes cannot close a string: the data stays data, nothing is added to the event
        JsonNode details = body.path("payload").path("custom_details").path("attributes");
        assertThat(details.path("note\"}").asText()).isEqualTo("</script>\"},{\"injected\":true");
        assertThat(details.path("weird").asText()).isEqualTo("isolated");
        assertThat(body.has("injected")).isFalse();
        assertThat(body.path("payload").has("injected")).isFalse();
        assertThat(body.path("links").get(0).path("text").asText()).isEqualTo("run\"book");
        List<String> fields = new ArrayList<>();
        body.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("routing_key", "event_action", "dedup_key", "payload", "links", "client");
    }

    @Test
    void accepted202IsDeliveredAndStoresNothing() {
        vendor.respond(
                r -> Reply.json(202, "{\"status\":\"success\",\"message\":\"Event processed\",\"dedup_key\":\"k\"}"));
        assertThat(send(opened("monitor/checkout", Severity.INFO))).isEqualTo(new DeliveryOutcome.Delivered(202, null));
    }

    @Test
    void invalidEventIsPermanentWithPagerDutysErrors() {
        vendor.respond(
                r -> Reply.json(
                        400,
                        "{\"status\":\"invalid event\",\"message\":\"Event object is invalid\","
                                + "\"errors\":[\"'payload.summary' is missing or blank\",\"'payload.source' is missing or blank\"]}"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o)
                .isEqualTo(new DeliveryOutcome.Permanent(
                        "pagerduty rejected the event as invalid (HTTP 400): "
                                + "Event object is invalid: 'payload.summary' is missing or blank; 'payload.source' is missing or blank",
                        400));
    }

    @Test
    void invalidEventErrorsAreTruncatedAndKeepOneLine() {
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            errors.append(i == 0 ? "" : ",").append("\"error number ").append(i).append("\\nwith a second line\"");
        }
        vendor.respond(r -> Reply.json(400, "{\"message\":\"Event object is invalid\",\"errors\":[" + errors + "]}"));
        DeliveryOutcome.Permanent o = (DeliveryOutcome.Permanent) send(opened("monitor/checkout", Severity.CRITICAL));
        String prefix = "pagerduty rejected the event as invalid (HTTP 400): ";
        assertThat(o.reason())
                .startsWith(prefix + "Event object is invalid: error number 0 with a second line; ")
                .endsWith("…")
                .doesNotContain("\n");
        assertThat(o.reason().length() - prefix.length()).isEqualTo(PagerDutyNotifier.ERRORS_MAX);

        vendor.respond(r -> Reply.of(400).withHeader("Content-Type", "text/plain"));
        assertThat(send(opened("monitor/checkout", Severity.CRITICAL)))
                .isEqualTo(new DeliveryOutcome.Permanent("pagerduty rejected the event as invalid (HTTP 400)", 400));
    }

    @Test
    void throttledIsTransientAndHonoursRetryAfter() {
        vendor.respond(r -> Reply.json(
                        429,
                        "{\"status\":\"throttle exceeded\",\"message\":\"Requests for this service"
                                + " are arriving too quickly.  Please retry later.\"}")
                .withHeader("Retry-After", "30"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) o).retryAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.httpStatus()).isEqualTo(429);

        vendor.respond(r -> Reply.json(429, "{\"status\":\"throttle exceeded\"}")
                .withHeader("Retry-After", "Thu, 01 Jan 2026 00:12:00 GMT"));
        assertThat(((DeliveryOutcome.Transient) send(opened("monitor/checkout", Severity.CRITICAL))).retryAfter())
                .as("an HTTP date, against the notifier's clock")
                .isEqualTo(Duration.ofMinutes(2));

        vendor.respond(r -> Reply.json(429, "{\"status\":\"throttle exceeded\"}"));
        DeliveryOutcome noHint = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(noHint).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) noHint).retryAfter())
                .as("the pipeline's backoff decides")
                .isNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void serverErrorsAreTransient(int status) {
        vendor.respond(r -> Reply.json(status, "{\"status\":\"error\",\"message\":\"internal\"}"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(o.httpStatus()).isEqualTo(status);
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403, 404, 413})
    void otherClientErrorsArePermanent(int status) {
        vendor.respond(r -> Reply.json(status, "{\"status\":\"forbidden\",\"message\":\"no\"}"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(((DeliveryOutcome.Permanent) o).reason()).startsWith("pagerduty answered HTTP " + status);
    }

    @Test
    void theRoutingKeyIsInNoReasonWhateverPagerDutyEchoes() {
        AlertEvent e = opened("monitor/checkout", Severity.CRITICAL);
        String echo = "{\"message\":\"Unknown routing key " + KEY + "\",\"errors\":[\"routing_key " + KEY.toLowerCase()
                + " not found\",\"" + "x".repeat(260) + KEY + "\"]}";
        List<DeliveryOutcome> outcomes = new ArrayList<>();
        for (int status : new int[] {400, 403, 404, 429, 500, 503}) {
            vendor.respond(r -> Reply.json(status, echo).withHeader("Retry-After", "1"));
            outcomes.add(send(e));
        }
        // a text body near the excerpt limit: the key must not survive even as a cut-off prefix
        vendor.respond(r -> new Reply(502, Map.of(), "y".repeat(190) + KEY, null));
        outcomes.add(send(e));
        // no answer at all
        URI closed = vendor.uri("/v2/enqueue");
        vendor.close();
        outcomes.add(new PagerDutyNotifier(closed, KEY, http, CLOCK)
                .send(new Notification(e, "pagerduty", null))
                .block(Duration.ofSeconds(10)));

        assertThat(outcomes).hasSize(8).allSatisfy(o -> {
            String reason = o instanceof DeliveryOutcome.Permanent p
                    ? p.reason()
                    : o instanceof DeliveryOutcome.Transient t ? t.reason() : "";
            assertThat(reason).isNotBlank();
            assertThat(reason.toLowerCase())
                    .doesNotContain(KEY.toLowerCase())
                    .doesNotContain(KEY.substring(0, 8).toLowerCase());
        });
        assertThat(((DeliveryOutcome.Permanent) outcomes.get(0)).reason()).contains("Unknown routing key [redacted]");
        assertThat(outcomes.get(7)).isInstanceOf(DeliveryOutcome.Transient.class);
    }

    @Test
    void theRoutingKeyIsNeitherInToStringNorInConstructorErrors() {
        assertThat(pd.toString()).doesNotContain(KEY).contains("[redacted]").contains("/v2/enqueue");
        assertThat(PagerDutyNotifier.DEFAULT_EVENTS_URL)
                .isEqualTo(URI.create("https://events.pagerduty.com/v2/enqueue"));
        assertThatThrownBy(() -> new PagerDutyNotifier(null, KEY, http, CLOCK))
                .satisfies(ex -> assertThat(ex.getMessage()).doesNotContain(KEY));
        assertThatThrownBy(() -> new PagerDutyNotifier(PagerDutyNotifier.DEFAULT_EVENTS_URL, " ", http, CLOCK))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
