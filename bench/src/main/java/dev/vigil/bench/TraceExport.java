package dev.vigil.bench;

import dev.vigil.embedded.otel.OtlpReceiver;
import dev.vigil.kit.trace.OtelSettings;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Tracing in a benchmark: with {@code -Dvigil.bench.otel=on} the measured service exports every span (sample ratio
 * 1.0) to a collector in the driver that answers at once and keeps nothing; otherwise export stays off, as by
 * default. One run of each, same build, is the cost of tracing.
 */
public final class TraceExport implements AutoCloseable {
    private final OtlpReceiver collector;

    private TraceExport(OtlpReceiver collector) {
        this.collector = collector;
    }

    public static TraceExport fromProperty() {
        if (!"on".equals(System.getProperty("vigil.bench.otel"))) {
            System.out.println("tracing export off");
            return new TraceExport(null);
        }
        try {
            OtlpReceiver collector = OtlpReceiver.discarding();
            System.out.println("tracing export on: every span to " + collector.endpoint());
            return new TraceExport(collector);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The service's tracing settings: export to the driver's collector, or off. */
    public OtelSettings settings() {
        return collector == null ? OtelSettings.defaults() : new OtelSettings(collector.endpoint(), 1.0, "", "");
    }

    /** For the RESULT line: {@code on} or {@code off}. */
    public String mode() {
        return collector == null ? "off" : "on";
    }

    /** Export requests and bytes the collector received, for the RESULT line. */
    public String received() {
        return collector == null ? "0/0" : collector.requests() + "/" + collector.bytes();
    }

    @Override
    public void close() {
        if (collector != null) {
            collector.close();
        }
    }
}
