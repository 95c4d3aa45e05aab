package dev.vigil.schemas.contract;

/**
 * Envelope on {@code vigil.dead-letter}: a record that could not be processed or a notification that
 * could not be delivered, with the reason. Key is the original record's key.
 *
 * <p>{@code payload} holds the original value, as UTF-8 text when it decodes as such and as base64
 * otherwise ({@code payloadEncoding}); it is truncated to {@link #MAX_PAYLOAD_CHARS}.
 */
public record DeadLetter(
        Integer schemaVersion,
        String source,
        String reason,
        String errorClass,
        String topic,
        Integer partition,
        Long offset,
        String key,
        String payload,
        String payloadEncoding,
        Boolean payloadTruncated,
        String channel,
        String eventId,
        Integer attempts,
        Long failedAt) {

    public static final int MAX_PAYLOAD_CHARS = 65_536;
    public static final String UTF8 = "utf8";
    public static final String BASE64 = "base64";

    public DeadLetter {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.text("source", source, 100);
        reason = oneLine(Require.present("reason", reason), 2000);
        if (reason.isBlank()) {
            throw new ContractViolation("reason", "must not be blank");
        }
        Require.optionalText("errorClass", errorClass, 200);
        Require.optionalText("topic", topic, 249);
        if (partition != null) {
            Require.range("partition", partition, 0, Integer.MAX_VALUE);
        }
        if (offset != null) {
            Require.atLeast("offset", offset, 0);
        }
        if (payload != null && payload.length() > MAX_PAYLOAD_CHARS) {
            throw new ContractViolation("payload", "must be at most " + MAX_PAYLOAD_CHARS + " characters");
        }
        payloadEncoding = payload == null ? null : (payloadEncoding == null ? UTF8 : payloadEncoding);
        if (payloadEncoding != null && !UTF8.equals(payloadEncoding) && !BASE64.equals(payloadEncoding)) {
            throw new ContractViolation("payloadEncoding", "must be utf8 or base64");
        }
        payloadTruncated = payloadTruncated != null && payloadTruncated;
        Require.optionalText("channel", channel, 63);
        Require.optionalText("eventId", eventId, 300);
        if (attempts != null) {
            Require.range("attempts", attempts, 0, Integer.MAX_VALUE);
        }
        Require.atLeast("failedAt", Require.present("failedAt", failedAt), 0);
    }

    /** Envelope for an unprocessable record read from a topic. */
    public static DeadLetter poison(
            String source,
            String reason,
            Throwable error,
            String topic,
            int partition,
            long offset,
            byte[] key,
            byte[] value,
            long failedAt) {
        Payload p = Payload.of(value);
        Payload k = Payload.of(key);
        return new DeadLetter(
                1,
                source,
                reason,
                error == null ? null : error.getClass().getName(),
                topic,
                partition,
                offset,
                k.text == null ? null : truncate(k.text, 1024),
                p.text,
                p.encoding,
                p.truncated,
                null,
                null,
                null,
                failedAt);
    }

    /** Exception messages span lines and grow without bound; an envelope must still be built. */
    private static String oneLine(String s, int max) {
        String flat = s.replaceAll("[\\p{Cntrl}]+", " ").strip();
        return truncate(flat, max);
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private record Payload(String text, String encoding, boolean truncated) {
        static Payload of(byte[] bytes) {
            if (bytes == null) {
                return new Payload(null, null, false);
            }
            var decoder = java.nio.charset.StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
            String text;
            String encoding;
            try {
                text = decoder.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
                encoding = UTF8;
                boolean control = text.chars().anyMatch(c -> c < 0x20 && c != '\t' && c != '\n' && c != '\r');
                if (control) {
                    text = java.util.Base64.getEncoder().encodeToString(bytes);
                    encoding = BASE64;
                }
            } catch (java.nio.charset.CharacterCodingException e) {
                text = java.util.Base64.getEncoder().encodeToString(bytes);
                encoding = BASE64;
            }
            boolean truncated = text.length() > MAX_PAYLOAD_CHARS;
            return new Payload(truncated ? text.substring(0, MAX_PAYLOAD_CHARS) : text, encoding, truncated);
        }
    }
}
