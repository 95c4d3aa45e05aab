package dev.vigil.probe.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.ErrorKind;
import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class ErrorKindsTest {
    @Test
    void mapsFailuresToTheContractsErrorKinds() {
        assertThat(ErrorKinds.classify(new TimeoutException(), true)).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(ErrorKinds.classify(new TimeoutException(), false)).isEqualTo(ErrorKind.CONNECT_TIMEOUT);
        assertThat(ErrorKinds.classify(new ConnectTimeoutException("x"), false)).isEqualTo(ErrorKind.CONNECT_TIMEOUT);
        assertThat(ErrorKinds.classify(new ConnectException("Connection refused"), false))
                .isEqualTo(ErrorKind.CONNECT_REFUSED);
        assertThat(ErrorKinds.classify(new UnknownHostException("x"), false)).isEqualTo(ErrorKind.DNS);
        assertThat(ErrorKinds.classify(new RuntimeException(new SSLHandshakeException("PKIX")), true))
                .isEqualTo(ErrorKind.TLS);
        assertThat(ErrorKinds.classify(new IOException("Connection reset by peer"), true))
                .isEqualTo(ErrorKind.RESET);
        assertThat(ErrorKinds.classify(new IllegalStateException("?"), true)).isEqualTo(ErrorKind.OTHER);
        assertThat(ErrorKinds.describe(new RuntimeException(new SSLHandshakeException("PKIX path for secret.example"))))
                .isEqualTo("SSLHandshakeException");
    }

    @Test
    void finalUrlDropsQueryFragmentAndCredentials() {
        assertThat(HttpProbe.finalUrl("https://Example.com:8443/a/b?token=1#x"))
                .isEqualTo("https://example.com:8443/a/b");
        assertThat(HttpProbe.finalUrl("http://[::1]:80/")).isEqualTo("http://[::1]:80/");
        assertThat(HttpProbe.finalUrl("not a url")).isNull();
        // Personal data in the path is redacted so the result passes the privacy guard (and ingest).
        String redacted = HttpProbe.finalUrl("https://example.com/users/jane.doe@example.com/profile?x=1");
        assertThat(redacted).isEqualTo("https://example.com/users/{redacted}/profile");
        assertThat(dev.vigil.schemas.validate.PrivacyGuard.check("finalUrl", redacted))
                .isEmpty();
    }
}
