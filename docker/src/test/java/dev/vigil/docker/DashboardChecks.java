package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of the provisioned Grafana dashboard: it parses with a uid and title, every panel queries the
 * provisioned Prometheus data source, and every metric a query names exists: {@code vigil_*} series must be
 * produced by a meter registered in the sources (Micrometer's Prometheus naming: dots to underscores,
 * counters {@code _total}, timers {@code _seconds_count/_sum/_max} and {@code _bucket} only with a
 * histogram), labels grouped or matched on must be that meter's tags or target labels, and {@code kafka_*}
 * series must come from a Kafka client binder the sources bind.
 */
final class DashboardChecks {
    /** Series Micrometer's Kafka binders expose that dashboards may use (consumer lag). */
    static final Set<String> KAFKA_CLIENT_SERIES = Set.of(
            "kafka_consumer_fetch_manager_records_lag_max",
            "kafka_consumer_fetch_manager_records_lag",
            "kafka_consumer_fetch_manager_records_lag_avg",
            "kafka_consumer_fetch_manager_records_consumed_total",
            "kafka_consumer_fetch_manager_records_consumed_rate");
    /** Series of Micrometer's JVM binders, by the binder class that must be bound for them to exist. */
    static final Map<String, String> JVM_SERIES = Map.of(
            "jvm_memory_used_bytes", "JvmMemoryMetrics",
            "jvm_memory_max_bytes", "JvmMemoryMetrics",
            "jvm_memory_committed_bytes", "JvmMemoryMetrics",
            "jvm_gc_pause_seconds_count", "JvmGcMetrics",
            "jvm_gc_pause_seconds_sum", "JvmGcMetrics",
            "jvm_gc_pause_seconds_max", "JvmGcMetrics",
            "jvm_threads_live_threads", "JvmThreadMetrics");
    /** Series Prometheus itself produces for every target. */
    static final Set<String> PROMETHEUS_SERIES = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");

    private static final Pattern GRAFANA_VAR = Pattern.compile("\\$\\{[^}]*}|\\$__\\w+|\\$\\w+");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern IDENT = Pattern.compile("(?<![\\w:.\\[])([a-zA-Z_:][a-zA-Z0-9_:]*)");
    private static final Pattern SELECTOR = Pattern.compile("\\{([^}]*)}");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");

    private final JsonNode dashboard;

    DashboardChecks(JsonNode dashboard) {
        this.dashboard = dashboard;
    }

    /** uid and title set, panels present, ids unique. */
    List<String> identity() {
        List<String> problems = new ArrayList<>();
        if (dashboard.path("uid").asText("").isBlank()) {
            problems.add("dashboard: uid is not set (provisioned dashboards need a stable uid)");
        }
        if (dashboard.path("title").asText("").isBlank()) {
            problems.add("dashboard: title is not set");
        }
        if (panels().isEmpty()) {
            problems.add("dashboard: no panels");
        }
        Set<Integer> ids = new HashSet<>();
        for (JsonNode p : allPanels()) {
            if (!p.has("id") || !ids.add(p.path("id").asInt())) {
                problems.add("panel '" + p.path("title").asText() + "': id missing or not unique");
            }
        }
        List<JsonNode> top = new ArrayList<>();
        dashboard.path("panels").forEach(top::add);
        for (int i = 0; i < top.size(); i++) {
            JsonNode a = top.get(i).path("gridPos");
            if (!a.has("w") || !a.has("h") || a.path("x").asInt() + a.path("w").asInt() > 24) {
                problems.add(
                        "panel '" + top.get(i).path("title").asText() + "': gridPos missing or wider than 24 columns");
                continue;
            }
            for (int j = i + 1; j < top.size(); j++) {
                JsonNode b = top.get(j).path("gridPos");
                boolean overlap =
                        a.path("x").asInt() < b.path("x").asInt() + b.path("w").asInt()
                                && b.path("x").asInt()
                                        < a.path("x").asInt() + a.path("w").asInt()
                                && a.path("y").asInt()
                                        < b.path("y").asInt() + b.path("h").asInt()
                                && b.path("y").asInt()
                                        < a.path("y").asInt() + a.path("h").asInt();
                if (overlap) {
                    problems.add("panels '" + top.get(i).path("title").asText() + "' and '"
                            + top.get(j).path("title").asText() + "' overlap");
                }
            }
        }
        return problems;
    }

