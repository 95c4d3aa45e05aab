package dev.vigil.docker;

import dev.vigil.docker.JavaText.Source;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Micrometer meters the services register, read from their sources: {@code Counter.builder("vigil.x")…},
 * {@code registry.counter("vigil.x", "tag", v)}, {@code Gauge.builder}, {@code Timer.builder}, … with names
 * given as literals or as {@code static final String} constants. For each meter, the Prometheus series names
 * Micrometer's Prometheus registry exposes ({@link #seriesNames()}) and its tag keys (or "open" when tags are
 * passed in a way this reader cannot follow).
 */
final class MeterCatalog {
    enum Kind {
        COUNTER,
        FUNCTION_COUNTER,
        GAUGE,
        TIME_GAUGE,
        TIMER,
        FUNCTION_TIMER,
        SUMMARY,
        LONG_TASK_TIMER
    }

    /** One registration site. */
    record Meter(
            String name,
            Kind kind,
            Set<String> tags,
            boolean tagsOpen,
            boolean histogram,
            String baseUnit,
            String site) {
        /** The Prometheus series this meter produces (Micrometer PrometheusNamingConvention). */
        Set<String> series() {
            String base = name.replaceAll("[^a-zA-Z0-9_:]", "_");
            Set<String> out = new LinkedHashSet<>();
            switch (kind) {
                case COUNTER, FUNCTION_COUNTER -> out.add(withUnit(base, baseUnit) + "_total");
                case GAUGE -> out.add(withUnit(base, baseUnit));
                case TIME_GAUGE -> out.add(withUnit(base, "seconds"));
                case TIMER, FUNCTION_TIMER -> {
                    String b = withUnit(base, "seconds");
                    out.add(b + "_count");
                    out.add(b + "_sum");
                    out.add(b + "_max");
                    if (histogram) {
                        out.add(b + "_bucket");
                    }
                }
                case SUMMARY -> {
                    String b = withUnit(base, baseUnit);
                    out.add(b + "_count");
                    out.add(b + "_sum");
                    out.add(b + "_max");
                    if (histogram) {
                        out.add(b + "_bucket");
                    }
                }
                case LONG_TASK_TIMER -> {
                    String b = withUnit(base, "seconds");
                    out.add(b + "_active_count");
                    out.add(b + "_duration_sum");
                    out.add(b + "_max");
                }
            }
            return out;
        }

        private static String withUnit(String base, String unit) {
            if (unit == null || unit.isBlank()) {
                return base;
            }
            String u = unit.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
            return base.endsWith("_" + u) ? base : base + "_" + u;
        }
    }

    private static final Pattern BUILDER = Pattern.compile(
            "\\b(Counter|Timer|Gauge|DistributionSummary|LongTaskTimer|FunctionCounter|FunctionTimer|TimeGauge)\\s*\\.\\s*builder\\s*\\(");
    private static final Pattern REGISTRY_CALL = Pattern.compile(
            "\\.\\s*(counter|timer|gauge|summary|longTaskTimer|timeGauge|gaugeCollectionSize|gaugeMapSize)\\s*\\(");
    private static final Pattern CHAIN_CALL = Pattern.compile("\\G\\s*\\.\\s*(\\w+)\\s*\\(");
    private static final Pattern STRING_CONSTANT =
            Pattern.compile("\\bString\\s+([A-Za-z_]\\w*)\\s*=\\s*(\"(?:[^\"\\\\]|\\\\.)*\")\\s*;");

    private final List<Meter> meters = new ArrayList<>();
    private final List<String> unresolved = new ArrayList<>();

    MeterCatalog(List<Source> sources) {
        Map<String, Map<String, String>> constants = new LinkedHashMap<>();
        for (Source s : sources) {
            Map<String, String> c = new LinkedHashMap<>();
            Matcher m = STRING_CONSTANT.matcher(s.code());
            while (m.find()) {
                JavaText.stringLiteral(m.group(2)).ifPresent(v -> c.put(m.group(1), v));
            }
            constants.put(s.simpleName(), c);
        }
        for (Source s : sources) {
            scanBuilders(s, constants);
            scanRegistryCalls(s, constants);
        }
    }

    List<Meter> meters() {
        return Collections.unmodifiableList(meters);
    }

