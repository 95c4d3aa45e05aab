package dev.vigil.probe.probe;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PrivacyGuard;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What every check type writes the same way: request ids, millisecond conversions, certificate days left and
 * details that are short, single-line and free of personal data (a refusal reason or a DNS name is ours, but it
 * still must never republish an address or a token).
 */
final class Results {
    static final int MAX_DETAIL = 300;
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    private Results() {}

    /** Correlates a result with the target's logs; not a secret, so no SecureRandom. */
    static String requestId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return new UUID(r.nextLong(), r.nextLong()).toString();
    }

    static int millis(long nanos) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }

    /** Whole days from {@code nowMs} until the certificate expires (negative once expired), within the contract. */
    static int daysLeft(X509Certificate certificate, long nowMs) {
        long left = certificate.getNotAfter().getTime() - nowMs;
        return (int) Math.max(-36500, Math.min(36500, Math.floorDiv(left, DAY_MS)));
    }

    static String detail(String detail) {
        if (detail == null) {
            return null;
        }
        String d = truncate(detail, MAX_DETAIL);
        return PrivacyGuard.check("detail", d).isPresent() ? "detail withheld: it would carry personal data" : d;
    }

    static String truncate(String s, int max) {
        String flat = s.replaceAll("\\p{Cntrl}", " ");
        return flat.length() <= max ? flat : flat.substring(0, max - 3) + "...";
    }

    /** The verdict of {@code expect.maxResponseMs} on an otherwise successful non-http check, or null. */
    static String tooSlow(MonitorDefinition monitor, int responseMs) {
        Integer max = monitor.expect().maxResponseMs();
        return max != null && responseMs > max
                ? "response took " + responseMs + " ms, more than maxResponseMs " + max
                : null;
    }

    /** The fields a non-http check fills; everything http-only stays empty. */
    record Fields(
            Outcome outcome,
            ErrorKind errorKind,
            Integer responseMs,
            Integer dnsMs,
            Integer connectMs,
            Integer tlsMs,
            Integer tlsDaysLeft,
            String detail,
            List<String> dnsAnswers) {}

    static ProbeResult of(
            ProbeSettings settings,
            MonitorDefinition monitor,
            long windowStart,
            long startedAt,
            long startNanos,
            String requestId,
            Fields f) {
        return new ProbeResult(
                1,
                monitor.id(),
                settings.region(),
                settings.workerId(),
                windowStart,
                startedAt,
                f.outcome(),
                f.outcome() == Outcome.SUCCESS ? null : f.errorKind(),
                null,
                f.responseMs(),
                millis(System.nanoTime() - startNanos),
                0L,
                0,
                null,
                f.tlsDaysLeft(),
                f.dnsMs(),
                f.connectMs(),
                f.tlsMs(),
                detail(f.detail()),
                requestId,
                monitor.type(),
                f.dnsAnswers());
    }
}
