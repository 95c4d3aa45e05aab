package dev.vigil.streams.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.Group;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a public page may say, from the API's answers; the page configuration's validation. */
class StatusPagesTest {

    @Test
    void anIncidentIsTheAvailabilityAlertInVigilsWordsNeverItsSummary() {
        var detail = Json.tree(Json.bytes(Map.of(
                "monitor", Map.of("name", "Checkout", "target", "https://internal.example/pay?key=1"),
                "status", Map.of("status", "down", "regions", Map.of("eu-west", Map.of("outcome", "http_failure"))),
                "alerts",
                        List.of(
                                Map.of(
                                        "fingerprint",
                                        "monitor/pay/no-data",
                                        "severity",
                                        "warning",
                                        "since",
                                        5L,
                                        "summary",
                                        "no data from eu-west"),
                                Map.of(
                                        "fingerprint",
                                        "monitor/pay",
                                        "severity",
                                        "critical",
                                        "since",
                                        7L,
                                        "summary",
                                        "pay is down: HTTP 503 from https://internal.example/pay",
                                        "acknowledgedBy",
                                        "ann")))));
        var m = StatusPages.publicMonitor("pay", detail, null);
        assertThat(m.name()).isEqualTo("Checkout");
        assertThat(m.status()).isEqualTo("down");
        assertThat(m.incident()).isEqualTo(new StatusPages.Incident("critical", 7L, true));
        String rendered = Json.string(m)
                + StatusPageHtml.render(
                        new StatusPages.Page(
                                "p", "T", null, "partial_outage", 0L, List.of(new StatusPages.Group("g", List.of(m)))),
                        "v1");
        assertThat(rendered)
                .doesNotContain("internal.example")
                .doesNotContain("503")
                .doesNotContain("eu-west")
                .doesNotContain("ann")
                .doesNotContain("no data from");
    }

    @Test
    void aMonitorUpAgainWhileItsIncidentIsOpenIsRecoveringNotOperational() {
        var back = new StatusPages.PublicMonitor(
                "pay", "Checkout", "up", new StatusPages.Incident("critical", 7L, true), 99.0, List.of());
        var fine = new StatusPages.PublicMonitor("blog", "Blog", "up", null, 100.0, List.of());
        var down = new StatusPages.PublicMonitor(
                "shop", "Shop", "down", new StatusPages.Incident("critical", 9L, false), 90.0, List.of());
        String html = StatusPageHtml.render(
                new StatusPages.Page(
                        "p",
                        "T",
                        null,
                        "partial_outage",
                        0L,
                        List.of(new StatusPages.Group("g", List.of(back, fine, down)))),
                "v1");

        assertThat(html)
                .contains("<span class=\"state state-recovering\">Recovering</span>")
                .contains("<span class=\"state state-up\">Operational</span>")
                .contains("<span class=\"state state-down\">Down</span>");
        assertThat(html)
                .contains("The service is back; we are confirming the recovery.")
                .as("recovering says more than acknowledged")
                .doesNotContain("We are working on it.");
        assertThat(html.split("confirming the recovery", -1).length - 1)
                .as("only the recovering incident")
                .isEqualTo(1);
    }

    @Test
    void aMonitorWithoutAVerdictIsPendingAndHasNoIncident() {
        var m = StatusPages.publicMonitor("new", Json.tree(Json.bytes(Map.of("monitor", Map.of("name", "New")))), null);
        assertThat(m.status()).isEqualTo("pending");
        assertThat(m.incident()).isNull();
        assertThat(m.days()).isEmpty();
    }

    @Test
    void overallIsMajorWhenMostAreDown() {
        var up = new StatusPages.PublicMonitor("a", "a", "up", null, null, List.of());
        var down = new StatusPages.PublicMonitor("b", "b", "down", null, null, List.of());
        var degraded = new StatusPages.PublicMonitor("c", "c", "degraded", null, null, List.of());
        assertThat(StatusPages.overall(List.of(up, up))).isEqualTo("operational");
        assertThat(StatusPages.overall(List.of(up, degraded))).isEqualTo("degraded");
        assertThat(StatusPages.overall(List.of(up, down, degraded))).isEqualTo("partial_outage");
        assertThat(StatusPages.overall(List.of(down, down, up))).isEqualTo("major_outage");
    }

    @Test
    void pagesAreValidatedWithTheKeyPathOfEachProblem() {
        assertThatThrownBy(() -> new StatusPage("Bad Id", "t", null, List.of(new Group("g", List.of("a")))))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("statusPages.id");
        assertThatThrownBy(() -> new StatusPage("p", " ", null, List.of(new Group("g", List.of("a")))))
                .hasMessageContaining("statusPages[p].title");
        assertThatThrownBy(() -> new StatusPage("p", "t", null, List.of()))
                .hasMessageContaining("statusPages[p].groups");
        assertThatThrownBy(() -> new StatusPage("p", "t", null, List.of(new Group("g", List.of("a", "../x")))))
                .hasMessageContaining("'../x' is not a monitor id");
        assertThatThrownBy(() -> new StatusPage(
                        "p", "t", null, List.of(new Group("g", List.of("a")), new Group("h", List.of("a")))))
                .hasMessageContaining("'a' is listed twice");
        List<String> many = new ArrayList<>();
        for (int i = 0; i <= StatusPage.MAX_MONITORS; i++) {
            many.add("m-" + i);
        }
        assertThatThrownBy(() -> new StatusPage("p", "t", null, List.of(new Group("g", many))))
                .hasMessageContaining("at most " + StatusPage.MAX_MONITORS);
        StatusPage ok = new StatusPage("p", "t", null, List.of(new Group("g", List.of("a"))));
        assertThatThrownBy(() -> StreamsServiceConfig.defaults().withStatusPages(List.of(ok, ok)))
                .hasMessageContaining("'p' is used twice");
    }

    @Test
    void pagesLoadFromTheStreamsYaml(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("vigil-streams.yaml");
        Files.writeString(
                yaml,
                """
                statusPages:
                  - id: shop
                    title: Acme Shop
                    groups:
                      - name: Storefront
                        monitors: [shop-home, shop-search]
                """);
        var cfg = StreamsServiceConfig.load(yaml, Map.of());
        assertThat(cfg.statusPages()).hasSize(1);
        assertThat(cfg.statusPages().get(0).monitorIds()).containsExactly("shop-home", "shop-search");

        Files.writeString(
                yaml,
                """
                statusPages:
                  - id: shop
                    title: Acme Shop
                    groups:
                      - name: Storefront
                        monitors: [Shop_Home]
                """);
        assertThatThrownBy(() -> StreamsServiceConfig.load(yaml, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("statusPages[shop].groups[0].monitors");
    }
}
