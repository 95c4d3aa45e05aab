package dev.vigil.streams.health;

/**
 * A worker's health as the heartbeat processor just wrote it: on each new heartbeat, and when the punctuator finds it
 * moved on.
 *
 * @param changed whether the health class (healthy, warn, stale, dead) differs from the one written before
 */
public record WorkerHealthUpdate(WorkerHealth health, boolean changed) {}
