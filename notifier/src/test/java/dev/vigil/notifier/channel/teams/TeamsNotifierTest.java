package dev.vigil.notifier.channel.teams;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TeamsNotifierTest {
    private static final String WORKFLOW_ID = "0a1b2c3d4e5f40718293a4b5c6d7e8f9";
    private static final String SIG = "Zk3xQ9-sPq_4vL8wT2mNcR7yHbJ1dFgA6eUoIiKlMnO";
    private static final String PATH = "/workflows/" + WORKFLOW_ID + "/triggers/manual/paths/invoke";
    private static final String QUERY = "api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=" + SIG;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:10:00Z"), ZoneOffset.UTC);
    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("teams-test", 2, Duration.ofSeconds(5));
    private final URI url = vendor.uri(PATH + "?" + QUERY);
    private final TeamsNotifier teams = new TeamsNotifier(url, http, CLOCK);

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    private DeliveryOutcome send(AlertEvent e) {
        return teams.send(new Notification(e, "teams", null)).block(Duration.ofSeconds(10));
    }

    private static String reason(DeliveryOutcome o) {
        return o instanceof DeliveryOutcome.Permanent p
                ? p.reason()
                : o instanceof DeliveryOutcome.Transient t ? t.reason() : "";
    }

    @Test
    void postsTheAdaptiveCardToTheWorkflowUrlAndTreats202AsDelivered() {
        vendor.respond(r -> Reply.of(202));
        AlertEvent e = opened("monitor/checkout", Severity.CRITICAL);
        assertThat(send(e)).isEqualTo(new DeliveryOutcome.Delivered(202, null));
        FakeVendor.Request r = vendor.requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo(PATH);
        assertThat(r.query()).isEqualTo(QUERY);
        assertThat(r.header("content-type")).startsWith("application/json");
        JsonNode body = Json.tree(r.body().getBytes(StandardCharsets.UTF_8));
        assertThat(body).isEqualTo(TeamsMessage.build(e));
        assertThat(body.path("type").asText()).isEqualTo("message");
        assertThat(body.path("attachments").get(0).path("contentType").asText())
                .isEqualTo("application/vnd.microsoft.card.adaptive");
        assertThat(teams.usesVendorRef()).isFalse();
    }

    @Test
    void everyStateIsPostedAsItsOwnCard() {
        vendor.respond(r -> Reply.of(200));
        AlertEvent open = opened("monitor/checkout", Severity.WARNING);
        List<AlertEvent> events = List.of(
                open,
                event("monitor/checkout", AlertState.REMINDER, Severity.WARNING, 2),
                event("monitor/checkout", AlertState.ESCALATED, Severity.CRITICAL, 3),
                TestEvents.acknowledged(open, "alice", T0 + 200_000),
                event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 4));
        for (AlertEvent e : events) {
            assertThat(send(e)).isEqualTo(new DeliveryOutcome.Delivered(200, null));
        }
        List<String> titles = new ArrayList<>();
        vendor.requests.forEach(r -> titles.add(Json.tree(r.body().getBytes(StandardCharsets.UTF_8))
                .path("attachments")
                .get(0)
                .path("content")
                .path("body")
                .get(0)
                .path("items")
                .get(0)
                .path("text")
                .asText()));
        assertThat(titles)
                .containsExactly(
                        "\\[WARNING\\] opened: checkout-api",
                        "\\[WARNING\\] still firing: checkout-api",
                        "\\[CRITICAL\\] escalated: checkout-api",
                        "\\[WARNING\\] acknowledged: checkout-api",
                        "\\[CRITICAL\\] resolved: checkout-api");
    }

    @Test
    void throttlingIsTransientAndHonoursRetryAfter() {
        vendor.respond(
                r -> Reply.json(429, "{\"error\":{\"code\":\"WorkflowRequestsThrottled\",\"message\":\"slow down\"}}")
                        .withHeader("Retry-After", "7"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) o).retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(o.httpStatus()).isEqualTo(429);
    }

    @Test
    void aRetiredConnectorsThrottledAnswerIsTransientDespiteItsStatus200() {
        vendor.respond(r -> new Reply(
                200,
                java.util.Map.of(),
                "Webhook message delivery failed with error: Microsoft"
                        + " Teams endpoint returned HTTP error 429 with ContextId ...",
                null));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(o.httpStatus()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void serverErrorsAreTransient(int status) {
        vendor.respond(r -> Reply.json(status, "{}").withHeader("Retry-After", "3"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) o).retryAfter()).isEqualTo(Duration.ofSeconds(3));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 413})
    void rejectedPayloadOrRevokedWorkflowIsPermanent(int status) {
        vendor.respond(r -> Reply.json(status, "{\"error\":{\"code\":\"WorkflowNotFound\",\"message\":\"gone\"}}"));
        DeliveryOutcome o = send(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(o.httpStatus()).isEqualTo(status);
        assertThat(reason(o)).startsWith("teams answered HTTP " + status);
    }

    @Test
    void theWorkflowUrlIsInNoReasonWhateverTheVendorEchoes() {
        AlertEvent e = opened("monitor/checkout", Severity.CRITICAL);
        String decodedQuery = URLDecoder.decode(QUERY, StandardCharsets.UTF_8);
        String echo = "{\"error\":{\"code\":\"DirectApiAuthorizationRequired\",\"message\":\"The request for workflow '"
                + WORKFLOW_ID + "' at '" + url + "' with query '" + decodedQuery + "' and sig " + SIG + " failed\"}}";
        List<DeliveryOutcome> outcomes = new ArrayList<>();
        for (int status : new int[] {400, 401, 403, 404, 429, 500}) {
            vendor.respond(r -> Reply.json(status, echo));
            outcomes.add(send(e));
        }
        // near the excerpt limit: not even a cut-off prefix of the signature may survive
        vendor.respond(r -> new Reply(502, java.util.Map.of(), "y".repeat(185) + SIG, null));
        outcomes.add(send(e));
        vendor.respond(r -> new Reply(503, java.util.Map.of(), "y".repeat(150) + r.path() + "?" + r.query(), null));
        outcomes.add(send(e));
        vendor.close();
        outcomes.add(send(e)); // connection refused

        assertThat(outcomes).hasSize(9).allSatisfy(o -> {
            assertThat(o).isNotInstanceOf(DeliveryOutcome.Delivered.class);
            String reason = reason(o);
            assertThat(reason)
                    .isNotBlank()
                    .doesNotContain(SIG)
                    .doesNotContain(SIG.substring(0, 10))
                    .doesNotContain(WORKFLOW_ID)
                    .doesNotContain(WORKFLOW_ID.substring(0, 10))
                    .doesNotContain("sig=");
        });
        assertThat(reason(outcomes.get(0))).contains("[redacted]");
    }

    @Test
    void toStringNamesOnlyTheHost() {
        assertThat(teams.toString())
                .isEqualTo("TeamsNotifier[127.0.0.1]")
                .doesNotContain(SIG)
                .doesNotContain(WORKFLOW_ID);
    }
}
