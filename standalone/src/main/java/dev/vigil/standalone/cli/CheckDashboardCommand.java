package dev.vigil.standalone.cli;

import dev.vigil.kit.config.DurationText;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.standalone.dashboard.DashboardCheck;
import dev.vigil.standalone.dashboard.DashboardScrapeCheck.Mode;
import dev.vigil.standalone.dashboard.SeriesNames;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vigil check-dashboard}: every metric a Grafana dashboard's PromQL queries must exist in the scrapes of the
 * running services, or in a Prometheus server. See {@link DashboardScrapeCheck}.
 */
@Command(
        name = "check-dashboard",
        mixinStandardHelpOptions = true,
        description = {
            "Check that every metric a Grafana dashboard queries exists: in the /metrics of running services "
                    + "(--scrape, one per service instance) or in a Prometheus server that scrapes them (--prometheus).",
            "Prints one MISSING line per panel query and metric no source has.",
            "Exit codes: 0 every metric exists; 1 a metric is missing; 2 bad arguments, dashboard or allow-list; "
                    + "3 a source could not be read (unreachable, not HTTP 200, or not the expected format): "
                    + "nothing was checked, retrying may help."
        })
public final class CheckDashboardCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--dashboard",
            paramLabel = "FILE",
            defaultValue = "docker/grafana/dashboards/vigil.json",
            description = "The dashboard JSON (default: ${DEFAULT-VALUE}, relative to the working directory).")
    Path dashboard;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Sources sources;

    static final class Sources {
        @Option(
                names = "--scrape",
                paramLabel = "URL",
                split = ",",
                required = true,
                description =
                        "A service's metrics URL (repeatable, or comma-separated); a URL without a path gets /metrics. "
                                + "The union of every scrape is checked; up and scrape_* (written by Prometheus) are not looked for.")
        List<String> scrape;

        @Option(
                names = "--prometheus",
                paramLabel = "URL",
                required = true,
                description = "A Prometheus server's base URL, e.g. http://127.0.0.1:9090: the names of "
                        + "/api/v1/label/__name__/values are checked, up and scrape_* included.")
        String prometheus;
    }

    @Option(
            names = "--since",
            paramLabel = "DURATION",
            defaultValue = "15m",
            description = "With --prometheus: count the series with samples in this last stretch of time (the API's "
                    + "start parameter; default ${DEFAULT-VALUE}).")
    String since;

    @Option(
            names = "--allow-missing",
            paramLabel = "METRIC=REASON",
            description = "A metric that may be missing, and why (repeatable); it must be one the dashboard queries.")
    Map<String, String> allowMissing = new LinkedHashMap<>();

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "How long each request may take (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration requestTimeout;
        Duration window;
        List<URI> urls = new ArrayList<>();
        Mode mode = sources.prometheus != null ? Mode.PROMETHEUS : Mode.SCRAPE;
        try {
            if (mode == Mode.SCRAPE && spec.commandLine().getParseResult().hasMatchedOption("--since")) {
                throw new IllegalArgumentException("--since applies to --prometheus only (a scrape is the present)");
            }
            requestTimeout = duration("--timeout", timeout);
            window = duration("--since", since);
            if (mode == Mode.PROMETHEUS) {
                urls.add(SeriesNames.prometheusUrl(
                        sources.prometheus, Instant.now().minus(window)));
            } else {
                for (String s : sources.scrape) {
                    if (!s.isBlank()) {
                        urls.add(SeriesNames.scrapeUrl(s));
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        if (urls.isEmpty()) {
            err.println("error: --scrape names no URL");
            return ExitCode.CONFIG.code();
        }
        return DashboardCheck.run(dashboard, mode, urls, allowMissing, requestTimeout, out, err);
    }

    private static Duration duration(String option, String text) {
        try {
            Duration d = DurationText.parse(text);
            if (d.isZero()) {
                throw new IllegalArgumentException("must be more than zero");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + e.getMessage());
        }
    }
}
