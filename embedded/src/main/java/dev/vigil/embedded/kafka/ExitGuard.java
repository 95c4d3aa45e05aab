package dev.vigil.embedded.kafka;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.utils.internals.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an in-process broker from ending the JVM: on a fatal error the broker calls {@code Exit.exit/halt},
 * which would otherwise take the tests or the standalone launcher down with it. The procedures are
 * JVM-wide, so they are installed once and never reset.
 */
final class ExitGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ExitGuard.class);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private ExitGuard() {}

    static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        Exit.setExitProcedure((status, message) -> refuse("exit", status, message));
        Exit.setHaltProcedure((status, message) -> refuse("halt", status, message));
    }

    private static void refuse(String kind, int status, String message) {
        LOG.error("Kafka requested JVM {}({}) ({}); refused because the broker is embedded", kind, status, message);
        throw new EmbeddedExitRefusedException(kind, status, message);
    }

    /** Thrown instead of ending the JVM, so the calling broker thread stops instead of the whole process. */
    static final class EmbeddedExitRefusedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        EmbeddedExitRefusedException(String kind, int status, String message) {
            super("Kafka requested JVM " + kind + "(" + status + "): " + message + " — refused (embedded broker)");
        }
    }
}
