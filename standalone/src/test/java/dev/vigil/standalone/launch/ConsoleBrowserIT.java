package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.monitors.MonitorCatalog;
import dev.vigil.streams.config.StreamsServiceConfig.Group;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.w3c.dom.Document;

/**
 * The browser console (docs/api.md#console-status-pages-and-badges) in a real headless Chromium against a running standalone stack with the
 * demo targets: sign-in, the fleet grid, a down monitor's detail, acknowledging and silencing from the browser (and
 * the API reporting the change), the monitor editor (create, edit, refused and stale saves, delete, a heartbeat's
 * one-time token), metric rules (the shipped ones listed, an override made and restored, a refused window, a custom
 * rule created, refused when stale, switched off and deleted), a hostile monitor name kept inert, a public status page and a badge. Screenshots
 * land in {@code target/console-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {
    static final String XSS = "<img src=x onerror=alert(1)>";
    static final Duration VERDICTS = Duration.ofSeconds(150);

    @TempDir
    static Path dir;

    /** A token that may read but not write monitors: the console offers it no editor. */
    static final String READER = BearerTokens.generate();

    static StandaloneLauncher vigil;
    static DemoTargets targets;
    /** The regions the stack's probe workers serve. */
    static List<String> regions;

    static ChromeDriver browser;
    static String base;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        HeadlessChromium.assumeInstalled();
        Map<String, String> env = StackSupport.withExternalDb(new HashMap<>());
        Path tokens = Files.writeString(
                dir.resolve("reader-tokens.yaml"),
                "tokens:\n  - name: reader\n    sha256: \"" + BearerTokens.hash(READER) + "\"\n    scopes: [read]\n");
        env.put(StandaloneLauncher.TOKENS_FILE_ENV, tokens.toString());
        StatusPage page = new StatusPage(
                "public",
                "Shop status",
                null,
                List.of(new Group("Storefront", List.of("demo-healthy", "demo-status-down"))));
        // the console's routing, with a climb for pages nobody takes: the incident view shows it
        Path routing = Files.writeString(
                dir.resolve("routing.yaml"),
                """
                channels:
                  console: { type: log }
                  lead: { type: log }
                defaults: { critical: [console], warning: [console], info: [console] }
                escalation:
                  critical: [{ after: 1h, channels: [lead] }]
                  warning: [{ after: 1h, channels: [lead] }]
                """);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withStatusPages(List.of(page))
                .withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> {});
        regions = options.regions();
        targets = StackSupport.targets(vigil, options, true, Set.of("demo-healthy", "demo-status-down", "demo-slow"));
        MonitorDefinition hostile = new MonitorDefinition(
                1,
                "xss-name",
                XSS,
                targets.url("healthy"),
                "GET",
                10,
                2500,
                options.regions(),
                null,
                null,
                null,
                "demo",
                "xss",
                Map.of(),
                true);
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(List.of(hostile), List.of());
        base = "http://127.0.0.1:" + vigil.queryPort();
        browser = HeadlessChromium.start(dir.resolve("profile"), 1400, 1000);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        StackSupport.closeAll(targets, vigil);
    }

    private static WebElement waitFor(String css) {
        return await(css)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(
                        () -> {
                            List<WebElement> found = browser.findElements(By.cssSelector(css));
                            return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
                        },
                        e -> e != null);
    }

    private static String text(String css) {
        List<WebElement> found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText().strip();
    }

    private static JsonNode api(String path) throws Exception {
        HttpResponse<String> res = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Authorization", "Bearer " + vigil.adminToken())
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(path).isEqualTo(200);
        return Json.tree(res.body().getBytes(StandardCharsets.UTF_8));
    }

    private static void assertNoDialog() {
        assertThatThrownBy(() -> browser.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
    }

    @Test
    @Order(1)
    void withoutATokenTheConsoleAsksToSignInAndTheApiAnswers401() {
        browser.get(base + "/");
        waitFor("form#signin");
        assertThat(browser.findElements(By.cssSelector("#app-shell")).stream().noneMatch(WebElement::isDisplayed))
                .isTrue();
        Object status = browser.executeAsyncScript(
                "const done = arguments[0]; fetch('/v1/status').then(r => done(r.status), e => done(String(e)));");
        assertThat(status).isEqualTo(401L);
        HeadlessChromium.screenshot(browser, "01-sign-in");

        browser.findElement(By.id("token")).sendKeys("vgl_not-a-real-token");
        browser.findElement(By.id("signin-submit")).click();
        await("a wrong token is refused").atMost(Duration.ofSeconds(10)).until(() -> !text("#signin-error")
                .isEmpty());
        assertThat(browser.getCurrentUrl()).doesNotContain("vgl_");
    }

    @Test
    @Order(2)
    void signedInTheGridShowsEveryMonitorWithItsStatus() {
        browser.findElement(By.id("token")).clear();
        browser.findElement(By.id("token")).sendKeys(vigil.adminToken());
        browser.findElement(By.id("signin-submit")).click();
        waitFor("#fleet");
        assertThat(text("#whoami")).isNotEmpty();
        assertThat(browser.getCurrentUrl()).doesNotContain(vigil.adminToken());
        await("the grid shows demo-status-down down and demo-healthy up")
                .atMost(VERDICTS)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> text("[data-monitor=\"demo-status-down\"] .status").equals("down")
                        && text("[data-monitor=\"demo-healthy\"] .status").equals("up"));
        for (String id : List.of("demo-healthy", "demo-status-down", "demo-slow", "xss-name")) {
            assertThat(browser.findElements(By.cssSelector("[data-monitor=\"" + id + "\"]")))
                    .as(id)
                    .isNotEmpty();
        }
        List<WebElement> dots = browser.findElements(By.cssSelector("[data-monitor=\"demo-status-down\"] .region-dot"));
        assertThat(dots)
                .extracting(d -> d.getAttribute("data-region"))
                .containsExactlyInAnyOrder("us-east", "eu-west", "asia-east");
        HeadlessChromium.screenshot(browser, "02-fleet");
    }

    @Test
    @Order(3)
    void aHostileMonitorNameIsShownAsTextAndNeverRuns() {
        await("the hostile row")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> text("[data-monitor=\"xss-name\"] .monitor-name").equals(XSS));
        assertThat(browser.findElements(By.cssSelector("[data-monitor=\"xss-name\"] img")))
                .isEmpty();
        assertNoDialog();
    }

    @Test
    @Order(4)
    void aDownMonitorsDetailShowsItsRegionsChartAndUptime() {
        browser.findElement(By.cssSelector("[data-monitor=\"demo-status-down\"] a.monitor-link"))
                .click();
        waitFor("#monitor-detail");
        await("three regions and a drawn chart")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() ->
                        browser.findElements(By.cssSelector(".region-result")).size() == 3
                                && !browser.findElements(By.cssSelector("#rt-chart canvas"))
                                        .isEmpty()
                                && browser.findElements(By.cssSelector("#uptime-bar .uptime-day"))
                                                .size()
                                        == 90);
        assertThat(text("#monitor-name")).contains("status-down");
        assertThat(browser.findElements(By.cssSelector(".region-result")))
                .extracting(e -> e.getAttribute("data-region"))
                .containsExactlyInAnyOrder("us-east", "eu-west", "asia-east");
        assertThat(text(".region-result[data-region=\"eu-west\"]"))
                .containsIgnoringCase("assertion failure")
                .as("the probe's phase timings reach the page")
                .contains("connect");
        HeadlessChromium.screenshot(browser, "03-monitor-detail");
    }

    @Test
    @Order(5)
    void acknowledgingFromTheAlertsPageChangesWhatTheApiReports() throws Exception {
        browser.get(base + "/#/alerts");
        String row = "[data-fingerprint=\"monitor/demo-status-down\"]";
        await("the open alert is listed")
                .atMost(VERDICTS)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> browser.findElement(By.cssSelector(row + " button.ack-button"))
                        .isDisplayed());
        browser.findElement(By.cssSelector(row + " button.ack-button")).click();
        waitFor(row + " .ack-form input.ack-comment").sendKeys("looking at it from the browser");
        browser.findElement(By.cssSelector(row + " button.ack-confirm")).click();
        await("the API reports the acknowledgement")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    for (JsonNode a : api("/v1/alerts?state=open").path("alerts")) {
                        if (a.path("fingerprint").asText().equals("monitor/demo-status-down")) {
                            return a.hasNonNull("acknowledgedBy");
                        }
                    }
                    return false;
                });
        await("the page marks it acknowledged")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> text(row + " .ack-mark").contains("Acknowledged by"));
        HeadlessChromium.screenshot(browser, "04-alerts-acknowledged");
    }

    @Test
    @Order(6)
    void theAlertsViewListsEverySourceAndAnIncidentsTimelineShowsItsPages() throws Exception {
        String appKey =
                Files.readString(dir.resolve("data/config/ingest-api-key.txt")).strip();
        long now = System.currentTimeMillis();
        HttpResponse<String> posted = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + vigil.ingestPort() + "/v1/alerts"))
                        .header("Authorization", "Bearer " + appKey)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                """
                                {"schemaVersion":1,"fingerprint":"shop/checkout-errors","state":"opened","severity":"warning","service":"shop",
                                 "summary":"Checkout errors above 5%%","firstSeen":%d,"lastSeen":%d}
                                """
                                        .formatted(now, now)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        String app = "[data-fingerprint=\"app/demo/shop/checkout-errors\"]";
        String monitor = "[data-fingerprint=\"monitor/demo-status-down\"]";
        browser.get(base + "/#/alerts");
        await("the app's incident is listed beside the monitors', each with its source")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> text(app + " .origin-tag").equals("app")
                        && text(monitor + " .origin-tag").equals("monitor"));
        new Select(browser.findElement(By.id("alert-origin"))).selectByValue("app");
        await("filtered by source, only the app's incident is left")
                .atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .until(() -> browser.findElements(By.cssSelector("#alerts-table tr[data-fingerprint]"))
                                .size()
                        == 1);
        HeadlessChromium.screenshot(browser, "05b-alerts-every-source");
        browser.findElement(By.cssSelector(app + " a.alert-incident-link")).click();
        await("the incident's timeline shows its opening and its page on the console's channel")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> !browser.findElements(By.cssSelector("#incident-timeline li[data-kind=\"opened\"]"))
                                .isEmpty()
                        && text("#incident-timeline li[data-kind=\"page\"][data-channel=\"console\"]")
                                .contains("Opened → console: delivered"));
        assertThat(text("#incident-facts")).contains("app/demo/shop/checkout-errors");
        HeadlessChromium.screenshot(browser, "05c-incident-timeline");
        browser.get(base + "/#/alerts");
        new Select(waitFor("#alert-origin")).selectByValue("");

        // a monitor behind one that is down: its own failure is held, shown as such, and pages nobody
        HttpResponse<String> put = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/monitors/held-child"))
                        .header("Authorization", "Bearer " + vigil.adminToken())
                        .header("Content-Type", "application/json")
                        .header("If-None-Match", "*")
                        .PUT(HttpRequest.BodyPublishers.ofString(
                                """
                                {"url":"%s","intervalSeconds":10,"timeoutMs":2500,"regions":%s,"service":"demo",
                                 "dependsOn":["demo-status-down"]}
                                """
                                        .formatted(targets.url("status-down"), Json.string(regions))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String child = "[data-fingerprint=\"monitor/held-child\"]";
        await("the child's incident is held while its parent is down")
                .atMost(VERDICTS)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> text(child + " .held-mark").equals("held: depends on demo-status-down, which is down"));
        JsonNode held = null;
        for (JsonNode a : api("/v1/alerts?state=open").path("alerts")) {
            if (a.path("fingerprint").asText().equals("monitor/held-child")) {
                held = a;
            }
        }
        assertThat(held).isNotNull();
        assertThat(held.path("held").path("dependsOn").asText()).isEqualTo("demo-status-down");
        assertThat(held.path("paged").asBoolean()).as("held, not paged").isFalse();
        HeadlessChromium.screenshot(browser, "05d-alerts-held");
        HttpResponse<String> deleted = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/monitors/held-child"))
                        .header("Authorization", "Bearer " + vigil.adminToken())
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
    }

    @Test
    @Order(7)
    void aSilenceIsPreviewedCreatedAndExpiredFromTheBrowser() throws Exception {
        browser.get(base + "/#/silences");
        waitFor("form#silence-form");
        browser.findElement(By.id("silence-fingerprint")).sendKeys("monitor/demo-sl*");
        await("the preview lists what the matcher matches")
                .atMost(Duration.ofSeconds(20))
                .ignoreExceptions()
                .until(() -> browser.findElements(By.cssSelector("#silence-preview li")).stream()
                        .anyMatch(li -> li.getText().contains("monitor/demo-slow")));
        assertThat(browser.findElements(By.cssSelector("#silence-preview li")))
                .noneMatch(li -> li.getText().contains("demo-healthy"));
        WebElement duration = browser.findElement(By.id("silence-duration"));
        duration.clear();
        duration.sendKeys("30");
        browser.findElement(By.id("silence-reason")).sendKeys("browser test");
        browser.findElement(By.id("silence-submit")).click();
        String id = await("the API lists the new silence")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> {
                            for (JsonNode s : api("/v1/silences?state=active").path("silences")) {
                                if (s.path("reason").asText().equals("browser test")) {
                                    return s.path("id").asText();
                                }
                            }
                            return null;
                        },
                        v -> v != null);
        String row = "[data-silence-id=\"" + id + "\"]";
        await("the new silence is listed")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> browser.findElement(By.cssSelector(row + " button.expire-button"))
                        .isDisplayed());
        HeadlessChromium.screenshot(browser, "05-silences");
        browser.findElement(By.cssSelector(row + " button.expire-button")).click();
        acceptConfirmation();
        await("the API reports it expired")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    for (JsonNode s : api("/v1/silences?state=expired").path("silences")) {
                        if (s.path("id").asText().equals(id)) {
                            return true;
                        }
                    }
                    return false;
                });
    }

    // ---- the monitor editor ------------------------------------------------------------------------------------

    static final String MADE = "browser-made";

    /** The figure of "Expected target checks per day: 4,320" (grouping separators dropped). */
    private static long checksPerDay() {
        Matcher m = Pattern.compile("per day: ([0-9.,\\u00a0\\u202f]+)").matcher(text("#me-checks"));
        assertThat(m.find()).as(text("#me-checks")).isTrue();
        return Long.parseLong(m.group(1).replaceAll("[^0-9]", ""));
    }

    private static void type(String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }

    private static void choose(String id, String value) {
        new Select(browser.findElement(By.id(id))).selectByValue(value);
    }

    private static void region(String region, boolean checked) {
        WebElement box = browser.findElement(By.cssSelector("input[name=me-region][value=\"" + region + "\"]"));
        if (box.isSelected() != checked) {
            box.click();
        }
    }

    /** The editor's form once it has its regions (and, editing, the definition it read). */
    private static void awaitForm() {
        waitFor("form#monitor-form");
        await("the regions are listed")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> browser.findElements(By.cssSelector("label.region-check"))
                                .size()
                        == 3);
    }

    private static HttpResponse<String> send(String method, String path, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + vigil.adminToken())
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(8)
    void aNewHttpMonitorIsCreatedInTheEditorWithALiveChecksPerDayFigure() throws Exception {
        browser.get(base + "/#/fleet");
        waitFor("a#fleet-new").click();
        awaitForm();
        await("every serving region is checked by default")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> browser.findElements(By.cssSelector("input[name=me-region]:checked"))
                                .size()
                        == 3);
        assertThat(text("#me-checks")).startsWith("Expected target checks per day:");
        assertThat(checksPerDay()).as("3 regions every 60 s").isEqualTo(3 * 1440);
        region("eu-west", false);
        assertThat(checksPerDay()).as("2 regions every 60 s").isEqualTo(2 * 1440);
        choose("me-interval", "30");
        assertThat(checksPerDay()).as("2 regions every 30 s").isEqualTo(2 * 2880);
        choose("me-interval", "600");
        assertThat(checksPerDay()).as("2 regions every 10 min").isEqualTo(2 * 144);
        region("eu-west", true);
        choose("me-interval", "30");
        assertThat(checksPerDay()).as("3 regions every 30 s").isEqualTo(3 * 2880);
        assertThat(new Select(browser.findElement(By.id("me-interval"))).getOptions())
                .extracting(o -> o.getAttribute("value"))
                .startsWith("10", "20", "30", "60", "120")
                .contains("900", "1200", "1500")
                .endsWith("3300", "3600")
                .hasSize(3 + 15 + 9);

        type("me-id", MADE);
        type("me-name", "Made in the browser");
        type("me-service", "shop");
        type("me-url", targets.url("healthy"));
        browser.findElement(By.id("me-add-header")).click();
        browser.findElement(By.cssSelector("#me-headers .header-row:last-child input.header-name"))
                .sendKeys("X-Probe");
        browser.findElement(By.cssSelector("#me-headers .header-row:last-child input.header-value"))
                .sendKeys("console");
        HeadlessChromium.screenshot(browser, "08-editor-new");
        browser.executeScript("document.getElementById('me-checks').scrollIntoView({block: 'center'});");
        HeadlessChromium.screenshot(browser, "08b-editor-new-regions");
        browser.findElement(By.id("me-save")).click();

        await("the console shows the new monitor")
                .atMost(Duration.ofSeconds(30))
                .until(() -> browser.getCurrentUrl().endsWith("#/monitors/" + MADE));
        JsonNode def = api("/v1/monitors/" + MADE + "/definition");
        assertThat(def.path("url").asText()).isEqualTo(targets.url("healthy"));
        assertThat(def.path("intervalSeconds").asInt()).isEqualTo(30);
        assertThat(def.path("service").asText()).isEqualTo("shop");
        assertThat(def.path("headers").path("X-Probe").asText()).isEqualTo("console");
        assertThat(def.path("regions"))
                .extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("us-east", "eu-west", "asia-east");
        assertThat(text("#notice")).contains("Created monitor " + MADE);
    }

    @Test
    @Order(9)
    void theCreatedMonitorAppearsOnTheFleetGrid() {
        browser.get(base + "/#/fleet");
        String row = "[data-monitor=\"" + MADE + "\"]";
        await("the grid lists the new monitor")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> text(row + " .monitor-name").equals("Made in the browser"));
        HeadlessChromium.screenshot(browser, "09-fleet-with-new-monitor");
    }

    @Test
    @Order(10)
    void editingRefusesATimeoutNotShorterThanTheIntervalThenSaves() throws Exception {
        browser.findElement(By.cssSelector("[data-monitor=\"" + MADE + "\"] a.monitor-link"))
                .click();
        waitFor("#monitor-detail");
        waitFor("a#monitor-edit").click();
        awaitForm();
        await("the form holds the definition")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> browser.findElement(By.id("me-name"))
                        .getAttribute("value")
                        .equals("Made in the browser"));
        assertThat(browser.findElements(By.id("me-id")))
                .as("an id is not edited")
                .isEmpty();
        assertThat(browser.findElements(By.cssSelector("input[name=me-region]:checked")))
                .hasSize(3);

        choose("me-interval", "10");
        type("me-timeout", "10000");
        browser.findElement(By.id("me-save")).click();
        await("the timeout is highlighted").atMost(Duration.ofSeconds(10)).until(() -> "true"
                .equals(browser.findElement(By.id("me-timeout")).getAttribute("aria-invalid")));
        assertThat(text("#me-timeout-problem")).contains("shorter than the interval");
        assertThat(browser.findElement(By.id("me-timeout"))
                        .findElement(By.xpath(".."))
                        .getAttribute("class"))
                .contains("field-invalid");
        HeadlessChromium.screenshot(browser, "10-editor-timeout-refused");
        assertThat(api("/v1/monitors/" + MADE + "/definition")
                        .path("intervalSeconds")
                        .asInt())
                .as("nothing was saved")
                .isEqualTo(30);

        // a problem only the server sees comes back as problem+json and lands on its input too
        browser.findElement(By.id("me-add-header")).click();
        browser.findElement(By.cssSelector("#me-headers .header-row:last-child input.header-name"))
                .sendKeys("Host");
        browser.findElement(By.cssSelector("#me-headers .header-row:last-child input.header-value"))
                .sendKeys("elsewhere.example");
        type("me-timeout", "5000");
        choose("me-interval", "20");
        browser.findElement(By.id("me-save")).click();
        await("the server's refusal marks the header")
                .atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .until(() -> browser.findElement(By.cssSelector("#me-headers .header-row:last-child"))
                        .getAttribute("class")
                        .contains("field-invalid"));
        assertThat(text("#me-headers .header-row:last-child .field-problem")).contains("set by the probe itself");
        assertThat(browser.findElement(By.id("me-timeout")).getAttribute("aria-invalid"))
                .isNull();
        HeadlessChromium.screenshot(browser, "11-editor-server-refused");
        browser.findElement(By.cssSelector("#me-headers .header-row:last-child button.header-remove"))
                .click();

        // a target the probe workers' allow-list refuses is marked on the input that names it
        choose("me-type", "tcp");
        type("me-tcp-host", "10.1.2.3");
        type("me-tcp-port", "5432");
        browser.findElement(By.id("me-save")).click();
        await("the refused target marks the host")
                .atMost(Duration.ofSeconds(10))
                .until(() ->
                        "true".equals(browser.findElement(By.id("me-tcp-host")).getAttribute("aria-invalid")));
        assertThat(text("#me-tcp-host-problem")).contains("refuse");
        HeadlessChromium.screenshot(browser, "11b-editor-target-refused");
        choose("me-type", "http");

        type("me-name", "Made in the browser, edited");
        browser.findElement(By.id("me-save")).click();
        await("the console shows the saved monitor")
                .atMost(Duration.ofSeconds(30))
                .until(() -> browser.getCurrentUrl().endsWith("#/monitors/" + MADE));
        JsonNode def = api("/v1/monitors/" + MADE + "/definition");
        assertThat(def.path("name").asText()).isEqualTo("Made in the browser, edited");
        assertThat(def.path("intervalSeconds").asInt()).isEqualTo(20);
        assertThat(def.path("timeoutMs").asInt()).isEqualTo(5000);
        assertThat(def.path("headers").path("X-Probe").asText()).as("kept").isEqualTo("console");
    }

    @Test
    @Order(11)
    void aMonitorChangedMeanwhileIsNotOverwrittenAndCanBeReloaded() throws Exception {
        browser.get(base + "/#/monitors/" + MADE + "/edit");
        awaitForm();
        await("the form holds the definition")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> browser.findElement(By.id("me-name"))
                        .getAttribute("value")
                        .startsWith("Made in the browser"));
        HttpResponse<String> read = send("GET", "/v1/monitors/" + MADE + "/definition", null, Map.of());
        ObjectNode def = (ObjectNode) Json.tree(read.body().getBytes(StandardCharsets.UTF_8));
        def.put("name", "Changed elsewhere");
        HttpResponse<String> put = send(
                "PUT",
                "/v1/monitors/" + MADE,
                def.toString(),
                Map.of("If-Match", read.headers().firstValue("ETag").orElseThrow()));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        type("me-name", "My stale edit");
        browser.findElement(By.id("me-save")).click();
        waitFor("#me-stale button#me-reload");
        assertThat(text("#me-stale")).contains("changed this monitor meanwhile");
        HeadlessChromium.screenshot(browser, "12-editor-stale");
        browser.findElement(By.id("me-reload")).click();
        await("the form shows the other change").atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(
                        By.id("me-name"))
                .getAttribute("value")
                .equals("Changed elsewhere"));
        assertThat(api("/v1/monitors/" + MADE + "/definition").path("name").asText())
                .isEqualTo("Changed elsewhere");
    }

    @Test
    @Order(12)
    void deletingAsksInADialogAndRemovesTheMonitor() throws Exception {
        browser.get(base + "/#/monitors/" + MADE);
        waitFor("#monitor-detail");
        waitFor("button#monitor-delete").click();
        waitFor("dialog#monitor-delete-dialog");
        await("the dialog has read the revision").atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(
                        By.id("monitor-delete-confirm"))
                .isEnabled());
        assertThat(text("#monitor-delete-text")).contains(MADE);
        assertNoDialog();
        HeadlessChromium.screenshot(browser, "13-delete-dialog");
        browser.findElement(By.id("monitor-delete-confirm")).click();
        await("back on the fleet").atMost(Duration.ofSeconds(30)).until(() -> browser.getCurrentUrl()
                .endsWith("#/fleet"));
        assertThat(send("GET", "/v1/monitors/" + MADE + "/definition", null, Map.of())
                        .statusCode())
                .isEqualTo(404);
        await("the grid no longer lists it")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> browser.findElements(By.cssSelector("[data-monitor=\"" + MADE + "\"]"))
                        .isEmpty());
    }

    @Test
    @Order(13)
    void aNewHeartbeatMonitorShowsItsPingTokenOnce() throws Exception {
        browser.get(base + "/#/new-monitor");
        awaitForm();
        type("me-id", "browser-beat");
        // each type shows its own fields only
        choose("me-type", "tcp");
        assertThat(browser.findElement(By.id("me-tcp-host")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("me-url")).isDisplayed()).isFalse();
        choose("me-type", "tls");
        assertThat(browser.findElement(By.id("me-tls-port")).getAttribute("value"))
                .isEqualTo("443");
        choose("me-type", "dns");
        assertThat(browser.findElement(By.id("me-dns-query")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("me-tcp-host")).isDisplayed()).isFalse();
        HeadlessChromium.screenshot(browser, "14-editor-dns");
        choose("me-type", "heartbeat");
        assertThat(browser.findElement(By.id("me-regions")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("me-url")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("me-hb-schedule")).isDisplayed()).isTrue();
        assertThat(checksPerDay()).isZero();
        assertThat(text("#me-checks")).contains("heartbeat");
        type("me-hb-schedule", "0 3 * * *");
        type("me-hb-zone", "Europe/Paris");
        browser.findElement(By.id("me-save")).click();
        waitFor("#me-token");
        assertThat(text("#me-ping-token")).isNotBlank();
        assertThat(text("#me-ping-url")).contains("browser-beat");
        assertThat(text("#me-token")).contains("shown only once");
        HeadlessChromium.screenshot(browser, "15-heartbeat-token");
        JsonNode def = api("/v1/monitors/browser-beat/definition");
        assertThat(def.path("heartbeat").path("schedule").asText()).isEqualTo("0 3 * * *");
        assertThat(def.path("heartbeat").path("hasToken").asBoolean()).isTrue();
        assertThat(send("DELETE", "/v1/monitors/browser-beat", null, Map.of()).statusCode())
                .isEqualTo(200);
    }

    // ---- metric rules --------------------------------------------------------------------------------------------

    static final String RULE = "browser-checkout-failures";

    private static String rowText(String id, String css) {
        return text("#rules tr[data-rule=\"" + id + "\"] " + css);
    }

    /** Waits for the rules list to show {@code id} with the given source badge. */
    private static void awaitRuleSource(String id, String badge) {
        await(id + " shows as " + badge)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> rowText(id, ".rule-source").equals(badge));
    }

    private static void awaitRuleForm(String field, String value) {
        waitFor("form#rule-form");
        await("the form holds the rule")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() ->
                        browser.findElement(By.id(field)).getAttribute("value").equals(value));
    }

    @Test
    @Order(14)
    void theRulesViewListsTheShippedRulesAndAnEditMakesAnOverrideThatCanBeRestored() throws Exception {
        browser.get(base + "/#/rules");
        waitFor("#rules tr[data-rule=\"http-5xx-ratio\"]");
        assertThat(browser.findElements(By.cssSelector("#rules tr[data-rule]")))
                .extracting(e -> e.getAttribute("data-rule"))
                .contains("dlq-routed", "http-5xx-ratio", "http-p95-latency", "http-error-spike");
        for (String id : List.of("dlq-routed", "http-5xx-ratio", "http-p95-latency", "http-error-spike")) {
            assertThat(rowText(id, ".rule-source")).as(id).isEqualTo("shipped");
        }
        assertThat(rowText("http-p95-latency", ".rule-condition"))
                .isEqualTo("p95 > 2500 over 5 min, at least 20 events");
        assertThat(rowText("http-5xx-ratio", ".rule-condition")).contains("5xx").contains("5 %");
        assertThat(browser.findElements(By.cssSelector("tr[data-rule=\"http-5xx-ratio\"] .rule-restore")))
                .as("a shipped rule has nothing to restore")
                .isEmpty();
        // the previous test's notice would cover the list in the screenshot
        if (browser.findElement(By.id("notice-dismiss")).isDisplayed()) {
            browser.findElement(By.id("notice-dismiss")).click();
        }
        HeadlessChromium.screenshot(browser, "16-rules");

        browser.findElement(By.cssSelector("tr[data-rule=\"http-5xx-ratio\"] a.rule-edit"))
                .click();
        awaitRuleForm("rule-threshold", "0.05");
        assertThat(browser.findElements(By.id("rule-id")))
                .as("an id is not edited")
                .isEmpty();
        assertThat(browser.findElement(By.id("rule-filter")).getAttribute("value"))
                .isEqualTo("5xx");
        for (String window : List.of("61", "0")) {
            type("rule-window", window);
            browser.findElement(By.id("rule-save")).click();
            await("the server's refusal marks the window")
                    .atMost(Duration.ofSeconds(10))
                    .ignoreExceptions()
                    .until(() -> "true"
                            .equals(browser.findElement(By.id("rule-window")).getAttribute("aria-invalid")));
            assertThat(text("#rule-window-problem")).as(window).isNotEmpty();
            assertThat(browser.findElement(By.id("rule-window"))
                            .findElement(By.xpath(".."))
                            .getAttribute("class"))
                    .contains("field-invalid");
        }
        HeadlessChromium.screenshot(browser, "17-rule-window-refused");
        assertThat(api("/v1/rules/http-5xx-ratio").path("source").asText())
                .as("nothing was saved")
                .isEqualTo("default");

        type("rule-window", "5");
        type("rule-threshold", "0.02");
        browser.findElement(By.id("rule-save")).click();
        await("back on the rules").atMost(Duration.ofSeconds(30)).until(() -> browser.getCurrentUrl()
                .endsWith("#/rules"));
        awaitRuleSource("http-5xx-ratio", "overridden");
        assertThat(rowText("http-5xx-ratio", ".rule-condition")).contains("2 %");
        JsonNode overridden = api("/v1/rules/http-5xx-ratio");
        assertThat(overridden.path("source").asText()).isEqualTo("override");
        assertThat(overridden.path("threshold").asDouble()).isEqualTo(0.02);
        HeadlessChromium.screenshot(browser, "18-rules-override");

        waitFor("tr[data-rule=\"http-5xx-ratio\"] button.rule-restore").click();
        waitFor("dialog#rule-delete-dialog");
        assertThat(text("#rule-delete-text")).contains("http-5xx-ratio");
        assertNoDialog();
        HeadlessChromium.screenshot(browser, "19-rule-restore-dialog");
        browser.findElement(By.id("rule-delete-confirm")).click();
        awaitRuleSource("http-5xx-ratio", "shipped");
        JsonNode restored = api("/v1/rules/http-5xx-ratio");
        assertThat(restored.path("source").asText()).isEqualTo("default");
        assertThat(restored.path("threshold").asDouble()).isEqualTo(0.05);
    }

    @Test
    @Order(15)
    void aCustomRuleIsCreatedSwitchedOffAndDeleted() throws Exception {
        browser.get(base + "/#/rules");
        waitFor("a#rules-new").click();
        waitFor("form#rule-form");
        type("rule-id", RULE);
        type("rule-app", "shop");
        type("rule-metric", "checkout_failed");
        choose("rule-aggregation", "count");
        type("rule-window", "10");
        choose("rule-comparator", "gte");
        type("rule-threshold", "3");
        type("rule-min-events", "1");
        choose("rule-severity", "critical");
        type("rule-summary", "{app}: {events} failed checkouts in {window} min");
        assertThat(text("#rule-condition")).isEqualTo("Fires when count ≥ 3 over 10 min.");
        assertThat(text("#rule-threshold-hint")).isEqualTo("a number of events");
        HeadlessChromium.screenshot(browser, "20-rule-new");
        browser.findElement(By.id("rule-save")).click();
        await("back on the rules").atMost(Duration.ofSeconds(30)).until(() -> browser.getCurrentUrl()
                .endsWith("#/rules"));
        awaitRuleSource(RULE, "custom");
        JsonNode created = api("/v1/rules/" + RULE);
        assertThat(created.path("appId").asText()).isEqualTo("shop");
        assertThat(created.path("comparator").asText()).isEqualTo("gte");
        assertThat(created.path("enabled").asBoolean()).isTrue();

        // a rule changed elsewhere while its form is open is not overwritten: the form offers to reload it
        browser.findElement(By.cssSelector("tr[data-rule=\"" + RULE + "\"] a.rule-edit"))
                .click();
        awaitRuleForm("rule-threshold", "3");
        HttpResponse<String> read = send("GET", "/v1/rules/" + RULE, null, Map.of());
        ObjectNode elsewhere = (ObjectNode) Json.tree(read.body().getBytes(StandardCharsets.UTF_8));
        elsewhere.put("threshold", 4);
        HttpResponse<String> put = send(
                "PUT",
                "/v1/rules/" + RULE,
                elsewhere.toString(),
                Map.of("If-Match", read.headers().firstValue("ETag").orElseThrow()));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        type("rule-threshold", "5");
        browser.findElement(By.id("rule-save")).click();
        waitFor("#rule-stale button#rule-reload");
        assertThat(text("#rule-stale")).contains("changed this rule meanwhile");
        HeadlessChromium.screenshot(browser, "21-rule-stale");
        browser.findElement(By.id("rule-reload")).click();
        awaitRuleForm("rule-threshold", "4");
        assertThat(api("/v1/rules/" + RULE).path("threshold").asDouble()).isEqualTo(4.0);
        browser.findElement(By.id("rule-cancel")).click();
        waitFor("#rules tr[data-rule=\"" + RULE + "\"]");

        browser.findElement(By.cssSelector("tr[data-rule=\"" + RULE + "\"] button.rule-toggle"))
                .click();
        await("the rule shows disabled")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> rowText(RULE, ".rule-enabled").equals("disabled"));
        assertThat(api("/v1/rules/" + RULE).path("enabled").asBoolean()).isFalse();
        HeadlessChromium.screenshot(browser, "22-rules-custom-disabled");

        waitFor("tr[data-rule=\"" + RULE + "\"] button.rule-delete").click();
        waitFor("dialog#rule-delete-dialog");
        browser.findElement(By.id("rule-delete-confirm")).click();
        await("the list no longer shows it")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> browser.findElements(By.cssSelector("tr[data-rule=\"" + RULE + "\"]"))
                        .isEmpty());
        assertThat(send("GET", "/v1/rules/" + RULE, null, Map.of()).statusCode())
                .isEqualTo(404);
    }

    @Test
    @Order(16)
    void aTokenThatMayOnlyReadIsOfferedNoEditor() {
        browser.get(base + "/#/fleet");
        waitFor("button#signout").click();
        waitFor("form#signin");
        browser.findElement(By.id("token")).sendKeys(READER);
        browser.findElement(By.id("signin-submit")).click();
        waitFor("#fleet [data-monitor=\"demo-healthy\"]");
        assertThat(text("#whoami")).isEqualTo("reader");
        assertThat(browser.findElements(By.id("fleet-new"))).isEmpty();
        browser.get(base + "/#/monitors/demo-healthy");
        waitFor("#monitor-detail");
        for (String id : List.of("monitor-edit", "monitor-duplicate", "monitor-delete")) {
            assertThat(browser.findElement(By.id(id)).isDisplayed()).as(id).isFalse();
        }
        browser.get(base + "/#/new-monitor");
        waitFor("#monitor-editor");
        assertThat(browser.findElements(By.id("monitor-form"))).isEmpty();
        assertThat(text("#monitor-editor")).contains("may read monitors but not change them");
        browser.get(base + "/#/rules");
        waitFor("#rules tr[data-rule=\"http-5xx-ratio\"]");
        assertThat(browser.findElements(By.cssSelector("#rules-new, .rule-edit, .rule-toggle")))
                .isEmpty();
    }

    /** An expire button may ask first; a test answers yes. */
    private static void acceptConfirmation() {
        try {
            browser.switchTo().alert().accept();
        } catch (NoAlertPresentException e) {
            // it did not ask
        }
    }

    @Test
    @Order(17)
    void thePublicStatusPageShowsOnlyItsMonitorsAndNoUrl() throws Exception {
        browser.get(base + "/status/public");
        waitFor("main.status-page");
        String page = browser.getPageSource();
        String visible = browser.findElement(By.tagName("body")).getText();
        assertThat(visible).contains("Shop status").contains("Demo: healthy").contains("Demo: status-down");
        assertThat(visible).doesNotContain("Demo: slow").doesNotContain(XSS);
        assertThat(page)
                .doesNotContain(targets.url("healthy"))
                .doesNotContain("127.0.0.1")
                .doesNotContain("us-east")
                .doesNotContain("assertion_failure");
        assertThat(browser.findElements(By.cssSelector("[data-monitor]")))
                .extracting(e -> e.getAttribute("data-monitor"))
                .containsExactly("demo-healthy", "demo-status-down");
        HeadlessChromium.screenshot(browser, "06-status-page");
        // the page needs no token: a fresh request without one is answered
        HttpResponse<String> anonymous = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/status/public")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(200);
        assertThat(HTTP.send(
                                HttpRequest.newBuilder(URI.create(base + "/status/other"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    @Order(18)
    void theBadgeIsValidSvgWithTheRightText() throws Exception {
        String svg = await("the badge says up")
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> HTTP.send(
                                        HttpRequest.newBuilder(URI.create(base + "/badge/demo-healthy/status.svg"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body(),
                        b -> b.contains(">up<"));
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getDocumentElement().getTextContent())
                .contains("Demo: healthy")
                .contains("up");
        assertThat(HTTP.send(
                                HttpRequest.newBuilder(URI.create(base + "/badge/demo-slow/status.svg"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .as("a monitor no page lists")
                .isEqualTo(404);
        browser.get(base + "/badge/demo-healthy/uptime.svg?days=30");
        HeadlessChromium.screenshot(browser, "07-badge");
    }

    @Test
    @Order(19)
    void signingOutForgetsTheToken() {
        browser.get(base + "/");
        waitFor("button#signout").click();
        waitFor("form#signin");
        Object stored = browser.executeScript("return window.sessionStorage.getItem('vigil.token');");
        assertThat(stored).isNull();
        assertNoDialog();
    }

    /**
     * Every link a page of the down monitor carries leads to the console: the shell answers 200 without a token, a
     * browser that is signed out is asked to sign in and then lands on the linked view, never on a JSON route.
     */
    @Test
    @Order(20)
    void everyLinkInAPageSignsInAndLandsOnItsView() throws Exception {
        String fp = "monitor/demo-status-down";
        JsonNode alerts = api("/v1/alerts?state=all&fingerprint=" + URLEncoder.encode(fp, StandardCharsets.UTF_8))
                .path("alerts");
        assertThat(alerts).hasSize(1);
        JsonNode links = alerts.get(0).path("links");
        assertThat(links.path("incident").asText()).endsWith("/#/incident/monitor%2Fdemo-status-down");
        assertThat(links.path("monitor").asText()).endsWith("/#/monitors/demo-status-down");
        Map<String, String> views = Map.of(
                "incident", "#incident[data-fingerprint=\"" + fp + "\"] #incident-facts", "monitor", "#monitor-detail");
        for (var link : (Iterable<Map.Entry<String, JsonNode>>) links::fields) {
            URI uri = URI.create(link.getValue().asText());
            assertThat(uri.getPath()).as(link.getKey()).isIn("/", "");
            assertThat(uri.getRawQuery()).as(link.getKey()).isNull();
            assertThat(uri.getPort()).as(link.getKey()).isEqualTo(vigil.queryPort());
            HttpResponse<String> shell =
                    HTTP.send(HttpRequest.newBuilder(uri.resolve("/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(shell.statusCode()).as(link.getKey()).isEqualTo(200);
            assertThat(views).as("a view for every link").containsKey(link.getKey());

            // signed out, the link asks for a token, then shows its view (the page's own address kept)
            browser.get(uri.toString());
            waitFor("form#signin");
            browser.findElement(By.id("token")).clear();
            browser.findElement(By.id("token")).sendKeys(vigil.adminToken());
            browser.findElement(By.id("signin-submit")).click();
            waitFor(views.get(link.getKey()));
            assertThat(browser.getCurrentUrl()).endsWith("#" + uri.getRawFragment());
            if (link.getKey().equals("incident")) {
                assertThat(text("#incident-title")).isNotEmpty().isNotEqualTo(fp);
                await("the incident's acknowledgement and its way to the monitor")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> text("#incident-table .ack-mark").contains("Acknowledged by")
                                && !browser.findElements(By.cssSelector("#incident-links a.incident-monitor-link"))
                                        .isEmpty());
                // its climb: tier 1 paged, the lead's tier never (acknowledged first)
                await("the incident's escalation climb")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> text("#incident-escalation-summary").equals("At tier 1 of 2.")
                                && text("#incident-escalation li[data-tier=\"2\"]")
                                        .equals("Tier 2 → lead: not paged: acknowledged first"));
                await("the incident's timeline: its page on the console's channel and who took it")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> text("#incident-timeline li[data-kind=\"acknowledged\"]")
                                        .contains("Acknowledged by standalone-admin")
                                && text("#incident-timeline li[data-kind=\"page\"][data-channel=\"console\"]")
                                        .contains("→ console: delivered"));
                HeadlessChromium.screenshot(browser, "19-incident-view");
            }
            waitFor("button#signout").click();
            waitFor("form#signin");
        }
        browser.get(base + "/#/incident/" + URLEncoder.encode("monitor/no-such-monitor", StandardCharsets.UTF_8));
        browser.findElement(By.id("token")).sendKeys(vigil.adminToken());
        browser.findElement(By.id("signin-submit")).click();
        await("an unknown incident says so")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> text("#incident-status").contains("No incident monitor/no-such-monitor"));
        // an incident nobody has taken: its climb says when the next tier pages (a hash change, so still signed in)
        ((org.openqa.selenium.JavascriptExecutor) browser)
                .executeScript("location.hash = arguments[0]", "#/incident/monitor%2Fdemo-slow");
        await("a pending tier says when it pages")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> text("#incident-escalation-summary")
                                .matches("At tier 1 of 2; tier 2 pages .+ unless someone acknowledges\\.")
                        && text("#incident-escalation li[data-tier=\"2\"]").startsWith("Tier 2 → lead: pages "));
        HeadlessChromium.screenshot(browser, "19b-incident-climbing");
        waitFor("button#signout").click();
        waitFor("form#signin");
        assertNoDialog();
    }

    @Test
    @Order(21)
    void theWholeRunRaisedNoScriptErrorAndNoPolicyViolation() {
        // everything the browser logged at SEVERE since it started: script errors, refused scripts or styles (CSP)
        // and failed requests. Expected: the 401s the first test asked for on purpose, 503s while Streams starts
        // (the API's documented "retry shortly"; the console retries with backoff), and the editor's refused saves
        // the editor tests provoke on purpose (400: a reserved header, a rule's window out of bounds; 412: a monitor
        // and a rule changed meanwhile), and a timeline's 404 for an incident listed a moment before its first line
        // was read
        List<String> severe = new ArrayList<>();
        for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
            String m = e.getMessage();
            boolean refusedSave = (m.contains("/v1/monitors/" + MADE + " ")
                            && (m.contains("status of 400") || m.contains("status of 412")))
                    || (m.contains("/v1/rules/http-5xx-ratio ") && m.contains("status of 400"))
                    || (m.contains("/v1/rules/" + RULE + " ") && m.contains("status of 412"));
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()
                    && !m.contains("status of 401")
                    && !m.contains("status of 503")
                    && !(m.contains("/timeline ") && m.contains("status of 404"))
                    && !refusedSave) {
                severe.add(e.getMessage());
            }
        }
        assertThat(severe).isEmpty();
    }
}
