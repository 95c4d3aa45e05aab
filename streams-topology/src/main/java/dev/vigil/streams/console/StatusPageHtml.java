package dev.vigil.streams.console;

import static dev.vigil.streams.console.Html.escape;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Renders a public status page as HTML without any script (it refreshes itself once a minute). */
final class StatusPageHtml {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private StatusPageHtml() {
    }

    static String render(StatusPages.Page page, String assetVersion) {
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<meta http-equiv=\"refresh\" content=\"60\">")
                .append("<title>").append(escape(page.title())).append("</title>")
                .append("<link rel=\"icon\" href=\"data:,\">")
                .append("<link rel=\"stylesheet\" href=\"/console/status-page.css?v=").append(escape(assetVersion)).append("\">")
                .append("</head><body><main class=\"status-page\" data-page=\"").append(escape(page.id())).append("\">")
                .append("<header><h1>").append(escape(page.title())).append("</h1>");
        if (page.description() != null) {
            h.append("<p class=\"description\">").append(escape(page.description())).append("</p>");
        }
        h.append("<p class=\"overall overall-").append(page.overall()).append("\" id=\"overall\">")
                .append(escape(overallText(page.overall()))).append("</p></header>");

        h.append("<section aria-labelledby=\"incidents-title\"><h2 id=\"incidents-title\">Current incidents</h2>");
        boolean any = false;
        StringBuilder incidents = new StringBuilder("<ul class=\"incidents\">");
        for (StatusPages.Group g : page.groups()) {
            for (StatusPages.PublicMonitor m : g.monitors()) {
                if (m.incident() != null) {
                    any = true;
                    incidents.append("<li class=\"incident incident-").append(escape(m.incident().severity())).append("\">")
                            .append("<strong>").append(escape(m.name())).append("</strong>: ")
                            .append(escape(incidentText(m))).append(" since <time datetime=\"")
                            .append(Instant.ofEpochMilli(m.incident().since())).append("\">")
                            .append(UTC.format(Instant.ofEpochMilli(m.incident().since()))).append("</time>")
                            .append(recovering(m) ? ". The service is back; we are confirming the recovery."
                                    : m.incident().acknowledged() ? ". We are working on it." : ".")
                            .append("</li>");
                }
            }
        }
        incidents.append("</ul>");
        h.append(any ? incidents : "<p class=\"no-incidents\">No incidents right now.</p>").append("</section>");

        for (StatusPages.Group g : page.groups()) {
            h.append("<section class=\"group\"><h2>").append(escape(g.name())).append("</h2><ul class=\"monitors\">");
            for (StatusPages.PublicMonitor m : g.monitors()) {
                h.append("<li class=\"monitor\" data-monitor=\"").append(escape(m.id())).append("\">")
                        .append("<div class=\"monitor-head\"><span class=\"monitor-name\">").append(escape(m.name()))
                        .append("</span><span class=\"state state-").append(escape(shownState(m))).append("\">")
                        .append(escape(stateText(shownState(m)))).append("</span></div>");
                uptimeBar(h, m);
                h.append("</li>");
            }
            h.append("</ul></section>");
        }
        h.append("<footer><p>Updated ").append(UTC.format(Instant.ofEpochMilli(page.generatedAt())))
                .append(". Uptime counts up and degraded windows as up; days without data are grey.</p>")
                .append("<p>Powered by Vigil.</p></footer></main></body></html>");
        return h.toString();
    }

    private static void uptimeBar(StringBuilder h, StatusPages.PublicMonitor m) {
        String overall = m.uptimePercent() == null ? "no data" : String.format(Locale.ROOT, "%.2f%% uptime", m.uptimePercent());
        h.append("<div class=\"uptime\"><ol class=\"uptime-bar\" aria-label=\"").append(escape(m.name()))
                .append(": last ").append(StatusPages.UPTIME_DAYS).append(" days, ").append(escape(overall)).append("\">");
        for (StatusPages.Day d : m.days()) {
            String text = d.uptimePercent() == null ? "no data"
                    : String.format(Locale.ROOT, "%.2f%%", d.uptimePercent());
            if (d.maintenanceWindows() > 0) {
                text += ", maintenance";
            }
            h.append("<li class=\"day day-").append(bucket(d.uptimePercent())).append("\" title=\"")
                    .append(escape(d.date())).append(": ").append(escape(text)).append("\"><span class=\"sr-only\">")
                    .append(escape(d.date())).append(": ").append(escape(text)).append("</span></li>");
        }
        h.append("</ol><p class=\"uptime-overall\">").append(escape(overall)).append(" over ")
                .append(StatusPages.UPTIME_DAYS).append(" days</p></div>");
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
