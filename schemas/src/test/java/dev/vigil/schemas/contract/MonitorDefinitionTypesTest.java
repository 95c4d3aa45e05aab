package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/monitors.md#check-types: each check type's validation (naming the exact field), defaults, {@code target()} and JSON round
 * trip, and the old 15-argument constructor. Where a rule is also in the schema, {@link #schemaAndRecordAgree} holds
 * the two to the same verdict on many more values than the golden examples.
 */
class MonitorDefinitionTypesTest {
    private static final String HTTP =
            "{\"schemaVersion\":1,\"id\":\"api\",\"url\":\"https://api.example.com/\"," + "\"regions\":[\"eu-west\"]";
    private static final String TCP = "{\"schemaVersion\":1,\"id\":\"db\",\"type\":\"tcp\",\"regions\":[\"eu-west\"],"
            + "\"tcp\":{\"host\":\"db.example.com\",\"port\":5432}";
    private static final String DNS = "{\"schemaVersion\":1,\"id\":\"apex\",\"type\":\"dns\",\"regions\":[\"eu-west\"],"
            + "\"dns\":{\"query\":\"example.com\"}";
    private static final String TLS = "{\"schemaVersion\":1,\"id\":\"cert\",\"type\":\"tls\",\"regions\":[\"eu-west\"],"
            + "\"tls\":{\"host\":\"example.com\"}";
    private static final String HEARTBEAT = "{\"schemaVersion\":1,\"id\":\"nightly\",\"type\":\"heartbeat\"";

    // ------------------------------------------------------------------------------------------ the old constructor

    @Test
    void theFifteenArgumentConstructorStillGivesAnHttpGetMonitor() {
        MonitorDefinition m = new MonitorDefinition(
                1,
                "api",
                "API",
                "https://api.example.com/health",
                null,
                30,
                2000,
                List.of("eu-west", "us-east"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertThat(m.type()).isEqualTo(CheckType.HTTP);
        assertThat(m.method()).isEqualTo("GET");
        assertThat(m.headers()).isEmpty();
        assertThat(m.body()).isNull();
        assertThat(m.tcp()).isNull();
        assertThat(m.dns()).isNull();
        assertThat(m.tls()).isNull();
        assertThat(m.heartbeat()).isNull();
        assertThat(m.isProbed()).isTrue();
        assertThat(m.expect().json()).as("health defaults as before").isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
        assertThat(m)
                .isEqualTo(new MonitorDefinition(
                        1,
                        "api",
                        "API",
                        "https://api.example.com/health",
                        "GET",
                        30,
                        2000,
                        List.of("eu-west", "us-east"),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        CheckType.HTTP,
                        Map.of(),
                        null,
                        null,
                        null,
                        null,
                        null));
        assertThat(Json.read(Json.bytes(m), MonitorDefinition.class)).isEqualTo(m);
    }

    // ------------------------------------------------------------------------------------------ http

    @Test
    void anHttpMonitorTakesMethodHeadersBodyAndTheNewExpectations() {
        MonitorDefinition m = read(HTTP + ",\"method\":\"POST\",\"body\":\"{}\",\"headers\":{\"X-B\":\"2\","
                + "\"Authorization\":{\"secretEnv\":\"API_TOKEN\"}},\"expect\":{\"bodyNotContains\":\"error\","
                + "\"headers\":{\"Content-Type\":\"re:application/json.*\",\"X-Api\":\"2\"}}}");
        assertThat(m.method()).isEqualTo("POST");
        assertThat(m.body()).isEqualTo("{}");
        assertThat(m.headers())
                .containsExactly(
                        Map.entry("Authorization", HeaderValue.secret("API_TOKEN")),
                        Map.entry("X-B", HeaderValue.plain("2")));
        assertThat(m.expect().bodyNotContains()).isEqualTo("error");
        assertThat(m.expect().statusCodes()).containsExactly("200-399");
        assertThat(MonitorDefinition.Expect.headerMatches(
                        m.expect().headers().get("Content-Type"), "application/json; charset=utf-8"))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches(m.expect().headers().get("Content-Type"), "text/html"))
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches("2", "2")).isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("2", "20"))
                .as("exact, not a prefix")
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches("re:2", "20"))
                .as("the whole value")
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches("2", null))
                .as("absent")
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
    void everyMethodOfTheSpecIsAccepted(String method) {
        assertThat(read(HTTP + ",\"method\":\"" + method + "\"}").method()).isEqualTo(method);
    }

    static Stream<Arguments> httpViolations() {
        return Stream.of(
                Arguments.of(HTTP + ",\"method\":\"TRACE\"}", "method"),
                Arguments.of(HTTP + ",\"method\":\"post\"}", "method"),
                Arguments.of(HTTP + ",\"body\":\"x\"}", "body"),
                Arguments.of(HTTP + ",\"method\":\"GET\",\"body\":\"x\"}", "body"),
                Arguments.of(HTTP + ",\"method\":\"HEAD\",\"body\":\"x\"}", "body"),
                Arguments.of(HTTP + ",\"method\":\"POST\",\"body\":\"" + "x".repeat(65_537) + "\"}", "body"),
                Arguments.of(HTTP + ",\"headers\":{\"Host\":\"a\"}}", "headers.Host"),
                Arguments.of(HTTP + ",\"headers\":{\"CONTENT-LENGTH\":\"1\"}}", "headers.CONTENT-LENGTH"),
                Arguments.of(HTTP + ",\"headers\":{\"te\":\"trailers\"}}", "headers.te"),
                Arguments.of(HTTP + ",\"headers\":{\"Expect\":\"100-continue\"}}", "headers.Expect"),
                Arguments.of(HTTP + ",\"headers\":{\"X(1)\":\"a\"}}", "headers.X(1)"),
                Arguments.of(HTTP + ",\"headers\":{\"" + "X".repeat(65) + "\":\"a\"}}", "headers." + "X".repeat(65)),
                Arguments.of(HTTP + ",\"headers\":{\"X-Token\":\"a\",\"x-token\":\"b\"}}", "headers.x-token"),
                Arguments.of(HTTP + ",\"headers\":{\"X-Token\":null}}", "headers.X-Token"),
                Arguments.of(HTTP + ",\"headers\":{\"X-Token\":\"a\\nb\"}}", "headers.X-Token"),
                Arguments.of(HTTP + ",\"headers\":{\"X-Token\":{\"secretEnv\":\"A-B\"}}}", "headers.X-Token.secretEnv"),
                Arguments.of(
                        HTTP + ",\"headers\":{\"X-Token\":{\"secretEnv\":\"A\",\"value\":\"b\"}}}", "headers.X-Token"),
                Arguments.of(HTTP + ",\"headers\":" + manyHeaders(33) + "}", "headers"),
                Arguments.of(
                        HTTP.replace("https://", "http://") + ",\"headers\":{\"X-Token\":{\"secretEnv\":\"TOKEN\"}}}",
                        "headers.X-Token"),
                Arguments.of(HTTP + ",\"tcp\":{\"host\":\"db\",\"port\":1}}", "tcp"),
                Arguments.of(HTTP + ",\"dns\":{\"query\":\"example.com\"}}", "dns"),
                Arguments.of(HTTP + ",\"tls\":{\"host\":\"example.com\"}}", "tls"),
                Arguments.of(HTTP + ",\"heartbeat\":{}}", "heartbeat"),
                Arguments.of(HTTP.replace("[\"eu-west\"]", "[\"eu-west\",\"push\"]") + "}", "regions[1]"),
                Arguments.of(HTTP + ",\"intervalSeconds\":3601}", "intervalSeconds"),
                Arguments.of(HTTP + ",\"expect\":{\"headers\":{\"X-A\":\"re:[\"}}}", "expect.headers.X-A"),
                Arguments.of(HTTP + ",\"expect\":{\"headers\":{\"X A\":\"1\"}}}", "expect.headers.X A"),
                Arguments.of(HTTP + ",\"expect\":{\"headers\":{\"X-A\":\" \"}}}", "expect.headers.X-A"),
                Arguments.of(HTTP + ",\"expect\":{\"bodyNotContains\":\"\"}}", "expect.bodyNotContains"),
                Arguments.of(HTTP.replace(",\"url\":\"https://api.example.com/\"", "") + "}", "url"));
    }

    @ParameterizedTest
    @MethodSource("httpViolations")
    void httpViolationsNameTheField(String json, String field) {
        assertViolation(json, field);
    }

    @Test
    void aBodyOfExactly65536CharactersIsAccepted() {
        String body = "x".repeat(MonitorDefinition.MAX_BODY_CHARS);
        assertThat(read(HTTP + ",\"method\":\"PUT\",\"body\":\"" + body + "\"}").body())
                .hasSize(65_536);
        assertThat(read(HTTP + ",\"headers\":" + manyHeaders(32) + "}").headers())
                .hasSize(32);
    }

    @Test
    void nestedRecordsNameTheirOwnFieldsWhenBuiltInJava() {
        assertField(
                () -> new MonitorDefinition.Expect(null, null, null, null, null, Map.of("X-A", "re:(")), "headers.X-A");
        assertField(() -> new MonitorDefinition.Tcp("db", 0, null, null), "port");
        assertField(() -> new MonitorDefinition.Dns("example.com", "SRV", null, null), "recordType");
        assertField(() -> new MonitorDefinition.Tls("example.com", 65_536), "port");
        assertField(() -> new MonitorDefinition.Heartbeat(null, "Mars/Base", null, null), "zone");
    }

    // ------------------------------------------------------------------------------------------ tcp

    @Test
    void aTcpMonitorConnectsToHostAndPort() {
        MonitorDefinition m = read(TCP.replace("5432}", "25,\"send\":\"EHLO vigil\",\"expect\":\"250\"}")
                + ",\"expect\":{\"maxResponseMs\":800,\"statusCodes\":[\"200-399\"]}}");
        assertThat(m.type()).isEqualTo(CheckType.TCP);
        assertThat(m.tcp()).isEqualTo(new MonitorDefinition.Tcp("db.example.com", 25, "EHLO vigil", "250"));
        assertThat(m.url()).isNull();
        assertThat(m.method()).isNull();
        assertThat(m.headers()).isEmpty();
        assertThat(m.expect().maxResponseMs()).isEqualTo(800);
        assertThat(m.isProbed()).isTrue();
        assertThat(read(TCP + ",\"expect\":{\"statusCodes\":[]}}").expect())
                .as("empty means the default")
                .isEqualTo(read(TCP + "}").expect());
        // line-based protocols need their line endings
        assertThat(read(TCP.replace("5432}", "6379,\"send\":\"PING\\r\\n\",\"expect\":\"+PONG\\r\\n\"}") + "}")
                        .tcp())
                .isEqualTo(new MonitorDefinition.Tcp("db.example.com", 6379, "PING\r\n", "+PONG\r\n"));
    }

    static Stream<Arguments> tcpViolations() {
        return Stream.of(
                Arguments.of(TCP + ",\"url\":\"https://db.example.com/\"}", "url"),
                Arguments.of(TCP + ",\"method\":\"GET\"}", "method"),
                Arguments.of(TCP + ",\"body\":\"x\"}", "body"),
                Arguments.of(TCP + ",\"headers\":{\"X-A\":\"1\"}}", "headers"),
                Arguments.of(TCP + ",\"dns\":{\"query\":\"example.com\"}}", "dns"),
                Arguments.of(TCP + ",\"tls\":{\"host\":\"example.com\"}}", "tls"),
                Arguments.of(TCP + ",\"heartbeat\":{}}", "heartbeat"),
                Arguments.of(TCP + ",\"expect\":{\"statusCodes\":[\"200\"]}}", "expect.statusCodes"),
                Arguments.of(TCP + ",\"expect\":{\"json\":{\"pointer\":\"/a\",\"anyOf\":[\"b\"]}}}", "expect.json"),
                Arguments.of(TCP + ",\"expect\":{\"bodyContains\":\"ok\"}}", "expect.bodyContains"),
                Arguments.of(TCP + ",\"expect\":{\"bodyNotContains\":\"error\"}}", "expect.bodyNotContains"),
                Arguments.of(TCP + ",\"expect\":{\"headers\":{\"X-A\":\"1\"}}}", "expect.headers"),
                Arguments.of(TCP + ",\"intervalSeconds\":3601}", "intervalSeconds"),
                Arguments.of(TCP.replace("[\"eu-west\"]", "[\"push\"]") + "}", "regions[0]"),
                Arguments.of(TCP.replace(",\"regions\":[\"eu-west\"]", "") + "}", "regions"),
                Arguments.of(TCP.replace(",\"tcp\":{\"host\":\"db.example.com\",\"port\":5432}", "") + "}", "tcp"),
                Arguments.of(TCP.replace("5432", "0") + "}", "tcp.port"),
                Arguments.of(TCP.replace("5432", "65536") + "}", "tcp.port"),
                Arguments.of(TCP.replace(",\"port\":5432", "") + "}", "tcp.port"),
                Arguments.of(TCP.replace("db.example.com", "db example") + "}", "tcp.host"),
                Arguments.of(TCP.replace("db.example.com", "-db") + "}", "tcp.host"),
                Arguments.of(TCP.replace("5432}", "5432,\"send\":\"\"}") + "}", "tcp.send"),
                Arguments.of(TCP.replace("5432}", "5432,\"send\":\"PING\\u0000\"}") + "}", "tcp.send"),
                Arguments.of(TCP.replace("5432}", "5432,\"expect\":\"+OK\\u001b\"}") + "}", "tcp.expect"),
                Arguments.of(TCP.replace("5432}", "5432,\"expect\":\"\"}") + "}", "tcp.expect"));
    }

    @ParameterizedTest
    @MethodSource("tcpViolations")
    void tcpViolationsNameTheField(String json, String field) {
        assertViolation(json, field);
    }

    // ------------------------------------------------------------------------------------------ dns

    @Test
    void aDnsMonitorResolvesAQueryForARecordType() {
        MonitorDefinition m = read(DNS + "}");
        assertThat(m.dns()).isEqualTo(new MonitorDefinition.Dns("example.com", "A", null, List.of()));
        assertThat(m.name()).as("the query is not the display name").isEqualTo("apex");
        MonitorDefinition mx = read(DNS.replace(
                        "\"example.com\"",
                        "\"example.com\",\"recordType\":\"mx\","
                                + "\"resolver\":\"9.9.9.9:53\",\"expect\":[\"mx1.example.com\"]")
                + "}");
        assertThat(mx.dns().recordType())
                .as("read case-insensitively, written upper case")
                .isEqualTo("MX");
        assertThat(mx.dns().resolver()).isEqualTo("9.9.9.9:53");
        assertThat(mx.dns().expect()).containsExactly("mx1.example.com");
        for (String type : MonitorDefinition.Dns.RECORD_TYPES) {
            assertThat(new MonitorDefinition.Dns("example.com", type.toLowerCase(java.util.Locale.ROOT), null, null)
                            .recordType())
                    .isEqualTo(type);
        }
        assertField(() -> new MonitorDefinition.Dns("example.com", "N\u017F", null, null), "recordType");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "9.9.9.9",
                "9.9.9.9:53",
                "255.255.255.255:65535",
                "10.0.0.1:1",
                "[2620:fe::fe]",
                "[2620:fe::fe]:53",
                "2620:fe::fe",
                "::1",
                "[::ffff:10.0.0.1]:5353"
            })
    void resolversAreIpAddressesWithAnOptionalPort(String resolver) {
        assertThat(new MonitorDefinition.Dns("example.com", null, resolver, null).resolver())
                .isEqualTo(resolver);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "dns.example.com",
                "9.9.9.9:99999",
                "9.9.9.9:0",
                "9.9.9.9:",
                "256.1.1.1",
                "1.2.3",
                "1111111",
                "ff",
                "[2620:fe::fe]:70000",
                "9.9.9.9 ",
                "",
                "[9.9.9.9]"
            })
    void anythingElseIsRefusedAsAResolver(String resolver) {
        assertField(() -> new MonitorDefinition.Dns("example.com", null, resolver, null), "resolver");
        assertViolation(
                DNS.replace("\"example.com\"", "\"example.com\",\"resolver\":" + Json.string(resolver)) + "}",
                "dns.resolver");
    }

    static Stream<Arguments> dnsViolations() {
        return Stream.of(
                Arguments.of(
                        DNS.replace("\"example.com\"", "\"example.com\",\"recordType\":\"SRV\"") + "}",
                        "dns.recordType"),
                Arguments.of(
                        DNS.replace("\"example.com\"", "\"example.com\",\"recordType\":\"\"") + "}", "dns.recordType"),
                Arguments.of(DNS.replace("\"query\":\"example.com\"", "\"recordType\":\"A\"") + "}", "dns.query"),
                Arguments.of(DNS.replace("example.com", "exa mple.com") + "}", "dns.query"),
                Arguments.of(DNS.replace("example.com", "-example.com") + "}", "dns.query"),
                Arguments.of(
                        DNS.replace("\"example.com\"", "\"example.com\",\"expect\":[\"a\",null]") + "}",
                        "dns.expect[1]"),
                Arguments.of(
                        DNS.replace("\"example.com\"", "\"example.com\",\"expect\":[\" \"]") + "}", "dns.expect[0]"),
                Arguments.of(
                        DNS.replace(
                                        "\"example.com\"",
                                        "\"example.com\",\"expect\":"
                                                + Json.string(java.util.Collections.nCopies(17, "a")))
                                + "}",
                        "dns.expect"),
                Arguments.of(DNS.replace(",\"dns\":{\"query\":\"example.com\"}", "") + "}", "dns"),
                Arguments.of(DNS + ",\"tcp\":{\"host\":\"db\",\"port\":1}}", "tcp"),
                Arguments.of(DNS + ",\"expect\":{\"bodyContains\":\"x\"}}", "expect.bodyContains"),
                Arguments.of(DNS + ",\"url\":\"https://example.com/\"}", "url"));
    }

    @ParameterizedTest
    @MethodSource("dnsViolations")
    void dnsViolationsNameTheField(String json, String field) {
        assertViolation(json, field);
    }

    // ------------------------------------------------------------------------------------------ tls

    @Test
    void aTlsMonitorDefaultsToPort443() {
        MonitorDefinition m = read(TLS + "}");
        assertThat(m.tls()).isEqualTo(new MonitorDefinition.Tls("example.com", 443));
        assertThat(read(TLS.replace("\"example.com\"", "\"example.com\",\"port\":8443") + "}")
                        .tls()
                        .port())
                .isEqualTo(8443);
        assertViolation(TLS.replace("\"example.com\"", "\"example.com\",\"port\":0") + "}", "tls.port");
        assertViolation(TLS.replace("\"example.com\"", "\"example.com\",\"port\":65536") + "}", "tls.port");
        assertViolation(TLS.replace("\"host\":\"example.com\"", "\"port\":443") + "}", "tls.host");
        assertViolation(TLS.replace(",\"tls\":{\"host\":\"example.com\"}", "") + "}", "tls");
        assertViolation(TLS + ",\"heartbeat\":{}}", "heartbeat");
        assertViolation(TLS + ",\"method\":\"GET\"}", "method");
    }

    // ------------------------------------------------------------------------------------------ heartbeat

    @Test
    void aHeartbeatMonitorIsPushedToAndItsOnlyRegionIsPush() {
        MonitorDefinition m = read(HEARTBEAT + "}");
        assertThat(m.regions()).containsExactly(MonitorDefinition.PUSH_REGION);
        assertThat(m.selects("push")).isTrue();
        assertThat(m.selects("eu-west")).isFalse();
        assertThat(m.isProbed()).isFalse();
        assertThat(m.heartbeat()).isEqualTo(new MonitorDefinition.Heartbeat(null, "UTC", 60, null));
        assertThat(m.expect().statusCodes()).containsExactly("200-399");
        assertThat(m.expect().json()).isNull();
        assertThat(read(HEARTBEAT + ",\"regions\":[]}")).isEqualTo(m);
        assertThat(read(HEARTBEAT + ",\"regions\":null}")).isEqualTo(m);
        assertThat(read(HEARTBEAT + ",\"regions\":[\"push\"]}")).isEqualTo(m);
        assertThat(read(HEARTBEAT + ",\"intervalSeconds\":604800}").intervalSeconds())
                .isEqualTo(604_800);
        assertThat(m.heartbeat().withTokenSha256("ab".repeat(32)))
                .isEqualTo(new MonitorDefinition.Heartbeat(null, "UTC", 60, "ab".repeat(32)));
    }

    static Stream<Arguments> heartbeatViolations() {
        return Stream.of(
                Arguments.of(HEARTBEAT + ",\"regions\":[\"eu-west\"]}", "regions"),
                Arguments.of(HEARTBEAT + ",\"regions\":[\"push\",\"eu-west\"]}", "regions"),
                Arguments.of(HEARTBEAT + ",\"regions\":[\"push\",\"push\"]}", "regions"),
                Arguments.of(HEARTBEAT + ",\"intervalSeconds\":604801}", "intervalSeconds"),
                Arguments.of(HEARTBEAT + ",\"intervalSeconds\":9}", "intervalSeconds"),
                Arguments.of(HEARTBEAT + ",\"url\":\"https://example.com/\"}", "url"),
                Arguments.of(HEARTBEAT + ",\"tcp\":{\"host\":\"db\",\"port\":1}}", "tcp"),
                Arguments.of(HEARTBEAT + ",\"expect\":{\"statusCodes\":[\"204\"]}}", "expect.statusCodes"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"schedule\":\"0 2 * *\"}}", "heartbeat.schedule"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"schedule\":\"0 25 * * *\"}}", "heartbeat.schedule"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"schedule\":\"0 0 31 2 *\"}}", "heartbeat.schedule"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"zone\":\"Europe/Atlantis\"}}", "heartbeat.zone"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"zone\":\"\"}}", "heartbeat.zone"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"graceSeconds\":-1}}", "heartbeat.graceSeconds"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"graceSeconds\":86401}}", "heartbeat.graceSeconds"),
                Arguments.of(HEARTBEAT + ",\"heartbeat\":{\"tokenSha256\":\"abc\"}}", "heartbeat.tokenSha256"));
    }

    @ParameterizedTest
    @MethodSource("heartbeatViolations")
    void heartbeatViolationsNameTheField(String json, String field) {
        assertViolation(json, field);
    }

    @Test
    void anUnknownTypeIsRefused() {
        assertViolation("{\"schemaVersion\":1,\"id\":\"x\",\"type\":\"smtp\",\"regions\":[\"eu-west\"]}", "type");
        assertViolation("{\"schemaVersion\":1,\"id\":\"x\",\"type\":\"TCP\",\"regions\":[\"eu-west\"]}", "type");
    }

    // ------------------------------------------------------------------------------------------ target

    @Test
    void targetSaysWhatEachTypeChecks() {
        assertThat(read(HTTP + "}").target()).isEqualTo("https://api.example.com/");
        assertThat(read(TCP + "}").target()).isEqualTo("tcp://db.example.com:5432");
        assertThat(read(DNS + "}").target()).isEqualTo("dns:A/example.com");
        assertThat(read(DNS.replace(
                                        "\"example.com\"",
                                        "\"example.com\",\"recordType\":\"MX\"," + "\"resolver\":\"[2620:fe::fe]:53\"")
                                + "}")
                        .target())
                .isEqualTo("dns:MX/example.com@[2620:fe::fe]:53");
        assertThat(read(TLS + "}").target()).isEqualTo("tls://example.com:443");
        assertThat(read(HEARTBEAT + ",\"intervalSeconds\":3600}").target())
                .isEqualTo("heartbeat (every 3600 s, grace 60 s)");
        assertThat(read(HEARTBEAT + ",\"heartbeat\":{\"schedule\":\"0 2 * * *\",\"zone\":\"Europe/Paris\","
                                + "\"graceSeconds\":600}}")
                        .target())
                .isEqualTo("heartbeat (cron 0 2 * * * Europe/Paris, grace 600 s)");
    }

    // ------------------------------------------------------------------------------------------ JSON round trip

    static Stream<Arguments> everyType() {
        return Stream.of(
                Arguments.of(
                        HTTP + ",\"method\":\"PATCH\",\"body\":\"a=1\",\"headers\":{\"Authorization\":"
                                + "{\"secretEnv\":\"TOKEN\"},\"Accept\":\"*/*\"},\"expect\":{\"headers\":{\"ETag\":\"re:W/.*\"},"
                                + "\"bodyNotContains\":\"x\"}}",
                        Set.of("url", "method", "body", "headers"),
                        Set.of("tcp", "dns", "tls", "heartbeat")),
                Arguments.of(
                        TCP.replace("5432}", "5432,\"send\":\"PING\",\"expect\":\"+PONG\"}") + "}",
                        Set.of("tcp"),
                        Set.of("url", "method", "headers", "body", "dns", "tls", "heartbeat")),
                Arguments.of(
                        DNS.replace(
                                        "\"example.com\"",
                                        "\"example.com\",\"recordType\":\"aaaa\"," + "\"expect\":[\"2001:db8::1\"]")
                                + "}",
                        Set.of("dns"),
                        Set.of("url", "method", "headers", "body", "tcp", "tls", "heartbeat")),
                Arguments.of(
                        TLS + "}",
                        Set.of("tls"),
                        Set.of("url", "method", "headers", "body", "tcp", "dns", "heartbeat")),
                Arguments.of(
                        HEARTBEAT + ",\"heartbeat\":{\"schedule\":\" 0 2 * * * \",\"zone\":\"Europe/Paris\","
                                + "\"tokenSha256\":\"" + "ab".repeat(32) + "\"}}",
                        Set.of("heartbeat"),
                        Set.of("url", "method", "headers", "body", "tcp", "dns", "tls")));
    }

    @ParameterizedTest
    @MethodSource("everyType")
    void everyTypeRoundTripsAndIsWrittenWithItsEffectiveValues(String json, Set<String> present, Set<String> absent) {
        MonitorDefinition m = read(json);
        byte[] written = Json.bytes(m);
        assertThat(Json.read(written, MonitorDefinition.class)).isEqualTo(m);
        JsonNode tree = Json.tree(written);
        assertThat(tree.path("type").asText()).isEqualTo(m.type().wire());
        assertThat(tree.has("probed")).as("isProbed() is not a wire field").isFalse();
        present.forEach(f -> assertThat(tree.has(f)).as(f).isTrue());
        absent.forEach(f -> assertThat(tree.has(f)).as(f).isFalse());
        assertThat(ContractSchemaValidator.validate(MonitorDefinition.class, tree))
                .as("what the record writes passes " + "the schema")
                .isEmpty();
        assertThat(Json.bytes(Json.read(written, MonitorDefinition.class)))
                .as("deterministic")
                .isEqualTo(written);
        if (m.type() == CheckType.HEARTBEAT) {
            assertThat(tree.path("heartbeat").path("schedule").asText())
                    .as("trimmed")
                    .isEqualTo("0 2 * * *");
            assertThat(tree.path("heartbeat").path("graceSeconds").asInt()).isEqualTo(60);
            assertThat(tree.path("regions").toString()).isEqualTo("[\"push\"]");
        }
        if (m.type() == CheckType.DNS) {
            assertThat(tree.path("dns").path("recordType").asText()).isEqualTo("AAAA");
        }
        if (m.type() == CheckType.TLS) {
            assertThat(tree.path("tls").path("port").asInt()).isEqualTo(443);
        }
        if (m.type() == CheckType.HTTP) {
            assertThat(tree.path("headers").toString())
                    .isEqualTo("{\"Accept\":\"*/*\",\"Authorization\":{\"secretEnv\":\"TOKEN\"}}");
        }
    }

    // ------------------------------------------------------------------------------------------ schema agreement

    /**
     * One value at a time in a field whose rule is a pattern in the schema and a regex or a parser in the record:
     * both accept it, or both refuse it naming the same field. Values the schema documents but cannot check (a cron
     * expression's ranges, a time zone's existence) are listed as such.
     */
    static Stream<Arguments> schemaAndRecordAgree() {
        Stream.Builder<Arguments> out = Stream.builder();
        for (String v : new String[] {
            "db",
            "db.example.com",
            "10.0.0.1",
            "[::1]",
            "::1",
            "a",
            "a-b",
            "-a",
            "a-",
            "a..b",
            "a_b",
            "a b",
            "",
            "xn--bcher-kva.example",
            "[10.0.0.1]",
            "1.2.3.4.5",
            "db\n"
        }) {
            out.add(Arguments.of(TCP.replace("\"db.example.com\"", Json.string(v)) + "}", "tcp.host", true));
            out.add(Arguments.of(TLS.replace("\"example.com\"", Json.string(v)) + "}", "tls.host", true));
        }
        for (String v : new String[] {
            "9.9.9.9",
            "9.9.9.9:53",
            "9.9.9.9:65535",
            "9.9.9.9:65536",
            "9.9.9.9:0",
            "09.9.9.9",
            "1.2.3.4:053",
            "[2620:fe::fe]:53",
            "[2620:fe::fe]:0",
            "2620:fe::fe",
            "::",
            "[::]",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7:8:9",
            "[::ffff:1.2.3.4]",
            "::ffff:1.2.3.4",
            "256.0.0.1",
            "a.b.c.d"
        }) {
            out.add(Arguments.of(
                    DNS.replace("\"example.com\"", "\"example.com\",\"resolver\":" + Json.string(v)) + "}",
                    "dns.resolver",
                    true));
        }
        for (String v : new String[] {
            "A", "a", "Aaaa", "cname", "Mx", "txt", "nS", "SRV", "PTR", "AA", "", " A", "N\u017F", "\u0130"
        }) {
            out.add(Arguments.of(
                    DNS.replace("\"example.com\"", "\"example.com\",\"recordType\":" + Json.string(v)) + "}",
                    "dns.recordType",
                    true));
        }
        for (String v : new String[] {
            "example.com",
            "example.com.",
            "_dmarc.example.com",
            "a",
            "-a",
            "a-",
            "a..b",
            "a b",
            "",
            "ex\u00e4mple.com",
            "1.2.3.4"
        }) {
            out.add(Arguments.of(DNS.replace("\"example.com\"", Json.string(v)) + "}", "dns.query", true));
        }
        for (String v : new String[] {
            "0 2 * * *",
            " 0 2 * * * ",
            "0\t2 * * *",
            "*/15 9-17 * * MON-FRI",
            "0 2 * *",
            "0 2 * * * *",
            "",
            "   ",
            "@daily",
            "0 2 ? * *",
            "+1 2 * * *",
            "0 2 * * \u0661",
            "0\n2 * * *",
            "0 2 * * 1#2"
        }) {
            out.add(Arguments.of(
                    HEARTBEAT + ",\"heartbeat\":{\"schedule\":" + Json.string(v) + "}}", "heartbeat.schedule", true));
        }
        for (String v : new String[] {"61 2 * * *", "0 2 L * *", "0 2 31 2 *", "0 2 * * SUN-SAT", "0 2 * 13 *"}) {
            out.add(Arguments.of(
                    HEARTBEAT + ",\"heartbeat\":{\"schedule\":" + Json.string(v) + "}}", "heartbeat.schedule", false));
        }
        for (String v : new String[] {
            "UTC",
            "Z",
            "Europe/Paris",
            "America/Argentina/Buenos_Aires",
            "Etc/GMT-14",
            "+01:00",
            "-0530",
            "UTC+01:00",
            "GMT+1",
            "Paris, France",
            "",
            "Europe Paris",
            "/Europe",
            "1UTC"
        }) {
            out.add(Arguments.of(
                    HEARTBEAT + ",\"heartbeat\":{\"zone\":" + Json.string(v) + "}}", "heartbeat.zone", true));
        }
        for (String v : new String[] {"Europe/Atlantis", "Mars/Base", "UTC+1:00", "+25:00"}) {
            out.add(Arguments.of(
                    HEARTBEAT + ",\"heartbeat\":{\"zone\":" + Json.string(v) + "}}", "heartbeat.zone", false));
        }
        for (String v : new String[] {
            "X-Token",
            "x",
            "!#$%&'*+.^_`|~-",
            "X Token",
            "X:Token",
            "X\u00e9",
            "Host",
            "hOsT",
            "Content-Length",
            "Transfer-Encoding",
            "Connection",
            "Upgrade",
            "TE",
            "Trailer",
            "Keep-Alive",
            "Proxy-Connection",
            "Expect",
            "Hosts",
            "X-Host",
            "X".repeat(64),
            "X".repeat(65)
        }) {
            String field = "headers." + v;
            out.add(Arguments.of(HTTP + ",\"headers\":{" + Json.string(v) + ":\"1\"}}", field, true));
        }
        for (String v :
                new String[] {"ok", "", "a\tb", "a\u007fb", "a\u0000b", "a\rb", "x".repeat(1024), "x".repeat(1025)}) {
            out.add(Arguments.of(HTTP + ",\"headers\":{\"X-A\":" + Json.string(v) + "}}", "headers.X-A", true));
        }
        for (String v : new String[] {"A", "_", "a_1", "1A", "A-B", "", "A".repeat(128), "A".repeat(129)}) {
            out.add(Arguments.of(
                    HTTP + ",\"headers\":{\"X-A\":{\"secretEnv\":" + Json.string(v) + "}}}",
                    "headers.X-A.secretEnv",
                    true));
        }
        // null is the same as absent, for the other types' fields too; an empty map is no headers
        for (String member : new String[] {
            "\"url\":null",
            "\"method\":null",
            "\"body\":null",
            "\"headers\":null",
            "\"headers\":{}",
            "\"dns\":null",
            "\"tls\":null",
            "\"heartbeat\":null",
            "\"type\":null",
            "\"expect\":{\"statusCodes\":null,\"json\":null,\"bodyContains\":null,\"headers\":{}}",
            "\"url\":\"\"",
            "\"method\":\"GET\"",
            "\"headers\":{\"X-A\":\"1\"}",
            "\"body\":\"\"",
            "\"expect\":{\"statusCodes\":[\"200-399\"]}",
            "\"expect\":{\"statusCodes\":[\"200-399\",\"200-399\"]}",
            "\"expect\":{\"headers\":null}"
        }) {
            out.add(Arguments.of(TCP + "," + member + "}", member, true));
            out.add(Arguments.of(
                    HEARTBEAT + "," + member.replace("\"dns\"", "\"tcp\"").replace("\"heartbeat\":null", "\"tls\":null")
                            + "}",
                    member,
                    true));
        }
        for (String member : new String[] {
            "\"url\":null",
            "\"tcp\":null",
            "\"heartbeat\":null",
            "\"body\":null",
            "\"method\":null",
            "\"type\":null",
            "\"type\":\"http\"",
            "\"regions\":null",
            "\"headers\":null",
            "\"expect\":{\"headers\":{}}",
            "\"method\":\"DELETE\",\"body\":\"\""
        }) {
            out.add(Arguments.of(
                    HTTP.replace(",\"url\":\"https://api.example.com/\"", "").replace(",\"regions\":[\"eu-west\"]", "")
                            + ",\"url\":\"https://api.example.com/\",\"regions\":[\"eu-west\"],"
                            + member + "}",
                    member,
                    true));
        }
        return out.build();
    }

    @ParameterizedTest
    @MethodSource
    void schemaAndRecordAgree(String json, String field, boolean schemaCanTell) {
        JsonNode tree = Json.tree(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Set<String> schemaFields =
                ContractSchemaValidator.fields(ContractSchemaValidator.validate(MonitorDefinition.class, tree));
        String recordField;
        try {
            Json.convert(tree, MonitorDefinition.class);
            recordField = null;
        } catch (ContractViolation v) {
            recordField = v.field();
        }
        if (schemaCanTell) {
            assertThat(schemaFields)
                    .as("schema fields")
                    .isEqualTo(recordField == null ? Set.of() : Set.of(recordField));
            if (field.startsWith("headers.")
                    || field.startsWith("tcp.")
                    || field.startsWith("tls.")
                    || field.startsWith("dns.")
                    || field.startsWith("heartbeat.")) {
                assertThat(recordField)
                        .as("the record names the field, or accepts")
                        .isIn(null, field);
            }
        } else {
            assertThat(schemaFields)
                    .as("a rule the schema documents but cannot check")
                    .isEmpty();
            assertThat(recordField).isEqualTo(field);
        }
    }

    /**
     * A document that breaks two rules at once (a misplaced block that is itself incomplete): the record reports the
     * first it meets, the schema all of them, the record's among them.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                TCP + ",\"dns\":{}}",
                HEARTBEAT + ",\"tcp\":{}}",
                HTTP + ",\"tls\":{}}",
                TCP + ",\"expect\":{\"json\":{}}}"
            })
    void aDocumentBreakingTwoRulesIsRefusedByBothTheSchemaNamingTheRecordsFieldAmongOthers(String json) {
        JsonNode tree = Json.tree(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Set<String> schemaFields =
                ContractSchemaValidator.fields(ContractSchemaValidator.validate(MonitorDefinition.class, tree));
        assertThatThrownBy(() -> Json.convert(tree, MonitorDefinition.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        v -> assertThat(schemaFields).hasSizeGreaterThan(1).contains(v.field()));
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static String manyHeaders(int n) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            headers.put("X-H" + i, "v");
        }
        return Json.string(headers);
    }

    private static MonitorDefinition read(String json) {
        MonitorDefinition m = Json.read(json, MonitorDefinition.class);
        ObjectNode tree = (ObjectNode) Json.tree(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(ContractSchemaValidator.validate(MonitorDefinition.class, tree))
                .as("the schema accepts %s", json)
                .isEmpty();
        return m;
    }

    private static void assertViolation(String json, String field) {
        assertThatThrownBy(() -> Json.read(json, MonitorDefinition.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        v -> assertThat(v.field()).as(v.getMessage()).isEqualTo(field));
    }

    private static void assertField(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ContractViolation.class, v -> assertThat(v.field())
                .as(v.getMessage())
                .isEqualTo(field));
    }
}
