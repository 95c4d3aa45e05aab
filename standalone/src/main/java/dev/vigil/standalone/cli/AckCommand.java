package dev.vigil.standalone.cli;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vigil ack} and {@code vigil unack}: take an incident on (reminders stop), or give it back. */
public final class AckCommand {
    private AckCommand() {}

    static String path(String fingerprint) {
        return "/v1/alerts/" + URLEncoder.encode(fingerprint, StandardCharsets.UTF_8) + "/ack";
    }

    @Command(
            name = "ack",
            mixinStandardHelpOptions = true,
            description = {
                "Acknowledge an open incident: its reminders stop until it ends (or --until); an escalation "
                        + "still pages and ends the acknowledgement; the resolution is always sent.",
                "Example: vigil ack monitor/demo-outage --until 30m --comment 'looking at it'"
            })
    public static final class Ack implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Parameters(
                index = "0",
                paramLabel = "FINGERPRINT",
                description = "The incident's fingerprint (vigil alerts lists them).")
        String fingerprint;

        @Option(
                names = "--until",
                paramLabel = "WHEN",
                description =
                        "How long: a duration such as 30m, 2h, 1d, or an ISO-8601 instant (default: the end of the incident).")
        String until;

        @Option(names = "--comment", description = "Free text shown with the acknowledgement.")
        String comment;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Map<String, Object> body = new LinkedHashMap<>();
            if (until != null) {
                body.put("until", until);
            }
            if (comment != null) {
                body.put("comment", comment);
            }
            return query.answer(
                    spec,
                    query.client().post(path(fingerprint), body),
                    a -> out.printf(
                            "%s acknowledged by %s%s%n",
                            a.path("fingerprint").asText(),
                            a.path("acknowledgedBy").asText(),
                            a.hasNonNull("acknowledgedUntil")
                                    ? " until "
                                            + Instant.ofEpochMilli(a.get("acknowledgedUntil")
                                                            .asLong())
                                                    .toString()
                                                    .substring(0, 19)
                                            + " UTC"
                                    : " until it ends"));
        }
    }

    @Command(
            name = "unack",
            mixinStandardHelpOptions = true,
            description = "Remove the acknowledgement of an incident: reminders resume at once if one is due.")
    public static final class Unack implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Parameters(index = "0", paramLabel = "FINGERPRINT", description = "The incident's fingerprint.")
        String fingerprint;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(
                    spec,
                    query.client().delete(path(fingerprint)),
                    a -> out.printf(
                            "%s is no longer acknowledged%n",
                            a.path("fingerprint").asText()));
        }
    }
}
