package dev.vigil.standalone.cli;

import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresUrl;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.kit.trace.OtelSettings;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.standalone.drill.Drill;
import dev.vigil.standalone.launch.StandaloneOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil drill}: a synthetic outage that travels the real paging path, timed hop by hop. */
@Command(
        name = "drill",
        mixinStandardHelpOptions = true,
        description = {
            "Inject a synthetic outage for a drill monitor (named drill-*) and watch the page travel:",
            "probe result -> verdict -> alert -> delivery on every routed channel, then the resolution.",
            "--cleanup removes every drill record: monitor, status, alert, notifier claims and records."
        })
public final class DrillCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--monitor",
            required = true,
            paramLabel = "ID",
            description = "Drill monitor id, e.g. drill-paging.")
    String monitorId;

    @Option(names = "--cleanup", description = "Remove the drill's records instead of running it.")
    boolean cleanup;

    @Option(
            names = "--severity",
            defaultValue = "critical",
            description = "Severity of the drill's page (default: ${DEFAULT-VALUE}): it is routed like a real one.")
    String severity;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            defaultValue = "${env:VIGIL_KAFKA_BOOTSTRAP_SERVERS:-localhost:9092}",
            description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(
            names = "--db-url",
            paramLabel = "URL",
            defaultValue = "${env:VIGIL_DB_URL:-postgresql://postgres@127.0.0.1:" + StandaloneOptions.POSTGRES_PORT
                    + "/postgres}",
            description =
                    "The notifier's PostgreSQL, to time deliveries and clean claims (default: the standalone one, ${DEFAULT-VALUE}; 'none' to skip).")
    String dbUrl;

    @Option(
            names = "--data-dir",
            defaultValue = "${env:VIGIL_DATA_DIR:-.vigil}",
            paramLabel = "DIR",
            description = "The standalone's data directory: a loopback --db-url without a password uses the embedded"
                    + " PostgreSQL's generated one from there (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--timeout",
            defaultValue = "PT90S",
            description = "How long to wait for each hop (ISO-8601, default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--trace-url",
            defaultValue = "${env:VIGIL_OTEL_TRACE_URL:-}",
            paramLabel = "URL",
            description = "A trace UI link with {traceId} (e.g. https://jaeger.example/trace/{traceId}) to print beside"
                    + " the drill's trace id (default: $VIGIL_OTEL_TRACE_URL, else none).")
    String traceUrl;

    private String traceLink(String traceId) {
        if (traceUrl == null || traceUrl.isBlank()) {
            return "";
        }
        try {
            return "  " + new OtelSettings("", 1.0, "", traceUrl).traceLink(traceId);
        } catch (RuntimeException e) {
            return "  (--trace-url: " + e.getMessage() + ")";
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try {
            Drill.requireDrillId(monitorId);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        PostgresUrl db = "none".equals(dbUrl) ? null : withStandalonePassword(PostgresUrl.parse(dbUrl));
        Drill drill = new Drill(bootstrapServers, db, timeout, Clock.systemUTC(), line -> {
            out.println(line);
            out.flush();
        });
        if (cleanup) {
            drill.cleanup(monitorId).forEach(r -> out.println("removed " + r));
            return ExitCode.OK.code();
        }
        Drill.Report report = drill.run(monitorId, Severity.parseStrict(severity));
        long start = report.hops().get(0).atMs();
        out.printf("%nhop                                               +ms  detail%n");
        for (Drill.Hop hop : report.hops()) {
            out.printf("%-48s %6d  %s%n", hop.name(), hop.atMs() - start, hop.detail());
        }
        out.printf("trace %s%s%n", report.traceId(), traceLink(report.traceId()));
        out.printf("drill complete; remove its records with: vigil drill --monitor %s --cleanup%n", monitorId);
        return ExitCode.OK.code();
    }

    /**
     * The standalone's embedded PostgreSQL requires the password it generated into its data directory. Only a
     * loopback URL gets it, so it is never offered to a server on another machine.
     */
    PostgresUrl withStandalonePassword(PostgresUrl url) {
        if (url.password() != null || !LoopbackHosts.isLoopback(url.host())) {
            return url;
        }
        // the launcher keeps the embedded server's data in <data dir>/postgres
        return EmbeddedPostgres.storedPassword(dataDir.resolve("postgres"))
                .map(password -> new PostgresUrl(url.host(), url.port(), url.database(), url.user(), password))
                .orElse(url);
    }
}
