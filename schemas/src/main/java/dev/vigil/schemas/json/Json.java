package dev.vigil.schemas.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.vigil.schemas.contract.ContractViolation;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one Jackson configuration every Vigil service uses on the wire: unknown fields ignored (forward
 * compatible), nulls omitted, map keys sorted (so the same value always serialises to the same bytes),
 * and every read failure turned into a {@link ContractViolation} naming the field.
 */
public final class Json {
    private static final ObjectMapper MAPPER = strict(JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build());

    static {
        MAPPER.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(64)
                        .maxStringLength(1 << 20)
                        .maxNumberLength(64)
                        .build());
    }

    private Json() {}

    /**
     * The wire is typed exactly as the JSON Schemas say: no "60" for 60, no 2500.7 truncated to 2500, no 0
     * for false, no 200 for "200". What the schema refuses, the records refuse too.
     */
    private static ObjectMapper strict(ObjectMapper mapper) {
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        mapper.configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        for (CoercionInputShape shape : new CoercionInputShape[] {
            CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean
        }) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return mapper;
    }

    /** The shared mapper. Do not reconfigure it; copy it if a service needs different settings. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static <T> T read(byte[] bytes, Class<T> type) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw violation(e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw violation(e);
        }
    }

    public static <T> T convert(JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (IOException e) {
            throw violation(e);
        }
    }

    public static JsonNode tree(byte[] bytes) {
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new ContractViolation("$", "body is empty");
            }
            return node;
        } catch (IOException e) {
            throw violation(e);
        }
    }

    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String string(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode toTree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /**
     * Maps a Jackson failure to the contract violation it stands for. A record constructor's own
     * {@link ContractViolation} is unwrapped and re-rooted under the path Jackson was reading; type
     * mismatches name the path; syntax errors name the document root. Public for readers built on a copy of
     * {@link #mapper()} (the service kit's configuration loader), so both word their problems alike.
     */
    public static ContractViolation violation(IOException e) {
        if (e instanceof JsonMappingException mapping) {
            String prefix = path(mapping);
            Throwable cause = mapping.getCause();
            while (cause != null && !(cause instanceof ContractViolation) && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            if (cause instanceof ContractViolation cv) {
                // The path points at the object whose constructor failed; the violation names the field inside it,
                // or "$" for the value as a whole (a header value that is neither a string nor {secretEnv}).
                String field =
                        prefix.isEmpty() ? cv.field() : cv.field().equals("$") ? prefix : prefix + "." + cv.field();
                return new ContractViolation(field, cv.problem());
            }
            if (mapping instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException vi
                    && vi.getCause() instanceof IllegalArgumentException iae) {
                return new ContractViolation(prefix.isEmpty() ? "$" : prefix, safe(iae.getMessage()));
            }
            if (mapping instanceof com.fasterxml.jackson.databind.exc.InvalidFormatException
                    || mapping instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException) {
                return new ContractViolation(prefix.isEmpty() ? "$" : prefix, "has the wrong type or format");
            }
            return new ContractViolation(prefix.isEmpty() ? "$" : prefix, "cannot be read");
        }
        return new ContractViolation("$", "is not valid JSON");
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** Enum and creator messages are ours and never carry the value; anything else is replaced. */
    private static String safe(String message) {
        return message != null && message.startsWith("unknown ") ? message : "has an invalid value";
    }
}
