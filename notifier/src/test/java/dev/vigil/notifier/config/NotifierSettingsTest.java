package dev.vigil.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotifierSettingsTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final Map<String, String> ENV = Map.of(
            "BETTERSTACK_API_TOKEN", "bs-token",
            "SLACK_WEBHOOK_URL", "https://hooks.slack.test/services/T/B/X",
            "DISCORD_WEBHOOK_URL", "https://discord.test/api/webhooks/1/abc",
            "HOOK_SECRET", SECRET);

    @TempDir
    Path dir;

    private Path write(String name, String yaml) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    private List<String> problems(String yaml, Map<String, String> env) throws IOException {
        Path file = write("vigil-notifier.yaml", yaml);
        try {
            NotifierSettings.load(file, env);
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a configuration error");
    }

    @Test
    void defaultsWithStandardRoutingLoadWhenSecretsAreSet() {
        NotifierSettings.Loaded l = NotifierSettings.load(null, ENV);
        NotifierConfig c = l.config();
        assertThat(c.http().port()).isEqualTo(8082);
        assertThat(c.kafka().topics().alerts()).isEqualTo("vigil.alerts");
        assertThat(c.delivery().dedupeWindowDuration()).isEqualTo(Duration.ofHours(1));
        assertThat(c.delivery().deadlineDuration()).isEqualTo(Duration.ofHours(1));
        assertThat(c.delivery().retryBaseDuration()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.delivery().retryCapDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.delivery().sendTimeoutDuration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(l.routing().channels()).containsOnlyKeys("betterstack", "slack", "discord", "log");
        assertThat(l.routing().channels().get("slack").ratePerSecond()).isEqualTo(1.0);
        assertThat(l.routing().channels().get("betterstack").url().toString())
                .isEqualTo("https://uptime.betterstack.com");
        assertThat(l.routing().channels().get("betterstack").secret()).isEqualTo("bs-token");
        assertThat(l.routing().channels().get("slack").toString()).doesNotContain("hooks.slack.test");
    }

    @Test
    void standardRoutingWithoutSecretsNamesEachMissingVariable() {
        assertThatThrownBy(() -> NotifierSettings.load(null, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e -> assertThat(((ConfigException) e).problems())
                                .containsExactlyInAnyOrder(
                                        "built-in routing: channels.betterstack.secretEnv: environment variable BETTERSTACK_API_TOKEN (the BetterStack API token) is not set",
                                        "built-in routing: channels.slack.urlEnv: environment variable SLACK_WEBHOOK_URL (the webhook URL) is not set",
                                        "built-in routing: channels.discord.urlEnv: environment variable DISCORD_WEBHOOK_URL (the webhook URL) is not set"));
    }

    @Test
    void routingFileRelativeToTheServiceConfigAndEnvOverrides() throws IOException {
        write(
                "routing.yaml",
                """
                channels:
                  ops: { type: webhook, url: "http://127.0.0.1:9/hook", secretEnv: HOOK_SECRET, concurrency: 4 }
                  console: { type: log }
                routes:
                  - name: payments
                    severities: [critical, P2]
                    services: [payments]
                    attributes: { team: pay }
                    channels: [ops]
                defaults:
                  critical: [ops, console]
                  warning: [console]
                  info: [console]
                """);
        Path file = write(
                "vigil-notifier.yaml",
                """
                kafka: { bootstrapServers: "k1:9092", groupId: notif }
                delivery: { dedupeWindow: 30m, retryBase: 500ms }
                routingFile: routing.yaml
                """);
        var env = new java.util.HashMap<>(ENV);
        env.put("VIGIL_HTTP_PORT", "0");
        env.put("VIGIL_KAFKA_GROUP_ID", "from-env");
        NotifierSettings.Loaded l = NotifierSettings.load(file, env);
        assertThat(l.config().http().port()).isZero();
        assertThat(l.config().kafka().groupId()).isEqualTo("from-env");
        assertThat(l.config().delivery().dedupeWindowDuration()).isEqualTo(Duration.ofMinutes(30));
        assertThat(l.routing().channels()).containsOnlyKeys("ops", "console");
        assertThat(l.routing().channels().get("ops").concurrency()).isEqualTo(4);
        assertThat(l.routing().routes().channels()).containsExactlyInAnyOrder("ops", "console");
        var e = dev.vigil.notifier.support.TestEvents.with(
                dev.vigil.notifier.support.TestEvents.opened("monitor/p", Severity.WARNING),
                "payments",
                Map.of("team", "pay"),
                List.of(),
                false);
        assertThat(l.routing().routes().route(e).channels()).containsExactly("ops");
    }

    @Test
    void everyRoutingProblemIsReportedAtOnceWithItsKeyPath() throws IOException {
        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    slack: { type: slack, url: "https://hooks.slack.test/inline" }
                    discord: { type: discord, urlEnv: DISCORD_BAD }
                    hook: { type: webhook, url: "ftp://x/y", secretEnv: SHORT_SECRET }
                    hook2: { type: webhook, secretEnv: HOOK_SECRET }
                    hook3: { type: webhook, url: "https://user:pw@x.test/", urlEnv: HOOK_URL, secretEnv: HOOK_SECRET }
                    bs: { type: betterstack, secretEnv: EMPTY_TOKEN, url: "https:///nohost" }
                    console: { type: log, secretEnv: X }
                    Bad_Name: { type: log }
                  routes:
                    - name: r1
                      severities: [sev9]
                      channels: [pager, console]
                    - name: r2
                      channels: []
                  defaults:
                    critical: [slack, missing-one]
                    warning: []
                    urgent: [console]
                """,
                Map.of(
                        "DISCORD_BAD",
                        "not a url",
                        "SHORT_SECRET",
                        "short",
                        "HOOK_SECRET",
                        SECRET,
                        "EMPTY_TOKEN",
                        "  "));
        String f = dir.resolve("vigil-notifier.yaml").toString();
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: channels.slack.url: slack webhook URLs carry their token; put the URL in an environment variable and name it in urlEnv",
                        "routing: channels.slack.urlEnv: required: the name of the environment variable holding the webhook URL",
                        "routing: channels.discord.urlEnv (value of DISCORD_BAD): is not a valid URL",
                        "routing: channels.hook.url: must be an absolute http or https URL",
                        "routing: channels.hook.secretEnv: the signing secret in SHORT_SECRET must be at least 32 bytes",
                        "routing: channels.hook2: a webhook channel needs exactly one of url or urlEnv",
                        "routing: channels.hook3: a webhook channel needs exactly one of url or urlEnv",
                        "routing: channels.bs.url: the URL must name a host",
                        "routing: channels.bs.secretEnv: environment variable EMPTY_TOKEN (the BetterStack API token) is empty",
                        "routing: channels.console: a log channel takes no url, urlEnv or secretEnv",
                        "routing: channels.Bad_Name: channel names must be slugs [a-z0-9-]",
                        "routing: routes[0] (r1).severities: unknown severity 'sev9'; expected critical, warning, info (or P1, P2, P3)",
                        "routing: routes[0] (r1).channels: unknown channel 'pager'; configured channels are [slack, discord, hook, hook2, hook3, bs, console, Bad_Name]",
                        "routing: routes[1] (r2).channels: a route must name at least one channel",
                        "routing: defaults.critical: unknown channel 'missing-one'; configured channels are [slack, discord, hook, hook2, hook3, bs, console, Bad_Name]",
                        "routing: defaults.urgent: unknown severity; expected critical, warning or info",
                        "routing: defaults.warning: a default route for every severity is required (an event must never route nowhere)",
                        "routing: defaults.info: a default route for every severity is required (an event must never route nowhere)");
        assertThat(String.join("\n", p))
                .doesNotContain("hooks.slack.test/inline")
                .doesNotContain(SECRET);
        assertThat(f).isNotBlank();
    }

    @Test
    void appsSectionGrantsOverridesPerApp() throws IOException {
        Path file = write(
                "vigil-notifier.yaml",
                """
                routing:
                  channels:
                    ops: { type: webhook, url: "http://127.0.0.1:9/hook", secretEnv: HOOK_SECRET }
                    console: { type: log }
                  defaults: { critical: [console], warning: [console], info: [console] }
                  apps:
                    checkout: { channels: [ops] }
                    muted: { channels: [] }
                """);
        NotifierSettings.Loaded l = NotifierSettings.load(file, ENV);
        AlertEvent base = dev.vigil.notifier.support.TestEvents.opened("monitor/x", Severity.CRITICAL);
        java.util.function.Function<String, List<String>> route = fp -> l.routing()
                .routes()
                .route(new AlertEvent(
                        1,
                        null,
                        fp,
                        null,
                        AlertState.OPENED,
                        Severity.CRITICAL,
                        "svc",
                        null,
                        "s",
                        Map.of(),
                        Map.of(),
                        1,
                        base.firstSeen(),
                        base.lastSeen(),
                        AlertSource.APP,
                        false,
                        List.of("ops")))
                .channels();
        assertThat(route.apply("app/checkout/db")).containsExactly("ops");
        assertThat(route.apply("app/muted/db")).containsExactly("console");
        assertThat(route.apply("app/unlisted/db")).containsExactly("console");
    }

    @Test
    void appsSectionProblemsNameTheirKeyPath() throws IOException {
        List<String> p = problems(
                """
                routing:
                  channels:
                    console: { type: log }
                  defaults: { critical: [console], warning: [console], info: [console] }
                  apps:
                    checkout: { channels: [console, pager] }
                    Bad_App: { channels: [console] }
                    empty:
                """,
                ENV);
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: apps.checkout.channels: unknown channel 'pager'; configured channels are [console]",
                        "routing: apps.Bad_App: app ids are slugs [a-z0-9-], as in ingest's apiKeys",
                        "routing: apps.empty: give the channels this app may name in an override, e.g. channels: [slack]"
                                + " (channels: [] allows none)");
    }

    @Test
    void appsServicesLetAnAppMatchThatServicesRoutesAndAreValidated() throws IOException {
        Path file = write(
                "vigil-notifier.yaml",
                """
                routing:
                  channels:
                    ops: { type: webhook, url: "http://127.0.0.1:9/hook", secretEnv: HOOK_SECRET }
                    console: { type: log }
                  routes:
                    - { name: payments-critical, services: [payments], channels: [ops] }
                  defaults: { critical: [console], warning: [console], info: [console] }
                  apps:
                    payments-api: { services: [payments] }
                    checkout: { channels: [] }
                """);
        NotifierSettings.Loaded l = NotifierSettings.load(file, ENV);
        AlertEvent base = dev.vigil.notifier.support.TestEvents.opened("monitor/x", Severity.CRITICAL);
        java.util.function.Function<String, List<String>> route = fp -> l.routing()
                .routes()
                .route(new AlertEvent(
                        1,
                        null,
                        fp,
                        null,
                        AlertState.OPENED,
                        Severity.CRITICAL,
                        "payments",
                        null,
                        "s",
                        Map.of(),
                        Map.of(),
                        1,
                        base.firstSeen(),
                        base.lastSeen(),
                        AlertSource.APP,
                        false,
                        List.of()))
                .channels();
        assertThat(route.apply("app/payments-api/db")).containsExactly("ops");
        assertThat(route.apply("app/checkout/db")).containsExactly("console");

        List<String> p = problems(
                """
                routing:
                  channels:
                    console: { type: log }
                  routes:
                    - { name: r0, services: ["  "], channels: [console] }
                  defaults: { critical: [console], warning: [console], info: [console] }
                  apps:
                    checkout: { channels: [console], services: [payments, "", ~] }
                """,
                ENV);
        String rule = ": must be a service name (not blank, at most 100 characters, no control characters),"
                + " as in the events' service";
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: routes[0] (r0).services[0]" + rule,
                        "routing: apps.checkout.services[1]" + rule,
                        "routing: apps.checkout.services[2]" + rule);
    }

    @Test
    void anAppsLinkedMonitorsAreMonitorIds() throws IOException {
        List<String> p = problems(
                """
                routing:
                  channels:
                    console: { type: log }
                  defaults: { critical: [console], warning: [console], info: [console] }
                  apps:
                    checkout: { channels: [console], monitors: [checkout-api, "Checkout API", ~] }
                """,
                ENV);
        String rule = ": a monitor id, a slug [a-z0-9-] (e.g. checkout-api)";
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: apps.checkout.monitors[1]" + rule, "routing: apps.checkout.monitors[2]" + rule);
    }

    @Test
    void pagerDutyAndTeamsChannelsTakeTheirSecretsFromTheEnvironment() throws IOException {
        String yaml =
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    pd: { type: pagerduty, secretEnv: PD_KEY }
                    teams: { type: teams, urlEnv: TEAMS_URL }
                  defaults: { critical: [pd], warning: [teams], info: [teams] }
                """;
        String key = "R0123456789abcdef0123456789abcde";
        var loaded = NotifierSettings.load(
                write("vigil-notifier.yaml", yaml),
                Map.of(
                        "PD_KEY",
                        key,
                        "TEAMS_URL",
                        "https://prod.westeurope.logic.azure.com/workflows/abc/triggers/manual?sig=s3cret"));
        var pd = loaded.routing().channels().get("pd");
        assertThat(pd.url()).isEqualTo(RoutingValidator.PAGERDUTY_DEFAULT_URL);
        assertThat(pd.secret()).isEqualTo(key);
        assertThat(pd.ratePerSecond()).isEqualTo(2.0);
        assertThat(pd.toString()).doesNotContain(key);
        var teams = loaded.routing().channels().get("teams");
        assertThat(teams.ratePerSecond()).isEqualTo(1.0);
        assertThat(teams.concurrency()).isEqualTo(1);
        assertThat(teams.toString()).doesNotContain("s3cret");

        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    pd: { type: pagerduty, secretEnv: PD_KEY, urlEnv: X }
                    pd2: { type: pagerduty }
                    teams: { type: teams, urlEnv: TEAMS_URL }
                    teams2: { type: teams, url: "https://inline.example/", urlEnv: TEAMS_URL }
                  defaults: { critical: [pd], warning: [teams], info: [teams] }
                """,
                Map.of("PD_KEY", "not a key!", "TEAMS_URL", "http://plain.example/workflow?sig=s3cret"));
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: channels.pd.urlEnv: not used by pagerduty channels (set url for the API base)",
                        "routing: channels.pd.secretEnv: the value of PD_KEY is not a PagerDuty integration key (32 letters and digits, from the service's Events API v2 integration)",
                        "routing: channels.pd2.secretEnv: required: the name of the environment variable holding the PagerDuty integration (routing) key",
                        "routing: channels.teams.urlEnv (value of TEAMS_URL): must be https (plain http only to a loopback stand-in: localhost, 127.0.0.0/8 or [::1])",
                        "routing: channels.teams2.url: teams webhook URLs carry their token; put the URL in an environment variable and name it in urlEnv",
                        "routing: channels.teams2.urlEnv (value of TEAMS_URL): must be https (plain http only to a loopback stand-in: localhost, 127.0.0.0/8 or [::1])");
        assertThat(String.join("\n", p)).doesNotContain("s3cret").doesNotContain("not a key!");
    }

    @Test
    void aBetterStackChannelSaysHowItReachesTheOnCallPersonPerSeverity() throws IOException {
        var loaded = NotifierSettings.load(
                write(
                        "vigil-notifier.yaml",
                        """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    bs:
                      type: betterstack
                      secretEnv: BETTERSTACK_API_TOKEN
                      reach: { critical: [call, critical_alert], info: [] }
                    bs2: { type: betterstack, secretEnv: BETTERSTACK_API_TOKEN }
                  defaults: { critical: [bs], warning: [bs2], info: [bs2] }
                """),
                ENV);
        assertThat(loaded.routing().channels().get("bs").reach())
                .hasToString("critical=[call, critical_alert], warning=[email, push], info=[]");
        assertThat(loaded.routing().channels().get("bs2").reach())
                .hasToString("critical=[call, sms, email, push], warning=[email, push], info=[email]");

        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    bs:
                      type: betterstack
                      secretEnv: BETTERSTACK_API_TOKEN
                      reach: { critical: [call, fax], P1: [sms], warning: }
                    slack: { type: slack, urlEnv: SLACK_WEBHOOK_URL, reach: { critical: [call] } }
                  defaults: { critical: [bs], warning: [slack], info: [slack] }
                """,
                ENV);
        assertThat(p)
                .containsExactly(
                        "routing: channels.bs.reach.critical[1]: fax is not one of call, sms, email, push, critical_alert",
                        "routing: channels.bs.reach.P1: not a severity (critical, warning or info)",
                        "routing: channels.bs.reach.warning: a list of mediums, [] for none (call, sms, email, push, critical_alert)",
                        "routing: channels.slack.reach: only betterstack channels take reach (how BetterStack reaches the on-call person per severity)");
    }

    @Test
    void anEmailChannelTakesItsRelayFromTheEmailBlockAndItsPasswordFromTheEnvironment() throws IOException {
        var loaded = NotifierSettings.load(
                write(
                        "vigil-notifier.yaml",
                        """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    mail:
                      type: email
                      secretEnv: SMTP_PASSWORD
                      email:
                        host: smtp.example.com
                        username: vigil
                        from: "Vigil <vigil@example.com>"
                        to: [oncall@example.com, sre@example.com]
                        sendTimeout: 20s
                  defaults: { critical: [mail], warning: [mail], info: [mail] }
                """),
                Map.of("SMTP_PASSWORD", "smtp-pass-123"));
        var mail = loaded.routing().channels().get("mail");
        assertThat(mail.email().host()).isEqualTo("smtp.example.com");
        assertThat(mail.email().port()).isEqualTo(587);
        assertThat(mail.email().password()).isEqualTo("smtp-pass-123");
        assertThat(mail.email().sendTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(mail.concurrency()).isEqualTo(2);
        assertThat(mail.toString() + mail.email()).doesNotContain("smtp-pass-123");

        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    mail:
                      type: email
                      url: "smtp://x"
                      email: { host: "smtp.example.com", startTls: maybe, from: "not an address", to: [], readTimeout: soon }
                    nomail: { type: email }
                    slack2: { type: slack, urlEnv: SLACK_WEBHOOK_URL, email: { host: x } }
                  defaults: { critical: [mail], warning: [mail], info: [mail] }
                """,
                ENV);
        assertThat(p)
                .contains(
                        "routing: channels.mail: an email channel takes its relay under email: (host, port), not url or urlEnv",
                        "routing: channels.mail.email.startTls: must be required or none",
                        "routing: channels.mail.email.readTimeout: must be a duration such as 500ms, 10s, 5m, 1h or PT1H",
                        "routing: channels.nomail.email: required: the SMTP relay (host, port), from and to",
                        "routing: channels.slack2.email: only email channels take an email block");
        assertThat(p).anyMatch(s -> s.startsWith("routing: channels.mail.email.from: "));
        assertThat(p).anyMatch(s -> s.startsWith("routing: channels.mail.email.to: "));
    }

    @Test
    void aStaticGroupMemberIdComesFromTheEnvironmentAndReachesTheConsumer() throws IOException {
        Path file = write("vigil-notifier.yaml", "kafka: { bootstrapServers: \"k:9092\", groupId: g }\n");
        assertThat(NotifierSettings.load(file, ENV).config().kafka().groupInstanceId())
                .isEmpty();
        assertThat(dev.vigil.notifier.NotifierService.consumerProps(
                        NotifierSettings.load(file, ENV).config()))
                .doesNotContainKey("group.instance.id");
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", "notifier-0");
        var cfg = NotifierSettings.load(file, env).config();
        assertThat(dev.vigil.notifier.NotifierService.consumerProps(cfg))
                .containsEntry("group.instance.id", "notifier-0")
                .containsEntry("session.timeout.ms", dev.vigil.kit.kafka.StaticMembership.SESSION_TIMEOUT_MS);
        env.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", "bad id!");
        assertThat(problems("kafka: { bootstrapServers: \"k:9092\", groupId: g }\n", env))
                .anyMatch(p -> p.contains("kafka.groupInstanceId"));
    }

    @Test
    void userInfoInAWebhookUrlIsRefused() throws IOException {
        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    hook: { type: webhook, url: "https://user:pw@x.test/", secretEnv: HOOK_SECRET }
                  defaults: { critical: [hook], warning: [hook], info: [hook] }
                """,
                ENV);
        assertThat(p).containsExactly("routing: channels.hook.url: the URL must not contain user-info");
    }

    @Test
    void unknownChannelTypeIsAConfigErrorNamingTheKey() throws IOException {
        List<String> p = problems(
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    pager: { type: opsgenie }
                """,
                ENV);
        assertThat(p).hasSize(1);
        assertThat(p.get(0))
                .contains("routing.channels.pager.type")
                .contains(
                        "unknown value; expected one of [betterstack, slack, discord, webhook, log, pagerduty, teams, email, digest]");
    }

    @Test
    void serviceSettingsAreValidated() throws IOException {
        assertThat(problems("delivery: { dedupeWindow: soon }\n", ENV))
                .singleElement()
                .asString()
                .contains("delivery.dedupeWindow: must be a duration such as 500ms, 10s, 5m, 1h or PT1H");
        assertThat(problems("delivery: { retryBase: 10m, retryCap: 1m }\n", ENV))
                .singleElement()
                .asString()
                .contains("delivery.retryCap: must not be shorter than delivery.retryBase");
        assertThat(problems("delivery: { retryMultiplier: 0.5 }\n", ENV))
                .singleElement()
                .asString()
                .contains("delivery.retryMultiplier: must be between 1 and 10");
        assertThat(problems("http: { port: 70000 }\n", ENV))
                .singleElement()
                .asString()
                .contains("http.port: must be between 0 and 65535");
        assertThat(problems("database: { url: \"jdbc:postgresql://db/x\" }\n", ENV))
                .singleElement()
                .asString()
                .contains("database.url: must be an R2DBC URL");
        assertThat(problems("kafka: { bootstrapServers: \"\" }\n", ENV))
                .singleElement()
                .asString()
                .contains("kafka.bootstrapServers: is required");
        assertThat(problems("kafka: { maxInFlight: 0 }\n", ENV))
                .singleElement()
                .asString()
                .contains("kafka.maxInFlight: must be between 1 and 1000000");
        assertThat(problems("routingFile: r.yaml\nrouting: { channels: { l: { type: log } } }\n", ENV))
                .singleElement()
                .asString()
                .contains("routingFile: give routing inline or in routingFile, not both");
        assertThat(problems("routing:\n  channels:\n    slack: { type: slack, urlEnv: S, concurrency: 0 }\n", ENV))
                .singleElement()
                .asString()
                .contains("concurrency: must be between 1 and 1024");
    }

    @Test
    void missingRoutingFileAndBrokenYamlAreClear() throws IOException {
        assertThat(problems("routingFile: nowhere.yaml\n", ENV))
                .singleElement()
                .asString()
                .endsWith("nowhere.yaml: configuration file not found");
        write("routing.yaml", "channels: [unclosed\n");
        assertThat(problems("routingFile: routing.yaml\n", ENV))
                .singleElement()
                .asString()
                .contains("routing.yaml (line")
                .contains("not valid YAML");
    }

    @Test
    void missingServiceConfigFileIsClear() {
        assertThatThrownBy(() -> NotifierSettings.load(dir.resolve("absent.yaml"), ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.yaml: configuration file not found");
    }

    @Test
    void theTopicKeysOfThePreviousShapeStillWorkAndEachWarnsOnce() throws IOException {
        NotifierConfig current = NotifierSettings.load(
                        write(
                                "vigil-notifier.yaml",
                                """
                kafka:
                  topics: {alerts: t1.alerts, deadLetter: t1.dead, silences: t1.silences, acks: t1.acks,
                           vendorUpdates: t1.vendor, audit: t1.audit}
                """),
                        ENV)
                .config();
        Path old = write(
                "vigil-notifier.yaml",
                """
                kafka:
                  alertsTopic: t1.alerts
                  deadLetterTopic: t1.dead
                  silencesTopic: t1.silences
                  acksTopic: t1.acks
                  vendorUpdatesTopic: t1.vendor
                  auditTopic: t1.audit
                """);
        dev.vigil.kit.config.ConfigLoader.Result<NotifierConfig> r =
                dev.vigil.kit.config.ConfigLoader.read(NotifierConfig.SPEC, old, ENV);
        assertThat(r.config()).isEqualTo(current);
        assertThat(r.warnings())
                .hasSize(6)
                .contains(
                        old + ": kafka.alertsTopic is deprecated, use kafka.topics.alerts",
                        old + ": kafka.auditTopic is deprecated, use kafka.topics.audit");
        assertThat(String.join("\n", r.warnings())).doesNotContain("t1.alerts");
    }

    @Test
    void everyServiceSettingProblemIsReportedAtOnce() throws IOException {
        String f = dir.resolve("vigil-notifier.yaml").toString();
        assertThat(problems(
                        """
                kafka: {groupId: "", topics: {alerts: "no such topic!"}}
                delivery: {dedupeWindow: soon, retryMultiplier: 0.5}
                http: {port: 70000}
                """,
                        ENV))
                .containsExactlyInAnyOrder(
                        f
                                + ": kafka.topics.alerts: must be a Kafka topic name ([A-Za-z0-9._-], at most 249 characters)",
                        f + ": kafka.groupId: is required",
                        f + ": delivery.dedupeWindow: must be a duration such as 500ms, 10s, 5m, 1h or PT1H",
                        f + ": delivery.retryMultiplier: must be between 1 and 10",
                        f + ": http.port: must be between 0 and 65535");
    }

    @Test
    void theNewTopicKeysAreOverriddenByTheirVariables() {
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put("VIGIL_KAFKA_TOPICS_ALERTS", "env.alerts");
        env.put("VIGIL_KAFKA_TOPICS_DEAD_LETTER", "env.dead");
        env.put("VIGIL_DELIVERY_SEND_TIMEOUT", "3s");
        NotifierConfig c = NotifierSettings.load(null, env).config();
        assertThat(c.kafka().topics().alerts()).isEqualTo("env.alerts");
        assertThat(c.kafka().topics().deadLetter()).isEqualTo("env.dead");
        assertThat(c.delivery().sendTimeoutDuration()).isEqualTo(Duration.ofSeconds(3));
        env.put("VIGIL_DELIVERY_DEADLINE", "0s");
        assertThatThrownBy(() -> NotifierSettings.load(null, env))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration: delivery.deadline: must be positive");
    }

    private static Map<String, String> withEnv(String name, String value) {
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put(name, value);
        return env;
    }

    @Test
    void theDeadMansSwitchIsOffByDefaultAndItsUrlComesFromTheNamedVariable() throws IOException {
        Path plain = write("plain.yaml", "kafka:\n  bootstrapServers: k:9092\n");
        assertThat(NotifierSettings.load(plain, ENV).deadManUrl()).isEmpty();
        assertThat(NotifierSettings.load(plain, ENV).config().deadMan().enabled())
                .isFalse();

        String on = "kafka:\n  bootstrapServers: k:9092\ndeadMan:\n  urlEnv: HC_URL\n  interval: 30s\n";
        Path file = write("on.yaml", on);
        var loaded = NotifierSettings.load(file, withEnv("HC_URL", "https://hc-ping.test/uuid-secret"));
        assertThat(loaded.deadManUrl()).hasValue(java.net.URI.create("https://hc-ping.test/uuid-secret"));
        assertThat(loaded.config().deadMan().intervalDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(loaded.config().deadMan().maxCanaryAgeDuration()).isEqualTo(Duration.ofMinutes(4));
        // a local stand-in may be plain http on loopback
        assertThat(NotifierSettings.load(file, withEnv("HC_URL", "http://127.0.0.1:9/ping"))
                        .deadManUrl())
                .isPresent();

        assertThat(problems(on, ENV))
                .singleElement()
                .asString()
                .contains("deadMan.urlEnv")
                .contains("HC_URL")
                .contains("not set");
        List<String> plainHttp = problems(on, withEnv("HC_URL", "http://hc-ping.test/uuid-secret"));
        assertThat(plainHttp).singleElement().asString().contains("must be https");
        // the value is a secret: never in a problem
        assertThat(String.join(" ", plainHttp)).doesNotContain("uuid-secret");
    }
}
