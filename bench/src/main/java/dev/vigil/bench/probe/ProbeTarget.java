package dev.vigil.bench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The local target the probe benchmark hits: {@code GET /health} answers {@code {"status":"ok"}}. Runs in
 * its own JVM by default so the worker's CPU figures are the worker's alone. As a process it prints
 * {@code PORT <n>} and serves until its standard input closes.
 */
public final class ProbeTarget implements AutoCloseable {
    private static final byte[] BODY = "{\"status\":\"ok\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private final DisposableServer server;

    public ProbeTarget(int port) {
        // 0.0.0.0 so the harness can spread connections over 127.0.0.x and not run out of ephemeral ports.
        this.server = HttpServer.create()
                .host("0.0.0.0")
                .port(port)
                .route(r -> r.get("/health", (req, res) -> res.header("Content-Type", "application/json")
                        .header("Content-Length", String.valueOf(BODY.length))
                        .sendByteArray(Mono.just(BODY))))
                .bindNow(Duration.ofSeconds(10));
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }

    /**
     * Logs at WARN unless the caller chose a logback configuration: DEBUG logging of every connection
     * would be what the benchmark measures. Must run before the first logger is created.
     */
    static void quietLogging() {
        if (System.getProperty("logback.configurationFile") != null) {
            return;
        }
        try {
            Path f = Files.createTempFile("vigil-bench-logback", ".xml");
            f.toFile().deleteOnExit();
            Files.writeString(
                    f,
                    "<configuration><appender name=\"E\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                            + "<target>System.err</target><encoder><pattern>%d %-5level %logger{36} - %msg%n</pattern></encoder>"
                            + "</appender><root level=\"WARN\"><appender-ref ref=\"E\"/></root></configuration>");
            System.setProperty("logback.configurationFile", f.toString());
        } catch (IOException e) {
            // fall back to the default configuration
        }
    }

    public static void main(String[] args) throws IOException {
        quietLogging();
        try (ProbeTarget target = new ProbeTarget(args.length > 0 ? Integer.parseInt(args[0]) : 0)) {
            System.out.println("PORT " + target.port());
            System.out.flush();
            while (System.in.read() != -1) {
                // serve until the parent closes our stdin
            }
        }
    }
}
