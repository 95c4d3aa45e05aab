package dev.vigil.bench.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
 * The TLS benchmark's certificates, made at start with the JDK's keytool (as the probe-worker tests do; no private
 * key is committed): a bench CA (EC P-256) and a server certificate it signed for {@code localhost} and
 * 127.0.0.1 … 127.0.0.N, the loopback addresses the monitors use (the tls check verifies the host name, and for an
 * IP literal that is the certificate's IP SAN). The worker trusts the CA the way an operator would, through its
 * trusted CA file ({@code trustedCaFile}: {@link #caPem()}).
 */
final class BenchCertificates {
    static final char[] PASSWORD = "changeit".toCharArray();
    static final int VALIDITY_DAYS = 30;

    private final Path caPem;
    private final Path serverKeyStore;

    private BenchCertificates(Path caPem, Path serverKeyStore) {
        this.caPem = caPem;
        this.serverKeyStore = serverKeyStore;
    }

    /** The CA certificate, PEM: the worker's trusted CA file. */
    Path caPem() {
        return caPem;
    }

    /** The server's PKCS#12 key store (key, its certificate, the CA), password {@link #PASSWORD}. */
    Path serverKeyStore() {
        return serverKeyStore;
    }

    /** Generates the CA and a server certificate for 127.0.0.1 … 127.0.0.{@code addresses} under {@code dir}. */
    static BenchCertificates generate(Path dir, int addresses) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String ca = dir.resolve("ca.p12").toString();
        String caCrt = dir.resolve("ca.pem").toString();
        String server = dir.resolve("server.p12").toString();
        String csr = dir.resolve("server.csr").toString();
        String crt = dir.resolve("server.crt").toString();
        for (String f : List.of(ca, caCrt, server, csr, crt)) {
            Files.deleteIfExists(Path.of(f));
        }
        StringBuilder san = new StringBuilder("SAN=dns:localhost");
        for (int i = 1; i <= addresses; i++) {
            san.append(",ip:127.0.0.").append(i);
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
                "CN=Vigil Bench CA",
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
                san.toString(),
                "-validity",
                days);
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caCrt, "-keystore", server);
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", crt, "-keystore", server);
        return new BenchCertificates(Path.of(caCrt), Path.of(server));
    }

    /** The key managers of a PKCS#12 key store made by {@link #generate}. */
    static KeyManagerFactory keyManagers(Path keyStore) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        return kmf;
    }

    /** Trust in the bench CA alone: the bare reference client's. */
    TrustManagerFactory caOnly() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            trust.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf;
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", new String(PASSWORD), "-storetype", "PKCS12"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
