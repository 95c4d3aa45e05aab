package dev.vigil.streams.api;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.vigil.schemas.contract.ContractViolation;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The query API's request bodies bound to records by Jackson, strictly: a JSON object whose members are exactly the
 * record's (an unknown one is refused with the list of known ones), each of the record's type with no coercion (a
 * number is not a string, a string is not a number, a fraction is not a whole number), nothing after the object. Every
 * refusal is a {@link ContractViolation} naming the member by its path ({@code attributes.env},
 * {@code schedule.days[0]}), which the routes answer as a 400 problem naming that field. Members that take more than
 * one shape (a time as epoch milliseconds or ISO-8601 text) are bound as {@code JsonNode} and read by the route.
 */
public final class RequestBodies {
    private static final JsonMapper MAPPER = strictMapper();

    private RequestBodies() {}

    private static JsonMapper strictMapper() {
        JsonMapper m = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .build();
        for (LogicalType t :
                List.of(LogicalType.Textual, LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            for (CoercionInputShape shape : List.of(
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean,
                    CoercionInputShape.String,
                    CoercionInputShape.EmptyString)) {
                if (!sameShape(t, shape)) {
                    m.coercionConfigFor(t).setCoercion(shape, CoercionAction.Fail);
                }
            }
        }
        return m;
    }

    private static boolean sameShape(LogicalType type, CoercionInputShape shape) {
        return switch (type) {
            case Textual -> shape == CoercionInputShape.String || shape == CoercionInputShape.EmptyString;
            case Integer -> shape == CoercionInputShape.Integer;
            case Float -> shape == CoercionInputShape.Float || shape == CoercionInputShape.Integer;
            case Boolean -> shape == CoercionInputShape.Boolean;
            default -> false;
        };
    }

    /** {@code body} as a {@code type}; an empty body reads as {@code {}} when {@code emptyIsObject}. */
    public static <T> T read(byte[] body, Class<T> type, boolean emptyIsObject) {
        byte[] json = body.length == 0 && emptyIsObject ? new byte[] {'{', '}'} : body;
        ObjectReader reader = MAPPER.readerFor(type);
        T value;
        try {
            value = reader.readValue(json);
        } catch (UnrecognizedPropertyException e) {
            throw new ContractViolation(path(e), "unknown field; expected " + known(e.getKnownPropertyIds()));
        } catch (MismatchedInputException e) {
            String path = path(e);
            throw new ContractViolation(path, path.equals("body") ? "must be a JSON object" : "must be " + shape(e));
        } catch (JsonMappingException e) {
            // a member of the right shape that its record refused (its constructor's own check)
            if (e.getCause() instanceof ContractViolation v) {
                throw v;
            }
            throw new ContractViolation(path(e), "is not valid here");
        } catch (JacksonException e) {
            throw new ContractViolation("body", "must be a JSON object");
        } catch (IOException e) {
            throw new ContractViolation("body", "could not be read");
        }
        if (value == null) {
            throw new ContractViolation("body", "must be a JSON object");
        }
        return value;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper CONTRACT =
            dev.vigil.schemas.json.Json.mapper().copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * A contract record ({@code MonitorDefinition}, {@code AlertRule}) from a request: read as the topics read it (the
     * contract's own types and checks, its violations re-rooted under the member being read) and, unlike a topic
     * reader, refusing members the contract does not know, so a typo is an error and not a setting silently dropped.
     * Violations name the member under {@code prefix} ({@code monitors[3].tcp.host}).
     */
    public static <T> T contract(JsonNode node, Class<T> type, String prefix) {
        // before binding: a record's own checks run first and would blame a missing member for a misspelt one
        unknownMembers(node, type, prefix);
        try {
            return CONTRACT.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ContractViolation(
                    under(prefix, path(e)), "unknown field; expected " + known(e.getKnownPropertyIds()));
        } catch (IOException e) {
            ContractViolation v = dev.vigil.schemas.json.Json.violation(e);
            throw new ContractViolation(under(prefix, v.field()), v.problem());
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof IOException io) {
                ContractViolation v = dev.vigil.schemas.json.Json.violation(io);
                throw new ContractViolation(under(prefix, v.field()), v.problem());
            }
            throw new ContractViolation(prefix.isEmpty() ? "body" : prefix, "is not valid here");
        }
    }

    /**
     * A managed value from a request ({@code PUT /v1/<kind>s/{id}}, an item of {@code :apply}): a JSON object,
     * without the members an answer shows but the value does not hold ({@code shownOnly}, dotted paths such as
     * {@code heartbeat.hasToken}, so a value read can be put back as it is), its {@code id} the URL's ({@code pathId},
     * when given: taken when absent, refused when different), then read strictly as {@code type}.
     */
    public static <T> T managed(
            JsonNode node, Class<T> type, String pathId, String prefix, String kind, List<String> shownOnly) {
        if (!(node instanceof com.fasterxml.jackson.databind.node.ObjectNode o)) {
            throw new ContractViolation(prefix.isEmpty() ? "body" : prefix, "must be a JSON object (a " + kind + ")");
        }
        com.fasterxml.jackson.databind.node.ObjectNode copy = o.deepCopy();
        for (String path : shownOnly) {
            int dot = path.indexOf('.');
            if (dot < 0) {
                copy.remove(path);
            } else if (copy.get(path.substring(0, dot))
                    instanceof com.fasterxml.jackson.databind.node.ObjectNode inner) {
                inner.remove(path.substring(dot + 1));
            }
        }
        if (pathId != null) {
            JsonNode id = copy.get("id");
            if (id == null || id.isNull()) {
                copy.put("id", pathId);
            } else if (!id.isTextual() || !id.asText().equals(pathId)) {
                throw new ContractViolation(
                        prefix.isEmpty() ? "id" : prefix + ".id",
                        "must be the id in the URL (" + pathId + ") or left out");
            }
        }
        if (!copy.has("schemaVersion")) {
            copy.put("schemaVersion", 1);
        }
        return contract(copy, type, prefix);
    }

    /** Refuses the first member of {@code node}, or of a nested record's object, that {@code type} does not have. */
    static void unknownMembers(JsonNode node, Class<?> type, String prefix) {
        if (!type.isRecord() || node == null || !node.isObject()) {
            return;
        }
        Map<String, java.lang.reflect.RecordComponent> components = new java.util.LinkedHashMap<>();
        for (var c : type.getRecordComponents()) {
            components.put(c.getName(), c);
        }
        var names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            var c = components.get(name);
            String at = prefix.isEmpty() ? name : prefix + "." + name;
            if (c == null) {
                throw new ContractViolation(
                        at, "unknown field; expected " + String.join(", ", new TreeSet<>(components.keySet())));
            }
            JsonNode value = node.get(name);
            if (c.getType().isRecord()) {
                unknownMembers(value, c.getType(), at);
            } else if (List.class.isAssignableFrom(c.getType())
                    && c.getGenericType() instanceof java.lang.reflect.ParameterizedType pt
                    && pt.getActualTypeArguments()[0] instanceof Class<?> element
                    && element.isRecord()
                    && value != null
                    && value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    unknownMembers(value.get(i), element, at + "[" + i + "]");
                }
            }
        }
    }

