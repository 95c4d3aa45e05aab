package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.ContractViolation;

/**
 * Time checks that cannot overflow. Every time ingest reads is client-chosen, so {@code Math.abs(t - now)} is not
 * safe: for {@code t} near {@link Long#MIN_VALUE} the difference wraps and {@code abs} stays negative, so an absurd
 * time passes a skew check. Here only {@code now ± bound} is computed, and both are small.
 */
public final class TimeBounds {
    private TimeBounds() {}

    /** {@code t} is within {@code boundMs} of {@code nowMs}, either way. */
    public static boolean within(long t, long nowMs, long boundMs) {
        return t >= nowMs - boundMs && t <= nowMs + boundMs;
    }

    /** {@code t} is not more than {@code boundMs} ahead of {@code nowMs} (any past time passes). */
    public static boolean notAhead(long t, long nowMs, long boundMs) {
        return t <= nowMs + boundMs;
    }

    /** The rejection of a time too far ahead; worded like the skew checks ("is more than …"). */
    public static Rejection ahead(int index, String field, long boundMs) {
        return new Rejection(
                index,
                field,
                "is more than " + boundMs / 1000 + " s ahead of the server clock",
                Rejection.Kind.TIMESTAMP);
    }

    /**
     * Refuses an integer that does not fit epoch milliseconds before the record binding sees it: Jackson would
     * report it as "cannot be read", which tells the sender nothing.
     */
    public static void requireLongs(ObjectNode event, String... fields) {
        for (String f : fields) {
            JsonNode n = event.get(f);
            if (n != null && n.isIntegralNumber() && !n.canConvertToLong()) {
                throw new ContractViolation(f, "is out of range (epoch milliseconds)");
            }
        }
    }
}
