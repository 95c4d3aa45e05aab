package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vigil silence add|list|expire}: silences and maintenance windows through the query API. */
@Command(name = "silence", mixinStandardHelpOptions = true,
        description = "Create, list and expire silences (alerts they match are recorded, not paged).",
        subcommands = {SilenceCommand.Add.class, SilenceCommand.List.class, SilenceCommand.Expire.class})
public final class SilenceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Silence the alerts matching every given matcher, from now (or --starts-at) for --duration or until --ends-at.")
    static final class Add implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(names = "--fingerprint", paramLabel = "GLOB",
                description = "Alert fingerprint or glob, e.g. monitor/checkout-api, monitor/checkout-*, worker/us-east/*.")
        String fingerprint;

        @Option(names = "--service", paramLabel = "S", description = "The alert's service, exactly.")
        String service;

        @Option(names = "--attribute", paramLabel = "KEY=VALUE", description = "An attribute that must match exactly (repeatable).")
        Map<String, String> attributes = new LinkedHashMap<>();

        @Option(names = "--duration", paramLabel = "DURATION", description = "How long: 90m, 2h, 1d, 1h30m or ISO-8601 (PT2H).")
        String duration;

        @Option(names = "--ends-at", paramLabel = "ISO", description = "When it ends, an ISO-8601 instant such as 2026-12-01T06:00:00Z.")
        String endsAt;

        @Option(names = "--starts-at", paramLabel = "ISO", description = "When it starts (default: now).")
        String startsAt;

        @Option(names = "--author", description = "Free text kept as the silence's comment; the author recorded is "
                + "the name of the token used.")
        String author;

        @Option(names = "--reason", required = true, description = "Why (shown with every silenced alert).")
        String reason;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            if (fingerprint == null && service == null && attributes.isEmpty()) {
                err.println("error: give at least one matcher: --fingerprint, --service or --attribute (--fingerprint '*' silences everything)");
                return 2;
            }
            if ((duration == null) == (endsAt == null)) {
                err.println("error: give exactly one of --duration or --ends-at");
                return 2;
            }
            Map<String, Object> body = new LinkedHashMap<>();
            if (fingerprint != null) {
                body.put("fingerprint", fingerprint);
            }
            if (service != null) {
                body.put("service", service);
            }
            if (!attributes.isEmpty()) {
                body.put("attributes", attributes);
            }
            try {
                if (startsAt != null) {
                    body.put("startsAt", instant("--starts-at", startsAt));
                }
                if (duration != null) {
                    body.put("durationMinutes", minutes(duration));
                } else {
                    body.put("endsAt", instant("--ends-at", endsAt));
                }
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage());
                return 2;
            }
            if (author != null) {
                body.put("author", author);
            }
            body.put("reason", reason);
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(spec, query.client().post("/v1/silences", body), s -> {
                out.printf("silence %s created (%s): %s, %s until %s%n", s.path("id").asText(), s.path("state").asText(),
                        matchers(s), time(s.path("startsAt")), time(s.path("endsAt")));
            });
        }

        /** A whole number of minutes from {@code 90m}, {@code 2h}, {@code 1d}, {@code 1h30m} or {@code PT2H}. */
        static long minutes(String text) {
            String t = text.trim().toUpperCase(Locale.ROOT);
            Duration d;
            try {
                if (t.startsWith("P")) {
                    d = Duration.parse(t);
                } else if (t.matches("(\\d+D)?(\\d+H)?(\\d+M)?") && !t.isEmpty()) {
                    int day = t.indexOf('D');
                    String rest = day < 0 ? t : t.substring(day + 1);
                    d = Duration.parse((day < 0 ? "P" : "P" + t.substring(0, day + 1)) + (rest.isEmpty() ? "" : "T" + rest));
                } else {
                    throw new DateTimeParseException("", t, 0);
                }
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("--duration must look like 90m, 2h, 1d, 1h30m or PT2H, not '" + text + "'");
            }
            if (d.isNegative() || d.isZero() || d.toSeconds() % 60 != 0) {
                throw new IllegalArgumentException("--duration must be a positive whole number of minutes");
            }
            return d.toMinutes();
        }

        static String instant(String option, String text) {
            try {
                return Instant.parse(text.trim()).toString();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(option + " must be an ISO-8601 instant such as 2026-12-01T06:00:00Z, not '"
                        + text + "'");
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List silences.")
    static final class List implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(names = "--state", defaultValue = "active",
                description = "active, pending, expired or all (default: ${DEFAULT-VALUE}).")
        String state;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(spec, query.client().get("/v1/silences?state=" + URLEncoder.encode(state, StandardCharsets.UTF_8)), body -> {
                JsonNode silences = body.path("silences");
                out.printf("%-36s %-8s %-20s %-20s %-12s %-40s %s%n", "ID", "STATE", "STARTS (UTC)", "ENDS (UTC)", "AUTHOR",
                        "MATCHERS", "REASON");
                for (JsonNode s : silences) {
                    out.printf("%-36s %-8s %-20s %-20s %-12s %-40s %s%n", s.path("id").asText(), s.path("state").asText("?"),
                            time(s.path("startsAt")), time(s.path("endsAt")), s.path("author").asText(), matchers(s),
                            s.path("reason").asText());
                }
                out.printf("%d silence(s) in state %s%n", silences.size(), state);
            });
        }
    }

    @Command(name = "expire", mixinStandardHelpOptions = true,
            description = "End a silence now (one that has not started yet is deleted).")
    static final class Expire implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Parameters(paramLabel = "ID", description = "The silence id (see vigil silence list).")
        String id;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(spec, query.client().delete("/v1/silences/" + URLEncoder.encode(id, StandardCharsets.UTF_8)), s -> {
                if ("deleted".equals(s.path("state").asText())) {
                    out.printf("silence %s deleted (it had not started)%n", id);
                } else {
                    out.printf("silence %s expired at %s%n", id, time(s.path("endsAt")));
                }
            });
        }
    }

    static String matchers(JsonNode s) {
        java.util.List<String> parts = new ArrayList<>();
        if (s.hasNonNull("fingerprint")) {
            parts.add("fingerprint=" + s.get("fingerprint").asText());
        }
        if (s.hasNonNull("service")) {
            parts.add("service=" + s.get("service").asText());
        }
        s.path("attributes").fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(",", parts);
    }

    static String time(JsonNode epochMs) {
        return epochMs.canConvertToLong() && !epochMs.isMissingNode() && !epochMs.isNull()
                ? Instant.ofEpochMilli(epochMs.asLong()).toString().substring(0, 19) : "-";
    }
}
