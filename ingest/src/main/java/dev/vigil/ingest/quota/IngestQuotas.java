package dev.vigil.ingest.quota;

import dev.vigil.ingest.config.IngestConfig;
import java.util.function.LongSupplier;

/**
 * Per-app allowances of the API-key routes: requests per second of metrics and, apart and larger, of alerts (so a
 * metric flood never starves a page), and the live metric series an app may have.
 */
public record IngestQuotas(RequestRates metrics, RequestRates alerts, SeriesLimiter series) {
    public static IngestQuotas of(IngestConfig.Quotas q, LongSupplier nanos) {
        return new IngestQuotas(
                new RequestRates("metric", q.metricsRequestsPerSecond(), q.metricsBurst(), nanos),
                new RequestRates("alert", q.alertsRequestsPerSecond(), q.alertsBurst(), nanos),
                new SeriesLimiter(q.maxSeriesPerApp(), q.seriesIdleExpiry().toMillis()));
    }
}
