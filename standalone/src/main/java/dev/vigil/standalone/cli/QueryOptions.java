package dev.vigil.standalone.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** Options shared by the commands that read the query API. */
final class QueryOptions {
    @Option(names = "--url", defaultValue = "${env:VIGIL_QUERY_URL:-http://127.0.0.1:8081}",
            description = "Query API base URL; any instance answers (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--json", description = "Print the API's JSON as is.")
    boolean json;

    QueryClient client() {
        return new QueryClient(url, Duration.ofSeconds(10));
    }
}
