package dev.vigil.notifier.digest;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The digest's durable state, shared by every notifier instance: which days' digests are owed, which instance is
 * sending one, which were sent; and the data a digest is composed from. Every operation errors when the store is
 * unreachable; the scheduler tries again later.
 */
public interface DigestStore {
    /** What became of a claim on a day's digest. */
    enum DayState {
        /** Ours to compose and send now. */
        CLAIMED,
        /** Sent already (by any instance, before any restart). */
        SENT,
        /** Another instance is sending it (its lease is live). */
        HELD,
        /** Not owed: no notifier was running before its time, so nobody expected it. */
        NOT_OWED
    }

    /** Notes that {@code day}'s digest is owed (a notifier is running before its time); idempotent. */
    Mono<Void> expect(LocalDate day);

    /** Claims {@code day}'s digest for {@code owner} until {@code lease} has passed, atomically across instances. */
    Mono<DayState> claim(LocalDate day, String owner, Duration lease);

    /** Records that {@code day}'s digest was sent, to these channels. */
    Mono<Void> markSent(LocalDate day, List<String> channels);

    /** The incidents, delivery failures and recorded events of the window {@code [from, to)}. */
    Mono<DigestData> read(Instant from, Instant to);
}
