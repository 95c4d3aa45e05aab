package dev.vigil.kit.config;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds a configuration tree to its records section by section, so that one wrong section does not hide the problems
 * of the others (Jackson stops at the first constructor that throws). Records without Jackson annotations are taken
 * apart here: each component is bound on its own, then the canonical constructor runs; maps and lists of such
 * records likewise per entry. Everything else (scalars, enums, annotated records such as the monitor contract) is
 * bound by Jackson, with the wire mapper's rules plus text for numbers and flags, since environment overrides are
 * text. Durations are text ({@link DurationText}).
 */
final class ConfigBinder {
    /** Stands for a value that could not be bound; its problems are already recorded. */
    private static final Object FAILED = new Object();

    static final ObjectMapper MAPPER = Json.mapper()
            .copy()
            .enable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .registerModule(new SimpleModule("vigil-config").addSerializer(Duration.class, new DurationWriter()));

    private static final Map<Class<?>, Boolean> PLAIN = new ConcurrentHashMap<>();

    private ConfigBinder() {}

    /** The tree of a configuration record, durations as text: the defaults every file and variable overlays. */
    static ObjectNode toTree(Object config) {
        return MAPPER.valueToTree(config);
    }

    /** The bound value, or null with every problem recorded in {@code problems}. */
    static <T> T bind(JsonNode tree, Class<T> type, Problems problems) {
        int before = problems.list().size();
        Object value = bind(tree, type, "", problems);
        if (value == FAILED) {
            if (problems.list().size() == before) {
                problems.add("", "cannot be read");
            }
            return null;
        }
        return type.cast(value);
    }

