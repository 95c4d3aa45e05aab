package dev.vigil.ingest.alertmanager;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.validate.AppAlerts;
import dev.vigil.ingest.validate.BatchResult;
import dev.vigil.ingest.validate.Rejection;
import dev.vigil.ingest.validate.TimeBounds;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Severity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Translates a Prometheus Alertmanager webhook payload (version 4) into AlertEvents, so Vigil's notifier
 * is the single dispatcher for Vigil's own incidents and Prometheus alerts. Pure: the clock is passed in.
 *
 * <ul>
 *   <li>{@code status} firing → {@code opened}, resolved → {@code resolved};</li>
 *   <li>fingerprint {@code app/<appId>/alertmanager/<fingerprint>}, or, when the alert carries none,
 *       {@code app/<appId>/alertmanager/<first 16 hex of SHA-256 over the sorted labels>}: namespaced by
 *       {@link AppAlerts} like every app event, since the webhook is authenticated by an app key;</li>
 *   <li>severity from the {@code severity} label (P1/P2/P3 aliases; anything else info);</li>
 *   <li>summary from the {@code summary} annotation, else {@code description}, else the alert name;</li>
 *   <li>service from the {@code service} label, else {@code job}, else the authenticated app;</li>
 *   <li>firstSeen = startsAt; lastSeen = endsAt when resolved, the receive time when firing; an RFC 3339
 *       time that is malformed, outside epoch milliseconds or more than the skew ahead of the server clock
 *       rejects the alert;</li>
 *   <li>source {@code app}, {@code attributes.app} the app, incidentId and eventId derived from the namespaced
 *       fingerprint ({@code AlertEvent.appEventId(fingerprint, state)}).</li>
 * </ul>
 * Labels become attributes (bounded; over-long ones are left out). Each alert is validated on its own;
 * a payload that is not a v4 webhook at all refuses the request.
 */
public final class AlertmanagerTranslator {
    private static final Pattern AM_FINGERPRINT = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_ATTRIBUTES = 16;
    /** The metrics' default timestamp skew, for callers that do not configure one. */
    private static final long DEFAULT_MAX_AHEAD_MS = 300_000;

    private final AppAlerts apps;
    private final long maxAheadMs;

    public AlertmanagerTranslator() {
        this(DEFAULT_MAX_AHEAD_MS);
    }

    /** @param maxAheadMs how far startsAt/endsAt may be ahead of the server clock */
    public AlertmanagerTranslator(long maxAheadMs) {
        this.apps = new AppAlerts(maxAheadMs);
        this.maxAheadMs = maxAheadMs;
    }

    /** True when a JSON body looks like an Alertmanager webhook rather than AlertEvents. */
    public static boolean isWebhook(JsonNode body) {
        return body.isObject()
                && (body.has("alerts") || body.has("groupKey") || body.has("receiver"))
                && !body.has("fingerprint");
    }

