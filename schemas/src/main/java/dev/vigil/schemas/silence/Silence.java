package dev.vigil.schemas.silence;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A silence or maintenance window: while active, alert events it matches are emitted with
 * {@code silenced=true} (the notifier records them and does not page). Key of the compacted
 * {@code vigil.silences} topic is the id; a tombstone deletes it.
 *
 * <p>Matchers, all of which must match (at least one is required):
 * <ul>
 *   <li>{@code fingerprint}: exact, or a glob where {@code *} matches any run of characters (slashes
 *       included): {@code monitor/checkout-api}, {@code monitor/checkout-*}, {@code worker/us-east/*}, {@code *};</li>
 *   <li>{@code service}: the event's service, exactly;</li>
 *   <li>{@code attributes}: each listed attribute must be present with exactly this value.</li>
 * </ul>
 * Without a {@code schedule}, active on {@code [startsAt, endsAt)} (epoch ms). With one (a recurring maintenance
 * window, docs/design.md#incident-lifecycle), {@code [startsAt, endsAt)} bounds the series and the silence is active only inside an
 * occurrence: one that starts at or after startsAt and before endsAt, cut at endsAt (see {@link Schedule} for the
 * local-time and daylight-saving rules). Either way the series lasts at most {@link #MAX_DURATION_MS}.
 * {@code author} is the name of the token that created it; {@code comment} is the creator's optional free text.
 * Records written before schedules existed have none and read as one-off silences.
 */
public record Silence(
        Integer schemaVersion,
        String id,
        String fingerprint,
        String service,
        Map<String, String> attributes,
        Long startsAt,
        Long endsAt,
        String author,
        String reason,
        Long createdAt,
        String comment,
        Schedule schedule) {

    /** Fingerprint characters plus {@code *}. */
    static final Pattern FINGERPRINT_GLOB = Pattern.compile("[A-Za-z0-9._:*/-]{1,300}");
    /** A silence may last at most a year; longer is almost certainly a typo (and should be a disabled monitor). */
    public static final long MAX_DURATION_MS = 366L * 24 * 3600 * 1000;

    public Silence {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        Require.slug("id", id);
        if (fingerprint != null) {
            Require.matches(
                    "fingerprint",
                    fingerprint,
                    FINGERPRINT_GLOB,
                    "a fingerprint or a glob such as monitor/checkout-* (characters [A-Za-z0-9._:/-] and *)");
        }
        Require.optionalText("service", service, 100);
        if (service != null && service.isBlank()) {
            throw new ContractViolation("service", "must not be blank");
        }
        attributes = Require.stringMap("attributes", attributes, 16, 64, 256);
        if (fingerprint == null && service == null && attributes.isEmpty()) {
            throw new ContractViolation(
                    "fingerprint",
                    "a silence needs at least one matcher (fingerprint, service or attributes); use \"*\" to silence everything");
        }
        Require.atLeast("startsAt", Require.present("startsAt", startsAt), 0);
        Require.present("endsAt", endsAt);
        if (endsAt <= startsAt) {
            throw new ContractViolation("endsAt", "must be after startsAt");
        }
        if (endsAt - startsAt > MAX_DURATION_MS) {
            throw new ContractViolation("endsAt", "must be at most 366 days after startsAt");
        }
        Require.text("author", author, 100);
        Require.text("reason", reason, 300);
        Require.atLeast("createdAt", Require.present("createdAt", createdAt), 0);
        Require.optionalText("comment", comment, 300);
    }

    /** A one-off silence (no schedule). */
    public Silence(
            Integer schemaVersion,
            String id,
            String fingerprint,
            String service,
            Map<String, String> attributes,
            Long startsAt,
            Long endsAt,
            String author,
            String reason,
            Long createdAt,
            String comment) {
        this(
                schemaVersion,
                id,
                fingerprint,
                service,
                attributes,
                startsAt,
                endsAt,
                author,
                reason,
                createdAt,
                comment,
                null);
    }

    /** A one-off silence without a comment. */
    public Silence(
            Integer schemaVersion,
            String id,
            String fingerprint,
            String service,
            Map<String, String> attributes,
            Long startsAt,
            Long endsAt,
            String author,
            String reason,
            Long createdAt) {
        this(
                schemaVersion,
                id,
                fingerprint,
                service,
                attributes,
                startsAt,
                endsAt,
                author,
                reason,
                createdAt,
                null,
                null);
    }

    /**
     * True when the silence is in force at {@code at}: {@code startsAt <= at < endsAt} and, with a schedule, {@code at}
     * inside an occurrence that started at or after startsAt.
     */
    public boolean activeAt(long at) {
        if (at < startsAt || at >= endsAt) {
            return false;
        }
        return schedule == null || schedule.inOccurrence(at, startsAt);
    }

    /** True when the silence (for a schedule, the whole series) has ended by {@code at} (it can be compacted away). */
    public boolean expiredAt(long at) {
        return at >= endsAt;
    }

    /**
     * The first instant at or after {@code from} at which the silence is active: {@code from} itself when active
     * then, else the start of the series or of its next occurrence; empty when it will never be active again.
     */
    public java.util.OptionalLong nextActiveAt(long from) {
        if (from >= endsAt) {
            return java.util.OptionalLong.empty();
        }
        if (activeAt(from)) {
            return java.util.OptionalLong.of(from);
        }
        if (schedule == null) {
            return java.util.OptionalLong.of(startsAt); // from < startsAt here
        }
        java.util.OptionalLong next = schedule.nextStart(Math.max(from, startsAt));
        return next.isPresent() && next.getAsLong() < endsAt ? next : java.util.OptionalLong.empty();
    }

    /**
     * This silence ended at {@code at} (the {@code DELETE /v1/silences/{id}} operation): {@code endsAt = at}, which
     * for a schedule ends the series (an occurrence in force ends now). An already expired silence is returned
     * unchanged. A silence (or series) that has not started by {@code at} never takes effect: the result is empty,
     * meaning "delete it" (a tombstone on the silences topic).
     */
    public java.util.Optional<Silence> expire(long at) {
        if (expiredAt(at)) {
            return java.util.Optional.of(this);
        }
        if (at <= startsAt) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Silence(
                schemaVersion,
                id,
                fingerprint,
                service,
                attributes,
                startsAt,
                at,
                author,
                reason,
                createdAt,
                comment,
                schedule));
    }

    /** True when the matchers select an event with these fields (time is not considered). */
    public boolean matches(String eventFingerprint, String eventService, Map<String, String> eventAttributes) {
        if (fingerprint != null && !globMatches(fingerprint, eventFingerprint)) {
            return false;
        }
        if (service != null && !service.equals(eventService)) {
            return false;
        }
        for (var e : attributes.entrySet()) {
            if (eventAttributes == null || !e.getValue().equals(eventAttributes.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** {@code *} matches any run of characters; everything else matches itself. Linear-time, no regex. */
    static boolean globMatches(String glob, String text) {
        if (text == null) {
            return false;
        }
        int g = 0;
        int t = 0;
        int starG = -1;
        int starT = 0;
        while (t < text.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                starG = g++;
                starT = t;
            } else if (g < glob.length() && glob.charAt(g) == text.charAt(t)) {
                g++;
                t++;
            } else if (starG >= 0) {
                g = starG + 1;
                t = ++starT;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }
}
