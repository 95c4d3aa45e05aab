-- Vigil notifier schema, version 1. Statements are separated by lines holding only ';'.
CREATE TABLE IF NOT EXISTS claims (
    event_id    text        NOT NULL,
    channel     text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('claimed', 'delivered', 'dead', 'released')),
    token       text,
    owner       text,
    claimed_at  timestamptz NOT NULL,
    lease_until timestamptz NOT NULL,
    settled_at  timestamptz,
    attempts    integer     NOT NULL DEFAULT 0,
    folded      integer     NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, channel)
)
;
CREATE TABLE IF NOT EXISTS incidents (
    incident_id     text        PRIMARY KEY,
    fingerprint     text        NOT NULL,
    service         text        NOT NULL,
    severity        text        NOT NULL,
    state           text        NOT NULL,
    first_seen      timestamptz NOT NULL,
    last_seen       timestamptz NOT NULL,
    occurrences     integer     NOT NULL,
    events          integer     NOT NULL DEFAULT 1,
    silenced_events integer     NOT NULL DEFAULT 0,
    vendor_ids      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    updated_at      timestamptz NOT NULL DEFAULT now()
)
;
CREATE INDEX IF NOT EXISTS incidents_fingerprint ON incidents (fingerprint)
;
CREATE TABLE IF NOT EXISTS delivery_attempts (
    id          bigserial   PRIMARY KEY,
    event_id    text        NOT NULL,
    incident_id text,
    channel     text        NOT NULL,
    attempt     integer     NOT NULL,
    outcome     text        NOT NULL,
    http_status integer,
    latency_ms  bigint,
    error       text,
    at          timestamptz NOT NULL DEFAULT now()
)
;
CREATE INDEX IF NOT EXISTS delivery_attempts_event ON delivery_attempts (event_id, channel)