    /** Registrations whose name starts like a Vigil meter but could not be resolved to one literal. */
    List<String> unresolved() {
        return Collections.unmodifiableList(unresolved);
    }

    /** Prometheus series name → the meters producing it. */
    Map<String, List<Meter>> seriesNames() {
        Map<String, List<Meter>> out = new TreeMap<>();
        for (Meter m : meters) {
            for (String s : m.series()) {
                out.computeIfAbsent(s, k -> new ArrayList<>()).add(m);
            }
        }
        return out;
    }

    private void scanBuilders(Source s, Map<String, Map<String, String>> constants) {
        String code = s.code();
        Matcher m = BUILDER.matcher(code);
        while (m.find()) {
            int open = m.end() - 1;
            int close = JavaText.closing(code, open);
            if (close < 0) {
                continue;
            }
            List<String> args = JavaText.splitTopLevel(code.substring(open + 1, close), false);
            if (args.isEmpty()) {
                continue;
            }
            Optional<String> name = resolveName(args.get(0), s, constants);
            if (name.isEmpty()) {
                noteUnresolved(args.get(0), s, m.start());
                continue;
            }
            if (!name.get().startsWith("vigil.")) {
                continue;
            }
            Kind kind =
                    switch (m.group(1)) {
                        case "Counter" -> Kind.COUNTER;
                        case "FunctionCounter" -> Kind.FUNCTION_COUNTER;
                        case "Gauge" -> Kind.GAUGE;
                        case "TimeGauge" -> Kind.TIME_GAUGE;
                        case "Timer" -> Kind.TIMER;
                        case "FunctionTimer" -> Kind.FUNCTION_TIMER;
                        case "DistributionSummary" -> Kind.SUMMARY;
                        default -> Kind.LONG_TASK_TIMER;
                    };
            Set<String> tags = new LinkedHashSet<>();
            boolean open2 = false;
            boolean histogram = false;
            String unit = null;
            int pos = close + 1;
            Matcher call = CHAIN_CALL.matcher(code);
            while (call.find(pos) && call.start() == pos) {
                int argsOpen = call.end() - 1;
                int argsClose = JavaText.closing(code, argsOpen);
                if (argsClose < 0) {
                    break;
                }
                String method = call.group(1);
                List<String> callArgs = JavaText.splitTopLevel(code.substring(argsOpen + 1, argsClose), false);
                switch (method) {
                    case "tag" -> {
                        Optional<String> key =
                                callArgs.isEmpty() ? Optional.empty() : resolveName(callArgs.get(0), s, constants);
                        if (key.isPresent()) {
                            tags.add(key.get());
                        } else {
                            open2 = true;
                        }
                    }
                    case "tags" -> open2 |= !keyValueTags(callArgs, 0, s, constants, tags);
                    case "publishPercentileHistogram", "serviceLevelObjectives", "sla" -> histogram = true;
                    case "baseUnit" -> unit = callArgs.isEmpty()
                            ? null
                            : resolveName(callArgs.get(0), s, constants).orElse(null);
                    default -> {}
                }
                pos = argsClose + 1;
                if (method.equals("register")) {
                    break;
                }
            }
            meters.add(new Meter(name.get(), kind, tags, open2, histogram, unit, site(s, m.start())));
        }
    }

