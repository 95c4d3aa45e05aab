package dev.vigil.ingest.betterstack;

import dev.vigil.schemas.contract.VendorIncidentUpdate;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether a vendor's incident update is fresh and new. BetterStack signs nothing, so anyone who once saw a webhook call
 * (a proxy log, a leaked request) could send it again: after {@code vigil unack}, a replayed acknowledgement would
 * acknowledge the incident again. So an update counts only when the time of its own act ({@code acknowledged_at} /
 * {@code resolved_at}) is within {@code maxAge} of now, and only the first time: applied updates (incident, action,
 * time, by) are remembered for as long as they are fresh, after which the age check refuses them anyway. The memory
 * is bounded by {@code capacity}; when it is full of fresh updates, a new one is refused for now (the vendor resends),
 * never let through unremembered.
 */
public final class UpdateFreshness {
    /** What to do with an update. */
    public enum Verdict {
        NEW,
        STALE,
        NO_TIME,
        REPLAYED,
        FULL
    }

    private final long maxAgeMs;
    private final int capacity;
    /** digest → the update's own time; insertion order is arrival order. */
    private final LinkedHashMap<String, Long> applied = new LinkedHashMap<>();

    public UpdateFreshness(long maxAgeMs, int capacity) {
        this.maxAgeMs = maxAgeMs;
        this.capacity = capacity;
    }

    public long maxAgeMs() {
        return maxAgeMs;
    }

    /**
     * Judges {@code update} whose own time is {@code vendorTime} (null: the vendor sent none) and, when it is new,
     * remembers it: call {@link #forget} if it could not be published after all.
     */
    public synchronized Verdict admit(VendorIncidentUpdate update, Long vendorTime, long nowMs) {
        if (vendorTime == null) {
            return Verdict.NO_TIME;
        }
        if (vendorTime < nowMs - maxAgeMs) {
            return Verdict.STALE;
        }
        expire(nowMs);
        String key = key(update, vendorTime);
        if (applied.containsKey(key)) {
            return Verdict.REPLAYED;
        }
        if (applied.size() >= capacity) {
            return Verdict.FULL;
        }
        applied.put(key, vendorTime);
        return Verdict.NEW;
    }

    /** The update was not published (Kafka unavailable): a resend must be applied. */
    public synchronized void forget(VendorIncidentUpdate update, Long vendorTime) {
        if (vendorTime != null) {
            applied.remove(key(update, vendorTime));
        }
    }

    public synchronized int size() {
        return applied.size();
    }

    /** Drops updates too old to pass the age check anyway (times of arrival are close to insertion order). */
    private void expire(long nowMs) {
        Iterator<Map.Entry<String, Long>> it = applied.entrySet().iterator();
        while (it.hasNext()) {
            if (it.next().getValue() < nowMs - maxAgeMs) {
                it.remove();
            }
        }
    }

    private static String key(VendorIncidentUpdate u, long vendorTime) {
        String identity = u.vendor()
                + '\u0000'
                + u.vendorIncidentId()
                + '\u0000'
                + u.action().wire()
                + '\u0000'
                + vendorTime
                + '\u0000'
                + u.by();
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8)),
                            0,
                            16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
