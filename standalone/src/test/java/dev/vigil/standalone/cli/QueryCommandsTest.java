package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** {@code vigil status} and {@code vigil alerts} against a stand-in query API on loopback. */
class QueryCommandsTest {
    private static final String STATUS =
            """
            {"counts":{"up":1,"degraded":0,"down":1,"unknown":0,"pending":0},"instances":2,"monitors":[
              {"monitorId":"api","status":"down","windowStart":1796073010000,"complete":true,"missingRegions":[],
               "alert":{"state":"firing","severity":"critical","acknowledgedBy":"alice"}},
              {"monitorId":"backup","type":"heartbeat","status":"down","windowStart":1796073010000,"complete":true,
               "missingRegions":[],"alert":{"state":"firing","severity":"warning"}},
              {"monitorId":"web","status":"up","windowStart":1796073010000,"complete":false,"missingRegions":["eu-west"]}]}
            """;
    private static final String ALERTS =
            """
            {"state":"open","count":2,"alerts":[{"fingerprint":"monitor/api","phase":"firing","severity":"critical",
             "occurrences":3,"firstSeen":1796073010000,"summary":"api is down","silenced":true,"origin":"monitor"},
             {"fingerprint":"app/shop/alertmanager/4f2a","phase":"firing","severity":"warning","occurrences":1,
              "firstSeen":1796073010000,"summary":"HighLatency","origin":"alertmanager"}]}
            """;

    private static final String TIMELINE =
            """
            {"fingerprint":"monitor/api","incidentId":"monitor/api@1796073010000","origin":"monitor",
             "acknowledged":{"by":"alice","at":1796073070000},
             "entries":[{"at":1796073010000,"kind":"opened","detail":"api is down"},
              {"at":1796073010400,"kind":"page","state":"opened","channel":"slack","outcome":"delivered","attempts":1},
              {"at":1796073012000,"kind":"page","state":"opened","channel":"betterstack","outcome":"dead_lettered",
               "attempts":5,"detail":"HTTP 401"},
              {"at":1796073070000,"kind":"acknowledged","by":"alice"}]}
            """;

    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.get("/v1/status", (req, res) -> res.header("Content-Type", "application/json")
                            .sendString(Mono.just(STATUS)))
                    .get(
                            "/v1/alerts/{fingerprint}/timeline",
                            (req, res) -> "monitor%2Fapi".equals(req.param("fingerprint"))
                                    ? res.header("Content-Type", "application/json")
                                            .sendString(Mono.just(TIMELINE))
                                    : res.status(404)
                                            .header("Content-Type", "application/problem+json")
                                            .sendString(
                                                    Mono.just(
                                                            "{\"title\":\"Not found\",\"status\":404,\"detail\":\"no incident\"}")))
                    .get(
                            "/v1/alerts",
                            (req, res) -> req.uri().contains("state=bogus")
                                    ? res.status(400)
                                            .header("Content-Type", "application/problem+json")
                                            .sendString(
                                                    Mono.just(
                                                            "{\"title\":\"Bad request\",\"status\":400,\"detail\":\"state must be one of open, all\"}"))
                                    : res.header("Content-Type", "application/json")
                                            .sendString(Mono.just(ALERTS))))
            .bindNow();

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private String url() {
        return "http://127.0.0.1:" + api.port();
    }

    @Test
    void statusPrintsOneLinePerMonitorWithItsAlert() {
        CliRun run = CliRun.vigil("status", "--url", url());
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .containsPattern("api\\s+http\\s+down\\s+2026-11-30T\\S+\\s+all\\s+firing critical "
                        + "\\(acknowledged by alice\\)")
                .containsPattern("backup\\s+heartbeat\\s+down\\s+\\S+\\s+all\\s+firing warning")
                .containsPattern("web\\s+http\\s+up\\s+\\S+\\s+missing 1\\s+-")
                .contains("3 monitors: 1 up, 0 degraded, 1 down, 0 unknown, 0 pending");
    }

    @Test
    void alertsPrintsStatesAndSilences() {
        CliRun run = CliRun.vigil("alerts", "--url", url());
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .containsPattern(
                        "monitor/api\\s+monitor\\s+firing\\s+critical\\s+3\\s+\\S+\\s+api is down \\(silenced\\)")
                .containsPattern("app/shop/alertmanager/4f2a\\s+alertmanager\\s+firing\\s+warning")
                .contains("2 alert(s) in state open");
    }

    @Test
    void alertsTimelinePrintsEachEventAndEachPagePerChannel() {
        CliRun run = CliRun.vigil("alerts", "--url", url(), "--timeline", "monitor/api");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("monitor/api (monitor), incident monitor/api@1796073010000")
                .contains("acknowledged by alice")
                .containsPattern("\\S+Z\\s+opened - api is down")
                .contains("opened -> slack: delivered")
                .contains("opened -> betterstack: dead_lettered after 5 attempts - HTTP 401")
                .contains("4 line(s)");
        CliRun none = CliRun.vigil("alerts", "--url", url(), "--timeline", "monitor/none");
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains("404");
    }

    @Test
    void apiProblemsAreShownWithTheirDetail() {
        CliRun run = CliRun.vigil("alerts", "--url", url(), "--state", "bogus");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("400 Bad request: state must be one of open, all");
    }

    @Test
    void unreachableApiSaysWhatToDo() {
        api.disposeNow(Duration.ofSeconds(5));
        CliRun run = CliRun.vigil("status", "--url", url());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the query API at " + url()).contains("is Vigil running?");
    }
}
