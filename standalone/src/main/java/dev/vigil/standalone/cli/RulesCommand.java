package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.schemas.json.Json;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vigil rules ...}: the metric alert rules through the query API (scope {@code rules} to change them): the
 * rules in force, a file of rules applied all or nothing, the published rules exported as that file, one deleted.
 */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        description = "Metric alert rules: list, apply a file, export, delete (through the query API).",
        subcommands = {
            RulesCommand.ListRules.class,
            RulesCommand.ApplyRules.class,
            RulesCommand.ExportRules.class,
            RulesCommand.DeleteRules.class
        })
public final class RulesCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The members the API adds to a rule that are not the rule's own. */
    static final List<String> SHOWN_ONLY = List.of("source", "revision");

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The rules in force, with their source.")
    static final class ListRules implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(spec, query.client().get("/v1/rules"), body -> {
                out.printf(
                        "%-24s %-12s %-20s %-32s %-9s %-8s %s%n",
                        "RULE", "APP", "METRIC", "CONDITION", "SEVERITY", "ENABLED", "SOURCE");
                for (JsonNode r : body.path("rules")) {
                    out.printf(
                            "%-24s %-12s %-20s %-32s %-9s %-8s %s%n",
                            r.path("id").asText(),
                            r.path("appId").asText(),
                            r.path("metricName").asText(),
                            condition(r),
                            r.path("severity").asText(),
                            r.path("enabled").asBoolean(true) ? "yes" : "no",
                            r.path("source").asText());
                }
            });
        }
    }

    /** {@code p95 gt 2500 over 5m (min 20)}: the rule's condition on one line. */
    static String condition(JsonNode r) {
        String filter = r.path("filter").isEmpty()
                ? ""
                : "[" + String.join(",", Json.mapper().convertValue(r.path("filter"), String[].class)) + "] ";
        String text = String.format(
                Locale.ROOT,
                "%s%s %s %s over %dm",
                filter,
                r.path("aggregation").asText(),
                r.path("comparator").asText(),
                r.path("threshold").asText(),
                r.path("windowMinutes").asInt());
        int min = r.path("minEvents").asInt(1);
        return min > 1 ? text + " (min " + min + ")" : text;
    }

    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description = {
                "Apply a YAML file with a top-level 'rules:' list: every rule is checked, then all are published "
                        + "in one transaction, or none.",
                "A shipped rule's id in the file overrides it; --prune deletes the published rules the file leaves "
                        + "out (an override left out brings its shipped rule back)."
            })
    static final class ApplyRules implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(
                names = {"-f", "--file"},
                required = true,
                paramLabel = "FILE",
                description = "YAML file with a top-level 'rules:' list.")
        Path file;

        @Option(names = "--prune", description = "Delete the published rules the file leaves out.")
        boolean prune;

        @Option(names = "--dry-run", description = "Check and show what would change; publish nothing.")
        boolean dryRun;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            JsonNode rules;
            try {
                rules = ConfigLoader.readYaml(file).get("rules");
            } catch (ConfigLoader.ConfigException e) {
                err.println("error: " + file + " is not valid YAML; nothing was published:");
                e.problems().forEach(p -> err.println("  - " + p));
                return ExitCode.CONFIG.code();
            }
            if (rules == null || !rules.isArray()) {
                err.println("error: " + file + ": must have a top-level 'rules:' list; nothing was published");
                return ExitCode.CONFIG.code();
            }
            ArrayNode cleaned = Json.mapper().createArrayNode();
            rules.forEach(r -> {
                if (r instanceof ObjectNode o) {
                    SHOWN_ONLY.forEach(o::remove);
                }
                cleaned.add(r);
            });
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("rules", cleaned);
            body.put("prune", prune);
            body.put("dryRun", dryRun);
            QueryClient.Reply reply = query.client().post("/v1/rules:apply", body);
            if (reply.status() == 400 && reply.body() != null && reply.body().has("errors")) {
                err.println("error: " + file + " is not valid; nothing was published:");
                reply.body()
                        .path("errors")
                        .forEach(e -> err.println("  - " + e.path("field").asText() + ": "
                                + e.path("problem").asText()));
                return ExitCode.CONFIG.code();
            }
            return query.answer(spec, reply, a -> {
                a.path("created").forEach(id -> out.printf("  + %s (new)%n", id.asText()));
                a.path("replaced").forEach(id -> out.printf("  ~ %s (changed)%n", id.asText()));
                a.path("deleted").forEach(id -> out.printf("  - %s (deleted)%n", id.asText()));
                a.path("notInRequest")
                        .forEach(id -> out.printf("  ? %s (not in file; kept, use --prune to delete)%n", id.asText()));
                out.printf(
                        "%d to create, %d to change, %d unchanged, %d to delete%n",
                        a.path("created").size(),
                        a.path("replaced").size(),
                        a.path("unchanged").asInt(),
                        a.path("deleted").size());
                out.println(
                        dryRun
                                ? "dry run: nothing published"
                                : "published " + a.path("published").asInt() + " change(s)");
            });
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Write the published rules (overrides and custom rules) as the YAML 'rules apply' reads.")
    static final class ExportRules implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Option(
                names = {"-o", "--output"},
                paramLabel = "FILE",
                description = "Write to FILE instead of standard output.")
        Path output;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            QueryClient.Reply reply = query.client().get("/v1/rules");
            if (!reply.ok()) {
                return query.answer(spec, reply, b -> {});
            }
            ArrayNode rules = Json.mapper().createArrayNode();
            for (JsonNode r : reply.body().path("rules")) {
                if (!r.path("source").asText().equals("default")) {
                    rules.add(ExportFiles.withoutShown(r, SHOWN_ONLY));
                }
            }
            ObjectNode doc = Json.mapper().createObjectNode();
            doc.set("rules", rules);
            if (!ExportFiles.write(spec, output, ExportFiles.yaml(doc))) {
                return ExitCode.ERROR.code();
            }
            if (output != null) {
                spec.commandLine().getErr().printf("wrote %d rule(s) to %s%n", rules.size(), output);
            }
            return ExitCode.OK.code();
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete a custom rule, or remove an override so its shipped rule is back.")
    static final class DeleteRules implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        QueryOptions query;

        @Parameters(index = "0", paramLabel = "ID", description = "The rule's id (vigil rules list shows them).")
        String id;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return query.answer(
                    spec,
                    query.client().delete("/v1/rules/" + URLEncoder.encode(id, StandardCharsets.UTF_8)),
                    a -> out.println(
                            a.has("rule")
                                    ? id + ": override removed; the shipped rule is back in force"
                                    : id + ": deleted"));
        }
    }
}
