package dev.vigil.streams.console;

import com.samskivert.mustache.Template;
import dev.vigil.kit.template.Templates;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a public status page as HTML without any script (it refreshes itself once a minute), through the
 * {@code status-page.html.mustache} template: every value escaped by the template engine.
 */
final class StatusPageHtml {
    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private StatusPageHtml() {}

    private static final Template PAGE = Templates.html("templates/status-page.html.mustache");

    /** What the template shows of one open incident. */
    record IncidentView(String severity, String name, String text, String sinceIso, String sinceUtc, String ending) {}

    record DayView(String bucket, String date, String text) {}

    record MonitorView(
            String id,
            String name,
            String state,
            String stateText,
            String overallUptime,
            int uptimeDays,
            List<DayView> days) {}

    record GroupView(String name, List<MonitorView> monitors) {}

    /** {@code description} holds the page's description, or nothing. */
    record PageView(
            String id,
            String title,
            List<String> description,
            String overall,
            String overallText,
            String assetVersion,
            boolean hasIncidents,
            List<IncidentView> incidents,
            List<GroupView> groups,
            String generatedUtc) {}

    static String render(StatusPages.Page page, String assetVersion) {
        List<IncidentView> incidents = new ArrayList<>();
        List<GroupView> groups = new ArrayList<>();
        for (StatusPages.Group g : page.groups()) {
            List<MonitorView> monitors = new ArrayList<>();
            for (StatusPages.PublicMonitor m : g.monitors()) {
                if (m.incident() != null) {
                    Instant since = Instant.ofEpochMilli(m.incident().since());
                    incidents.add(new IncidentView(
                            text(m.incident().severity()),
                            text(m.name()),
                            incidentText(m),
                            since.toString(),
                            UTC.format(since),
                            recovering(m)
                                    ? ". The service is back; we are confirming the recovery."
                                    : m.incident().acknowledged() ? ". We are working on it." : "."));
                }
                monitors.add(monitor(m));
            }
            groups.add(new GroupView(text(g.name()), monitors));
        }
        return PAGE.execute(new PageView(
                text(page.id()),
                text(page.title()),
                page.description() == null ? List.of() : List.of(text(page.description())),
                page.overall(),
                overallText(page.overall()),
                text(assetVersion),
                !incidents.isEmpty(),
                incidents,
                groups,
                UTC.format(Instant.ofEpochMilli(page.generatedAt()))));
    }

    private static MonitorView monitor(StatusPages.PublicMonitor m) {
        String overall =
                m.uptimePercent() == null ? "no data" : String.format(Locale.ROOT, "%.2f%% uptime", m.uptimePercent());
        List<DayView> days = new ArrayList<>();
        for (StatusPages.Day d : m.days()) {
            String text =
                    d.uptimePercent() == null ? "no data" : String.format(Locale.ROOT, "%.2f%%", d.uptimePercent());
            if (d.maintenanceWindows() > 0) {
                text += ", maintenance";
            }
            days.add(new DayView(bucket(d.uptimePercent()), text(d.date()), text));
        }
        return new MonitorView(
                text(m.id()),
                text(m.name()),
                shownState(m),
                stateText(shownState(m)),
                overall,
                StatusPages.UPTIME_DAYS,
                days);
    }

    /**
     * {@code s} with every control character but tab and line feed replaced by a space: they have no business in a
     * page, and some are not valid in HTML or XML. The template escapes the rest.
     */
    static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        s.chars().forEach(c -> out.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : (char) c));
        return out.toString();
    }

    static String bucket(Double percent) {
        if (percent == null) {
            return "none";
        }
        return percent >= 99.9 ? "good" : percent >= 99 ? "minor" : percent >= 95 ? "partial" : "major";
    }

    static String overallText(String overall) {
        return switch (overall) {
            case "operational" -> "All systems operational";
            case "degraded" -> "Degraded performance";
            case "partial_outage" -> "Partial outage";
            default -> "Major outage";
        };
    }

    /**
     * Up again while its incident is still open: the incident resolves only after consecutive healthy runs, so
     * "Operational" beside a current incident would read as a contradiction.
     */
    static boolean recovering(StatusPages.PublicMonitor m) {
        return m.incident() != null && "up".equals(m.status());
    }

    private static String shownState(StatusPages.PublicMonitor m) {
        return recovering(m) ? "recovering" : m.status();
    }

    static String stateText(String status) {
        return switch (status) {
            case "up" -> "Operational";
            case "recovering" -> "Recovering";
            case "degraded" -> "Degraded";
            case "down" -> "Down";
            case "unknown" -> "No data";
            default -> "Pending";
        };
    }

    private static String incidentText(StatusPages.PublicMonitor m) {
        return "critical".equals(m.incident().severity()) ? "outage" : "degraded service";
    }
}
