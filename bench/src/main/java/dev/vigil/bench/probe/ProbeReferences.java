package dev.vigil.bench.probe;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import javax.net.ssl.TrustManagerFactory;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClient;
import reactor.netty.tcp.TcpClient;

/**
 * The physical references of the probe benchmark: a bare client doing, per operation, the work one probe of the type
 * does on the wire, closed loop with {@value #IN_FLIGHT} in flight, after a warm-up of {@value #WARMUP} operations
 * and then up to a number of seconds more, until a second passes in which the JIT compiler threads used under
 * {@value #SETTLED_JIT_MS_PER_SECOND} ms of CPU ({@link JitCpu}). No scheduler, guard, result or deadline: its operations per
 * CPU-second of this JVM are what the machine allows, and the probe's figure divided by it is the share the probe
 * keeps.
 *
 * <p>The warm-up matters: the JIT compiles for tens of seconds under this load (for TLS, the JDK's EC arithmetic and
 * the handshake), and compiler threads count in the process's CPU time. A reference measured while the JIT is still
 * busy looks dearer than the probe. {@code referenceJitCpuMs} reports the compiler threads' CPU during the
 * measurement (-1 without {@code /proc}).
 */
final class ProbeReferences {
    static final int IN_FLIGHT = 64;
    static final int WARMUP = 2000;
    /** The JIT counts as settled once a second of warm-up compiles for less than this. */
    static final long SETTLED_JIT_MS_PER_SECOND = 50;

    private ProbeReferences() {}

    /**
     * The figures of one reference: {@code reference<Op>PerSec}, {@code reference<Op>PerCpuSec}, the same without the
     * JIT compiler threads' CPU ({@code ...ExJit}, 0 without {@code /proc}), the JIT's CPU, and the operations that
     * failed (for the http reference, as before, none are tolerated: the first failure ends the run).
     */
    record Figures(String op, double perSec, double perCpuSec, double perCpuSecExJit, long errors, long jitMs) {
        Map<String, Object> asMap() {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("reference" + op + "PerSec", perSec);
            r.put("reference" + op + "PerCpuSec", perCpuSec);
            r.put("referenceJitCpuMs", jitMs);
            if (perCpuSecExJit > 0) {
                r.put("reference" + op + "PerCpuSecExJit", perCpuSecExJit);
            }
            return r;
        }
    }

    /** Bare Reactor Netty client, fresh connection per GET of {@code /health} (the harness's original reference). */
    static Figures http(int port, int warmupSeconds, int seconds, com.sun.management.OperatingSystemMXBean os) {
        HttpClient client = HttpClient.newConnection().keepAlive(false);
        return closedLoop(
                "Requests",
                i -> client.get()
                        .uri("http://127.0.0." + (1 + i % 16) + ":" + port + "/health")
                        .responseContent()
                        .aggregate()
                        .asString(),
                false,
                warmupSeconds,
                seconds,
                os);
    }

    /** Bare Reactor Netty TCP client: connect to 127.0.0.x, read until the banner has arrived, close. */
    static Figures tcp(
            int addresses, int port, int warmupSeconds, int seconds, com.sun.management.OperatingSystemMXBean os) {
        TcpClient base = TcpClient.newConnection();
        InetSocketAddress[] to = loopback(addresses, port);
        return closedLoop(
                "Connects",
                i -> Mono.usingWhen(
                        base.remoteAddress(() -> to[i % to.length]).connect(),
                        conn -> {
                            StringBuilder got = new StringBuilder();
                            return conn.inbound()
                                    .receive()
                                    .asString(StandardCharsets.US_ASCII)
                                    .filter(s -> got.append(s).indexOf(ProbeTargets.BANNER_EXPECT) >= 0)
                                    .next()
                                    .switchIfEmpty(
                                            Mono.error(() -> new IllegalStateException("closed before the banner")));
                        },
                        conn -> Mono.fromRunnable(conn::dispose)),
                true,
                warmupSeconds,
                seconds,
                os);
    }

    /**
     * Bare Reactor Netty TLS client: connect to 127.0.0.x, complete the handshake (chain and IP SAN verified against
     * the bench CA, HTTPS endpoint identification as the probe does), close.
     */
    static Figures tls(
            int addresses,
            int port,
            TrustManagerFactory trust,
            int warmupSeconds,
            int seconds,
            com.sun.management.OperatingSystemMXBean os)
            throws Exception {
        SslContext ctx = SslContextBuilder.forClient()
                .trustManager(trust)
                .endpointIdentificationAlgorithm("HTTPS")
                .build();
        TcpClient base = TcpClient.newConnection().secure(spec -> spec.sslContext(ctx));
        InetSocketAddress[] to = loopback(addresses, port);
        return closedLoop(
                "Handshakes",
                i -> base.remoteAddress(() -> to[i % to.length]).connect().doOnNext(Connection::dispose),
                true,
                warmupSeconds,
                seconds,
                os);
    }

