package dev.vigil.notifier.channel.slack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.digest.DigestReport;
import dev.vigil.notifier.digest.DigestReports;
import dev.vigil.notifier.digest.DigestText;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The daily digest to a Slack incoming webhook: a header, the summary, one section per digest section (the
 * sections about the window first, then what is still true), within Slack's limits. Every text is escaped as
 * {@link SlackMessage#escape} does and sent {@code verbatim}, so no data mentions anyone or forms a link.
 */
public final class SlackDigestNotifier implements Notifier {
    private final URI webhook;
    private final HttpSender http;
    private final Clock clock;
    private final DigestReports reports;

    public SlackDigestNotifier(URI webhook, HttpSender http, Clock clock, DigestReports reports) {
        this.webhook = webhook;
        this.http = http;
        this.clock = clock;
        this.reports = reports;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        return reports.get(n.event().eventId())
                .map(r -> http.postJson(webhook, Map.of(), Json.bytes(payload(r)))
                        .map(reply -> StatusMapping.map("slack", reply, clock)))
                .orElseGet(() -> Mono.just(new DeliveryOutcome.Permanent(
                        "no digest was composed for " + n.event().eventId() + " on this instance", null)));
    }

    public static ObjectNode payload(DigestReport r) {
        ObjectNode root = Json.mapper().createObjectNode();
        String title = SlackMessage.escape(DigestText.title(r));
        String summary = SlackMessage.escape(DigestText.summary(r));
        root.put("text", Text.truncate(title + ": " + summary, SlackMessage.FALLBACK_MAX));
        ArrayNode blocks = root.putArray("blocks");
        ObjectNode header = blocks.addObject().put("type", "header");
        header.set(
                "text",
                Json.mapper()
                        .createObjectNode()
                        .put("type", "plain_text")
                        .put("text", Text.truncate(title, SlackMessage.HEADER_MAX)));
        section(blocks, summary);
        Boolean part = null;
        for (DigestText.Section s : DigestText.sections(r)) {
            if (blocks.size() >= SlackMessage.BLOCKS_MAX - 1) {
                break;
            }
            if (part == null || part != s.stillTrue()) {
                part = s.stillTrue();
                ObjectNode context = blocks.addObject().put("type", "context");
                context.putArray("elements")
                        .add(mrkdwn("*" + (part ? DigestText.STILL_TRUE_HEADING : DigestText.NEW_HEADING) + "*"));
            }
            StringBuilder sb = new StringBuilder("*")
                    .append(SlackMessage.escape(s.heading()))
                    .append("* (")
                    .append(s.lines().size() + s.more())
                    .append(")");
            for (String line : s.lines()) {
                sb.append("\n• ").append(SlackMessage.escape(line));
            }
            if (s.more() > 0) {
                sb.append("\n… and ").append(s.more()).append(" more");
            }
            section(blocks, sb.toString());
        }
        return root;
    }

    private static void section(ArrayNode blocks, String escapedText) {
        blocks.addObject()
                .put("type", "section")
                .set("text", mrkdwn(Text.truncate(escapedText, SlackMessage.SECTION_MAX)));
    }

    private static ObjectNode mrkdwn(String escapedText) {
        return Json.mapper()
                .createObjectNode()
                .put("type", "mrkdwn")
                .put("text", escapedText)
                .put("verbatim", true);
    }
}
