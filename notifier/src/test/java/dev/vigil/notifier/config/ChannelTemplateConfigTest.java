package dev.vigil.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.notifier.Channels;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChannelTemplateConfigTest {
    private static final String DEFAULTS =
            """
            defaults:
              critical: [console]
              warning: [console]
              info: [console]
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    /** The service config naming {@code routing.yaml} beside it, which holds {@code channels} and the defaults. */
    private Path config(String channels) throws IOException {
        write("config/routing.yaml", "channels:\n" + channels + "  console: { type: log }\n" + DEFAULTS);
        return write("config/vigil-notifier.yaml", "routingFile: routing.yaml\n");
    }

    private List<String> problems(String channels, Map<String, String> env) throws IOException {
        Path file = config(channels);
        try {
            NotifierSettings.load(file, env);
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a configuration error");
    }

    @Test
    void anInlineTemplateAndATemplateFileBesideTheRoutingFileAreLoaded() throws IOException {
        write("config/templates/discord.mustache", "**{{severityUpper}}** {{summary}}\n");
        Path file = config(
                """
                  slack:
                    type: slack
                    urlEnv: SLACK_URL
                    template: "*{{severityUpper}}* {{summary}}"
                  discord: { type: discord, urlEnv: DISCORD_URL, templateFile: templates/discord.mustache }
                """);

        var channels = NotifierSettings.load(
                        file, Map.of("SLACK_URL", "https://hooks.slack.test/x", "DISCORD_URL", "https://d.test/w"))
                .routing()
                .channels();

        assertThat(channels.get("slack").template()).isEqualTo("*{{severityUpper}}* {{summary}}");
        assertThat(channels.get("discord").template()).isEqualTo("**{{severityUpper}}** {{summary}}\n");
        assertThat(channels.get("console").template()).isNull();
    }

    @Test
    void everyTemplateProblemIsReportedAtOnceWithItsFileAndKeyPath() throws IOException {
        write("config/bad.mustache", "{{#links}}\n{{url}}\n");
        String routing = dir.resolve("config/routing.yaml").toString();
        String missing = dir.resolve("config/missing.mustache").toString();

        List<String> p = problems(
                """
                  slack: { type: slack, urlEnv: SLACK_URL, template: "{{title}}\\n{{sumary}}" }
                  discord: { type: discord, urlEnv: DISCORD_URL, templateFile: bad.mustache }
                  teams: { type: teams, urlEnv: SLACK_URL, templateFile: missing.mustache }
                  pd: { type: pagerduty, secretEnv: PD_KEY, template: "{{title}}", templateFile: bad.mustache }
                  hook: { type: webhook, url: "https://hooks.example.test/v", secretEnv: HOOK, template: "{{title}}" }
                  log: { type: log, template: "{{title}}" }
                  bs: { type: betterstack, secretEnv: BS, template: "{{#isResolved}}ok{{/isResolved}}" }
                """,
                Map.of(
                        "SLACK_URL", "https://hooks.slack.test/x",
                        "DISCORD_URL", "https://d.test/w",
                        "PD_KEY", "0123456789abcdef0123456789abcdef",
                        "HOOK", "0123456789abcdef0123456789abcdef",
                        "BS", "token"));

        assertThat(p)
                .containsExactly(
                        routing + ": channels.slack.template: line 2: unknown variable 'sumary'",
                        routing + ": channels.discord.templateFile (" + dir.resolve("config/bad.mustache")
                                + "): not a valid template: Section missing close tag 'links' @ line 1",
                        routing + ": channels.teams.templateFile (" + missing
                                + "): cannot be read (NoSuchFileException)",
                        routing + ": channels.pd: give template or templateFile, not both",
                        routing + ": channels.hook.template: webhook channels take no template (a webhook's body is"
                                + " the alert event's JSON, for machines)",
                        routing + ": channels.log.template: log channels take no template (a log line keeps one"
                                + " format, for searching)",
                        routing + ": channels.bs.template: line 1: unknown variable 'isResolved'");
    }

    @Test
    void theBuiltChannelSendsItsTemplatedTextOverHttp() throws IOException {
        try (FakeVendor slack = new FakeVendor();
                Channels channels = new Channels((event, channel) -> reactor.core.publisher.Mono.empty())) {
            slack.respond(r -> FakeVendor.Reply.of(200));
            Path file = config(
                    """
                      slack:
                        type: slack
                        urlEnv: SLACK_URL
                        template: |
                          :rotating_light: *{{service}}*: {{summary}}
                          {{#links}}<{{url}}|{{name}}> {{/links}}
                    """);
            var loaded = NotifierSettings.load(
                    file, Map.of("SLACK_URL", slack.uri("/services/T/B/X").toString()));
            var notifier =
                    channels.build(loaded.routing().channels().get("slack"), Duration.ofSeconds(5), Clock.systemUTC());

            DeliveryOutcome o = notifier.send(new Notification(TemplateEvents.hostile(), "slack", null))
                    .block(Duration.ofSeconds(10));

            assertThat(o).isInstanceOf(DeliveryOutcome.Delivered.class);
            JsonNode body = Json.tree(slack.requests.get(0).body().getBytes(StandardCharsets.UTF_8));
            assertThat(body.path("attachments")
                            .get(0)
                            .path("blocks")
                            .get(1)
                            .path("text")
                            .path("text")
                            .asText())
                    .startsWith(":rotating_light: *api &lt;!everyone&gt; @here*: down &lt;!channel&gt;")
                    .endsWith("\n<https://runbooks.example.test/checkout|&lt;!here&gt; [rb](https://e.test)>");
        }
    }

    @Test
    void theProgrammaticApiTakesATemplateToo() {
        ChannelSpec bad = new ChannelSpec(ChannelType.LOG, null, null, null, null, null, null, null, null, null);
        RoutingSpec spec = new RoutingSpec(
                Map.of("console", bad),
                List.of(),
                Map.of("critical", List.of("console"), "warning", List.of("console"), "info", List.of("console")),
                Map.of());
        assertThat(RoutingValidator.validate(spec, Map.of(), "routing")
                        .channels()
                        .get("console")
                        .template())
                .isNull();
        ChannelSpec templated =
                new ChannelSpec(ChannelType.SLACK, null, "SLACK_URL", null, null, null, null, null, "{{nope}}", null);
        RoutingSpec withSlack = new RoutingSpec(
                Map.of("console", bad, "slack", templated), spec.routes(), spec.defaults(), spec.apps());
        assertThatThrownBy(() -> RoutingValidator.validate(
                        withSlack, Map.of("SLACK_URL", "https://hooks.slack.test/x"), "routing"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("routing: channels.slack.template: line 1: unknown variable 'nope'");
    }
}
