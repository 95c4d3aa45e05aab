package dev.vigil.ingest.route;

import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.kit.http.HttpProblem;
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
 *
 * <p>Routes call {@link #read} only once the caller is authenticated (API key, or the signing headers checked
 * against the configured keys), and even then the buffer is not sized from {@code Content-Length}, which costs the
 * client nothing to declare: it starts at {@value #INITIAL_CAPACITY} bytes at most and grows (doubling, never past
 * the declared length) as bytes actually arrive. Every allocation is counted in {@link #allocatedBytes()}.
 *
 * <p>This reader bounds one request. Every buffer it allocates (the first one too, before a body byte has arrived)
 * is taken from the request's {@link BodyShares.Lease}, so one principal holds at most its share of the server's
 * budget and alerts keep their reserve; the service kit's edge budget stays behind it as the server-wide backstop.
 */
public final class BodyReader {
    /** The largest first buffer a request gets, whatever it declares. */
    static final int INITIAL_CAPACITY = 64 * 1024;
    /** For requests without a Content-Length (chunked). */
    private static final int UNDECLARED_CAPACITY = 8 * 1024;

    private final int limit;
    private final AtomicLong inFlightBytes;
    private final Duration readTimeout;
    private final AtomicLong allocated;
    private final BodyShares shares;

    public BodyReader(int limit, AtomicLong inFlightBytes, Duration readTimeout, BodyShares shares) {
        this(limit, inFlightBytes, readTimeout, new AtomicLong(), shares);
    }

    private BodyReader(
            int limit, AtomicLong inFlightBytes, Duration readTimeout, AtomicLong allocated, BodyShares shares) {
        this.limit = limit;
        this.inFlightBytes = inFlightBytes;
        this.readTimeout = readTimeout;
        this.allocated = allocated;
        this.shares = shares;
    }

    /** A hold on {@code principal}'s share for one request; release it once the request is answered. */
    public BodyShares.Lease lease(String principal, BodyShares.Lane lane) {
        return shares.lease(principal, lane);
    }

    /**
     * A reader for a route whose bodies are small by nature (a vendor's webhook): at most {@code max} bytes (never more
     * than this reader's limit), counted in the same in-flight gauge and allocation counter.
     */
    public BodyReader withLimit(int max) {
        return new BodyReader(Math.min(limit, max), inFlightBytes, readTimeout, allocated, shares);
    }

    public int limit() {
        return limit;
    }

    /** Bytes allocated for body buffers since start (first buffers, growth, final copies): a counter for metrics. */
    public long allocatedBytes() {
        return allocated.get();
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

    /** Reads the body, taking every buffer from {@code lease}; the caller releases the lease once it has answered. */
    public Mono<byte[]> read(HttpServerRequest request, BodyShares.Lease lease) {
        return Mono.defer(() -> {
            Accumulator acc = new Accumulator(declaredLength(request), lease);
            return request.receive()
                    .doOnNext(acc::append)
                    .then(Mono.fromCallable(acc::bytes))
                    .timeout(readTimeout)
                    .onErrorMap(
                            e -> e instanceof TimeoutException
                                    || e instanceof io.netty.handler.timeout.ReadTimeoutException,
                            e -> new HttpProblem(
                                    408,
                                    "request-timeout",
                                    "Request timeout",
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

    /** The declared Content-Length when it is a number within the limit, else -1. */
    private int declaredLength(HttpServerRequest request) {
        String declared = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        try {
            long n = declared == null ? -1 : Long.parseLong(declared.trim());
            return n >= 0 && n <= limit ? (int) n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private final class Accumulator {
        /** The declared length (-1: none); growth stops there so a body that matches it needs no final copy. */
        private final int declared;

        private byte[] buf;
        private int size;
        private long counted;
        private final BodyShares.Lease lease;

        Accumulator(int declared, BodyShares.Lease lease) {
            this.declared = declared;
            this.lease = lease;
            buf = allocate(declared < 0 ? UNDECLARED_CAPACITY : Math.min(declared, INITIAL_CAPACITY));
        }

        void append(ByteBuf chunk) {
            int n = chunk.readableBytes();
            if ((long) size + n > limit) {
                throw tooLarge();
            }
            int needed = size + n;
            if (needed > buf.length) {
                int grown = Math.min(limit, Math.max(buf.length * 2, needed));
                if (declared >= needed) {
                    grown = Math.min(grown, declared);
                }
                byte[] next = allocate(grown);
                System.arraycopy(buf, 0, next, 0, size);
                buf = next;
            }
            chunk.readBytes(buf, size, n);
            size = needed;
            counted += n;
            inFlightBytes.addAndGet(n);
        }

        byte[] bytes() {
            if (size == buf.length) {
                return buf;
            }
            allocated.addAndGet(size);
            return Arrays.copyOf(buf, size);
        }

        void release() {
            inFlightBytes.addAndGet(-counted);
            counted = 0;
            lease.release();
        }

        /** Only the growth beyond what the lease holds is taken: the old buffer is dropped for the new one. */
        private byte[] allocate(int n) {
            lease.take(n - lease.held());
            allocated.addAndGet(n);
            return new byte[n];
        }
    }
}
