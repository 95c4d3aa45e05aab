package dev.vigil.streams.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.auth.Principal;
import dev.vigil.kit.auth.Scope;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Public status pages and badges (docs/api.md#console-status-pages-and-badges), answered without a token:
 * <ul>
 *   <li>{@code GET /status/{page}}: an HTML page (no script) with the page's groups, each monitor's state, its
 *       open incident and a 90-day uptime bar; {@code GET /status/{page}/summary.json}: the same as JSON.</li>
 *   <li>{@code GET /badge/{id}/status.svg} and {@code /badge/{id}/uptime.svg?days=N} (1..90, default 30) for a
 *       monitor some page lists.</li>
 * </ul>
 * What a page shows is built here from the query API's own answers for exactly the listed monitors, and only
 * these fields: the display name, the state, whether an incident is open (its severity, start and whether someone
 * acknowledged it; Vigil's own wording, never the alert's summary, which names error details) and uptime per day.
 * Never a URL, a region, an error kind or anything of a monitor no page lists: an unlisted or unknown id and an
 * unknown page all answer the same 404. Each page and badge is computed at most once per {@link #FRESHNESS} however
 * many anonymous readers ask (one shared answer; a failure is shared for {@link #FAILURE_HOLD}), so a public URL
 * cannot be used to load the stores.
 */
public final class StatusPages {
    static final Duration FRESHNESS = Duration.ofSeconds(15);
    /** A failed build (503) is kept this long too, so readers of a page during a rebalance cannot force rebuilds. */
    static final Duration FAILURE_HOLD = Duration.ofSeconds(2);

    static final int UPTIME_DAYS = 90;
    /** The API routes pages and badges are built from. */
    private static final String MONITOR = "/v1/monitors/{id}";

    private static final String UPTIME = "/v1/monitors/{id}/uptime";
    static final String CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'";
    private static final Principal READER = new Principal("status-page", Set.of(Scope.READ), false);
    private static final int CONCURRENCY = 8;

    /** One monitor as the public sees it. */
    public record PublicMonitor(
            String id, String name, String status, Incident incident, Double uptimePercent, List<Day> days) {}

    /** An open incident: {@code severity} critical or warning, since when, and whether someone is on it. */
    public record Incident(String severity, long since, boolean acknowledged) {}

    /** One UTC day of the uptime bar; {@code uptimePercent} null when nothing was decided that day. */
    public record Day(String date, Double uptimePercent, long downWindows, long maintenanceWindows) {}

    public record Group(String name, List<PublicMonitor> monitors) {}

    /** The whole page: {@code overall} is operational, degraded, partial_outage or major_outage. */
    public record Page(
            String id, String title, String description, String overall, long generatedAt, List<Group> groups) {}

    private final Map<String, StatusPage> pages = new LinkedHashMap<>();
    private final Set<String> listed;
    private final ApiRoutes routes;
    private final Clock clock;
    private final String assetVersion;
    private final Map<String, Mono<Page>> pageCache = new ConcurrentHashMap<>();
    private final Map<String, Mono<Optional<PublicMonitor>>> monitorCache = new ConcurrentHashMap<>();
    private final Map<String, Mono<Optional<Double>>> uptimeCache = new ConcurrentHashMap<>();

    /**
     * @param routes       the API's routes: pages are built from its own {@code /v1/monitors/{id}} answers (which
     *                     forward to the owning instance), read with a read-only internal caller
     * @param assetVersion the console's asset version (the page's stylesheet URL)
     */
    public StatusPages(List<StatusPage> configured, ApiRoutes routes, Clock clock, String assetVersion) {
        Set<String> all = new java.util.HashSet<>();
        for (StatusPage p : configured) {
            pages.put(p.id(), p);
            all.addAll(p.monitorIds());
        }
        this.listed = Set.copyOf(all);
        this.routes = routes;
        this.clock = clock;
        this.assetVersion = assetVersion;
    }

    public ApiRoutes register(ApiRoutes table) {
        return table.get("/status/{page}", req -> page(req)
                        .map(p -> ConsoleRoutes.page(
                                StatusPageHtml.render(p, assetVersion)
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                CSP))
                        .defaultIfEmpty(notFound(req)))
                .get("/status/{page}/summary.json", req -> page(req)
                        .map(p -> new HttpResult(
                                200, HttpResult.JSON, Json.bytes(p), Map.of("Cache-Control", "public, max-age=15")))
                        .defaultIfEmpty(notFound(req)))
                .get("/badge/{id}/status.svg", req -> listedMonitor(req)
                        .map(m -> svg(Badges.status(m.name(), m.status())))
                        .defaultIfEmpty(notFound(req)))
                .get("/badge/{id}/uptime.svg", this::uptimeBadge);
    }

    private Mono<Page> page(QueryRequest req) {
        StatusPage config = pages.get(req.param("page"));
        if (config == null) {
            return Mono.empty();
        }
        return pageCache.computeIfAbsent(
                config.id(), id -> build(config).cache(p -> FRESHNESS, e -> FAILURE_HOLD, () -> Duration.ZERO));
    }

    private Mono<Page> build(StatusPage config) {
        return Flux.fromIterable(config.monitorIds())
                .flatMapSequential(id -> monitor(id, true).map(m -> m.orElseGet(() -> pending(id))), CONCURRENCY)
                .collectMap(PublicMonitor::id)
                .map(byId -> {
                    List<Group> groups = new ArrayList<>();
                    List<PublicMonitor> every = new ArrayList<>();
                    for (var g : config.groups()) {
                        List<PublicMonitor> ms =
                                g.monitors().stream().map(byId::get).toList();
                        every.addAll(ms);
                        groups.add(new Group(g.name(), ms));
                    }
                    return new Page(
                            config.id(), config.title(), config.description(), overall(every), clock.millis(), groups);
                });
    }

    static String overall(List<PublicMonitor> monitors) {
        long down = monitors.stream().filter(m -> "down".equals(m.status())).count();
        boolean degraded = monitors.stream().anyMatch(m -> "degraded".equals(m.status()));
        if (down > 0) {
            return down * 2 > monitors.size() ? "major_outage" : "partial_outage";
        }
        return degraded ? "degraded" : "operational";
    }

    private static PublicMonitor pending(String id) {
        return new PublicMonitor(id, id, "pending", null, null, List.of());
    }

    /** The listed monitor of {@code {id}}, or empty (404) for any other id. */
    private Mono<PublicMonitor> listedMonitor(QueryRequest req) {
        String id = req.param("id");
        if (!listed.contains(id)) {
            return Mono.empty();
        }
        return monitorCache
                .computeIfAbsent(
                        id, k -> monitor(k, false).cache(m -> FRESHNESS, e -> FAILURE_HOLD, () -> Duration.ZERO))
                .flatMap(Mono::justOrEmpty);
    }

    private Mono<HttpResult> uptimeBadge(QueryRequest req) {
        int days;
        try {
            days = req.queryParam("days") == null ? 30 : Integer.parseInt(req.queryParam("days"));
        } catch (NumberFormatException e) {
            days = -1;
        }
        if (days < 1 || days > UPTIME_DAYS) {
            return Mono.just(
                    HttpResult.badRequest("'days' must be a whole number between 1 and " + UPTIME_DAYS, req.path()));
        }
        int d = days;
        return listedMonitor(req)
                .flatMap(m -> uptimeCache
                        .computeIfAbsent(m.id() + "/" + d, k -> uptime(m.id(), d)
                                .cache(u -> FRESHNESS, e -> FAILURE_HOLD, () -> Duration.ZERO))
                        .map(u -> svg(Badges.uptime(d, u.orElse(null)))))
                .defaultIfEmpty(notFound(req));
    }

    /** The public view of a monitor, from {@code /v1/monitors/{id}} (and its 90-day uptime when {@code withDays}). */
    private Mono<Optional<PublicMonitor>> monitor(String id, boolean withDays) {
        Mono<Optional<JsonNode>> detail = read(MONITOR, id, null);
        Mono<Optional<JsonNode>> uptime = withDays ? read(UPTIME, id, UPTIME_DAYS) : Mono.just(Optional.empty());
        return Mono.zip(detail, uptime)
                .map(t -> t.getT1().map(d -> publicMonitor(id, d, t.getT2().orElse(null))));
    }

    static PublicMonitor publicMonitor(String id, JsonNode detail, JsonNode uptime) {
        String name = detail.path("monitor").path("name").isTextual()
                ? detail.path("monitor").path("name").asText()
                : id;
        String status = detail.path("status").path("status").isTextual()
                ? detail.path("status").path("status").asText()
                : "pending";
        Incident incident = null;
        for (JsonNode a : detail.path("alerts")) {
            // the availability incident only: no-data and certificate alerts are about Vigil's view, not the service
            if (a.path("fingerprint").asText().equals("monitor/" + id)) {
                incident = new Incident(
                        a.path("severity").asText("warning"), a.path("since").asLong(), a.hasNonNull("acknowledgedBy"));
            }
        }
        List<Day> days = new ArrayList<>();
        Double overall = null;
        if (uptime != null) {
            for (JsonNode day : uptime.path("daily")) {
                days.add(new Day(
                        day.path("date").asText(),
                        number(day.path("uptimePercent")),
                        day.path("down").asLong(),
                        day.path("maintenanceWindows").asLong()));
            }
            overall = number(uptime.path("overall").path("uptimePercent"));
        }
        return new PublicMonitor(id, name, status, incident, overall, days);
    }

    private Mono<Optional<Double>> uptime(String id, int days) {
        return read(UPTIME, id, days)
                .map(u -> u.map(n -> number(n.path("overall").path("uptimePercent"))));
    }

    private static Double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : null;
    }

    /**
     * The API's own answer to {@code GET template} for monitor {@code id} (a slug: the configuration checks it) and
     * {@code ?days=} when not null, as an internal reader: empty for 404, the JSON for 200, an error (the page is not
     * cached, the caller gets 503) for anything else.
     */
    private Mono<Optional<JsonNode>> read(String template, String id, Integer days) {
        Optional<ApiRoutes.Handler> handler = routes.handler(ApiRoutes.Method.GET, template);
        if (handler.isEmpty()) {
            return Mono.error(new IllegalStateException("no route GET " + template));
        }
        String path = template.replace("{id}", id);
        Map<String, String> query = days == null ? Map.of() : Map.of("days", days.toString());
        QueryRequest internal = new QueryRequest(
                ApiRoutes.Method.GET,
                path,
                Map.of("id", id),
                query,
                false,
                days == null ? path : path + "?days=" + days,
                null,
                READER,
                "");
        return handler.get().handle(internal).map(r -> {
            if (r.status() == 404) {
                return Optional.<JsonNode>empty();
            }
            if (r.status() != 200) {
                throw new QueryBackend.Unavailable("the status page's data is not available now (" + r.status() + ")");
            }
            return Optional.of(Json.tree(r.body()));
        });
    }

    private static HttpResult svg(String svg) {
        return new HttpResult(
                200,
                "image/svg+xml; charset=utf-8",
                svg.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Map.of("Cache-Control", "public, max-age=30", "Content-Security-Policy", "default-src 'none'"));
    }

    private static HttpResult notFound(QueryRequest req) {
        // the same answer for an unknown page, an unknown monitor and a monitor no page lists
        return HttpResult.notFound("no such status page or badge", req.path());
    }
}
