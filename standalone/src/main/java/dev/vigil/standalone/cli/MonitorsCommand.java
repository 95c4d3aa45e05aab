package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.standalone.monitors.MonitorsFile;
import dev.vigil.streams.api.HeartbeatTokens;
import dev.vigil.streams.api.RegionCheck;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vigil monitors apply|diff|export|delete}: the monitor catalogue through the query API's management
 * endpoints (docs/monitors.md#publishing-monitors), with the token of the other API commands. The API checks and publishes
 * (every monitor or none, audited under the token's name); this command reads the file, shows the plan and prints a
 * new heartbeat token once.
 */
@Command(
        name = "monitors",
        mixinStandardHelpOptions = true,
        description = "Manage monitor definitions through the query API.",
        subcommands = {
            MonitorsCommand.Apply.class,
            MonitorsCommand.Diff.class,
            MonitorsCommand.Export.class,
            MonitorsCommand.Delete.class
        })
public final class MonitorsCommand implements Runnable {
    /** The largest page {@code GET /v1/monitors} gives. */
    static final int PAGE = 1000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What apply and diff share: the file and how it is judged. */
    static final class FileOptions {
        @Option(
                names = {"-f", "--file"},
                required = true,
                paramLabel = "FILE",
                description = "YAML file with a top-level 'monitors:' list.")
        Path file;

        @Option(
                names = "--regions",
                split = ",",
                paramLabel = "REGION",
                defaultValue = "${env:VIGIL_REGIONS:-}",
                description = "Regions this deployment runs; the file is refused before any call when a monitor "
                        + "names another (default: any; the API refuses regions no probe worker has served).")
        List<String> regions;

        @Option(
                names = "--allow-region",
                split = ",",
                paramLabel = "REGION",
                description = "Accept monitors naming this region although no probe worker has served it yet (a region "
                        + "being rolled out); repeatable or comma-separated. Without it such monitors are refused.")
        List<String> allowRegions;

        @Option(names = "--prune", description = "Delete monitors that are published but not in the file.")
        boolean prune;

        @Option(
                names = "--timeout",
                defaultValue = "PT30S",
                description = "How long to wait for the API, which checks every target it publishes (ISO-8601 "
                        + "duration, default: ${DEFAULT-VALUE}).")
        Duration timeout;
    }

    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description = {
                "Validate a monitors file, show what changes, and publish it through the query API (POST "
                        + "/v1/monitors:apply, scope monitors): every monitor is checked, then all are published or none.",
                "Monitors absent from the file are kept unless --prune is given.",
                "A heartbeat monitor without a ping token gets one: only its hash is published, and the token "
                        + "and its ping command (a POST) are printed once. Re-applying keeps the token; "
                        + "--rotate-heartbeat-token issues a new one."
            })
    static final class Apply implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @CommandLine.Mixin
        FileOptions options;

        @Option(
                names = "--dry-run",
                description = "Validate and show the diff; publish nothing (as vigil monitors diff).")
        boolean dryRun;

        @Option(
                names = "--rotate-heartbeat-token",
                paramLabel = "ID",
                split = ",",
                description = "Issue a new ping token for these heartbeat monitors (the old one stops working once "
                        + "ingest has the new hash).")
        List<String> rotate;

        @Override
        public Integer call() {
            return apply(spec, query, options, dryRun, rotate == null ? List.of() : rotate);
        }
    }

    @Command(
            name = "diff",
            mixinStandardHelpOptions = true,
            description = "Show what apply would change, checked by the API as apply checks it; publish nothing "
                    + "(apply --dry-run).")
    static final class Diff implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @CommandLine.Mixin
        FileOptions options;

        @Override
        public Integer call() {
            return apply(spec, query, options, true, List.of());
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = {
                "Write every published monitor as a monitors file that apply reads back unchanged (GET /v1/monitors, "
                        + "scope read).",
                "Heartbeat ping tokens are not in it (only their hashes are published, and those stay as they are on "
                        + "re-apply); Vigil's own vigil-* monitors are left out (apply keeps them). With --json, the "
                        + "same file as JSON."
            })
    static final class Export implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(
                names = {"-o", "--output"},
                paramLabel = "FILE",
                description = "Write to FILE (default: standard output).")
        Path output;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            QueryClient client;
            try {
                client = query.client(Duration.ofSeconds(30));
            } catch (IllegalStateException e) {
                err.println("error: " + e.getMessage());
                return ExitCode.ERROR.code();
            }
            ArrayNode monitors = JsonNodeFactory.instance.arrayNode();
            List<String> skipped = new ArrayList<>();
            String after = null;
            try {
                do {
                    String path = "/v1/monitors?limit=" + PAGE
                            + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8));
                    QueryClient.Reply reply = client.get(path);
                    if (!reply.ok() || reply.body() == null) {
                        return failed(spec, reply, "nothing was exported");
                    }
                    for (JsonNode m : reply.body().path("monitors")) {
                        if (m.path("id").asText().startsWith(RESERVED_PREFIX)) {
                            skipped.add(m.path("id").asText());
                        } else {
                            monitors.add(definition(m));
                        }
                    }
                    JsonNode next = reply.body().path("next");
                    after = next.isTextual() && !next.asText().isEmpty() ? next.asText() : null;
                } while (after != null);
            } catch (IllegalStateException e) {
                err.println("error: " + e.getMessage());
                return ExitCode.ERROR.code();
            }
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            root.set("monitors", monitors);
            String text;
            if (query.json) {
                text = root.toPrettyString() + "\n";
            } else {
                text = "# " + monitors.size() + " monitor(s) exported from " + query.url + " at "
                        + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        + " by vigil monitors export\n" + ExportFiles.yaml(root);
            }
            if (!ExportFiles.write(spec, output, text)) {
                return ExitCode.ERROR.code();
            }
            err.printf(
                    "exported %d monitor(s)%s%s%n",
                    monitors.size(),
                    output == null ? "" : " to " + output,
                    skipped.isEmpty() ? "" : " (left out Vigil's own: " + String.join(", ", skipped) + ")");
            return ExitCode.OK.code();
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete one monitor (DELETE /v1/monitors/{id}, scope monitors): its status leaves the fleet "
                    + "and its open incidents resolve.")
    static final class Delete implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Parameters(paramLabel = "ID", description = "The monitor id.")
        String id;

        @Option(
                names = "--if-match",
                paramLabel = "REV",
                description = "Delete only if the monitor is still at this revision (GET "
                        + "/v1/monitors/{id}/definition gives it in ETag).")
        String ifMatch;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            QueryClient.Reply reply;
            try {
                String path = "/v1/monitors/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
                reply = ifMatch == null
                        ? query.client().delete(path)
                        : query.client().delete(path, Map.of("If-Match", quoted(ifMatch)));
            } catch (IllegalStateException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return ExitCode.ERROR.code();
            }
            if (!reply.ok()) {
                return failed(spec, reply, "nothing was deleted");
            }
            if (query.json) {
                out.println(reply.body().toPrettyString());
            } else {
                out.printf(
                        "monitor %s deleted (it was revision %s)%n",
                        id, reply.body().path("previousRevision").asText("?"));
            }
            return ExitCode.OK.code();
        }

        /** An entity tag is sent quoted; one given bare (as people copy it) is quoted here. */
        private static String quoted(String revision) {
            String r = revision.strip();
            return r.startsWith("\"") || r.startsWith("W/") || r.equals("*") ? r : "\"" + r + "\"";
        }
    }

    /** The prefix of Vigil's own monitors (the dead-man's switch's canary): only an admin changes them. */
    static final String RESERVED_PREFIX = dev.vigil.streams.api.MonitorsResource.RESERVED_PREFIX;

    /** Members {@code GET /v1/monitors} adds to a definition that are not part of it. */
    static final List<String> SHOWN_ONLY = List.of("revision", "checksPerDay", "heartbeat.hasToken");

    static ObjectNode definition(JsonNode listed) {
        return ExportFiles.withoutShown(listed, SHOWN_ONLY);
    }

    /** apply and diff: the file checked here, then sent whole to {@code :apply}, and the plan printed. */
    static int apply(
            CommandLine.Model.CommandSpec spec,
            QueryOptions query,
            FileOptions options,
            boolean dryRun,
            List<String> rotate) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path file = options.file;
        Set<String> allowed = new LinkedHashSet<>();
        if (options.regions != null) {
            options.regions.stream()
                    .filter(r -> !r.isBlank())
                    .map(String::strip)
                    .forEach(allowed::add);
        }
        List<MonitorDefinition> desired;
        JsonNode written;
        try {
            desired = MonitorsFile.read(file, allowed);
            // sent as the file wrote them: the API fills in the defaults as the contract says, so a default that
            // changes is not frozen into every monitor by the command that happened to apply it
            written = ConfigLoader.readYaml(file).get("monitors");
        } catch (ConfigLoader.ConfigException e) {
            err.println("error: " + file + " is not valid; nothing was published:");
            e.problems().forEach(p -> err.println("  - " + p));
            return ExitCode.CONFIG.code();
        }
        if (!query.json) {
            out.printf("%s: %d monitor(s) valid%n", file, desired.size());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("monitors", written);
        body.put("prune", options.prune);
        body.put("dryRun", dryRun);
        body.put("allowRegions", clean(options.allowRegions));
        body.put("rotateHeartbeatTokens", clean(rotate));
        QueryClient.Reply reply;
        try {
            reply = query.client(options.timeout).post("/v1/monitors:apply", body);
        } catch (IllegalStateException e) {
            err.println("error: " + e.getMessage());
            if (!dryRun) {
                // an answer that never came may follow a publish that did happen
                err.println("nothing was published unless the API received the request; vigil monitors diff -f " + file
                        + " shows where things stand");
            }
            return ExitCode.ERROR.code();
        }
        if (reply.status() == 400 && reply.body() != null) {
            err.println("error: the API refused " + file + "; nothing was published:");
            JsonNode errors = reply.body().path("errors");
            if (errors.isArray() && !errors.isEmpty()) {
                errors.forEach(e -> err.println("  - " + where(e.path("field").asText(), written) + ": "
                        + e.path("problem").asText()));
            } else {
                err.println("  - " + reply.problem());
            }
            if (errors.toString().contains("served by no probe worker")) {
                err.println("hint: --allow-region REGION accepts a region that is being rolled out");
            }
            return ExitCode.CONFIG.code();
        }
        if (!reply.ok() || reply.body() == null) {
            return failed(spec, reply, "nothing was published");
        }
        JsonNode plan = reply.body();
        if (query.json) {
            out.println(plan.toPrettyString());
            return ExitCode.OK.code();
        }
        printPlan(out, plan, desired, options.prune);
        plan.path("warnings").forEach(w -> out.println("warning: " + w.asText()));
        if (dryRun) {
            RegionCheck.checksPerDay(desired).forEach(out::println);
            plan.path("heartbeatTokensWouldBeIssued")
                    .forEach(id -> out.printf("  (a ping token for %s would be issued)%n", id.asText()));
            out.println("dry run: nothing published");
            return ExitCode.OK.code();
        }
        out.printf(
                "expected target checks per day: %,d%n",
                plan.path("checksPerDay").asLong());
        int published = plan.path("published").asInt();
        if (published == 0) {
            out.println("nothing to publish");
            return ExitCode.OK.code();
        }
        out.printf("published %d change(s) through %s%n", published, query.url);
        for (JsonNode t : plan.path("heartbeatTokens")) {
            out.println(pingInstructions(t));
        }
        return ExitCode.OK.code();
    }

    /** The plan as apply prints it: one line per monitor that changes, then the counts. */
    static void printPlan(PrintWriter out, JsonNode plan, List<MonitorDefinition> desired, boolean prune) {
        Map<String, MonitorDefinition> byId =
                desired.stream().collect(Collectors.toMap(MonitorDefinition::id, Function.identity(), (a, b) -> a));
        plan.path("added").forEach(id -> {
            MonitorDefinition m = byId.get(id.asText());
            out.printf("  + %s (new%s)%n", id.asText(), m == null ? "" : ": " + describe(m));
        });
        plan.path("changed").forEach(c -> {
            List<String> fields = new ArrayList<>();
            c.path("fields").forEach(f -> fields.add(f.asText()));
            out.printf("  ~ %s (changed: %s)%n", c.path("id").asText(), String.join(", ", fields));
        });
        JsonNode removed = prune ? plan.path("deleted") : plan.path("notInRequest");
        removed.forEach(id -> out.printf(
                prune ? "  - %s (deleted)%n" : "  ? %s (not in file; kept, use --prune to delete)%n", id.asText()));
        if (prune) {
            plan.path("keptReserved").forEach(id -> out.printf("  = %s (Vigil's own monitor; kept)%n", id.asText()));
        }
        out.printf(
                "%d to add, %d to change, %d unchanged, %d to delete%n",
                plan.path("added").size(),
                plan.path("changed").size(),
                plan.path("unchanged").asInt(),
                prune ? removed.size() : 0);
    }

    /**
     * The ping instructions of a token the API issued, worded as {@link HeartbeatTokens#pingInstructions}: with
     * ingest's base URL when the server knows it ({@code pingUrl}), else the path to prefix.
     */
    static String pingInstructions(JsonNode issued) {
        String path = issued.path("pingPath").asText();
        String url = issued.path("pingUrl").asText(null);
        String base = url != null && url.endsWith(path) ? url.substring(0, url.length() - path.length()) : null;
        return HeartbeatTokens.pingInstructions(
                new HeartbeatTokens.Issued(
                        issued.path("monitorId").asText(),
                        issued.path("pingToken").asText()),
                base);
    }

    /** A field of the API's problem, {@code monitors[3].url}, with the id the file gives that monitor. */
    static String where(String field, JsonNode written) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^monitors\\[(\\d+)]").matcher(field);
        if (!m.find() || written == null) {
            return field;
        }
        JsonNode id = written.path(Integer.parseInt(m.group(1))).path("id");
        return id.isTextual() ? m.group() + " (id " + id.asText() + ")" + field.substring(m.end()) : field;
    }

    /** An error answer that is not a refusal of the file: the problem detail, and a hint for a missing token. */
    static int failed(CommandLine.Model.CommandSpec spec, QueryClient.Reply reply, String consequence) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("error: " + reply.problem() + "; " + consequence);
        if (reply.status() == 401) {
            err.println("hint: pass --token, set VIGIL_TOKEN, or point --token-file at a token file (vigil "
                    + "standalone writes " + QueryOptions.standaloneTokenFile() + ")");
        }
        return ExitCode.ERROR.code();
    }

    private static List<String> clean(List<String> values) {
        List<String> out = new ArrayList<>();
        if (values != null) {
            values.stream().map(String::strip).filter(v -> !v.isEmpty()).forEach(out::add);
        }
        return out;
    }

    /** What a new monitor checks, for the diff: the target, and how often from where (heartbeats are pushed). */
    static String describe(MonitorDefinition m) {
        if (!m.isProbed()) {
            return m.target() + ", pinged at /v1/heartbeat/" + m.id();
        }
        return m.target() + " every " + m.intervalSeconds() + "s from " + String.join(",", m.regions());
    }
}
