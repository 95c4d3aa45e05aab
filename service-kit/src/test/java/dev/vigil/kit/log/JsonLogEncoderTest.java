package dev.vigil.kit.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonLogEncoderTest {
    private final LoggerContext context = newContext();

    private static LoggerContext newContext() {
        LoggerContext c = new LoggerContext();
        c.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        return c;
    }

    private final Logger logger = context.getLogger("dev.vigil.test");
    private final JsonLogEncoder encoder = new JsonLogEncoder();

    private JsonNode encode(Level level, String message, Throwable t) {
        LoggingEvent event = new LoggingEvent("fqcn", logger, level, message, t, null);
        event.setThreadName("main");
        byte[] line = encoder.encode(event);
        String text = new String(line, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n").doesNotContain("\n\t").hasLineCount(1);
        return Json.tree(line);
    }

    @Test
    void writesOneJsonLineWithSeverity() {
        JsonNode line = encode(Level.WARN, "broker unreachable", null);
        assertThat(line.get("severity").asText()).isEqualTo("WARNING");
        assertThat(line.get("message").asText()).isEqualTo("broker unreachable");
        assertThat(line.get("logger").asText()).isEqualTo("dev.vigil.test");
        assertThat(line.get("thread").asText()).isEqualTo("main");
        assertThat(line.get("time").asText()).endsWith("Z");
    }

    @Test
    void stackTraceIsOneField() {
        JsonNode line = encode(Level.ERROR, "failed", new IllegalStateException("boom"));
        assertThat(line.get("severity").asText()).isEqualTo("ERROR");
        assertThat(line.get("stack").asText())
                .contains("IllegalStateException: boom")
                .contains("\tat ");
    }

    @Test
    void redactsCredentials() {
        JsonNode line = encode(
                Level.INFO,
                "calling with Authorization: Bearer abc.def.ghi and password=hunter2, api_key: \"k-123\"",
                null);
        String message = line.get("message").asText();
        assertThat(message)
                .doesNotContain("abc.def.ghi")
                .doesNotContain("hunter2")
                .doesNotContain("k-123")
                .contains("[redacted]")
                .contains("calling with");
    }

    @Test
    void leavesOrdinaryTextAlone() {
        assertThat(JsonLogEncoder.redact("token count is 42 for /menu/2024"))
                .isEqualTo("token count is 42 for /menu/2024");
        assertThat(JsonLogEncoder.severity(Level.DEBUG)).isEqualTo("DEBUG");
        assertThat(JsonLogEncoder.severity(Level.TRACE)).isEqualTo("DEBUG");
    }
}
