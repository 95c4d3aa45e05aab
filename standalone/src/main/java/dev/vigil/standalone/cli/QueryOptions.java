package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.auth.SecretFiles;
import java.io.IOException;
import java.nio.file.Path;
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

    @Option(names = "--token", defaultValue = "${env:VIGIL_TOKEN}", paramLabel = "TOKEN",
            description = "Query API token (default: $VIGIL_TOKEN, else the token file).")
    String token;

    @Option(names = "--token-file", paramLabel = "FILE",
            defaultValue = "${env:VIGIL_TOKEN_FILE:-${env:VIGIL_DATA_DIR:-.vigil}/config/admin-token}",
            description = "File holding the token (default: ${DEFAULT-VALUE}, which vigil standalone and demo create).")
    Path tokenFile;

    QueryClient client() {
        return new QueryClient(url, Duration.ofSeconds(10), resolveToken());
    }

    /** --token, else $VIGIL_TOKEN, else the token file when it exists; null sends no credential (the API says 401). */
    String resolveToken() {
        if (token != null && !token.isBlank()) {
            return token.trim();
        }
        if (tokenFile != null) {
            try {
                return SecretFiles.read(tokenFile).filter(t -> !t.isBlank()).orElse(null);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the token file " + tokenFile + ": " + e.getMessage(), e);
            }
        }
        return null;
    }

    /**
     * The exit code of a command that printed {@code reply}: 1 with the problem detail on an error,
     * the JSON as is with {@code --json}, otherwise what {@code table} prints of the body.
     */
    int answer(CommandLine.Model.CommandSpec spec, QueryClient.Reply reply, Consumer<JsonNode> table) {
        if (!reply.ok()) {
            spec.commandLine().getErr().println("error: " + reply.problem());
            if (reply.status() == 401) {
                spec.commandLine().getErr().println("hint: pass --token, set VIGIL_TOKEN, or point --token-file at the token "
                        + "file (vigil standalone writes " + tokenFile + ")");
            }
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
