package dev.vigil.notifier.config;

import java.util.List;

/**
 * What one application (keyed by its app id, as in ingest's {@code apiKeys}) may ask for in routing YAML.
 *
 * @param channels the channels the app's events may name in a channel override; any other name in an override
 *                 is dropped (an app must not page through channels the operator did not grant it)
 * @param services the services the app may speak for: only for an event whose {@code service} is listed here may
 *                 a route with {@code services} or {@code attributes} matchers match the app's event (absent or
 *                 empty: only routes without those matchers, then the severity defaults, apply to its events)
 */
public record AppSpec(List<String> channels, List<String> services, List<String> monitors) {
    /** An app that links its pages to no monitor. */
    public AppSpec(List<String> channels, List<String> services) {
        this(channels, services, null);
    }

    public AppSpec {
        // copies that keep null elements, so the validator can report them instead of this record throwing
        channels = channels == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(channels));
        services = services == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(services));
        monitors = monitors == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(monitors));
    }
}
