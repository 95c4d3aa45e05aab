package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static dev.vigil.probe.probe.Monitors.http;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorDefinition.Expect;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The http check's request (method, headers, body) and its header and absent-text expectations. */
class HttpRequestFeaturesTest {
    private static TestHttpServer server;
    private static HttpProbe probe;

    @BeforeAll
    static void start() {
        server = new TestHttpServer();
        probe = new HttpProbe(
                new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system()),
                ProbeSettings.of("us-east", "w-1", "0.1.0"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static ProbeResult run(MonitorDefinition m) {
        return probe.probe(m, WINDOW).block(Duration.ofSeconds(15));
    }

    private static Expect headers(Map<String, String> expected) {
        return new Expect(null, null, null, null, null, expected);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
    void everyMethodIsSentAsConfigured(String method) {
        ProbeResult r = run(http(server.url("/echo"), method, null, null, null, 2000));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.checkType()).isEqualTo(CheckType.HTTP);
        assertThat(r.httpStatus()).isEqualTo(200);
        assertThat(server.last("/echo").method()).isEqualTo(method);
    }

    @Test
    void aJsonBodyIsSentAsJson() {
        ProbeResult r = run(http(server.url("/echo"), "POST", null, "{\"ping\": 1}", null, 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        var seen = server.last("/echo");
        assertThat(seen.body()).isEqualTo("{\"ping\": 1}");
        assertThat(seen.headers())
                .containsEntry("content-type", "application/json")
                .containsEntry("content-length", "11")
                .doesNotContainKey("transfer-encoding");
    }

    @Test
    void anyOtherBodyIsSentAsUtf8Text() {
        run(http(server.url("/echo"), "PUT", null, "état: ok", null, 2000));
        var seen = server.last("/echo");
        assertThat(seen.body()).isEqualTo("état: ok");
        assertThat(seen.headers())
                .containsEntry("content-type", "text/plain; charset=utf-8")
                .containsEntry("content-length", "9");
        run(http(server.url("/echo"), "POST", null, "[not json", null, 2000));
        assertThat(server.last("/echo").headers()).containsEntry("content-type", "text/plain; charset=utf-8");
    }

    @Test
    void theUsersContentTypeIsKept() {
        run(http(
                server.url("/echo"),
                "POST",
                Map.of("content-TYPE", HeaderValue.plain("application/x-www-form-urlencoded")),
                "{\"a\":1}",
                null,
                2000));
        assertThat(server.last("/echo").headers()).containsEntry("content-type", "application/x-www-form-urlencoded");
    }

    @Test
    void monitorHeadersAreSentButTheProbeAlwaysIdentifiesItself() {
        run(http(
                server.url("/echo"),
                "GET",
                Map.of(
                        "X-Team",
                        HeaderValue.plain("core"),
                        "User-Agent",
                        HeaderValue.plain("curl/8.0"),
                        "X-Vigil-Monitor",
                        HeaderValue.plain("spoofed"),
                        "Accept",
                        HeaderValue.plain("application/json")),
                null,
                null,
                2000));
        assertThat(server.last("/echo").headers())
                .containsEntry("x-team", "core")
                .containsEntry("accept", "application/json")
                .containsEntry("user-agent", "Vigil/0.1.0")
                .containsEntry("x-vigil-monitor", "api")
                .containsEntry("x-vigil-region", "us-east");
    }

    @Test
    void aHostileHeaderAgainstACatastrophicPatternFailsTheCheckAndStallsNothing() {
        var hostile = http(
                server.url("/build"),
                null,
                null,
                null,
                headers(Map.of("X-Build", "re:.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*b")),
                2000);
        var control = http(server.url("/echo"), null, null, null, headers(Map.of("X-Version", "1.4.2")), 2000);
        var both = reactor.core.publisher.Mono.zip(probe.probe(hostile, WINDOW), probe.probe(control, WINDOW))
                .block(Duration.ofSeconds(15));
        assertThat(both.getT1().outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(both.getT1().detail()).isEqualTo("response header X-Build does not match the expected pattern");
        assertThat(both.getT2().outcome())
                .as("the healthy control on the same event loop")
                .isEqualTo(Outcome.SUCCESS);
        assertThat(run(http(server.url("/build"), null, null, null, headers(Map.of("X-Build", "re:a{200}")), 2000))
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void headerExpectationsAreExactOrRegularExpressions() {
        assertThat(run(http(server.url("/echo"), null, null, null, headers(Map.of("X-Version", "1.4.2")), 2000))
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(run(http(
                                server.url("/echo"),
                                null,
                                null,
                                null,
                                headers(Map.of("x-version", "re:1\\.4\\.\\d+")),
                                2000))
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        ProbeResult exact = run(http(server.url("/echo"), null, null, null, headers(Map.of("X-Version", "1.4")), 2000));
        assertThat(exact.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(exact.httpStatus()).isEqualTo(200);
        assertThat(exact.detail()).isEqualTo("response header X-Version does not have the expected value");
        ProbeResult regex =
                run(http(server.url("/echo"), null, null, null, headers(Map.of("X-Version", "re:2\\..*")), 2000));
        assertThat(regex.detail())
                .isEqualTo("response header X-Version does not match the expected pattern")
                .doesNotContain("1.4.2");
        ProbeResult missing =
                run(http(server.url("/echo"), null, null, null, headers(Map.of("X-Request-Id", "re:.+")), 2000));
        assertThat(missing.detail()).isEqualTo("response header X-Request-Id is missing");
    }

    @Test
    void aRepeatedHeaderMatchesOneOfItsValuesOrAllOfThemJoined() {
        assertThat(run(http(server.url("/echo"), null, null, null, headers(Map.of("Cache-Control", "private")), 2000))
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(run(http(
                                server.url("/echo"),
                                null,
                                null,
                                null,
                                headers(Map.of("Cache-Control", "no-store, private")),
                                2000))
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void bodyNotContainsFailsWhenTheTextIsThere() {
        Expect error = new Expect(null, null, null, null, "ERROR", null);
        ProbeResult r = run(http(server.url("/text"), null, null, null, error, 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.detail())
                .isEqualTo("body contains the text it must not contain")
                .doesNotContain("ERROR");
        Expect panic = new Expect(null, null, "db: ok", null, "PANIC", null);
        assertThat(run(http(server.url("/text"), null, null, null, panic, 2000)).outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void seeOtherTurnsAPostIntoAGetWithoutItsBody() {
        ProbeResult r = run(http(server.url("/see-other"), "POST", null, "{\"x\":1}", null, 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.redirects()).isEqualTo(1);
        var followed = server.last("/echo");
        assertThat(followed.method()).isEqualTo("GET");
        assertThat(followed.body()).isEmpty();
        assertThat(followed.headers()).doesNotContainKeys("content-type", "content-length");
    }

    @Test
    void everyRequestAsksPastCachesOnEveryHopWhateverTheMonitorsHeadersSay() {
        ProbeResult r = run(http(
                server.url("/see-other"),
                "GET",
                Map.of("Cache-Control", HeaderValue.plain("max-age=600")),
                null,
                null,
                2000));
        assertThat(r.redirects()).isEqualTo(1);
        for (String path : List.of("/see-other", "/echo")) {
            assertThat(server.last(path).headers())
                    .as(path)
                    .containsEntry("cache-control", "no-cache")
                    .containsEntry("pragma", "no-cache");
        }
    }

    @Test
    void aTemporaryRedirectKeepsTheMethodAndTheBody() {
        run(http(server.url("/temporary"), "POST", null, "{\"x\":1}", null, 2000));
        var followed = server.last("/secure");
        assertThat(followed.method()).isEqualTo("POST");
        assertThat(followed.body()).isEqualTo("{\"x\":1}");
    }
}
