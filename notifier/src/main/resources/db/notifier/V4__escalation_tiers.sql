-- Vigil notifier schema, version 4. Statements are separated by lines holding only ';'.
-- Escalation tiers: one row per incident and tier, written when the incident's first page is routed, so the climb
-- survives restarts and is shared by every instance. A row is claimed by one instance at a time (owner and lease),
-- then marked fired or cancelled (acknowledged, resolved). The page is kept only until then.
CREATE TABLE IF NOT EXISTS escalation_tiers (
    incident_id  text        NOT NULL,
    fingerprint  text        NOT NULL,
    tier         integer     NOT NULL,
    tiers        integer     NOT NULL,
    channels     text[]      NOT NULL,
    due_at       timestamptz NOT NULL,
    page         text,
    status       text        NOT NULL CHECK (status IN ('pending', 'fired', 'cancelled')),
    owner        text,
    lease_until  timestamptz,
    fired_at     timestamptz,
    cancelled_by text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (incident_id, fingerprint, tier)
)
;
CREATE INDEX IF NOT EXISTS escalation_tiers_due ON escalation_tiers (due_at) WHERE status = 'pending'
