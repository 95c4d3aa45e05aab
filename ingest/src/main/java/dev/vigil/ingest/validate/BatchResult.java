package dev.vigil.ingest.validate;

import java.util.ArrayList;
import java.util.List;

/** A validated batch: what may be published and what was rejected, each by batch index. */
public record BatchResult<T>(List<Accepted<T>> accepted, List<Rejection> rejected) {
    public BatchResult {
        accepted = List.copyOf(accepted);
        rejected = List.copyOf(rejected);
    }

    /** Mutable collector for validators. */
    public static final class Builder<T> {
        private final List<Accepted<T>> accepted = new ArrayList<>();
        private final List<Rejection> rejected = new ArrayList<>();

        public void accept(int index, String key, T value) {
            accepted.add(new Accepted<>(index, key, value));
        }

        public void reject(Rejection r) {
            rejected.add(r);
        }

        public BatchResult<T> build() {
            return new BatchResult<>(accepted, rejected);
        }
    }
}
