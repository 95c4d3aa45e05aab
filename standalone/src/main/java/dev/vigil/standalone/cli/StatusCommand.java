package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code vigil status}: every monitor's latest verdict (and open alert) from the query API, asked a page at a time
 * ({@link #PAGE_SIZE}) so that a fleet of any size is many small answers; printed as one list, as before paging.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show every monitor's latest status and alert, from any query API instance.")
public final class StatusCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    QueryOptions query;

    /** Monitors asked for per request: some 300 KB of JSON, so 100,000 monitors are 100 answers none of them large. */
    static final int PAGE_SIZE = 1_000;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        return query.answer(spec, fetch(query.client()), body -> {
            JsonNode monitors = body.path("monitors");
            out.printf(
                    "%-32s %-9s %-9s %-20s %-9s %s%n", "MONITOR", "TYPE", "STATUS", "WINDOW (UTC)", "REGIONS", "ALERT");
            for (JsonNode m : monitors) {
                JsonNode alert = m.path("alert");
                String alertText = alert.isMissingNode() || alert.isNull()
                        ? "-"
                        : alert.path("state").asText("?") + " "
                                + alert.path("severity").asText("");
                String by = alert.path("acknowledgedBy").asText("");
                out.printf(
                        "%-32s %-9s %-9s %-20s %-9s %s%n",
                        m.path("monitorId").asText(),
                        m.path("type").asText("http"),
                        m.path("status").asText("pending"),
                        m.hasNonNull("windowStart")
                                ? Instant.ofEpochMilli(m.get("windowStart").asLong())
                                        .toString()
                                        .substring(0, 19)
                                : "-",
                        m.path("missingRegions").size() == 0
                                ? (m.has("status") ? "all" : "-")
                                : "missing " + m.path("missingRegions").size(),
                        (alertText.strip() + (by.isEmpty() ? "" : " (acknowledged by " + by + ")")));
            }
            JsonNode counts = body.path("counts");
            out.printf(
                    "%d monitors: %d up, %d degraded, %d down, %d unknown, %d pending%n",
                    monitors.size(),
                    counts.path("up").asLong(),
                    counts.path("degraded").asLong(),
                    counts.path("down").asLong(),
                    counts.path("unknown").asLong(),
                    counts.path("pending").asLong());
        });
    }

    /**
     * Every page of {@code /v1/status}, following {@code next} until an answer has none, joined into the shape of the
     * one-answer list: the first page's {@code generatedAt} and {@code instances}, every page's monitors in order, the
     * pages' {@code counts} added up, no {@code next}. The first answer that is not a success is the result (each read
     * is already asked again while it is transient), so a list is printed whole or not at all. A server that does not
     * page answers everything at once without {@code next}: that is the one page.
     */
    static QueryClient.Reply fetch(QueryClient client) {
        ObjectNode whole = null;
        String cursor = null;
        while (true) {
            QueryClient.Reply reply = client.get("/v1/status?limit=" + PAGE_SIZE
                    + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
            if (!reply.ok() || !(reply.body() instanceof ObjectNode page)) {
                return reply;
            }
            JsonNode next = page.remove("next");
            if (whole == null) {
                whole = page;
            } else {
                ArrayNode monitors = whole.withArray("monitors");
                page.path("monitors").forEach(monitors::add);
                ObjectNode counts = whole.withObject("counts");
                page.path("counts")
                        .properties()
                        .forEach(c -> counts.put(
                                c.getKey(),
                                counts.path(c.getKey()).asLong() + c.getValue().asLong()));
            }
            if (next == null || !next.isTextual()) {
                return new QueryClient.Reply(reply.status(), whole);
            }
            if (next.asText().equals(cursor)) {
                // a server that does not move on would be asked for ever
                throw new IllegalStateException(
                        "the query API answered the same page cursor twice; the list is incomplete");
            }
            cursor = next.asText();
        }
    }
}
