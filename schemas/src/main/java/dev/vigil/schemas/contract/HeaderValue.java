package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One request header's value: a plain {@code value}, or the name of the environment variable that holds a secret
 * ({@code secretEnv}), which the probe worker resolves when it probes. A secret never appears in a topic record, a
 * result, a log line or an API answer: only its variable's name travels. On the wire: a string, or
 * {@code {"secretEnv": "HEALTH_TOKEN"}} (that one member, nothing else).
 *
 * <p>Violations name {@code value} or {@code secretEnv}, and {@code $} (the header value as a whole) for a value that
 * is neither or both; read from JSON they are re-rooted under the header ({@code headers.Authorization.secretEnv},
 * {@code headers.X-Token}).
 */
public record HeaderValue(String value, String secretEnv) {
    static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    public static final int MAX_VALUE_CHARS = 1024;

    public HeaderValue {
        if ((value == null) == (secretEnv == null)) {
            throw new ContractViolation("$", "each header needs a value or a secretEnv, not both");
        }
        if (value != null) {
            if (value.length() > MAX_VALUE_CHARS) {
                throw new ContractViolation("value", "must be at most " + MAX_VALUE_CHARS + " characters");
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 && c != '\t' || c == 0x7f) {
                    throw new ContractViolation("value", "must not contain control characters");
                }
            }
        } else {
            Require.matches("secretEnv", secretEnv, ENV_NAME, "an environment variable name such as HEALTH_TOKEN");
        }
    }

    public static HeaderValue plain(String value) {
        return new HeaderValue(value, null);
    }

    public static HeaderValue secret(String env) {
        return new HeaderValue(null, env);
    }

    /** The wire form: a string is the value itself; an object has exactly one member, {@code secretEnv}. */
    @JsonCreator
    static HeaderValue fromJson(Object json) {
        if (json instanceof String s) {
            try {
                return plain(s);
            } catch (ContractViolation v) {
                // on the wire the string is the header's value itself
                throw new ContractViolation("$", "a header value " + v.problem());
            }
        }
        if (json instanceof Map<?, ?> m && (m.isEmpty() || m.size() == 1 && m.containsKey("secretEnv"))) {
            if (!(m.get("secretEnv") instanceof String env)) {
                throw new ContractViolation(
                        "secretEnv", m.get("secretEnv") == null ? "is required" : "must be a string");
            }
            return secret(env);
        }
        throw new ContractViolation("$", "a header is a string or {\"secretEnv\": \"NAME\"}");
    }

    @JsonValue
    Object toJson() {
        return value != null ? value : Map.of("secretEnv", secretEnv);
    }

    public boolean isSecret() {
        return secretEnv != null;
    }

    /** For logs and answers: the value, or {@code ${NAME}} for a secret (never the secret). */
    @Override
    public String toString() {
        return value != null ? value : "${" + secretEnv + "}";
    }
}
