package dev.vigil.probe.probe;

import dev.vigil.kit.config.ConfigLoader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** Trust for https targets: the JDK's public CAs plus the CAs of a PEM file (an internal CA, say). */
public final class TrustStores {
    private TrustStores() {}

    /** @throws ConfigLoader.ConfigException naming {@code trustedCaFile} when the file is not usable */
    public static TrustManagerFactory jdkPlus(Path pemFile) {
        try (InputStream in = Files.newInputStream(pemFile)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((KeyStore) null);
            int i = 0;
            for (var tm : jdk.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    for (var c : x.getAcceptedIssuers()) {
                        ks.setCertificateEntry("jdk-" + i++, c);
                    }
                }
            }
            int extra = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                ks.setCertificateEntry("extra-" + extra++, c);
            }
            if (extra == 0) {
                throw new IllegalArgumentException("no certificates");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf;
        } catch (Exception e) {
            throw new ConfigLoader.ConfigException(
                    List.of("trustedCaFile: " + pemFile + " is not a readable PEM file of certificates ("
                            + e.getClass().getSimpleName() + ")"));
        }
    }
}
