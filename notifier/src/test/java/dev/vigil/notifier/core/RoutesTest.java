package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutesTest {
    private static final Set<String> CHANNELS = Set.of("betterstack", "slack", "discord", "log", "payments-hook", "ops-slack");

    private static Map<Severity, List<String>> standard() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack", "discord"));
        d.put(Severity.WARNING, List.of("slack", "discord"));
        d.put(Severity.INFO, List.of("log"));
        return d;
    }

    private final Routes defaults = new Routes(List.of(), standard(), CHANNELS);

    @Test
    void defaultRouteBySeverity() {
        assertThat(defaults.route(opened("monitor/a", Severity.CRITICAL)).channels())
                .containsExactly("betterstack", "slack", "discord");
        assertThat(defaults.route(opened("monitor/a", Severity.WARNING)).channels()).containsExactly("slack", "discord");
        assertThat(defaults.route(opened("monitor/a", Severity.INFO)).channels()).containsExactly("log");
        assertThat(defaults.route(opened("monitor/a", Severity.CRITICAL)).reason()).isEqualTo("default:critical");
    }

    @Test
    void unknownSeverityOnTheWireRoutesAsInfoAndAliasesAreHonoured() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        String json = Json.string(e).replace("\"severity\":\"critical\"", "\"severity\":\"sev-zero\"");
        AlertEvent odd = Json.read(json, AlertEvent.class);
        assertThat(defaults.route(odd).channels()).containsExactly("log");
        AlertEvent p1 = Json.read(Json.string(e).replace("\"severity\":\"critical\"", "\"severity\":\"P1\""), AlertEvent.class);
        assertThat(defaults.route(p1).channels()).containsExactly("betterstack", "slack", "discord");
        AlertEvent missing = Json.read(Json.string(e).replace("\"severity\":\"critical\",", ""), AlertEvent.class);
        assertThat(defaults.route(missing).channels()).containsExactly("log");
    }

    @Test
    void firstMatchingRouteWinsWithServiceAndAttributeMatchers() {
        Routes r = new Routes(List.of(
                new Route("payments-critical", Set.of(Severity.CRITICAL), Set.of("payments"), Map.of(), List.of("payments-hook", "betterstack")),
                new Route("eu-ops", Set.of(), Set.of(), Map.of("region", "eu-west", "team", "ops"), List.of("ops-slack")),
                new Route("payments-any", Set.of(), Set.of("payments"), Map.of(), List.of("slack"))),
                standard(), CHANNELS);
        AlertEvent crit = opened("monitor/p", Severity.CRITICAL);
        assertThat(r.route(with(crit, "payments", Map.of(), List.of(), false)))
                .isEqualTo(new RouteDecision(List.of("payments-hook", "betterstack"), "route:payments-critical"));
        assertThat(r.route(with(opened("monitor/p", Severity.WARNING), "payments", Map.of(), List.of(), false)).channels())
                .containsExactly("slack");
        assertThat(r.route(with(crit, "search", Map.of("region", "eu-west", "team", "ops"), List.of(), false)).channels())
                .containsExactly("ops-slack");
        // every attribute matcher must hold
        assertThat(r.route(with(crit, "search", Map.of("region", "eu-west"), List.of(), false)).reason())
                .isEqualTo("default:critical");
    }

    @Test
    void eventOverrideIsHonouredAndUnknownOverrideFallsBackToRouting() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        assertThat(defaults.route(with(e, "x", Map.of(), List.of("discord", "discord"), false)))
                .isEqualTo(new RouteDecision(List.of("discord"), "override"));
        assertThat(defaults.route(with(e, "x", Map.of(), List.of("nope", "log"), false)).channels()).containsExactly("log");
        RouteDecision fallback = defaults.route(with(e, "x", Map.of(), List.of("nope"), false));
        assertThat(fallback.channels()).containsExactly("betterstack", "slack", "discord");
        assertThat(fallback.reason()).contains("override named no configured channel");
    }

    /** An event as ingest builds it for an app: source app, fingerprint namespaced by ingest. */
    private static AlertEvent app(String fingerprint, Severity severity, List<String> channels) {
        AlertEvent e = opened(fingerprint, severity);
        return new AlertEvent(1, null, fingerprint, null, e.state(), severity, "checkout", null, "payment errors",
                Map.of(), Map.of(), 1, e.firstSeen(), e.lastSeen(), AlertSource.APP, false, channels);
    }

    private final Routes withApps = new Routes(List.of(
            new Route("payments", Set.of(), Set.of("payments"), Map.of(), List.of("payments-hook"))),
            standard(), CHANNELS, Map.of("checkout", Set.of("slack", "ops-slack"), "quiet", Set.of()));

    @Test
    void anAppOverrideKeepsOnlyTheChannelsThatAppIsAllowed() {
        RouteDecision d = withApps.route(app("app/checkout/payments", Severity.CRITICAL,
                List.of("betterstack", "slack", "nope", "slack")));
        assertThat(d).isEqualTo(new RouteDecision(List.of("slack"), "override:app/checkout", List.of("betterstack", "nope")));
        assertThat(withApps.route(app("app/checkout/payments", Severity.INFO, List.of("ops-slack", "slack"))))
                .isEqualTo(new RouteDecision(List.of("ops-slack", "slack"), "override:app/checkout"));
    }

    @Test
    void anAppOverrideWithNothingAllowedFallsBackToNormalRouting() {
        RouteDecision d = withApps.route(app("app/checkout/db", Severity.WARNING, List.of("betterstack", "payments-hook")));
        assertThat(d.channels()).containsExactly("slack", "discord");
        assertThat(d.refused()).containsExactly("betterstack", "payments-hook");
        assertThat(d.reason()).startsWith("default:warning").contains("override refused for app checkout");
        // an app allowed nothing, and an app the routing does not name, get no override
        assertThat(withApps.route(app("app/quiet/x", Severity.INFO, List.of("slack"))))
                .isEqualTo(new RouteDecision(List.of("log"), "default:info (override refused for app quiet: [slack])",
                        List.of("slack")));
        assertThat(withApps.route(app("app/other/x", Severity.INFO, List.of("slack"))).channels()).containsExactly("log");
        // the matching route still applies to the app's event
        AlertEvent payments = with(app("app/checkout/p", Severity.CRITICAL, List.of("betterstack")), "payments", Map.of(),
                List.of("betterstack"), false);
        assertThat(withApps.route(payments).channels()).containsExactly("payments-hook");
    }

    @Test
    void anAppEventWithoutTheAppNamespaceGetsNoOverrideAtAll() {
        for (String fp : List.of("checkout/payments", "monitor/checkout", "app/checkout", "apps/checkout/x")) {
            RouteDecision d = withApps.route(app(fp, Severity.CRITICAL, List.of("slack")));
            assertThat(d.channels()).as(fp).containsExactly("betterstack", "slack", "discord");
            assertThat(d.refused()).as(fp).containsExactly("slack");
            assertThat(d.reason()).as(fp).contains("app event without an app/<appId>/ fingerprint");
        }
        assertThat(Routes.appId("app/checkout/a/b")).isEqualTo("checkout");
        assertThat(Routes.appId("app/checkout")).isNull();
        assertThat(Routes.appId("monitor/app/checkout")).isNull();
    }

    @Test
    void eventsVigilProducedKeepTheirOverrideWhateverTheAppsSectionSays() {
        // a probe event whose fingerprint merely looks namespaced is not an app's event
        AlertEvent probe = with(opened("app/quiet/x", Severity.CRITICAL), "x", Map.of(), List.of("betterstack"), false);
        assertThat(withApps.route(probe)).isEqualTo(new RouteDecision(List.of("betterstack"), "override"));
        assertThat(withApps.route(with(opened("monitor/a", Severity.INFO), "x", Map.of(), List.of("discord"), false)))
                .isEqualTo(new RouteDecision(List.of("discord"), "override"));
    }

    @Test
    void theNotifiersOwnDeliveryFailingAlertKeepsItsOverrideThoughItsSourceIsApp() {
        AlertEvent failed = opened("monitor/a", Severity.CRITICAL);
        AlertEvent alert = DeliveryFailing.alert(failed, "slack", "slack answered HTTP 404",
                List.of("betterstack", "discord"), failed.lastSeen());
        assertThat(alert.source()).isEqualTo(AlertSource.APP);
        assertThat(withApps.route(alert)).isEqualTo(new RouteDecision(List.of("betterstack", "discord"), "override"));
        // an app's event named like it, inside its namespace, is still only an app's event
        AlertEvent lookalike = app("app/checkout/" + alert.fingerprint(), Severity.CRITICAL, List.of("betterstack"));
        assertThat(withApps.route(lookalike).refused()).containsExactly("betterstack");
    }

    @Test
    void anAppCannotBeAllowedAnUnconfiguredChannel() {
        assertThatThrownBy(() -> new Routes(List.of(), standard(), CHANNELS, Map.of("checkout", Set.of("pager"))))
                .hasMessageContaining("checkout");
    }

    @Test
    void failureAlertsGoToTheOtherChannels() {
        assertThat(defaults.othersThan("slack", List.of("betterstack", "slack", "discord")))
                .containsExactly("betterstack", "discord");
        assertThat(defaults.othersThan("log", List.of("log")))
                .containsExactlyInAnyOrder("betterstack", "slack", "discord", "payments-hook", "ops-slack");
    }

    @Test
    void everySeverityNeedsADefault() {
        Map<Severity, List<String>> d = standard();
        d.remove(Severity.INFO);
        assertThatThrownBy(() -> new Routes(List.of(), d, CHANNELS)).hasMessageContaining("info");
    }
}
