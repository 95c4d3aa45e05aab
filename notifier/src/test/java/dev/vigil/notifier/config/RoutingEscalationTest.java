package dev.vigil.notifier.config;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.notifier.core.RouteDecision;
import dev.vigil.notifier.core.Tier;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Escalation tiers as written in the routing: what a route and a severity default climb to, and every mistake named. */
class RoutingEscalationTest {
    private static final Map<String, String> ENV = Map.of("HOOK_SECRET", "a-webhook-signing-secret-of-32-bytes!!");

    @TempDir
    Path dir;

    private NotifierSettings.Loaded load(String routing) throws IOException {
        Path file = dir.resolve("vigil-notifier.yaml");
        Files.writeString(file, "routing:\n" + routing.indent(2));
        return NotifierSettings.load(file, ENV);
    }

    private List<String> problems(String routing) {
        return ((ConfigException) org.assertj.core.api.Assertions.catchThrowable(() -> load(routing))).problems();
    }

    private static final String CHANNELS =
            """
            channels:
              slack: { type: log }
              pagerduty: { type: log }
              lead: { type: log }
              ops: { type: webhook, url: "http://127.0.0.1:9/hook", secretEnv: HOOK_SECRET }
            """;

    @Test
    void aRouteAndASeverityDefaultCarryTheirTiersInOrder() throws IOException {
        NotifierSettings.Loaded l = load(
                CHANNELS
                        + """
                routes:
                  - name: payments
                    services: [payments]
                    channels: [ops]
                    escalation:
                      - { after: 10m, channels: [pagerduty] }
                      - { after: 30m, channels: [lead, slack] }
                defaults: { critical: [slack], warning: [slack], info: [slack] }
                escalation:
                  critical:
                    - { after: 5m, channels: [pagerduty] }
                """);
        var routes = l.routing().routes();
        assertThat(routes.escalates()).isTrue();
        RouteDecision payments = routes.route(dev.vigil.notifier.support.TestEvents.with(
                opened("monitor/pay", Severity.CRITICAL), "payments", Map.of(), List.of(), false));
        assertThat(payments.channels()).containsExactly("ops");
        assertThat(payments.tiers())
                .containsExactly(
                        new Tier(2, Duration.ofMinutes(10), List.of("pagerduty")),
                        new Tier(3, Duration.ofMinutes(30), List.of("lead", "slack")));
        assertThat(routes.route(opened("monitor/other", Severity.CRITICAL)).tiers())
                .containsExactly(new Tier(2, Duration.ofMinutes(5), List.of("pagerduty")));
        assertThat(routes.route(opened("monitor/other", Severity.WARNING)).tiers())
                .isEmpty();
    }

    @Test
    void withoutEscalationNothingClimbs() throws IOException {
        NotifierSettings.Loaded l =
                load(CHANNELS + "defaults: { critical: [slack], warning: [slack], info: [slack] }\n");
        assertThat(l.routing().routes().escalates()).isFalse();
    }

    @Test
    void everyMistakeIsNamedWithItsKeyPath() {
        List<String> p = problems(
                CHANNELS
                        + """
                routes:
                  - name: payments
                    channels: [ops]
                    escalation:
                      - { after: 10m, channels: [pager] }
                      - { after: 5m, channels: [lead] }
                      - { channels: [slack] }
                      - { after: soon, channels: [slack] }
                      - { after: 2d, channels: [] }
                      - { after: 3d, channels: [ops] }
                defaults: { critical: [slack], warning: [slack], info: [slack] }
                escalation:
                  P1:
                    - { after: 0s, channels: [slack] }
                  urgent:
                    - { after: 1m, channels: [lead] }
                """);
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: routes[0] (payments).escalation: at most 5 escalation tiers",
                        "routing: escalation.P1[0].after: must be positive",
                        "routing: escalation.P1[0].channels: slack is already paged by the route's own channels",
                        "routing: escalation.urgent: unknown severity; expected critical, warning or info (the default"
                                + " route whose pages climb)");
        List<String> q = problems(
                CHANNELS
                        + """
                routes:
                  - name: payments
                    channels: [ops]
                    escalation:
                      - { after: 10m, channels: [pager] }
                      - { after: 5m, channels: [lead] }
                      - { channels: [slack] }
                      - { after: soon, channels: [slack] }
                      - { after: 2d, channels: [] }
                defaults: { critical: [slack], warning: [slack], info: [slack] }
                """);
        assertThat(q)
                .containsExactlyInAnyOrder(
                        "routing: routes[0] (payments).escalation[0].channels: unknown channel 'pager'; configured"
                                + " channels are [slack, pagerduty, lead, ops]",
                        "routing: routes[0] (payments).escalation[2].after: required: how long the incident stays"
                                + " unacknowledged before this tier is paged (e.g. 10m)",
                        "routing: routes[0] (payments).escalation[3].after: must be a duration such as 500ms, 10s, 5m,"
                                + " 1h or PT1H",
                        "routing: routes[0] (payments).escalation[3].channels: slack is already paged by escalation[2]",
                        "routing: routes[0] (payments).escalation[4].after: at most 1d",
                        "routing: routes[0] (payments).escalation[4].channels: a tier must page at least one channel");
    }

    @Test
    void tiersMustWaitLongerEachAndPageSomeoneNew() {
        List<String> p = problems(
                CHANNELS
                        + """
                routes:
                  - name: payments
                    channels: [ops]
                    escalation:
                      - { after: 10m, channels: [pagerduty] }
                      - { after: 10m, channels: [lead] }
                      - { after: 20m, channels: [pagerduty] }
                      - { after: 30m, channels: [ops] }
                defaults: { critical: [slack], warning: [slack], info: [slack] }
                """);
        assertThat(p)
                .containsExactlyInAnyOrder(
                        "routing: routes[0] (payments).escalation[1].after: must be later than the tier before it (10m)",
                        "routing: routes[0] (payments).escalation[2].channels: pagerduty is already paged by"
                                + " escalation[0]",
                        "routing: routes[0] (payments).escalation[3].channels: ops is already paged by the route's own"
                                + " channels");
    }

    @Test
    void aTierIsNumberedFromTwo() {
        assertThatThrownBy(() -> new Tier(1, Duration.ofMinutes(1), List.of("x")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
