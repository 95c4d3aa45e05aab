package dev.vigil.notifier.core;

import java.util.List;

public record EventResult(String eventId, RouteDecision route, List<ChannelResult> channels) {
    public EventResult {
        channels = List.copyOf(channels);
    }
}
