package dev.vigil.streams.readmodel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.StatusPage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The answers made of every instance's rows ({@code /v1/status}, {@code /v1/workers}): this instance's own, each
 * peer's (asked with {@code ?scope=local}), or, for a peer that does not answer, this instance's standby copies of its
 * partitions. Never a partial list presented as whole.
 */
final class Gathering {
    static final String LOCAL_SCOPE = "scope=local";
    private static final int GATHER_CONCURRENCY = 8;

    private final QueryBackend backend;
    private final Forwarder forwarder;
    private final Clock clock;

    Gathering(QueryBackend backend, Forwarder forwarder, Clock clock) {
        this.backend = backend;
        this.forwarder = forwarder;
        this.clock = clock;
    }

    /**
     * Answers with this instance's rows ({@code ?scope=local}, as peers ask) or with every instance's rows
     * merged. Any peer answering an error, or this instance rebalancing, gives 503: never a partial list presented as
     * whole. A peer that does not answer at all (killed, and in the group until its session times out) is stood in
     * for by this instance's standby copies of its partitions when it holds all of them ({@code answeredFromStandby}
     * lists such peers, as does {@link QueryBackend#STANDBY_HEADER}); otherwise that is a 503 too.
     * With a {@code page}, each instance answers its own page of it (with {@code next} when it has more) and the
     * merged rows are cut at the page's limit, with {@code next} made of the last row's {@code id}.
     */
    Mono<HttpResult> gather(
            QueryRequest req,
            StatusPage page,
            Function<QueryBackend, StatusPage.Slice<Map<String, Object>>> local,
            String field,
            Comparator<JsonNode> order,
            java.util.function.Function<JsonNode, String> id,
            java.util.function.Function<List<JsonNode>, Map<String, Object>> summary) {
        if (!backend.ready()) {
            return Mono.just(rebalancing(req));
        }
        boolean localOnly = "local".equals(req.queryParam("scope"));
        Mono<StatusPage.Slice<JsonNode>> mine =
                QueryBackend.read(() -> local.apply(backend)).map(slice -> slice.<JsonNode>map(Json::toTree));
        if (localOnly) {
            return mine.map(slice -> {
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put(field, slice.rows());
                        if (page != null) {
                            putNext(body, StatusPage.next(slice, id));
                        }
                        return HttpResult.ok(body);
                    })
                    .onErrorResume(
                            QueryBackend.Unavailable.class,
                            e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
        }
        List<String> peers;
        try {
            peers = backend.peers();
        } catch (QueryBackend.Unavailable e) {
            return Mono.just(HttpResult.unavailable(e.getMessage(), req.path()));
        }
        // the page travels as its decoded id, encoded again: never the caller's text
        String peerUri = req.path() + "?" + LOCAL_SCOPE + (page == null ? "" : "&" + page.query());
        Set<String> stoodInFor = new ConcurrentSkipListSet<>();
        Flux<StatusPage.Slice<JsonNode>> theirs = Flux.fromIterable(peers)
                .flatMap(peer -> fromPeer(peer, peerUri, field, local, stoodInFor), GATHER_CONCURRENCY);
        return Flux.concat(mine, theirs)
                .collectList()
                .map(parts -> {
                    StatusPage.Slice<JsonNode> merged;
                    if (page == null) {
                        List<JsonNode> all = new ArrayList<>();
                        parts.forEach(part -> all.addAll(part.rows()));
                        all.sort(order);
                        merged = StatusPage.Slice.whole(all);
                    } else {
                        merged = page.cut(parts, order);
                    }
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("generatedAt", clock.millis());
                    body.put("instances", peers.size() + 1);
                    if (!stoodInFor.isEmpty()) {
                        body.put("answeredFromStandby", List.copyOf(stoodInFor));
                    }
                    body.putAll(summary.apply(merged.rows()));
                    if (page != null) {
                        putNext(body, StatusPage.next(merged, id));
                    }
                    body.put(field, merged.rows());
                    HttpResult ok = HttpResult.ok(body);
                    return stoodInFor.isEmpty()
                            ? ok
                            : ok.withHeader(QueryBackend.STANDBY_HEADER, String.join(",", stoodInFor));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** A peer's rows as it answers them, or, when it does not answer at all, as this instance's standbys hold them. */
    private Mono<StatusPage.Slice<JsonNode>> fromPeer(
            String peer,
            String peerUri,
            String field,
            Function<QueryBackend, StatusPage.Slice<Map<String, Object>>> local,
            Set<String> stoodInFor) {
        record Reply(HttpResult answer, QueryBackend.Unavailable silence) {}
        return forwarder
                .get(peer, peerUri)
                .map(answer -> new Reply(answer, null))
                .onErrorResume(QueryBackend.Unavailable.class, silence -> Mono.just(new Reply(null, silence)))
                .flatMap(reply -> {
                    if (reply.answer() == null) {
                        return standbySlice(peer, local, reply.silence(), stoodInFor);
                    }
                    HttpResult res = reply.answer();
                    if (res.status() != 200) {
                        return Mono.error(
                                new QueryBackend.Unavailable("instance " + peer + " answered " + res.status()));
                    }
                    JsonNode body = Json.tree(res.body());
                    List<JsonNode> rows = new ArrayList<>();
                    body.path(field).forEach(rows::add);
                    return Mono.just(
                            new StatusPage.Slice<>(rows, body.path("next").isTextual()));
                });
    }

    /** What {@code local} answers over this instance's standby copies of {@code peer}'s partitions (off the event loop). */
    private Mono<StatusPage.Slice<JsonNode>> standbySlice(
            String peer,
            Function<QueryBackend, StatusPage.Slice<Map<String, Object>>> local,
            QueryBackend.Unavailable silence,
            Set<String> stoodInFor) {
        return QueryBackend.read(() -> {
                    StatusPage.Slice<JsonNode> slice =
                            local.apply(backend.standbyFor(peer)).map(Json::toTree);
                    stoodInFor.add(peer);
                    return slice;
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(
                        QueryBackend.Unavailable.class,
                        e -> new QueryBackend.Unavailable(silence.getMessage() + "; " + e.getMessage(), e));
    }

    /** {@code next} only while more follow: its absence marks the last page. */
    private static void putNext(Map<String, Object> body, String next) {
        if (next != null) {
            body.put("next", next);
        }
    }

    HttpResult rebalancing(QueryRequest req) {
        return HttpResult.unavailable(
                "this instance is " + backend.state() + "; its stores cannot give a whole answer now", req.path());
    }
}
