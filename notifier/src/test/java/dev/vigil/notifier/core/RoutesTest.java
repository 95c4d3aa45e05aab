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
    private static final Set<String> CHANNELS =
            Set.of("betterstack", "slack", "discord", "log", "payments-hook", "ops-slack");

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
        assertThat(defaults.route(opened("monitor/a", Severity.WARNING)).channels())
                .containsExactly("slack", "discord");
        assertThat(defaults.route(opened("monitor/a", Severity.INFO)).channels())
                .containsExactly("log");
        assertThat(defaults.route(opened("monitor/a", Severity.CRITICAL)).reason())
                .isEqualTo("default:critical");
    }

    @Test
    void unknownSeverityOnTheWireRoutesAsInfoAndAliasesAreHonoured() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        String json = Json.string(e).replace("\"severity\":\"critical\"", "\"severity\":\"sev-zero\"");
        AlertEvent odd = Json.read(json, AlertEvent.class);
        assertThat(defaults.route(odd).channels()).containsExactly("log");
        AlertEvent p1 =
                Json.read(Json.string(e).replace("\"severity\":\"critical\"", "\"severity\":\"P1\""), AlertEvent.class);
        assertThat(defaults.route(p1).channels()).containsExactly("betterstack", "slack", "discord");
        AlertEvent missing = Json.read(Json.string(e).replace("\"severity\":\"critical\",", ""), AlertEvent.class);
        assertThat(defaults.route(missing).channels()).containsExactly("log");
    }

    @Test
    void firstMatchingRouteWinsWithServiceAndAttributeMatchers() {
        Routes r = new Routes(
                List.of(
                        new Route(
                                "payments-critical",
                                Set.of(Severity.CRITICAL),
                                Set.of("payments"),
                                Map.of(),
                                List.of("payments-hook", "betterstack")),
                        new Route(
                                "eu-ops",
                                Set.of(),
                                Set.of(),
                                Map.of("region", "eu-west", "team", "ops"),
                                List.of("ops-slack")),
                        new Route("payments-any", Set.of(), Set.of("payments"), Map.of(), List.of("slack"))),
                standard(),
                CHANNELS);
        AlertEvent crit = opened("monitor/p", Severity.CRITICAL);
        assertThat(r.route(with(crit, "payments", Map.of(), List.of(), false)))
                .isEqualTo(new RouteDecision(List.of("payments-hook", "betterstack"), "route:payments-critical"));
        assertThat(r.route(with(opened("monitor/p", Severity.WARNING), "payments", Map.of(), List.of(), false))
                        .channels())
                .containsExactly("slack");
        assertThat(r.route(with(crit, "search", Map.of("region", "eu-west", "team", "ops"), List.of(), false))
                        .channels())
                .containsExactly("ops-slack");
        // every attribute matcher must hold
        assertThat(r.route(with(crit, "search", Map.of("region", "eu-west"), List.of(), false))
                        .reason())
                .isEqualTo("default:critical");
    }

    @Test
    void eventOverrideIsHonouredAndUnknownOverrideFallsBackToRouting() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        assertThat(defaults.route(with(e, "x", Map.of(), List.of("discord", "discord"), false)))
                .isEqualTo(new RouteDecision(List.of("discord"), "override"));
        assertThat(defaults.route(with(e, "x", Map.of(), List.of("nope", "log"), false))
                        .channels())
                .containsExactly("log");
        RouteDecision fallback = defaults.route(with(e, "x", Map.of(), List.of("nope"), false));
        assertThat(fallback.channels()).containsExactly("betterstack", "slack", "discord");
        assertThat(fallback.reason()).contains("override named no configured channel");
    }

    /** An event as ingest builds it for an app: source app, fingerprint namespaced by ingest. */
    private static AlertEvent app(String fingerprint, Severity severity, List<String> channels) {
        AlertEvent e = opened(fingerprint, severity);
        return new AlertEvent(
                1,
                null,
                fingerprint,
                null,
                e.state(),
                severity,
                "checkout",
                null,
                "payment errors",
                Map.of(),
                Map.of(),
                1,
                e.firstSeen(),
                e.lastSeen(),
                AlertSource.APP,
                false,
                channels);
    }

    private final Routes withApps = new Routes(
            List.of(new Route("payments", Set.of(), Set.of("payments"), Map.of(), List.of("payments-hook"))),
            standard(),
            CHANNELS,
            Map.of("checkout", Set.of("slack", "ops-slack"), "quiet", Set.of()));

    @Test
    void anAppOverrideKeepsOnlyTheChannelsThatAppIsAllowed() {
        RouteDecision d = withApps.route(
                app("app/checkout/payments", Severity.CRITICAL, List.of("betterstack", "slack", "nope", "slack")));
        assertThat(d)
                .isEqualTo(
                        new RouteDecision(List.of("slack"), "override:app/checkout", List.of("betterstack", "nope")));
        assertThat(withApps.route(app("app/checkout/payments", Severity.INFO, List.of("ops-slack", "slack"))))
                .isEqualTo(new RouteDecision(List.of("ops-slack", "slack"), "override:app/checkout"));
    }

    @Test
    void anAppOverrideWithNothingAllowedFallsBackToNormalRouting() {
        RouteDecision d =
                withApps.route(app("app/checkout/db", Severity.WARNING, List.of("betterstack", "payments-hook")));
        assertThat(d.channels()).containsExactly("slack", "discord");
        assertThat(d.refused()).containsExactly("betterstack", "payments-hook");
        assertThat(d.reason()).startsWith("default:warning").contains("override refused for app checkout");
        // an app allowed nothing, and an app the routing does not name, get no override
        assertThat(withApps.route(app("app/quiet/x", Severity.INFO, List.of("slack"))))
                .isEqualTo(new RouteDecision(
                        List.of("log"), "default:info (override refused for app quiet: [slack])", List.of("slack")));
        assertThat(withApps.route(app("app/other/x", Severity.INFO, List.of("slack")))
                        .channels())
                .containsExactly("log");
        // a route on a service the app may not speak for does not apply to the app's event (see below)
        AlertEvent payments = with(
                app("app/checkout/p", Severity.CRITICAL, List.of("betterstack")),
                "payments",
                Map.of(),
                List.of("betterstack"),
                false);
        assertThat(withApps.route(payments).channels()).containsExactly("betterstack", "slack", "discord");
    }

    /** The example routing's routes: another team's service route and a region route. */
    private static final List<Route> TEAM_ROUTES = List.of(
            new Route(
                    "payments-critical",
                    Set.of(Severity.CRITICAL),
                    Set.of("payments"),
                    Map.of(),
                    List.of("betterstack", "payments-hook", "slack")),
            new Route(
                    "eu-warnings", Set.of(Severity.WARNING), Set.of(), Map.of("region", "eu-west"), List.of("discord")),
            new Route("all-info", Set.of(Severity.INFO), Set.of(), Map.of(), List.of("ops-slack")));

    private static AlertEvent appSays(String app, Severity severity, String service, Map<String, String> attributes) {
        return with(app("app/" + app + "/errors", severity, List.of()), service, attributes, List.of(), false);
    }

    @Test
    void anAppCannotBorrowAnotherTeamsRouteByNamingItsServiceOrAttributes() {
        Routes r = new Routes(TEAM_ROUTES, standard(), CHANNELS, Map.of("checkout", Set.of("slack")));
        // checkout posts {"service":"payments","severity":"critical"}: its page falls to the critical default
        RouteDecision d = r.route(appSays("checkout", Severity.CRITICAL, "payments", Map.of()));
        assertThat(d.channels()).containsExactly("betterstack", "slack", "discord");
        assertThat(d.refusedRoutes()).containsExactly("payments-critical");
        assertThat(d.refused()).isEmpty();
        assertThat(d.reason())
                .isEqualTo(
                        "default:critical (routes refused for app checkout, not allowed its service: [payments-critical])");
        // ... or sets attributes.region=eu-west: the warning default, not the eu team's route
        RouteDecision eu = r.route(appSays("checkout", Severity.WARNING, "checkout", Map.of("region", "eu-west")));
        assertThat(eu.channels()).containsExactly("slack", "discord");
        assertThat(eu.refusedRoutes()).containsExactly("eu-warnings");
        // a route without service or attribute matchers still matches the app's events
        assertThat(r.route(appSays("checkout", Severity.INFO, "payments", Map.of("region", "eu-west"))))
                .isEqualTo(new RouteDecision(List.of("ops-slack"), "route:all-info"));
        // an app event without the app namespace speaks for no service
        RouteDecision bare = r.route(
                with(app("checkout/errors", Severity.CRITICAL, List.of()), "payments", Map.of(), List.of(), false));
        assertThat(bare.channels()).containsExactly("betterstack", "slack", "discord");
        assertThat(bare.refusedRoutes()).containsExactly("payments-critical");
        // a route the event does not match at all is not reported as refused
        assertThat(r.route(appSays("checkout", Severity.CRITICAL, "search", Map.of())))
                .isEqualTo(new RouteDecision(List.of("betterstack", "slack", "discord"), "default:critical"));
    }

    @Test
    void anAppAllowedAServiceMatchesThatServicesRoutes() {
        Routes r = new Routes(
                TEAM_ROUTES,
                standard(),
                CHANNELS,
                Map.of("checkout", Set.of("slack")),
                Map.of("checkout", Set.of("payments"), "search", Set.of()));
        assertThat(r.route(appSays("checkout", Severity.CRITICAL, "payments", Map.of())))
                .isEqualTo(
                        new RouteDecision(List.of("betterstack", "payments-hook", "slack"), "route:payments-critical"));
        // attribute routes too, for an event of an allowed service
        assertThat(r.route(appSays("checkout", Severity.WARNING, "payments", Map.of("region", "eu-west")))
                        .channels())
                .containsExactly("discord");
        // but not for one whose service the app is not allowed
        RouteDecision other = r.route(appSays("checkout", Severity.WARNING, "checkout", Map.of("region", "eu-west")));
        assertThat(other.channels()).containsExactly("slack", "discord");
        assertThat(other.refusedRoutes()).containsExactly("eu-warnings");
        // the grant is the app's own: another app (listed with none, or not listed) gets nothing from it
        assertThat(r.route(appSays("search", Severity.CRITICAL, "payments", Map.of()))
                        .refusedRoutes())
                .containsExactly("payments-critical");
        assertThat(r.route(appSays("other", Severity.CRITICAL, "payments", Map.of()))
                        .refusedRoutes())
                .containsExactly("payments-critical");
    }

    @Test
    void vigilsOwnEventsMatchServiceAndAttributeRoutesAsBefore() {
        Routes r = new Routes(TEAM_ROUTES, standard(), CHANNELS, Map.of("checkout", Set.of("slack")));
        AlertEvent probe =
                with(opened("monitor/payments-api", Severity.CRITICAL), "payments", Map.of(), List.of(), false);
        assertThat(r.route(probe))
                .isEqualTo(
                        new RouteDecision(List.of("betterstack", "payments-hook", "slack"), "route:payments-critical"));
        AlertEvent eu =
                with(opened("monitor/eu", Severity.WARNING), "search", Map.of("region", "eu-west"), List.of(), false);
        assertThat(r.route(eu)).isEqualTo(new RouteDecision(List.of("discord"), "route:eu-warnings"));
        // the notifier's own delivery-failing alert (source app) without an override still matches its service route
        AlertEvent failed = opened("monitor/a", Severity.CRITICAL);
        AlertEvent alert =
                DeliveryFailing.alert(failed, "slack", "slack answered HTTP 404", List.of(), failed.lastSeen());
        Routes own = new Routes(
                List.of(new Route("notifier", Set.of(), Set.of(alert.service()), Map.of(), List.of("ops-slack"))),
                standard(),
                CHANNELS);
        assertThat(own.route(alert)).isEqualTo(new RouteDecision(List.of("ops-slack"), "route:notifier"));
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
        AlertEvent alert = DeliveryFailing.alert(
                failed, "slack", "slack answered HTTP 404", List.of("betterstack", "discord"), failed.lastSeen());
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
