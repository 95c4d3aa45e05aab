package dev.vigil.streams.api;

import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * The conditional-write rules every managed value follows (monitors, alert rules), over {@link Revisions}:
 * {@code If-None-Match: *} creates only; {@code If-Match} must name the current revision (412 otherwise, with the
 * current one); a write that would change an existing value without {@code If-Match} is refused (428), so two editors
 * never silently overwrite each other; an identical body needs no condition.
 */
final class Preconditions {
    private Preconditions() {}

    /**
     * The refusal of a write to {@code what} ("monitor checkout") whose current revision is {@code current} (null: it
     * does not exist), or null when the write may go on. {@code changes}: whether the write would change the value;
     * {@code readPath}: where an editor reads the revision ({@code ETag}).
     */
    static HttpResult refusal(QueryRequest req, String what, String current, boolean changes, String readPath) {
        String ifNoneMatch = req.condition("If-None-Match");
        String ifMatch = req.condition("If-Match");
        if (ifNoneMatch != null && !Revisions.ifNoneMatch(ifNoneMatch, current)) {
            return stale(req, current, what + " already exists (If-None-Match: " + ifNoneMatch + ")");
        }
        if (ifMatch != null && !Revisions.ifMatch(ifMatch, current)) {
            return stale(
                    req,
                    current,
                    current == null
                            ? what + " does not exist (it was deleted, or never created)"
                            : what + " changed since revision " + ifMatch + "; it is now " + current
                                    + ": read it again and re-apply your edit");
        }
        if (ifMatch == null && current != null && changes) {
            return HttpResult.problem(
                            428,
                            "precondition-required",
                            "Precondition required",
                            what + " exists: send If-Match with the revision you edited (GET " + readPath
                                    + " gives it in ETag), so a change made meanwhile is not overwritten",
                            req.path(),
                            Map.of("currentRevision", current))
                    .withHeader("ETag", current);
        }
        return null;
    }

    /** The refusal of a delete of {@code what} whose revision is {@code current}, or null (If-Match is optional). */
    static HttpResult deleteRefusal(QueryRequest req, String what, String current) {
        String ifMatch = req.condition("If-Match");
        if (ifMatch != null && !Revisions.ifMatch(ifMatch, current)) {
            return stale(req, current, what + " changed since revision " + ifMatch + "; it is now " + current);
        }
        return null;
    }

    /** 412 naming the current revision (member {@code currentRevision} and {@code ETag}) when there is one. */
    static HttpResult stale(QueryRequest req, String current, String detail) {
        Map<String, Object> ext = new HashMap<>();
        if (current != null) {
            ext.put("currentRevision", current);
        }
        HttpResult r = HttpResult.problem(412, "precondition-failed", "Precondition failed", detail, req.path(), ext);
        return current == null ? r : r.withHeader("ETag", current);
    }

    /** 409: another request through this instance took the value between the check and the write. */
    static HttpResult concurrentChange(QueryRequest req, String what) {
        return HttpResult.problem(
                409,
                "concurrent-change",
                "Concurrent change",
                what + " was changed by another request just now; read it again and retry",
                req.path());
    }
}
