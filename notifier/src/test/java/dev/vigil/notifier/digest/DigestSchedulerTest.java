package dev.vigil.notifier.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.schemas.contract.AlertEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/** When the digest is sent, on virtual time: the schedule, restarts, and several instances sharing one store. */
class DigestSchedulerTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Duration LEASE = Duration.ofMinutes(70);

    private final VirtualTimeScheduler vts = VirtualTimeScheduler.create();
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(vts.now(TimeUnit.MILLISECONDS));
        }
    };
    private final MemoryDigestStore store = new MemoryDigestStore(clock);
    /** What reached the "vendor": each delivered digest's event id, with the report the sender found for it. */
    private final List<String> delivered = new CopyOnWriteArrayList<>();

    private final List<DigestReport> reportsSeen = new CopyOnWriteArrayList<>();
    private final List<DigestScheduler> started = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void stop() {
        started.forEach(DigestScheduler::close);
        vts.dispose();
    }

    private DigestScheduler instance(String owner, LocalTime at) {
        return instance(owner, at, this::deliver);
    }

    private DigestScheduler instance(String owner, LocalTime at, DigestScheduler.Delivery delivery) {
        DigestReports reports = new DigestReports();
        DigestScheduler s = new DigestScheduler(
                new DigestSchedule(at, BERLIN),
                store,
                e -> {
                    reports.get(e.eventId()).ifPresent(reportsSeen::add);
                    return delivery.deliver(e);
                },
                reports,
                i -> false,
                owner,
                LEASE,
                Duration.ofMinutes(1),
                clock,
                vts,
                meters);
        started.add(s);
        return s.start();
    }

    private Mono<List<ChannelResult>> deliver(AlertEvent e) {
        delivered.add(e.eventId());
        return Mono.just(List.of(new ChannelResult("slack", FinalOutcome.DELIVERED, 1, null)));
    }

    private void at(String instant) {
        vts.advanceTimeTo(Instant.parse(instant));
    }

    @Test
    void sentAtItsTimeInTheZoneThenDaily() {
        at("2026-12-06T06:00:00Z"); // 07:00 in Berlin
        instance("a", LocalTime.of(9, 0));
        at("2026-12-06T07:59:59Z");
        assertThat(delivered).isEmpty();
        at("2026-12-06T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        assertThat(reportsSeen.get(0).from()).isEqualTo(Instant.parse("2026-12-05T08:00:00Z"));
        assertThat(reportsSeen.get(0).to()).isEqualTo(Instant.parse("2026-12-06T08:00:00Z"));
        at("2026-12-07T07:59:00Z");
        assertThat(delivered).hasSize(1);
        at("2026-12-07T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06", "digest/2026-12-07");
        assertThat(meters.counter(DigestScheduler.SENT, "outcome", "delivered").count())
                .isEqualTo(2.0);
    }

    @Test
    void onTheSpringForwardDayATimeInTheGapIsSentOnceAnHourLater() {
        at("2026-03-28T12:00:00Z");
        instance("a", LocalTime.of(2, 30));
        at("2026-03-29T01:29:59Z"); // 02:29:59 CET; 02:30 never happens that night
        assertThat(delivered).isEmpty();
        at("2026-03-29T01:30:00Z"); // 03:30 CEST
        assertThat(delivered).containsExactly("digest/2026-03-29");
        at("2026-03-30T00:29:59Z");
        assertThat(delivered).hasSize(1);
        at("2026-03-30T00:30:00Z"); // 02:30 CEST
        assertThat(delivered).containsExactly("digest/2026-03-29", "digest/2026-03-30");
    }

    @Test
    void onTheFallBackDayATimeThatHappensTwiceIsSentOnce() {
        at("2026-10-24T12:00:00Z");
        instance("a", LocalTime.of(2, 30));
        at("2026-10-25T00:30:00Z"); // the first 02:30 (CEST)
        assertThat(delivered).containsExactly("digest/2026-10-25");
        at("2026-10-25T01:30:00Z"); // the second 02:30 (CET)
        at("2026-10-25T12:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-10-25");
    }

    @Test
    void aRestartAfterTheTimeWithTheDigestUnsentSendsItOnce() {
        at("2026-12-06T07:00:00Z");
        DigestScheduler a = instance("a", LocalTime.of(9, 0));
        at("2026-12-06T07:30:00Z");
        a.close(); // down from 08:30 to 11:00 Berlin: the 09:00 digest was owed and missed
        at("2026-12-06T10:00:00Z");
        assertThat(delivered).isEmpty();
        instance("b", LocalTime.of(9, 0));
        at("2026-12-06T10:00:01Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        at("2026-12-06T20:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        at("2026-12-07T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06", "digest/2026-12-07");
    }

    @Test
    void aRestartAfterTheDigestWasSentDoesNotSendItAgain() {
        at("2026-12-06T07:00:00Z");
        DigestScheduler a = instance("a", LocalTime.of(9, 0));
        at("2026-12-06T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        a.close();
        instance("b", LocalTime.of(9, 0));
        at("2026-12-06T09:00:00Z");
        instance("c", LocalTime.of(9, 0)); // and another restart
        at("2026-12-07T07:59:59Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        at("2026-12-07T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06", "digest/2026-12-07");
    }

    @Test
    void aFirstStartAfterTheTimeOwesNothingForThatDay() {
        at("2026-12-06T10:00:00Z");
        instance("a", LocalTime.of(9, 0));
        at("2026-12-07T07:59:59Z");
        assertThat(delivered).isEmpty();
        at("2026-12-07T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-07");
    }

    @Test
    void twoInstancesDeliverItOnce() {
        at("2026-12-06T07:00:00Z");
        instance("a", LocalTime.of(9, 0));
        instance("b", LocalTime.of(9, 0));
        at("2026-12-06T08:00:00Z");
        at("2026-12-06T12:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        at("2026-12-07T08:00:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06", "digest/2026-12-07");
    }

    @Test
    void anInstanceTakesOverADigestWhoseSenderDiedOnceItsLeaseRanOut() {
        at("2026-12-06T07:00:00Z");
        // a claims the day and then hangs (dies) in the middle of its delivery
        DigestScheduler a = instance("a", LocalTime.of(9, 0), e -> Mono.never());
        instance("b", LocalTime.of(9, 0));
        at("2026-12-06T08:00:00Z");
        assertThat(delivered).isEmpty();
        a.close();
        at("2026-12-06T09:09:00Z");
        assertThat(delivered).isEmpty(); // a's lease (70 minutes) still holds
        at("2026-12-06T09:11:00Z");
        assertThat(delivered).containsExactly("digest/2026-12-06");
        assertThat(store.sent(LocalDate.of(2026, 12, 6))).isTrue();
    }
}
