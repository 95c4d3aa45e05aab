package dev.vigil.standalone.launch;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** A local webhook receiver recording every delivered alert event per channel path. */
final class WebhookSink implements AutoCloseable {
    record Delivery(String channel, AlertEvent event) {}

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final DisposableServer server;

    WebhookSink() {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.post("/hooks/{channel}", (req, res) -> req.receive()
                        .aggregate()
                        .asByteArray()
                        .flatMap(bytes -> {
                            deliveries.add(new Delivery(req.param("channel"), Json.read(bytes, AlertEvent.class)));
                            return res.status(200).send().then();
                        })
                        .onErrorResume(e -> res.status(400).send().then())
                        .then(Mono.empty())))
                .bindNow();
    }

    String url(String channel) {
        return "http://127.0.0.1:" + server.port() + "/hooks/" + channel;
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
