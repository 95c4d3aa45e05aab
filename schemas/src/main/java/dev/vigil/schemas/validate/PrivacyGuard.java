package dev.vigil.schemas.validate;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The privacy invariant (docs/design.md#privacy): no e-mail addresses, phone numbers, bearer/JWT/API tokens,
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
 *
 * <p>Text is read as a person would read it, so look-alike characters cannot smuggle data past the
 * detectors: a value that is not plain ASCII is also checked in a normalised form (NFKC, so fullwidth
 * {@code ＠} and digits become ASCII; invisible format characters such as zero-width spaces and bidi controls
 * removed; Unicode spaces read as a space and Unicode dashes as {@code -}), and card numbers grouped with dots
 * or slashes are recognised as well as those grouped with spaces or dashes. The value itself is never
 * changed, and a plain ASCII value (the usual case) skips normalisation altogether.
 *
 * <p>Percent-encoding is read layer by layer until nothing changes ({@code %252540} is an {@code @} as surely as
 * {@code %40} is), and a value still changing after a few layers is refused as a {@code NESTED_ENCODING}: no real
 * value is encoded that deep, and a bound that simply stopped reading would be a way past every check.
 */
public final class PrivacyGuard {

    private PrivacyGuard() {}

    /** The violation in one field, if its value carries forbidden data. A null value is clean. */
    public static Optional<PrivacyViolation> check(String field, String value) {
        Objects.requireNonNull(field, "field");
        Kind kind = detect(value);
        return kind == null ? Optional.empty() : Optional.of(new PrivacyViolation(field, kind));
    }

    /** Every offending string field, at most one violation per field; empty when the metric is clean. */
    public static List<PrivacyViolation> inspect(DomainMetric metric) {
        return inspect(metric, true);
    }

    /**
     * {@link #inspect(DomainMetric)} for a metric whose pathname came out of {@link PathSanitizer#sanitize}, which
     * only returns paths the detectors pass as written: the path is only checked for what that check cannot see
     * (look-alike characters, dot- or slash-grouped card numbers), which for an ASCII path is one loop over it.
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
        } else {
            findings.disguised("pathname", metric.pathname());
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

    /** The first kind of forbidden data in {@code value} as written or as a reader would see it; null if clean. */
    static Kind detect(String value) {
        Kind kind = PiiDetector.detect(value);
        return kind != null || value == null || value.isEmpty() ? kind : Disguises.detect(value);
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
            Kind kind = detect(value);
            if (kind != null) {
                add(new PrivacyViolation(field, kind));
            }
        }

        /** For a value {@link PiiDetector} has already passed as written. */
        void disguised(String field, String value) {
            Kind kind = value == null || value.isEmpty() ? null : Disguises.detect(value);
            if (kind != null) {
                add(new PrivacyViolation(field, kind));
            }
        }

        void map(String field, Map<String, String> map) {
            if (map == null) {
                return;
            }
            for (var entry : map.entrySet()) {
                Kind keyKind = detect(entry.getKey());
                if (keyKind != null) {
                    add(new PrivacyViolation(field, keyKind));
                    continue;
                }
                Kind valueKind = detect(entry.getValue());
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

    /**
     * What {@link PiiDetector} cannot see in a value it has already passed as written: data written with
     * look-alike or invisible characters (fullwidth {@code ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ}, a zero-width space
     * inside an address, digits grouped by no-break spaces), and card numbers grouped with dots or slashes ({@code 4111.1111.1111.1111}).
     * The same is looked for once more after percent-decoding, because an escape can hide a fullwidth
     * {@code ＠} or a {@code /} as well as an ASCII {@code @}.
     */
    private static final class Disguises {
        /** 4111.1111.1111.1111 or 4111/1111/1111/1111: a whole run of digit groups, never part of a longer one. */
        private static final Pattern GROUPED_DIGITS =
                Pattern.compile("(?<![\\w.+-])(?<!\\d[./])\\d{1,19}(?:[./]\\d{1,19}){1,7}(?!\\w|[./]\\d)");

        private static final int MIN_CARD_DIGITS = 13;

        private Disguises() {}

        static Kind detect(String value) {
            Kind kind = detectLiteral(value);
            if (kind != null || value.indexOf('%') < 0) {
                return kind;
            }
            String decoded = PercentDecoding.decode(value);
            if (decoded == null) {
                return Kind.NESTED_ENCODING;
            }
            if (decoded.equals(value)) {
                return null;
            }
            // PiiDetector has checked the decoded form as written; only its disguises are left.
            return detectLiteral(decoded);
        }

        private static Kind detectLiteral(String value) {
            // One cheap pass decides whether anything more is needed; ASCII is left unchanged by NFKC, and
            // without 13 digits and a '.' or '/' there can be no grouped card number.
            int digits = 0;
            boolean groupSeparator = false;
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    return detectNormalised(value);
                }
                if (c >= '0' && c <= '9') {
                    digits++;
                } else if (c == '.' || c == '/') {
                    groupSeparator = true;
                }
            }
            return digits >= MIN_CARD_DIGITS && groupSeparator && hasGroupedCard(value) ? Kind.CARD_NUMBER : null;
        }

        private static Kind detectNormalised(String value) {
            String text = normalise(value);
            Kind kind = text.equals(value) ? null : PiiDetector.detect(text);
            if (kind != null) {
                return kind;
            }
            return mayHoldGroupedCard(text) && hasGroupedCard(text) ? Kind.CARD_NUMBER : null;
        }

        /**
         * Invisible format characters (zero-width space/joiners, word joiner, BOM, soft hyphen, bidi marks,
         * embeddings, overrides and isolates: Unicode category Cf) removed first, so they cannot split a
         * sequence NFKC would compose; then NFKC; then every Unicode space is read as a space and every dash as
         * {@code -}, the separators the detectors know.
         */
        static String normalise(String value) {
            var visible = new StringBuilder(value.length());
            for (int i = 0; i < value.length(); ) {
                int cp = value.codePointAt(i);
                if (Character.getType(cp) != Character.FORMAT) {
                    visible.appendCodePoint(cp);
                }
                i += Character.charCount(cp);
            }
            String nfkc = Normalizer.normalize(visible, Normalizer.Form.NFKC);
            var out = new StringBuilder(nfkc.length());
            for (int i = 0; i < nfkc.length(); i++) {
                char c = nfkc.charAt(i);
                if (Character.isSpaceChar(c)) {
                    out.append(' ');
                } else if (Character.getType(c) == Character.DASH_PUNCTUATION || c == '\u2212') {
                    out.append('-');
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }

        private static boolean mayHoldGroupedCard(String text) {
            int digits = 0;
            boolean groupSeparator = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c >= '0' && c <= '9') {
                    digits++;
                } else if (c == '.' || c == '/') {
                    groupSeparator = true;
                }
            }
            return digits >= MIN_CARD_DIGITS && groupSeparator;
        }

        /**
         * The grouping rules PiiDetector applies to spaces and dashes: one separator throughout, groups of four
         * (the last may be shorter) or 4-6-5 / 4-6-4, and a Luhn-valid number with a card scheme's prefix and
         * length. Versions ({@code 10.0.19045.3693}), dates and paths with ids do not fit those rules.
         */
        private static boolean hasGroupedCard(String text) {
            Matcher m = GROUPED_DIGITS.matcher(text);
            while (m.find()) {
                String match = m.group();
                boolean dots = match.indexOf('.') >= 0;
                if (dots && match.indexOf('/') >= 0) {
                    continue; // 2024/11.30: mixed separators are not one number
                }
                String[] groups = match.split(dots ? "\\." : "/");
                if (isCardGrouping(groups) && CardNumbers.isPlausible(String.join("", groups))) {
                    return true;
                }
            }
            return false;
        }

        private static boolean isCardGrouping(String[] groups) {
            if (groups.length == 3
                    && groups[0].length() == 4
                    && groups[1].length() == 6
                    && (groups[2].length() == 4 || groups[2].length() == 5)) {
                return true;
            }
            for (int i = 0; i < groups.length - 1; i++) {
                if (groups[i].length() != 4) {
                    return false;
                }
            }
            return groups[groups.length - 1].length() <= 4;
        }
    }
}
