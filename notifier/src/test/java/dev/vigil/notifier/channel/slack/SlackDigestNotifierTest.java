package dev.vigil.notifier.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.digest.DigestComposer;
import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestData.RecordedGroup;
import dev.vigil.notifier.digest.DigestReport;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlackDigestNotifierTest {
    private static DigestReport report(List<RecordedGroup> recorded) {
        return DigestComposer.compose(
                LocalDate.of(2026, 12, 6),
                ZoneId.of("Europe/Berlin"),
                Instant.parse("2026-12-05T08:00:00Z"),
                Instant.parse("2026-12-06T08:00:00Z"),
                Instant.parse("2026-12-06T08:00:01Z"),
                new DigestData(List.of(), List.of(), recorded));
    }

    @Test
    void sectionsAreEscapedVerbatimMrkdwn() {
        ObjectNode p = SlackDigestNotifier.payload(report(List.of(new RecordedGroup(
                "pay<ments>", "app/pay/deploy", "info", 2, "<!channel> see <https://evil.example|dashboard> & more"))));
        String json = p.toString();

        assertThat(json).doesNotContain("<!channel>").doesNotContain("<https://evil");
        assertThat(json).contains("&lt;!channel&gt;").contains("&amp; more").contains("pay&lt;ments&gt;");
        JsonNode blocks = p.get("blocks");
        assertThat(blocks.get(0).get("type").asText()).isEqualTo("header");
        assertThat(blocks.get(0).get("text").get("text").asText())
                .isEqualTo("Vigil digest · Sun 6 Dec 2026 · Europe/Berlin");
        boolean found = false;
        for (JsonNode b : blocks) {
            if ("section".equals(b.path("type").asText())
                    && b.get("text").get("text").asText().startsWith("*Recorded events* (1)")) {
                assertThat(b.get("text").get("verbatim").asBoolean()).isTrue();
                found = true;
            }
        }
        assertThat(found).isTrue();
    }

    @Test
    void aQuietDayIsOneLine() {
        ObjectNode p = SlackDigestNotifier.payload(report(List.of()));

        assertThat(p.get("blocks")).hasSize(2);
        assertThat(p.get("blocks").get(1).get("text").get("text").asText())
                .startsWith("Nothing to report since Sat 09:00");
        assertThat(p.get("text").asText()).contains("Nothing to report");
    }
}
