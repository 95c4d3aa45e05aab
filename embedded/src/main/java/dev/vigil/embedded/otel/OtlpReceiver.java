package dev.vigil.embedded.otel;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A collector's OTLP/HTTP trace endpoint ({@code POST /v1/traces}, protobuf) on loopback, keeping every span it
 * receives, decoded with the OpenTelemetry proto classes. It can be told to refuse (503) to show that a collector
 * in trouble costs spans, not the pipeline. Needs {@code io.opentelemetry.proto:opentelemetry-proto} on the class
 * path (an optional dependency of this module: tests that use it declare it).
 */
public final class OtlpReceiver implements AutoCloseable {
    /** One received span; ids in lower-case hex, the parent empty for a root. */
    public record ReceivedSpan(
            String service,
            String traceId,
            String spanId,
            String parentSpanId,
            String name,
            long startNanos,
            long endNanos,
            Map<String, String> attributes,
            List<String> events) {
        public boolean isRoot() {
            return parentSpanId.isEmpty();
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
    private final boolean keep;
    private volatile boolean refusing;

    private OtlpReceiver(HttpServer server, boolean keep) {
        this.server = server;
        this.keep = keep;
    }

    public static OtlpReceiver start() throws IOException {
        return start(true);
    }

    /**
     * A receiver that answers every export at once and keeps nothing (it counts requests and bytes): the collector
     * of a benchmark, where decoding and keeping spans would cost the measured process what a collector elsewhere
     * costs another machine.
     */
    public static OtlpReceiver discarding() throws IOException {
        return start(false);
    }

    private static OtlpReceiver start(boolean keep) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server, keep);
        server.createContext("/v1/traces", receiver::handle);
        server.start();
        return receiver;
    }

    /** The base URL an exporter is given ({@code otel.endpoint}); the exporter appends {@code /v1/traces}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The spans of one trace, in the order they started. */
    public List<ReceivedSpan> trace(String traceId) {
        List<ReceivedSpan> out = new ArrayList<>();
        for (ReceivedSpan s : spans) {
            if (s.traceId().equals(traceId)) {
                out.add(s);
            }
        }
        out.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return out;
    }

    /** Export requests received, refused ones included. */
    public int requests() {
        return requests.get();
    }

    /** Request bytes received (after decompression). */
    public long bytes() {
        return bytes.get();
    }

    /** While true every export is answered 503 and its spans are not kept. */
    public void refuse(boolean refuse) {
        this.refusing = refuse;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try (InputStream in =
                    "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                            ? new GZIPInputStream(exchange.getRequestBody())
                            : exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            bytes.addAndGet(body.length);
            if (refusing) {
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            if (!keep) {
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            ExportTraceServiceRequest request;
            try {
                request = ExportTraceServiceRequest.parseFrom(body);
            } catch (IOException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            for (ResourceSpans rs : request.getResourceSpansList()) {
                String service =
                        attributes(rs.getResource().getAttributesList()).getOrDefault("service.name", "");
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (var span : ss.getSpansList()) {
                        List<String> events = new ArrayList<>();
                        span.getEventsList().forEach(e -> events.add(e.getName()));
                        spans.add(new ReceivedSpan(
                                service,
                                HEX.formatHex(span.getTraceId().toByteArray()),
                                HEX.formatHex(span.getSpanId().toByteArray()),
                                HEX.formatHex(span.getParentSpanId().toByteArray()),
                                span.getName(),
                                span.getStartTimeUnixNano(),
                                span.getEndTimeUnixNano(),
                                attributes(span.getAttributesList()),
                                List.copyOf(events)));
                    }
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
        }
    }

    private static Map<String, String> attributes(List<KeyValue> list) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : list) {
            out.put(kv.getKey(), text(kv.getValue()));
        }
        return out;
    }

    private static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
