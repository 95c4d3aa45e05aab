package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.docker.JavaText.Source;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shapes of configuration records, read from their Java source: each record's components (YAML keys)
 * and their types, nested records resolved the way the compiler would for these sources (same file, then
 * imports or the qualifying outer class, then the only record of that name). {@link #check} walks a YAML
 * tree against a record and lists every key the record would not bind (Jackson, as configured by
 * ConfigLoader, would ignore it silently).
 */
final class RecordSchemas {
    private static final Pattern RECORD = Pattern.compile("\\brecord\\s+([A-Z]\\w*)\\s*(<[^>{(]*>)?\\s*\\(");
    private static final Pattern ENUM = Pattern.compile("\\benum\\s+([A-Z]\\w*)\\s*(implements\\s+[\\w.,\\s<>]+)?\\{");
    private static final Pattern JSON_PROPERTY = Pattern.compile(
            "@(?:com\\.fasterxml\\.jackson\\.annotation\\.)?JsonProperty\\s*\\(\\s*(?:value\\s*=\\s*)?\"([^\"]+)\"");
    private static final Set<String> SCALARS = Set.of(
            "String",
            "CharSequence",
            "Integer",
            "Long",
            "Double",
            "Float",
            "Short",
            "Byte",
            "Boolean",
            "Character",
            "BigDecimal",
            "BigInteger",
            "Duration",
            "Instant",
            "URI",
            "URL",
            "Path",
            "UUID",
            "LocalDate",
            "int",
            "long",
            "double",
            "float",
            "short",
            "byte",
            "boolean",
            "char");
    private static final Set<String> ANY = Set.of("Object", "JsonNode", "ObjectNode");
    private static final Set<String> MAPS =
            Set.of("Map", "SortedMap", "NavigableMap", "LinkedHashMap", "TreeMap", "HashMap");
    private static final Set<String> LISTS = Set.of("List", "Set", "Collection", "SortedSet", "ArrayList");

    /** A record declaration: its name, the file declaring it, and its components in order. */
    record Decl(String name, Source file, Map<String, Type> components) {}

    /** A parsed Java type: simple or dotted name and its type arguments. */
    record Type(String name, List<Type> args) {
        String simple() {
            int dot = name.lastIndexOf('.');
            return dot < 0 ? name : name.substring(dot + 1);
        }

        String qualifier() {
            int dot = name.lastIndexOf('.');
            if (dot < 0) {
                return null;
            }
            String q = name.substring(0, dot);
            int d2 = q.lastIndexOf('.');
            return d2 < 0 ? q : q.substring(d2 + 1);
        }

        @Override
        public String toString() {
            return args.isEmpty() ? name : name + args;
        }
    }

    private final List<Decl> records = new ArrayList<>();
    private final Map<String, List<Source>> enums = new LinkedHashMap<>();

    RecordSchemas(List<Source> sources) {
        for (Source s : sources) {
            Matcher m = RECORD.matcher(s.code());
            while (m.find()) {
                int open = m.end() - 1;
                int close = JavaText.closing(s.code(), open);
                if (close < 0) {
                    continue;
                }
                Map<String, Type> comps = new LinkedHashMap<>();
                for (String part : JavaText.splitTopLevel(s.code().substring(open + 1, close), true)) {
                    if (part.isEmpty()) {
                        continue;
                    }
                    component(part, comps);
                }
                records.add(new Decl(m.group(1), s, comps));
            }
            Matcher e = ENUM.matcher(s.code());
            while (e.find()) {
                enums.computeIfAbsent(e.group(1), k -> new ArrayList<>()).add(s);
            }
        }
    }

    private static void component(String part, Map<String, Type> comps) {
        String alias = null;
        Matcher jp = JSON_PROPERTY.matcher(part);
        if (jp.find()) {
            alias = jp.group(1);
        }
        String rest = stripAnnotations(part).strip();
        int nameStart = rest.length();
        while (nameStart > 0 && Character.isJavaIdentifierPart(rest.charAt(nameStart - 1))) {
            nameStart--;
        }
        String name = rest.substring(nameStart);
        String type = rest.substring(0, nameStart).strip().replace("...", "[]");
        comps.put(alias != null ? alias : name, parseType(type));
    }

    private static String stripAnnotations(String part) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < part.length()) {
            char c = part.charAt(i);
            if (c == '@') {
                i++;
                while (i < part.length() && (Character.isJavaIdentifierPart(part.charAt(i)) || part.charAt(i) == '.')) {
                    i++;
                }
                int j = i;
                while (j < part.length() && Character.isWhitespace(part.charAt(j))) {
                    j++;
                }
                if (j < part.length() && part.charAt(j) == '(') {
                    i = JavaText.closing(part, j) + 1;
                }
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    static Type parseType(String text) {
        String t = text.strip();
        if (t.endsWith("[]")) {
            return new Type("List", List.of(parseType(t.substring(0, t.length() - 2))));
        }
        int lt = t.indexOf('<');
        if (lt < 0) {
            return new Type(t, List.of());
        }
        int gt = JavaText.closing(t, lt);
        List<Type> args = new ArrayList<>();
        for (String a : JavaText.splitTopLevel(t.substring(lt + 1, gt), true)) {
            String arg = a.replaceFirst("^\\?\\s*(extends|super)\\s+", "");
            args.add(parseType(arg));
        }
        return new Type(t.substring(0, lt).strip(), args);
    }

    /** The record named {@code simpleName} declared in the file {@code fileSimpleName}.java. */
    Decl record(String fileSimpleName, String simpleName) {
        return records.stream()
                .filter(d ->
                        d.name().equals(simpleName) && d.file().simpleName().equals(fileSimpleName))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("no record " + simpleName + " in " + fileSimpleName + ".java"));
    }

    /** Resolves a record type referenced from {@code from}; empty when it is not a record of these sources. */
    Optional<Decl> resolve(Type type, Source from) {
        String simple = type.simple();
        List<Decl> named = records.stream().filter(d -> d.name().equals(simple)).toList();
        if (named.isEmpty()) {
            return Optional.empty();
        }
        String q = type.qualifier();
        if (q != null) {
            Optional<Decl> byOuter =
                    named.stream().filter(d -> d.file().simpleName().equals(q)).findFirst();
            if (byOuter.isPresent()) {
                return byOuter;
            }
        }
        Optional<Decl> sameFile =
                named.stream().filter(d -> d.file().equals(from)).findFirst();
        if (sameFile.isPresent()) {
            return sameFile;
        }
        Matcher imp = Pattern.compile("\\bimport\\s+([\\w.]+)\\." + Pattern.quote(simple) + "\\s*;")
                .matcher(from.code());
        while (imp.find()) {
            String owner = imp.group(1);
            String ownerSimple = owner.substring(owner.lastIndexOf('.') + 1);
            Optional<Decl> imported = named.stream()
                    .filter(d -> d.file().simpleName().equals(ownerSimple)
                            || d.file()
                                    .path()
                                    .toString()
                                    .replace('\\', '/')
                                    .contains(owner.replace('.', '/') + "/" + simple + ".java"))
                    .findFirst();
            if (imported.isPresent()) {
                return imported;
            }
        }
        return named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
    }

    boolean isEnum(Type type) {
        return enums.containsKey(type.simple());
    }

    /** Every problem of {@code node} against record {@code decl}, each with its key path. */
    List<String> check(JsonNode node, Decl decl, String path) {
        List<String> problems = new ArrayList<>();
        checkRecord(node, decl, path, problems);
        return problems;
    }

    private void checkRecord(JsonNode node, Decl decl, String path, List<String> problems) {
        if (!node.isObject()) {
            problems.add(where(path) + "must be a mapping (record " + decl.name() + ")");
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            var f = fields.next();
            String p = path.isEmpty() ? f.getKey() : path + "." + f.getKey();
            Type t = decl.components().get(f.getKey());
            if (t == null) {
                problems.add(p + ": unknown key; " + decl.name() + " accepts "
                        + decl.components().keySet());
                continue;
            }
            checkValue(f.getValue(), t, decl.file(), p, problems);
        }
    }

    private void checkValue(JsonNode node, Type t, Source from, String path, List<String> problems) {
        if (node.isNull()) {
            return;
        }
        String simple = t.simple();
        if (ANY.contains(simple)) {
            return;
        }
        if (MAPS.contains(simple)) {
            if (!node.isObject()) {
                problems.add(where(path) + "must be a mapping");
                return;
            }
            Type value = t.args().size() == 2 ? t.args().get(1) : new Type("Object", List.of());
            node.fields()
                    .forEachRemaining(e -> checkValue(e.getValue(), value, from, path + "." + e.getKey(), problems));
            return;
        }
        if (LISTS.contains(simple)) {
            if (!node.isArray()) {
                problems.add(where(path) + "must be a list");
                return;
            }
            Type item = t.args().isEmpty()
                    ? new Type("Object", List.of())
                    : t.args().get(0);
            for (int i = 0; i < node.size(); i++) {
                checkValue(node.get(i), item, from, path + "[" + i + "]", problems);
            }
            return;
        }
        if (SCALARS.contains(simple) || isEnum(t)) {
            if (node.isContainerNode()) {
                problems.add(where(path) + "must be a single value (" + simple + ")");
            }
            return;
        }
        Optional<Decl> rec = resolve(t, from);
        if (rec.isPresent()) {
            checkRecord(node, rec.get(), path, problems);
        } else {
            problems.add(where(path) + "type " + t
                    + " is neither a scalar nor a record found in the sources; cannot check it");
        }
    }

    private static String where(String path) {
        return path.isEmpty() ? "(top level): " : path + ": ";
    }
}
