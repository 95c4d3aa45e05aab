package dev.vigil.notifier.channel.log;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.withSource;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.vigil.notifier.core.Notification;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One line per page; Vigil's own pages end with the link to their incident in the console. */
class LogNotifierTest {
    private static List<String> written(AlertEvent e) {
        Logger logger = (Logger) LoggerFactory.getLogger("vigil.notifications");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            new LogNotifier().send(new Notification(e, "log", null)).block(Duration.ofSeconds(5));
        } finally {
            logger.detachAppender(lines);
        }
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void aPageOfVigilsOwnEndsWithItsIncidentInTheConsole() {
        String link = "http://127.0.0.1:8081/#/incident/monitor%2Fcheckout";
        AlertEvent page = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "checkout is down",
                Map.of(),
                Map.of("incident", link, "runbook", "https://wiki.example.test/checkout?token=abc"));
        assertThat(written(page)).singleElement().satisfies(l -> assertThat(l)
                .endsWith(" open=" + link)
                .doesNotContain("wiki.example.test")
                .doesNotContain("\n"));
    }

    @Test
    void anApplicationsLinksAreNotWrittenAndAnUnsafeLinkIsLeftOut() {
        AlertEvent app = withSource(
                withSummary(
                        opened("app/shop/checkout", Severity.WARNING),
                        "failed checkouts",
                        Map.of(),
                        Map.of("incident", "https://attacker.example.test/?session=1")),
                AlertSource.APP);
        assertThat(written(app)).singleElement().satisfies(l -> assertThat(l).doesNotContain("open="));
        AlertEvent odd = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "checkout is down",
                Map.of(),
                Map.of("incident", "javascript:alert(1)"));
        assertThat(written(odd)).singleElement().satisfies(l -> assertThat(l).doesNotContain("open="));
    }
}
