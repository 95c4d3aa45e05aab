package dev.vigil.streams.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/** What the query API says of itself: its OpenAPI document, and who the caller is signed in as. */
public final class ApiDocs {
    public static final String OPENAPI_RESOURCE = "/openapi/streams-query.json";

    private ApiDocs() {}

    /** Registers {@code /v1/whoami} and {@code /v1/openapi.json}. */
    public static ApiRoutes register(ApiRoutes routes) {
        byte[] openapi = openApiDocument();
        return routes.get(ApiAccess.WHOAMI, ApiDocs::whoami)
                .get("/v1/openapi.json", req -> Mono.just(new HttpResult(200, HttpResult.JSON, openapi, Map.of())));
    }

    /** The OpenAPI 3.1 document of the whole query API. */
    public static byte[] openApiDocument() {
        try (InputStream in = ApiDocs.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + OPENAPI_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Who the caller is signed in as: the token's name and scopes (never the token), for the console. */
    private static Mono<HttpResult> whoami(QueryRequest req) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", req.actor());
        body.put(
                "scopes",
                req.principal() == null
                        ? List.of()
                        : req.principal().scopes().stream()
                                .map(dev.vigil.kit.auth.Scope::wire)
                                .sorted()
                                .toList());
        return Mono.just(HttpResult.ok(body));
    }
}
