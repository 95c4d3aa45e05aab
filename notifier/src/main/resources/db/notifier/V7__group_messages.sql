-- Vigil notifier schema, version 7. Statements are separated by lines holding only ';'.
-- The group message a chat delivery went out in: every event a grouped route's wait gathered for one channel keeps
-- its own claim, and the claims and attempts settled by one group message name it, so the events a message carried
-- (and which message carried an event) can be read back. Null for an event sent in a message of its own.
ALTER TABLE claims ADD COLUMN IF NOT EXISTS group_id text
;
ALTER TABLE delivery_attempts ADD COLUMN IF NOT EXISTS group_id text
;
CREATE INDEX IF NOT EXISTS delivery_attempts_group ON delivery_attempts (group_id) WHERE group_id IS NOT NULL
