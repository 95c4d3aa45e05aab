package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.auth.SecretFiles;
import dev.vigil.kit.main.ExitCode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Options shared by the commands that read the query API. */
final class QueryOptions {
    @Option(
            names = "--url",
            defaultValue = "${env:VIGIL_QUERY_URL:-http://127.0.0.1:8081}",
            description = "Query API base URL; any instance answers (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--json", description = "Print the API's JSON as is.")
    boolean json;

    @Option(
            names = "--token",
            defaultValue = "${env:VIGIL_TOKEN}",
            paramLabel = "TOKEN",
            description = "Query API token (default: $VIGIL_TOKEN, else the token file).")
    String token;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            defaultValue = "${env:VIGIL_TOKEN_FILE}",
            description = "File holding the token (default: $VIGIL_TOKEN_FILE, else, for a loopback --url only, the "
                    + "admin token vigil standalone and demo create in $VIGIL_DATA_DIR or .vigil: config/admin-token).")
    Path tokenFile;

    QueryClient client() {
        return client(Duration.ofSeconds(10));
    }

    /** A client whose requests may take up to {@code timeout} (an apply checks every target it publishes). */
    QueryClient client(Duration timeout) {
        return new QueryClient(url, timeout, resolveToken());
    }

    /**
     * --token, else $VIGIL_TOKEN, else the token file when it exists; null sends no credential (the API says 401).
     * The standalone's own token file is only a default for a loopback URL, so a local admin token is never sent
     * to another machine by accident.
     */
    String resolveToken() {
        if (token != null && !token.isBlank()) {
            return token.trim();
        }
        Path file = tokenFile != null ? tokenFile : loopback(url) ? standaloneTokenFile() : null;
        if (file != null) {
            try {
                return SecretFiles.read(file).filter(t -> !t.isBlank()).orElse(null);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the token file " + file + ": " + e.getMessage(), e);
            }
        }
        return null;
    }

    /** Where vigil standalone and demo keep their admin token. */
    static Path standaloneTokenFile() {
        String dataDir = System.getenv("VIGIL_DATA_DIR");
        return Path.of(dataDir == null || dataDir.isBlank() ? ".vigil" : dataDir, "config", "admin-token");
    }

    static boolean loopback(String url) {
        try {
            String host = java.net.URI.create(url).getHost();
            return LoopbackHosts.isLoopback(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The exit code of a command that printed {@code reply}: 1 with the problem detail on an error,
     * the JSON as is with {@code --json}, otherwise what {@code table} prints of the body.
     */
    int answer(CommandLine.Model.CommandSpec spec, QueryClient.Reply reply, Consumer<JsonNode> table) {
        if (!reply.ok()) {
            spec.commandLine().getErr().println("error: " + reply.problem());
            if (reply.status() == 401) {
                spec.commandLine()
                        .getErr()
                        .println("hint: pass --token, set VIGIL_TOKEN, or point --token-file at a token "
                                + "file (vigil standalone writes " + standaloneTokenFile() + ")");
            }
            return ExitCode.ERROR.code();
        }
        if (json) {
            spec.commandLine().getOut().println(reply.body().toPrettyString());
        } else {
            table.accept(reply.body());
        }
        return ExitCode.OK.code();
    }
}
