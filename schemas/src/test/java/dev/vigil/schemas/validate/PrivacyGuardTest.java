package dev.vigil.schemas.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class PrivacyGuardTest {

    private static final String JWT =
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    private static final String UUID = "123e4567-e89b-12d3-a456-426614174000";
    private static final String SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** Ordinary values: every one must pass. A false positive drops real telemetry, so it is a bug too. */
    static Stream<Arguments> ordinaryValues() {
        return Stream.of(
                arguments("200", "HTTP status"),
                arguments("runbook#step=2", "a runbook anchor, not a URL fragment"),
                arguments("ratio=0.05&count=30", "a rule's numeric parameters"),
                arguments("a=1&b=2", "numeric pairs carry no personal data"),
                arguments("503", "HTTP status"),
                arguments("archived", "status word"),
                arguments("drain_error", "status word"),
                arguments("http_request", "metric name"),
                arguments("GET", "method"),
                arguments("/menu/2024", "path with a year"),
                arguments("/api/v2/items/42", "path with a numeric id"),
                arguments("/orders/" + UUID, "path with a UUID"),
                arguments(UUID, "request id"),
                arguments("ORD-2024-000123", "business id"),
                arguments("1764531314000", "epoch milliseconds"),
                arguments("12345678901234567890", "20-digit numeric id"),
                arguments("4111111111111112", "16 digits failing Luhn"),
                arguments("4111 1111 1111 1112", "grouped 16 digits failing Luhn"),
                arguments("5500-0000-0000-0005", "dashed 16 digits failing Luhn"),
                arguments("1234567812345670", "Luhn-valid but issuer digit 1 (an id, not a card)"),
                arguments("2000000000000006", "Luhn-valid but no card scheme uses 2000"),
                arguments("411100000000001", "Luhn-valid but Visa has no 15-digit numbers"),
                arguments("ord_4242424242424242", "prefixed order id"),
                arguments("20261130193505", "compact yyyyMMddHHmmss build stamp, Luhn-valid"),
                arguments("200 201 301 302 404", "spaced status codes, Luhn-valid but not card grouping"),
                arguments("1.2.3", "version"),
                arguments("v2024.11.30", "calendar version"),
                arguments("10.0.19045.3693", "four-part build version"),
                arguments("build 2024.11.30-1234", "build label"),
                arguments("2026-11-30T19:35:14Z", "ISO instant"),
                arguments("2026-11-30T19:35:14.123+01:00", "ISO time with offset"),
                arguments("2026-11-30", "ISO date"),
                arguments("30/11/2026", "European date"),
                arguments("01.12.2024", "dotted date with leading zero"),
                arguments("01 12 2024 10:30", "spaced date and time"),
                arguments("PT1H30M", "ISO duration"),
                arguments("1500ms", "duration"),
                arguments("14.2", "decimal"),
                arguments("api.example.com", "host name"),
                arguments("db-01.eu-west-1.internal", "internal host name"),
                arguments("192.168.100.200", "IPv4 address"),
                arguments("10.0.0.1:8080", "IPv4 with port"),
                arguments("2001:db8::8a2e:370:7334", "IPv6 address"),
                arguments("localhost:8080", "host and port"),
                arguments("us-east-1", "region"),
                arguments("password reset page", "words without a value"),
                arguments("Password reset: done", "status after unrelated key"),
                arguments("password: ***", "masked password"),
                arguments("password=${DB_PASSWORD}", "template placeholder"),
                arguments("password=", "empty password"),
                arguments("pass: 12, fail: 3", "test counts"),
                arguments("pwd=/srv/app", "working directory"),
                arguments("secret rotation due in 14 days", "words"),
                arguments("api_key missing", "words"),
                arguments("token_count=42", "a count, not a token"),
                arguments("token=42", "too short to be a secret"),
                arguments("token=expired", "a state, not a secret"),
                arguments(SHA256, "SHA-256 digest alone is not a secret"),
                arguments("sha256:" + SHA256, "content digest"),
                arguments("eyJhbGciOiJIUzI1NiJ9", "a lone JWT header is not a token"),
                arguments("aGVsbG8gd29ybGQ=", "base64 payload"),
                arguments("sk-prod-api-gateway-eu-west-1", "host name starting with sk-"),
                arguments("Bearer authentication failed", "prose after Bearer"),
                arguments("Basic authentication required", "prose after Basic"),
                arguments("monitor/checkout-api@1764531314000", "incident id"),
                arguments("@vigil/schemas@1.2.3", "package coordinate"),
                arguments("worker@eu-west", "address without a domain"),
                arguments("Checkout p95 above 2000ms for 5 minutes", "alert summary"),
                arguments("Is checkout down? Probes failed in 3 regions", "question in prose"),
                arguments("Issue #1234 reopened", "issue reference"),
                arguments("https://grafana.example.com/d/abc123/checkout", "dashboard link"),
                arguments("https://wiki.example.com/runbooks/checkout#restart", "runbook link with anchor"),
                arguments("/items?", "empty query"),
                arguments("status 200-399", "status range"),
                arguments("+5 retries", "signed count"),
                arguments("queue depth +1234 since 10:30", "signed count"),
                arguments("555-0100", "seven digits"),
                arguments("HTTP/1.1 503", "protocol"),
                arguments("Mozilla/5.0 (X11; Linux x86_64)", "user agent family"),
                arguments("", "empty"));
    }

    /** Forbidden data, several forms of each kind. */
    static Stream<Arguments> forbiddenValues() {
        return Stream.of(
                arguments("alice@example.com", Kind.EMAIL),
                arguments("Alice.Smith+billing@mail.example.co.uk", Kind.EMAIL),
                arguments("contact alice@example.com now", Kind.EMAIL),
                arguments("/users/alice%40example.com/orders", Kind.EMAIL),
                arguments("jos\u00e9@ex\u00e4mple.de", Kind.EMAIL),
                arguments("+1 415 555 2671", Kind.PHONE_NUMBER),
                arguments("+14155552671", Kind.PHONE_NUMBER),
                arguments("+44 (0)20 7946 0958", Kind.PHONE_NUMBER),
                arguments("+49-30-1234567", Kind.PHONE_NUMBER),
                arguments("tel:+33123456789", Kind.PHONE_NUMBER),
                arguments("(415) 555-2671", Kind.PHONE_NUMBER),
                arguments("415-555-2671", Kind.PHONE_NUMBER),
                arguments("call 415.555.2671 today", Kind.PHONE_NUMBER),
                arguments("1-800-555-0199", Kind.PHONE_NUMBER),
                arguments("020 7946 0958", Kind.PHONE_NUMBER),
                arguments("07700 900123", Kind.PHONE_NUMBER),
                arguments("01 23 45 67 89", Kind.PHONE_NUMBER),
                arguments("phone=4155552671", Kind.PHONE_NUMBER),
                arguments("Bearer abc123def456ghi789", Kind.BEARER_TOKEN),
                arguments("Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543", Kind.BEARER_TOKEN),
                arguments("bearer mF_9.B5f-4.1JqM", Kind.BEARER_TOKEN),
                arguments("Bearer " + JWT, Kind.BEARER_TOKEN),
                arguments(JWT, Kind.JWT),
                arguments("/callback?id_token=" + JWT, Kind.JWT),
                arguments("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", Kind.JWT),
                arguments("sk_live_4eC39HqLyjWDarjtT1zdp7dc", Kind.API_KEY),
                arguments("sk-proj-Abc123Def456Ghi789Jkl012", Kind.API_KEY),
                arguments("ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", Kind.API_KEY),
                arguments("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH", Kind.API_KEY),
                arguments("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", Kind.API_KEY),
                arguments("AKIAIOSFODNN7EXAMPLE", Kind.API_KEY),
                arguments("AIzaSyA1234567890abcdefghijklmnopqrstuv", Kind.API_KEY),
                arguments("glpat-Ab12Cd34Ef56Gh78Ij90", Kind.API_KEY),
                arguments("api_key=9f86d081884c7d659a2feaa0c55ad015", Kind.API_KEY),
                arguments("X-Api-Key: A1b2C3d4E5f6G7h8I9j0", Kind.API_KEY),
                arguments("token=8f14e45fceea167a5a36dedd4bea2543", Kind.API_KEY),
                arguments("session_id=" + UUID, Kind.API_KEY),
                arguments("client_secret=Zx9Yw8Vu7Ts6Rq5Po4", Kind.API_KEY),
                arguments("password=hunter2", Kind.PASSWORD),
                arguments("Password: correct-horse", Kind.PASSWORD),
                arguments("passwd=s3cr3t!", Kind.PASSWORD),
                arguments("pwd=letmein", Kind.PASSWORD),
                arguments("db_pass:Tr0ub4dor", Kind.PASSWORD),
                arguments("{\"password\":\"hunter2\"}", Kind.PASSWORD),
                arguments("secret=opensesame", Kind.PASSWORD),
                arguments("postgres://app:s3cret@db.internal:5432/app", Kind.PASSWORD),
                arguments("Authorization: Basic dXNlcjpwYXNzd29yZA==", Kind.PASSWORD),
                arguments("4111111111111111", Kind.CARD_NUMBER),
                arguments("4111 1111 1111 1111", Kind.CARD_NUMBER),
                arguments("5500-0000-0000-0004", Kind.CARD_NUMBER),
                arguments("378282246310005", Kind.CARD_NUMBER),
                arguments("3782 822463 10005", Kind.CARD_NUMBER),
                arguments("card 6011111111111117 declined", Kind.CARD_NUMBER),
                arguments("2221000000000009", Kind.CARD_NUMBER),
                arguments("3530111333300000", Kind.CARD_NUMBER),
                arguments("3056 930902 5904", Kind.CARD_NUMBER),
                arguments("4222222222222", Kind.CARD_NUMBER),
                arguments("/search?q=shoes", Kind.QUERY_STRING),
                arguments("https://example.com/reset?token=abc", Kind.QUERY_STRING),
                arguments("/checkout?step=2&coupon=X", Kind.QUERY_STRING),
                arguments("?utm_source=newsletter", Kind.QUERY_STRING),
                arguments("/export?download", Kind.QUERY_STRING),
                arguments("https://example.com/app#state=xyz", Kind.QUERY_STRING),
                arguments("/app#access_token=xyz", Kind.QUERY_STRING),
                arguments("user=ann&ref=newsletter", Kind.QUERY_STRING),
                arguments("a=1&b=x", Kind.QUERY_STRING));
    }

    @ParameterizedTest(name = "passes {0} ({1})")
    @MethodSource("ordinaryValues")
    void ordinaryValuesPass(String value, String what) {
        assertThat(PrivacyGuard.check("f", value)).isEmpty();
    }

    @ParameterizedTest(name = "rejects {0} as {1}")
    @MethodSource("forbiddenValues")
    void forbiddenValuesAreRejectedWithTheirKind(String value, Kind kind) {
        assertThat(PrivacyGuard.check("labels.x", value)).contains(new PrivacyViolation("labels.x", kind));
    }

    @ParameterizedTest(name = "message for {0} does not echo it")
    @MethodSource("forbiddenValues")
    void messagesNameTheFieldAndKindButNeverTheValue(String value, Kind kind) {
        PrivacyViolation violation = PrivacyGuard.check("summary", value).orElseThrow();
        assertThat(violation.message())
                .isEqualTo("field 'summary' contains " + kind.description())
                .doesNotContain(value);
        assertThat(violation.toString()).doesNotContain(value);
        assertThatThrownBy(() -> PrivacyGuard.requireClean("summary", value))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("summary: contains " + kind.description())
                .satisfies(e -> assertThat(((ContractViolation) e).field()).isEqualTo("summary"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyKindHasAHumanName(Kind kind) {
        assertThat(kind.description()).matches("(a|an) [a-zA-Z -]+");
    }

    @Test
    void nullValuesAreClean() {
        assertThat(PrivacyGuard.check("status", null)).isEmpty();
    }

    @Test
    void cleanMetricHasNoViolations() {
        DomainMetric metric = metric("/menu/2024", Map.of("region", "eu-west", "requestId", UUID, "tenant", "bakery"));
        assertThat(PrivacyGuard.inspect(metric)).isEmpty();
        PrivacyGuard.requireClean(metric);
    }

    @Test
    void metricViolationsNameTheNestedLabel() {
        DomainMetric metric = metric(
                "/users/alice%40example.com",
                Map.of("user", "alice@example.com", "phone", "+44 20 7946 0958", "region", "eu-west"));
        assertThat(PrivacyGuard.inspect(metric))
                .containsExactly(
                        new PrivacyViolation("pathname", Kind.EMAIL),
                        new PrivacyViolation("labels.phone", Kind.PHONE_NUMBER),
                        new PrivacyViolation("labels.user", Kind.EMAIL));
        assertThatThrownBy(() -> PrivacyGuard.requireClean(metric))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("pathname: contains an e-mail address");
    }

    @Test
    void anOffendingLabelKeyIsReportedAsTheMapWithoutEchoingTheKey() {
        DomainMetric metric = metric("/menu", Map.of("alice@example.com", "1"));
        List<PrivacyViolation> violations = PrivacyGuard.inspect(metric);
        assertThat(violations).containsExactly(new PrivacyViolation("labels", Kind.EMAIL));
        assertThat(violations.get(0).message()).isEqualTo("field 'labels' contains an e-mail address");
    }

    @Test
    void alertViolationsNameAttributesLinksAndSummary() {
        AlertEvent event = alert(
                "Login failing for alice@example.com",
                Map.of(
                        "dashboard",
                        "https://grafana.example.com/d/abc/checkout?orgId=1&from=now-1h",
                        "runbook",
                        "https://wiki.example.com/runbooks/checkout"),
                Map.of("x", "Bearer abc123def456ghi789", "region", "eu-west"));
        assertThat(PrivacyGuard.inspect(event))
                .containsExactly(
                        new PrivacyViolation("summary", Kind.EMAIL),
                        new PrivacyViolation("links.dashboard", Kind.QUERY_STRING),
                        new PrivacyViolation("attributes.x", Kind.BEARER_TOKEN));
    }

    @Test
    void linksMayCarryAPathButNotCredentials() {
        AlertEvent clean = alert(
                "Checkout is down",
                Map.of(
                        "dashboard",
                        "https://grafana.example.com/d/abc123/checkout",
                        "history",
                        "https://vigil.example.com/monitors/checkout-api/history"),
                Map.of("region", "eu-west"));
        assertThat(PrivacyGuard.inspect(clean)).isEmpty();
        PrivacyGuard.requireClean(clean);

        AlertEvent withCredentials = alert(
                "Checkout is down", Map.of("dashboard", "https://admin:s3cret@grafana.example.com/d/abc123"), Map.of());
        assertThatThrownBy(() -> PrivacyGuard.requireClean(withCredentials))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("links.dashboard: contains a password");
    }

    @Test
    void probeResultFieldsAreChecked() {
        assertThat(PrivacyGuard.inspect(probe("https://checkout.example.com/health", null)))
                .isEmpty();
        ProbeResult leaky =
                probe("https://checkout.example.com/users/bob@example.com", "auth failed: password=hunter2");
        assertThat(PrivacyGuard.inspect(leaky))
                .containsExactly(
                        new PrivacyViolation("finalUrl", Kind.EMAIL), new PrivacyViolation("detail", Kind.PASSWORD));
        assertThatThrownBy(() -> PrivacyGuard.requireClean(leaky))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("finalUrl: contains an e-mail address");
    }

    private static DomainMetric metric(String pathname, Map<String, String> labels) {
        return new DomainMetric(
                1, "bakery", DomainMetric.HTTP_REQUEST, "200", pathname, null, 14.2, labels, 1_764_531_314_000L);
    }

    private static AlertEvent alert(String summary, Map<String, String> links, Map<String, String> attributes) {
        return new AlertEvent(
                1,
                null,
                "monitor/checkout-api",
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "checkout",
                "api",
                summary,
                links,
                attributes,
                null,
                1_764_531_314_000L,
                1_764_531_314_000L,
                AlertSource.APP,
                null,
                List.of("ops"));
    }

    private static ProbeResult probe(String finalUrl, String detail) {
        return new ProbeResult(
                1,
                "checkout-api",
                "eu-west",
                "w-1",
                1_764_531_300_000L,
                1_764_531_301_000L,
                Outcome.SUCCESS,
                null,
                200,
                120,
                135,
                null,
                null,
                finalUrl,
                30,
                3,
                10,
                20,
                detail,
                UUID);
    }
}
