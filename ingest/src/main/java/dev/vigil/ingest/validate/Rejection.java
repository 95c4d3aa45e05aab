package dev.vigil.ingest.validate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.validate.PrivacyViolation;

/**
 * One event of a batch that was not accepted: its index in the batch, the field at fault and why. The
 * reason never echoes the value. {@code kind} is a bounded category for metrics tags.
 */
@JsonPropertyOrder({"index", "field", "reason"})
public record Rejection(int index, String field, String reason, @JsonIgnore Kind kind) {

    /** Bounded reason categories (metric tag values). */
    public enum Kind {
        NOT_OBJECT("not_object"),
        CONTRACT("contract"),
        PRIVACY("privacy"),
        TIMESTAMP("timestamp"),
        SOURCE("source"),
        /** An event speaking for another worker or region than the signing key's. */
        IDENTITY("identity");

        private final String tag;

        Kind(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    @JsonIgnore
    public Kind kind() {
        return kind;
    }

    public static Rejection of(int index, ContractViolation v) {
        return new Rejection(index, v.field(), v.problem(), Kind.CONTRACT);
    }

    public static Rejection of(int index, PrivacyViolation v) {
        return new Rejection(index, v.field(), "contains " + v.kind().description(), Kind.PRIVACY);
    }

    public static Rejection notObject(int index) {
        return new Rejection(index, "$", "must be a JSON object", Kind.NOT_OBJECT);
    }

    /** The same rejection with its field placed under a prefix (e.g. {@code alerts[2]}). */
    public Rejection under(String prefix) {
        return new Rejection(index, "$".equals(field) ? prefix : prefix + "." + field, reason, kind);
    }
}
