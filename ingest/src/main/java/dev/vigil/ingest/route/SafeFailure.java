package dev.vigil.ingest.route;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What a log line may say about an exception: the classes of its cause chain and where the outermost one was thrown,
 * never a message. Messages of parsers, clients and Netty quote their input (a request body, a header, a URL with its
 * query string, a token), and a stack trace printed by the logger would carry every message of the chain.
 */
public final class SafeFailure {
    private static final int MAX_CAUSES = 5;

    private SafeFailure() {}

    /** e.g. {@code IllegalStateException at dev.vigil.ingest.route.X.y:42 <- IOException}. */
    public static String describe(Throwable e) {
        if (e == null) {
            return "unknown failure";
        }
        StringBuilder out = new StringBuilder(e.getClass().getName());
        StackTraceElement[] trace = e.getStackTrace();
        if (trace.length > 0) {
            StackTraceElement top = trace[0];
            out.append(" at ").append(top.getClassName()).append('.').append(top.getMethodName());
            if (top.getLineNumber() > 0) {
                out.append(':').append(top.getLineNumber());
            }
        }
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        seen.put(e, true);
        Throwable cause = e.getCause();
        for (int i = 0; cause != null && i < MAX_CAUSES && seen.put(cause, true) == null; i++) {
            out.append(" <- ").append(cause.getClass().getName());
            cause = cause.getCause();
        }
        return out.toString();
    }
}
