package dev.vigil.probe.probe;

import java.util.function.LongSupplier;
import javax.net.ssl.TrustManagerFactory;

/**
 * How this worker fetches.
 *
 * @param region          the worker's region, sent as {@code X-Vigil-Region} and recorded in results
 * @param workerId        the worker's id, recorded in results
 * @param version         sent as {@code User-Agent: Vigil/<version>}
 * @param trust           extra trust for https targets (e.g. an internal CA), or null for the JDK's default trust
 * @param freshConnection true (default) for a new connection per probe so connect and TLS time are measured
 * @param wallClock       epoch milliseconds, for {@code startedAt} and certificate expiry
 */
public record ProbeSettings(String region, String workerId, String version, TrustManagerFactory trust,
                            boolean freshConnection, LongSupplier wallClock) {
    public static ProbeSettings of(String region, String workerId, String version) {
        return new ProbeSettings(region, workerId, version, null, true, System::currentTimeMillis);
    }

    public ProbeSettings withTrust(TrustManagerFactory tmf) {
        return new ProbeSettings(region, workerId, version, tmf, freshConnection, wallClock);
    }
}
