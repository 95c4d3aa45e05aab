package dev.vigil.schemas.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;

/**
 * Where the published JSON Schema (2020-12) of each wire contract lives. The schema files are the source of
 * truth; the records in this package mirror them (golden tests hold the two together). Each schema is a
 * classpath resource at {@code vigil/schemas/v1/<name>.schema.json} and carries the {@code $id}
 * {@code https://vigil.dev/schemas/v1/<name>.schema.json}.
 */
public final class ContractSchemas {
    /** Classpath folder of the schema files (no leading slash, for {@link ClassLoader#getResource}). */
    public static final String RESOURCE_DIR = "vigil/schemas/v1/";
    /** Base of every schema's {@code $id}. */
    public static final String ID_BASE = "https://vigil.dev/schemas/v1/";

    public static final String SUFFIX = ".schema.json";

    /** One contract: its record class and its schema's file name stem (e.g. {@code probe-result}). */
    public record Contract(Class<? extends Record> type, String name) {
        /** Classpath resource path, e.g. {@code vigil/schemas/v1/probe-result.schema.json}. */
        public String resourcePath() {
            return RESOURCE_DIR + name + SUFFIX;
        }

        /** The schema's {@code $id}. */
        public URI id() {
            return URI.create(ID_BASE + name + SUFFIX);
        }

        /** Opens the schema resource; the caller closes the stream. */
        public InputStream open() {
            InputStream in = ContractSchemas.class.getClassLoader().getResourceAsStream(resourcePath());
            if (in == null) {
                throw new UncheckedIOException(new IOException("schema resource missing: " + resourcePath()));
            }
            return in;
        }
    }

    private static final List<Contract> ALL = List.of(
            new Contract(MonitorDefinition.class, "monitor-definition"),
            new Contract(ProbeResult.class, "probe-result"),
            new Contract(WorkerHeartbeat.class, "worker-heartbeat"),
            new Contract(DomainMetric.class, "domain-metric"),
            new Contract(MonitorStatus.class, "monitor-status"),
            new Contract(AlertRule.class, "alert-rule"),
            new Contract(AlertEvent.class, "alert-event"),
            new Contract(DeadLetter.class, "dead-letter"),
            new Contract(RegionStatus.class, "region-status"));

    private ContractSchemas() {}

    /** Every top-level contract, in a fixed order (docs/design.md#topics-and-stores). */
    public static List<Contract> all() {
        return ALL;
    }

    /** The contract of a record class. */
    public static Contract of(Class<?> type) {
        for (Contract c : ALL) {
            if (c.type() == type) {
                return c;
            }
        }
        throw new IllegalArgumentException("not a top-level contract: " + type.getName());
    }

    /** The contract with this schema name, e.g. {@code probe-result}. */
    public static Contract named(String name) {
        for (Contract c : ALL) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no contract named " + name);
    }

    /** Classpath resource path of the schema of a record class. */
    public static String resourcePath(Class<?> type) {
        return of(type).resourcePath();
    }
}
