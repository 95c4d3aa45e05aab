package dev.vigil.docker;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's logback configuration: JSON lines through the encoder class the sources define, and the
 * notifier's log channel (the logger LogNotifier writes pages to, read from its source) printed at INFO, so a
 * page routed to the console channel shows up in {@code docker compose logs notifier}.
 */
final class LogbackCheck {
    private static final Set<String> SHOWS_INFO = Set.of("TRACE", "DEBUG", "INFO", "ALL");

    private LogbackCheck() {}

    static List<String> check(String xml, String where) {
        List<String> problems = new ArrayList<>();
        Matcher enc = Pattern.compile("<encoder\\s+class=\"([\\w.]+)\"").matcher(xml);
        if (!enc.find()) {
            problems.add(where + ": logback configuration has no encoder class (JSON lines expected)");
        } else if (!enc.group(1).startsWith("ch.qos.logback.")) {
            String path = enc.group(1).replace('.', '/') + ".java";
            boolean exists = Repo.allMainSources().stream()
                    .anyMatch(root -> root.resolve(path).toFile().isFile());
            if (!exists) {
                problems.add(where + ": encoder class " + enc.group(1) + " is not in the sources");
            }
        }
        String pages = pageLogger();
        if (!SHOWS_INFO.contains(levelOf(xml, pages))) {
            problems.add(where + ": logger " + pages + " (the notifier's log channel) is at " + levelOf(xml, pages)
                    + ", so pages routed to a log channel are not printed");
        }
        return problems;
    }

    /** The logger name LogNotifier writes pages to. */
    static String pageLogger() {
        String src = Repo.text(Repo.mainSources("notifier").resolve("dev/vigil/notifier/channel/log/LogNotifier.java"));
        Matcher m = Pattern.compile("getLogger\\(\\s*\"([^\"]+)\"\\s*\\)").matcher(src);
        if (m.find()) {
            return m.group(1);
        }
        return "dev.vigil.notifier.channel.log.LogNotifier";
    }

    /** The effective level of {@code logger}: the most specific configured ancestor, else the root's. */
    static String levelOf(String xml, String logger) {
        String best = null;
        String level = null;
        Matcher l = Pattern.compile("<logger\\s+name=\"([^\"]+)\"\\s+level=\"([^\"]+)\"")
                .matcher(xml);
        while (l.find()) {
            String name = l.group(1);
            if ((logger.equals(name) || logger.startsWith(name + "."))
                    && (best == null || name.length() > best.length())) {
                best = name;
                level = l.group(2);
            }
        }
        if (level == null) {
            Matcher root = Pattern.compile("<root\\s+level=\"([^\"]+)\"").matcher(xml);
            level = root.find() ? root.group(1) : "DEBUG";
        }
        Matcher def = Pattern.compile("\\$\\{[^:}]+:-([A-Za-z]+)}").matcher(level);
        return (def.matches() ? def.group(1) : level).toUpperCase(java.util.Locale.ROOT);
    }
}
