package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.AlertEvent;
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
