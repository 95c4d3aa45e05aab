package dev.vigil.probe.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at test time with the JDK's keytool (no private key is committed): a test CA, a
 * server certificate it signed for 127.0.0.1/localhost, one it signed for the same names that expired
 * {@value #EXPIRED_DAYS_AGO} days ago, and a self-signed server certificate.
 */
final class TestCertificates {
    static final char[] PASSWORD = "changeit".toCharArray();
    static final int VALIDITY_DAYS = 30;
    static final int EXPIRED_DAYS_AGO = 10;

    final KeyManagerFactory caSigned;
    final KeyManagerFactory selfSigned;
    final KeyManagerFactory expired;
    final TrustManagerFactory caTrust;

    private TestCertificates(
            KeyManagerFactory caSigned,
            KeyManagerFactory selfSigned,
            KeyManagerFactory expired,
            TrustManagerFactory caTrust) {
        this.caSigned = caSigned;
        this.selfSigned = selfSigned;
        this.expired = expired;
        this.caTrust = caTrust;
    }

    static TestCertificates generate(Path dir) throws Exception {
        Files.createDirectories(dir);
        String ca = dir.resolve("ca.p12").toString();
        String server = dir.resolve("server.p12").toString();
        String self = dir.resolve("self.p12").toString();
        String csr = dir.resolve("server.csr").toString();
        String crt = dir.resolve("server.crt").toString();
        String caCrt = dir.resolve("ca.crt").toString();
        String old = dir.resolve("expired.p12").toString();
        String oldCsr = dir.resolve("expired.csr").toString();
        String oldCrt = dir.resolve("expired.crt").toString();
        for (String f : List.of(ca, server, self, csr, crt, caCrt, old, oldCsr, oldCrt)) {
            Files.deleteIfExists(Path.of(f));
        }
        String days = String.valueOf(VALIDITY_DAYS);
        keytool(
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=Vigil Test CA",
                "-ext",
                "bc:c",
                "-validity",
                days,
                "-keystore",
                ca);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca, "-file", caCrt);
        keytool(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                days,
                "-keystore",
                server);
        keytool("-certreq", "-alias", "server", "-keystore", server, "-file", csr);
        keytool(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-infile",
                csr,
                "-outfile",
                crt,
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                days);
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caCrt, "-keystore", server);
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", crt, "-keystore", server);
        keytool(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                days,
                "-keystore",
                old);
        keytool("-certreq", "-alias", "server", "-keystore", old, "-file", oldCsr);
        // Valid from 20 days before the CA itself, for 10 days: expired 10 days ago.
        keytool(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-infile",
                oldCsr,
                "-outfile",
                oldCrt,
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-startdate",
                "-" + (2 * EXPIRED_DAYS_AGO) + "d",
                "-validity",
                String.valueOf(EXPIRED_DAYS_AGO));
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caCrt, "-keystore", old);
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", oldCrt, "-keystore", old);
        keytool(
                "-genkeypair",
                "-alias",
                "self",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                days,
                "-keystore",
                self);

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(Path.of(caCrt))) {
            trust.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return new TestCertificates(kmf(server), kmf(self), kmf(old), tmf);
    }

    private static KeyManagerFactory kmf(String path) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            ks.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        return kmf;
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", new String(PASSWORD), "-storetype", "PKCS12"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
