package dev.vigil.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.HashedCredentials;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;
import reactor.netty.ReactorNetty;

/**
 * Heartbeat pings end to end on the embedded broker: monitors published to {@code vigil.monitors} (before ingest
 * starts and while it runs), pings with the token as a Bearer header and as {@code ?token=}, each accepted one read back
 * from {@code vigil.probe-results} as the push result of its window; one record per window and kind; every refusal the
 * same 401 with nothing produced (read_uncommitted end offsets unchanged); and the token in no answer, metric or log
 * line, the access log included (switched on for this class).
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HeartbeatPingIT {
    private static final String ACCESS_LOGGER = "reactor.netty.http.server.AccessLog";
    /** A week-long window: the pings of one test run fall in the same window. */
    private static final int WEEK = MonitorDefinition.MAX_HEARTBEAT_INTERVAL_SECONDS;

    private static final String TOKEN = BearerTokens.generate();
    private static final String OTHER_TOKEN = BearerTokens.generate();
    private static final String REFUSED_DETAIL = "this monitor does not accept this token (or is no heartbeat monitor "
            + "that can be pinged); the ping URL is printed by vigil monitors apply";

    private EmbeddedKafka kafka;
    private IngestHarness ingest;
    private TopicOffsets offsets;
    private KafkaConsumer<String, byte[]> consumer;
    private KafkaProducer<String, MonitorDefinition> monitors;
    private final List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Level accessLevel;

    static MonitorDefinition heartbeat(String id, String tokenSha256, Boolean enabled) {
        return heartbeat(id, tokenSha256, enabled, null);
    }

    static MonitorDefinition heartbeat(String id, String tokenSha256, Boolean enabled, Boolean allowGet) {
        return new MonitorDefinition(
                1,
                id,
                null,
                null,
                null,
                WEEK,
                null,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                enabled,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(null, null, 60, tokenSha256, allowGet));
    }

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopics(Topics.all().stream().map(t -> t.withPartitions(3)).toList());
        monitors = new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), VigilSerdes.monitorDefinition());
        String hash = BearerTokens.hash(TOKEN);
        // on the topic before ingest starts: read while catching up
        publish(heartbeat("nightly", hash, null));
        publish(heartbeat("weekly", hash, null, true)); // opted in to GET pings; nightly takes POSTs only
        publish(heartbeat("paused", hash, false));
        publish(heartbeat("tokenless", null, null));
        publish(new MonitorDefinition(
                1,
                "api",
                null,
                "https://api.example.com/",
                null,
                60,
                null,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                null,
                null));
        logs.start();
        root().addAppender(logs);
        Logger access = (Logger) LoggerFactory.getLogger(ACCESS_LOGGER);
        accessLevel = access.getLevel();
        access.setLevel(Level.INFO);
        System.setProperty(ReactorNetty.ACCESS_LOG_ENABLED, "true");
        try {
            ingest = new IngestHarness(kafka);
        } finally {
            System.clearProperty(ReactorNetty.ACCESS_LOG_ENABLED);
        }
        offsets = new TopicOffsets(kafka.consumerProps("x"), Topics.PROBE_RESULTS);
        consumer = ingest.consumer(Topics.PROBE_RESULTS);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> ingest.meter("vigil.ingest.heartbeat.catalog.ready") == 1.0);
        assertThat(ingest.meter("vigil.ingest.heartbeat.monitors"))
                .as("nightly and weekly")
                .isEqualTo(2.0);
    }

    @AfterAll
    void stop() {
        monitors.close();
        consumer.close();
        offsets.close();
        ingest.close();
        root().detachAppender(logs);
        ((Logger) LoggerFactory.getLogger(ACCESS_LOGGER)).setLevel(accessLevel);
    }

    private void publish(MonitorDefinition def) {
        try {
            monitors.send(new ProducerRecord<>(Topics.MONITORS, def.id(), def)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private IngestHarness.Reply ping(String method, String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(ingest.uri(path)).timeout(Duration.ofSeconds(30));
        b = method.equals("GET") ? b.GET() : b.POST(HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        try {
            HttpResponse<byte[]> r = ingest.http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new IngestHarness.Reply(
                    r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""),
                    r.headers().firstValue("Retry-After").orElse(null),
                    r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String allowOnGet(String path) {
        try {
            HttpResponse<Void> r = ingest.http.send(
                    HttpRequest.newBuilder(ingest.uri(path)).GET().build(), HttpResponse.BodyHandlers.discarding());
            assertThat(r.statusCode()).isEqualTo(405);
            return r.headers().firstValue("Allow").orElse(null);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The ping results read so far for a monitor, read committed (waits for at least {@code n}). */
    private List<ProbeResult> resultsOf(String monitorId, int n) {
        IngestHarness.pollUntil(
                consumer,
                rs -> rs.stream().filter(r -> r.key().equals(monitorId)).count() >= n,
                read,
                Duration.ofSeconds(30));
        return read.stream()
                .filter(r -> r.key().equals(monitorId))
                .map(r -> Json.read(r.value(), ProbeResult.class))
                .toList();
    }

    /** End offsets once no commit marker is on its way. */
    private long settledOffsets() {
        long[] last = {offsets.total()};
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ofMillis(300))
                .until(() -> {
                    long now = offsets.total();
                    boolean same = now == last[0];
                    last[0] = now;
                    return same;
                });
        return last[0];
    }

    private static void assertProblem(IngestHarness.Reply reply, int status, String type) {
        assertThat(reply.status()).as(reply.text()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/" + type);
        assertThat(reply.text()).doesNotContain(TOKEN).doesNotContain(TOKEN.substring(4, 20));
    }

    @Test
    @Order(1)
    void aPingWithABearerTokenIsTheSuccessOfItsWindowOnTheTopicBeforeThe202() {
        long before = System.currentTimeMillis();
        IngestHarness.Reply reply = ping("POST", "/v1/heartbeat/nightly", IngestHarness.bearer(TOKEN));
        long after = System.currentTimeMillis();
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        JsonNode body = reply.json();
        HeartbeatSchedules.Window window = HeartbeatSchedules.windowAt(heartbeat("nightly", null, null), before);
        assertThat(body.get("monitorId").asText()).isEqualTo("nightly");
        assertThat(body.get("outcome").asText()).isEqualTo("success");
        assertThat(body.get("published").asBoolean()).isTrue();
        assertThat(body.get("window").get("start").asText())
                .isEqualTo(Instant.ofEpochMilli(window.start()).toString());
        assertThat(body.get("window").get("end").asText())
                .isEqualTo(Instant.ofEpochMilli(window.end()).toString());

        ProbeResult r = resultsOf("nightly", 1).get(0);
        assertThat(r.region()).isEqualTo(MonitorDefinition.PUSH_REGION);
        assertThat(r.workerId()).isEqualTo("ingest");
        assertThat(r.checkType()).isEqualTo(CheckType.HEARTBEAT);
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.errorKind()).isNull();
        assertThat(r.httpStatus()).isNull();
        assertThat(r.windowStart()).isEqualTo(window.start());
        assertThat(r.startedAt()).isBetween(before, after);
        assertThat(r.requestId()).isNotBlank();
    }

    @Test
    @Order(2)
    void laterPingsOfTheWindowAre200AndPublishNothing() {
        long before = settledOffsets();
        for (int i = 0; i < 20; i++) {
            IngestHarness.Reply reply = ping(
                    "POST",
                    "/v1/heartbeat/nightly" + (i % 3 == 0 ? "?token=" + TOKEN : ""),
                    i % 3 == 0 ? Map.of() : IngestHarness.bearer(TOKEN));
            assertThat(reply.status()).as(reply.text()).isEqualTo(200);
            assertThat(reply.json().get("published").asBoolean()).isFalse();
        }
        assertThat(settledOffsets()).as("nothing produced").isEqualTo(before);
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "duplicate"))
                .isGreaterThanOrEqualTo(20);
    }

    @Test
    @Order(2)
    void aGetToAMonitorThatDidNotOptInIs405AndNoPing() {
        long before = settledOffsets();
        double rejected = ingest.meter("vigil.ingest.heartbeats", "outcome", "rejected");
        // as a link preview or a mail scanner fetches a pasted URL; and with the token in the header
        for (IngestHarness.Reply reply : List.of(
                ping("GET", "/v1/heartbeat/nightly?token=" + TOKEN, Map.of()),
                ping("GET", "/v1/heartbeat/nightly/fail?token=" + TOKEN, Map.of()),
                ping("GET", "/v1/heartbeat/nightly", IngestHarness.bearer(TOKEN)))) {
            assertProblem(reply, 405, "method-not-allowed");
            assertThat(reply.text()).doesNotContain(TOKEN);
        }
        assertThat(allowOnGet("/v1/heartbeat/nightly?token=" + TOKEN)).isEqualTo("POST");
        assertThat(settledOffsets()).as("nothing produced").isEqualTo(before);
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "rejected"))
                .isEqualTo(rejected + 4);
        // a GET with a wrong token learns nothing more than before: the same 401
        assertProblem(
                ping("GET", "/v1/heartbeat/nightly?token=" + TOKEN.toUpperCase(java.util.Locale.ROOT), Map.of()),
                401,
                "invalid-credentials");
    }

    @Test
    @Order(3)
    void aFailPingWithTheTokenInTheQueryIsAReportedFailure() {
        IngestHarness.Reply reply = ping("GET", "/v1/heartbeat/weekly/fail?token=" + TOKEN, Map.of());
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        assertThat(reply.json().get("outcome").asText()).isEqualTo("assertion_failure");
        ProbeResult r = resultsOf("weekly", 1).get(0);
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.REPORTED_FAILURE);
        assertThat(r.region()).isEqualTo("push");
        // a success of the same window is another kind: published once too
        assertThat(ping("POST", "/v1/heartbeat/weekly?token=" + TOKEN, Map.of()).status())
                .isEqualTo(202);
        assertThat(ping("POST", "/v1/heartbeat/weekly/fail", IngestHarness.bearer(TOKEN))
                        .status())
                .isEqualTo(200);
        assertThat(resultsOf("weekly", 2))
                .extracting(ProbeResult::outcome)
                .containsExactly(Outcome.ASSERTION_FAILURE, Outcome.SUCCESS);
    }

    /** Unknown, disabled, tokenless, http monitors and wrong tokens: one answer, nothing produced. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown monitor, right token      | GET  | /v1/heartbeat/nobody?token=TOKEN        | -                  | invalid-credentials",
                "unknown monitor, bearer           | POST | /v1/heartbeat/nobody                    | Bearer TOKEN       | invalid-credentials",
                "wrong token                       | POST | /v1/heartbeat/nightly                   | Bearer OTHER       | invalid-credentials",
                "wrong token in the query          | GET  | /v1/heartbeat/nightly?token=OTHER       | -                  | invalid-credentials",
                "wrong token on /fail              | GET  | /v1/heartbeat/nightly/fail?token=OTHER  | -                  | invalid-credentials",
                "token in another case             | GET  | /v1/heartbeat/nightly?token=UPPER       | -                  | invalid-credentials",
                "token percent-encoded             | GET  | /v1/heartbeat/nightly?token=ENCODED     | -                  | invalid-credentials",
                "the token's hash                  | GET  | /v1/heartbeat/nightly?token=HASH        | -                  | invalid-credentials",
                "disabled monitor                  | GET  | /v1/heartbeat/paused?token=TOKEN        | -                  | invalid-credentials",
                "monitor without a token           | GET  | /v1/heartbeat/tokenless?token=TOKEN     | -                  | invalid-credentials",
                "an http monitor                   | GET  | /v1/heartbeat/api?token=TOKEN           | -                  | invalid-credentials",
                "Basic credentials                 | POST | /v1/heartbeat/nightly                   | Basic TOKEN        | invalid-credentials",
                "a wrong header beats a right query| POST | /v1/heartbeat/nightly?token=TOKEN       | Bearer OTHER       | invalid-credentials",
                "no token at all                   | POST | /v1/heartbeat/nightly                   | -                  | missing-credentials",
                "no token for an unknown monitor   | GET  | /v1/heartbeat/nobody                    | -                  | missing-credentials",
                "an empty token parameter          | GET  | /v1/heartbeat/nightly?token=            | -                  | missing-credentials",
                "Token is not token                | GET  | /v1/heartbeat/nightly?Token=TOKEN       | -                  | missing-credentials"
            })
    @Order(4)
    void everyRefusalIsTheSame401AndPublishesNothing(
            String name, String method, String path, String authorization, String type) {
        long before = settledOffsets();
        Map<String, String> headers =
                "-".equals(authorization) ? Map.of() : Map.of("Authorization", tokenIn(authorization));
        IngestHarness.Reply reply = ping(method, tokenIn(path), headers);
        assertProblem(reply, 401, type);
        if (type.equals("invalid-credentials")) {
            assertThat(reply.json().get("detail").asText()).isEqualTo(REFUSED_DETAIL);
        }
        assertThat(reply.json().get("instance").asText()).doesNotContain("token=");
        assertThat(offsets.total()).as("nothing produced").isEqualTo(before);
    }

    private static String tokenIn(String s) {
        return s.replace("UPPER", TOKEN.toUpperCase())
                .replace(
                        "ENCODED",
                        TOKEN.substring(0, TOKEN.length() - 1) + "%"
                                + Integer.toHexString(TOKEN.charAt(TOKEN.length() - 1))
                                        .toUpperCase())
                .replace("HASH", HashedCredentials.hash(TOKEN))
                .replace("OTHER", OTHER_TOKEN)
                .replace("TOKEN", TOKEN);
    }

    @Test
    @Order(5)
    void otherMethodsAndPathsAreUnknownRoutes() {
        for (String path : new String[] {"/v1/heartbeat/", "/v1/heartbeat/nightly/extra", "/v1/heartbeat/nightly/"}) {
            IngestHarness.Reply reply = ping("GET", path + "?token=" + TOKEN, Map.of());
            assertProblem(reply, 404, "not-found");
        }
        HttpRequest delete = HttpRequest.newBuilder(ingest.uri("/v1/heartbeat/nightly?token=" + TOKEN))
                .DELETE()
                .build();
        try {
            HttpResponse<String> r = ingest.http.send(delete, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).doesNotContain(TOKEN);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @Order(6)
    void aBodyIsReadAndIgnoredUpTo16KiBAndRefusedBeyond() throws Exception {
        String log = "backup done: 1234 files\n".repeat(100);
        IngestHarness.Reply small = ingest.post(
                "/v1/heartbeat/nightly",
                "text/plain",
                log.getBytes(StandardCharsets.UTF_8),
                IngestHarness.bearer(TOKEN));
        assertThat(small.status()).as(small.text()).isEqualTo(200);
        IngestHarness.Reply big = ingest.post(
                "/v1/heartbeat/nightly", "text/plain", new byte[16 * 1024 + 1], IngestHarness.bearer(TOKEN));
        assertProblem(big, 413, "payload-too-large");
        // unauthenticated with a large declared body: 401 at once, nothing read or buffered
        double allocated = ingest.meter("vigil.ingest.body.allocated.bytes");
        try (RawHttpConnection c = new RawHttpConnection(ingest.server.port(), 3000)) {
            c.sendPartial("POST /v1/heartbeat/nightly?token=" + OTHER_TOKEN + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: 1000000\r\n\r\nlog");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.headers().get("www-authenticate")).startsWith("Bearer");
        }
        assertThat(ingest.meter("vigil.ingest.body.allocated.bytes")).isEqualTo(allocated);
    }

    @Test
    @Order(7)
    void aMonitorDeletedOrRotatedWhileIngestRunsRefusesItsOldToken() {
        publish(heartbeat("late", BearerTokens.hash(OTHER_TOKEN), null));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> ping("POST", "/v1/heartbeat/late", IngestHarness.bearer(OTHER_TOKEN))
                                .status()
                        == 202);
        publish(heartbeat("late", BearerTokens.hash(TOKEN), null));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> ping("POST", "/v1/heartbeat/late", IngestHarness.bearer(OTHER_TOKEN))
                                .status()
                        == 401);
        assertThat(ping("POST", "/v1/heartbeat/late", IngestHarness.bearer(TOKEN))
                        .status())
                .isIn(200, 202);
        try {
            monitors.send(new ProducerRecord<>(Topics.MONITORS, "late", null)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> ping("POST", "/v1/heartbeat/late", IngestHarness.bearer(TOKEN))
                                .status()
                        == 401);
    }

    @Test
    @Order(8)
    void pingsAreCountedByOutcomeAndTheTokenIsInNoMetric() {
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "success"))
                .isGreaterThanOrEqualTo(2);
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "failure"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "refused"))
                .isGreaterThanOrEqualTo(17);
        assertThat(ingest.meter("vigil.ingest.heartbeats", "outcome", "rejected"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter("vigil.ingest.requests", "route", "/v1/heartbeat/{monitorId}", "status", "202"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter("vigil.ingest.requests", "route", "/v1/heartbeat/{monitorId}/fail", "status", "401"))
                .isGreaterThanOrEqualTo(1);
        String scrape = ingest.get("/metrics").text();
        assertThat(scrape)
                .contains("vigil_ingest_heartbeats_total")
                .doesNotContain(TOKEN)
                .doesNotContain(TOKEN.substring(4, 20));
    }

    /** Last: every line logged while this class ran, the access log included, is free of the token. */
    @Test
    @Order(9)
    void theTokenIsInNoLogLineAndTheAccessLogWritesTheQueryRedacted() {
        assertThat(ping("GET", "/v1/heartbeat/weekly?token=" + TOKEN, Map.of()).status())
                .isEqualTo(200);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> accessLines().stream()
                .anyMatch(l -> l.contains("GET /v1/heartbeat/weekly?token=… HTTP/1.1\" 200")));
        List<String> lines = new ArrayList<>();
        synchronized (logs) {
            for (ILoggingEvent e : List.copyOf(logs.list)) {
                lines.add(e.getFormattedMessage());
                if (e.getThrowableProxy() != null) {
                    lines.add(ThrowableProxyUtil.asString(e.getThrowableProxy()));
                }
                e.getMDCPropertyMap().forEach((k, v) -> lines.add(k + "=" + v));
            }
        }
        assertThat(accessLines()).as("the access log was on").hasSizeGreaterThan(20);
        assertThat(accessLines())
                .anySatisfy(l -> assertThat(l).contains("/v1/heartbeat/nightly/fail?token=… HTTP/1.1\" 401"));
        for (String secret :
                new String[] {TOKEN.substring(4, 20), OTHER_TOKEN.substring(4, 20), HashedCredentials.hash(TOKEN)}) {
            assertThat(lines).noneSatisfy(l -> assertThat(l).contains(secret));
        }
    }

    private List<String> accessLines() {
        synchronized (logs) {
            return List.copyOf(logs.list).stream()
                    .filter(e -> e.getLoggerName().equals(ACCESS_LOGGER))
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    /** A server whose monitor catalogue topic does not exist cannot tell a good token from a bad one: 503. */
    @Test
    @Order(10)
    void untilTheCatalogueIsReadPingsAre503WithRetryAfter() {
        long before = settledOffsets();
        try (IngestHarness blind = new IngestHarness(kafka, c -> {
            IngestConfig.Kafka k = c.kafka();
            IngestConfig.TopicNames t = k.topics();
            IngestConfig.Kafka other = new IngestConfig.Kafka(
                    k.bootstrapServers(),
                    new IngestConfig.TopicNames(
                            t.metrics(),
                            t.probeResults(),
                            t.alerts(),
                            t.heartbeats(),
                            t.vendorUpdates(),
                            "absent.monitors"),
                    k.transactionalIdPrefix(),
                    k.producers(),
                    k.sendTimeout(),
                    k.commitResolveTimeout(),
                    k.retryAfter(),
                    k.maxRecordsPerTransaction(),
                    k.maxQueuedRequests(),
                    new HashMap<>(k.properties()));
            return new IngestConfig(c.http(), other, c.apiKeys(), c.probeWorkers(), c.limits(), c.integrations());
        })) {
            IngestHarness.Reply reply =
                    blind.post("/v1/heartbeat/nightly", null, new byte[0], IngestHarness.bearer(TOKEN));
            assertProblem(reply, 503, "not-ready");
            assertThat(reply.retryAfter()).isEqualTo("5");
            assertProblem(blind.post("/v1/heartbeat/nightly", null, new byte[0], Map.of()), 401, "missing-credentials");
            assertThat(blind.meter("vigil.ingest.heartbeats", "outcome", "not_ready"))
                    .isEqualTo(1.0);
        }
        assertThat(offsets.total()).isEqualTo(before);
    }
}
