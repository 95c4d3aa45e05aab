package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.BETTERSTACK_TOKEN;
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
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
 * BetterStack's incident webhook end to end: a person's acknowledgement or resolution posted with the token in the
 * path (as BetterStack sends it) or as a Bearer header is on {@code vigil.vendor-updates}, keyed
 * {@code betterstack/<incident id>}, before the 202. Everything else is refused or ignored without producing anything
 * (read_uncommitted end offsets unchanged), and the token appears in no answer, no metric and no log line, the access
 * log included (switched on for this class).
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BetterStackWebhookIT {
    private static final String ROUTE = "/v1/integrations/betterstack";
    private static final String ACCESS_LOGGER = "reactor.netty.http.server.AccessLog";
    private static final AtomicInteger IDS = new AtomicInteger(1000);

    private EmbeddedKafka kafka;
    /** Times of the acts, a little before the run: fresh, as BetterStack sends them at once. */
    private static final String ACK_AT = Instant.now()
            .minusSeconds(10)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            .toString();

    private static final String RESOLVED_AT = Instant.now()
            .minusSeconds(5)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            .plusMillis(250)
            .toString();
    private IngestHarness ingest;
    private TopicOffsets offsets;
    private KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Level accessLevel;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        this.kafka = kafka;
        logs.start();
        root().addAppender(logs);
        Logger access = (Logger) LoggerFactory.getLogger(ACCESS_LOGGER);
        accessLevel = access.getLevel();
        access.setLevel(Level.INFO);
        System.setProperty(ReactorNetty.ACCESS_LOG_ENABLED, "true");
        try {
            ingest = new IngestHarness(kafka, IngestHarness::withBetterStack);
        } finally {
            System.clearProperty(ReactorNetty.ACCESS_LOG_ENABLED);
        }
        offsets = new TopicOffsets(kafka.consumerProps("x"), Topics.VENDOR_UPDATES);
        consumer = ingest.consumer(Topics.VENDOR_UPDATES);
    }

    @AfterAll
    void stop() {
        consumer.close();
        offsets.close();
        ingest.close();
        root().detachAppender(logs);
        ((Logger) LoggerFactory.getLogger(ACCESS_LOGGER)).setLevel(accessLevel);
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private static String nextId() {
        return Integer.toString(IDS.incrementAndGet());
    }

    private static String acknowledged(String id, String by) {
        return Events.betterStackIncident(id, "Acknowledged", ACK_AT, by, null, null);
    }

    /** The one record keyed {@code betterstack/<id>}, read committed. */
    private ConsumerRecord<String, byte[]> recordOf(String id) {
        String key = "betterstack/" + id;
        IngestHarness.pollUntil(
                consumer, rs -> rs.stream().anyMatch(r -> r.key().equals(key)), read, Duration.ofSeconds(30));
        List<ConsumerRecord<String, byte[]>> mine =
                read.stream().filter(r -> r.key().equals(key)).toList();
        assertThat(mine).hasSize(1);
        return mine.get(0);
    }

    /** End offsets once no commit marker is on its way (a previous test's commit writes one just after its 202). */
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
        JsonNode p = reply.json();
        assertThat(p.get("type").asText()).isEqualTo("https://vigil.dev/problems/" + type);
        assertThat(p.get("status").asInt()).isEqualTo(status);
        assertThat(reply.text())
                .doesNotContain(BETTERSTACK_TOKEN)
                .doesNotContainIgnoringCase(BETTERSTACK_TOKEN.substring(4, 20));
    }

    @Test
    @Order(1)
    void anAcknowledgementPostedWithTheTokenInThePathIsOnTheTopicBeforeThe202() {
        String id = nextId();
        long before = System.currentTimeMillis();
        IngestHarness.Reply reply = ingest.betterStack(BETTERSTACK_TOKEN, acknowledged(id, "Alice Example"));
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        assertThat(reply.contentType()).startsWith("application/json");
        assertThat(reply.json()).isEqualTo(Json.tree("{\"accepted\":1}".getBytes(StandardCharsets.UTF_8)));

        ConsumerRecord<String, byte[]> r = recordOf(id);
        assertThat(r.key()).isEqualTo("betterstack/" + id);
        VendorIncidentUpdate u = Json.read(r.value(), VendorIncidentUpdate.class);
        assertThat(u.vendor()).isEqualTo("betterstack");
        assertThat(u.vendorIncidentId()).isEqualTo(id);
        assertThat(u.action()).isEqualTo(VendorIncidentUpdate.Action.ACKNOWLEDGED);
        assertThat(u.by()).isEqualTo("Alice Example");
        assertThat(u.at()).isEqualTo(Instant.parse(ACK_AT).toEpochMilli());
        assertThat(u.receivedAt()).isBetween(before, System.currentTimeMillis());
        JsonNode wire = Json.tree(r.value());
        assertThat(wire.get("action").asText()).isEqualTo("acknowledged");
        assertThat(wire.get("schemaVersion").asInt()).isEqualTo(1);
    }

    @Test
    @Order(2)
    void aResolutionPostedWithTheBearerHeaderIsOnTheTopicWithoutTheResolversEmail() {
        String id = nextId();
        String body =
                Events.betterStackIncident(id, "Resolved", ACK_AT, "Alice Example", RESOLVED_AT, "bob@example.com");
        IngestHarness.Reply reply = ingest.post(
                ROUTE,
                "application/json; charset=utf-8",
                body.getBytes(StandardCharsets.UTF_8),
                IngestHarness.bearer(BETTERSTACK_TOKEN));
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        assertThat(reply.json().get("accepted").asInt()).isEqualTo(1);
        ConsumerRecord<String, byte[]> r = recordOf(id);
        VendorIncidentUpdate u = Json.read(r.value(), VendorIncidentUpdate.class);
        assertThat(u.action()).isEqualTo(VendorIncidentUpdate.Action.RESOLVED);
        assertThat(u.by()).as("an e-mail address never reaches the channels").isNull();
        assertThat(u.at()).isEqualTo(Instant.parse(RESOLVED_AT).toEpochMilli());
        assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain("example.com");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Started      | -                    | -             | -                    | -     | status Started is not a person's acknowledgement or resolution",
                "Unconfirmed  | -                    | -             | -                    | -     | status Unconfirmed is not a person's acknowledgement or resolution",
                "Validating   | -                    | -             | -                    | -     | status Validating is not a person's acknowledgement or resolution",
                "Resolved     | 2020-03-09T17:40:00Z | Alice Example | 2020-03-09T17:50:00Z | vigil | resolved by Vigil itself, not by a person",
                "Resolved     | -                    | -             | 2020-03-09T17:50:00Z | VIGIL | resolved by Vigil itself, not by a person"
            })
    @Order(3)
    void whatIsNoPersonsActIsAnswered202AndPublishesNothing(
            String status, String ackAt, String ackBy, String resAt, String resBy, String why) {
        long before = settledOffsets();
        IngestHarness.Reply reply = ingest.betterStack(
                BETTERSTACK_TOKEN,
                Events.betterStackIncident(nextId(), status, dash(ackAt), dash(ackBy), dash(resAt), dash(resBy)));
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        assertThat(reply.json().get("accepted").asInt()).isZero();
        assertThat(reply.json().get("ignored").asText()).isEqualTo(why);
        assertThat(offsets.total()).as("nothing produced").isEqualTo(before);
    }

    private static String dash(String s) {
        return "-".equals(s) ? null : s;
    }

    /** Every wrong way to present the token: 401, the same answer, nothing produced. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "wrong token in the path                | /wrong-token-0123456789abcdef0123456789abcdef | -                       | invalid-credentials",
                "token in another case                  | /UPPER                                        | -                       | invalid-credentials",
                "token with a trailing slash            | /TOKEN/                                       | -                       | invalid-credentials",
                "token with an extra segment            | /TOKEN/acknowledge                            | -                       | invalid-credentials",
                "token one character short              | /SHORT                                        | -                       | invalid-credentials",
                "token percent-encoded                  | /ENCODED                                      | -                       | invalid-credentials",
                "empty token segment                    | /                                             | -                       | invalid-credentials",
                "the token's hash in the path           | /HASH                                         | -                       | invalid-credentials",
                "no token at all                        | ''                                            | -                       | missing-credentials",
                "token as a query parameter             | ?token=TOKEN                                  | -                       | missing-credentials",
                "wrong bearer token                     | ''                                            | Bearer wrong-token-0123 | invalid-credentials",
                "bearer token in another case           | ''                                            | Bearer UPPER            | invalid-credentials",
                "token as Basic credentials             | ''                                            | Basic TOKEN             | invalid-credentials",
                "token without a scheme                 | ''                                            | TOKEN                   | invalid-credentials",
                "a wrong path token and a right header  | /wrong-token-0123456789abcdef0123456789abcdef | Bearer TOKEN            | invalid-credentials"
            })
    @Order(4)
    void aMissingOrWrongTokenIsRefused401AndPublishesNothing(
            String name, String suffix, String authorization, String type) {
        long before = settledOffsets();
        String path = ROUTE + tokenIn(suffix);
        Map<String, String> headers =
                "-".equals(authorization) ? Map.of() : Map.of("Authorization", tokenIn(authorization));
        IngestHarness.Reply reply = ingest.post(
                path, "application/json", acknowledged(nextId(), "Mallory").getBytes(StandardCharsets.UTF_8), headers);
        assertProblem(reply, 401, type);
        assertThat(reply.json().get("detail").asText())
                .isEqualTo(
                        "a valid webhook token is required, in the path (/v1/integrations/betterstack/<token>) or as Authorization: Bearer <token>");
        assertThat(offsets.total()).as("nothing produced").isEqualTo(before);
    }

    private static String tokenIn(String s) {
        String last = BETTERSTACK_TOKEN.substring(BETTERSTACK_TOKEN.length() - 1);
        return s.replace("UPPER", BETTERSTACK_TOKEN.toUpperCase())
                .replace("SHORT", BETTERSTACK_TOKEN.substring(0, BETTERSTACK_TOKEN.length() - 1))
                .replace(
                        "ENCODED",
                        BETTERSTACK_TOKEN.substring(0, BETTERSTACK_TOKEN.length() - 1) + "%"
                                + Integer.toHexString(last.charAt(0)).toUpperCase())
                .replace("HASH", dev.vigil.kit.auth.HashedCredentials.hash(BETTERSTACK_TOKEN))
                .replace("TOKEN", BETTERSTACK_TOKEN);
    }

    @Test
    @Order(5)
    void otherMethodsAndMisspeltPathsAreUnknownRoutesAndNeverEchoTheToken() throws Exception {
        for (String path : new String[] {
            "/V1/integrations/betterstack/" + BETTERSTACK_TOKEN,
            "/v1/integrations/BetterStack/" + BETTERSTACK_TOKEN,
            "/v1/integrations//betterstack/" + BETTERSTACK_TOKEN,
            "/v1/integrations/betterstack" + BETTERSTACK_TOKEN
        }) {
            IngestHarness.Reply reply = ingest.post(
                    path, "application/json", acknowledged(nextId(), "A").getBytes(StandardCharsets.UTF_8), Map.of());
            assertProblem(reply, 404, "not-found");
            assertThat(reply.json().get("instance").asText()).endsWith("/…");
        }
        IngestHarness.Reply get = ingest.get(ROUTE + "/" + BETTERSTACK_TOKEN);
        assertProblem(get, 404, "not-found");
        assertThat(get.json().get("detail").asText()).isEqualTo("no such endpoint: GET /v1/integrations/betterstack/…");
    }

    @Test
    @Order(6)
    void badBodiesAreRefused400NamingTheFieldAndPublishNothing() {
        long before = settledOffsets();
        String[][] cases = {
            {"{\"data\":", "malformed-json", "the body is not valid JSON"},
            {"[]", "betterstack-payload", "$: must be a JSON object (BetterStack's incident webhook)"},
            {
                acknowledged("1", "A").replace("\"type\":\"incident\"", "\"type\":\"monitor\""),
                "betterstack-payload",
                "data.type: must be \"incident\" (configure the webhook for incidents)"
            },
            {
                acknowledged("12 34", "A"),
                "betterstack-payload",
                "data.id: must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])"
            },
            {
                acknowledged("1", "A").replace("\"id\":\"1\"", "\"id\":1.5"),
                "betterstack-payload",
                "data.id: must be a string or an integer"
            },
            {
                "{\"data\":{\"id\":\"1\",\"type\":\"incident\"}}",
                "betterstack-payload",
                "data.attributes: is required and must be an object"
            },
            {
                acknowledged("1", "A").replace(ACK_AT, "last tuesday"),
                "betterstack-payload",
                "data.attributes.acknowledged_at: must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z"
            },
            {
                acknowledged("1", "A").replace(ACK_AT, "9999-01-01T00:00:00Z"),
                "betterstack-payload",
                "data.attributes.acknowledged_at: is more than 300 s ahead of the server clock"
            },
        };
        for (String[] c : cases) {
            IngestHarness.Reply reply = ingest.betterStack(BETTERSTACK_TOKEN, c[0]);
            assertProblem(reply, 400, c[1]);
            assertThat(reply.json().get("detail").asText()).as(c[0]).isEqualTo(c[2]);
            assertThat(reply.json().get("instance").asText()).isEqualTo("/v1/integrations/betterstack/…");
        }
        assertThat(offsets.total()).as("nothing produced").isEqualTo(before);
    }

    @Test
    @Order(7)
    void anythingButJsonIsRefused415AfterTheTokenWasChecked() {
        long before = settledOffsets();
        byte[] body = acknowledged(nextId(), "A").getBytes(StandardCharsets.UTF_8);
        for (String ct : new String[] {"text/plain", "application/x-www-form-urlencoded", "application/x-ndjson"}) {
            assertProblem(
                    ingest.post(ROUTE + "/" + BETTERSTACK_TOKEN, ct, body, Map.of()), 415, "unsupported-media-type");
            assertProblem(
                    ingest.post(ROUTE, ct, body, IngestHarness.bearer(BETTERSTACK_TOKEN)),
                    415,
                    "unsupported-media-type");
        }
        assertProblem(
                ingest.post(ROUTE + "/" + BETTERSTACK_TOKEN, null, body, Map.of()), 415, "unsupported-media-type");
        assertProblem(ingest.post(ROUTE + "/wrong-token", "text/plain", body, Map.of()), 401, "invalid-credentials");
        assertThat(offsets.total()).isEqualTo(before);
    }

    @Test
    @Order(8)
    void anAuthenticatedBodyOver64KiBIsRefused413DeclaredOrChunked() throws Exception {
        long before = settledOffsets();
        String big = acknowledged(nextId(), "A")
                .replace("\"name\":\"checkout-api\"", "\"name\":\"" + "x".repeat(64 * 1024) + "\"");
        IngestHarness.Reply declared = ingest.betterStack(BETTERSTACK_TOKEN, big);
        assertProblem(declared, 413, "payload-too-large");
        assertThat(declared.json().get("detail").asText()).contains("65536 bytes");
        HttpRequest chunked = HttpRequest.newBuilder(ingest.uri(ROUTE))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + BETTERSTACK_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                .build();
        HttpResponse<String> r = ingest.http.send(chunked, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).contains("payload-too-large").doesNotContain(BETTERSTACK_TOKEN);
        assertThat(offsets.total()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/integrations/betterstack/wrong-token-0123456789abcdef0123456789ab | -                           | invalid-credentials",
                "/v1/integrations/betterstack                                          | -                           | missing-credentials",
                "/v1/integrations/betterstack                                          | Authorization: Bearer nope | invalid-credentials"
            })
    @Order(9)
    void anUnauthenticatedCallDeclaringALargeBodyIsAnswered401AtOnceWithoutABuffer(
            String path, String header, String type) throws Exception {
        double allocated = ingest.meter("vigil.ingest.body.allocated.bytes");
        try (RawHttpConnection c = new RawHttpConnection(ingest.server.port(), 3000)) {
            c.sendPartial("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000000\r\n" + ("-".equals(header) ? "" : header + "\r\n") + "\r\n{\"data\":");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
            assertThat(Json.tree(r.body().getBytes(StandardCharsets.UTF_8))
                            .get("type")
                            .asText())
                    .isEqualTo("https://vigil.dev/problems/" + type);
            assertThat(r.headers().get("www-authenticate")).startsWith("Bearer");
        }
        assertThat(ingest.meter("vigil.ingest.body.allocated.bytes"))
                .as("no body buffer was allocated")
                .isEqualTo(allocated);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ingest.meter("vigil.ingest.inflight.bytes") == 0);
    }

    @Test
    @Order(10)
    void anAuthenticatedCallDeclaringMoreThanTheCapIsAnswered413AtOnceWithoutABuffer() throws Exception {
        double allocated = ingest.meter("vigil.ingest.body.allocated.bytes");
        try (RawHttpConnection c = new RawHttpConnection(ingest.server.port(), 3000)) {
            c.sendPartial("POST " + ROUTE + "/" + BETTERSTACK_TOKEN + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.body()).doesNotContain(BETTERSTACK_TOKEN);
        }
        assertThat(ingest.meter("vigil.ingest.body.allocated.bytes")).isEqualTo(allocated);
    }

    @Test
    @Order(11)
    void callsAreCountedByOutcomeWithBoundedTagsAndTheTokenIsInNoMetric() {
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks",
                        "vendor",
                        "betterstack",
                        "outcome",
                        "accepted",
                        "reason",
                        "acknowledged"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks", "vendor", "betterstack", "outcome", "accepted", "reason", "resolved"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks", "vendor", "betterstack", "outcome", "ignored", "reason", "status"))
                .isGreaterThanOrEqualTo(3);
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks",
                        "vendor",
                        "betterstack",
                        "outcome",
                        "ignored",
                        "reason",
                        "own_resolution"))
                .isGreaterThanOrEqualTo(2);
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks",
                        "vendor",
                        "betterstack",
                        "outcome",
                        "rejected",
                        "reason",
                        "invalid-credentials"))
                .isGreaterThanOrEqualTo(10);
        assertThat(ingest.meter(
                        "vigil.ingest.webhooks",
                        "vendor",
                        "betterstack",
                        "outcome",
                        "rejected",
                        "reason",
                        "betterstack-payload"))
                .isGreaterThanOrEqualTo(7);
        assertThat(ingest.meter(
                        "vigil.ingest.requests", "route", "/v1/integrations/betterstack/{token}", "status", "202"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ingest.meter("vigil.ingest.requests", "route", "/v1/integrations/betterstack", "status", "401"))
                .isGreaterThanOrEqualTo(1);
        String scrape = ingest.get("/metrics").text();
        assertThat(scrape)
                .contains("vigil_ingest_webhooks_total")
                .doesNotContain(BETTERSTACK_TOKEN)
                .doesNotContainIgnoringCase(BETTERSTACK_TOKEN.substring(4, 20));
    }

    /** Last: every line logged while this class ran (the access log included) is free of the token. */
    @Test
    @Order(12)
    void theTokenIsInNoLogLineAndTheAccessLogWritesThePathRedacted() {
        assertThat(ingest.betterStack(BETTERSTACK_TOKEN, acknowledged(nextId(), "Carol"))
                        .status())
                .isEqualTo(202);
        assertThat(ingest.betterStack(BETTERSTACK_TOKEN + "/x", acknowledged(nextId(), "Carol"))
                        .status())
                .isEqualTo(401);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> accessLines().stream()
                                .filter(l -> l.contains("POST /v1/integrations/betterstack/… HTTP/1.1\" 202"))
                                .count()
                        >= 2);
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
                .anySatisfy(l -> assertThat(l).contains("POST /v1/integrations/betterstack/… HTTP/1.1\" 401"));
        assertThat(lines).noneSatisfy(l -> assertThat(l).containsIgnoringCase(BETTERSTACK_TOKEN.substring(4, 20)));
        assertThat(lines)
                .noneSatisfy(l -> assertThat(l).contains(dev.vigil.kit.auth.HashedCredentials.hash(BETTERSTACK_TOKEN)));
    }

    private List<String> accessLines() {
        synchronized (logs) {
            return List.copyOf(logs.list).stream()
                    .filter(e -> e.getLoggerName().equals(ACCESS_LOGGER))
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    private double ignored(String reason) {
        return ingest.meter("vigil.ingest.webhooks", "vendor", "betterstack", "outcome", "ignored", "reason", reason);
    }

    /** A captured call sent again after {@code vigil unack}: answered 2xx (BetterStack must not resend), applied never. */
    @Test
    @Order(11)
    void anExactReplayIsIgnoredAndAFreshActOfTheSameIncidentIsApplied() {
        String id = nextId();
        String at = Instant.now()
                .minusSeconds(2)
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        String body = Events.betterStackIncident(id, "Acknowledged", at, "Alice Example", null, null);
        assertThat(ingest.betterStack(BETTERSTACK_TOKEN, body)
                        .json()
                        .get("accepted")
                        .asInt())
                .isEqualTo(1);
        recordOf(id);
        long before = settledOffsets();
        double replays = ignored("replayed");
        for (int i = 0; i < 3; i++) {
            IngestHarness.Reply replay = ingest.betterStack(BETTERSTACK_TOKEN, body);
            assertThat(replay.status()).isEqualTo(202);
            assertThat(replay.json().get("accepted").asInt()).isZero();
            assertThat(replay.json().get("ignored").asText()).isEqualTo("this update was applied already");
        }
        // by the bearer form too: the same update, whichever door it comes through
        IngestHarness.Reply viaBearer = ingest.post(
                ROUTE,
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                IngestHarness.bearer(BETTERSTACK_TOKEN));
        assertThat(viaBearer.json().get("accepted").asInt()).isZero();
        assertThat(settledOffsets()).as("no replay published anything").isEqualTo(before);
        assertThat(ignored("replayed")).isEqualTo(replays + 4);
        // a person acknowledges again later (after an unack in Vigil): a new act, applied
        String later = Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .plusMillis(500)
                .toString();
        IngestHarness.Reply again = ingest.betterStack(
                BETTERSTACK_TOKEN, Events.betterStackIncident(id, "Acknowledged", later, "Alice Example", null, null));
        assertThat(again.json().get("accepted").asInt()).isEqualTo(1);
    }

    @Test
    @Order(11)
    void anUpdateWhoseActIsOlderThanFiveMinutesOrUndatedIsIgnored() {
        long before = settledOffsets();
        double stale = ignored("stale");
        String old = Instant.now().minusSeconds(6 * 60).toString();
        IngestHarness.Reply late = ingest.betterStack(
                BETTERSTACK_TOKEN,
                Events.betterStackIncident(nextId(), "Acknowledged", old, "Alice Example", null, null));
        assertThat(late.status()).isEqualTo(202);
        assertThat(late.json().get("accepted").asInt()).isZero();
        assertThat(late.json().get("ignored").asText()).contains("more than 300 s ago");
        IngestHarness.Reply oldResolution = ingest.betterStack(
                BETTERSTACK_TOKEN,
                Events.betterStackIncident(nextId(), "Resolved", old, "A", "2020-03-09T17:50:00Z", "Bob"));
        assertThat(oldResolution.json().get("accepted").asInt()).isZero();
        IngestHarness.Reply undated = ingest.betterStack(
                BETTERSTACK_TOKEN,
                Events.betterStackIncident(nextId(), "Acknowledged", null, "Alice Example", null, null));
        assertThat(undated.json().get("accepted").asInt()).isZero();
        assertThat(undated.json().get("ignored").asText()).contains("no acknowledged_at");
        assertThat(settledOffsets()).as("nothing published").isEqualTo(before);
        assertThat(ignored("stale")).isEqualTo(stale + 2);
        assertThat(ignored("no_time")).isGreaterThanOrEqualTo(1);
    }

    /** A separate server without the integration: both forms are unknown routes, as any other. */
    @Test
    @Order(13)
    void withoutTheIntegrationConfiguredBothFormsAre404() {
        long before = settledOffsets();
        try (IngestHarness plain = new IngestHarness(kafka)) {
            byte[] body = acknowledged(nextId(), "A").getBytes(StandardCharsets.UTF_8);
            IngestHarness.Reply path = plain.post(ROUTE + "/" + BETTERSTACK_TOKEN, "application/json", body, Map.of());
            assertProblem(path, 404, "not-found");
            assertThat(path.json().get("detail").asText())
                    .isEqualTo("no such endpoint: POST /v1/integrations/betterstack/…");
            assertThat(path.json().get("instance").asText()).isEqualTo("/v1/integrations/betterstack/…");
            IngestHarness.Reply bearer =
                    plain.post(ROUTE, "application/json", body, IngestHarness.bearer(BETTERSTACK_TOKEN));
            assertProblem(bearer, 404, "not-found");
            assertThat(bearer.json().get("detail").asText())
                    .isEqualTo("no such endpoint: POST /v1/integrations/betterstack");
        }
        assertThat(offsets.total()).isEqualTo(before);
    }
}
