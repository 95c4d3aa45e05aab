package dev.vigil.schemas.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a read token sees of a monitor: the same rule for every URL and header value. */
class RedactionTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "https://api.example.com/health | https://api.example.com/health",
                "https://api.example.com/health?api_key=abc123 | https://api.example.com/health?api_key=REDACTED",
                "https://h.example.com/p?a=1&b=two&c= | https://h.example.com/p?a=REDACTED&b=REDACTED&c=REDACTED",
                "https://h.example.com/p?s3cr3t-bare-token | https://h.example.com/p?REDACTED",
                "https://h.example.com/p?a=1;b=2 | https://h.example.com/p?a=REDACTED;b=REDACTED",
                "https://user:pa55@h.example.com:8443/p | https://h.example.com:8443/p",
                "https://us@r:p@ss@h.example.com/p?x=1 | https://h.example.com/p?x=REDACTED",
                "https://h.example.com/cb#access_token=eyJabc&state=9 | https://h.example.com/cb#access_token=REDACTED&state=REDACTED",
                "https://h.example.com/p?=orphan | https://h.example.com/p?REDACTED",
                "https://h.example.com/a@b/c | https://h.example.com/a@b/c",
                "not a url?token=abc | not a url?token=REDACTED",
            })
    void urlsLoseUserInfoAndParameterValuesButKeepWhatIsChecked(String url, String shown) {
        assertThat(Redaction.redactUrl(url)).isEqualTo(shown);
    }

    @Test
    void nullStaysNull() {
        assertThat(Redaction.redactUrl(null)).isNull();
        assertThat(Redaction.redactHeaders(null)).isNull();
        assertThat(Redaction.redactHeaderValue(null)).isNull();
        assertThat(Redaction.redact(null)).isNull();
    }

    @Test
    void headerNamesStayInOrderAndEveryValueIsReplaced() {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("X-Team", "core");
        headers.put("Authorization", HeaderValue.secret("HEALTH_TOKEN"));
        headers.put("Cookie", "session=abc");
        assertThat(Redaction.redactHeaders(headers))
                .containsExactly(
                        Map.entry("X-Team", "REDACTED"),
                        Map.entry("Authorization", "REDACTED"),
                        Map.entry("Cookie", "REDACTED"));
        assertThat(Redaction.redactHeaderValue("Bearer abc")).isEqualTo(Redaction.MARKER);
    }

    @Test
    void aMonitorShownToAReaderCarriesNoInlineCredential() {
        var monitor = new MonitorDefinition(
                1,
                "orders",
                null,
                "https://orders.example.com/api?key=k-991",
                "POST",
                60,
                null,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                Map.of("runbook", "https://wiki.example.com/run?sig=abc"),
                null,
                CheckType.HTTP,
                Map.of(
                        "Authorization",
                        HeaderValue.plain("Bearer inline-77"),
                        "X-Key",
                        HeaderValue.secret("ORDERS_KEY")),
                "{\"password\":\"hunter2\"}",
                null,
                null,
                null,
                null);
        MonitorDefinition shown = Redaction.redact(monitor);
        String json = Json.string(shown);
        assertThat(json)
                .doesNotContain("k-991")
                .doesNotContain("sig=abc")
                .doesNotContain("inline-77")
                .doesNotContain("ORDERS_KEY")
                .doesNotContain("hunter2");
        assertThat(shown.url()).isEqualTo("https://orders.example.com/api?key=REDACTED");
        assertThat(shown.links()).containsEntry("runbook", "https://wiki.example.com/run?sig=REDACTED");
        assertThat(shown.headers()).containsOnlyKeys("Authorization", "X-Key");
        assertThat(shown.body()).isEqualTo(Redaction.MARKER);
        assertThat(shown.expect()).isEqualTo(monitor.expect());
        assertThat(shown.id()).isEqualTo("orders");
    }

    @Test
    void aTcpSendIsRedactedAndTheTargetStays() {
        var monitor = new MonitorDefinition(
                1,
                "cache",
                null,
                null,
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
                null,
                CheckType.TCP,
                null,
                null,
                new MonitorDefinition.Tcp("cache.internal", 6379, "AUTH hunter2\r\nPING\r\n", "PONG"),
                null,
                null,
                null);
        MonitorDefinition shown = Redaction.redact(monitor);
        assertThat(shown.tcp().send()).isEqualTo(Redaction.MARKER);
        assertThat(shown.tcp().expect()).isEqualTo("PONG");
        assertThat(shown.target()).isEqualTo("tcp://cache.internal:6379");
    }
}
