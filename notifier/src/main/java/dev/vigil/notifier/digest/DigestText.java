package dev.vigil.notifier.digest;

import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestData.RecordedGroup;
import dev.vigil.notifier.digest.DigestReport.Downtime;
import dev.vigil.notifier.digest.DigestReport.Flapping;
import dev.vigil.notifier.digest.DigestReport.Open;
import dev.vigil.notifier.digest.DigestReport.Skipped;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A {@link DigestReport} as words: a title, a one-line summary and its sections, each a heading and lines, delta
 * first. Every value from the data (fingerprints, services, summaries) arrives on one line without control or
 * invisible characters; a vendor's markup escapes the lines on top of that. Sections show at most
 * {@value #LINES_MAX} lines and say how many more there were.
 */
public final class DigestText {
    public static final int LINES_MAX = 20;
    public static final String NEW_HEADING = "New since the previous digest";
    public static final String STILL_TRUE_HEADING = "Still true";
    public static final String NOTHING_TO_REPORT = "Nothing to report";
    private static final int SUMMARY_MAX = 120;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM uuuu", Locale.ROOT);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("EEE HH:mm", Locale.ROOT);

    private DigestText() {}

    /** One section: its heading, its lines (at most {@link #LINES_MAX}), and how many lines were left out. */
    public record Section(String heading, List<String> lines, int more, boolean stillTrue) {}

    /** {@code Vigil digest · Sun 6 Dec 2026 · Europe/Berlin}. */
    public static String title(DigestReport r) {
        return "Vigil digest · " + DAY.format(r.day()) + " · " + r.zone().getId();
    }

    /** One line: the counts, or that there is nothing to report. */
    public static String summary(DigestReport r) {
        if (r.nothingToReport()) {
            return NOTHING_TO_REPORT + " since " + when(r, r.from()) + ": no incident opened, resolved or open,"
                    + " no delivery failure, nothing recorded.";
        }
        return "Since " + when(r, r.from()) + ": " + r.opened().size() + " opened, "
                + r.resolved().size()
                + " resolved, " + r.stillOpen().size() + " still open"
                + (r.failures().isEmpty()
                        ? ""
                        : ", delivery failures on " + r.failures().size() + " channel(s)")
                + ".";
    }

    /** The non-empty sections, those about the window first. */
    public static List<Section> sections(DigestReport r) {
        List<Section> out = new ArrayList<>();
        add(
                out,
                "Opened",
                r.opened(),
                c -> "[" + clean(c.severity()) + "] " + who(c.fingerprint(), c.service()) + " at " + when(r, c.at()),
                false);
        add(
                out,
                "Resolved",
                r.resolved(),
                c -> "[" + clean(c.severity()) + "] " + who(c.fingerprint(), c.service()) + " at " + when(r, c.at())
                        + ", after " + duration(c.lasted()),
                false);
        add(
                out,
                "Flapping (" + DigestComposer.FLAPPING_AT + " or more incidents)",
                r.flapping(),
                (Flapping f) -> who(f.fingerprint(), f.service()) + ": " + f.incidents() + " incidents",
                false);
        add(
                out,
                "Skipped probes (Vigil's own alerts)",
                r.skipped(),
                (Skipped s) -> clean(s.fingerprint()) + ": " + s.incidents() + " incident(s), "
                        + duration(s.inIncident()) + (s.openNow() ? ", still open" : ""),
                false);
        add(
                out,
                "Delivery failures",
                r.failures(),
                (ChannelFailures f) -> clean(f.channel()) + ": " + f.failedAttempts() + " failed attempt(s), "
                        + f.deadLettered() + " dead-lettered",
                false);
        add(
                out,
                "Recorded events",
                r.recorded(),
                (RecordedGroup g) -> "[" + clean(g.severity()) + "] "
                        + who(g.fingerprint(), g.service()) + ": " + g.events() + " event(s), latest \""
                        + Text.truncate(clean(g.lastSummary()), SUMMARY_MAX) + "\"",
                false);
        add(
                out,
                "Still open",
                r.stillOpen(),
                (Open o) -> "[" + clean(o.severity()) + "] "
                        + who(o.fingerprint(), o.service()) + " open for " + duration(o.age())
                        + (o.acknowledged() ? ", acknowledged" : ", not acknowledged"),
                true);
        add(
                out,
                "Worst uptime (time in incident in the window)",
                r.worstUptime(),
                (Downtime d) -> who(d.fingerprint(), d.service()) + ": " + duration(d.inIncident()) + " in incident, "
                        + String.format(Locale.ROOT, "%.2f", d.uptimePercent()) + "% up, " + d.incidents()
                        + " incident(s)",
                true);
        return out;
    }

    /** Plain text (an e-mail body, the terminal): title, summary, then the sections under their two headings. */
    public static String plain(DigestReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append(title(r)).append("\n\n").append(summary(r)).append('\n');
        Boolean part = null;
        for (Section s : sections(r)) {
            if (part == null || part != s.stillTrue()) {
                part = s.stillTrue();
                String h = part ? STILL_TRUE_HEADING : NEW_HEADING;
                sb.append('\n')
                        .append(h)
                        .append('\n')
                        .append("=".repeat(h.length()))
                        .append('\n');
            }
            sb.append('\n')
                    .append(s.heading())
                    .append(" (")
                    .append(s.lines().size() + s.more())
                    .append(")\n");
            for (String line : s.lines()) {
                sb.append("  - ").append(line).append('\n');
            }
            if (s.more() > 0) {
                sb.append("  … and ").append(s.more()).append(" more\n");
            }
        }
        sb.append("\nWindow: ")
                .append(when(r, r.from()))
                .append(" to ")
                .append(when(r, r.to()))
                .append(" (")
                .append(r.zone().getId())
                .append(")\n");
        return sb.toString();
    }

    /** A duration as its two largest units: {@code 2d 3h}, {@code 4h 12m}, {@code 12m 5s}, {@code 40s}. */
    public static String duration(Duration d) {
        long s = Math.max(0, d.getSeconds());
        long days = s / 86_400;
        long hours = (s % 86_400) / 3600;
        long minutes = (s % 3600) / 60;
        long seconds = s % 60;
        if (days > 0) {
            return days + "d " + hours + "h";
        }
        if (hours > 0) {
            return hours + "h " + minutes + "m";
        }
        if (minutes > 0) {
            return minutes + "m " + seconds + "s";
        }
        return seconds + "s";
    }

    private static String when(DigestReport r, Instant t) {
        return WHEN.format(t.atZone(r.zone()));
    }

    private static String who(String fingerprint, String service) {
        return clean(fingerprint) + " (" + clean(service) + ")";
    }

    /** One line, no invisible characters: data can neither break the layout nor hide text. */
    static String clean(String s) {
        return s == null ? "-" : Text.oneLine(Text.stripInvisible(s)).strip();
    }

    private static <T> void add(
            List<Section> out, String heading, List<T> items, Function<T, String> line, boolean stillTrue) {
        if (items.isEmpty()) {
            return;
        }
        List<String> lines = items.stream().limit(LINES_MAX).map(line).toList();
        out.add(new Section(heading, lines, items.size() - lines.size(), stillTrue));
    }
}
