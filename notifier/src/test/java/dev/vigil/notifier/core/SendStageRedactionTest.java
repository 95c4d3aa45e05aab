package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * An adapter's unexpected error becomes the delivery's reason, which is logged and written to the dead-letter topic:
 * a webhook URL in it (Slack, Discord, Teams and many webhooks carry their token in the path or query, some a
 * password as user-info) must come out as its scheme and host only.
 */
class SendStageRedactionTest {
    private static String reasonFor(RuntimeException error) {
        SendStage stage = new SendStage(n -> Mono.error(error), Duration.ofSeconds(5), Schedulers.parallel());
        DeliveryOutcome o = stage.send(new Notification(null, "slack", null))
                .block(Duration.ofSeconds(5))
                .outcome();
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        return ((DeliveryOutcome.Transient) o).reason();
    }

    @Test
    void aWebhookUrlInAnErrorKeepsOnlyItsHost() {
        String reason = reasonFor(new IllegalStateException(
                "POST https://hooks.slack.com/services/T000/B000/s3cretToken?x=1 failed: connection reset"));
        assertThat(reason)
                .doesNotContain("s3cretToken")
                .doesNotContain("T000")
                .contains("https://hooks.slack.com/…")
                .contains("connection reset");
    }

    @Test
    void userInfoAndQueryTokensAreDroppedToo() {
        String reason = reasonFor(new IllegalArgumentException(
                "bad target http://vigil:hunter2@127.0.0.1:8089/hook?token=abc123 and https://x.test?sig=zzz"));
        assertThat(reason)
                .doesNotContain("hunter2")
                .doesNotContain("abc123")
                .doesNotContain("zzz")
                .contains("http://127.0.0.1:8089/…")
                .contains("https://x.test/…");
    }
}
