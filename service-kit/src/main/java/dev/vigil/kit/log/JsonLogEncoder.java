package dev.vigil.kit.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Logback encoder writing one JSON object per line: {@code time}, {@code severity}, {@code message},
 * {@code logger}, {@code thread}, MDC and SLF4J key-value pairs as fields, and the stack trace as one
 * {@code stack} field. Credentials that slip into a message (bearer tokens, {@code password=...},
 * {@code secret: ...}) are redacted before the line is written.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final byte[] NEWLINE = {'\n'};
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");
    private static final Pattern KEY_VALUE = Pattern.compile(
            "(?i)\\b(password|passwd|pwd|secret|token|api[_-]?key|authorization)(\\s*[=:]\\s*)(\"[^\"]*\"|[^\\s,;&\"]+)");

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        var out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField(
                    "time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            g.writeStringField("severity", severity(event.getLevel()));
            g.writeStringField("message", redact(event.getFormattedMessage()));
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("thread", event.getThreadName());
            for (Map.Entry<String, String> e : event.getMDCPropertyMap().entrySet()) {
                g.writeStringField(e.getKey(), redact(e.getValue()));
            }
            if (event.getKeyValuePairs() != null) {
                for (var kv : event.getKeyValuePairs()) {
                    g.writeStringField(kv.key, redact(String.valueOf(kv.value)));
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                g.writeStringField("stack", redact(ThrowableProxyUtil.asString(thrown)));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.writeBytes(NEWLINE);
        return out.toByteArray();
    }

    /** Log severities as most collectors name them. */
    static String severity(Level level) {
        return switch (level.toInt()) {
            case Level.ERROR_INT -> "ERROR";
            case Level.WARN_INT -> "WARNING";
            case Level.INFO_INT -> "INFO";
            default -> "DEBUG";
        };
    }

    static String redact(String text) {
        if (text == null) {
            return null;
        }
        String s = BEARER.matcher(text).replaceAll("$1[redacted]");
        return KEY_VALUE.matcher(s).replaceAll("$1$2[redacted]");
    }
}
