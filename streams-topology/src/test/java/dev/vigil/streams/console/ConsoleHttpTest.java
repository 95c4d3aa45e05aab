package dev.vigil.streams.console;

import static dev.vigil.streams.Fixtures.INTERVAL_MS;
import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.config.StreamsServiceConfig.Group;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.DriverBackend;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.TestApi;
import dev.vigil.streams.topology.DriverHarness;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The console's shell, its assets, public status pages and badges over loopback HTTP, on a query server over a
 * TopologyTestDriver's stores: what is public, what is not, what a page may show and the headers that keep the
 * browser safe.
 */
class ConsoleHttpTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(W0 + 10 * INTERVAL_MS), ZoneOffset.UTC);
    static final String XSS = "<img src=x onerror=alert(1)>";

    private DriverHarness harness;
    private QueryServer server;
    private Forwarder forwarder;
    private ConsoleAssets assets;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        harness = new DriverHarness(W0 - 30_000);
        harness.define(named("shop", XSS));
        harness.define(named("blog", "Blog"));
        harness.define(named("secret-admin", "Internal admin"));
        harness.wallClockTo(W0 - 20_000);
        harness.result(success("shop", "eu-west", W0));
        harness.result(failure("shop", "eu-west", W0 + INTERVAL_MS));
        harness.result(success("blog", "eu-west", W0));
        harness.result(success("secret-admin", "eu-west", W0));

        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        DriverBackend backend = new DriverBackend(harness.driver);
        ApiRoutes routes = new ApiRoutes();
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, CLOCK);
        assets = ConsoleAssets.load();
        new ConsoleRoutes(assets).register(routes);
        StatusPage page = new StatusPage(
                "public",
                "Acme <b>status</b>",
                "What our customers see",
                List.of(
                        new Group("Storefront", List.of("shop", "blog")),
                        new Group("Later", List.of("not-defined-yet"))));
        new StatusPages(List.of(page), routes, CLOCK, assets.version()).register(routes);
        server = TestApi.start(routes, QueryServer.ops(backend, () -> "# metrics\n"));
    }

    private static MonitorDefinition named(String id, String name) {
        return new MonitorDefinition(
                1,
                id,
                name,
                "https://internal.example.com/" + id + "?token=abc",
                null,
                60,
                2500,
                regions(1),
                null,
                null,
                null,
                "web",
                null,
                null,
                null);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        forwarder.close();
        harness.close();
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theShellIsPublicWithAStrictPolicyAndVersionedAssets() throws Exception {
        var res = get("/", null);
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(res.headers().firstValue("Content-Security-Policy")).hasValue(ConsoleRoutes.CONSOLE_CSP);
        assertThat(ConsoleRoutes.CONSOLE_CSP)
                .doesNotContain("unsafe-inline")
                .doesNotContain("unsafe-eval")
                .contains("frame-ancestors 'none'")
                .contains("script-src 'self'");
        assertThat(res.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(res.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(res.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(res.body()).doesNotContain(ConsoleAssets.VERSION_PLACEHOLDER).contains("?v=" + assets.version());
        // no inline script, no inline style, no handler attributes in the shell
        assertThat(res.body())
                .doesNotContainPattern("<script(?![^>]*\\bsrc=)[^>]*>")
                .doesNotContain("<style")
                .doesNotContainPattern("\\sstyle=")
                .doesNotContainPattern("\\son[a-z]+=");

        var css = get("/console/status-page.css?v=" + assets.version(), null);
        assertThat(css.statusCode()).isEqualTo(200);
        assertThat(css.headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
        assertThat(css.headers().firstValue("Cache-Control")).hasValue(ConsoleRoutes.IMMUTABLE);
        assertThat(get("/console/status-page.css?v=old", null).headers().firstValue("Cache-Control"))
                .hasValue("no-cache");

        var uplot = get("/console/vendor/uplot.js?v=" + assets.version(), null);
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(uplot.body()).contains("uPlot");
    }

    @Test
    void onlyTheConsoleFilesAreServedAndNoPathReachesTheApiWithoutAToken() throws Exception {
        for (String path : List.of(
                "/console/nope.js",
                "/console/index.html",
                "/console/..%2Fopenapi%2Fstreams-query.json",
                "/console/%2e%2e%2fopenapi",
                "/console/vendor/..%2F..%2Fconsole%2Findex.html",
                "/console/vendor/uPlot.min.css",
                "/console/.hidden.js")) {
            var res = get(path, null);
            assertThat(res.statusCode()).as(path).isEqualTo(404);
            assertThat(res.headers().firstValue("Content-Type")).as(path).hasValue("application/problem+json");
        }
        for (String path : List.of(
                "/v1/status",
                "/console/../v1/status",
                "/status/../v1/status",
                "/v1/whoami",
                "/badge/../v1/status",
                "/v1/monitors/shop")) {
            var res = get(path, null);
            assertThat(res.statusCode()).as(path).isIn(401, 404);
            assertThat(res.body())
                    .as(path)
                    .doesNotContain("monitorId")
                    .doesNotContain("network_failure")
                    .doesNotContain("\"monitors\"");
        }
        assertThat(get("/v1/status", null).statusCode()).isEqualTo(401);
        var post = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).as("only GET of the shell is public").isEqualTo(401);
    }

    @Test
    void whoamiNamesTheTokenAndItsScopesForAnyValidToken() throws Exception {
        var reader = get("/v1/whoami", "Bearer " + TestApi.READER);
        assertThat(reader.statusCode()).isEqualTo(200);
        assertThat(json(reader).path("name").asText()).isEqualTo("test-reader");
        assertThat(json(reader).path("scopes").toString()).isEqualTo("[\"read\"]");
        assertThat(reader.body()).doesNotContain(TestApi.READER);
        var acker = get("/v1/whoami", "Bearer " + TestApi.ACKER);
        assertThat(acker.statusCode())
                .as("a token without read may still ask who it is")
                .isEqualTo(200);
        assertThat(json(acker).path("scopes").toString()).isEqualTo("[\"ack\"]");
        assertThat(get("/v1/whoami", "Bearer vgl_not-a-token").statusCode()).isEqualTo(401);
    }

    @Test
    void statusRowsCarryEachRegionsOutcomeAndTheService() throws Exception {
        JsonNode shop = null;
        for (JsonNode row : json(get("/v1/status", TestApi.admin())).path("monitors")) {
            if (row.path("monitorId").asText().equals("shop")) {
                shop = row;
            }
        }
        assertThat(shop).isNotNull();
        assertThat(shop.path("regions").path("eu-west").asText()).isEqualTo("network_failure");
        assertThat(shop.path("service").asText()).isEqualTo("web");
    }

    @Test
    void aStatusPageShowsOnlyItsMonitorsWithoutUrlsOrErrorsAndEscapesEveryName() throws Exception {
        var res = get("/status/public", null);
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Security-Policy")).hasValue(StatusPages.CSP);
        assertThat(StatusPages.CSP).contains("default-src 'none'").doesNotContain("script-src");
        String html = res.body();
        assertThat(html).contains("Acme &lt;b&gt;status&lt;/b&gt;").doesNotContain("<b>status</b>");
        assertThat(html).contains("&lt;img src=x onerror=alert(1)&gt;").doesNotContain(XSS);
        assertThat(html).contains("Blog").contains("Storefront").contains("Later");
        assertThat(html)
                .contains("data-monitor=\"shop\"")
                .contains("data-monitor=\"blog\"")
                .contains("data-monitor=\"not-defined-yet\"");
        assertThat(html).doesNotContain("secret-admin").doesNotContain("Internal admin");
        assertThat(html)
                .doesNotContain("internal.example.com")
                .doesNotContain("token=abc")
                .doesNotContain("eu-west")
                .doesNotContain("network_failure")
                .doesNotContain("<script");
        assertThat(html).contains("Down").contains("Operational").contains("Partial outage");
        assertThat(html.split("class=\"day ", -1).length - 1)
                .as("90 days for each of the 3 monitors (pending has none)")
                .isEqualTo(2 * StatusPages.UPTIME_DAYS);

        JsonNode summary = json(get("/status/public/summary.json", null));
        assertThat(summary.path("overall").asText()).isEqualTo("partial_outage");
        assertThat(summary.path("groups")
                        .get(0)
                        .path("monitors")
                        .get(0)
                        .path("status")
                        .asText())
                .isEqualTo("down");
        assertThat(summary.path("groups")
                        .get(1)
                        .path("monitors")
                        .get(0)
                        .path("status")
                        .asText())
                .isEqualTo("pending");
        assertThat(summary.toString()).doesNotContain("internal.example.com").doesNotContain("eu-west");

        for (String path : List.of("/status/nope", "/status/nope/summary.json", "/status/PUBLIC")) {
            assertThat(get(path, null).statusCode()).as(path).isEqualTo(404);
        }
    }

    @Test
    void badgesAreValidSvgForListedMonitorsAndTheSame404ForAnyOther() throws Exception {
        var status = get("/badge/shop/status.svg", null);
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(status.headers().firstValue("Content-Type")).hasValue("image/svg+xml; charset=utf-8");
        Document svg = parse(status.body());
        assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(svg.getDocumentElement().getTextContent()).contains(XSS).contains("down");
        assertThat(status.body()).doesNotContain(XSS);

        var uptime = get("/badge/blog/uptime.svg?days=7", null);
        assertThat(uptime.statusCode()).isEqualTo(200);
        assertThat(parse(uptime.body()).getDocumentElement().getTextContent())
                .contains("uptime 7d")
                .contains("%");
        assertThat(get("/badge/blog/uptime.svg?days=0", null).statusCode()).isEqualTo(400);
        assertThat(get("/badge/blog/uptime.svg?days=91", null).statusCode()).isEqualTo(400);
        assertThat(get("/badge/blog/uptime.svg?days=x", null).statusCode()).isEqualTo(400);

        var unlisted = get("/badge/secret-admin/status.svg", null);
        var unknown = get("/badge/no-such-monitor/status.svg", null);
        assertThat(unlisted.statusCode()).isEqualTo(404);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unlisted).path("detail").asText())
                .isEqualTo(json(unknown).path("detail").asText());
        assertThat(get("/badge/secret-admin/uptime.svg", null).statusCode()).isEqualTo(404);
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
