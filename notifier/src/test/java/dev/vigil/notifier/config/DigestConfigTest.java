package dev.vigil.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DigestConfigTest {
    private static final Map<String, String> ENV =
            Map.of("SLACK_WEBHOOK_URL", "https://hooks.slack.test/services/T/B/X");
    private static final String ROUTING =
            """
            routing:
              channels:
                slack: { type: slack, urlEnv: SLACK_WEBHOOK_URL }
                daily: { type: digest }
                console: { type: log }
              defaults: { critical: [slack], warning: [slack], info: [daily] }
            """;

    @TempDir
    Path dir;

    private NotifierSettings.Loaded load(String yaml) throws IOException {
        Path file = dir.resolve("vigil-notifier.yaml");
        Files.writeString(file, "kafka: { bootstrapServers: \"k:9092\", groupId: g }\n" + yaml);
        return NotifierSettings.load(file, ENV);
    }

    private List<String> problems(String yaml) throws IOException {
        try {
            load(yaml);
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a configuration error");
    }

    @Test
    void aDigestAtATimeInAZoneToASlackChannel() throws IOException {
        NotifierConfig.Digest d = load(ROUTING + "digest: { at: \"07:30\", zone: Europe/Berlin, channels: [slack] }\n")
                .config()
                .digest();

        assertThat(d.enabled()).isTrue();
        assertThat(d.time()).isEqualTo(LocalTime.of(7, 30));
        assertThat(d.zoneId()).isEqualTo(ZoneId.of("Europe/Berlin"));
    }

    @Test
    void aRoutingFileMayCarryTheDigestBesideItsChannelsButNotBothPlaces() throws IOException {
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                ROUTING.replace("routing:\n", "").replace("\n  ", "\n").strip().indent(0)
                        + "digest: { at: \"06:45\", zone: UTC, channels: [slack] }\n");
        NotifierConfig.Digest d =
                load("routingFile: " + routing + "\n").config().digest();
        assertThat(d.enabled()).isTrue();
        assertThat(d.time()).isEqualTo(LocalTime.of(6, 45));
        assertThat(d.channels()).containsExactly("slack");

        assertThat(problems("routingFile: " + routing + "\ndigest: { channels: [slack] }\n"))
                .containsExactly("digest: the daily digest is configured both here and in " + routing + "; keep one");
    }

    @Test
    void offUnlessConfigured() throws IOException {
        String routing = ROUTING.replace("daily: { type: digest }", "").replace("[daily]", "[console]");

        assertThat(load(routing).config().digest().enabled()).isFalse();
    }

    @Test
    void aBadTimeAndZoneAreNamedByTheirKeys() throws IOException {
        List<String> p = problems(ROUTING + "digest: { at: \"25:00\", zone: Mars/Olympus, channels: [slack] }\n");

        assertThat(p).anySatisfy(s -> assertThat(s).contains("digest.at").contains("HH:mm"));
        assertThat(p)
                .anySatisfy(s -> assertThat(s).contains("digest.zone").contains("'Mars/Olympus' is not a time zone"));
    }

    @Test
    void everyChannelProblemAtOnce() throws IOException {
        List<String> p = problems(ROUTING + "digest: { channels: [nowhere, console, daily] }\n");

        assertThat(p)
                .containsExactly(
                        "digest.channels[0]: unknown channel 'nowhere'; the channels of routing are [console, daily, slack]",
                        "digest.channels[1]: channel 'console' is of type log; the digest is sent to slack or email channels",
                        "digest.channels[2]: channel 'daily' is of type digest; the digest is sent to slack or email channels");
    }

    @Test
    void aDigestChannelWithoutADigestIsAProblem() throws IOException {
        List<String> p = problems(ROUTING);

        assertThat(p).singleElement().satisfies(s -> assertThat(s)
                .startsWith("digest.channels: channel 'daily' of routing records events for the daily digest, but no"
                        + " digest is configured"));
    }

    @Test
    void aDigestChannelTakesNoUrl() throws IOException {
        List<String> p = problems(ROUTING.replace("{ type: digest }", "{ type: digest, url: \"https://x.example\" }")
                + "digest: { channels: [slack] }\n");

        assertThat(p).containsExactly("routing: channels.daily: a digest channel takes no url, urlEnv or secretEnv");
    }
}
