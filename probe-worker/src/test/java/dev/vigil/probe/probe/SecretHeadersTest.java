package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static dev.vigil.probe.probe.Monitors.http;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.probe.http.ProbeMetrics;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.test.StepVerifier;

/**
 * Header values that come from the worker's environment ({@code secretEnv}) reach the monitor's origin and nothing
 * else: no result field, log line (at any level, ours or a library's), metric or exception message carries them.
 */
class SecretHeadersTest {
    private static final String TOKEN = "s3cr3t-TOKEN-4f1d2c";
    private static final String API_KEY = "k3y-77aa19-only-for-api";
    private static final Map<String, HeaderValue> SECRET_HEADERS = Map.of(
            "Authorization", HeaderValue.secret("HEALTH_TOKEN_HEADER"),
            "X-Api-Key", HeaderValue.secret("HEALTH_API_KEY"),
            "X-Team", HeaderValue.plain("core"));

    /** A TLS handshake on a loaded CI machine can take seconds; the tests are about headers, not speed. */
    private static final int PATIENT_MS = 8000;

    private static TestCertificates certs;
    private TestHttpServer server;
    private TestHttpServer other;
    /** A plain-http target: no secret may ever reach it. */
    private TestHttpServer plain;

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final List<ProbeResult> results = new ArrayList<>();
    private Level rootLevel;

