package dev.vigil.notifier.core;

import java.util.List;

/**
 * Where one event goes and why ({@code reason} names the override, route or default that decided it, for logs
 * and tests).
 */
public record RouteDecision(List<String> channels, String reason) {
    public RouteDecision {
        channels = List.copyOf(channels);
    }
}
