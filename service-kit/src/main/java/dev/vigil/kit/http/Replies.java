package dev.vigil.kit.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.server.HttpServerResponse;

/**
 * How every Vigil server writes an answer: never from the event loop.
 *
 * <p>Reactor Netty 1.3.7 holds back a keep-alive request that arrives while the previous answer is still in flight
 * and dispatches it once that answer is written. When the held-back request's answer then completes synchronously,
 * inside that dispatch on the event loop, the connection is never read again and the client waits for ever
 * (reactor-netty#4347). An answer subscribed from another thread cannot complete inside the dispatch, so every
 * answer goes through {@link #offEventLoop}. The thread is a {@code boundedElastic} one because some answers wait
 * briefly while they are computed (a Prometheus scrape, a state-store read, a readiness probe of a broker).
 */
public final class Replies {
    private Replies() {}

    /** {@code answer} (computing and writing a response) subscribed on {@code boundedElastic}, never on the event loop. */
    public static <T> Mono<T> offEventLoop(Mono<T> answer) {
        return answer.subscribeOn(Schedulers.boundedElastic());
    }

    /** Status, {@code Content-Type}, {@code Content-Length} and {@code body}, written off the event loop. */
    public static Mono<Void> send(HttpServerResponse res, int status, String contentType, byte[] body) {
        return offEventLoop(Mono.defer(() -> write(res, status, contentType, body)));
    }

    /**
     * Status, {@code Content-Type}, {@code Content-Length} and {@code body}, written from the thread this is subscribed
     * on: for an answer computed inside {@link #offEventLoop}; anywhere else use {@link #send}.
     */
    public static Mono<Void> write(HttpServerResponse res, int status, String contentType, byte[] body) {
        return res.status(HttpResponseStatus.valueOf(status))
                .header(HttpHeaderNames.CONTENT_TYPE, contentType)
                .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length))
                .sendByteArray(Mono.just(body))
                .then();
    }

    /** {@code problem} as {@code application/problem+json}, written off the event loop. */
    public static Mono<Void> problem(HttpServerResponse res, Problem problem) {
        return send(res, problem.status(), Problem.CONTENT_TYPE, problem.bytes());
    }
}