    private void scanRegistryCalls(Source s, Map<String, Map<String, String>> constants) {
        String code = s.code();
        Matcher m = REGISTRY_CALL.matcher(code);
        while (m.find()) {
            int open = m.end() - 1;
            int close = JavaText.closing(code, open);
            if (close < 0) {
                continue;
            }
            List<String> args = JavaText.splitTopLevel(code.substring(open + 1, close), false);
            if (args.isEmpty()) {
                continue;
            }
            Optional<String> name = resolveName(args.get(0), s, constants);
            if (name.isEmpty()) {
                noteUnresolved(args.get(0), s, m.start());
                continue;
            }
            if (!name.get().startsWith("vigil.")) {
                continue;
            }
            boolean more =
                    code.substring(Math.max(0, m.start() - 12), m.start()).matches("(?s).*more\\s*\\(\\s*\\)\\s*$");
            Kind kind =
                    switch (m.group(1)) {
                        case "counter" -> more ? Kind.FUNCTION_COUNTER : Kind.COUNTER;
                        case "timer" -> more ? Kind.FUNCTION_TIMER : Kind.TIMER;
                        case "summary" -> Kind.SUMMARY;
                        case "longTaskTimer" -> Kind.LONG_TASK_TIMER;
                        case "timeGauge" -> Kind.TIME_GAUGE;
                        default -> Kind.GAUGE;
                    };
            Set<String> tags = new LinkedHashSet<>();
            boolean openTags = false;
            // Where the tags are: counter/timer/summary(name, "k", v, …) or (name, Iterable<Tag>);
            // gauge(name, obj[, fn]) has none, gauge(name, tags, obj, fn) and the others take them second.
            boolean simpleVarargs = kind == Kind.COUNTER || kind == Kind.TIMER || kind == Kind.SUMMARY;
            boolean hasTags = args.size() > 1 && (simpleVarargs || !m.group(1).equals("gauge") || args.size() >= 4);
            if (hasTags && !args.get(1).replace(" ", "").equals("Tags.empty()")) {
                if (simpleVarargs && JavaText.stringLiteral(args.get(1)).isPresent()) {
                    openTags = !keyValueTags(args, 1, s, constants, tags);
                } else {
                    // An Iterable<Tag>: collect Tag.of("k", …) keys, else the tags are unknown here.
                    openTags = !tagOfKeys(args.get(1), tags);
                }
            }
            meters.add(new Meter(name.get(), kind, tags, openTags, false, null, site(s, m.start())));
        }
    }

    /** {@code "k1", v1, "k2", v2}: keys at even positions from {@code from}; false if a key is not a literal. */
    private static boolean keyValueTags(
            List<String> args, int from, Source s, Map<String, Map<String, String>> constants, Set<String> tags) {
        if (args.size() - from == 1 && JavaText.stringLiteral(args.get(from)).isEmpty()) {
            return tagOfKeys(args.get(from), tags);
        }
        for (int i = from; i < args.size(); i += 2) {
            Optional<String> key = resolveName(args.get(i), s, constants);
            if (key.isEmpty()) {
                return false;
            }
            tags.add(key.get());
        }
        return true;
    }

    private static boolean tagOfKeys(String expr, Set<String> tags) {
        Matcher t =
                Pattern.compile("\\bTags?\\s*\\.\\s*of\\s*\\(\\s*\"([^\"]+)\"").matcher(expr);
        boolean any = false;
        while (t.find()) {
            tags.add(t.group(1));
            any = true;
        }
        if (!any) {
            return false;
        }
        // Tags.of("a", x, "b", y): further keys at even positions.
        Matcher of = Pattern.compile("\\bTags\\s*\\.\\s*of\\s*\\(").matcher(expr);
        while (of.find()) {
            int close = JavaText.closing(expr, of.end() - 1);
            List<String> a = JavaText.splitTopLevel(expr.substring(of.end(), close), false);
            for (int i = 0; i < a.size(); i += 2) {
                Optional<String> k = JavaText.stringLiteral(a.get(i));
                if (k.isEmpty()) {
                    return false;
                }
                tags.add(k.get());
            }
        }
        return true;
    }

    private static Optional<String> resolveName(String expr, Source s, Map<String, Map<String, String>> constants) {
        String e = expr.strip();
        Optional<String> lit = JavaText.stringLiteral(e);
        if (lit.isPresent()) {
            return lit;
        }
        if (e.matches("[A-Za-z_]\\w*")) {
            return Optional.ofNullable(
                    constants.getOrDefault(s.simpleName(), Map.of()).get(e));
        }
        if (e.matches("([A-Za-z_]\\w*\\.)+[A-Za-z_]\\w*")) {
            String[] parts = e.split("\\.");
            String owner = parts[parts.length - 2];
            return Optional.ofNullable(constants.getOrDefault(owner, Map.of()).get(parts[parts.length - 1]));
        }
        return Optional.empty();
    }

    private void noteUnresolved(String expr, Source s, int at) {
        if (expr.contains("\"vigil.")) {
            unresolved.add(site(s, at) + ": " + expr);
        }
    }

    private static String site(Source s, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) {
            if (s.code().charAt(i) == '\n') {
                line++;
            }
        }
        return s.path().getFileName() + ":" + line;
    }
}