    /** Every panel (rows excepted) has at least one non-blank query, and every data source is the provisioned one. */
    List<String> queriesAndDatasources(String datasourceUid) {
        List<String> problems = new ArrayList<>();
        for (JsonNode p : panels()) {
            String title = "panel '" + p.path("title").asText() + "'";
            if (p.path("title").asText("").isBlank()) {
                problems.add("a panel has no title");
            }
            checkDatasource(p.get("datasource"), title, datasourceUid, problems);
            JsonNode targets = p.path("targets");
            if (!targets.isArray() || targets.isEmpty()) {
                problems.add(title + ": no query");
                continue;
            }
            for (JsonNode t : targets) {
                if (t.path("expr").asText("").isBlank()) {
                    problems.add(title + " target " + t.path("refId").asText() + ": empty expr");
                }
                if (t.has("datasource")) {
                    checkDatasource(
                            t.get("datasource"),
                            title + " target " + t.path("refId").asText(),
                            datasourceUid,
                            problems);
                } else if (p.get("datasource") == null) {
                    problems.add(title + ": neither the panel nor the target names a data source");
                }
            }
        }
        return problems;
    }

    private static void checkDatasource(JsonNode ds, String where, String uid, List<String> problems) {
        if (ds == null || ds.isNull()) {
            return;
        }
        String actual = ds.isTextual() ? ds.asText() : ds.path("uid").asText("");
        if (!uid.equals(actual)) {
            problems.add(where + ": data source uid '" + actual + "' is not the provisioned '" + uid + "'");
        }
        if (ds.isObject() && !ds.path("type").asText("prometheus").equals("prometheus")) {
            problems.add(
                    where + ": data source type " + ds.path("type").asText() + " (the provisioned one is prometheus)");
        }
    }

    /**
     * Every metric named in a query exists (see class comment); labels used with a Vigil meter are its tags
     * or target labels ({@code le} only for buckets).
     */
    List<String> metrics(MeterCatalog catalog, Set<String> targetLabels, boolean kafkaBinderBound) {
        return metrics(catalog, targetLabels, kafkaBinderBound, Set.of());
    }

    /** @param boundBinders simple names of the Micrometer binders the sources bind ({@code new JvmMemoryMetrics()} …) */
    List<String> metrics(
            MeterCatalog catalog, Set<String> targetLabels, boolean kafkaBinderBound, Set<String> boundBinders) {
        List<String> problems = new ArrayList<>();
        Map<String, List<MeterCatalog.Meter>> series = catalog.seriesNames();
        for (JsonNode p : panels()) {
            for (JsonNode t : p.path("targets")) {
                String expr = t.path("expr").asText("");
                String where = "panel '" + p.path("title").asText() + "' "
                        + t.path("refId").asText() + ": ";
                Set<String> names = metricNames(expr);
                if (names.isEmpty()) {
                    problems.add(where + "names no metric: " + expr);
                }
                List<MeterCatalog.Meter> meters = new ArrayList<>();
                boolean onlyVigil = true;
                for (String n : names) {
                    if (n.startsWith("vigil_")) {
                        List<MeterCatalog.Meter> m = series.get(n);
                        if (m == null) {
                            problems.add(where + n + " is not produced by any meter registered in the sources"
                                    + hint(n, series.keySet()));
                        } else {
                            meters.addAll(m);
                        }
                    } else {
                        onlyVigil = false;
                        if (n.startsWith("kafka_")) {
                            if (!KAFKA_CLIENT_SERIES.contains(n)) {
                                problems.add(where + n + " is not a known Kafka client series "
                                        + new TreeSet<>(KAFKA_CLIENT_SERIES));
                            } else if (!kafkaBinderBound) {
                                problems.add(
                                        where + n + ": no service binds KafkaClientMetrics or KafkaStreamsMetrics");
                            }
                        } else if (JVM_SERIES.containsKey(n)) {
                            if (!boundBinders.contains(JVM_SERIES.get(n))) {
                                problems.add(where + n + ": no service binds " + JVM_SERIES.get(n));
                            }
                        } else if (!PROMETHEUS_SERIES.contains(n)) {
                            problems.add(where + n
                                    + " is neither a Vigil meter, a Kafka client series nor a Prometheus series");
                        }
                    }
                }
                if (onlyVigil && !meters.isEmpty() && meters.stream().noneMatch(MeterCatalog.Meter::tagsOpen)) {
                    Set<String> allowed = new HashSet<>(targetLabels);
                    meters.forEach(m -> allowed.addAll(m.tags()));
                    if (names.stream().anyMatch(n -> n.endsWith("_bucket"))) {
                        allowed.add("le");
                    }
                    for (String label : labels(expr)) {
                        if (!allowed.contains(label)) {
                            problems.add(where + "label '" + label + "' is neither a tag of " + names
                                    + " nor a target label; allowed " + new TreeSet<>(allowed));
                        }
                    }
                }
            }
        }
        return problems;
    }

    private static String hint(String name, Set<String> known) {
        String stem = name.replaceAll("_(total|count|sum|max|bucket|seconds)$", "");
        List<String> close = known.stream()
                .filter(k -> k.startsWith(stem.substring(0, Math.min(stem.length(), 12))))
                .limit(6)
                .toList();
        return close.isEmpty() ? "" : " (similar: " + close + ")";
    }

