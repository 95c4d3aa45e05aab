package dev.vigil.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.channel.pagerduty.PagerDutyEvent;
import dev.vigil.notifier.channel.slack.SlackMessage;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped example configuration stays valid, and start-up problems outside the YAML are clear. */
class ExampleConfigTest {
    private static final Path EXAMPLE = Path.of("config/vigil-notifier.yaml");
    private static final Map<String, String> ENV = Map.of(
            "BETTERSTACK_API_TOKEN", "t",
            "SLACK_WEBHOOK_URL", "https://hooks.slack.test/services/T/B/X",
            "DISCORD_WEBHOOK_URL", "https://discord.test/api/webhooks/1/x",
            "PAYMENTS_HOOK_SECRET", "0123456789abcdef0123456789abcdef");

    @Test
    void thePagerDutyTeamsAndEmailExampleIsValid() {
        Path example = Path.of("config/routing-pagerduty-teams-email.yaml");
        RoutingValidator.Validated v = RoutingValidator.validate(
                ConfigLoader.bind(ConfigLoader.readYaml(example), RoutingSpec.class, example.toString()),
                Map.of(
                        "PAGERDUTY_ROUTING_KEY",
                        "R0123456789abcdef0123456789abcde",
                        "TEAMS_WORKFLOW_URL",
                        "https://prod.example.logic.azure.com/workflows/1/triggers/manual?sig=x",
                        "SMTP_PASSWORD",
                        "pw"),
                example.toString(),
                example.getParent());
        assertThat(v.channels()).containsOnlyKeys("pagerduty", "teams", "oncall-mail", "log");
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        var pagerduty = PagerDutyEvent.template(v.channels().get("pagerduty").template());
        assertThat(PagerDutyEvent.build(opened, "R0123456789abcdef0123456789abcde", pagerduty)
                        .path("payload")
                        .path("summary")
                        .asText())
                .isEqualTo("CRITICAL checkout-api: checkout-api is down in 2 of 3 regions [region=us-east]");
        assertThat(v.channels().get("oncall-mail").email().to()).containsExactly("oncall@example.com");
    }

    @Test
    void theExampleLoads() {
        NotifierSettings.Loaded l = NotifierSettings.load(EXAMPLE, ENV);
        assertThat(l.routing().channels())
                .containsOnlyKeys("betterstack", "slack", "discord", "payments-hook", "log", "daily");
        assertThat(l.config().digest().channels()).containsExactly("slack");
        assertThat(l.config().http().port()).isEqualTo(8082);
        var slack = SlackMessage.template(l.routing().channels().get("slack").template());
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        AlertEvent resolved = TestEvents.event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 2);
        assertThat(SlackMessage.build(opened, slack)
                        .at("/attachments/0/blocks/1/text/text")
                        .asText())
                .isEqualTo(
                        "checkout-api is down in 2 of 3 regions\n<https://grafana.example.test/d/checkout|dashboard>");
        assertThat(SlackMessage.build(resolved, slack)
                        .at("/attachments/0/blocks/1/text/text")
                        .asText())
                .startsWith(":white_check_mark: *checkout-api* recovered: checkout-api is down");
        // the example grants the checkout app slack, and nothing else, in an override
        AlertEvent base = TestEvents.opened("monitor/x", Severity.CRITICAL);
        AlertEvent app = new AlertEvent(
                1,
                null,
                "app/checkout/payments",
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "checkout",
                null,
                "payment errors",
                Map.of(),
                Map.of(),
                1,
                base.firstSeen(),
                base.lastSeen(),
                AlertSource.APP,
                false,
                java.util.List.of("slack", "betterstack"));
        assertThat(l.routing().routes().route(app).channels()).containsExactly("slack");
        // nor may it borrow the payments team's route by naming their service: the critical default pages instead
        AlertEvent borrowed = new AlertEvent(
                1,
                null,
                "app/checkout/payments",
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "payments",
                null,
                "payment errors",
                Map.of(),
                Map.of(),
                1,
                base.firstSeen(),
                base.lastSeen(),
                AlertSource.APP,
                false,
                java.util.List.of());
        assertThat(l.routing().routes().route(borrowed).channels()).containsExactly("betterstack", "slack", "discord");
    }

    @Test
    void theExampleWithoutItsSecretsNamesEachVariable() {
        assertThatThrownBy(() -> NotifierSettings.load(EXAMPLE, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems())
                        .hasSize(4)
                        .allSatisfy(p -> assertThat(p)
                                .contains("routing.yaml: channels.")
                                .contains("is not set")));
    }

    @Test
    void anUnreachableDatabaseStopsStartUpWithAClearMessage() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        NotifierConfig cfg = NotifierSettings.load(EXAMPLE, ENV)
                .config()
                .withDatabase(new NotifierConfig.Database(
                        "r2dbc:postgresql://127.0.0.1:" + closedPort + "/vigil", "vigil", null, 2, "2s"))
                .withDigest(null)
                .withRouting(new RoutingSpec(
                        Map.of("log", ChannelSpec.of(ChannelType.LOG)),
                        java.util.List.of(),
                        Map.of(
                                "critical",
                                java.util.List.of("log"),
                                "warning",
                                java.util.List.of("log"),
                                "info",
                                java.util.List.of("log"))));
        assertThatThrownBy(() -> NotifierService.start(cfg, ENV))
                .isInstanceOf(NotifierService.StartupException.class)
                .hasMessageStartingWith("cannot prepare the PostgreSQL schema at r2dbc:postgresql://127.0.0.1:"
                        + closedPort + "/vigil as vigil: ")
                .hasMessageContaining("database.startupWait");
    }
}
