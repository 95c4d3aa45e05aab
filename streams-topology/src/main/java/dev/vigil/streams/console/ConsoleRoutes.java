package dev.vigil.streams.console;

import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Serves the browser console (docs/api.md#console-status-pages-and-badges): {@code GET /} is its shell, {@code /console/<name>} its scripts
 * and styles, {@code /console/vendor/<name>} uPlot. The shell holds no data and needs no token; everything it
 * shows comes from {@code /v1} with the token the user signs in with, sent as a header (never a cookie, so no
 * request can be forged from another site, and never in a URL).
 */
public final class ConsoleRoutes {
    /**
     * No inline script or style, nothing from another origin, no framing, no form posts: a value that slipped
     * through escaping still cannot run.
     */
    public static final String CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final ConsoleAssets assets;

    public ConsoleRoutes(ConsoleAssets assets) {
        this.assets = assets;
    }

    public ApiRoutes register(ApiRoutes routes) {
        return routes.get("/", req -> Mono.just(page(assets.index().bytes(), CONSOLE_CSP)))
                .get(
                        "/favicon.ico",
                        req -> Mono.just(new HttpResult(
                                204, "image/x-icon", new byte[0], Map.of("Cache-Control", "public, max-age=86400"))))
                .get(
                        "/console/{file}",
                        req -> Mono.just(asset(
                                req,
                                assets.file(req.param("file"))
                                        .filter(a -> !a.name().equals(ConsoleAssets.INDEX))
                                        .orElse(null))))
                .get(
                        "/console/vendor/{file}",
                        req -> Mono.just(
                                asset(req, assets.vendor(req.param("file")).orElse(null))));
    }

    /** An HTML page with the headers every page of this server carries. */
    public static HttpResult page(byte[] html, String csp) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Security-Policy", csp);
        headers.put("X-Frame-Options", "DENY");
        headers.put("Cross-Origin-Opener-Policy", "same-origin");
        headers.put("Cache-Control", "no-cache");
        return new HttpResult(200, "text/html; charset=utf-8", html, headers);
    }

    /** The asset, cached for good when asked for with the current version, else revalidated each time; 404 when unknown. */
    private HttpResult asset(QueryRequest req, ConsoleAssets.Asset asset) {
        if (asset == null) {
            return HttpResult.notFound("no such console file", req.path());
        }
        boolean current = assets.version().equals(req.queryParam("v"));
        return new HttpResult(
                200,
                asset.contentType(),
                asset.bytes(),
                Map.of(
                        "Cache-Control",
                        current ? IMMUTABLE : "no-cache",
                        "Content-Security-Policy",
                        "default-src 'none'; frame-ancestors 'none'"));
    }
}
