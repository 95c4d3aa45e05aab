package dev.vigil.ingest.betterstack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.validate.TimeBounds;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * Translates BetterStack's incident webhook into the {@link VendorIncidentUpdate} a person's action stands for, so an
 * acknowledgement (or a resolution) made in BetterStack acknowledges the Vigil incident too. Pure: the receive time is
 * passed in.
 *
 * <p>BetterStack posts the incident resource whenever an incident is created, acknowledged or resolved
 * (<a href="https://betterstack.com/docs/uptime/webhooks/">Uptime webhooks</a>), in the JSON:API shape of its incidents
 * API (<a href="https://betterstack.com/docs/uptime/api/incidents-api-response-params/">incident response
 * parameters</a>): {@code {"data": {"id", "type": "incident", "attributes": {status, acknowledged_at,
 * acknowledged_by, resolved_at, resolved_by, ...}}}}. What it means:
 * <ul>
 *   <li>a resolved incident ({@code resolved_at} set, or status {@code Resolved}) resolved by someone other than
 *       Vigil: {@code RESOLVED} by {@code resolved_by} at {@code resolved_at}. Vigil resolves the incidents it opened
 *       itself, as {@code resolved_by: "vigil"}; BetterStack reports that back like any resolution, and passing it on
 *       would turn Vigil's own resolution into a person's. A resolved incident is judged by its resolution alone,
 *       since its acknowledgement was reported when it happened;</li>
 *   <li>otherwise an acknowledged one ({@code acknowledged_at} set, or status {@code Acknowledged}):
 *       {@code ACKNOWLEDGED} by {@code acknowledged_by} at {@code acknowledged_at};</li>
 *   <li>anything else (Unconfirmed, Started, Validating, a status BetterStack may add later) is not a person's act and
 *       is {@link Ignored}: the caller answers 2xx, so BetterStack does not resend it.</li>
 * </ul>
 * Malformed input is refused with a 400 naming the field. Times are ISO-8601 with an offset, from 1970 to at most the
 * skew ahead of the server clock, and are kept as BetterStack wrote them (the notifier derives its ids from them, so a
 * redelivered call must carry the same time); an absent one is the receive time. {@code by} is cleaned (control and invisible format characters
 * such as bidi overrides removed, white space collapsed, at most {@value #MAX_BY} characters) and dropped when the
 * privacy guard finds contact data in it: the name would reach every channel and the audit log.
 */
public final class BetterStackTranslator {
    public static final String VENDOR = "betterstack";
    /** The name Vigil's notifier resolves BetterStack incidents under ({@code resolved_by}). */
    public static final String OWN_NAME = "vigil";

    static final int MAX_BY = 100;
    private static final String PROBLEM = "betterstack-payload";

    private final long maxAheadMs;

    /** @param maxAheadMs how far a time may be ahead of the server clock */
    public BetterStackTranslator(long maxAheadMs) {
        this.maxAheadMs = maxAheadMs;
    }

    /** What a webhook call stands for. */
    public sealed interface Translation permits Update, Ignored {}

    /**
     * A person acknowledged or resolved the incident: publish this. {@code vendorTime} is the time BetterStack gave the
     * act ({@code acknowledged_at}/{@code resolved_at}), null when it gave none: what freshness is judged by.
     */
    public record Update(VendorIncidentUpdate update, Long vendorTime) implements Translation {}

    /** Nothing for Vigil to do; {@code detail} says why (never echoing a value). */
    public record Ignored(Reason reason, String detail) implements Translation {}

    /** Why a call was ignored: bounded, for metric tags. */
    public enum Reason {
        /** The status is no acknowledgement or resolution (Started, Unconfirmed, Validating, unknown). */
        STATUS("status"),
        /** Vigil resolved the incident itself. */
        OWN_RESOLUTION("own_resolution"),
        /** Resolved, but resolved_by names no one. */
        NO_PERSON("no_person"),
        /** The act's own time is older than the freshness window (a late or replayed call). */
        STALE("stale"),
        /** The act carries no time of its own, so its freshness cannot be told. */
        NO_TIME("no_time"),
        /** This very update was applied already (a replay). */
        REPLAYED("replayed");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** BetterStack's documented incident statuses. */
    private enum Status {
        UNCONFIRMED("Unconfirmed"),
        STARTED("Started"),
        ACKNOWLEDGED("Acknowledged"),
        RESOLVED("Resolved"),
        VALIDATING("Validating");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        static Status of(String value) {
            if (value == null) {
                return null;
            }
            for (Status s : values()) {
                if (s.wire.equalsIgnoreCase(value.strip())) {
                    return s;
                }
            }
            return null;
        }
    }

    public Translation translate(byte[] body, long receivedAt) {
        JsonNode root;
        try {
            root = Json.tree(body);
        } catch (ContractViolation e) {
            throw HttpProblem.badRequest("malformed-json", "the body is not valid JSON");
        }
        return translate(root, receivedAt);
    }

    public Translation translate(JsonNode root, long receivedAt) {
        if (!root.isObject()) {
            throw bad("$", "must be a JSON object (BetterStack's incident webhook)");
        }
        JsonNode data = root.get("data");
        if (data == null || !data.isObject()) {
            throw bad("data", "is required and must be an object");
        }
        JsonNode type = data.get("type");
        if (type == null || !type.isTextual() || !"incident".equals(type.textValue())) {
            throw bad("data.type", "must be \"incident\" (configure the webhook for incidents)");
        }
        String id = id(data.get("id"));
        JsonNode attributes = data.get("attributes");
        if (attributes == null || !attributes.isObject()) {
            throw bad("data.attributes", "is required and must be an object");
        }
        String statusText = text(attributes, "status");
        Status status = Status.of(statusText);
        Long acknowledgedAt = time(attributes, "acknowledged_at", receivedAt);
        Long resolvedAt = time(attributes, "resolved_at", receivedAt);
        String acknowledgedBy = cleanName(text(attributes, "acknowledged_by"));
        String resolvedBy = cleanName(text(attributes, "resolved_by"));

        if (resolvedAt != null || status == Status.RESOLVED) {
            if (resolvedBy == null) {
                return new Ignored(Reason.NO_PERSON, "the incident was resolved, but resolved_by names no one");
            }
            if (resolvedBy.equalsIgnoreCase(OWN_NAME)) {
                return new Ignored(Reason.OWN_RESOLUTION, "resolved by Vigil itself, not by a person");
            }
            return new Update(
                    update(id, VendorIncidentUpdate.Action.RESOLVED, resolvedBy, resolvedAt, receivedAt), resolvedAt);
        }
        if (acknowledgedAt != null || status == Status.ACKNOWLEDGED) {
            return new Update(
                    update(id, VendorIncidentUpdate.Action.ACKNOWLEDGED, acknowledgedBy, acknowledgedAt, receivedAt),
                    acknowledgedAt);
        }
        String why;
        if (status != null) {
            why = "status " + status.wire + " is not a person's acknowledgement or resolution";
        } else if (statusText == null) {
            why = "the incident carries no status, acknowledgement or resolution";
        } else {
            why = "the status is none of Unconfirmed, Started, Acknowledged, Resolved, Validating, and the incident "
                    + "carries no acknowledgement or resolution";
        }
        return new Ignored(Reason.STATUS, why);
    }

    private static VendorIncidentUpdate update(
            String id, VendorIncidentUpdate.Action action, String by, Long at, long receivedAt) {
        try {
            return new VendorIncidentUpdate(
                    1, VENDOR, id, action, publishable(by), at == null ? receivedAt : at, receivedAt);
        } catch (ContractViolation e) {
            throw bad(e.field(), e.problem());
        }
    }

    /** The incident id: a string or an integer (JSON:API ids are strings; an integer is taken as its digits). */
    private static String id(JsonNode node) {
        if (node == null || node.isNull()) {
            throw bad("data.id", "is required");
        }
        String id;
        if (node.isTextual()) {
            id = node.textValue();
        } else if (node.isIntegralNumber()) {
            id = node.bigIntegerValue().toString();
        } else {
            throw bad("data.id", "must be a string or an integer");
        }
        if (!VendorIncidentUpdate.VENDOR_ID.matcher(id).matches()) {
            throw bad("data.id", "must be BetterStack's incident id (1-128 characters [A-Za-z0-9._:-])");
        }
        return id;
    }

    /** A string attribute, or null when absent or null; anything else is refused. */
    private static String text(JsonNode attributes, String name) {
        JsonNode n = attributes.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw bad("data.attributes." + name, "must be a string or null");
        }
        return n.textValue();
    }

    /** Epoch milliseconds of an ISO-8601 time attribute, or null when absent or null. */
    private Long time(JsonNode attributes, String name, long nowMs) {
        JsonNode n = attributes.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        String field = "data.attributes." + name;
        if (!n.isTextual()) {
            throw bad(field, "must be an ISO-8601 time string or null");
        }
        String s = n.textValue();
        Instant instant;
        try {
            instant = Instant.parse(s);
        } catch (DateTimeException e) {
            try {
                instant = OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeException e2) {
                throw bad(field, "must be an ISO-8601 time with an offset, e.g. 2020-03-09T17:40:00Z");
            }
        }
        long ms;
        try {
            ms = instant.toEpochMilli();
        } catch (ArithmeticException e) {
            throw bad(field, "is out of range (must be between 1970 and year 292278994)");
        }
        if (ms < 0) {
            throw bad(field, "must not be before 1970");
        }
        if (!TimeBounds.notAhead(ms, nowMs, maxAheadMs)) {
            throw bad(field, "is more than " + maxAheadMs / 1000 + " s ahead of the server clock");
        }
        return ms;
    }

    /**
     * A name as a person would read it: control characters, invisible format characters (bidi overrides, zero-width
     * spaces) and unpaired surrogates removed, any white space read as one space, trimmed, cut to {@value #MAX_BY}
     * characters; null when nothing is left.
     */
    static String cleanName(String raw) {
        if (raw == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder(Math.min(raw.length(), 4 * MAX_BY));
        boolean space = false;
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                space = sb.length() > 0;
                continue;
            }
            int type = Character.getType(cp);
            if (type == Character.CONTROL
                    || type == Character.FORMAT
                    || type == Character.SURROGATE
                    || type == Character.UNASSIGNED
                    || type == Character.PRIVATE_USE) {
                continue;
            }
            if (space) {
                sb.append(' ');
                space = false;
            }
            sb.appendCodePoint(cp);
            if (sb.length() > 4 * MAX_BY) {
                break; // enough to judge and to cut
            }
        }
        return sb.isEmpty() ? null : sb.toString();
    }

    /** The cleaned name as published: null when it carries contact data or other data the privacy guard forbids. */
    private static String publishable(String name) {
        if (name == null || PrivacyGuard.check("by", name).isPresent()) {
            return null;
        }
        String cut = cut(name);
        return PrivacyGuard.check("by", cut).isPresent() ? null : cut;
    }

    private static String cut(String s) {
        if (s.length() <= MAX_BY) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(MAX_BY - 1)) ? MAX_BY - 1 : MAX_BY;
        return s.substring(0, end).strip();
    }

    private static HttpProblem bad(String field, String reason) {
        return HttpProblem.badRequest(PROBLEM, field + ": " + reason);
    }
}
