package dev.vigil.notifier.channel;

import dev.vigil.kit.http.TransientStatus;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Text;
import java.time.Clock;

/**
 * The shared HTTP status → outcome rules: 2xx delivered; transient as the service kit's
 * {@link TransientStatus} says (408, 429, 5xx; with the Retry-After when given); any other status permanent.
 * Adapters add their vendor's exceptions on top.
 */
public final class StatusMapping {
    private StatusMapping() {}

    public static DeliveryOutcome map(String vendor, HttpReply reply, Clock clock) {
        int s = reply.status();
        if (s >= 200 && s < 300) {
            return new DeliveryOutcome.Delivered(s, null);
        }
        if (TransientStatus.isTransient(s)) {
            return new DeliveryOutcome.Transient(
                    vendor + " answered HTTP " + s + snippet(reply.body()),
                    TransientStatus.retryAfter(reply.header("retry-after"), clock),
                    s);
        }
        return new DeliveryOutcome.Permanent(vendor + " answered HTTP " + s + snippet(reply.body()), s);
    }

    /** A short, single-line excerpt of a vendor's error body for the reason (vendor errors carry no secrets of ours). */
    public static String snippet(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        return ": " + Text.truncate(Text.oneLine(body).strip(), 200);
    }
}
