package dev.vigil.kit.http;

import java.util.Map;

/**
 * A request refused as a whole, thrown (or signalled) by a handler and answered as a {@link Problem}. The detail
 * never echoes a secret or a value that failed a privacy check. {@code extensions} are extra problem members; the
 * service that answers writes them (they may be structured, which the kit's own writer is not for).
 */
public final class HttpProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final transient Map<String, Object> extensions;

    public HttpProblem(int status, String type, String title, String detail) {
        this(status, type, title, detail, Map.of());
    }

    public HttpProblem(int status, String type, String title, String detail, Map<String, Object> extensions) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
        this.extensions = extensions == null ? Map.of() : extensions;
    }

    public int status() {
        return status;
    }

    /** The short type slug, e.g. {@code payload-too-large}; the wire form is {@link Problem#TYPE_BASE} + slug. */
    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return getMessage();
    }

    public Map<String, Object> extensions() {
        return extensions;
    }

    /** The body of this refusal about {@code instance} (null: none), without the extensions. */
    public Problem problem(String instance) {
        return new Problem(status, type, title, detail(), instance);
    }

    public static HttpProblem badRequest(String type, String detail) {
        return new HttpProblem(400, type, "Bad request", detail);
    }

    public static HttpProblem unauthorized(String type, String detail) {
        return new HttpProblem(401, type, "Unauthorized", detail);
    }

    public static HttpProblem forbidden(String type, String detail) {
        return new HttpProblem(403, type, "Forbidden", detail);
    }

    public static HttpProblem tooLarge(String detail) {
        return new HttpProblem(413, "payload-too-large", "Payload too large", detail);
    }

    public static HttpProblem unsupportedMediaType(String detail) {
        return new HttpProblem(415, "unsupported-media-type", "Unsupported media type", detail);
    }
}
