package dev.vigil.schemas.contract;

import java.util.Map;

/**
 * One change someone made, as appended to {@code vigil.audit} (keyed by {@code target}): who ({@code actor}, a
 * token's name), what ({@code action} such as {@code silence.created}, on {@code target}), when ({@code at}, epoch
 * ms), from which address, and a few bounded details (never a secret: tokens and keys are not audited values).
 */
public record AuditRecord(
        Integer schemaVersion,
        String id,
        Long at,
        String actor,
        String action,
        String target,
        String remoteAddress,
        Map<String, String> details) {
    public AuditRecord {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        Require.text("id", id, 64);
        Require.atLeast("at", Require.present("at", at), 0);
        Require.text("actor", actor, 100);
        Require.text("action", action, 64);
        Require.text("target", target, 300);
        remoteAddress = remoteAddress == null ? "" : remoteAddress;
        details = Require.stringMap("details", details, 16, 64, 512);
    }
}
