package dev.vigil.notifier.support;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A local Reactor Netty server standing in for a vendor API: records every request and answers with a
 * programmable function (status, headers, body, optional delay; a null reply never answers).
 */
public final class FakeVendor implements AutoCloseable {
    public record Request(
            String method, String path, String query, Map<String, String> headers, String body, long receivedAtNanos) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    public record Reply(int status, Map<String, String> headers, String body, java.time.Duration delay) {
        public static Reply of(int status) {
            return new Reply(status, Map.of(), "", null);
        }

        public static Reply json(int status, String body) {
            return new Reply(status, Map.of("Content-Type", "application/json"), body, null);
        }

        public Reply withHeader(String k, String v) {
            Map<String, String> h = new HashMap<>(headers);
            h.put(k, v);
            return new Reply(status, h, body, delay);
        }
    }

    public final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile Function<Request, Reply> responder = r -> Reply.of(200);
    private final DisposableServer server;

    public FakeVendor() {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((req, res) -> req.receive()
                        .aggregate()
                        .asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .flatMap(body -> {
                            Map<String, String> hs = new HashMap<>();
                            req.requestHeaders()
                                    .forEach(e -> hs.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
                            String uri = req.uri();
                            int q = uri.indexOf('?');
                            Request r = new Request(
                                    req.method().name(),
                                    q < 0 ? uri : uri.substring(0, q),
                                    q < 0 ? null : uri.substring(q + 1),
                                    hs,
                                    body,
                                    System.nanoTime());
                            requests.add(r);
                            Reply reply = responder.apply(r);
                            if (reply == null) {
                                return Mono.never();
                            }
                            Mono<Void> send = Mono.defer(() -> {
                                res.status(reply.status());
                                reply.headers().forEach(res::header);
                                return res.sendString(Mono.just(reply.body())).then();
                            });
                            return reply.delay() == null
                                    ? send
                                    : Mono.delay(reply.delay()).then(send);
                        }))
                .bindNow();
    }

    public FakeVendor respond(Function<Request, Reply> f) {
        this.responder = f;
        return this;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    public List<Request> requests(String pathPrefix) {
        return requests.stream().filter(r -> r.path().startsWith(pathPrefix)).toList();
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
