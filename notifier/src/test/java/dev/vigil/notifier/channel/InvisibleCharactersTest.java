package dev.vigil.notifier.channel;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.betterstack.BetterStackNotifier;
import dev.vigil.notifier.channel.discord.DiscordNotifier;
import dev.vigil.notifier.channel.log.LogNotifier;
import dev.vigil.notifier.channel.slack.SlackNotifier;
import dev.vigil.notifier.channel.webhook.WebhookNotifier;
import dev.vigil.notifier.channel.webhook.WebhookSignature;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Bidi controls and zero-width characters never reach a reader, whichever channel carries the page. */
class InvisibleCharactersTest {
    /** Every character the rule names. */
    private static final String INVISIBLE = "\u061C\u200B\u200C\u200D\u200E\u200F\u202A\u202B\u202C\u202D\u202E"
            + "\u2060\u2066\u2067\u2068\u2069\uFEFF";

    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("test", 4, Duration.ofSeconds(5));
    private final Clock clock = Clock.systemUTC();

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    /** A summary that reads "db" then, reversed, "live"; every other text field carries some too. */
    private static AlertEvent tricky() {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("re\u200Bgion", "us\u2066-east\u2069");
        attrs.put("all", INVISIBLE + "x" + INVISIBLE);
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dash\u200Dboard", "https://grafana.example.test/d/\u200Bcheckout");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "db\u202Eevil", attrs, links);
        return with(e, "check\uFEFFout-api", e.attributes(), List.of(), false);
    }

    private static void assertNoInvisible(String what, String text) {
        for (char c : INVISIBLE.toCharArray()) {
            assertThat(text.indexOf(c)).as("%s contains U+%04X", what, (int) c).isEqualTo(-1);
        }
    }

    private FakeVendor.Request deliver(Notifier n) {
        vendor.respond(r -> FakeVendor.Reply.json(201, "{\"data\":{\"id\":\"1\"}}"));
        assertThat(n.send(new Notification(tricky(), "x", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(vendor.requests).hasSize(1);
        FakeVendor.Request r = vendor.requests.get(0);
        // Jackson writes non-ASCII as it is; decoding also catches a \\u escape, should it ever write one
        assertNoInvisible("raw body", r.body());
        assertNoInvisible(
                "decoded body",
                Json.tree(r.body().getBytes(StandardCharsets.UTF_8)).toString());
        return r;
    }

    @Test
    void oneLineBreaksNoLineOnUnicodeSeparatorsOrC1Controls() {
        assertThat(Text.oneLine("a\u0085b\u2028c\u2029d\r\ne\u0007f")).isEqualTo("a b c d e f");
        assertThat(Text.oneLine("plain")).isEqualTo("plain");
    }

    @Test
    void slack() {
        FakeVendor.Request r = deliver(new SlackNotifier(vendor.uri("/services/T/B/X"), http, clock));
        assertThat(r.body())
                .contains("dbevil")
                .contains("checkout-api")
                .contains("us-east")
                .contains("https://grafana.example.test/d/checkout");
    }

    @Test
    void discord() {
        FakeVendor.Request r = deliver(new DiscordNotifier(vendor.uri("/api/webhooks/1/t"), http, clock));
        assertThat(r.body())
                .contains("dbevil")
                .contains("checkout-api")
                .contains("[dashboard](https://grafana.example.test/d/checkout)");
    }

    @Test
    void betterStack() {
        FakeVendor.Request r = deliver(new BetterStackNotifier(vendor.uri("/"), "tok", http, clock));
        JsonNode body = Json.tree(r.body().getBytes(StandardCharsets.UTF_8));
        assertThat(body.path("name").asText()).isEqualTo("checkout-api");
        assertThat(body.path("summary").asText()).isEqualTo("[CRITICAL] checkout-api: dbevil");
        assertThat(body.path("description").asText()).startsWith("dbevil\n");
    }

    @Test
    void webhook() {
        FakeVendor.Request r = deliver(new WebhookNotifier(
                vendor.uri("/hook"),
                new WebhookSignature("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8)),
                http,
                clock));
        AlertEvent delivered = Json.read(r.body(), AlertEvent.class);
        assertThat(delivered.summary()).isEqualTo("dbevil");
        assertThat(delivered.service()).isEqualTo("checkout-api");
        assertThat(delivered.attributes()).containsEntry("region", "us-east").containsEntry("all", "x");
        assertThat(delivered.links()).containsEntry("dashboard", "https://grafana.example.test/d/checkout");
        // identifiers are untouched: the receiver dedupes on them
        assertThat(delivered.eventId())
                .isEqualTo(tricky().eventId())
                .isEqualTo(r.header(WebhookNotifier.HEADER_EVENT_ID));
        assertThat(delivered.fingerprint()).isEqualTo(tricky().fingerprint());
    }

    @Test
    void log() {
        Logger logger = (Logger) LoggerFactory.getLogger("vigil.notifications");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            new LogNotifier().send(new Notification(tricky(), "log", null)).block(Duration.ofSeconds(5));
        } finally {
            logger.detachAppender(lines);
        }
        assertThat(lines.list).singleElement().satisfies(l -> {
            assertNoInvisible("log line", l.getFormattedMessage());
            assertThat(l.getFormattedMessage()).startsWith("[CRITICAL] checkout-api: dbevil ");
        });
    }

    @Test
    void theRuleStripsEachNamedCharacterAndNothingElse() {
        List<String> kept = new ArrayList<>();
        for (char c : INVISIBLE.toCharArray()) {
            kept.add(Text.stripInvisible("a" + c + "b"));
        }
        assertThat(kept).containsOnly("ab");
        String ordinary = "café 😀 עברית العربية \t x";
        assertThat(Text.stripInvisible(ordinary)).isSameAs(ordinary);
        AlertEvent plain = opened("monitor/checkout", Severity.CRITICAL);
        assertThat(Presentation.clean(plain)).isSameAs(plain);
    }

    @Test
    void aTextOfNothingButInvisibleCharactersStaysAValidEvent() {
        AlertEvent e = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "\u200B\u202E",
                Map.of("k", "\u2060"),
                Map.of("\u200B", "https://a.test/", "gone", "\u200B"));
        AlertEvent c = Presentation.clean(e);
        assertThat(c.summary()).isEqualTo(Presentation.BLANK);
        assertThat(c.attributes()).containsExactly(Map.entry("k", Presentation.BLANK));
        assertThat(c.links()).containsExactly(Map.entry(Presentation.BLANK, "https://a.test/"));
    }
}