    public BatchResult<AlertEvent> translate(JsonNode payload, String appId, long nowMs, int maxAlerts) {
        JsonNode version = payload.get("version");
        if (version == null || !version.isTextual()) {
            throw HttpProblem.badRequest(
                    "alertmanager-payload", "version: is required (Alertmanager webhook version \"4\")");
        }
        if (!"4".equals(version.textValue())) {
            throw HttpProblem.badRequest(
                    "alertmanager-payload", "version: only Alertmanager webhook version \"4\" is supported");
        }
        JsonNode alerts = payload.get("alerts");
        if (alerts == null || !alerts.isArray()) {
            throw HttpProblem.badRequest("alertmanager-payload", "alerts: is required and must be an array");
        }
        if (alerts.isEmpty()) {
            throw HttpProblem.badRequest("empty-batch", "alerts: holds no alerts");
        }
        if (alerts.size() > maxAlerts) {
            throw new HttpProblem(
                    413, "too-many-events", "Too many events", "a batch may hold at most " + maxAlerts + " events");
        }
        String externalUrl = text(payload.get("externalURL"));
        var out = new BatchResult.Builder<AlertEvent>();
        for (int i = 0; i < alerts.size(); i++) {
            String prefix = "alerts[" + i + "]";
            JsonNode alert = alerts.get(i);
            if (!alert.isObject()) {
                out.reject(Rejection.notObject(i).under(prefix));
                continue;
            }
            try {
                AlertEvent event = toEvent(alert, appId, externalUrl, nowMs);
                var single = new BatchResult.Builder<AlertEvent>();
                apps.admit(i, event, appId, nowMs, single);
                BatchResult<AlertEvent> r = single.build();
                r.accepted().forEach(a -> out.accept(a.index(), a.key(), a.value()));
                r.rejected().forEach(x -> out.reject(x.under(prefix)));
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e).under(prefix));
            }
        }
        return out.build();
    }

    AlertEvent toEvent(JsonNode alert, String appId, String externalUrl, long nowMs) {
        String status = text(alert.get("status"));
        AlertState state;
        if ("firing".equals(status)) {
            state = AlertState.OPENED;
        } else if ("resolved".equals(status)) {
            state = AlertState.RESOLVED;
        } else {
            throw new ContractViolation(
                    "status", status == null ? "is required (firing or resolved)" : "must be firing or resolved");
        }
        JsonNode labelsNode = alert.get("labels");
        if (labelsNode == null || !labelsNode.isObject() || labelsNode.isEmpty()) {
            throw new ContractViolation("labels", "is required and must be a non-empty object");
        }
        Map<String, String> labels = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : labelsNode.properties()) {
            if (!e.getValue().isTextual()) {
                throw new ContractViolation("labels." + safeKey(e.getKey()), "must be a string");
            }
            labels.put(e.getKey(), e.getValue().textValue());
        }
        Map<String, String> annotations = new TreeMap<>();
        JsonNode annNode = alert.get("annotations");
        if (annNode != null && annNode.isObject()) {
            for (Map.Entry<String, JsonNode> e : annNode.properties()) {
                if (e.getValue().isTextual()) {
                    annotations.put(e.getKey(), e.getValue().textValue());
                }
            }
        }
        long startsAt = time("startsAt", alert.get("startsAt"), nowMs);
        long lastSeen;
        if (state == AlertState.RESOLVED) {
            JsonNode ends = alert.get("endsAt");
            lastSeen = ends == null || ends.isNull() ? nowMs : time("endsAt", ends, nowMs);
        } else {
            lastSeen = nowMs;
        }
        lastSeen = Math.max(lastSeen, startsAt);

        String fingerprint = "alertmanager/" + fingerprint(alert.get("fingerprint"), labels);
        Severity severity = Severity.parseLenient(labels.get("severity"));
        String summary = oneLine(
                first(
                        annotations.get("summary"),
                        annotations.get("description"),
                        labels.get("alertname"),
                        "Alertmanager alert"),
                300);
        String service = oneLine(first(labels.get("service"), labels.get("job"), appId, null), 100);
        String component = labels.get("component");
        if (component != null && (component.isBlank() || component.length() > 64)) {
            component = null;
        }

        Map<String, String> links = new TreeMap<>();
        putLink(links, "source", text(alert.get("generatorURL")));
        putLink(links, "alertmanager", externalUrl);
        putLink(links, "runbook", first(annotations.get("runbook_url"), annotations.get("runbook"), null, null));

        Map<String, String> attributes = new TreeMap<>();
        attributes.put("app", appId);
        for (var e : labels.entrySet()) {
            if (attributes.size() >= MAX_ATTRIBUTES) {
                break;
            }
            String k = e.getKey();
            String v = e.getValue();
            if (!k.isBlank()
                    && k.length() <= 64
                    && !v.isBlank()
                    && v.length() <= 256
                    && !hasControl(v)
                    && !attributes.containsKey(k)) {
                attributes.put(k, v);
            }
        }
        return new AlertEvent(
                1,
                null,
                fingerprint,
                null,
                state,
                severity,
                service,
                component,
                summary,
                links,
                attributes,
                1,
                startsAt,
                lastSeen,
                AlertSource.APP,
                false,
                null);
    }

    private static String fingerprint(JsonNode given, Map<String, String> labels) {
        String fp = text(given);
        if (fp != null && !fp.isEmpty()) {
            if (!AM_FINGERPRINT.matcher(fp).matches()) {
                throw new ContractViolation("fingerprint", "must be 1-128 characters [A-Za-z0-9._:-]");
            }
            return fp;
        }
        StringBuilder canonical = new StringBuilder();
        labels.forEach((k, v) -> canonical.append(k).append('=').append(v).append('\n'));
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HEX.formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Epoch milliseconds of an RFC 3339 time. Malformed text, a non-string, a time outside epoch milliseconds
     * (e.g. year +999999999, which {@link Instant} parses but cannot express in a long) and one more than the skew
     * ahead of the server clock reject the alert. (A firing alert's endsAt is a forecast and is never read.)
     */
    private long time(String field, JsonNode node, long nowMs) {
        if (node == null || node.isNull()) {
            throw new ContractViolation(field, "is required (RFC 3339 time)");
        }
        if (!node.isTextual()) {
            throw new ContractViolation(field, "must be an RFC 3339 time string");
        }
        String s = node.textValue();
        Instant instant;
        try {
            instant = Instant.parse(s);
        } catch (DateTimeException e) {
            try {
                instant = java.time.OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeException e2) {
                throw new ContractViolation(field, "must be an RFC 3339 time");
            }
        }
        long ms;
        try {
            ms = instant.toEpochMilli();
        } catch (ArithmeticException e) {
            throw new ContractViolation(field, "is out of range (must be between 1970 and year 292278994)");
        }
        if (ms < 0) {
            throw new ContractViolation(field, "must not be before 1970");
        }
        if (!TimeBounds.notAhead(ms, nowMs, maxAheadMs)) {
            throw new ContractViolation(field, "is more than " + maxAheadMs / 1000 + " s ahead of the server clock");
        }
        return ms;
    }

    /** A link without query string or fragment (Prometheus graph URLs carry the expression in the query). */
    private static void putLink(Map<String, String> links, String name, String url) {
        if (url == null || url.isBlank()) {
            return;
        }
        int cut = url.length();
        int q = url.indexOf('?');
        int h = url.indexOf('#');
        if (q >= 0) {
            cut = Math.min(cut, q);
        }
        if (h >= 0) {
            cut = Math.min(cut, h);
        }
        String clean = url.substring(0, cut);
        if (!clean.isBlank() && clean.length() <= 2048 && !hasControl(clean)) {
            links.put(name, clean);
        }
    }

    private static String oneLine(String s, int max) {
        String flat = s.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
        if (flat.isEmpty()) {
            flat = "Alertmanager alert";
        }
        return flat.length() <= max ? flat : flat.substring(0, max - 1) + "…";
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < 0x20) {
                return true;
            }
        }
        return false;
    }

    private static String first(String a, String b, String c, String d) {
        for (String s : new String[] {a, b, c, d}) {
            if (s != null && !s.isBlank()) {
                return s;
            }
        }
        return null;
    }

    private static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.textValue() : null;
    }

    /** Label names are identifiers in Prometheus; refuse to echo anything that is not. */
    private static String safeKey(String key) {
        return key.matches("[A-Za-z_][A-Za-z0-9_]{0,63}") ? key : "<label>";
    }
}
