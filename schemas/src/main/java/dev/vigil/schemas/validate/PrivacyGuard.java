package dev.vigil.schemas.validate;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The privacy invariant (SPEC section 4): no e-mail addresses, phone numbers, bearer/JWT/API tokens,
 * passwords, card numbers or query strings in any string field of a {@link DomainMetric},
 * {@link AlertEvent} or {@link ProbeResult}. Pure and stateless, so safe from any thread.
 *
 * <p>Every string is checked, map keys and values included. A value is reported as
 * {@code labels.<key>}; an offending key is reported as the map itself ({@code labels}), because naming the
 * key would echo the data. {@code links} are URLs by design: a scheme, host and path are fine, but a query
 * string, a fragment parameter, user info or an e-mail address in the path are not, exactly as for any
 * other field. Enum fields (state, severity, outcome, ...) cannot carry free text and are not checked.
 *
 * <p>Deliberately not flagged: IP addresses, host names, UUIDs, hex digests (a 64-hex SHA-256 is not a
 * secret by itself), numeric ids and epoch timestamps, ISO dates and times, versions, durations, words
 * such as {@code password reset page} or {@code token_count=42} (no secret value), and digit runs that
 * fail the Luhn check or have no card scheme's issuer prefix and length. A Luhn-valid 13-19 digit id with
 * such a prefix cannot be told from a card and is rejected: send long numeric ids with a prefix
 * ({@code ord_4242...}) or in a numeric field.
 */
public final class PrivacyGuard {

    private PrivacyGuard() {
    }

    /** The violation in one field, if its value carries forbidden data. A null value is clean. */
    public static Optional<PrivacyViolation> check(String field, String value) {
        Objects.requireNonNull(field, "field");
        Kind kind = PiiDetector.detect(value);
        return kind == null ? Optional.empty() : Optional.of(new PrivacyViolation(field, kind));
    }

    /** Every offending string field, at most one violation per field; empty when the metric is clean. */
    public static List<PrivacyViolation> inspect(DomainMetric metric) {
        return inspect(metric, true);
    }

    /**
     * {@link #inspect(DomainMetric)} for a metric whose pathname came out of {@link PathSanitizer#sanitize}, which
     * only returns paths this guard passes: the path is not scanned a second time.
     */
    public static List<PrivacyViolation> inspectSanitized(DomainMetric metric) {
        return inspect(metric, false);
    }

    private static List<PrivacyViolation> inspect(DomainMetric metric, boolean withPathname) {
        var findings = new Findings();
        findings.field("appId", metric.appId());
        findings.field("metricName", metric.metricName());
        findings.field("status", metric.status());
        if (withPathname) {
            findings.field("pathname", metric.pathname());
        }
        findings.map("labels", metric.labels());
        return findings.list();
    }

    public static List<PrivacyViolation> inspect(AlertEvent event) {
        var findings = new Findings();
        findings.field("eventId", event.eventId());
        findings.field("fingerprint", event.fingerprint());
        findings.field("incidentId", event.incidentId());
        findings.field("service", event.service());
        findings.field("componentType", event.componentType());
        findings.field("summary", event.summary());
        findings.map("links", event.links());
        findings.map("attributes", event.attributes());
        List<String> channels = event.channels();
        if (channels != null) {
            for (int i = 0; i < channels.size(); i++) {
                findings.field("channels[" + i + "]", channels.get(i));
            }
        }
        return findings.list();
    }

    public static List<PrivacyViolation> inspect(ProbeResult result) {
        var findings = new Findings();
        findings.field("monitorId", result.monitorId());
        findings.field("region", result.region());
        findings.field("workerId", result.workerId());
        findings.field("finalUrl", result.finalUrl());
        findings.field("detail", result.detail());
        findings.field("requestId", result.requestId());
        return findings.list();
    }

    /** @throws ContractViolation {@code <field>: contains <kind>} */
    public static void requireClean(String field, String value) {
        check(field, value).ifPresent(v -> {
            throw v.toContractViolation();
        });
    }

    /** @throws ContractViolation for the first offending field */
    public static void requireClean(DomainMetric metric) {
        throwFirst(inspect(metric));
    }

    /** @throws ContractViolation for the first offending field */
    public static void requireClean(AlertEvent event) {
        throwFirst(inspect(event));
    }

    /** @throws ContractViolation for the first offending field */
    public static void requireClean(ProbeResult result) {
        throwFirst(inspect(result));
    }

    private static void throwFirst(List<PrivacyViolation> violations) {
        if (!violations.isEmpty()) {
            throw violations.get(0).toContractViolation();
        }
    }

    /** Collects violations, allocating only when there is one (the common clean case allocates nothing). */
    private static final class Findings {
        private List<PrivacyViolation> violations;

        void field(String field, String value) {
            Kind kind = PiiDetector.detect(value);
            if (kind != null) {
                add(new PrivacyViolation(field, kind));
            }
        }

        void map(String field, Map<String, String> map) {
            if (map == null) {
                return;
            }
            for (var entry : map.entrySet()) {
                Kind keyKind = PiiDetector.detect(entry.getKey());
                if (keyKind != null) {
                    add(new PrivacyViolation(field, keyKind));
                    continue;
                }
                Kind valueKind = PiiDetector.detect(entry.getValue());
                if (valueKind != null) {
                    add(new PrivacyViolation(field + "." + entry.getKey(), valueKind));
                }
            }
        }

        private void add(PrivacyViolation violation) {
            if (violations == null) {
                violations = new ArrayList<>(2);
            }
            violations.add(violation);
        }

        List<PrivacyViolation> list() {
            return violations == null ? List.of() : List.copyOf(violations);
        }
    }
}
