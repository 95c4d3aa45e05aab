package dev.vigil.standalone.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A stand-in for a paging vendor: the notifiers' webhook channel posts every page here and it records each one. A
 * drill can arm a one-shot hook that runs after a page arrived and before it is answered: the sender is then
 * killed between the vendor's receipt and its own record of the send.
 */
final class VendorSink implements AutoCloseable {
    record Page(String eventId, String fingerprint, String state, boolean silenced, Instant at) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<Page> pages = new CopyOnWriteArrayList<>();
    private final AtomicReference<Runnable> beforeReply = new AtomicReference<>();
    private final DisposableServer server;

    VendorSink(int port) {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(port)
                .route(r -> r.post("/hooks/{channel}", (req, res) -> req.receive()
                        .aggregate()
                        .asByteArray()
                        .map(this::record)
                        .flatMap(page -> {
                            Runnable hook = beforeReply.getAndSet(null);
                            Mono<Void> before = hook == null
                                    ? Mono.empty()
                                    : Mono.fromRunnable(hook)
                                            .subscribeOn(Schedulers.boundedElastic())
                                            .then();
                            return before.then(res.status(200).send());
                        })
                        .onErrorResume(e -> res.status(400).send())))
                .bindNow();
    }

    private Page record(byte[] body) {
        try {
            JsonNode n = JSON.readTree(body);
            Page page = new Page(
                    n.path("eventId").asText(),
                    n.path("fingerprint").asText(),
                    n.path("state").asText(),
                    n.path("silenced").asBoolean(false),
                    Instant.now());
            pages.add(page);
            return page;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not an alert event", e);
        }
    }

    String url(String channel) {
        return "http://127.0.0.1:" + server.port() + "/hooks/" + channel;
    }

    List<Page> pages() {
        return List.copyOf(pages);
    }

    /** Runs {@code hook} once, on the next page, before that page is answered. */
    void armBeforeReply(Runnable hook) {
        beforeReply.set(hook);
    }

    boolean armed() {
        return beforeReply.get() != null;
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
