package dev.vigil.standalone.dashboard;

import dev.vigil.kit.main.ExitCode;
import dev.vigil.standalone.dashboard.DashboardScrapeCheck.Mode;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run of the dashboard check as {@code vigil check-dashboard} and {@code vigil cluster check-dashboard} print it:
 * read the dashboard, read every source, check ({@link DashboardScrapeCheck}), print the report, and answer the exit
 * code (0 every metric exists, 1 one is missing, 2 a bad dashboard or allow-list, 3 a source could not be read).
 */
public final class DashboardCheck {
    private DashboardCheck() {}

    /**
     * @param urls           the sources: scrape URLs ({@link SeriesNames#scrapeUrl}) or one Prometheus label-values
     *                       URL ({@link SeriesNames#prometheusUrl}); at least one
     * @param allowMissing   metric to the reason it may be missing
     * @param requestTimeout the bound of each request
     */
    public static int run(
            Path dashboard,
            Mode mode,
            List<URI> urls,
            Map<String, String> allowMissing,
            Duration requestTimeout,
            PrintWriter out,
            PrintWriter err) {
        DashboardQueries queries;
        try {
            queries = DashboardQueries.read(dashboard);
        } catch (IOException e) {
            err.println("error: cannot read the dashboard " + dashboard + ": " + e.getMessage());
            return ExitCode.CONFIG.code();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        out.printf(
                "dashboard %s ('%s'): %d queries, %d metrics%n",
                dashboard,
                queries.title(),
                queries.queries().size(),
                queries.metrics().size());

        List<SeriesNames> read = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(requestTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        for (URI url : urls) {
            try {
                SeriesNames names = mode == Mode.PROMETHEUS
                        ? SeriesNames.prometheus(http, url, requestTimeout)
                        : SeriesNames.scrape(http, url, requestTimeout);
                read.add(names);
                out.printf("read      %s: %d series names%n", url, names.names().size());
            } catch (SeriesNames.Unavailable e) {
                unavailable.add(e.getMessage());
            }
        }
        if (!unavailable.isEmpty()) {
            unavailable.forEach(u -> err.println("error: cannot read " + u));
            err.println("error: nothing was checked (" + unavailable.size() + " of " + urls.size()
                    + " sources unreadable)");
            return ExitCode.STARTUP.code();
        }

        DashboardScrapeCheck.Result result;
        try {
            result = DashboardScrapeCheck.check(queries, read, mode, allowMissing);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        DashboardScrapeCheck.report(queries, read, result).forEach(out::println);
        return result.passed() ? ExitCode.OK.code() : ExitCode.ERROR.code();
    }
}
