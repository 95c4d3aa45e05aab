package dev.vigil.notifier;

import dev.vigil.notifier.claim.Database;
import dev.vigil.notifier.claim.DigestTables;
import dev.vigil.notifier.digest.DigestComposer;
import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestReport;
import dev.vigil.notifier.digest.DigestSchedule;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The digest as it stands, for {@code vigil digest --preview}: composed from the notifier's PostgreSQL over the time
 * since the last digest time, and sent nowhere. It reads what the notifier wrote, so an acknowledgement shows only
 * when its notice was delivered (the running notifier also consults the acknowledgements it mirrors).
 */
public final class DigestPreview {
    private DigestPreview() {}

    /** Blocks the caller (a command line, never an event loop) for at most {@code timeout}. */
    public static DigestReport compose(
            String r2dbcUrl, String username, String password, DigestSchedule schedule, Clock clock, Duration timeout) {
        Instant now = clock.instant();
        LocalDate day = schedule.nextDueDay(now);
        Instant from = schedule.windowStart(day);
        try (Database db = Database.open(r2dbcUrl, username, password, 1)) {
            DigestData data = new DigestTables(db.pool()).read(from, now).block(timeout);
            return DigestComposer.compose(day, schedule.zone(), from, now, now, data);
        }
    }
}
