-- Vigil notifier schema, version 2. Statements are separated by lines holding only ';'.
-- What each delivery attempt was about, so a resolution finds the channels its incident's pages reached (a silence
-- never eats a resolution). Rows written before this version have neither and count as no page.
ALTER TABLE delivery_attempts ADD COLUMN IF NOT EXISTS fingerprint text
;
ALTER TABLE delivery_attempts ADD COLUMN IF NOT EXISTS state text
;
CREATE INDEX IF NOT EXISTS delivery_attempts_delivered_incident ON delivery_attempts (incident_id)
    WHERE outcome = 'delivered'
;
-- The notifier/delivery-failing/<channel> alert each channel has open: kept when a delivery to the channel is
-- dead-lettered, removed when the channel's next successful delivery has raised its resolution.
CREATE TABLE IF NOT EXISTS failing_channels (
    channel     text        PRIMARY KEY,
    fingerprint text        NOT NULL,
    incident_id text        NOT NULL,
    first_seen  bigint      NOT NULL,
    recipients  text[]      NOT NULL,
    opened_at   timestamptz NOT NULL DEFAULT now()
)
