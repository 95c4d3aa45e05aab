package dev.vigil.notifier.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestData.RecordedGroup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class DigestComposerTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final LocalDate DAY = LocalDate.of(2026, 12, 6);
    private static final Instant FROM = Instant.parse("2026-12-05T08:00:00Z");
    private static final Instant TO = Instant.parse("2026-12-06T08:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-06T08:00:05Z");

    private static IncidentRow row(String fp, String opened, String resolved, boolean ack) {
        return row(fp, "critical", opened, resolved, ack);
    }

    private static IncidentRow row(String fp, String severity, String opened, String resolved, boolean ack) {
        return new IncidentRow(
                fp + "@" + Instant.parse(opened).toEpochMilli(),
                fp,
                fp.substring(fp.lastIndexOf('/') + 1),
                severity,
                Instant.parse(opened),
                resolved == null ? null : Instant.parse(resolved),
                ack);
    }

    static DigestData busyDay() {
        return new DigestData(
                List.of(
                        row("monitor/api", "2026-12-04T20:00:00Z", null, true),
                        row("monitor/checkout", "2026-12-05T10:00:00Z", "2026-12-05T10:30:00Z", false),
                        row("monitor/flappy", "2026-12-05T11:00:00Z", "2026-12-05T11:05:00Z", false),
                        row("monitor/flappy", "2026-12-05T12:00:00Z", "2026-12-05T12:05:00Z", false),
                        row("monitor/flappy", "2026-12-05T13:00:00Z", "2026-12-05T13:05:00Z", false),
                        row(
                                "vigil/worker-skipping/eu-west/w-busy",
                                "2026-12-05T12:00:00Z",
                                "2026-12-05T12:10:00Z",
                                false),
                        row("monitor/old", "2026-12-04T01:00:00Z", "2026-12-04T02:00:00Z", false),
                        row("monitor/late", "2026-12-06T08:00:01Z", null, false),
                        row("app/checkout/deploy", "info", "2026-12-05T09:00:00Z", null, false)),
                List.of(new ChannelFailures("slack", 3, 1), new ChannelFailures("discord", 0, 0)),
                List.of(new RecordedGroup("checkout", "app/checkout/deploy", "info", 5, "Deployed v1.2")));
    }

    @Test
    void newsOfTheWindowAndWhatIsStillTrue() {
        DigestReport r = DigestComposer.compose(DAY, BERLIN, FROM, TO, NOW, busyDay());

        assertThat(r.opened())
                .extracting(DigestReport.Change::fingerprint)
                .containsExactly("monitor/checkout", "monitor/flappy", "monitor/flappy", "monitor/flappy");
        assertThat(r.resolved())
                .extracting(DigestReport.Change::fingerprint)
                .containsExactly("monitor/checkout", "monitor/flappy", "monitor/flappy", "monitor/flappy");
        assertThat(r.resolved().get(0).lasted()).isEqualTo(Duration.ofMinutes(30));
        assertThat(r.flapping()).containsExactly(new DigestReport.Flapping("monitor/flappy", "flappy", 3));
        assertThat(r.skipped())
                .containsExactly(new DigestReport.Skipped(
                        "vigil/worker-skipping/eu-west/w-busy", 1, Duration.ofMinutes(10), false));
        assertThat(r.failures()).containsExactly(new ChannelFailures("slack", 3, 1));
        assertThat(r.recorded()).hasSize(1);
        // opened after the window's end: tomorrow's news, not in today's still-open either
        assertThat(r.stillOpen())
                .containsExactly(new DigestReport.Open(
                        "monitor/api",
                        "api",
                        "critical",
                        Instant.parse("2026-12-04T20:00:00Z"),
                        Duration.between(Instant.parse("2026-12-04T20:00:00Z"), NOW),
                        true));
        assertThat(r.worstUptime())
                .extracting(DigestReport.Downtime::fingerprint)
                .containsExactly("monitor/api", "monitor/checkout", "monitor/flappy");
        assertThat(r.worstUptime().get(0).inIncident()).isEqualTo(Duration.ofHours(24));
        assertThat(r.worstUptime().get(0).uptimePercent()).isEqualTo(0.0);
        assertThat(r.worstUptime().get(2).inIncident()).isEqualTo(Duration.ofMinutes(15));
        assertThat(r.worstUptime().get(2).incidents()).isEqualTo(3);
        assertThat(r.nothingToReport()).isFalse();
    }

    @Test
    void theTextPutsTheNewsBeforeWhatIsStillTrue() {
        String text = DigestText.plain(DigestComposer.compose(DAY, BERLIN, FROM, TO, NOW, busyDay()));

        assertThat(text).startsWith("Vigil digest · Sun 6 Dec 2026 · Europe/Berlin");
        assertThat(text).contains("Since Sat 09:00: 4 opened, 4 resolved, 1 still open, delivery failures on 1");
        int news = text.indexOf(DigestText.NEW_HEADING);
        int still = text.indexOf(DigestText.STILL_TRUE_HEADING);
        assertThat(news).isPositive().isLessThan(still);
        assertThat(text.indexOf("Opened (4)")).isBetween(news, still);
        assertThat(text.indexOf("Delivery failures (1)")).isBetween(news, still);
        assertThat(text.indexOf("Recorded events (1)")).isBetween(news, still);
        assertThat(text.indexOf("Still open (1)")).isGreaterThan(still);
        assertThat(text).contains("[critical] monitor/checkout (checkout) at Sat 11:30, after 30m 0s");
        assertThat(text).contains("monitor/api (api) open for 1d 12h, acknowledged");
        assertThat(text).contains("monitor/api (api): 1d 0h in incident, 0.00% up, 1 incident(s)");
        assertThat(text).contains("slack: 3 failed attempt(s), 1 dead-lettered");
        assertThat(text).contains("app/checkout/deploy (checkout): 5 event(s), latest \"Deployed v1.2\"");
        assertThat(text).contains("vigil/worker-skipping/eu-west/w-busy: 1 incident(s), 10m 0s");
        assertThat(text).doesNotContain("monitor/late").doesNotContain("monitor/old");
        // the info incident is in the recorded events only
        assertThat(text.indexOf("app/checkout/deploy")).isEqualTo(text.lastIndexOf("app/checkout/deploy"));
    }

    @Test
    void aQuietDaySaysNothingToReport() {
        DigestReport r = DigestComposer.compose(
                DAY,
                BERLIN,
                FROM,
                TO,
                NOW,
                new DigestData(List.of(), List.of(new ChannelFailures("slack", 0, 0)), List.of()));

        assertThat(r.nothingToReport()).isTrue();
        assertThat(DigestText.sections(r)).isEmpty();
        assertThat(DigestText.plain(r)).contains("Nothing to report since Sat 09:00");
    }

    @Test
    void longSectionsSayHowManyMoreThereWere() {
        List<IncidentRow> many = new java.util.ArrayList<>();
        for (int i = 0; i < DigestText.LINES_MAX + 5; i++) {
            many.add(row("monitor/m" + i, "2026-12-05T10:00:00Z", null, false));
        }
        DigestReport r = DigestComposer.compose(DAY, BERLIN, FROM, TO, NOW, new DigestData(many, List.of(), List.of()));

        DigestText.Section opened = DigestText.sections(r).get(0);
        assertThat(opened.heading()).isEqualTo("Opened");
        assertThat(opened.lines()).hasSize(DigestText.LINES_MAX);
        assertThat(opened.more()).isEqualTo(5);
        assertThat(DigestText.plain(r)).contains("Opened (25)").contains("… and 5 more");
        assertThat(r.worstUptime()).hasSize(DigestComposer.WORST_UPTIME_MAX);
    }

    @Test
    void dataCannotBreakTheLayout() {
        DigestData data = new DigestData(
                List.of(),
                List.of(),
                List.of(new RecordedGroup("svc\nInjected: line", "app/x/y", "info", 1, "a\r\nb\u202Ec\u200Bd")));
        String text = DigestText.plain(DigestComposer.compose(DAY, BERLIN, FROM, TO, NOW, data));

        assertThat(text).contains("(svc Injected: line)").contains("latest \"a bcd\"");
        assertThat(text).doesNotContain("\u202E").doesNotContain("\u200B").doesNotContain("\r");
    }
}
