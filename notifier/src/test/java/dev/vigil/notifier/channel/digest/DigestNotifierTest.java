package dev.vigil.notifier.channel.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class DigestNotifierTest {
    @Test
    void recordsInsteadOfSendingAndCountsAsDelivered() {
        List<String> recorded = new CopyOnWriteArrayList<>();
        DigestNotifier n = new DigestNotifier((e, ch) -> Mono.fromRunnable(() -> recorded.add(ch + " " + e.eventId())));
        AlertEvent e = TestEvents.opened("monitor/x", Severity.INFO);

        DeliveryOutcome o = n.send(new Notification(e, "daily", null)).block();

        assertThat(o).isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(recorded).containsExactly("daily " + e.eventId());
    }

    @Test
    void anUnreachableStoreIsTransient() {
        DigestNotifier n = new DigestNotifier((e, ch) -> Mono.error(new IllegalStateException("connection refused")));

        DeliveryOutcome o = n.send(new Notification(TestEvents.opened("monitor/x", Severity.INFO), "daily", null))
                .block();

        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) o).reason()).isEqualTo("digest store: IllegalStateException");
    }
}
