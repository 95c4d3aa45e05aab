package dev.vigil.streams.silence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.config.StreamsServiceConfig.SilenceSettings;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The silences endpoints over loopback HTTP, for everything that does not reach Kafka (validation, 404, 405,
 * 413, 415, listing by state) plus the 503 of a write Kafka does not acknowledge: a real producer pointed at a
 * port nobody listens on. The acknowledged writes are covered against the embedded broker in SilencesApiIT.
 */
class SilenceRoutesTest {
    private static final long NOW = Instant.parse("2026-11-30T12:00:00Z").toEpochMilli();
    private static final long HOUR = 3_600_000L;

    private final TreeMap<String, Silence> silences = new TreeMap<>();
    private ApiWriter deadWriter;
    private QueryServer server;
    private SilenceRoutes routesUnderTest;
    private Forwarder forwarder;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        deadWriter = new ApiWriter(
                ApiWriter.kafka("127.0.0.1:1", Duration.ofMillis(1500), Map.of("reconnect.backoff.max.ms", "200")),
                "vigil.audit",
                Duration.ofSeconds(2));
        forwarder = dev.vigil.streams.query.TestApi.forwarder(Duration.ofSeconds(5));
        ApiRoutes routes = new ApiRoutes();
        routesUnderTest = new SilenceRoutes(
                deadWriter,
                "vigil.silences",
                Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC),
                SilenceSettings.defaults());
        routesUnderTest.register(routes, new SilenceMapBackend(silences), forwarder);
        server = dev.vigil.streams.query.TestApi.start(routes);
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        routesUnderTest.close();
        deadWriter.close();
    }

    private static Silence silence(String id, long startsAt, long endsAt) {
        return new Silence(1, id, "monitor/" + id, null, null, startsAt, endsAt, "ops", "maintenance", startsAt - 1000);
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", dev.vigil.streams.query.TestApi.admin())
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String body) throws Exception {
        return send("POST", "/v1/silences", "application/json", body);
    }

    private static JsonNode problem(HttpResponse<String> res, int status) {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode p = Json.tree(res.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(p.path("status").asInt()).isEqualTo(status);
        assertThat(p.path("type").asText()).startsWith("https://vigil.dev/problems/");
        assertThat(p.path("detail").asText()).isNotBlank();
        return p;
    }

    @Test
    void invalidSilencesAre400NamingTheField() throws Exception {
        Map<String, String> cases = Map.of(
                "{\"durationMinutes\":60,\"author\":\"ops\",\"reason\":\"r\"}", "fingerprint",
                "{\"fingerprint\":\"monitor/a b\",\"durationMinutes\":60,\"author\":\"ops\",\"reason\":\"r\"}",
                        "fingerprint",
                "{\"fingerprint\":\"monitor/a\",\"durationMinutes\":60,\"author\":\"ops\"}", "reason",
                "{\"fingerprint\":\"monitor/a\",\"author\":\"ops\",\"reason\":\"r\"}", "endsAt",
                "{\"fingerprint\":\"monitor/a\",\"endsAt\":\"2026-11-30T11:00:00Z\",\"author\":\"ops\",\"reason\":\"r\"}",
                        "endsAt",
                "{\"fingerprint\":\"monitor/a\",\"startsAt\":\"2026-12-01T00:00:00Z\",\"endsAt\":\"2026-11-30T13:00:00Z\",\"author\":\"ops\",\"reason\":\"r\"}",
                        "endsAt",
                "{\"fingerprint\":\"monitor/a\",\"endsAt\":\"tomorrow\",\"author\":\"ops\",\"reason\":\"r\"}", "endsAt",
                "{\"fingerprint\":\"monitor/a\",\"durationMinutes\":0,\"author\":\"ops\",\"reason\":\"r\"}",
                        "durationMinutes",
                "{\"fingerprint\":\"monitor/a\",\"durationMinutes\":60,\"author\":\"ops\",\"reason\":\"r\",\"id\":\"x\"}",
                        "id");
        for (var c : cases.entrySet()) {
            JsonNode p = problem(post(c.getKey()), 400);
            assertThat(p.path("field").asText()).as(c.getKey()).isEqualTo(c.getValue());
            assertThat(p.path("detail").asText()).as(c.getKey()).startsWith(c.getValue() + ":");
        }
        assertThat(problem(
                                post("{\"service\":\"shop\",\"attributes\":{\"env\":1},\"durationMinutes\":5,"
                                        + "\"author\":\"a\",\"reason\":\"r\"}"),
                                400)
                        .path("field")
                        .asText())
                .isEqualTo("attributes.env");
        assertThat(problem(post("[1,2]"), 400).path("field").asText()).isEqualTo("body");
        assertThat(problem(post("{not json"), 400).path("field").asText()).isEqualTo("body");
    }

    @Test
    void pruningDeletesOldExpiredSilencesAndTheOldestExpiredOnesBeyondTheCap() {
        long cutoff = NOW - 7 * 24 * HOUR;
        java.util.List<Silence> stored = new java.util.ArrayList<>();
        stored.add(silence("ancient", cutoff - 3 * HOUR, cutoff - HOUR)); // past keepExpired
        stored.add(silence("recent-1", NOW - 5 * HOUR, NOW - 3 * HOUR)); // expired, young
        stored.add(silence("recent-2", NOW - 4 * HOUR, NOW - 2 * HOUR)); // expired, younger
        stored.add(silence("live", NOW - HOUR, NOW + HOUR)); // in force: never pruned
        assertThat(SilenceRoutes.pruneCandidates(stored, NOW, cutoff, 10)).containsExactly("ancient");
        // a cap of 2 for 4 stored: the two oldest expired go, the live one stays whatever the cap
        assertThat(SilenceRoutes.pruneCandidates(stored, NOW, cutoff, 2)).containsExactly("ancient", "recent-1");
        assertThat(SilenceRoutes.pruneCandidates(stored, NOW, cutoff, 1))
                .containsExactly("ancient", "recent-1", "recent-2");
        assertThat(SilenceRoutes.pruneCandidates(java.util.List.of(stored.get(3)), NOW, cutoff, 1))
                .isEmpty();
    }

    @Test
    void parseAppliesDefaultsAndDuration() {
        Silence s = SilenceRoutes.parse(
                ("{\"service\":\"checkout\",\"attributes\":{\"region\":\"eu-west\"},"
                                + "\"durationMinutes\":120,\"author\":\"ann\",\"reason\":\"db upgrade\"}")
                        .getBytes(),
                "id-1",
                NOW,
                "test-admin");
        assertThat(s.startsAt()).isEqualTo(NOW);
        assertThat(s.endsAt()).isEqualTo(NOW + 2 * HOUR);
        assertThat(s.createdAt()).isEqualTo(NOW);
        assertThat(s.attributes()).containsEntry("region", "eu-west");
        Silence later = SilenceRoutes.parse(
                ("{\"fingerprint\":\"monitor/*\",\"startsAt\":\"2026-12-01T00:00:00Z\"," + "\"endsAt\":"
                                + (NOW + 20 * HOUR) + ",\"author\":\"ann\",\"reason\":\"r\"}")
                        .getBytes(),
                "id-2",
                NOW,
                "test-admin");
        assertThat(later.startsAt()).isEqualTo(NOW + 12 * HOUR);
        assertThat(SilenceRoutes.state(later, NOW)).isEqualTo("pending");
        assertThatThrownBy(() -> SilenceRoutes.parse(
                        ("{\"fingerprint\":\"x\",\"durationMinutes\":5,\"endsAt\":" + (NOW + HOUR)
                                        + ",\"author\":\"a\",\"reason\":\"r\"}")
                                .getBytes(),
                        "id-3",
                        NOW,
                        "test-admin"))
                .isInstanceOfSatisfying(
                        ContractViolation.class, e -> assertThat(e.field()).isEqualTo("durationMinutes"));
    }

    private static final String SCHEDULED =
            "{\"fingerprint\":\"monitor/db-*\",\"durationMinutes\":43200,\"reason\":\"r\"," + "\"schedule\":%s}";

    private static String scheduled(String schedule) {
        return SCHEDULED.formatted(schedule);
    }

    @Test
    void invalidSchedulesAre400NamingTheFieldPath() throws Exception {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(scheduled("\"weekly\""), "schedule");
        cases.put(scheduled("{\"days\":[],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"), "schedule.days");
        cases.put(scheduled("{\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"), "schedule.days");
        cases.put(
                scheduled("{\"days\":\"mon\",\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"),
                "schedule.days");
        cases.put(
                scheduled("{\"days\":[\"mon\",1],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"),
                "schedule.days[1]");
        cases.put(
                scheduled("{\"days\":[\"mon\",\"funday\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"),
                "schedule.days[1]");
        cases.put(
                scheduled("{\"days\":[\"mon\",\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}"),
                "schedule.days[1]");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"2am\",\"durationMinutes\":60,\"zone\":\"UTC\"}"),
                "schedule.at");
        cases.put(scheduled("{\"days\":[\"mon\"],\"at\":200,\"durationMinutes\":60,\"zone\":\"UTC\"}"), "schedule.at");
        cases.put(scheduled("{\"days\":[\"mon\"],\"durationMinutes\":60,\"zone\":\"UTC\"}"), "schedule.at");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":0,\"zone\":\"UTC\"}"),
                "schedule.durationMinutes");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":1441,\"zone\":\"UTC\"}"),
                "schedule.durationMinutes");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":\"60\",\"zone\":\"UTC\"}"),
                "schedule.durationMinutes");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":1.5,\"zone\":\"UTC\"}"),
                "schedule.durationMinutes");
        cases.put(scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"zone\":\"UTC\"}"), "schedule.durationMinutes");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"Europe/Atlantis\"}"),
                "schedule.zone");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"+02:00\"}"),
                "schedule.zone");
        cases.put(scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60}"), "schedule.zone");
        cases.put(
                scheduled("{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\",\"every\":1}"),
                "schedule.every");
        // NOW is a Monday noon: a three-day series of Sunday windows would silence nothing
        cases.put(
                "{\"fingerprint\":\"monitor/db-*\",\"durationMinutes\":4320,\"reason\":\"r\",\"schedule\":"
                        + "{\"days\":[\"sun\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}}",
                "schedule");
        // the series is bounded as any silence
        cases.put(
                "{\"fingerprint\":\"monitor/db-*\",\"durationMinutes\":527041,\"reason\":\"r\",\"schedule\":"
                        + "{\"days\":[\"sun\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"UTC\"}}",
                "durationMinutes");
        for (var c : cases.entrySet()) {
            JsonNode p = problem(post(c.getKey()), 400);
            assertThat(p.path("field").asText()).as(c.getKey()).isEqualTo(c.getValue());
            assertThat(p.path("detail").asText()).as(c.getKey()).startsWith(c.getValue() + ":");
        }
    }

    @Test
    void parseReadsAScheduleAndBoundsTheSeries() {
        Silence s = SilenceRoutes.parse(
                scheduled("{\"days\":[\"wed\",\"mon\"],\"at\":\"02:00\",\"durationMinutes\":90,"
                                + "\"zone\":\"Europe/Paris\"}")
                        .getBytes(),
                "id-s",
                NOW,
                "test-admin");
        assertThat(s.schedule()).isEqualTo(new Schedule(List.of("mon", "wed"), "02:00", 90, "Europe/Paris"));
        assertThat(s.startsAt()).isEqualTo(NOW);
        assertThat(s.endsAt())
                .as("the top-level durationMinutes is the series' length")
                .isEqualTo(NOW + 30 * 24 * HOUR);
        // NOW is Monday 12:00Z = 13:00 in Paris: between occurrences
        assertThat(SilenceRoutes.state(s, NOW)).isEqualTo("pending");
        // an occurrence under way (12:30-13:30 Paris) counts only when the series started before it did
        String underWay = "{\"days\":[\"mon\"],\"at\":\"12:30\",\"durationMinutes\":60,\"zone\":\"Europe/Paris\"}";
        Silence fromNow = SilenceRoutes.parse(scheduled(underWay).getBytes(), "id-t", NOW, "test-admin");
        assertThat(SilenceRoutes.state(fromNow, NOW)).isEqualTo("pending");
        Silence fromEarlier = SilenceRoutes.parse(
                ("{\"fingerprint\":\"monitor/db-*\",\"startsAt\":\"2026-11-30T11:00:00Z\","
                                + "\"durationMinutes\":43200,\"reason\":\"r\",\"schedule\":" + underWay + "}")
                        .getBytes(),
                "id-u",
                NOW,
                "test-admin");
        assertThat(SilenceRoutes.state(fromEarlier, NOW)).isEqualTo("active");
        assertThat(SilenceRoutes.FIELDS).contains("schedule");
    }

    @Test
    void listShowsTheScheduleAndItsStateByOccurrence() throws Exception {
        Schedule mondayNoon = new Schedule(List.of("mon"), "11:00", 120, "UTC"); // NOW is Monday 12:00Z
        Schedule mondayMorning = new Schedule(List.of("mon"), "08:00", 60, "UTC");
        Schedule tuesdays = new Schedule(List.of("tue"), "08:00", 60, "UTC");
        silences.put("in-occurrence", scheduled("in-occurrence", NOW - 48 * HOUR, NOW + 720 * HOUR, mondayNoon));
        silences.put("between", scheduled("between", NOW - 240 * HOUR, NOW + 720 * HOUR, mondayMorning));
        silences.put("before-first", scheduled("before-first", NOW - HOUR, NOW + 720 * HOUR, tuesdays));
        silences.put("not-started", scheduled("not-started", NOW + HOUR, NOW + 720 * HOUR, mondayNoon));
        silences.put("over", scheduled("over", NOW - 720 * HOUR, NOW - HOUR, mondayNoon));

        JsonNode active =
                Json.tree(send("GET", "/v1/silences", null, null).body().getBytes());
        assertThat(ids(active)).containsExactly("in-occurrence");
        JsonNode shown = active.path("silences").get(0);
        assertThat(shown.path("state").asText()).isEqualTo("active");
        assertThat(shown.path("schedule").path("days").toString()).isEqualTo("[\"mon\"]");
        assertThat(shown.path("schedule").path("at").asText()).isEqualTo("11:00");
        assertThat(shown.path("schedule").path("durationMinutes").asInt()).isEqualTo(120);
        assertThat(shown.path("schedule").path("zone").asText()).isEqualTo("UTC");
        assertThat(ids(Json.tree(send("GET", "/v1/silences?state=pending", null, null)
                        .body()
                        .getBytes())))
                .containsExactly("between", "before-first", "not-started");
        assertThat(ids(Json.tree(send("GET", "/v1/silences?state=expired", null, null)
                        .body()
                        .getBytes())))
                .containsExactly("over");
    }

    private static Silence scheduled(String id, long startsAt, long endsAt, Schedule schedule) {
        return new Silence(
                1,
                id,
                "monitor/" + id,
                null,
                null,
                startsAt,
                endsAt,
                "ops",
                "maintenance",
                startsAt - 1000,
                null,
                schedule);
    }

    @Test
    void nonJsonBodyIs415() throws Exception {
        problem(send("POST", "/v1/silences", "text/plain", "fingerprint=monitor/a"), 415);
        problem(send("POST", "/v1/silences", null, "{}"), 415);
        // parameters and +json types are JSON
        assertThat(problem(send("POST", "/v1/silences", "application/json; charset=utf-8", "{}"), 400)
                        .path("field")
                        .asText())
                .isEqualTo("endsAt");
        assertThat(problem(send("POST", "/v1/silences", "application/merge-patch+json", "{}"), 400)
                        .path("field")
                        .asText())
                .isEqualTo("endsAt");
    }

    @Test
    void bodyOver64KiBIs413() throws Exception {
        String big = "{\"fingerprint\":\"monitor/a\",\"reason\":\"" + "x".repeat(QueryServer.MAX_BODY_BYTES) + "\"}";
        problem(post(big), 413);
        // exactly at the limit is read (and then judged on its content)
        String atLimit = "{\"reason\":\"" + "x".repeat(QueryServer.MAX_BODY_BYTES - 13) + "\"}";
        assertThat(atLimit.length()).isEqualTo(QueryServer.MAX_BODY_BYTES);
        assertThat(problem(post(atLimit), 400).path("field").asText()).isEqualTo("endsAt");
    }

    @Test
    void wrongMethodOnAKnownPathIs405WithAllow() throws Exception {
        var put = send("PUT", "/v1/silences", "application/json", "{}");
        problem(put, 405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
        var deleteAll = send("DELETE", "/v1/silences", null, null);
        problem(deleteAll, 405);
        var getOne = send("GET", "/v1/silences/abc", null, null);
        problem(getOne, 405);
        assertThat(getOne.headers().firstValue("Allow")).hasValue("DELETE");
        problem(send("POST", "/v1/nothing-here", "application/json", "{}"), 404);
    }

    @Test
    void expiringAnUnknownSilenceIs404() throws Exception {
        problem(send("DELETE", "/v1/silences/9b2c7a52-0000-4000-8000-000000000000", null, null), 404);
        problem(send("DELETE", "/v1/silences/NOT%20AN%20ID", null, null), 404);
    }

    @Test
    void listFiltersByStateDefaultActive() throws Exception {
        silences.put("active-1", silence("active-1", NOW - HOUR, NOW + HOUR));
        silences.put("pending-1", silence("pending-1", NOW + HOUR, NOW + 2 * HOUR));
        silences.put("expired-1", silence("expired-1", NOW - 2 * HOUR, NOW - HOUR));
        silences.put("ends-now", silence("ends-now", NOW - HOUR, NOW));

        JsonNode active =
                Json.tree(send("GET", "/v1/silences", null, null).body().getBytes());
        assertThat(active.path("state").asText()).isEqualTo("active");
        assertThat(ids(active)).containsExactly("active-1");
        assertThat(active.path("silences").get(0).path("state").asText()).isEqualTo("active");
        assertThat(ids(Json.tree(send("GET", "/v1/silences?state=pending", null, null)
                        .body()
                        .getBytes())))
                .containsExactly("pending-1");
        assertThat(ids(Json.tree(send("GET", "/v1/silences?state=expired", null, null)
                        .body()
                        .getBytes())))
                .containsExactly("expired-1", "ends-now");
        JsonNode all = Json.tree(
                send("GET", "/v1/silences?state=all", null, null).body().getBytes());
        assertThat(all.path("count").asInt()).isEqualTo(4);
        assertThat(ids(all)).containsExactly("expired-1", "active-1", "ends-now", "pending-1");
        problem(send("GET", "/v1/silences?state=bogus", null, null), 400);
    }

    @Test
    void expiringAnAlreadyExpiredSilenceAnswersItUnchangedWithoutWriting() throws Exception {
        silences.put("old", silence("old", NOW - 2 * HOUR, NOW - HOUR));
        var res = send("DELETE", "/v1/silences/old", null, null);
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = Json.tree(res.body().getBytes());
        assertThat(body.path("state").asText()).isEqualTo("expired");
        assertThat(body.path("endsAt").asLong()).isEqualTo(NOW - HOUR);
    }

    @Test
    void writesKafkaDoesNotAcknowledgeAre503WithRetryAfter() throws Exception {
        var res = post("{\"fingerprint\":\"monitor/a\",\"durationMinutes\":60,\"author\":\"ops\",\"reason\":\"r\"}");
        JsonNode p = problem(res, 503);
        assertThat(res.headers().firstValue("Retry-After")).isPresent();
        assertThat(p.path("detail").asText()).contains("did not acknowledge");

        silences.put("live", silence("live", NOW - HOUR, NOW + HOUR));
        var expire = send("DELETE", "/v1/silences/live", null, null);
        problem(expire, 503);
        assertThat(expire.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void openApiDocumentsTheSilencesEndpoints() {
        JsonNode paths =
                Json.tree(dev.vigil.streams.query.ApiDocs.openApiDocument()).path("paths");
        assertThat(paths.path("/v1/silences").has("get")).isTrue();
        assertThat(paths.path("/v1/silences").path("post").path("responses").has("413"))
                .isTrue();
        assertThat(paths.path("/v1/silences/{id}").has("delete")).isTrue();
    }

    @Test
    void openApiDocumentsTheSchedule() {
        JsonNode doc = Json.tree(dev.vigil.streams.query.ApiDocs.openApiDocument());
        JsonNode body = doc.path("paths")
                .path("/v1/silences")
                .path("post")
                .path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema")
                .path("properties");
        List<String> documented = new java.util.ArrayList<>();
        body.fieldNames().forEachRemaining(documented::add);
        assertThat(documented).containsExactlyInAnyOrderElementsOf(SilenceRoutes.FIELDS);
        assertThat(body.path("schedule").path("$ref").asText()).isEqualTo("#/components/schemas/SilenceSchedule");
        JsonNode schedule = doc.path("components").path("schemas").path("SilenceSchedule");
        List<String> fields = new java.util.ArrayList<>();
        schedule.path("properties").fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactlyInAnyOrderElementsOf(SilenceRoutes.SCHEDULE_FIELDS);
        assertThat(schedule.path("required")).hasSize(4);
        assertThat(doc.path("paths")
                        .path("/v1/silences")
                        .path("get")
                        .path("responses")
                        .path("200")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("properties")
                        .path("silences")
                        .path("items")
                        .path("properties")
                        .has("schedule"))
                .isTrue();
    }

    private static List<String> ids(JsonNode list) {
        List<String> out = new java.util.ArrayList<>();
        list.path("silences").forEach(n -> out.add(n.path("id").asText()));
        return out;
    }
}
