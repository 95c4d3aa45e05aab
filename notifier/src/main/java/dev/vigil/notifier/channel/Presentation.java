package dev.vigil.notifier.channel;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import java.time.Instant;

/** What every chat message shows, decided once: title, colour, timestamps. */
public final class Presentation {
    private Presentation() {
    }

    public static int colour(AlertEvent e) {
        if (e.state() == AlertState.RESOLVED) {
            return 0x2EB67D;
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

    public static String title(AlertEvent e) {
        String prefix = switch (e.state()) {
            case OPENED -> "[" + e.severity().wire().toUpperCase(java.util.Locale.ROOT) + "] ";
            case REMINDER -> "[Still firing] ";
            case ESCALATED -> "[Escalated to " + e.severity().wire() + "] ";
            case RESOLVED -> "[Resolved] ";
        };
        return Text.oneLine(prefix + e.service() + ": " + e.summary());
    }

    public static String time(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    public static boolean isHttpLink(String url) {
        return url != null && (url.startsWith("https://") || url.startsWith("http://"));
    }
}
