package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** {@code vigil silence add|list|expire} against a stand-in query API on loopback. */
class SilenceCommandTest {
    private static final String ID = "0b7c2d9e-5a43-4f7e-9d1c-3f2a1b0c9d8e";
    private static final String CREATED =
            """
            {"id":"%s","fingerprint":"monitor/checkout-*","attributes":{"region":"eu-west"},"startsAt":1796040000000,
             "endsAt":1796047200000,"author":"ann","reason":"db upgrade","createdAt":1796040000000,"state":"active"}
            """
                    .formatted(ID);
    private static final String LIST =
            """
            {"state":"active","count":2,"silences":[
              {"id":"%s","fingerprint":"monitor/checkout-*","startsAt":1796040000000,"endsAt":1796047200000,
               "author":"ann","reason":"db upgrade","state":"active"},
              {"id":"11111111-2222-4333-8444-555555555555","service":"billing","attributes":{"env":"prod"},
               "startsAt":1796040000000,"endsAt":1796043600000,"author":"bob","reason":"deploy","state":"active"}]}
            """
                    .formatted(ID);
    private static final String CREATED_SCHEDULED =
            """
            {"id":"%s","fingerprint":"monitor/db-*","startsAt":1796040000000,"endsAt":1827662400000,"author":"ann",
             "reason":"weekly db maintenance","createdAt":1796040000000,"state":"pending",
             "schedule":{"days":["mon","tue"],"at":"02:00","durationMinutes":90,"zone":"Europe/Paris"}}
            """
                    .formatted(ID);
    private static final String LIST_PENDING =
            """
            {"state":"pending","count":1,"silences":[
              {"id":"%s","fingerprint":"monitor/db-*","startsAt":1796040000000,"endsAt":1827662400000,"author":"ann",
               "reason":"weekly db maintenance","state":"pending",
               "schedule":{"days":["mon","tue"],"at":"02:00","durationMinutes":90,"zone":"Europe/Paris"}}]}
            """
                    .formatted(ID);
    private static final String EXPIRED =
            """
            {"id":"%s","fingerprint":"monitor/checkout-*","startsAt":1796040000000,"endsAt":1796041800000,
             "author":"ann","reason":"db upgrade","state":"expired"}
            """
                    .formatted(ID);

