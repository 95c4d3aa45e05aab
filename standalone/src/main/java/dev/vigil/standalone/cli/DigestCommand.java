package dev.vigil.standalone.cli;

import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresUrl;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.notifier.DigestPreview;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.digest.DigestReport;
import dev.vigil.notifier.digest.DigestSchedule;
import dev.vigil.notifier.digest.DigestText;
import dev.vigil.standalone.launch.StandaloneOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vigil digest --preview}: the daily digest so far (since the last digest time), composed from the notifier's
 * PostgreSQL and printed, not sent. It reads the database directly with the notifier's own credentials; no HTTP
 * route serves incident data for it.
 */
@Command(
        name = "digest",
        mixinStandardHelpOptions = true,
        description = {
            "The daily digest the notifier sends (digest: in vigil-notifier.yaml).",
            "--preview prints the digest so far, since the last digest time, without sending it."
        })
public final class DigestCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--preview", required = true, description = "Print the digest so far instead of sending it.")
    boolean preview;

    @Option(
            names = {"-c", "--config"},
            paramLabel = "FILE",
            defaultValue = "${env:VIGIL_CONFIG}",
            description = "The notifier's vigil-notifier.yaml: its database and digest time and zone (default: env"
                    + " VIGIL_CONFIG; without it, the standalone's PostgreSQL and the digest defaults).")
    Path config;

    @Option(
            names = "--db-url",
            paramLabel = "URL",
            description = "The notifier's PostgreSQL, e.g. postgresql://vigil@db:5432/vigil (default: the --config"
                    + " file's database; without one, the standalone's, postgresql://postgres@127.0.0.1:"
                    + StandaloneOptions.POSTGRES_PORT + "/postgres).")
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
            defaultValue = "PT30S",
            description = "How long reading the database may take (ISO-8601, default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, String> env = System.getenv();
        NotifierConfig cfg;
        try {
            cfg = NotifierConfig.load(config, env);
        } catch (ConfigLoader.ConfigException e) {
            spec.commandLine().getErr().println("vigil digest: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        String url;
        String user;
        String password;
        if (dbUrl == null && config != null) {
            url = cfg.database().url();
            user = cfg.database().username();
            password = env.get(cfg.database().passwordEnv());
        } else {
            PostgresUrl db = withStandalonePassword(PostgresUrl.parse(
                    dbUrl != null
                            ? dbUrl
                            : "postgresql://postgres@127.0.0.1:" + StandaloneOptions.POSTGRES_PORT + "/postgres"));
            url = "r2dbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.database();
            user = db.user();
            password = db.password();
        }
        DigestSchedule schedule =
                new DigestSchedule(cfg.digest().time(), cfg.digest().zoneId());
        DigestReport report = DigestPreview.compose(url, user, password, schedule, Clock.systemUTC(), timeout);
        out.print(DigestText.plain(report));
        out.flush();
        return ExitCode.OK.code();
    }

    /** As {@code vigil drill}: only a loopback URL gets the embedded server's generated password. */
    private PostgresUrl withStandalonePassword(PostgresUrl url) {
        if (url.password() != null || !LoopbackHosts.isLoopback(url.host())) {
            return url;
        }
        return EmbeddedPostgres.storedPassword(dataDir.resolve("postgres"))
                .map(password -> new PostgresUrl(url.host(), url.port(), url.database(), url.user(), password))
                .orElse(url);
    }
}
