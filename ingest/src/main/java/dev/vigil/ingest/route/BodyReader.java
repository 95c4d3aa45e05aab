package dev.vigil.ingest.route;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;

/**
 * Reads a request body into memory with a hard size cap, before any parsing. Reactor Netty has no cap on
 * the total body, so bytes are counted as they arrive and the read fails with 413 at the limit.
 * Bytes read count towards the in-flight gauge until {@link #release} (the request was answered).
 */
public final class BodyReader {
    private final int limit;
    private final AtomicLong inFlightBytes;
    private final Duration readTimeout;

    public BodyReader(int limit, AtomicLong inFlightBytes, Duration readTimeout) {
        this.limit = limit;
        this.inFlightBytes = inFlightBytes;
        this.readTimeout = readTimeout;
    }

    public int limit() {
        return limit;
    }

    /** Refuses a declared Content-Length over the limit without reading anything. */
    public void checkDeclaredLength(HttpServerRequest request) {
        String declared = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw HttpProblem.badRequest("bad-content-length", "Content-Length is not a number");
            }
            if (length > limit) {
                throw tooLarge();
            }
        }
    }

    public Mono<byte[]> read(HttpServerRequest request) {
        return Mono.defer(() -> {
            Accumulator acc = new Accumulator(declaredLength(request));
            return request.receive()
                    .doOnNext(acc::append)
                    .then(Mono.fromCallable(acc::bytes))
                    .timeout(readTimeout)
                    .onErrorMap(TimeoutException.class, e -> new HttpProblem(408, "request-timeout", "Request timeout",
                            "the request body was not received within " + readTimeout.toSeconds() + " s"))
                    .doOnError(e -> acc.release())
                    .doOnCancel(acc::release);
        });
    }

    /** A body returned by {@link #read} stays counted as in flight until its request is answered. */
    public void release(byte[] body) {
        inFlightBytes.addAndGet(-body.length);
    }

    private HttpProblem tooLarge() {
        return HttpProblem.tooLarge("the request body exceeds the limit of " + limit + " bytes");
    }

    /** The declared Content-Length when it is within the limit (to size the buffer once), else 8 KiB. */
    private int declaredLength(HttpServerRequest request) {
        String declared = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        try {
            long n = declared == null ? -1 : Long.parseLong(declared.trim());
            return n > 0 && n <= limit ? (int) n : 8192;
        } catch (NumberFormatException e) {
            return 8192;
        }
    }

    private final class Accumulator {
        private byte[] buf;
        private int size;
        private long counted;

        Accumulator(int initial) {
            buf = new byte[initial];
        }

        void append(ByteBuf chunk) {
            int n = chunk.readableBytes();
            if ((long) size + n > limit) {
                throw tooLarge();
            }
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.min(limit, Math.max(buf.length * 2, size + n)));
            }
            chunk.readBytes(buf, size, n);
            size += n;
            counted += n;
            inFlightBytes.addAndGet(n);
        }

        byte[] bytes() {
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        }

        void release() {
            inFlightBytes.addAndGet(-counted);
            counted = 0;
        }
    }
}
