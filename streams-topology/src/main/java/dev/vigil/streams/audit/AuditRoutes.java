package dev.vigil.streams.audit;

import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.TimeParam;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v1/audit?from=&to=&limit=} (scope {@code admin}): the changes made through the API and the CLI, oldest
 * first. {@code from} defaults to 24 hours ago, {@code to} to now; at most 31 days per call; {@code limit} 1..1000
 * (default 500); {@code truncated: true} says there is more in the range.
 */
public final class AuditRoutes {
    static final long MAX_RANGE_MS = 31L * 24 * 3600 * 1000;
    static final int MAX_LIMIT = 1000;

    private final AuditLog log;
    private final Clock clock;

    public AuditRoutes(AuditLog log, Clock clock) {
        this.log = log;
        this.clock = clock;
    }

    public ApiRoutes register(ApiRoutes routes) {
        return routes.get("/v1/audit", this::list);
    }

    private Mono<HttpResult> list(QueryRequest req) {
        long now = clock.millis();
        long from;
        long to;
        int limit;
        try {
            to = req.queryParam("to") == null ? now : TimeParam.epochMillis("to", req.queryParam("to"));
            from = req.queryParam("from") == null
                    ? Math.max(0, to - 24 * 3600_000L)
                    : TimeParam.epochMillis("from", req.queryParam("from"));
            if (to <= from) {
                throw new IllegalArgumentException("'to' must be after 'from'");
            }
            if (to - from > MAX_RANGE_MS) {
                throw new IllegalArgumentException("the range must be at most 31 days; ask for several ranges");
            }
            String raw = req.queryParam("limit");
            limit = raw == null ? 500 : parseLimit(raw);
        } catch (IllegalArgumentException e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path()));
        }
        return QueryBackend.read(() -> {
                    AuditLog.Page page = log.read(from, to, limit);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("from", from);
                    body.put("to", to);
                    body.put("count", page.records().size());
                    body.put("truncated", page.truncated());
                    body.put("records", page.records());
                    return HttpResult.ok(body);
                })
                .onErrorResume(e -> Mono.just(HttpResult.unavailable(
                        "the audit log could not be read now: " + e.getClass().getSimpleName(), req.path())));
    }

    private static int parseLimit(String raw) {
        try {
            int n = Integer.parseInt(raw);
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("'limit' must be a whole number between 1 and " + MAX_LIMIT);
    }
}
