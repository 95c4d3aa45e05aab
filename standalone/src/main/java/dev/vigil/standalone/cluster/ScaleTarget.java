package dev.vigil.standalone.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The scale benchmark's target: every GET answers 200 with an empty body, on one port of {@code addresses} loopback
 * addresses (127.0.0.1, .2, ...), all served by one small event-loop group so the target costs as little CPU as it
 * can. It counts the requests it answered.
 */
final class ScaleTarget implements AutoCloseable {
    private final List<DisposableServer> servers = new ArrayList<>();
    private final LoopResources loops;
    private final LongAdder requests = new LongAdder();

    ScaleTarget(int port, int addresses, int threads) {
        loops = LoopResources.create("scale-target", threads, true);
        try {
            for (int a = 1; a <= addresses; a++) {
                servers.add(HttpServer.create()
                        .host("127.0.0." + a)
                        .port(port)
                        .runOn(loops)
                        .handle((req, res) -> {
                            requests.increment();
                            return res.status(200).header("Content-Length", "0").send();
                        })
                        .bindNow(Duration.ofSeconds(10)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    long requests() {
        return requests.sum();
    }

    @Override
    public void close() {
        servers.forEach(s -> s.disposeNow(Duration.ofSeconds(5)));
        loops.disposeLater().block(Duration.ofSeconds(5));
    }
}