    private static String under(String prefix, String field) {
        if (prefix.isEmpty()) {
            return field == null || field.isEmpty() || field.equals("$") ? "body" : field;
        }
        return field == null || field.isEmpty() || field.equals("$") || field.equals("body")
                ? prefix
                : field.startsWith("[") ? prefix + field : prefix + "." + field;
    }

    /** The member names of a request record, as a body spells them. */
    public static Set<String> members(Class<? extends Record> type) {
        Set<String> names = new java.util.LinkedHashSet<>();
        for (var c : type.getRecordComponents()) {
            names.add(c.getName());
        }
        return Set.copyOf(names);
    }

    /** The member a binding error is about, as {@code a.b[2].c}; {@code body} for the body itself. */
    static String path(JsonMappingException e) {
        StringBuilder p = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (p.length() > 0) {
                    p.append('.');
                }
                p.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                p.append('[').append(r.getIndex()).append(']');
            }
        }
        return p.length() == 0 ? "body" : p.toString();
    }

    private static String shape(MismatchedInputException e) {
        Class<?> t = e.getTargetType();
        if (t == null) {
            return "of another type";
        }
        if (t == String.class) {
            return "a string";
        }
        if (t == Integer.class || t == int.class || t == Long.class || t == long.class) {
            return "a whole number";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "true or false";
        }
        if (Collection.class.isAssignableFrom(t) || t.isArray()) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(t) || t.isRecord()) {
            return "an object";
        }
        return "of another type";
    }

    private static String known(Collection<Object> ids) {
        TreeSet<String> names = new TreeSet<>();
        ids.forEach(id -> names.add(String.valueOf(id)));
        return String.join(", ", names);
    }
}
