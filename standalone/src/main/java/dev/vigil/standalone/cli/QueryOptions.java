package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.function.Consumer;
import picocli.CommandLine;
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

    /**
     * The exit code of a command that printed {@code reply}: 1 with the problem detail on an error,
     * the JSON as is with {@code --json}, otherwise what {@code table} prints of the body.
     */
    int answer(CommandLine.Model.CommandSpec spec, QueryClient.Reply reply, Consumer<JsonNode> table) {
        if (!reply.ok()) {
            spec.commandLine().getErr().println("error: " + reply.problem());
            return 1;
        }
        if (json) {
            spec.commandLine().getOut().println(reply.body().toPrettyString());
        } else {
            table.accept(reply.body());
        }
        return 0;
    }
}
