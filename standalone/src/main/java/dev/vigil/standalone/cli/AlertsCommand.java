package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vigil alerts}: incidents of every source (monitors, metric rules, workers, Vigil itself, apps, Alertmanager,
 * the notifier) from every Streams instance; {@code vigil alerts --timeline FINGERPRINT}: one incident, line by line.
 */
@Command(
        name = "alerts",
        mixinStandardHelpOptions = true,
        description = "List incidents of every source (open = firing or resolving) from the query API, or show one"
                + " incident's timeline.")
public final class AlertsCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    QueryOptions query;

    @Option(
            names = "--state",
            defaultValue = "open",
            description = "open, firing, resolving, healthy or all (default: ${DEFAULT-VALUE}).")
    String state;

    @Option(
            names = "--timeline",
            paramLabel = "FINGERPRINT",
            description = "Show this incident's timeline: its events, each page per channel with its outcome,"
                    + " acknowledgements.")
    String timeline;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (timeline != null) {
            String path = "/v1/alerts/" + URLEncoder.encode(timeline, StandardCharsets.UTF_8) + "/timeline";
            return query.answer(spec, query.client().get(path), body -> printTimeline(out, body));
        }
        return query.answer(spec, query.client().get("/v1/alerts?state=" + state), body -> {
            JsonNode alerts = body.path("alerts");
            out.printf(
                    "%-40s %-12s %-10s %-9s %-5s %-20s %s%n",
                    "FINGERPRINT", "SOURCE", "STATE", "SEVERITY", "SEEN", "SINCE (UTC)", "SUMMARY");
            for (JsonNode a : alerts) {
                out.printf(
                        "%-40s %-12s %-10s %-9s %-5d %-20s %s%s%n",
                        a.path("fingerprint").asText(),
                        a.path("origin").asText("?"),
                        a.path("phase").asText("?"),
                        a.path("severity").asText("?"),
                        a.path("occurrences").asInt(),
                        a.hasNonNull("firstSeen")
                                ? Instant.ofEpochMilli(a.get("firstSeen").asLong())
                                        .toString()
                                        .substring(0, 19)
                                : "-",
                        a.path("summary").asText(""),
                        (a.path("silenced").asBoolean() ? " (silenced)" : "")
                                + (a.hasNonNull("acknowledgedBy")
                                        ? " (acknowledged by "
                                                + a.get("acknowledgedBy").asText() + ")"
                                        : ""));
            }
            out.printf("%d alert(s) in state %s%n", alerts.size(), state);
        });
    }

    private static void printTimeline(PrintWriter out, JsonNode body) {
        out.printf(
                "%s (%s), incident %s%n",
                body.path("fingerprint").asText(),
                body.path("origin").asText(),
                body.path("incidentId").asText());
        if (body.hasNonNull("acknowledged")) {
            out.printf(
                    "acknowledged by %s%n", body.path("acknowledged").path("by").asText());
        }
        for (JsonNode e : body.path("entries")) {
            String what =
                    switch (e.path("kind").asText()) {
                        case "page" -> e.path("state").asText("page") + " -> "
                                + e.path("channel").asText() + ": "
                                + e.path("outcome").asText()
                                + (e.path("attempts").asInt() > 1
                                        ? " after " + e.path("attempts").asInt() + " attempts"
                                        : "");
                        case "acknowledged", "unacknowledged" -> e.path("kind").asText() + " by "
                                + e.path("by").asText("?");
                        default -> e.path("kind").asText();
                    };
            String detail = e.hasNonNull("detail") ? " - " + e.get("detail").asText() : "";
            String quiet = e.path("silenced").asBoolean() ? " (silenced)" : "";
            out.printf(
                    "%s  %s%s%s%n", Instant.ofEpochMilli(e.path("at").asLong()).toString(), what, quiet, detail);
        }
        out.printf("%d line(s)%n", body.path("entries").size());
    }
}