    private static Object bind(JsonNode node, Type type, String path, Problems problems) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        Class<?> raw = raw(type);
        if (raw == Duration.class) {
            return duration(node, path, problems);
        }
        if (plainRecord(raw)) {
            return record(node, raw, path, problems);
        }
        Type element = elementType(type);
        if (element != null && structured(element)) {
            return raw.isArray()
                    ? array(node, raw(element), element, path, problems)
                    : Map.class.isAssignableFrom(raw)
                            ? map(node, element, path, problems)
                            : list(node, element, path, problems);
        }
        try {
            return MAPPER.treeToValue(node, MAPPER.constructType(type));
        } catch (IOException e) {
            ContractViolation v = Json.violation(e);
            problems.add(v.field().equals("$") ? path : Problems.join(path, v.field()), v.problem());
            return FAILED;
        } catch (IllegalArgumentException e) {
            problems.add(path, "has the wrong type or format");
            return FAILED;
        }
    }

    private static Object duration(JsonNode node, String path, Problems problems) {
        if (!node.isTextual()) {
            // a bare number's unit would be a guess: 5000 may mean ms or s
            problems.add(path, DurationText.EXPECTED);
            return FAILED;
        }
        try {
            return DurationText.parse(node.asText());
        } catch (IllegalArgumentException e) {
            problems.add(path, e.getMessage());
            return FAILED;
        }
    }

    private static Object record(JsonNode node, Class<?> type, String path, Problems problems) {
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of keys to values");
            return FAILED;
        }
        RecordComponent[] components = type.getRecordComponents();
        Object[] args = new Object[components.length];
        Set<String> failed = new HashSet<>();
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            Object value = bind(node.get(name), components[i].getGenericType(), Problems.join(path, name), problems);
            if (value == FAILED) {
                failed.add(name);
                value = null;
            }
            args[i] = value == null && components[i].getType().isPrimitive()
                    ? Array.get(Array.newInstance(components[i].getType(), 1), 0)
                    : value;
        }
        try {
            Object value = canonical(type, components).newInstance(args);
            return failed.isEmpty() ? value : FAILED;
        } catch (InvocationTargetException e) {
            // Still run with the failed sections left out (null), so this record's own problems are reported too;
            // what it says about a failed section is a consequence of that section's problem, already reported.
            Throwable cause = e.getCause();
            if (cause instanceof InvalidConfig invalid) {
                for (Problems.Problem p : invalid.problems()) {
                    if (!within(p.key(), failed)) {
                        problems.add(Problems.join(path, p.key()), p.message());
                    }
                }
            } else if (cause instanceof ContractViolation v) {
                if (!within(v.field(), failed)) {
                    problems.add(v.field().equals("$") ? path : Problems.join(path, v.field()), v.problem());
                }
            } else if (failed.isEmpty()) {
                if (cause instanceof IllegalArgumentException) {
                    problems.add(path, "has an invalid value");
                } else {
                    throw new IllegalStateException("cannot build " + type.getSimpleName() + " at " + path, cause);
                }
            }
            return FAILED;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
        }
    }

    private static Object map(JsonNode node, Type valueType, String path, Problems problems) {
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of keys to values");
            return FAILED;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        boolean ok = true;
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            var f = fields.next();
            Object value = bind(f.getValue(), valueType, Problems.join(path, f.getKey()), problems);
            ok &= value != FAILED;
            out.put(f.getKey(), value == FAILED ? null : value);
        }
        return ok ? out : FAILED;
    }

    private static Object list(JsonNode node, Type elementType, String path, Problems problems) {
        List<Object> out = elements(node, elementType, path, problems);
        return out == null ? FAILED : out;
    }

    private static Object array(
            JsonNode node, Class<?> elementClass, Type elementType, String path, Problems problems) {
        List<Object> out = elements(node, elementType, path, problems);
        if (out == null) {
            return FAILED;
        }
        Object array = Array.newInstance(elementClass, out.size());
        for (int i = 0; i < out.size(); i++) {
            Array.set(array, i, out.get(i));
        }
        return array;
    }

    private static List<Object> elements(JsonNode node, Type elementType, String path, Problems problems) {
        if (!node.isArray()) {
            problems.add(path, "must be a list");
            return null;
        }
        List<Object> out = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < node.size(); i++) {
            Object value = bind(node.get(i), elementType, path + "[" + i + "]", problems);
            ok &= value != FAILED;
            out.add(value == FAILED ? null : value);
        }
        return ok ? out : null;
    }

    /** Whether {@code key} is one of {@code sections} or lies inside one. */
    private static boolean within(String key, Set<String> sections) {
        for (String s : sections) {
            if (key.equals(s) || key.startsWith(s + ".") || key.startsWith(s + "[")) {
                return true;
            }
        }
        return false;
    }

    private static Constructor<?> canonical(Class<?> type, RecordComponent[] components) throws NoSuchMethodException {
        Constructor<?> c = type.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        c.setAccessible(true);
        return c;
    }

    /** A record Jackson would bind by its component names alone: no Jackson annotation anywhere on it. */
    private static boolean plainRecord(Class<?> type) {
        if (!type.isRecord()) {
            return false;
        }
        return PLAIN.computeIfAbsent(
                type,
                t -> !jackson(t.getAnnotations())
                        && Arrays.stream(t.getRecordComponents())
                                .noneMatch(rc -> jackson(rc.getAnnotations())
                                        || jackson(rc.getAccessor().getAnnotations()))
                        && Arrays.stream(t.getDeclaredConstructors())
                                .noneMatch(c -> jackson(c.getAnnotations())
                                        || Arrays.stream(c.getParameterAnnotations())
                                                .anyMatch(ConfigBinder::jackson)));
    }

    private static boolean jackson(Annotation[] annotations) {
        return Arrays.stream(annotations)
                .anyMatch(a -> a.annotationType().getPackageName().startsWith("com.fasterxml.jackson"));
    }

    /** Whether values of {@code type} are bound here rather than by Jackson: plain records, or collections of them. */
    private static boolean structured(Type type) {
        Class<?> raw = raw(type);
        if (raw == Duration.class || plainRecord(raw)) {
            return true;
        }
        Type element = elementType(type);
        return element != null && structured(element);
    }

    /** The element type of a list, set or array, the value type of a map with text keys; null for anything else. */
    private static Type elementType(Type type) {
        if (type instanceof GenericArrayType g) {
            return g.getGenericComponentType();
        }
        if (type instanceof Class<?> c) {
            return c.isArray() ? c.getComponentType() : null;
        }
        if (type instanceof ParameterizedType p) {
            Class<?> raw = raw(p);
            Type[] args = p.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw) || raw == Collection.class) {
                return args[0];
            }
            if (Map.class.isAssignableFrom(raw) && args[0] == String.class) {
                return args[1];
            }
        }
        return null;
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof GenericArrayType g) {
            return Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
        }
        return Object.class;
    }

    /** Durations in the defaults tree as the text a file would hold ({@code 15m}), so a variable may override them. */
    private static final class DurationWriter extends StdSerializer<Duration> {
        private static final long serialVersionUID = 1L;

        DurationWriter() {
            super(Duration.class);
        }

        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(DurationText.format(value));
        }
    }
}