    /**
     * Bare dnsjava {@link SimpleResolver}: an A query for a name under the bench zone, the answer checked. The answer
     * is handled on dnsjava's own I/O thread ({@code sendAsync(query, Runnable::run)}): its default executor, the
     * common ForkJoinPool (one worker on two cores), costs about five times the CPU per query, which is no part of
     * the work (the probe hands its answers to Reactor's parallel threads).
     */
    static Figures dns(
            InetSocketAddress resolver,
            int names,
            int warmupSeconds,
            int seconds,
            com.sun.management.OperatingSystemMXBean os) {
        SimpleResolver r = new SimpleResolver(resolver);
        r.setTimeout(Duration.ofSeconds(5));
        byte[] want = address(ProbeTargets.DNS_ANSWER);
        return closedLoop(
                "Queries",
                i -> Mono.fromCompletionStage(() -> r.sendAsync(
                                Message.newQuery(Record.newRecord(name(i % Math.max(1, names)), Type.A, DClass.IN)),
                                Runnable::run))
                        .map(answer -> {
                            if (answer.getRcode() != Rcode.NOERROR) {
                                throw new IllegalStateException("answer " + Rcode.string(answer.getRcode()));
                            }
                            for (Record rec : answer.getSection(Section.ANSWER)) {
                                if (rec instanceof ARecord a
                                        && java.util.Arrays.equals(
                                                a.getAddress().getAddress(), want)) {
                                    return answer;
                                }
                            }
                            throw new IllegalStateException("no expected A record");
                        }),
                true,
                warmupSeconds,
                seconds,
                os);
    }

    /** The query name of monitor {@code i}: {@code m00042.bench.vigil.test.}. */
    static String queryName(int i) {
        return String.format(java.util.Locale.ROOT, "m%05d.%s", i, ProbeTargets.DNS_ZONE);
    }

    private static Name name(int i) {
        try {
            return Name.fromString(queryName(i));
        } catch (TextParseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static byte[] address(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * 127.0.0.1 … 127.0.0.{@code n} as the probe connects to them ({@code Target.Allowed#socketAddress}: the
     * literal as the host, so TLS verifies the IP SAN and sends no SNI).
     */
    static InetSocketAddress[] loopback(int n, int port) {
        InetSocketAddress[] out = new InetSocketAddress[Math.max(1, n)];
        for (int i = 0; i < out.length; i++) {
            String host = "127.0.0." + (1 + i);
            try {
                out[i] = new InetSocketAddress(
                        InetAddress.getByAddress(host, new byte[] {127, 0, 0, (byte) (1 + i)}), port);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    /**
     * Runs {@code op} closed loop: {@value #WARMUP} operations of warm-up, then up to {@code warmupSeconds} more of it
     * (one-second slices, ending at the first in which the JIT's CPU was under {@value #SETTLED_JIT_MS_PER_SECOND} ms;
     * without {@code /proc} all of them), then as many as fit in {@code seconds}, {@value #IN_FLIGHT} in flight, counting operations and this JVM's CPU time.
     * With {@code tolerateErrors} a failed operation is counted in {@link Figures#errors()} (and not as an
     * operation); without, it ends the run.
     */
    private static Figures closedLoop(
            String opName,
            IntFunction<Mono<?>> op,
            boolean tolerateErrors,
            int warmupSeconds,
            int seconds,
            com.sun.management.OperatingSystemMXBean os) {
        LongAdder errors = new LongAdder();
        IntFunction<Mono<?>> guarded = tolerateErrors
                ? i -> op.apply(i).map(x -> Boolean.TRUE).onErrorResume(e -> {
                    errors.increment();
                    return Mono.empty();
                })
                : op;
        Flux.range(0, WARMUP).flatMap(guarded::apply, IN_FLIGHT).blockLast(Duration.ofSeconds(120));
        for (int slice = 0; slice < warmupSeconds; slice++) {
            long before = JitCpu.nanos();
            long end = System.nanoTime() + 1_000_000_000L;
            Flux.range(0, Integer.MAX_VALUE)
                    .takeWhile(i -> System.nanoTime() < end)
                    .flatMap(guarded::apply, IN_FLIGHT)
                    .blockLast(Duration.ofSeconds(60));
            long jitMs = JitCpu.millisBetween(before, JitCpu.nanos());
            if (jitMs >= 0 && jitMs < SETTLED_JIT_MS_PER_SECOND) {
                break;
            }
        }
        long jit0 = JitCpu.nanos();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Long n = Flux.range(0, Integer.MAX_VALUE)
                .takeWhile(i -> System.nanoTime() < deadline)
                .flatMap(guarded::apply, IN_FLIGHT)
                .count()
                .block(Duration.ofSeconds(seconds + 60L));
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        long jitMs = JitCpu.millisBetween(jit0, JitCpu.nanos());
        long ops = n == null ? 0 : n;
        double cpuExJit = jitMs < 0 ? 0 : cpu - jitMs / 1e3;
        return new Figures(
                opName,
                round(ops / s),
                round(cpu == 0 ? 0 : ops / cpu),
                round(cpuExJit <= 0 ? 0 : ops / cpuExJit),
                errors.sum(),
                jitMs);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
