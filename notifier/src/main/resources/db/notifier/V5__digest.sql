-- Vigil notifier schema, version 5. Statements are separated by lines holding only ';'.
-- What a digest channel recorded instead of sending: one row per (event, digest channel), read when the daily
-- digest is composed. Only the fields the digest shows are kept.
CREATE TABLE IF NOT EXISTS digest_entries (
    event_id    text        NOT NULL,
    channel     text        NOT NULL,
    fingerprint text        NOT NULL,
    incident_id text        NOT NULL,
    service     text        NOT NULL,
    severity    text        NOT NULL,
    state       text        NOT NULL,
    summary     text        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, channel)
)
;
CREATE INDEX IF NOT EXISTS digest_entries_recorded ON digest_entries (recorded_at)
;
-- One row per digest day, written by a notifier running before the day's digest time (the digest is owed) and
-- claimed by the instance that composes and sends it: a live lease keeps the other instances off, sent_at keeps a
-- restart from sending it again.
CREATE TABLE IF NOT EXISTS digests (
    day         date        PRIMARY KEY,
    owner       text,
    claimed_at  timestamptz,
    lease_until timestamptz,
    sent_at     timestamptz,
    channels    text[]
)