    private static HttpProbe probe(Map<String, String> env) {
        return new HttpProbe(
                new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system()),
                ProbeSettings.of("us-east", "w-1", "0.1.0")
                        .withTrust(certs.caTrust)
                        .withSecrets(env, LISTED));
    }

    @org.junit.jupiter.api.BeforeAll
    static void certificates() throws Exception {
        certs = TestCertificates.generate(java.nio.file.Path.of(
                System.getProperty("java.io.tmpdir"),
                "vigil-secret-headers-certs-" + ProcessHandle.current().pid()));
    }

    private static final Map<String, String> ENV = Map.of(
            "HEALTH_TOKEN_HEADER",
            "Bearer " + TOKEN,
            "HEALTH_API_KEY",
            API_KEY,
            "WORKER_CLOUD_KEY",
            "cloud-" + API_KEY);
    /** The variables this worker lets monitors use; WORKER_CLOUD_KEY is set but not among them. */
    private static final java.util.Set<String> LISTED = java.util.Set.of("HEALTH_TOKEN_HEADER", "HEALTH_API_KEY");

    @BeforeEach
    void capture() throws Exception {
        server = new TestHttpServer(certs.caSigned);
        other = new TestHttpServer(certs.caSigned);
        plain = new TestHttpServer();
        server.token = TOKEN;
        other.token = TOKEN;
        server.awayUrl = other.url("/echo");
        rootLevel = root.getLevel();
        // Everything, libraries included: a secret must not appear at DEBUG or TRACE either.
        root.setLevel(Level.ALL);
        lines.start();
        root.addAppender(lines);
    }

    @AfterEach
    void release() {
        root.detachAppender(lines);
        root.setLevel(rootLevel);
        server.close();
        other.close();
        plain.close();
    }

    private ProbeResult run(HttpProbe p, MonitorDefinition m) {
        ProbeResult r = p.probe(m, WINDOW).block(Duration.ofSeconds(15));
        if (r != null) {
            results.add(r);
        }
        return r;
    }

    /** Every place a secret must not be: results (as published), log lines with their stack traces, metrics. */
    private void assertNoSecretAnywhere() {
        ProbeMetrics metrics = new ProbeMetrics();
        try {
            for (ProbeResult r : results) {
                String published = Json.string(r);
                assertThat(published).doesNotContain(TOKEN).doesNotContain(API_KEY);
                metrics.record(r);
            }
            assertThat(metrics.scrape()).doesNotContain(TOKEN).doesNotContain(API_KEY);
        } finally {
            metrics.close();
        }
        assertThat(lines.list).isNotEmpty();
        for (ILoggingEvent e : List.copyOf(lines.list)) {
            String text = e.getFormattedMessage()
                    + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy()));
            assertThat(text).as(e.getLoggerName()).doesNotContain(TOKEN).doesNotContain(API_KEY);
        }
    }

    @Test
    void theTargetNeedsTheSecretAndGetsItFromTheEnvironment() {
        var withoutHeader = run(probe(ENV), http(server.url("/secure"), "POST", null, "{}", null, PATIENT_MS));
        assertThat(withoutHeader.outcome()).isEqualTo(Outcome.HTTP_FAILURE);
        assertThat(withoutHeader.httpStatus()).isEqualTo(401);

        var r = run(
                probe(ENV), http(server.url("/secure"), "POST", SECRET_HEADERS, "{\"check\":true}", null, PATIENT_MS));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.httpStatus()).isEqualTo(200);
        var seen = server.last("/secure");
        assertThat(seen.headers())
                .containsEntry("authorization", "Bearer " + TOKEN)
                .containsEntry("x-api-key", API_KEY)
                .containsEntry("x-team", "core");
        // The monitor itself names the variable only.
        assertThat(http(server.url("/secure"), "POST", SECRET_HEADERS, "{}", null, PATIENT_MS)
                        .toString())
                .doesNotContain(TOKEN)
                .contains("${HEALTH_TOKEN_HEADER}");
        assertNoSecretAnywhere();
    }

    @Test
    void anUnsetVariableMeansNoRequestAndNoResultAndOneWarningNamingIt() {
        var p = probe(Map.of("HEALTH_API_KEY", API_KEY));
        var m = http(server.url("/secure"), "POST", SECRET_HEADERS, "{}", null, PATIENT_MS);
        StepVerifier.create(p.probe(m, WINDOW)).expectComplete().verify(Duration.ofSeconds(5));
        StepVerifier.create(p.probe(m, WINDOW + 10_000)).expectComplete().verify(Duration.ofSeconds(5));
        assertThat(server.seen).isEmpty();
        var warnings = lines.list.stream()
                .filter(e -> e.getLevel() == Level.WARN && e.getLoggerName().equals(HttpProbe.class.getName()))
                .toList();
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w.getFormattedMessage())
                .contains("monitor api not probed")
                .contains("HEALTH_TOKEN_HEADER")
                .contains("is not set on this worker"));
        assertNoSecretAnywhere();
    }

    @Test
    void aVariableTheWorkerDoesNotListIsNeverRead() {
        var m = http(
                other.url("/echo"),
                "GET",
                Map.of("X-Exfiltrate", HeaderValue.secret("WORKER_CLOUD_KEY")),
                null,
                null,
                PATIENT_MS);
        StepVerifier.create(probe(ENV).probe(m, WINDOW)).expectComplete().verify(Duration.ofSeconds(5));
        assertThat(other.seen).isEmpty();
        assertThat(lines.list).anySatisfy(e -> assertThat(e.getFormattedMessage())
                .contains("WORKER_CLOUD_KEY")
                .contains("is not one of this worker's headerSecrets"));
        assertNoSecretAnywhere();
        assertThat(lines.list)
                .allSatisfy(e -> assertThat(e.getFormattedMessage()).doesNotContain("cloud-"));
    }

    @Test
    void aValueThatCouldSplitTheRequestIsNeverSentNorEchoed() {
        var p = probe(
                Map.of("HEALTH_TOKEN_HEADER", "Bearer " + TOKEN + "\r\nX-Injected: 1", "HEALTH_API_KEY", API_KEY));
        StepVerifier.create(p.probe(http(server.url("/secure"), "GET", SECRET_HEADERS, null, null, PATIENT_MS), WINDOW))
                .expectComplete()
                .verify(Duration.ofSeconds(5));
        assertThat(server.seen).isEmpty();
        assertThat(lines.list)
                .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("control character"));
        assertNoSecretAnywhere();
    }

    @Test
    void secretsAndCredentialsStayBehindWhenARedirectLeavesTheOrigin() {
        var r = run(probe(ENV), http(server.url("/away"), "GET", SECRET_HEADERS, null, null, PATIENT_MS));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.redirects()).isEqualTo(1);
        assertThat(server.last("/away").headers()).containsKeys("authorization", "x-api-key");
        // Another port is another origin: the plain header follows, the secrets do not.
        assertThat(other.last("/echo").headers())
                .containsEntry("x-team", "core")
                .doesNotContainKeys("authorization", "x-api-key", "cookie");
        assertNoSecretAnywhere();
    }

    @Test
    void aPlainAuthorizationHeaderIsACredentialToo() {
        run(
                probe(ENV),
                http(
                        server.url("/away"),
                        "GET",
                        Map.of("Authorization", HeaderValue.plain("Basic dXNlcjpwYXNz")),
                        null,
                        null,
                        PATIENT_MS));
        assertThat(server.last("/away").headers()).containsKey("authorization");
        assertThat(other.last("/echo").headers()).doesNotContainKey("authorization");
    }

    @Test
    void aRedirectToAnotherHostOnTheSamePortDropsTheSecret() {
        // localhost and 127.0.0.1 are one machine but two hosts to a client: the secret was meant for the first.
        server.awayUrl = server.url("127.0.0.1", "/echo");
        var r = run(probe(ENV), http(server.url("localhost", "/away"), "GET", SECRET_HEADERS, null, null, PATIENT_MS));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.redirects()).isEqualTo(1);
        assertThat(server.last("/away").headers()).containsEntry("authorization", "Bearer " + TOKEN);
        assertThat(server.last("/echo").headers())
                .containsEntry("x-team", "core")
                .doesNotContainKeys("authorization", "x-api-key");
        assertNoSecretAnywhere();
    }

    @Test
    void aDowngradeToPlainHttpDropsTheSecretAndEveryCredential() {
        server.awayUrl = plain.url("/echo");
        var r = run(
                probe(ENV),
                http(
                        server.url("/away"),
                        "GET",
                        Map.of(
                                "Authorization",
                                HeaderValue.secret("HEALTH_TOKEN_HEADER"),
                                "Cookie",
                                HeaderValue.plain("session=abc"),
                                "X-Team",
                                HeaderValue.plain("core")),
                        null,
                        null,
                        PATIENT_MS));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(server.last("/away").headers())
                .containsEntry("authorization", "Bearer " + TOKEN)
                .containsEntry("cookie", "session=abc");
        assertThat(plain.seen).singleElement().satisfies(seen -> assertThat(seen.headers())
                .containsEntry("x-team", "core")
                .doesNotContainKeys("authorization", "cookie", "x-api-key"));
        assertNoSecretAnywhere();
    }

    @Test
    void aTargetThatSendsEveryProbeToPlainHttpNeverGetsTheSecret() {
        // A monitor cannot name a plain-http URL with a secret (it is refused when applied), so a plain-http hop is
        // one a redirect chose: on every probe the secret stays home and the other headers go.
        server.awayUrl = plain.url("/echo");
        var p = probe(ENV);
        for (int i = 0; i < 3; i++) {
            var r = run(p, http(server.url("/away"), "GET", SECRET_HEADERS, null, null, PATIENT_MS));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        }
        assertThat(plain.seen).hasSize(3).allSatisfy(seen -> assertThat(seen.headers())
                .containsEntry("x-team", "core")
                .doesNotContainKeys("authorization", "x-api-key"));
        assertNoSecretAnywhere();
    }

    @Test
    void aMonitorThatWouldSendASecretOverPlainHttpIsRefusedWhenApplied() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> http(plain.url("/secure"), "GET", SECRET_HEADERS, null, null, PATIENT_MS))
                .isInstanceOfSatisfying(dev.vigil.schemas.contract.ContractViolation.class, v -> {
                    assertThat(v.field()).isIn("headers.Authorization", "headers.X-Api-Key");
                    assertThat(v.problem()).contains("only sent over https").contains("https://");
                });
        assertThat(plain.seen).isEmpty();
    }

    @Test
    void aSameOriginRedirectKeepsTheSecret() {
        var r = run(probe(ENV), http(server.url("/temporary"), "POST", SECRET_HEADERS, "{}", null, PATIENT_MS));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(server.last("/secure").headers()).containsEntry("authorization", "Bearer " + TOKEN);
        assertNoSecretAnywhere();
    }

    @Test
    void failuresWithSecretHeadersNeverErrorAndNeverCarryTheSecret() throws Exception {
        int closed;
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        var p = probe(ENV);
        for (MonitorDefinition m : List.of(
                http("https://127.0.0.1:" + closed + "/", "POST", SECRET_HEADERS, "{}", null, 2000),
                http(server.url("/slow"), "POST", SECRET_HEADERS, "{}", null, 1000),
                http("https://10.0.0.1/", "GET", SECRET_HEADERS, null, null, 2000))) {
            StepVerifier.create(p.probe(m, WINDOW))
                    .assertNext(r -> {
                        results.add(r);
                        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
                    })
                    .expectComplete()
                    .verify(Duration.ofSeconds(10));
        }
        assertNoSecretAnywhere();
    }
}
