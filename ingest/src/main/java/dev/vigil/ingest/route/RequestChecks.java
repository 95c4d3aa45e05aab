package dev.vigil.ingest.route;

import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.kit.http.HttpProblem;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Locale;
import reactor.netty.http.server.HttpServerRequest;

/** Checks shared by the routes: content type and API-key authentication. */
public final class RequestChecks {
    /** How the body is framed. */
    public enum Framing {
        JSON,
        NDJSON
    }

    private RequestChecks() {}

    /** {@code application/json}, or with {@code allowNdjson} also {@code application/x-ndjson} / {@code application/ndjson}. */
    public static Framing framing(HttpServerRequest req, boolean allowNdjson) {
        String ct = req.requestHeaders().get(HttpHeaderNames.CONTENT_TYPE);
        String accepted = allowNdjson ? "application/json or application/x-ndjson" : "application/json";
        if (ct == null) {
            throw HttpProblem.unsupportedMediaType("Content-Type is required: " + accepted);
        }
        String mime = ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (mime.equals("application/json")) {
            return Framing.JSON;
        }
        if (allowNdjson && (mime.equals("application/x-ndjson") || mime.equals("application/ndjson"))) {
            return Framing.NDJSON;
        }
        throw HttpProblem.unsupportedMediaType("Content-Type must be " + accepted);
    }

    /** The app the bearer key is for; 401 when the key is missing or unknown (the key is never echoed). */
    public static String app(HttpServerRequest req, ApiKeys keys) {
        String header = req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null) {
            throw HttpProblem.unauthorized(
                    "missing-credentials", "an Authorization: Bearer <API key> header is required");
        }
        return keys.authenticate(header)
                .orElseThrow(() -> HttpProblem.unauthorized("invalid-credentials", "the API key is not valid"));
    }
}