    private final List<String> posted = new CopyOnWriteArrayList<>();
    private final List<String> uris = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();

    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.post(
                            "/v1/silences",
                            (req, res) -> req.receive().aggregate().asString().flatMap(body -> {
                                posted.add(body + "|" + req.requestHeaders().get("Content-Type"));
                                return body.contains("\"reason\":\"bad\"")
                                        ? problem(res, 400, "reason: must not be blank")
                                                .then()
                                        : res.status(201)
                                                .header("Content-Type", "application/json")
                                                .sendString(Mono.just(
                                                        body.contains("\"schedule\"") ? CREATED_SCHEDULED : CREATED))
                                                .then();
                            }))
                    .get("/v1/silences", (req, res) -> {
                        uris.add(req.uri());
                        authorizations.add(String.valueOf(req.requestHeaders().get("Authorization")));
                        return req.uri().contains("state=bogus")
                                ? problem(res, 400, "state must be one of active, pending, expired, all")
                                : res.header("Content-Type", "application/json")
                                        .sendString(
                                                Mono.just(req.uri().contains("state=pending") ? LIST_PENDING : LIST));
                    })
                    .delete(
                            "/v1/silences/{id}",
                            (req, res) -> ID.equals(req.param("id"))
                                    ? res.header("Content-Type", "application/json")
                                            .sendString(Mono.just(EXPIRED))
                                    : res.status(404)
                                            .header("Content-Type", "application/problem+json")
                                            .sendString(Mono.just(
                                                    "{\"title\":\"Not found\",\"status\":404,\"detail\":\"no silence "
                                                            + req.param("id") + "\"}"))))
            .bindNow();

    private static reactor.netty.NettyOutbound problem(
            reactor.netty.http.server.HttpServerResponse res, int status, String detail) {
        return res.status(status)
                .header("Content-Type", "application/problem+json")
                .sendString(Mono.just(
                        "{\"title\":\"Bad request\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}"));
    }

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private String url() {
        return "http://127.0.0.1:" + api.port();
    }

    @Test
    void addSendsTheMatchersAndDurationAndPrintsTheNewSilence() {
        CliRun run = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--fingerprint",
                "monitor/checkout-*",
                "--attribute",
                "region=eu-west",
                "--duration",
                "2h",
                "--author",
                "ann",
                "--reason",
                "db upgrade");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("silence " + ID + " created (active): fingerprint=monitor/checkout-*,region=eu-west, "
                        + "2026-11-30T12:00:00 until 2026-11-30T14:00:00");
        assertThat(posted).hasSize(1);
        assertThat(posted.get(0)).endsWith("|application/json");
        JsonNode sent = Json.tree(
                posted.get(0).substring(0, posted.get(0).lastIndexOf('|')).getBytes());
        assertThat(sent.path("fingerprint").asText()).isEqualTo("monitor/checkout-*");
        assertThat(sent.path("attributes").path("region").asText()).isEqualTo("eu-west");
        assertThat(sent.path("durationMinutes").asLong()).isEqualTo(120);
        assertThat(sent.has("endsAt")).isFalse();
        assertThat(sent.path("author").asText()).isEqualTo("ann");
        assertThat(sent.path("reason").asText()).isEqualTo("db upgrade");
    }

    @Test
    void addWithEndsAtAndServiceSendsTheInstant() {
        CliRun run = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "billing",
                "--ends-at",
                "2026-12-01T06:00:00Z",
                "--author",
                "bob",
                "--reason",
                "deploy",
                "--json");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Json.tree(run.out().getBytes()).path("id").asText()).isEqualTo(ID);
        JsonNode sent = Json.tree(
                posted.get(0).substring(0, posted.get(0).lastIndexOf('|')).getBytes());
        assertThat(sent.path("service").asText()).isEqualTo("billing");
        assertThat(sent.path("endsAt").asText()).isEqualTo("2026-12-01T06:00:00Z");
        assertThat(sent.has("durationMinutes")).isFalse();
    }

    @Test
    void addRefusesBadArgumentsBeforeCallingTheApi() {
        CliRun noMatcher =
                CliRun.vigil("silence", "add", "--url", url(), "--duration", "1h", "--author", "a", "--reason", "r");
        assertThat(noMatcher.exit()).isEqualTo(2);
        assertThat(noMatcher.err()).contains("at least one matcher");
        CliRun both = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "s",
                "--duration",
                "1h",
                "--ends-at",
                "2026-12-01T06:00:00Z",
                "--author",
                "a",
                "--reason",
                "r");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("exactly one of --duration or --ends-at");
        CliRun badDuration = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "s",
                "--duration",
                "soon",
                "--author",
                "a",
                "--reason",
                "r");
        assertThat(badDuration.exit()).isEqualTo(2);
        assertThat(badDuration.err()).contains("--duration must look like 90m, 2h");
        CliRun badEnd = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "s",
                "--ends-at",
                "tomorrow",
                "--author",
                "a",
                "--reason",
                "r");
        assertThat(badEnd.exit()).isEqualTo(2);
        assertThat(badEnd.err()).contains("--ends-at must be an ISO-8601 instant");
        CliRun noReason = CliRun.vigil("silence", "add", "--url", url(), "--service", "s", "--duration", "1h");
        assertThat(noReason.exit()).isEqualTo(2);
        assertThat(noReason.err()).contains("--reason");
        assertThat(posted).isEmpty();
    }

    private JsonNode sent(int i) {
        return Json.tree(
                posted.get(i).substring(0, posted.get(i).lastIndexOf('|')).getBytes());
    }

    @Test
    void addWithEverySendsAWeeklyScheduleForTheLongestSeries() {
        CliRun run = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--fingerprint",
                "monitor/db-*",
                "--every",
                "Tue, mon",
                "--at",
                "02:00",
                "--for",
                "1h30m",
                "--zone",
                "Europe/Paris",
                "--reason",
                "weekly db maintenance");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains(
                        "silence " + ID + " created (pending): fingerprint=monitor/db-*, "
                                + "2026-11-30T12:00:00 until 2027-12-01T12:00:00, every mon,tue 02:00 for 1h30m (Europe/Paris)");
        JsonNode sent = sent(0);
        assertThat(sent.path("schedule").path("days").toString()).isEqualTo("[\"mon\",\"tue\"]");
        assertThat(sent.path("schedule").path("at").asText()).isEqualTo("02:00");
        assertThat(sent.path("schedule").path("durationMinutes").asInt()).isEqualTo(90);
        assertThat(sent.path("schedule").path("zone").asText()).isEqualTo("Europe/Paris");
        // the series starts now (server side) and lasts the 366 days a silence may last
        assertThat(sent.path("durationMinutes").asLong()).isEqualTo(366 * 24 * 60);
        assertThat(sent.has("endsAt")).isFalse();
        assertThat(sent.has("startsAt")).isFalse();
    }

    @Test
    void addWithEveryAndUntilEndsTheSeriesThere() {
        CliRun run = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "billing",
                "--every",
                "sat",
                "--at",
                "23:30",
                "--for",
                "2h",
                "--zone",
                "UTC",
                "--starts-at",
                "2026-12-01T00:00:00Z",
                "--until",
                "2027-06-30T00:00:00Z",
                "--reason",
                "backups");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode sent = sent(0);
        assertThat(sent.path("startsAt").asText()).isEqualTo("2026-12-01T00:00:00Z");
        assertThat(sent.path("endsAt").asText()).isEqualTo("2027-06-30T00:00:00Z");
        assertThat(sent.has("durationMinutes")).isFalse();
        assertThat(sent.path("schedule").path("durationMinutes").asInt()).isEqualTo(120);
        assertThat(sent.path("schedule").path("zone").asText()).isEqualTo("UTC");
    }

    @Test
    void addRefusesBadScheduleArgumentsBeforeCallingTheApi() {
        java.util.Map<java.util.List<String>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(java.util.List.of("--duration", "1h", "--at", "02:00"), "give --every too");
        cases.put(java.util.List.of("--duration", "1h", "--until", "2027-06-30T00:00:00Z"), "give --every too");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "02:00", "--for", "1h"),
                "with --every, give --at, --for and --zone");
        cases.put(
                java.util.List.of("--every", "mon", "--zone", "UTC", "--for", "1h"),
                "with --every, give --at, --for and --zone");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "02:00", "--zone", "UTC"),
                "with --every, give --at, --for and --zone");
        cases.put(
                java.util.List.of(
                        "--every", "mon", "--at", "02:00", "--for", "1h", "--zone", "UTC", "--duration", "1h"),
                "--duration and --ends-at are for one-off silences");
        cases.put(
                java.util.List.of(
                        "--every",
                        "mon",
                        "--at",
                        "02:00",
                        "--for",
                        "1h",
                        "--zone",
                        "UTC",
                        "--ends-at",
                        "2027-06-30T00:00:00Z"),
                "--duration and --ends-at are for one-off silences");
        cases.put(
                java.util.List.of("--every", "mon,funday", "--at", "02:00", "--for", "1h", "--zone", "UTC"),
                "--every: must be one of mon, tue, wed, thu, fri, sat, sun");
        cases.put(
                java.util.List.of("--every", "mon,mon", "--at", "02:00", "--for", "1h", "--zone", "UTC"),
                "--every: repeats");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "2am", "--for", "1h", "--zone", "UTC"),
                "--at: must be a local time HH:MM");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "02:00", "--for", "soon", "--zone", "UTC"),
                "--for must look like 90m");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "02:00", "--for", "25h", "--zone", "UTC"),
                "--for must be at most 24h");
        cases.put(
                java.util.List.of("--every", "mon", "--at", "02:00", "--for", "1h", "--zone", "Paris"),
                "--zone: must be an IANA time-zone id");
        cases.put(
                java.util.List.of(
                        "--every", "mon", "--at", "02:00", "--for", "1h", "--zone", "UTC", "--until", "next year"),
                "--until must be an ISO-8601 instant");
        for (var c : cases.entrySet()) {
            java.util.List<String> args = new java.util.ArrayList<>(
                    java.util.List.of("silence", "add", "--url", url(), "--service", "s", "--reason", "r"));
            args.addAll(c.getKey());
            CliRun run = CliRun.vigil(args.toArray(String[]::new));
            assertThat(run.exit()).as(c.getKey().toString()).isEqualTo(2);
            assertThat(run.err()).as(c.getKey().toString()).contains(c.getValue());
        }
        assertThat(posted).isEmpty();
    }

    @Test
    void listShowsTheScheduleOfASeries() {
        CliRun run = CliRun.vigil("silence", "list", "--url", url(), "--state", "pending");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("SCHEDULE")
                .containsPattern(
                        ID + "\\s+pending\\s+2026-11-30T12:00:00\\s+2027-12-01T12:00:00\\s+"
                                + "mon,tue 02:00 for 1h30m \\(Europe/Paris\\)\\s+ann\\s+fingerprint=monitor/db-\\*\\s+weekly db maintenance")
                .contains("1 silence(s) in state pending");
    }

    @Test
    void scheduleTextShowsHoursAndMinutes() {
        String sundays = "{\"days\":[\"sun\"],\"at\":\"23:00\",\"durationMinutes\":45,\"zone\":\"UTC\"}";
        assertThat(SilenceCommand.schedule(Json.tree(sundays.getBytes()))).isEqualTo("sun 23:00 for 45m (UTC)");
        String twoHours =
                "{\"days\":[\"mon\",\"fri\"],\"at\":\"02:00\",\"durationMinutes\":120,\"zone\":\"Pacific/Auckland\"}";
        assertThat(SilenceCommand.schedule(Json.tree(twoHours.getBytes())))
                .isEqualTo("mon,fri 02:00 for 2h (Pacific/Auckland)");
        assertThat(SilenceCommand.Add.minutes("--for", "1h30m")).isEqualTo(90);
    }

    @Test
    void theTokenComesFromTheFlagElseTheTokenFileAndIsSentAsABearerCredential(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("config/admin-token");
        dev.vigil.kit.auth.SecretFiles.write(file, "vgl_from-file");
        assertThat(CliRun.vigil("silence", "list", "--url", url(), "--token-file", file.toString())
                        .exit())
                .isZero();
        assertThat(CliRun.vigil(
                                "silence",
                                "list",
                                "--url",
                                url(),
                                "--token",
                                "vgl_from-flag",
                                "--token-file",
                                file.toString())
                        .exit())
                .isZero();
        assertThat(CliRun.vigil(
                                "silence",
                                "list",
                                "--url",
                                url(),
                                "--token-file",
                                dir.resolve("none").toString())
                        .exit())
                .isZero();
        assertThat(authorizations).containsExactly("Bearer vgl_from-file", "Bearer vgl_from-flag", "null");
        assertThat(QueryOptions.loopback("http://127.0.0.1:8081")).isTrue();
        assertThat(QueryOptions.loopback("http://localhost:8081/")).isTrue();
        assertThat(QueryOptions.loopback("http://[::1]:8081")).isTrue();
        assertThat(QueryOptions.loopback("http://prod.example:8081"))
                .as("the local token is never a default for a remote URL")
                .isFalse();
        assertThat(QueryOptions.loopback("http://127.0.0.1.evil.example:8081")).isFalse();
        java.nio.file.Path link = dir.resolve("link");
        java.nio.file.Files.createSymbolicLink(link, file);
        CliRun viaLink = CliRun.vigil("silence", "list", "--url", url(), "--token-file", link.toString());
        assertThat(viaLink.exit()).isNotZero();
        assertThat(viaLink.err()).contains("not a regular file");
    }

    @Test
    void durationsInMinutes() {
        assertThat(SilenceCommand.Add.minutes("90m")).isEqualTo(90);
        assertThat(SilenceCommand.Add.minutes("2h")).isEqualTo(120);
        assertThat(SilenceCommand.Add.minutes("1h30m")).isEqualTo(90);
        assertThat(SilenceCommand.Add.minutes("1d")).isEqualTo(1440);
        assertThat(SilenceCommand.Add.minutes("1d2h")).isEqualTo(1560);
        assertThat(SilenceCommand.Add.minutes("PT45M")).isEqualTo(45);
    }

    @Test
    void apiValidationProblemsAreShownWithTheirDetail() {
        CliRun run = CliRun.vigil(
                "silence",
                "add",
                "--url",
                url(),
                "--service",
                "s",
                "--duration",
                "1h",
                "--author",
                "a",
                "--reason",
                "bad");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("400 Bad request: reason: must not be blank");
    }

    @Test
    void listPrintsOneLinePerSilence() {
        CliRun run = CliRun.vigil("silence", "list", "--url", url());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(uris).containsExactly("/v1/silences?state=active");
        assertThat(run.out())
                .containsPattern(
                        ID
                                + "\\s+active\\s+2026-11-30T12:00:00\\s+2026-11-30T14:00:00\\s+ann\\s+fingerprint=monitor/checkout-\\*\\s+db upgrade")
                .containsPattern(
                        "11111111-2222-4333-8444-555555555555\\s+active\\s+\\S+\\s+\\S+\\s+bob\\s+service=billing,env=prod\\s+deploy")
                .contains("2 silence(s) in state active");
        CliRun all = CliRun.vigil("silence", "list", "--url", url(), "--state", "all");
        assertThat(all.exit()).isZero();
        assertThat(uris).contains("/v1/silences?state=all");
        CliRun bogus = CliRun.vigil("silence", "list", "--url", url(), "--state", "bogus");
        assertThat(bogus.exit()).isEqualTo(1);
        assertThat(bogus.err()).contains("400 Bad request: state must be one of active, pending, expired, all");
    }

    @Test
    void expirePrintsTheEndOrTheProblem() {
        CliRun run = CliRun.vigil("silence", "expire", "--url", url(), ID);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("silence " + ID + " expired at 2026-11-30T12:30:00");
        CliRun unknown = CliRun.vigil("silence", "expire", "--url", url(), "nope");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("404 Not found: no silence nope");
    }

    @Test
    void unreachableApiSaysWhatToDo() {
        api.disposeNow(Duration.ofSeconds(5));
        CliRun run = CliRun.vigil("silence", "list", "--url", url());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the query API at " + url());
    }
}
