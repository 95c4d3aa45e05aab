package dev.vigil.ingest.validate;

/** An event that passed validation, with its index in the batch and its record key. */
public record Accepted<T>(int index, String key, T value) {}
