package dev.vigil.ingest.auth;

/** The signing headers of a probe-worker request. Any of them may be null when absent. */
public record SignedRequest(String keyId, String timestamp, String requestId, String region, String signature) {}
