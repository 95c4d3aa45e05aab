package dev.vigil.kit.trace;

import dev.vigil.kit.config.Problems;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The {@code otel} section of every service's configuration: where traces go, how many are kept, and the link a page
 * may carry to a trace UI. Export is off until {@code endpoint} is set ({@code VIGIL_OTEL_ENDPOINT}); the standard
 * {@code OTEL_EXPORTER_OTLP_*}, {@code OTEL_BSP_*} and {@code OTEL_RESOURCE_ATTRIBUTES} variables refine it.
 *
 * @param endpoint    the collector's OTLP/HTTP base URL ({@code http://collector:4318}); empty for no export
 * @param sampleRatio the share of new traces kept (parent-based: a trace begun upstream keeps its parent's choice)
 * @param environment {@code deployment.environment} of every span; empty to leave it out
 * @param traceUrl    a trace UI link with {@code {traceId}} (e.g. {@code https://jaeger.example/trace/{traceId}}),
 *                    printed by the drill and put on pages; empty for none
 */
public record OtelSettings(String endpoint, Double sampleRatio, String environment, String traceUrl) {
    public static final String TRACE_ID_PLACEHOLDER = "{traceId}";

    public OtelSettings {
        Problems p = new Problems();
        endpoint = endpoint == null ? "" : endpoint.strip();
        if (!endpoint.isEmpty()) {
            p.check(httpUrl(endpoint), "endpoint", "must be an http or https URL such as http://collector:4318");
        }
        if (sampleRatio == null) {
            sampleRatio = 1.0;
        }
        p.check(
                sampleRatio >= 0.0 && sampleRatio <= 1.0,
                "sampleRatio",
                "must be between 0 and 1 (the share of new traces kept)");
        environment = environment == null ? "" : environment.strip();
        if (!environment.isEmpty()) {
            environment = p.text("environment", environment, "", 64);
        }
        traceUrl = traceUrl == null ? "" : traceUrl.strip();
        if (!traceUrl.isEmpty()) {
            p.check(
                    httpUrl(traceUrl.replace(TRACE_ID_PLACEHOLDER, "0")) && traceUrl.contains(TRACE_ID_PLACEHOLDER),
                    "traceUrl",
                    "must be an http or https URL containing " + TRACE_ID_PLACEHOLDER);
        }
        p.throwIfAny();
    }

    public static OtelSettings defaults() {
        return new OtelSettings("", 1.0, "", "");
    }

    /** The trace UI's link for a trace, or empty without a template. */
    public String traceLink(String traceId) {
        return traceUrl.isEmpty() || traceId == null || traceId.isEmpty()
                ? ""
                : traceUrl.replace(TRACE_ID_PLACEHOLDER, traceId);
    }

    private static boolean httpUrl(String text) {
        try {
            URI uri = new URI(text);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null
                    && uri.getRawQuery() == null
                    && uri.getRawUserInfo() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
