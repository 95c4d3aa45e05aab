package dev.vigil.schemas.contract;

/**
 * A value that breaks a wire contract. Always names the offending field (a JSON path such as
 * {@code expect.statusCodes[1]}) and never echoes the offending value, so the message is safe to log
 * and to return to a client.
 */
public final class ContractViolation extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public ContractViolation(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The JSON path of the field that broke the contract. */
    public String field() {
        return field;
    }

    /** The problem without the field prefix. */
    public String problem() {
        return getMessage().substring(field.length() + 2);
    }
}
