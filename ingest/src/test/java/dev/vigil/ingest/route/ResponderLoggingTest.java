package dev.vigil.ingest.route;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** An unexpected failure is logged by its classes only: no message, no stack trace that could carry a secret. */
class ResponderLoggingTest {
    private static final String SECRET = "ck_live_secret_0123456789abcdef";
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Responder.class);

    @BeforeEach
    void attach() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(logs);
    }

    @Test
    void anUnexpectedFailureQuotingABodyATokenAndAUrlIsLoggedWithoutThem() {
        var cause = new UncheckedIOException(
                "GET /v1/heartbeat/x?token=" + SECRET,
                new java.io.IOException("body was {\"key\":\"" + SECRET + "\"}"));
        Responder.logUnexpected("/v1/metrics", new IllegalStateException("Authorization: Bearer " + SECRET, cause));

        assertThat(logs.list).hasSize(1);
        ILoggingEvent event = logs.list.get(0);
        assertThat(event.getFormattedMessage())
                .contains("/v1/metrics", "IllegalStateException", "UncheckedIOException", "IOException")
                .doesNotContain(SECRET, "token=", "Bearer");
        assertThat(event.getThrowableProxy())
                .as("no stack trace with the chain's messages")
                .isNull();
    }

    @Test
    void aCyclicCauseChainEnds() {
        IllegalStateException a = new IllegalStateException(SECRET);
        IllegalArgumentException b = new IllegalArgumentException(SECRET, a);
        a.initCause(b);
        assertThat(SafeFailure.describe(a)).doesNotContain(SECRET).contains("IllegalArgumentException");
    }
}
