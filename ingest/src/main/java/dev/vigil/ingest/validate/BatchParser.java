package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a request body into the JSON values of a batch: a JSON array, or NDJSON (one value per line,
 * blank lines ignored). Refuses the whole request (400) when the body is not well-formed and (413) when
 * it holds more events than allowed; deciding whether each value is a valid event is the validators' job.
 */
public final class BatchParser {
    private final int maxEvents;

    public BatchParser(int maxEvents) {
        this.maxEvents = maxEvents;
    }

    public List<JsonNode> jsonArray(byte[] body) {
        JsonNode root = tree(body, "the body is not valid JSON");
        if (!root.isArray()) {
            throw HttpProblem.badRequest("not-a-batch", "the body must be a JSON array of events");
        }
        checkCount(root.size());
        List<JsonNode> out = new ArrayList<>(root.size());
        root.forEach(out::add);
        return nonEmpty(out);
    }

    public List<JsonNode> ndjson(byte[] body) {
        List<JsonNode> out = new ArrayList<>();
        int line = 0;
        int start = 0;
        while (start <= body.length) {
            int end = indexOf(body, (byte) '\n', start);
            line++;
            int stop = end;
            if (stop > start && body[stop - 1] == '\r') {
                stop--;
            }
            if (!blank(body, start, stop)) {
                if (out.size() >= maxEvents) {
                    checkCount(out.size() + 1);
                }
                out.add(tree(Arrays.copyOfRange(body, start, stop), "line " + line + " is not valid JSON"));
            }
            start = end + 1;
        }
        return nonEmpty(out);
    }

    private List<JsonNode> nonEmpty(List<JsonNode> events) {
        if (events.isEmpty()) {
            throw HttpProblem.badRequest("empty-batch", "the batch holds no events");
        }
        return events;
    }

    private void checkCount(int n) {
        if (n > maxEvents) {
            throw new HttpProblem(
                    413, "too-many-events", "Too many events", "a batch may hold at most " + maxEvents + " events");
        }
    }

    private static JsonNode tree(byte[] bytes, String detail) {
        try {
            return Json.tree(bytes);
        } catch (ContractViolation e) {
            throw HttpProblem.badRequest("malformed-json", detail);
        }
    }

    private static int indexOf(byte[] b, byte v, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return b.length;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }
}
