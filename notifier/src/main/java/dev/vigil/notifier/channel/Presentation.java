package dev.vigil.notifier.channel;

import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What every notification shows, decided once: the cleaned event, title, colour, timestamps, which links may be
 * rendered as links. Every adapter starts from {@link #clean}, so no adapter can forget a field.
 */
public final class Presentation {
    /** Stands in for a text that held nothing but invisible characters (the contract wants it non-blank). */
    static final String BLANK = "-";

    private Presentation() {}

    /**
     * The event with bidi controls and zero-width characters ({@link Text#stripInvisible}) removed from every text
     * field: summary, service, component type, link labels and URLs, attribute names and values, and the ids shown
     * in messages (the fingerprint's pattern already excludes them). The same instance comes back when there is nothing to remove, which is almost always.
     */
    public static AlertEvent clean(AlertEvent e) {
        if (!needsCleaning(e)) {
            return e;
        }
        Map<String, String> links = new LinkedHashMap<>();
        e.links().forEach((k, v) -> {
            String url = Text.stripInvisible(v);
            if (!url.isBlank()) {
                links.putIfAbsent(nonBlank(k), url);
            }
        });
        Map<String, String> attributes = new LinkedHashMap<>();
        e.attributes().forEach((k, v) -> attributes.putIfAbsent(nonBlank(k), nonBlank(v)));
        return new AlertEvent(
                e.schemaVersion(),
                nonBlank(e.eventId()),
                e.fingerprint(),
                nonBlank(e.incidentId()),
                e.state(),
                e.severity(),
                nonBlank(e.service()),
                e.componentType() == null ? null : Text.stripInvisible(e.componentType()),
                nonBlank(e.summary()),
                links,
                attributes,
                e.occurrences(),
                e.firstSeen(),
                e.lastSeen(),
                e.source(),
                e.silenced(),
                e.channels());
    }

    private static boolean needsCleaning(AlertEvent e) {
        if (Text.hasInvisible(e.summary())
                || Text.hasInvisible(e.service())
                || Text.hasInvisible(e.componentType())
                || Text.hasInvisible(e.eventId())
                || Text.hasInvisible(e.incidentId())) {
            return true;
        }
        for (var a : e.attributes().entrySet()) {
            if (Text.hasInvisible(a.getKey()) || Text.hasInvisible(a.getValue())) {
                return true;
            }
        }
        for (var l : e.links().entrySet()) {
            if (Text.hasInvisible(l.getKey()) || Text.hasInvisible(l.getValue())) {
                return true;
            }
        }
        return false;
    }

    private static String nonBlank(String s) {
        String t = Text.stripInvisible(s);
        return t.isBlank() ? BLANK : t;
    }

    /** Neutral grey of an acknowledgement notice: someone took the incident on, nothing new is wrong. */
    public static final int ACKNOWLEDGED_COLOUR = 0x8D8D8D;
    /** Attribute naming who acknowledged (the query API's token name) on an {@code acknowledged} event. */
    public static final String ACKNOWLEDGED_BY = "acknowledgedBy";
    /** Attribute with the end of an acknowledgement (ISO instant), when it has one. */
    public static final String ACKNOWLEDGED_UNTIL = "acknowledgedUntil";

    public static int colour(AlertEvent e) {
        if (e.state() == AlertState.RESOLVED) {
            return 0x2EB67D;
        }
        if (e.state() == AlertState.ACKNOWLEDGED) {
            return ACKNOWLEDGED_COLOUR;
        }
        return switch (e.severity()) {
            case CRITICAL -> 0xE01E5A;
            case WARNING -> 0xECB22E;
            case INFO -> 0x36C5F0;
        };
    }

    public static String hexColour(AlertEvent e) {
        return String.format("#%06X", colour(e));
    }

    /** One line; invisible characters are removed here too, for a caller that built it from an uncleaned event. */
    public static String title(AlertEvent e) {
        String prefix =
                switch (e.state()) {
                    case OPENED -> "[" + e.severity().wire().toUpperCase(Locale.ROOT) + "] ";
                    case REMINDER -> "[Still firing] ";
                    case ESCALATED -> "[Escalated to " + e.severity().wire() + "] ";
                    case RESOLVED -> "[Resolved] ";
                    case ACKNOWLEDGED -> "[Acknowledged] ";
                };
        return Text.oneLine(Text.stripInvisible(prefix + e.service() + ": " + e.summary()));
    }

    /**
     * Who acknowledged, from {@value #ACKNOWLEDGED_BY} (cleaned, one line), or {@code fallback} when the event
     * names nobody.
     */
    public static String acknowledgedBy(AlertEvent e, String fallback) {
        String by = e.attributes().get(ACKNOWLEDGED_BY);
        String clean = by == null ? "" : Text.oneLine(Text.stripInvisible(by)).strip();
        return clean.isEmpty() ? fallback : clean;
    }

    /** The end of the acknowledgement ({@value #ACKNOWLEDGED_UNTIL}), cleaned, or null. */
    public static String acknowledgedUntil(AlertEvent e) {
        String until = e.attributes().get(ACKNOWLEDGED_UNTIL);
        String clean =
                until == null ? "" : Text.oneLine(Text.stripInvisible(until)).strip();
        return clean.isEmpty() ? null : clean;
    }

    public static String time(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    public static boolean isHttpLink(String url) {
        return url != null && (url.startsWith("https://") || url.startsWith("http://"));
    }

    /**
     * Whether a URL from the event's links may be rendered as a link: absolute http(s) with a host, no user-info
     * (it can make {@code https://grafana.example@evil.test} read as the first host), and none of the characters
     * that end or split a link in vendor markup ({@code | < >}), whitespace or control characters.
     */
    public static boolean isSafeLink(String url) {
        if (!isHttpLink(url)) {
            return false;
        }
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '|'
                    || c == '<'
                    || c == '>'
                    || Character.isWhitespace(c)
                    || Character.isISOControl(c)
                    || Character.isSpaceChar(c)
                    || Text.isInvisible(c)) {
                return false;
            }
        }
        try {
            URI u = new URI(url);
            return u.getHost() != null && !u.getHost().isBlank() && u.getRawUserInfo() == null;
        } catch (URISyntaxException ex) {
            return false;
        }
    }

    /**
     * The one-line title of a group message (events already cleaned): what the group shares and how many of each
     * state, e.g. {@code [CRITICAL] checkout-api: <n> alerts (<n> opened, <n> resolved)}. The severity is the worst of the
     * events still firing; a group of resolutions only reads {@code [Resolved]}.
     */
    public static String groupTitle(java.util.List<AlertEvent> events) {
        java.util.Set<String> services = new java.util.TreeSet<>();
        Map<AlertState, Integer> states = new java.util.EnumMap<>(AlertState.class);
        for (AlertEvent e : events) {
            services.add(e.service());
            states.merge(e.state(), 1, Integer::sum);
        }
        AlertEvent worst = worst(events);
        String prefix = worst.state() == AlertState.RESOLVED
                ? "[Resolved] "
                : "[" + worst.severity().wire().toUpperCase(Locale.ROOT) + "] ";
        String about = services.size() == 1 ? services.iterator().next() : services.size() + " services";
        StringBuilder counts = new StringBuilder();
        states.forEach((st, n) -> counts.append(counts.isEmpty() ? "" : ", ")
                .append(n)
                .append(' ')
                .append(st.wire()));
        return Text.oneLine(Text.stripInvisible(prefix + about + ": " + events.size() + " alerts (" + counts + ")"));
    }

    /** The colour of a group message: the worst severity still firing, or resolved's when every event resolved. */
    public static int groupColour(java.util.List<AlertEvent> events) {
        return colour(worst(events));
    }

    /** The event a group message takes its severity from: the most severe one that is not a resolution. */
    private static AlertEvent worst(java.util.List<AlertEvent> events) {
        AlertEvent worst = null;
        for (AlertEvent e : events) {
            if (e.state() != AlertState.RESOLVED
                    && (worst == null
                            || e.severity().ordinal() < worst.severity().ordinal())) {
                worst = e;
            }
        }
        return worst != null ? worst : events.get(0);
    }

    /**
     * The link a group message's line for {@code e} points to (the event cleaned): its {@code console} link when it
     * has a safe one, else its first safe link; null when none may be rendered.
     */
    public static String groupLink(AlertEvent e) {
        String console = e.links().get("console");
        if (isSafeLink(console)) {
            return console;
        }
        return e.links().values().stream()
                .filter(Presentation::isSafeLink)
                .findFirst()
                .orElse(null);
    }
}
