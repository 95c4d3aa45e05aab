package dev.vigil.probe.probe;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import javax.net.ssl.TrustManagerFactory;

/**
 * How this worker probes.
 *
 * @param region          the worker's region, sent as {@code X-Vigil-Region} and recorded in results
 * @param workerId        the worker's id, recorded in results
 * @param version         sent as {@code User-Agent: Vigil/<version>}
 * @param trust           extra trust for https and tls targets (e.g. an internal CA), or null for the JDK's default
 *                        trust
 * @param freshConnection true (default) for a new connection per probe so connect and TLS time are measured
 * @param wallClock       epoch milliseconds, for {@code startedAt} and certificate expiry
 * @param environment     the worker's environment by variable name (null when unset): where {@code secretEnv}
 *                        header values are read at probe time, so a rotated secret needs no monitor change
 * @param headerSecrets   the only variables a monitor's {@code secretEnv} may name. Whoever writes a monitor
 *                        chooses where its headers go, so without this list a monitor could send any of the
 *                        worker's variables (its own signing secret, cloud credentials) to a server of its choosing
 */
public record ProbeSettings(
        String region,
        String workerId,
        String version,
        TrustManagerFactory trust,
        boolean freshConnection,
        LongSupplier wallClock,
        UnaryOperator<String> environment,
        Set<String> headerSecrets) {
    public ProbeSettings {
        environment = environment == null ? System::getenv : environment;
        headerSecrets = headerSecrets == null ? Set.of() : Set.copyOf(headerSecrets);
    }

    /** Settings under which no monitor may use a secret header. */
    public ProbeSettings(
            String region,
            String workerId,
            String version,
            TrustManagerFactory trust,
            boolean freshConnection,
            LongSupplier wallClock) {
        this(region, workerId, version, trust, freshConnection, wallClock, System::getenv, Set.of());
    }

    public static ProbeSettings of(String region, String workerId, String version) {
        return new ProbeSettings(region, workerId, version, null, true, System::currentTimeMillis);
    }

    public ProbeSettings withTrust(TrustManagerFactory tmf) {
        return new ProbeSettings(
                region, workerId, version, tmf, freshConnection, wallClock, environment, headerSecrets);
    }

    /**
     * The same settings reading secret headers from {@code env} (the map the worker was started with), for the
     * variables in {@code names} only.
     */
    public ProbeSettings withSecrets(Map<String, String> env, Set<String> names) {
        Map<String, String> copy = Collections.unmodifiableMap(new HashMap<>(env));
        return new ProbeSettings(region, workerId, version, trust, freshConnection, wallClock, copy::get, names);
    }

    public ProbeSettings withWallClock(LongSupplier clock) {
        return new ProbeSettings(region, workerId, version, trust, freshConnection, clock, environment, headerSecrets);
    }
}
