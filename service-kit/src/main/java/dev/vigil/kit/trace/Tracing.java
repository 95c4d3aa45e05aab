package dev.vigil.kit.trace;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One service's tracing: its tracer and the one way trace context crosses a hop (W3C {@code traceparent} and
 * {@code tracestate}, in Kafka record headers and HTTP headers). With export off (the default) spans are not
 * recorded, but context a record arrived with still passes through to the records it causes, so a trace begun
 * upstream stays whole across a service that does not export.
 *
 * <p>With export on, the OpenTelemetry SDK is configured by its own reader of the standard {@code OTEL_*} variables
 * (taken from the service's environment), over Vigil's defaults: OTLP over HTTP/protobuf to {@code otel.endpoint},
 * parent-based sampling at {@code otel.sampleRatio}, {@code service.name} {@code vigil-<service>}, and a bounded
 * queue whose drops are counted. Export happens on the SDK's own thread; a slow or absent collector costs spans,
 * never a wait in the pipeline.
 */
public final class Tracing implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Tracing.class);
    private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();
    /** The W3C header that carries a trace's context from record to record. */
    public static final String TRACEPARENT = "traceparent";

    private static final String SCOPE = "dev.vigil";

    private final String service;
    private final OtelSettings settings;
    private final OpenTelemetry otel;
    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private Tracing(String service, OtelSettings settings, OpenTelemetry otel, OpenTelemetrySdk sdk) {
        this.service = service;
        this.settings = settings;
        this.otel = otel;
        this.sdk = sdk;
        this.tracer = otel.getTracer(SCOPE);
    }

    /** Context passes through; nothing is recorded or exported. */
    public static Tracing off(String service) {
        return off(service, OtelSettings.defaults());
    }

    private static Tracing off(String service, OtelSettings settings) {
        return new Tracing(service, settings, OpenTelemetry.propagating(ContextPropagators.create(W3C)), null);
    }

    /**
     * The service's tracing as configured: off without an endpoint (neither {@code otel.endpoint} nor
     * {@code OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT}) or with {@code OTEL_SDK_DISABLED=true}.
     *
     * @param service    the service's short name ({@code notifier}); {@code service.name} is {@code vigil-<service>}
     *                   unless {@code OTEL_SERVICE_NAME} says otherwise
     * @param instanceId {@code service.instance.id}
     * @throws IllegalArgumentException for a setting the SDK cannot honour, with the setting named
     */
    public static Tracing start(
            String service, String instanceId, OtelSettings settings, Map<String, String> env, MeterRegistry registry) {
        Map<String, String> fromEnv = otelProperties(env);
        if ("true".equalsIgnoreCase(fromEnv.get("otel.sdk.disabled"))
                || "none".equalsIgnoreCase(fromEnv.get("otel.traces.exporter"))) {
            return off(service, settings);
        }
        boolean endpointInEnv = fromEnv.containsKey("otel.exporter.otlp.endpoint")
                || fromEnv.containsKey("otel.exporter.otlp.traces.endpoint");
        if (settings.endpoint().isEmpty() && !endpointInEnv) {
            return off(service, settings);
        }
        String protocol = fromEnv.getOrDefault(
                "otel.exporter.otlp.traces.protocol",
                fromEnv.getOrDefault("otel.exporter.otlp.protocol", "http/protobuf"));
        if (!"http/protobuf".equals(protocol)) {
            throw new IllegalArgumentException("OTEL_EXPORTER_OTLP_PROTOCOL=" + protocol
                    + ": Vigil exports OTLP over http/protobuf only (a collector's port 4318)");
        }
        Map<String, String> props = new HashMap<>();
        props.put("otel.service.name", "vigil-" + service);
        props.put("otel.traces.sampler", "parentbased_traceidratio");
        props.put("otel.traces.sampler.arg", Double.toString(settings.sampleRatio()));
        if (!settings.endpoint().isEmpty()) {
            props.put("otel.exporter.otlp.endpoint", settings.endpoint());
        }
        props.putAll(fromEnv);
        // Vigil decides what is exported: traces over OTLP/HTTP, no SDK metrics or logs export.
        props.put("otel.traces.exporter", "otlp");
        props.put("otel.exporter.otlp.protocol", "http/protobuf");
        props.put("otel.metrics.exporter", "none");
        props.put("otel.logs.exporter", "none");
        props.put("otel.propagators", "tracecontext");

        SpanCounts counts = new SpanCounts(service, registry);
        Attributes own = Attributes.builder()
                .put(AttributeKey.stringKey("service.instance.id"), instanceId)
                .put(AttributeKey.stringKey("service.namespace"), "vigil")
                .build();
        if (!settings.environment().isEmpty()) {
            own = own.toBuilder()
                    .put(AttributeKey.stringKey("deployment.environment"), settings.environment())
                    .build();
        }
        Resource base = Resource.create(own);
        OpenTelemetrySdk sdk;
        try {
            sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesCustomizer(config -> props)
                    .addResourceCustomizer((resource, config) -> base.merge(resource))
                    .addSpanExporterCustomizer((exporter, config) -> counts.counting(exporter))
                    .addMeterProviderCustomizer((builder, config) -> builder.registerMetricReader(counts))
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("OpenTelemetry: " + e.getMessage(), e);
        }
        log.info(
                "tracing on: {} exports to {} (sample ratio {})",
                props.get("otel.service.name"),
                fromEnv.getOrDefault("otel.exporter.otlp.traces.endpoint", props.get("otel.exporter.otlp.endpoint")),
                props.get("otel.traces.sampler.arg"));
        return new Tracing(service, settings, sdk, sdk);
    }

    /** {@code OTEL_FOO_BAR} → {@code otel.foo.bar}, as the SDK reads variables. */
    static Map<String, String> otelProperties(Map<String, String> env) {
        Map<String, String> props = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("OTEL_") && v != null && !v.isBlank()) {
                props.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v.strip());
            }
        });
        return props;
    }

    public Tracer tracer() {
        return tracer;
    }

    /** True when spans are recorded and exported. */
    public boolean exporting() {
        return sdk != null;
    }

    public String service() {
        return service;
    }

    public OtelSettings settings() {
        return settings;
    }

    /** The context a record arrived with (root when it carries none or a malformed one). */
    public Context extract(Headers headers) {
        return headers == null ? Context.root() : W3C.extract(Context.root(), headers, KafkaHeaders.GETTER);
    }

    /** The span context a record's headers carry; invalid when none or a malformed one. */
    public static SpanContext contextOf(Headers headers) {
        return headers == null
                ? SpanContext.getInvalid()
                : Span.fromContext(W3C.extract(Context.root(), headers, KafkaHeaders.GETTER))
                        .getSpanContext();
    }

    /** The context in any carrier, such as an HTTP request's headers. */
    public <C> Context extract(C carrier, TextMapGetter<C> getter) {
        return W3C.extract(Context.root(), carrier, getter);
    }

    /** Writes the span's context into the record's headers, replacing any it had; nothing for an invalid span. */
    public void inject(Span span, Headers headers) {
        inject(Context.root().with(span), headers);
    }

    public void inject(Context context, Headers headers) {
        W3C.inject(context, headers, KafkaHeaders.SETTER);
    }

    /** The trace UI's link for the span's trace, or empty. */
    public String traceLink(SpanContext span) {
        return span.isValid() ? settings.traceLink(span.getTraceId()) : "";
    }

    /** Flushes what is queued (briefly: a collector that is gone must not hold up a shutdown) and stops export. */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.getSdkTracerProvider().shutdown().join(2, TimeUnit.SECONDS);
            sdk.close();
        }
    }
}
