package dev.vigil.schemas.validate;

import dev.vigil.schemas.contract.ContractViolation;
import java.util.Objects;

/**
 * A string field that carries data the privacy invariant forbids. Holds the field's path and the kind of
 * data only, never the value, so it is safe to log and to return to a client.
 */
public record PrivacyViolation(String field, Kind kind) {

    public PrivacyViolation {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(kind, "kind");
    }

    /** E.g. {@code field 'labels.user' contains an e-mail address}. */
    public String message() {
        return "field '" + field + "' contains " + kind.description();
    }

    public ContractViolation toContractViolation() {
        return new ContractViolation(field, "contains " + kind.description());
    }

    /** The kinds of data no string field may carry. */
    public enum Kind {
        EMAIL("an e-mail address"),
        PHONE_NUMBER("a phone number"),
        BEARER_TOKEN("a bearer token"),
        JWT("a JWT"),
        API_KEY("an API key or token"),
        PASSWORD("a password"),
        CARD_NUMBER("a card number"),
        QUERY_STRING("a query string"),
        /** Percent-encoding nested deeper than any real value is: what it hides cannot be checked. */
        NESTED_ENCODING("a percent-encoding nested too deep to check");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        /** Human name with its article, ready for "contains ...". */
        public String description() {
            return description;
        }
    }
}
