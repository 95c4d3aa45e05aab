package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil alerts}: alert states from every Streams instance. */
@Command(
        name = "alerts",
        mixinStandardHelpOptions = true,
        description = "List alert states (open = firing or resolving) from the query API.")
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

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        return query.answer(spec, query.client().get("/v1/alerts?state=" + state), body -> {
            JsonNode alerts = body.path("alerts");
            out.printf(
                    "%-40s %-10s %-9s %-5s %-20s %s%n",
                    "FINGERPRINT", "STATE", "SEVERITY", "SEEN", "SINCE (UTC)", "SUMMARY");
            for (JsonNode a : alerts) {
                out.printf(
                        "%-40s %-10s %-9s %-5d %-20s %s%s%n",
                        a.path("fingerprint").asText(),
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
}
