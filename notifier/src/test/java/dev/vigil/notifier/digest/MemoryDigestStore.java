package dev.vigil.notifier.digest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;

/** {@link DigestStore} in memory with the PostgreSQL tables' rules, on the test's clock (virtual time). */
final class MemoryDigestStore implements DigestStore {
    private final Clock clock;
    private final Map<LocalDate, Day> days = new ConcurrentHashMap<>();
    volatile DigestData data = new DigestData(List.of(), List.of(), List.of());

    MemoryDigestStore(Clock clock) {
        this.clock = clock;
    }

    private static final class Day {
        String owner;
        Instant leaseUntil;
        boolean sent;
        List<String> channels;
    }

    @Override
    public Mono<Void> expect(LocalDate day) {
        return Mono.fromRunnable(() -> days.putIfAbsent(day, new Day()));
    }

    @Override
    public synchronized Mono<DayState> claim(LocalDate day, String owner, Duration lease) {
        return Mono.fromSupplier(() -> {
            synchronized (this) {
                Day d = days.get(day);
                if (d == null) {
                    return DayState.NOT_OWED;
                }
                if (d.sent) {
                    return DayState.SENT;
                }
                Instant now = clock.instant();
                if (d.leaseUntil != null && !d.leaseUntil.isBefore(now) && !owner.equals(d.owner)) {
                    return DayState.HELD;
                }
                d.owner = owner;
                d.leaseUntil = now.plus(lease);
                return DayState.CLAIMED;
            }
        });
    }

    @Override
    public Mono<Void> markSent(LocalDate day, List<String> channels) {
        return Mono.fromRunnable(() -> {
            Day d = days.get(day);
            d.sent = true;
            d.channels = channels;
        });
    }

    @Override
    public Mono<DigestData> read(Instant from, Instant to) {
        return Mono.fromSupplier(() -> data);
    }

    boolean sent(LocalDate day) {
        Day d = days.get(day);
        return d != null && d.sent;
    }
}
