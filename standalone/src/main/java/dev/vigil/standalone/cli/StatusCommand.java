package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code vigil status}: every monitor's latest verdict (and open alert) from the query API. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show every monitor's latest status and alert, from any query API instance.")
public final class StatusCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    QueryOptions query;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        return query.answer(spec, query.client().get("/v1/status"), body -> {
            JsonNode monitors = body.path("monitors");
            out.printf("%-32s %-9s %-9s %-20s %-9s %s%n", "MONITOR", "TYPE", "STATUS", "WINDOW (UTC)", "REGIONS", "ALERT");
            for (JsonNode m : monitors) {
                JsonNode alert = m.path("alert");
                String alertText = alert.isMissingNode() || alert.isNull() ? "-"
                        : alert.path("state").asText("?") + " " + alert.path("severity").asText("");
                String by = alert.path("acknowledgedBy").asText("");
                out.printf("%-32s %-9s %-9s %-20s %-9s %s%n",
                        m.path("monitorId").asText(),
                        m.path("type").asText("http"),
                        m.path("status").asText("pending"),
                        m.hasNonNull("windowStart") ? Instant.ofEpochMilli(m.get("windowStart").asLong()).toString().substring(0, 19) : "-",
                        m.path("missingRegions").size() == 0 ? (m.has("status") ? "all" : "-") : "missing " + m.path("missingRegions").size(),
                        (alertText.strip() + (by.isEmpty() ? "" : " (acknowledged by " + by + ")")));
            }
            JsonNode counts = body.path("counts");
            out.printf("%d monitors: %d up, %d degraded, %d down, %d unknown, %d pending%n", monitors.size(),
                    counts.path("up").asLong(), counts.path("degraded").asLong(), counts.path("down").asLong(),
                    counts.path("unknown").asLong(), counts.path("pending").asLong());
        });
    }
}