    /**
     * The declarations of the PromQL name reading that {@code vigil check-dashboard} has a copy of
     * ({@code dev.vigil.standalone.dashboard.DashboardQueries}: this module depends on no Vigil artifact, so it cannot
     * share the class); {@link #sameNameReading} keeps the two alike.
     */
    static final List<String> NAME_READING =
            List.of("GRAFANA_VAR", "STRING", "IDENT", "SELECTOR", "GROUPING", "PROMQL_WORDS", "metricNames", "clean");

    /**
     * Each {@link #NAME_READING} declaration of {@code other} (comment-free source) against the one in {@code mine}:
     * from its {@code static} keyword to its {@code ;} or closing brace, whitespace collapsed.
     */
    static List<String> sameNameReading(String mine, String other, String otherName) {
        List<String> problems = new ArrayList<>();
        for (String member : NAME_READING) {
            String a = declaration(mine, member);
            String b = declaration(other, member);
            if (a == null || !a.equals(b)) {
                problems.add(otherName + ": " + member
                        + (b == null ? " is not declared" : " differs from DashboardChecks':\n  " + b + "\n  " + a));
            }
        }
        return problems;
    }

    private static String declaration(String code, String member) {
        Matcher m = Pattern.compile("\\bstatic\\s[^=;(){}]*\\b" + member + "\\s*([=(])")
                .matcher(code);
        if (!m.find()) {
            return null;
        }
        int end;
        if (m.group(1).equals("=")) {
            end = m.end();
            while (end < code.length() && code.charAt(end) != ';') {
                char c = code.charAt(end);
                int next = c == '"' || c == '\''
                        ? JavaText.literalEnd(code, end)
                        : c == '(' ? JavaText.closing(code, end) + 1 : end + 1;
                if (next <= end) {
                    return null;
                }
                end = next;
            }
        } else {
            int params = JavaText.closing(code, m.end() - 1);
            int body = params < 0 ? -1 : code.indexOf('{', params);
            end = body < 0 ? -1 : JavaText.closing(code, body);
            if (end < 0) {
                return null;
            }
        }
        return code.substring(m.start(), end + 1).replaceAll("\\s+", " ");
    }

    /** Metric names in a PromQL expression: identifiers that are not functions, keywords or labels. */
    static Set<String> metricNames(String expr) {
        String e = clean(expr);
        e = SELECTOR.matcher(e).replaceAll("{}");
        e = GROUPING.matcher(e).replaceAll(" ");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = IDENT.matcher(e);
        while (m.find()) {
            String id = m.group(1);
            int after = m.end();
            while (after < e.length() && e.charAt(after) == ' ') {
                after++;
            }
            boolean call = after < e.length() && e.charAt(after) == '(';
            if (call || PROMQL_WORDS.contains(id) || id.matches("\\d.*")) {
                continue;
            }
            out.add(id);
        }
        return out;
    }

    /** Label names matched in selectors or named in by/without/on/ignoring clauses. */
    static Set<String> labels(String expr) {
        String e = clean(expr);
        Set<String> out = new LinkedHashSet<>();
        Matcher sel = SELECTOR.matcher(e);
        while (sel.find()) {
            Matcher l = MATCHER_LABEL.matcher(sel.group(1));
            while (l.find()) {
                if (!l.group(1).equals("__name__")) {
                    out.add(l.group(1));
                }
            }
        }
        Matcher g = GROUPING.matcher(e);
        while (g.find()) {
            for (String l : g.group(2).split(",")) {
                if (!l.isBlank()) {
                    out.add(l.strip());
                }
            }
        }
        return out;
    }

    /** Grafana variables become a duration, string literals become empty (their content is not a name). */
    private static String clean(String expr) {
        String e = GRAFANA_VAR.matcher(expr).replaceAll("5m");
        Matcher s = STRING.matcher(e);
        StringBuilder sb = new StringBuilder();
        while (s.find()) {
            s.appendReplacement(sb, "\"\"");
        }
        s.appendTail(sb);
        // Range and offset durations: [5m], offset 1h.
        return sb.toString().replaceAll("\\[[^\\]]*]", "[]").replaceAll("\\boffset\\s+\\w+", " ");
    }

    private static final Set<String> PROMQL_WORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "inf",
            "nan",
            "Inf",
            "NaN");

    List<JsonNode> panels() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : allPanels()) {
            if (!p.path("type").asText().equals("row")) {
                out.add(p);
            }
        }
        return out;
    }

    /** Top-level panels and panels nested in collapsed rows. */
    List<JsonNode> allPanels() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            out.add(p);
            p.path("panels").forEach(out::add);
        }
        return out;
    }

    /** Titles, for the "panels the issue asks for" check. */
    List<String> titles() {
        return panels().stream().map(p -> p.path("title").asText()).toList();
    }
}
