package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.standalone.monitors.MonitorsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** {@code vigil monitors ...} against a stand-in query API on loopback: what is sent, and what is printed. */
class MonitorsCommandTest {
    private static final String TOKEN = "test-token";

    record Call(String method, String uri, String authorization, String ifMatch, String body) {
        JsonNode json() {
            return Json.tree(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    record Answer(int status, String body) {}

    @TempDir
    Path dir;

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile Function<Call, Answer> answer = c -> new Answer(500, "{}");

    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.route(req -> true, (req, res) -> req.receive()
                    .aggregate()
                    .asString()
                    .defaultIfEmpty("")
                    .flatMap(body -> {
                        Call call = new Call(
                                req.method().name(),
                                req.uri(),
                                req.requestHeaders().get("Authorization"),
                                req.requestHeaders().get("If-Match"),
                                body);
                        calls.add(call);
                        Answer a = answer.apply(call);
                        return res.status(a.status())
                                .header(
                                        "Content-Type",
                                        a.status() >= 400 ? "application/problem+json" : "application/json")
                                .sendString(Mono.just(a.body()))
                                .then();
                    })))
            .bindNow();

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private CliRun vigil(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 4);
        all[args.length] = "--url";
        all[args.length + 1] = "http://127.0.0.1:" + api.port();
        all[args.length + 2] = "--token";
        all[args.length + 3] = TOKEN;
        return CliRun.vigil(all);
    }

    private Path file(String yaml) throws Exception {
        Path f = dir.resolve("monitors.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static final String FILE =
            """
            monitors:
              - id: api
                url: https://api.example.com/health
                regions: [us-east, eu-west]
              - id: nightly-backup
                type: heartbeat
                heartbeat:
                  schedule: "0 2 * * *"
                  zone: Europe/Paris
                  graceSeconds: 600
              - id: shop
                url: https://shop.example.com/
                intervalSeconds: 30
                regions: [us-east]
            """;

    @Test
    void applySendsTheFileAsWrittenAndPrintsThePlanAndThePingCommandOnce() throws Exception {
        Path f = file(FILE);
        answer = c -> new Answer(
                200,
                """
                {"dryRun":false,"prune":false,"added":["api","nightly-backup"],
                 "changed":[{"id":"shop","fields":["intervalSeconds"]}],"unchanged":0,"notInRequest":["old"],
                 "keptReserved":["vigil-canary"],"checksPerDay":4320,"warnings":["monitors[0].url: no such host here"],
                 "published":3,"heartbeatTokens":[{"monitorId":"nightly-backup","pingToken":"vgl_secret",
                 "pingPath":"/v1/heartbeat/nightly-backup",
                 "pingUrl":"https://ingest.example.com/v1/heartbeat/nightly-backup","shownOnce":true}]}
                """);
        CliRun run = vigil(
                "monitors",
                "apply",
                "-f",
                f.toString(),
                "--allow-region",
                "ap-south",
                "--rotate-heartbeat-token",
                "nightly-backup");
        assertThat(run.exit()).as(run.err()).isZero();

        assertThat(calls).hasSize(1);
        Call call = calls.get(0);
        assertThat(call.method() + " " + call.uri()).isEqualTo("POST /v1/monitors:apply");
        assertThat(call.authorization()).isEqualTo("Bearer " + TOKEN);
        JsonNode sent = call.json();
        assertThat(sent.path("monitors"))
                .as("the monitors as the file wrote them, nothing added")
                .isEqualTo(ConfigLoader.readYaml(f).get("monitors"));
        assertThat(sent.path("prune").asBoolean()).isFalse();
        assertThat(sent.path("dryRun").asBoolean()).isFalse();
        assertThat(sent.path("allowRegions").toString()).isEqualTo("[\"ap-south\"]");
        assertThat(sent.path("rotateHeartbeatTokens").toString()).isEqualTo("[\"nightly-backup\"]");

        assertThat(run.out())
                .contains(
                        "+ api (new: https://api.example.com/health every 60s from us-east,eu-west)",
                        "+ nightly-backup (new: heartbeat (cron 0 2 * * * Europe/Paris, grace 600 s), "
                                + "pinged at /v1/heartbeat/nightly-backup)",
                        "~ shop (changed: intervalSeconds)",
                        "? old (not in file; kept, use --prune to delete)",
                        "2 to add, 1 to change, 0 unchanged, 0 to delete",
                        "warning: monitors[0].url: no such host here",
                        "expected target checks per day: 4,320",
                        "published 3 change(s)",
                        "ping token for nightly-backup: vgl_secret (shown once; store it in the job's secret store as "
                                + "VIGIL_PING_TOKEN)",
                        "ping:    curl -fsS -m 10 --retry 3 -X POST -H \"Authorization: Bearer $VIGIL_PING_TOKEN\" "
                                + "https://ingest.example.com/v1/heartbeat/nightly-backup\n",
                        "failure: curl -fsS -m 10 --retry 3 -X POST -H \"Authorization: Bearer $VIGIL_PING_TOKEN\" "
                                + "https://ingest.example.com/v1/heartbeat/nightly-backup/fail")
                .doesNotContain("vigil-canary");
        assertThat(run.err()).doesNotContain("vgl_secret");
    }

    @Test
    void withoutTheServersIngestUrlThePathIsPrintedToPrefix() throws Exception {
        Path f = file(FILE);
        answer = c -> new Answer(
                200,
                """
                {"added":["nightly-backup"],"changed":[],"unchanged":2,"deleted":[],"keptReserved":["vigil-canary"],
                 "checksPerDay":0,"warnings":[],"published":1,"heartbeatTokens":[{"monitorId":"nightly-backup",
                 "pingToken":"vgl_x","pingPath":"/v1/heartbeat/nightly-backup"}]}
                """);
        CliRun run = vigil("monitors", "apply", "-f", f.toString(), "--prune");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls.get(0).json().path("prune").asBoolean()).isTrue();
        assertThat(run.out())
                .contains(
                        "= vigil-canary (Vigil's own monitor; kept)",
                        "1 to add, 0 to change, 2 unchanged, 0 to delete",
                        "\"Authorization: Bearer $VIGIL_PING_TOKEN\" /v1/heartbeat/nightly-backup\n",
                        "prefix the path with ingest's base URL")
                .doesNotContain("--ingest-url");
    }

    @Test
    void diffIsADryRunThatCountsChecksAndIssuesNothing() throws Exception {
        Path f = file(FILE);
        answer = c -> new Answer(
                200,
                """
                {"dryRun":true,"prune":true,"added":[],"changed":[],"unchanged":2,"deleted":["old"],
                 "keptReserved":[],"checksPerDay":4320,"warnings":[],"published":0,
                 "heartbeatTokensWouldBeIssued":["nightly-backup"]}
                """);
        CliRun run = vigil("monitors", "diff", "-f", f.toString(), "--prune");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls.get(0).json().path("dryRun").asBoolean()).isTrue();
        assertThat(run.out())
                .contains(
                        "- old (deleted)",
                        "0 to add, 0 to change, 2 unchanged, 1 to delete",
                        "api: 2 regions x 86,400 / 60 s = 2,880 target checks/day",
                        "expected target checks per day: 5,760 (2 probed monitors)",
                        "(a ping token for nightly-backup would be issued)",
                        "dry run: nothing published");
    }

