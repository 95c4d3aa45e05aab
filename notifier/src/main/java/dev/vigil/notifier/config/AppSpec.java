package dev.vigil.notifier.config;

import java.util.List;

/**
 * What one application (keyed by its app id, as in ingest's {@code apiKeys}) may ask for in routing YAML.
 *
 * @param channels the channels the app's events may name in a channel override; any other name in an override
 *                 is dropped (an app must not page through channels the operator did not grant it)
 */
public record AppSpec(List<String> channels) {
    public AppSpec {
        // a copy that keeps null elements, so the validator can report them instead of this record throwing
        channels = channels == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(channels));
    }
}
