package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;

/** The verdict processor's one input type: its two co-partitioned topics, told apart by type, not by topic name. */
public sealed interface VerdictInput {

    /** A record of {@code vigil.monitors}: a definition, or null for a deleted monitor (a tombstone). */
    record Definition(MonitorDefinition definition) implements VerdictInput {}

    /** A record of {@code vigil.probe-results}: a result, or null for a tombstone (which the topic must not carry). */
    record Result(ProbeResult result) implements VerdictInput {}
}