    @Test
    void everyProblemTheApiFindsIsPrintedWithTheMonitorsIdAndNothingIsPublished() throws Exception {
        Path f = file(FILE);
        answer = c -> new Answer(
                400,
                """
                {"type":"about:blank","title":"Invalid monitor","status":400,"detail":"2 problems",
                 "field":"monitors[0].regions[1]","errors":[
                  {"field":"monitors[0].regions[1]","problem":"'eu-west' is served by no probe worker (known: us-east)"},
                  {"field":"monitors[2].url","problem":"a probe worker would refuse this target: private address"}]}
                """);
        CliRun run = vigil("monitors", "apply", "-f", f.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err())
                .contains(
                        "nothing was published",
                        "monitors[0] (id api).regions[1]: 'eu-west' is served by no probe worker (known: us-east)",
                        "monitors[2] (id shop).url: a probe worker would refuse this target: private address",
                        "--allow-region");
    }

    @Test
    void aFileThatIsNotValidHereIsNeverSent() throws Exception {
        Path f = file(
                """
                monitors:
                  - id: Bad_Id
                    url: https://bad.example.com/
                    regions: [us-east]
                """);
        CliRun run = vigil("monitors", "apply", "-f", f.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(f + ": monitors[0]", "id:", "nothing was published");
        assertThat(calls).isEmpty();
    }

    @Test
    void aRefusedTokenIsShownWithTheProblemDetail() throws Exception {
        Path f = file(FILE);
        answer = c -> new Answer(
                403, "{\"title\":\"Forbidden\",\"status\":403,\"detail\":\"this token lacks the monitors scope\"}");
        CliRun run = vigil("monitors", "apply", "-f", f.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("403 Forbidden: this token lacks the monitors scope", "nothing was published");
    }

    @Test
    void exportFollowsThePagesAndWritesAFileApplyReadsBackAsItWas() throws Exception {
        String page1 =
                """
                {"total":3,"count":2,"next":"api","monitors":[
                 {"id":"aaa","name":"Yes","url":"https://a.example.com/?q=1#x","method":"POST","intervalSeconds":60,
                  "timeoutMs":5000,"regions":["us-east"],"type":"http","enabled":true,"severity":"critical",
                  "headers":{"Accept":"yes","Authorization":{"secretEnv":"A_TOKEN"}},"body":"null: ~ # not a comment",
                  "links":{"runbook":"https://wiki.example.com/a: b"},"expect":{"statusCodes":["204","200-299"]},"component":"1e3","service":"0123","revision":"\\"r1\\"",
                  "checksPerDay":1440},
                 {"id":"api","type":"heartbeat","regions":["push"],"intervalSeconds":60,"timeoutMs":5000,
                  "heartbeat":{"schedule":"0 2 * * *","zone":"Europe/Paris","graceSeconds":600,"hasToken":true},
                  "revision":"\\"r2\\"","checksPerDay":0}]}
                """;
        String page2 =
                """
                {"total":3,"count":2,"next":null,"monitors":[
                 {"id":"dns-check","type":"dns","regions":["us-east"],"intervalSeconds":300,"timeoutMs":2000,
                  "dns":{"query":"example.com","recordType":"MX","expect":["10 mail.example.com."]},
                  "revision":"\\"r3\\"","checksPerDay":288},
                 {"id":"vigil-canary","url":"http://127.0.0.1:8081/health","regions":["us-east"],
                  "revision":"\\"r4\\"","checksPerDay":8640}]}
                """;
        answer = c -> new Answer(200, c.uri().contains("after=api") ? page2 : page1);
        Path out = dir.resolve("export.yaml");
        CliRun run = vigil("monitors", "export", "-o", out.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls)
                .extracting(Call::uri)
                .containsExactly("/v1/monitors?limit=1000", "/v1/monitors?limit=1000&after=api");
        assertThat(run.err()).contains("exported 3 monitor(s) to " + out, "left out Vigil's own: vigil-canary");

        JsonNode exported = ConfigLoader.readYaml(out).get("monitors");
        List<JsonNode> listed = new java.util.ArrayList<>();
        for (String page : List.of(page1, page2)) {
            Json.tree(page.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .path("monitors")
                    .forEach(listed::add);
        }
        assertThat(exported.size()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(exported.get(i)).isEqualTo(MonitorsCommand.definition(listed.get(i)));
        }
        assertThat(exported.toString()).doesNotContain("revision", "checksPerDay", "hasToken");
        List<MonitorDefinition> read = MonitorsFile.read(out, Set.of());
        assertThat(read).extracting(MonitorDefinition::id).containsExactly("aaa", "api", "dns-check");
        assertThat(read.get(0).headers().get("Authorization").secretEnv()).isEqualTo("A_TOKEN");
        assertThat(read.get(0).body()).isEqualTo("null: ~ # not a comment");
        assertThat(read.get(0).service()).isEqualTo("0123");
        assertThat(read.get(0).expect().statusCodes()).containsExactly("204", "200-299");
        assertThat(read.get(0).component()).isEqualTo("1e3");
    }

    @Test
    void deleteSendsTheRevisionToMatch() {
        answer = c -> new Answer(200, "{\"id\":\"shop\",\"deleted\":true,\"previousRevision\":\"\\\"abc\\\"\"}");
        CliRun run = vigil("monitors", "delete", "shop", "--if-match", "abc");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls.get(0).method() + " " + calls.get(0).uri()).isEqualTo("DELETE /v1/monitors/shop");
        assertThat(calls.get(0).ifMatch()).isEqualTo("\"abc\"");
        assertThat(run.out()).contains("monitor shop deleted (it was revision \"abc\")");

        answer = c -> new Answer(
                404,
                "{\"title\":\"Not found\",\"status\":404,\"detail\":\"no monitor gone (never created, or deleted)\"}");
        CliRun missing = vigil("monitors", "delete", "gone");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("404 Not found: no monitor gone", "nothing was deleted");
        assertThat(calls.get(1).ifMatch()).isNull();
    }

    @Test
    void theOldKafkaOptionsAreGone() {
        CliRun run = vigil("monitors", "apply", "-f", "x.yaml", "--bootstrap-servers", "localhost:9092");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown options: '--bootstrap-servers'");
        assertThat(calls).isEmpty();
    }
}
