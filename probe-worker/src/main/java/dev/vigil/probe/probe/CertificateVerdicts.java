package dev.vigil.probe.probe;

import java.net.Socket;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The worker's trust manager, wrapped so a rejected server certificate says why: the JDK's exception messages
 * differ by provider and version, and "PKIX path building failed" tells an on-call person nothing. The wrapper
 * changes no decision: it delegates, and only on a refusal asks which part failed, in this order: validity of the
 * chain's certificates, the chain itself (without the host name), and so by elimination the host name.
 */
final class CertificateVerdicts extends X509ExtendedTrustManager {
    /** Why a server certificate was refused. */
    enum Reason {
        EXPIRED("certificate expired"),
        NOT_YET_VALID("certificate is not yet valid"),
        HOSTNAME_MISMATCH("hostname mismatch: the certificate is not for this host"),
        UNTRUSTED("untrusted chain: not issued by a CA this worker trusts");

        final String detail;

        Reason(String detail) {
            this.detail = detail;
        }
    }

    /** The refusal, carried through the handshake failure's causes to the probe. */
    static final class Rejected extends CertificateException {
        private static final long serialVersionUID = 1L;
        final transient Reason reason;
        final transient X509Certificate leaf;

        Rejected(Reason reason, X509Certificate leaf, CertificateException cause) {
            super(reason.detail, cause);
            this.reason = reason;
            this.leaf = leaf;
        }
    }

    private final X509ExtendedTrustManager delegate;

    CertificateVerdicts(X509ExtendedTrustManager delegate) {
        this.delegate = delegate;
    }

    /** Wraps the X.509 trust manager of {@code tmf}, or of the JDK's default trust when it is null. */
    static CertificateVerdicts of(TrustManagerFactory tmf) {
        try {
            TrustManagerFactory f = tmf;
            if (f == null) {
                f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                f.init((KeyStore) null);
            }
            for (TrustManager tm : f.getTrustManagers()) {
                if (tm instanceof X509ExtendedTrustManager x) {
                    return new CertificateVerdicts(x);
                }
            }
            throw new IllegalStateException("the trust store has no X.509 trust manager");
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's default trust store cannot be loaded", e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw new Rejected(reason(chain, authType, e), chain.length > 0 ? chain[0] : null, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw new Rejected(reason(chain, authType, e), chain.length > 0 ? chain[0] : null, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkServerTrusted(chain, authType);
    }

    private Reason reason(X509Certificate[] chain, String authType, CertificateException refusal) {
        if (chain.length > 0) {
            try {
                chain[0].checkValidity();
            } catch (CertificateExpiredException e) {
                return Reason.EXPIRED;
            } catch (CertificateNotYetValidException e) {
                return Reason.NOT_YET_VALID;
            }
        }
        // An intermediate out of its validity: the validator names it in the refusal's causes.
        for (Throwable t = refusal; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return Reason.EXPIRED;
            }
            if (t instanceof CertificateNotYetValidException) {
                return Reason.NOT_YET_VALID;
            }
        }
        try {
            // The chain alone, without endpoint identification: if it passes, only the host name can have failed.
            delegate.checkServerTrusted(chain, authType);
            return Reason.HOSTNAME_MISMATCH;
        } catch (CertificateException chainRefused) {
            return Reason.UNTRUSTED;
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        delegate.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        delegate.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
