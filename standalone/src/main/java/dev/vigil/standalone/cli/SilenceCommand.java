package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
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

/**
 * {@code vigil silence add|list|expire}: silences and maintenance windows through the query API. A recurring
 * maintenance window is {@code add --every mon,thu --at 02:00 --for 1h --zone Europe/Paris [--until ISO]}: the series
 * starts now (or at --starts-at) and ends at --until, by default after the 366-day maximum of a silence.
 */
@Command(
        name = "silence",
        mixinStandardHelpOptions = true,
        description = "Create, list and expire silences (alerts they match are recorded, not paged).",
        subcommands = {SilenceCommand.Add.class, SilenceCommand.List.class, SilenceCommand.Expire.class})
public final class SilenceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = {
                "Silence the alerts matching every given matcher, from now (or --starts-at) for --duration or until --ends-at.",
                "With --every, a weekly maintenance window instead: on those days at --at local time in --zone for --for, "
                        + "from now (or --starts-at) until --until (default: 366 days, the longest a silence may last). "
                        + "An occurrence already under way when the series starts is not included."
            })
    static final class Add implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(
                names = "--fingerprint",
                paramLabel = "GLOB",
                description =
                        "Alert fingerprint or glob, e.g. monitor/checkout-api, monitor/checkout-*, worker/us-east/*.")
        String fingerprint;

        @Option(names = "--service", paramLabel = "S", description = "The alert's service, exactly.")
        String service;

        @Option(
                names = "--attribute",
                paramLabel = "KEY=VALUE",
                description = "An attribute that must match exactly (repeatable).")
        Map<String, String> attributes = new LinkedHashMap<>();

        @Option(
                names = "--duration",
                paramLabel = "DURATION",
                description = "How long: 90m, 2h, 1d, 1h30m or ISO-8601 (PT2H).")
        String duration;

        @Option(
                names = "--ends-at",
                paramLabel = "ISO",
                description = "When it ends, an ISO-8601 instant such as 2026-12-01T06:00:00Z.")
        String endsAt;

        @Option(names = "--starts-at", paramLabel = "ISO", description = "When it starts (default: now).")
        String startsAt;

        @Option(
                names = "--every",
                paramLabel = "DAYS",
                description = "Recur weekly on these days, e.g. mon,thu or mon,tue,wed,thu,fri (a maintenance window).")
        String every;

        @Option(
                names = "--at",
                paramLabel = "HH:MM",
                description = "With --every: the local start time, e.g. 02:00 (24-hour).")
        String at;

        @Option(
                names = "--for",
                paramLabel = "DURATION",
                description = "With --every: how long each occurrence lasts, " + "e.g. 30m, 1h, 1h30m (at most 24h).")
        String forDuration;

        @Option(
                names = "--zone",
                paramLabel = "ZONE",
                description = "With --every: the IANA time zone of --at and the days, " + "e.g. Europe/Paris or UTC.")
        String zone;

        @Option(
                names = "--until",
                paramLabel = "ISO",
                description = "With --every: when the series ends, an ISO-8601 instant "
                        + "(default: 366 days after its start).")
        String until;

        @Option(
                names = "--author",
                description = "Free text kept as the silence's comment; the author recorded is "
                        + "the name of the token used.")
        String author;

        @Option(names = "--reason", required = true, description = "Why (shown with every silenced alert).")
        String reason;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            if (fingerprint == null && service == null && attributes.isEmpty()) {
                err.println(
                        "error: give at least one matcher: --fingerprint, --service or --attribute (--fingerprint '*' silences everything)");
                return ExitCode.CONFIG.code();
            }
            if (every == null && (at != null || forDuration != null || zone != null || until != null)) {
                err.println("error: --at, --for, --zone and --until describe a recurring window: give --every too");
                return ExitCode.CONFIG.code();
            }
            if (every != null) {
                if (duration != null || endsAt != null) {
                    err.println(
                            "error: with --every, the series ends at --until (default: after 366 days); "
                                    + "--duration and --ends-at are for one-off silences (the length of each occurrence is --for)");
                    return ExitCode.CONFIG.code();
                }
                if (at == null || forDuration == null || zone == null) {
                    err.println(
                            "error: with --every, give --at, --for and --zone (e.g. --at 02:00 --for 1h --zone Europe/Paris)");
                    return ExitCode.CONFIG.code();
                }
            } else if ((duration == null) == (endsAt == null)) {
                err.println("error: give exactly one of --duration or --ends-at");
                return ExitCode.CONFIG.code();
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
                if (every != null) {
                    body.put("schedule", scheduleRequest(every, at, forDuration, zone));
                    if (until != null) {
                        body.put("endsAt", instant("--until", until));
                    } else {
                        body.put("durationMinutes", Silence.MAX_DURATION_MS / 60_000); // the longest series allowed
                    }
                } else if (duration != null) {
                    body.put("durationMinutes", minutes(duration));
                } else {
                    body.put("endsAt", instant("--ends-at", endsAt));
                }
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage());
                return ExitCode.CONFIG.code();
            }
            if (author != null) {
                body.put("author", author);
            }
            body.put("reason", reason);
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(spec, query.client().post("/v1/silences", body), s -> {
                out.printf(
                        "silence %s created (%s): %s, %s until %s%s%n",
                        s.path("id").asText(),
                        s.path("state").asText(),
                        matchers(s),
                        time(s.path("startsAt")),
                        time(s.path("endsAt")),
                        s.hasNonNull("schedule") ? ", every " + schedule(s.path("schedule")) : "");
            });
        }

        /**
         * The {@code schedule} member of the request, checked here with the server's own rules so a typo is caught before
         * the call; problems name the option.
         */
        static Map<String, Object> scheduleRequest(String every, String at, String forDuration, String zone) {
            java.util.List<String> days = new ArrayList<>();
            for (String day : every.split(",", -1)) {
                days.add(day.trim().toLowerCase(Locale.ROOT));
            }
            long length = minutes("--for", forDuration);
            if (length > Schedule.MAX_DURATION_MINUTES) {
                throw new IllegalArgumentException("--for must be at most 24h");
            }
            Schedule checked;
            try {
                checked = new Schedule(days, at.trim(), (int) length, zone.trim());
            } catch (ContractViolation e) {
                String option =
                        switch (e.field().replaceAll("\\[.*", "")) {
                            case "days" -> "--every";
                            case "at" -> "--at";
                            case "durationMinutes" -> "--for";
                            default -> "--zone";
                        };
                throw new IllegalArgumentException(option + ": " + e.problem());
            }
            Map<String, Object> schedule = new LinkedHashMap<>();
            schedule.put("days", checked.days());
            schedule.put("at", checked.at());
            schedule.put("durationMinutes", checked.durationMinutes());
            schedule.put("zone", checked.zone());
            return schedule;
        }

        /** A whole number of minutes from {@code 90m}, {@code 2h}, {@code 1d}, {@code 1h30m} or {@code PT2H}. */
        static long minutes(String text) {
            return minutes("--duration", text);
        }

        /** {@link #minutes(String)} for the option {@code option} (named in the error). */
        static long minutes(String option, String text) {
            String t = text.trim().toUpperCase(Locale.ROOT);
            Duration d;
            try {
                if (t.startsWith("P")) {
                    d = Duration.parse(t);
                } else if (t.matches("(\\d+D)?(\\d+H)?(\\d+M)?") && !t.isEmpty()) {
                    int day = t.indexOf('D');
                    String rest = day < 0 ? t : t.substring(day + 1);
                    d = Duration.parse(
                            (day < 0 ? "P" : "P" + t.substring(0, day + 1)) + (rest.isEmpty() ? "" : "T" + rest));
                } else {
                    throw new DateTimeParseException("", t, 0);
                }
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        option + " must look like 90m, 2h, 1d, 1h30m or PT2H, not '" + text + "'");
            }
            if (d.isNegative() || d.isZero() || d.toSeconds() % 60 != 0) {
                throw new IllegalArgumentException(option + " must be a positive whole number of minutes");
            }
            return d.toMinutes();
        }

        static String instant(String option, String text) {
            try {
                return Instant.parse(text.trim()).toString();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        option + " must be an ISO-8601 instant such as 2026-12-01T06:00:00Z, not '" + text + "'");
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List silences.")
    static final class List implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(
                names = "--state",
                defaultValue = "active",
                description = "active, pending, expired or all (default: ${DEFAULT-VALUE}).")
        String state;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(
                    spec,
                    query.client().get("/v1/silences?state=" + URLEncoder.encode(state, StandardCharsets.UTF_8)),
                    body -> {
                        JsonNode silences = body.path("silences");
                        // SCHEDULE is blank for a one-off silence; for a series, STARTS and ENDS bound the whole series
                        out.printf(
                                "%-36s %-8s %-20s %-20s %-36s %-18s %-40s %s%n",
                                "ID",
                                "STATE",
                                "STARTS (UTC)",
                                "ENDS (UTC)",
                                "SCHEDULE",
                                "AUTHOR",
                                "MATCHERS",
                                "REASON");
                        for (JsonNode s : silences) {
                            out.printf(
                                    "%-36s %-8s %-20s %-20s %-36s %-18s %-40s %s%n",
                                    s.path("id").asText(),
                                    s.path("state").asText("?"),
                                    time(s.path("startsAt")),
                                    time(s.path("endsAt")),
                                    s.hasNonNull("schedule") ? schedule(s.path("schedule")) : "",
                                    s.path("author").asText(),
                                    matchers(s),
                                    s.path("reason").asText());
                        }
                        out.printf("%d silence(s) in state %s%n", silences.size(), state);
                    });
        }
    }

    @Command(
            name = "expire",
            mixinStandardHelpOptions = true,
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
            return query.answer(
                    spec, query.client().delete("/v1/silences/" + URLEncoder.encode(id, StandardCharsets.UTF_8)), s -> {
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
        s.path("attributes")
                .fields()
                .forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(",", parts);
    }

    /** {@code mon,thu 02:00 for 1h30m (Europe/Paris)}. */
    static String schedule(JsonNode schedule) {
        java.util.List<String> days = new ArrayList<>();
        schedule.path("days").forEach(d -> days.add(d.asText()));
        long minutes = schedule.path("durationMinutes").asLong();
        String length = (minutes >= 60 ? minutes / 60 + "h" : "")
                + (minutes % 60 != 0 || minutes < 60 ? minutes % 60 + "m" : "");
        return String.join(",", days) + " " + schedule.path("at").asText() + " for " + length + " ("
                + schedule.path("zone").asText() + ")";
    }

    static String time(JsonNode epochMs) {
        return epochMs.canConvertToLong() && !epochMs.isMissingNode() && !epochMs.isNull()
                ? Instant.ofEpochMilli(epochMs.asLong()).toString().substring(0, 19)
                : "-";
    }
}
