package dev.vigil.streams.silence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.config.StreamsServiceConfig.SilenceSettings;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.TestApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ways a token with the {@code silence} scope could mute everything for long, or crowd everyone (admins
 * included) out of adding silences, over loopback HTTP with a writer whose commits land in the silences store.
 */
class SilenceAbuseTest {
    private static final long NOW = Instant.parse("2026-11-30T12:00:00Z").toEpochMilli();
    private static final String YEAR_LATER = "2027-11-30T00:00:00Z";

    private final TreeMap<String, Silence> silences = new TreeMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ApiWriter writer;
    private QueryServer server;
    private SilenceRoutes routes;
    private Forwarder forwarder;

    private void start(SilenceSettings settings) {
        writer = TestApi.acceptingWriter(r -> {
            if (r.topic().equals("vigil.silences")) {
                synchronized (silences) {
                    if (r.value() == null) {
                        silences.remove(r.key());
                    } else {
                        silences.put(r.key(), Json.read(r.value(), Silence.class));
                    }
                }
            }
        });
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        ApiRoutes api = new ApiRoutes();
        routes = new SilenceRoutes(
                writer, "vigil.silences", Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC), settings);
        routes.register(api, new SilenceMapBackend(silences), forwarder);
        server = TestApi.start(api);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            forwarder.close();
            routes.close();
            writer.close();
        }
    }

    private HttpResponse<String> send(String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String token, String body) throws Exception {
        return send(token, "POST", "/v1/silences", body);
    }

    private static JsonNode problem(HttpResponse<String> res, int status) {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        return Json.tree(res.body().getBytes(StandardCharsets.UTF_8));
    }

    private static String oneOff(String fingerprint, int minutes) {
        return "{\"fingerprint\":\"" + fingerprint + "\",\"durationMinutes\":" + minutes + ",\"reason\":\"r\"}";
    }

    @Test
    void aSilenceTokenCannotMuteEverythingForAYear() throws Exception {
        start(SilenceSettings.defaults());
        String body = "{\"fingerprint\":\"*\",\"endsAt\":\"" + YEAR_LATER + "\",\"reason\":\"quiet\"}";
        JsonNode p = problem(post(TestApi.SILENCER, body), 400);
        assertThat(p.path("field").asText()).isIn("fingerprint", "endsAt");
        // not even briefly: a match-all silence is an admin's call
        assertThat(problem(post(TestApi.SILENCER, oneOff("*", 60)), 400)
                        .path("field")
                        .asText())
                .isEqualTo("fingerprint");
        assertThat(problem(post(TestApi.SILENCER, oneOff("**", 60)), 400)
                        .path("field")
                        .asText())
                .isEqualTo("fingerprint");
        assertThat(silences).isEmpty();
        // an admin may (the override), within the 366-day ceiling every silence has
        assertThat(post(TestApi.ADMIN, body).statusCode()).isEqualTo(201);
    }

    @Test
    void aSilenceTokenCannotMuteAWholeKindOfAlert() throws Exception {
        start(SilenceSettings.defaults());
        for (String glob : new String[] {"monitor/*", "*/*", "monitor/**", "metric*"}) {
            JsonNode p = problem(post(TestApi.SILENCER, oneOff(glob, 60)), 400);
            assertThat(p.path("field").asText()).as(glob).isEqualTo("fingerprint");
            assertThat(p.path("detail").asText()).as(glob).contains("admin");
        }
        // narrower matchers are fine
        assertThat(post(TestApi.SILENCER, oneOff("monitor/checkout-*", 60)).statusCode())
                .isEqualTo(201);
        assertThat(post(
                                TestApi.SILENCER,
                                "{\"fingerprint\":\"*\",\"service\":\"shop\",\"durationMinutes\":60,"
                                        + "\"reason\":\"r\"}")
                        .statusCode())
                .isEqualTo(201);
    }

    @Test
    void aSilenceTokenCannotSilenceForMonths() throws Exception {
        start(SilenceSettings.defaults());
        JsonNode byEnd = problem(
                post(
                        TestApi.SILENCER,
                        "{\"fingerprint\":\"monitor/db\",\"endsAt\":\"" + YEAR_LATER + "\",\"reason\":\"r\"}"),
                400);
        assertThat(byEnd.path("field").asText()).isEqualTo("endsAt");
        assertThat(byEnd.path("detail").asText()).contains("silences.maxDuration");
        JsonNode byMinutes = problem(post(TestApi.SILENCER, oneOff("monitor/db", 31 * 24 * 60)), 400);
        assertThat(byMinutes.path("field").asText()).isEqualTo("durationMinutes");
        // a maintenance series is a silence too: all week, all day, for a year would mute it for good
        JsonNode series = problem(
                post(
                        TestApi.SILENCER,
                        "{\"fingerprint\":\"monitor/db\",\"endsAt\":\"" + YEAR_LATER
                                + "\",\"reason\":\"r\",\"schedule\":{\"days\":[\"mon\",\"tue\",\"wed\",\"thu\",\"fri\",\"sat\",\"sun\"],"
                                + "\"at\":\"00:00\",\"durationMinutes\":1440,\"zone\":\"UTC\"}}"),
                400);
        assertThat(series.path("field").asText()).isEqualTo("endsAt");
        assertThat(silences).isEmpty();
        assertThat(post(TestApi.SILENCER, oneOff("monitor/db", 30 * 24 * 60)).statusCode())
                .isEqualTo(201);
        assertThat(post(TestApi.ADMIN, oneOff("monitor/db", 200 * 24 * 60)).statusCode())
                .isEqualTo(201);
    }

    @Test
    void noSilenceMayStartInTheFarFuture() throws Exception {
        start(SilenceSettings.defaults());
        for (String token : new String[] {TestApi.SILENCER, TestApi.ADMIN}) {
            JsonNode p = problem(
                    post(
                            token,
                            "{\"fingerprint\":\"monitor/db\",\"startsAt\":\"9998-01-01T00:00:00Z\","
                                    + "\"durationMinutes\":60,\"reason\":\"r\"}"),
                    400);
            assertThat(p.path("field").asText()).isEqualTo("startsAt");
            assertThat(p.path("detail").asText()).contains("silences.maxStartAhead");
            assertThat(problem(
                                    post(
                                            token,
                                            "{\"fingerprint\":\"monitor/db\",\"startsAt\":\"2027-01-15T00:00:00Z\","
                                                    + "\"durationMinutes\":60,\"reason\":\"r\"}"),
                                    400)
                            .path("field")
                            .asText())
                    .isEqualTo("startsAt");
        }
        assertThat(silences).isEmpty();
        assertThat(post(
                                TestApi.SILENCER,
                                "{\"fingerprint\":\"monitor/db\",\"startsAt\":\"2026-12-20T00:00:00Z\","
                                        + "\"durationMinutes\":60,\"reason\":\"r\"}")
                        .statusCode())
                .isEqualTo(201);
    }

    @Test
    void oneAuthorCannotTakeEveryPlace() throws Exception {
        start(new SilenceSettings(1000, null, 5, null, null));
        for (int i = 0; i < 5; i++) {
            assertThat(post(TestApi.SILENCER, oneOff("monitor/m" + i, 60)).statusCode())
                    .isEqualTo(201);
        }
        JsonNode p = problem(post(TestApi.SILENCER, oneOff("monitor/m5", 60)), 409);
        assertThat(p.path("type").asText()).endsWith("/too-many-silences-by-author");
        assertThat(p.path("limit").asText()).isEqualTo("silences.maxPerAuthor");
        assertThat(p.path("detail").asText()).contains("test-silencer");
        assertThat(silences).hasSize(5);
        // another author is not held back by the first one's spree
        assertThat(post(TestApi.SILENCER_2, oneOff("monitor/m5", 60)).statusCode())
                .isEqualTo(201);
        // expiring one gives the place back
        String id = silences.firstEntry().getValue().author().equals("test-silencer")
                ? silences.firstKey()
                : silences.lastKey();
        assertThat(send(TestApi.SILENCER, "DELETE", "/v1/silences/" + id, null).statusCode())
                .isEqualTo(200);
        assertThat(post(TestApi.SILENCER, oneOff("monitor/m6", 60)).statusCode())
                .isEqualTo(201);
    }

    @Test
    void aFullStoreNeverLocksOutAnAdmin() throws Exception {
        start(new SilenceSettings(4, null, 2, null, null));
        for (String token : new String[] {TestApi.SILENCER, TestApi.SILENCER_2}) {
            for (int i = 0; i < 2; i++) {
                assertThat(post(
                                        token,
                                        "{\"fingerprint\":\"monitor/m" + i + "\",\"startsAt\":\"2026-12-29T00:00:00Z\","
                                                + "\"durationMinutes\":60,\"reason\":\"r\"}")
                                .statusCode())
                        .isEqualTo(201);
            }
        }
        assertThat(silences).hasSize(4);
        JsonNode full = problem(post(TestApi.SILENCER, oneOff("monitor/x", 60)), 409);
        assertThat(full.path("limit").asText()).isIn("silences.max", "silences.maxPerAuthor");
        // the admin adds one whatever the caps, and expires anyone's
        assertThat(post(TestApi.ADMIN, oneOff("monitor/outage", 60)).statusCode())
                .isEqualTo(201);
        assertThat(post(TestApi.ADMIN, oneOff("*", 60)).statusCode()).isEqualTo(201);
        for (String id : silences.keySet().toArray(String[]::new)) {
            if (!silences.get(id).author().equals("test-admin")) {
                assertThat(send(TestApi.ADMIN, "DELETE", "/v1/silences/" + id, null)
                                .statusCode())
                        .isEqualTo(200);
            }
        }
        assertThat(silences.values()).allMatch(s -> s.author().equals("test-admin"));
    }

    @Test
    void theGlobalCapStillHoldsForNonAdmins() throws Exception {
        start(new SilenceSettings(3, null, 50, null, null));
        for (int i = 0; i < 3; i++) {
            assertThat(post(TestApi.SILENCER, oneOff("monitor/m" + i, 60)).statusCode())
                    .isEqualTo(201);
        }
        JsonNode p = problem(post(TestApi.SILENCER_2, oneOff("monitor/y", 60)), 409);
        assertThat(p.path("type").asText()).endsWith("/too-many-silences");
        assertThat(p.path("limit").asText()).isEqualTo("silences.max");
    }
}
