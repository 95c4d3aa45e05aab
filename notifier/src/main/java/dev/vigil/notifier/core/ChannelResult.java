package dev.vigil.notifier.core;

public record ChannelResult(String channel, FinalOutcome outcome, int attempts, String reason) {}
