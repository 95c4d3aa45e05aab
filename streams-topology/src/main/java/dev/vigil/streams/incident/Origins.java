package dev.vigil.streams.incident;

/**
 * Where an incident comes from, as the API, the console and the CLI name it — read from its fingerprint, which each
 * source namespaces: {@code monitor}, {@code metric}, {@code worker}, {@code vigil} (Vigil's self-alerts),
 * {@code alertmanager}, {@code app} and {@code notifier} (a channel failing to deliver).
 */
public final class Origins {
    private Origins() {}

    public static String of(String fingerprint) {
        if (fingerprint.startsWith("monitor/")) {
            return "monitor";
        }
        if (fingerprint.startsWith("rule/")) {
            return "metric";
        }
        if (fingerprint.startsWith("worker/")) {
            return "worker";
        }
        if (fingerprint.startsWith("vigil/")) {
            return "vigil";
        }
        if (fingerprint.startsWith("notifier/")) {
            return "notifier";
        }
        if (fingerprint.startsWith("app/")) {
            int appEnd = fingerprint.indexOf('/', 4);
            return appEnd > 0 && fingerprint.startsWith("alertmanager/", appEnd + 1) ? "alertmanager" : "app";
        }
        return "other";
    }
}
