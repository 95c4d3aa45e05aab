package dev.vigil.probe.probe;

import dev.vigil.probe.safety.Target;
import dev.vigil.probe.safety.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PathSanitizer;
import dev.vigil.schemas.validate.PrivacyGuard;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.ssl.SslHandler;
import java.net.URI;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * One HTTP probe: GET with a single hard deadline (the monitor's timeoutMs) over the whole probe,
 * manual redirects (at most {@value #MAX_REDIRECTS}, every hop re-checked by the {@link TargetGuard}
 * and connected to the address the guard checked), at most {@value #MAX_BODY_BYTES} body bytes read
 * before the connection is cancelled, no cookies or credentials, phase timings and TLS days left.
 * Never errors: every failure is a {@link ProbeResult} whose outcome and errorKind say why.
 */
public final class HttpProbe {
    public static final int MAX_BODY_BYTES = 65_536;
    public static final int MAX_REDIRECTS = 5;
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    private final TargetGuard guard;
    private final ProbeSettings settings;
    private final HttpClient base;
    private final HttpClient secureBase;
    private final String userAgent;

    public HttpProbe(TargetGuard guard, ProbeSettings settings) {
        this.guard = guard;
        this.settings = settings;
        HttpClient client = settings.freshConnection()
                ? HttpClient.newConnection()
                : HttpClient.create(ConnectionProvider.builder("vigil-probe").maxConnections(1024)
                        .pendingAcquireMaxCount(-1).maxIdleTime(Duration.ofSeconds(30)).build());
        this.base = client.followRedirect(false).compress(false).keepAlive(!settings.freshConnection());
        Http11SslContextSpec spec = Http11SslContextSpec.forClient();
        if (settings.trust() != null) {
            spec = spec.configure(b -> b.trustManager(settings.trust()));
        }
        Http11SslContextSpec sslSpec = spec;
        // Built once: an SslContext per probe would cost more than the probe.
        this.secureBase = base.secure(s -> s.sslContext(sslSpec));
        this.userAgent = "Vigil/" + settings.version();
    }

    /** Probes {@code monitor} for the window starting at {@code windowStart}. Subscribe to start. */
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        return Mono.defer(() -> new Run(monitor, windowStart).execute());
    }

    /** Timings of one hop (one request on one connection), written from Netty threads. */
    private static final class Hop {
        final long start = System.nanoTime();
        final long dnsNanos;
        volatile long connectStart;
        volatile long connected;
        volatile long tlsDone;
        volatile long headers;
        volatile X509Certificate certificate;

        Hop(long dnsNanos) {
            this.dnsNanos = dnsNanos;
        }
    }

    private record Response(int status, String location, byte[] body, long bytesRead, boolean truncated) {
    }

    /** Records connect and TLS completion times, and the server certificate. */
    private static final class PhaseHandler extends ChannelInboundHandlerAdapter {
        private final Hop hop;

        PhaseHandler(Hop hop) {
            this.hop = hop;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            hop.connected = System.nanoTime();
            SslHandler ssl = ctx.pipeline().get(SslHandler.class);
            if (ssl != null) {
                ssl.handshakeFuture().addListener(f -> {
                    if (f.isSuccess()) {
                        hop.tlsDone = System.nanoTime();
                        hop.certificate = leaf(ssl);
                    }
                });
            }
            super.channelActive(ctx);
        }
    }

    private static X509Certificate leaf(SslHandler ssl) {
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
        } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** Counts body bytes up to the cap, keeping them when an assertion needs them. */
    private static final class BodyReader {
        private final byte[] kept;
        private long read;

        BodyReader(boolean keep) {
            this.kept = keep ? new byte[MAX_BODY_BYTES] : null;
        }

        /** @return true once the cap is reached (stop reading) */
        boolean add(io.netty.buffer.ByteBuf buf) {
            int n = (int) Math.min(buf.readableBytes(), MAX_BODY_BYTES - read);
            if (kept != null && n > 0) {
                buf.getBytes(buf.readerIndex(), kept, (int) read, n);
            }
            boolean over = buf.readableBytes() > n;
            read += n;
            return read >= MAX_BODY_BYTES || over;
        }

        byte[] body() {
            return kept == null ? new byte[0] : java.util.Arrays.copyOf(kept, (int) read);
        }
    }

    /** The state of one probe across its hops. */
    private final class Run {
        final MonitorDefinition monitor;
        final long windowStart;
        // Correlates a result with the target's access log; not a secret, so no SecureRandom.
        final String requestId = new UUID(ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong()).toString();
        final long startNanos = System.nanoTime();
        final long startedAt;
        final long deadlineNanos;
        volatile Hop hop;
        volatile String currentUrl;
        volatile int redirects;

        Run(MonitorDefinition monitor, long windowStart) {
            this.monitor = monitor;
            this.windowStart = windowStart;
            this.startedAt = Math.max(settings.wallClock().getAsLong(), windowStart);
            this.deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(monitor.timeoutMs());
            this.currentUrl = monitor.url();
        }

        Mono<ProbeResult> execute() {
            return fetch(monitor.url())
                    .timeout(Duration.ofMillis(monitor.timeoutMs()))
                    .onErrorResume(e -> {
                        Hop h = hop;
                        boolean connected = h != null && h.connected != 0;
                        ErrorKind kind = ErrorKinds.classify(e, connected);
                        String detail = e instanceof java.util.concurrent.TimeoutException
                                ? "no complete response within timeoutMs " + monitor.timeoutMs()
                                : ErrorKinds.describe(e);
                        return Mono.just(result(Outcome.NETWORK_FAILURE, kind, null, detail, 0, false));
                    });
        }

        private Mono<ProbeResult> fetch(String url) {
            currentUrl = url;
            return guard.check(url).flatMap(target -> {
                if (target instanceof Target.Refused r) {
                    return Mono.just(result(Outcome.NETWORK_FAILURE, ErrorKind.BLOCKED_TARGET, null,
                            "target refused: " + r.reason(), 0, false));
                }
                if (target instanceof Target.Unresolved u) {
                    hop = new Hop(u.dnsNanos());
                    return Mono.just(result(Outcome.NETWORK_FAILURE, ErrorKind.DNS, null, u.reason(), 0, false));
                }
                Target.Allowed allowed = (Target.Allowed) target;
                currentUrl = allowed.uri().toString();
                return exchange(allowed).flatMap(res -> onResponse(allowed, res));
            });
        }

        private Mono<ProbeResult> onResponse(Target.Allowed from, Response res) {
            if (isRedirect(res.status()) && res.location() != null) {
                if (redirects >= MAX_REDIRECTS) {
                    return Mono.just(result(Outcome.HTTP_FAILURE, ErrorKind.REDIRECT_LIMIT, res.status(),
                            "more than " + MAX_REDIRECTS + " redirects", res.bytesRead(), false));
                }
                String next;
                try {
                    next = from.uri().resolve(new URI(res.location().strip())).toString();
                } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                    return Mono.just(result(Outcome.HTTP_FAILURE, ErrorKind.OTHER, res.status(),
                            "redirect Location is not a valid URL", res.bytesRead(), false));
                }
                redirects++;
                return fetch(next);
            }
            Hop h = hop;
            int responseMs = millis(h.headers - startNanos);
            SuccessRules.Verdict v = SuccessRules.evaluate(monitor.expect(), res.status(), responseMs, res.body(),
                    res.truncated());
            return Mono.just(result(v.outcome(), null, res.status(), v.detail(), res.bytesRead(), true));
        }

        private Mono<Response> exchange(Target.Allowed target) {
            Hop h = new Hop(target.dnsNanos());
            hop = h;
            long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
            boolean keepBody = monitor.expect().json() != null || monitor.expect().bodyContains() != null;
            HttpClient client = (target.secure() ? secureBase : base)
                    .remoteAddress(target::socketAddress)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, remainingMs))
                    .doOnChannelInit((observer, channel, address) -> {
                        h.connectStart = System.nanoTime();
                        channel.pipeline().addFirst("vigil.phase", new PhaseHandler(h));
                    })
                    .headers(hd -> hd
                            .set(HttpHeaderNames.HOST, target.hostHeader())
                            .set(HttpHeaderNames.USER_AGENT, userAgent)
                            .set(HttpHeaderNames.ACCEPT, "*/*")
                            .set("X-Vigil-Monitor", monitor.id())
                            .set("X-Vigil-Region", settings.region())
                            .set("X-Vigil-Request-Id", requestId));
            return client.get().uri(target.pathAndQuery())
                    .responseConnection((res, conn) -> {
                        h.headers = System.nanoTime();
                        if (h.certificate == null && target.secure()) {
                            SslHandler ssl = conn.channel().pipeline().get(SslHandler.class);
                            if (ssl != null) {
                                h.certificate = leaf(ssl);
                            }
                        }
                        int status = res.status().code();
                        String location = res.responseHeaders().get(HttpHeaderNames.LOCATION);
                        if (isRedirect(status) && location != null) {
                            conn.dispose();
                            return Mono.just(new Response(status, location, new byte[0], 0, false));
                        }
                        return readBody(conn, status, keepBody);
                    })
                    .next();
        }

        private Mono<Response> readBody(Connection conn, int status, boolean keepBody) {
            BodyReader reader = new BodyReader(keepBody);
            boolean[] capped = new boolean[1];
            return conn.inbound().receive()
                    .takeUntil(buf -> capped[0] = reader.add(buf))
                    .then(Mono.fromCallable(() -> {
                        if (capped[0]) {
                            conn.dispose();
                        }
                        return new Response(status, null, reader.body(), reader.read, capped[0]);
                    }));
        }

        private ProbeResult result(Outcome outcome, ErrorKind kind, Integer status, String detail, long bytesRead,
                                   boolean responded) {
            long now = System.nanoTime();
            Hop h = hop;
            Integer responseMs = h != null && h.headers != 0 ? millis(h.headers - startNanos) : null;
            Integer dnsMs = h == null ? null : Integer.valueOf(millis(h.dnsNanos));
            Integer connectMs = h != null && h.connected != 0 && h.connectStart != 0 ? millis(h.connected - h.connectStart) : null;
            Integer tlsMs = h != null && h.tlsDone != 0 && h.connected != 0 ? millis(h.tlsDone - h.connected) : null;
            Integer tlsDaysLeft = null;
            if (h != null && h.certificate != null) {
                long left = h.certificate.getNotAfter().getTime() - settings.wallClock().getAsLong();
                tlsDaysLeft = (int) Math.max(-36500, Math.min(36500, Math.floorDiv(left, DAY_MS)));
            }
            return new ProbeResult(1, monitor.id(), settings.region(), settings.workerId(), windowStart, startedAt,
                    outcome, outcome == Outcome.SUCCESS ? null : kind, status, responseMs, millis(now - startNanos),
                    bytesRead, redirects, finalUrl(currentUrl), tlsDaysLeft, dnsMs, connectMs, tlsMs,
                    cleanDetail(detail), requestId);
        }
    }

    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /** scheme://authority/path of a URL: no query string, fragment or user-info. */
    static String finalUrl(String url) {
        try {
            URI u = new URI(url);
            if (u.getScheme() == null || u.getRawAuthority() == null) {
                return null;
            }
            String host = (u.getHost() == null ? u.getRawAuthority() : u.getHost()).toLowerCase(java.util.Locale.ROOT);
            String authority = u.getPort() == -1 ? host : host + ":" + u.getPort();
            String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "" : u.getRawPath();
            String s = u.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + authority + path;
            if (PrivacyGuard.check("finalUrl", s).isPresent()) {
                // A path segment carrying an e-mail address, a token... is redacted, never published.
                s = u.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + authority + PathSanitizer.sanitize(path);
                if (PrivacyGuard.check("finalUrl", s).isPresent()) {
                    return null;
                }
            }
            return s.length() > 2048 || s.indexOf('?') >= 0 || s.indexOf('#') >= 0 || s.indexOf('@') >= 0 ? null : s;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    /** Details are ours, but a refusal reason or exception name must still never carry personal data. */
    private static String cleanDetail(String detail) {
        if (detail == null) {
            return null;
        }
        String d = truncate(detail);
        return PrivacyGuard.check("detail", d).isPresent() ? "detail withheld: it would carry personal data" : d;
    }

    private static String truncate(String s) {
        String flat = s.replaceAll("\\p{Cntrl}", " ");
        return flat.length() <= 300 ? flat : flat.substring(0, 297) + "...";
    }

    private static int millis(long nanos) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }
}
