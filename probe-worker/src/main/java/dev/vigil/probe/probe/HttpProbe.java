package dev.vigil.probe.probe;

import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PathSanitizer;
import dev.vigil.schemas.validate.PrivacyGuard;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslHandler;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * One HTTP probe: the monitor's method, headers and body with a single hard deadline (the monitor's
 * timeoutMs) over the whole probe, manual redirects (at most {@value #MAX_REDIRECTS}, every hop re-checked
 * by the {@link TargetGuard} and connected to the address the guard checked), at most {@value #MAX_BODY_BYTES}
 * body bytes read before the connection is cancelled, no cookies or credentials picked up on the way, phase
 * timings and TLS days left. Never errors: every failure is a {@link ProbeResult} whose outcome and errorKind
 * say why.
 *
 * <p>A {@code secretEnv} header is read from the worker's environment when the probe starts, and only for the
 * variables the worker lists in {@link ProbeSettings#headerSecrets()}: the monitor's author picks the URL, so
 * any other variable could be shipped to a server of their choosing. The value goes to the monitor's own origin
 * only, and only over https: it is dropped, with {@code Authorization}, {@code Cookie} and
 * {@code Proxy-Authorization}, once a redirect leaves that origin (another host or port, or a downgrade to http),
 * and it is never sent on a plain-http hop at all, even one the monitor names itself (validation refuses such a
 * monitor; this covers a record that slipped past it). It never reaches a result, a log line, a metric or an
 * exception message. When
 * the variable is not listed, unset, or holds a value no header may carry, the probe does not run: that is this
 * worker's configuration, not the target's failure, so it completes empty and logs the variable's name once.
 */
public final class HttpProbe implements Probe {
    private static final Logger LOG = LoggerFactory.getLogger(HttpProbe.class);
    public static final int MAX_BODY_BYTES = 65_536;
    public static final int MAX_REDIRECTS = 5;
    /** Headers that carry credentials: never forwarded to another origin, whoever set them. */
    private static final Set<String> CREDENTIAL_HEADERS = Set.of("authorization", "proxy-authorization", "cookie");
    /** Monitors whose missing secret has been logged, so an unset variable is one line, not one per window. */
    private final Map<String, Boolean> warnedSecrets = new ConcurrentHashMap<>();

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
                : HttpClient.create(ConnectionProvider.builder("vigil-probe")
                        .maxConnections(1024)
                        .pendingAcquireMaxCount(-1)
                        .maxIdleTime(Duration.ofSeconds(30))
                        .build());
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
    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        return Mono.defer(() -> {
            RequestHeaders headers = requestHeaders(monitor);
            return headers == null ? Mono.empty() : new Run(monitor, windowStart, headers).execute();
        });
    }

    /**
     * The monitor's headers with secrets resolved. {@code credentials} (lower-case names) are not sent cross-origin;
     * {@code secrets}, a subset of them, are not sent over plain http either.
     */
    private record RequestHeaders(Map<String, String> values, Set<String> credentials, Set<String> secrets) {
        @Override
        public String toString() {
            return "RequestHeaders" + values.keySet();
        }
    }

    /** Resolves the monitor's headers, or null (logged by variable name) when a secret is not usable here. */
    private RequestHeaders requestHeaders(MonitorDefinition monitor) {
        if (monitor.headers().isEmpty()) {
            return new RequestHeaders(Map.of(), Set.of(), Set.of());
        }
        Map<String, String> values = new LinkedHashMap<>();
        Set<String> credentials = new java.util.HashSet<>();
        Set<String> secrets = new java.util.HashSet<>();
        for (Map.Entry<String, HeaderValue> e : monitor.headers().entrySet()) {
            String lower = e.getKey().toLowerCase(Locale.ROOT);
            HeaderValue hv = e.getValue();
            String value = hv.value();
            if (hv.isSecret()) {
                boolean listed = settings.headerSecrets().contains(hv.secretEnv());
                value = listed ? settings.environment().apply(hv.secretEnv()) : null;
                String problem = !listed
                        ? "is not one of this worker's headerSecrets"
                        : value == null || value.isBlank()
                                ? "is not set on this worker"
                                : !headerSafe(value)
                                        ? "holds a value no HTTP header may carry (a control character)"
                                        : null;
                if (problem != null) {
                    if (warnedSecrets.putIfAbsent(monitor.id() + "/" + hv.secretEnv(), Boolean.TRUE) == null) {
                        LOG.warn(
                                "monitor {} not probed: its header {} reads environment variable {}, which {}; "
                                        + "no result is published until it is fixed",
                                monitor.id(),
                                e.getKey(),
                                hv.secretEnv(),
                                problem);
                    }
                    return null;
                }
                warnedSecrets.remove(monitor.id() + "/" + hv.secretEnv());
                credentials.add(lower);
                secrets.add(lower);
            } else if (CREDENTIAL_HEADERS.contains(lower)) {
                credentials.add(lower);
            }
            values.put(e.getKey(), value);
        }
        return new RequestHeaders(values, credentials, secrets);
    }

    /** A header value without CR, LF, NUL or other controls (tab aside): nothing that could split a request. */
    private static boolean headerSafe(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** {@code Content-Type} of a body the user gave none for: JSON when it parses as an object or array. */
    static String contentType(String body) {
        String t = body.strip();
        if (t.startsWith("{") || t.startsWith("[")) {
            try {
                if (dev.vigil.schemas.json.Json.tree(t.getBytes(StandardCharsets.UTF_8))
                        .isContainerNode()) {
                    return "application/json";
                }
            } catch (RuntimeException notJson) {
                // plain text that happens to start with a bracket
            }
        }
        return "text/plain; charset=utf-8";
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

    /** @param headers values of the response headers {@code expect.headers} names (lower-case name → values) */
    private record Response(
            int status,
            String location,
            byte[] body,
            long bytesRead,
            boolean truncated,
            Map<String, List<String>> headers) {}

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
                        hop.certificate = Phases.leaf(ssl);
                    }
                });
            }
            super.channelActive(ctx);
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
        // Correlates a result with the target's access log.
        final String requestId = Results.requestId();
        final long startNanos = System.nanoTime();
        final long startedAt;
        final long deadlineNanos;
        final RequestHeaders headers;
        volatile Hop hop;
        volatile String currentUrl;
        volatile int redirects;
        /** The method and body of the next request: a 303 (and a 301/302 after POST) turns them into a GET. */
        volatile String method;

        volatile byte[] body;
        /** scheme://host:port of the first request; credentials go nowhere else. */
        volatile String origin;

        volatile boolean leftOrigin;

        Run(MonitorDefinition monitor, long windowStart, RequestHeaders headers) {
            this.monitor = monitor;
            this.windowStart = windowStart;
            this.headers = headers;
            this.startedAt = Math.max(settings.wallClock().getAsLong(), windowStart);
            this.deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(monitor.timeoutMs());
            this.currentUrl = monitor.url();
            this.method = monitor.method();
            this.body = monitor.body() == null ? null : monitor.body().getBytes(StandardCharsets.UTF_8);
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
                    return Mono.just(result(
                            Outcome.NETWORK_FAILURE,
                            ErrorKind.BLOCKED_TARGET,
                            null,
                            "target refused: " + r.reason(),
                            0,
                            false));
                }
                if (target instanceof Target.Unresolved u) {
                    hop = new Hop(u.dnsNanos());
                    return Mono.just(result(Outcome.NETWORK_FAILURE, ErrorKind.DNS, null, u.reason(), 0, false));
                }
                Target.Allowed allowed = (Target.Allowed) target;
                currentUrl = allowed.uri().toString();
                String here = (allowed.secure() ? "https://" : "http://") + allowed.host() + ":" + allowed.port();
                if (origin == null) {
                    origin = here;
                } else if (!origin.equals(here)) {
                    leftOrigin = true;
                }
                return exchange(allowed).flatMap(res -> onResponse(allowed, res));
            });
        }

        private Mono<ProbeResult> onResponse(Target.Allowed from, Response res) {
            if (isRedirect(res.status()) && res.location() != null) {
                if (redirects >= MAX_REDIRECTS) {
                    return Mono.just(result(
                            Outcome.HTTP_FAILURE,
                            ErrorKind.REDIRECT_LIMIT,
                            res.status(),
                            "more than " + MAX_REDIRECTS + " redirects",
                            res.bytesRead(),
                            false));
                }
                String next;
                try {
                    next = from.uri().resolve(new URI(res.location().strip())).toString();
                } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                    return Mono.just(result(
                            Outcome.HTTP_FAILURE,
                            ErrorKind.OTHER,
                            res.status(),
                            "redirect Location is not a valid URL",
                            res.bytesRead(),
                            false));
                }
                redirects++;
                int s = res.status();
                if (s == 303 && !method.equals("HEAD") || (s == 301 || s == 302) && method.equals("POST")) {
                    // What browsers and curl do: only 307 and 308 promise the same method and body.
                    method = "GET";
                    body = null;
                }
                return fetch(next);
            }
            Hop h = hop;
            int responseMs = millis(h.headers - startNanos);
            SuccessRules.Verdict v = SuccessRules.evaluate(
                    monitor.expect(), res.status(), responseMs, res.body(), res.truncated(), name -> res.headers()
                            .getOrDefault(name.toLowerCase(Locale.ROOT), List.of()));
            return Mono.just(result(v.outcome(), null, res.status(), v.detail(), res.bytesRead(), true));
        }

        private Mono<Response> exchange(Target.Allowed target) {
            Hop h = new Hop(target.dnsNanos());
            hop = h;
            long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
            var expect = monitor.expect();
            boolean keepBody =
                    expect.json() != null || expect.bodyContains() != null || expect.bodyNotContains() != null;
            byte[] payload = body;
            boolean sendCredentials = !leftOrigin;
            boolean sendSecrets = sendCredentials && target.secure();
            HttpClient client = (target.secure() ? secureBase : base)
                    .remoteAddress(target::socketAddress)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, remainingMs))
                    .doOnChannelInit((observer, channel, address) -> {
                        h.connectStart = System.nanoTime();
                        channel.pipeline().addFirst("vigil.phase", new PhaseHandler(h));
                    })
                    .headers(hd -> {
                        hd.set(HttpHeaderNames.HOST, target.hostHeader()).set(HttpHeaderNames.ACCEPT, "*/*");
                        for (var e : headers.values().entrySet()) {
                            String lower = e.getKey().toLowerCase(Locale.ROOT);
                            boolean withheld = headers.secrets().contains(lower)
                                    ? !sendSecrets
                                    : headers.credentials().contains(lower) && !sendCredentials;
                            if (!withheld) {
                                hd.set(e.getKey(), e.getValue());
                            }
                        }
                        // Set last: a probe always says who it is, whatever the monitor's headers say, and always
                        // asks past any cache, so a CDN's stored answer cannot hide an origin that is down.
                        hd.set(HttpHeaderNames.USER_AGENT, userAgent)
                                .set("X-Vigil-Monitor", monitor.id())
                                .set("X-Vigil-Region", settings.region())
                                .set("X-Vigil-Request-Id", requestId)
                                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                                .set(HttpHeaderNames.PRAGMA, HttpHeaderValues.NO_CACHE);
                        if (payload != null) {
                            if (!hd.contains(HttpHeaderNames.CONTENT_TYPE)) {
                                hd.set(HttpHeaderNames.CONTENT_TYPE, contentType(monitor.body()));
                            }
                            hd.set(HttpHeaderNames.CONTENT_LENGTH, payload.length);
                        }
                    });
            HttpClient.RequestSender request =
                    client.request(HttpMethod.valueOf(method)).uri(target.pathAndQuery());
            HttpClient.ResponseReceiver<?> receiver =
                    payload == null ? request : request.send(Mono.fromCallable(() -> Unpooled.wrappedBuffer(payload)));
            return receiver.responseConnection((res, conn) -> {
                        h.headers = System.nanoTime();
                        if (h.certificate == null && target.secure()) {
                            SslHandler ssl = conn.channel().pipeline().get(SslHandler.class);
                            if (ssl != null) {
                                h.certificate = Phases.leaf(ssl);
                            }
                        }
                        int status = res.status().code();
                        String location = res.responseHeaders().get(HttpHeaderNames.LOCATION);
                        if (isRedirect(status) && location != null) {
                            conn.dispose();
                            return Mono.just(new Response(status, location, new byte[0], 0, false, Map.of()));
                        }
                        return readBody(conn, status, keepBody, expected(res.responseHeaders()));
                    })
                    .next();
        }

        /** The response headers the monitor has expectations on, and only those. */
        private Map<String, List<String>> expected(HttpHeaders responseHeaders) {
            var names = monitor.expect().headers().keySet();
            if (names.isEmpty()) {
                return Map.of();
            }
            Map<String, List<String>> out = new java.util.HashMap<>();
            for (String name : names) {
                out.put(name.toLowerCase(Locale.ROOT), new ArrayList<>(responseHeaders.getAll(name)));
            }
            return out;
        }

        private Mono<Response> readBody(
                Connection conn, int status, boolean keepBody, Map<String, List<String>> expectedHeaders) {
            BodyReader reader = new BodyReader(keepBody);
            boolean[] capped = new boolean[1];
            return conn.inbound()
                    .receive()
                    .takeUntil(buf -> capped[0] = reader.add(buf))
                    .then(Mono.fromCallable(() -> {
                        if (capped[0]) {
                            conn.dispose();
                        }
                        return new Response(status, null, reader.body(), reader.read, capped[0], expectedHeaders);
                    }));
        }

        private ProbeResult result(
                Outcome outcome, ErrorKind kind, Integer status, String detail, long bytesRead, boolean responded) {
            long now = System.nanoTime();
            Hop h = hop;
            Integer responseMs = h != null && h.headers != 0 ? millis(h.headers - startNanos) : null;
            Integer dnsMs = h == null ? null : Integer.valueOf(millis(h.dnsNanos));
            Integer connectMs =
                    h != null && h.connected != 0 && h.connectStart != 0 ? millis(h.connected - h.connectStart) : null;
            Integer tlsMs = h != null && h.tlsDone != 0 && h.connected != 0 ? millis(h.tlsDone - h.connected) : null;
            Integer tlsDaysLeft = h != null && h.certificate != null
                    ? Results.daysLeft(h.certificate, settings.wallClock().getAsLong())
                    : null;
            return new ProbeResult(
                    1,
                    monitor.id(),
                    settings.region(),
                    settings.workerId(),
                    windowStart,
                    startedAt,
                    outcome,
                    outcome == Outcome.SUCCESS ? null : kind,
                    status,
                    responseMs,
                    millis(now - startNanos),
                    bytesRead,
                    redirects,
                    finalUrl(currentUrl),
                    tlsDaysLeft,
                    dnsMs,
                    connectMs,
                    tlsMs,
                    Results.detail(detail),
                    requestId,
                    CheckType.HTTP,
                    null);
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

    private static int millis(long nanos) {
        return Results.millis(nanos);
    }
}
