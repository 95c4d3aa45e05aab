package dev.vigil.notifier.channel.betterstack;

import dev.vigil.schemas.contract.Severity;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How BetterStack reaches the on-call person when Vigil opens an incident there, per severity: the incident's
 * {@code call}, {@code sms}, {@code email}, {@code push} and {@code critical_alert} flags (see BetterStack's
 * <a href="https://betterstack.com/docs/uptime/api/create-a-new-incident/">Create incident</a>). By default a
 * critical page rings the phone, texts, e-mails and pushes, a warning e-mails and pushes, and an info e-mails: the
 * louder the severity, the more ways it reaches someone.
 */
public final class OnCallReach {
    /** One way BetterStack reaches a person, by its field name in the incident. */
    public enum Medium {
        CALL,
        SMS,
        EMAIL,
        PUSH,
        /** A push that ignores the phone's mute switch and Do Not Disturb. */
        CRITICAL_ALERT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The medium named {@code wire}, or null. */
        public static Medium of(String wire) {
            for (Medium m : values()) {
                if (m.wire().equals(wire)) {
                    return m;
                }
            }
            return null;
        }

        /** Every medium's name, for error messages. */
        public static String names() {
            return Arrays.stream(values()).map(Medium::wire).collect(Collectors.joining(", "));
        }
    }

    private static final OnCallReach DEFAULTS = new OnCallReach(Map.of(
            Severity.CRITICAL, EnumSet.of(Medium.CALL, Medium.SMS, Medium.EMAIL, Medium.PUSH),
            Severity.WARNING, EnumSet.of(Medium.EMAIL, Medium.PUSH),
            Severity.INFO, EnumSet.of(Medium.EMAIL)));

    private final Map<Severity, Set<Medium>> bySeverity;

    private OnCallReach(Map<Severity, Set<Medium>> bySeverity) {
        EnumMap<Severity, Set<Medium>> copy = new EnumMap<>(Severity.class);
        bySeverity.forEach((s, m) -> copy.put(
                s, Collections.unmodifiableSet(m.isEmpty() ? EnumSet.noneOf(Medium.class) : EnumSet.copyOf(m))));
        this.bySeverity = Collections.unmodifiableMap(copy);
    }

    public static OnCallReach defaults() {
        return DEFAULTS;
    }

    /** The defaults with {@code severity} reaching people through {@code mediums} only (none: the incident is silent). */
    public OnCallReach with(Severity severity, Set<Medium> mediums) {
        EnumMap<Severity, Set<Medium>> next = new EnumMap<>(bySeverity);
        next.put(severity, mediums);
        return new OnCallReach(next);
    }

    /** The mediums for a page of {@code severity}. */
    public Set<Medium> of(Severity severity) {
        return bySeverity.getOrDefault(severity, Set.of());
    }

    /** Each severity with its mediums, loudest first, e.g. {@code critical=[call, sms, email, push]}. */
    @Override
    public String toString() {
        List<Severity> order = List.of(Severity.CRITICAL, Severity.WARNING, Severity.INFO);
        return order.stream()
                .map(s -> s.wire() + "=" + of(s).stream().map(Medium::wire).toList())
                .collect(Collectors.joining(", "));
    }
}
