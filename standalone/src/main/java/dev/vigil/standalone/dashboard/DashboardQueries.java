package dev.vigil.standalone.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PromQL queries of a Grafana dashboard (the JSON model, as provisioned from docker/grafana/dashboards) and
 * the metric names each one selects.
 *
 * <p>The extraction is the one the docker module's source check uses ({@code dev.vigil.docker.DashboardChecks},
 * a test-only module that on purpose depends on no Vigil artifact, so it keeps its own copy): Grafana variables
 * become a duration, string literals and range or offset durations are dropped, label matchers and
 * {@code by/without/on/ignoring/group_*} lists are removed, and what is left is a metric name unless a
 * {@code (} follows it (a function or aggregation) or it is a PromQL keyword. Change both together: the docker
 * module's {@code DashboardTest} fails when the two copies differ.
 */
public final class DashboardQueries {
    /** One query of one panel, with the metric names it selects (in the order they appear). */
    public record Query(String panel, String refId, String expr, Set<String> metrics) {
        /** {@code panel 'Title' (A)}: how a report names the query. */
        public String where() {
            return "panel '" + panel + "' (" + refId + ")";
        }
    }

    private static final Pattern GRAFANA_VAR = Pattern.compile("\\$\\{[^}]*}|\\$__\\w+|\\$\\w+");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern IDENT = Pattern.compile("(?<![\\w:.\\[])([a-zA-Z_:][a-zA-Z0-9_:]*)");
    private static final Pattern SELECTOR = Pattern.compile("\\{([^}]*)}");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
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

    private final String title;
    private final List<Query> queries;

    private DashboardQueries(String title, List<Query> queries) {
        this.title = title;
        this.queries = List.copyOf(queries);
    }

    /**
     * Reads a dashboard file: an unreadable file or one that is not JSON is an {@link IOException}, JSON that is not a
     * dashboard (no {@code panels}) an {@link IllegalArgumentException}.
     */
    public static DashboardQueries read(Path file) throws IOException {
        return of(new ObjectMapper().readTree(Files.readAllBytes(file)));
    }

    /**
     * The queries of every panel, those in collapsed rows included (hidden ones too: Grafana still runs a query an
     * expression refers to); a target with an empty {@code expr} is left out.
     */
    public static DashboardQueries of(JsonNode dashboard) {
        // an export made with "share externally" or the HTTP API wraps the model in {"dashboard": ...}
        JsonNode d = dashboard.has("dashboard") && !dashboard.has("panels") ? dashboard.get("dashboard") : dashboard;
        if (!d.path("panels").isArray()) {
            throw new IllegalArgumentException("not a Grafana dashboard: no \"panels\" array");
        }
        List<Query> out = new ArrayList<>();
        for (JsonNode p : d.path("panels")) {
            addQueries(p, out);
            p.path("panels").forEach(nested -> addQueries(nested, out));
        }
        return new DashboardQueries(d.path("title").asText(""), out);
    }

    private static void addQueries(JsonNode panel, List<Query> out) {
        for (JsonNode t : panel.path("targets")) {
            String expr = t.path("expr").asText("");
            if (expr.isBlank()) {
                continue;
            }
            out.add(new Query(panel.path("title").asText(""), t.path("refId").asText("?"), expr, metricNames(expr)));
        }
    }

    public String title() {
        return title;
    }

    public List<Query> queries() {
        return queries;
    }

    /** Every metric name any query selects, in the order of first appearance. */
    public Set<String> metrics() {
        Set<String> all = new LinkedHashSet<>();
        queries.forEach(q -> all.addAll(q.metrics()));
        return all;
    }

    /** Metric names in a PromQL expression: identifiers that are not functions, keywords or labels. */
    public static Set<String> metricNames(String expr) {
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
}
