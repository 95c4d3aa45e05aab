package dev.vigil.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every channel's page (and the secret or token it carries) leaves only over TLS: https for every vendor and webhook,
 * STARTTLS for e-mail. The one way to send in clear is to a loopback stand-in (localhost, 127.0.0.0/8, [::1]) on the
 * notifier's own host, the same rule for every channel; anything else is refused at start-up with its key path.
 */
class PlainTransportTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final String PD_KEY = "abcdefghijklmnopqrstuvwxyz012345";
    private static final String RULE =
            "must be https (plain http only to a loopback stand-in: localhost, 127.0.0.0/8" + " or [::1])";

    @TempDir
    Path dir;

    private List<String> problems(String channel, Map<String, String> env) throws IOException {
        Path file = dir.resolve("vigil-notifier.yaml");
        Files.writeString(
                file,
                """
                kafka: { bootstrapServers: "k:9092", groupId: g }
                routing:
                  channels:
                    c: %s
                  defaults: { critical: [c], warning: [c], info: [c] }
                """
                        .formatted(channel));
        try {
            NotifierSettings.load(file, env);
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    private static Map<String, String> env(String name, String value) {
        Map<String, String> env =
                new HashMap<>(Map.of("HOOK_SECRET", SECRET, "PD_KEY", PD_KEY, "BS_TOKEN", "bs-token"));
        env.put(name, value);
        return env;
    }

    @Test
    void aSlackWebhookOverPlainHttpIsRefused() throws IOException {
        assertThat(problems(
                        "{ type: slack, urlEnv: SLACK_URL }",
                        env("SLACK_URL", "http://hooks.slack.com/services/T/B/s3cret")))
                .containsExactly("routing: channels.c.urlEnv (value of SLACK_URL): " + RULE);
    }

    @Test
    void aDiscordWebhookOverPlainHttpIsRefused() throws IOException {
        assertThat(problems(
                        "{ type: discord, urlEnv: DISCORD_URL }",
                        env("DISCORD_URL", "http://discord.com/api/webhooks/1/s3cret")))
                .containsExactly("routing: channels.c.urlEnv (value of DISCORD_URL): " + RULE);
    }

    @Test
    void aTeamsWorkflowOverPlainHttpIsRefusedWithTheSameRule() throws IOException {
        assertThat(problems(
                        "{ type: teams, urlEnv: TEAMS_URL }",
                        env("TEAMS_URL", "http://prod.logic.azure.com/workflows/abc?sig=s3cret")))
                .containsExactly("routing: channels.c.urlEnv (value of TEAMS_URL): " + RULE);
    }

    @Test
    void aSignedWebhookOverPlainHttpIsRefusedByUrlAndByUrlEnv() throws IOException {
        assertThat(problems(
                        "{ type: webhook, url: \"http://hooks.example.com/vigil\", secretEnv: HOOK_SECRET }",
                        env("X", "x")))
                .containsExactly("routing: channels.c.url: " + RULE);
        assertThat(problems(
                        "{ type: webhook, urlEnv: HOOK_URL, secretEnv: HOOK_SECRET }",
                        env("HOOK_URL", "http://hooks.example.com/vigil?token=s3cret")))
                .containsExactly("routing: channels.c.urlEnv (value of HOOK_URL): " + RULE);
    }

    @Test
    void aBetterStackApiBaseOverPlainHttpIsRefused() throws IOException {
        assertThat(problems(
                        "{ type: betterstack, url: \"http://uptime.betterstack.com\", secretEnv: BS_TOKEN }",
                        env("X", "x")))
                .containsExactly("routing: channels.c.url: " + RULE);
    }

    @Test
    void aPagerDutyEndpointOverPlainHttpIsRefused() throws IOException {
        assertThat(problems(
                        "{ type: pagerduty, url: \"http://events.pagerduty.com/v2/enqueue\", secretEnv: PD_KEY }",
                        env("X", "x")))
                .containsExactly("routing: channels.c.url: " + RULE);
    }

    @Test
    void anEmailRelayWithoutTlsOffThisHostIsRefusedEvenWithoutCredentials() throws IOException {
        assertThat(problems(
                        """
                { type: email, email: { host: smtp.example.com, port: 25, startTls: none, from: "v@example.com", to: [oncall@example.com] } }""",
                        env("X", "x")))
                .containsExactly(
                        "routing: channels.c.email.startTls: none sends the page in clear text;"
                                + " it is only for a relay on this host (localhost, 127.0.0.0/8 or [::1]): use startTls: required");
    }

    /** Names that only look like loopback resolve anywhere: the rule reads the literal host, resolving nothing. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1.nip.io/hook",
                "http://localhost.evil.example/hook",
                "http://10.0.0.1/hook",
                "http://[::ffff:7f00:1]/hook",
                "http://0x7f000001/hook",
                "HTTP://hooks.example.com/"
            })
    void hostsThatOnlyLookLocalAreRefused(String url) throws IOException {
        assertThat(problems("{ type: webhook, urlEnv: HOOK_URL, secretEnv: HOOK_SECRET }", env("HOOK_URL", url)))
                .containsExactly("routing: channels.c.urlEnv (value of HOOK_URL): " + RULE);
    }

    /** The one way to send in clear, the same for every kind: a stand-in on this host's loopback interface. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:8089/hook",
                "http://localhost:8089/hook",
                "http://[::1]:8089/hook",
                "http://127.3.4.5/hook",
                "https://hooks.example.com/hook"
            })
    void loopbackStandInsAndHttpsAreAcceptedForEveryKind(String url) throws IOException {
        assertThat(problems("{ type: webhook, urlEnv: U, secretEnv: HOOK_SECRET }", env("U", url)))
                .isEmpty();
        assertThat(problems("{ type: slack, urlEnv: U }", env("U", url))).isEmpty();
        assertThat(problems("{ type: discord, urlEnv: U }", env("U", url))).isEmpty();
        assertThat(problems("{ type: teams, urlEnv: U }", env("U", url))).isEmpty();
        assertThat(problems("{ type: betterstack, url: \"" + url + "\", secretEnv: BS_TOKEN }", env("X", "x")))
                .isEmpty();
        assertThat(problems("{ type: pagerduty, url: \"" + url + "\", secretEnv: PD_KEY }", env("X", "x")))
                .isEmpty();
    }

    @Test
    void anEmailRelayOnLoopbackMayGoWithoutTls() throws IOException {
        assertThat(problems(
                        """
                { type: email, email: { host: 127.0.0.1, port: 2525, startTls: none, from: "v@example.com", to: [oncall@example.com] } }""",
                        env("X", "x")))
                .isEmpty();
    }

    @Test
    void noProblemEchoesTheSecretUrl() throws IOException {
        assertThat(String.join(
                        "\n",
                        problems(
                                "{ type: slack, urlEnv: SLACK_URL }",
                                env("SLACK_URL", "http://hooks.slack.com/services/T/B/s3cret"))))
                .doesNotContain("s3cret");
    }
}
