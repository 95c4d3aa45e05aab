-- Vigil notifier schema, version 6. Statements are separated by lines holding only ';'.
-- Who held a claim before this one took it over because its lease ran out unsettled (a notifier that died or hung
-- mid-send); null when the claim was new, released after a failed send, or reopened after the dedupe window. The
-- claim statement returns it, so the notifier that resends the delivery can count the recovery.
ALTER TABLE claims ADD COLUMN IF NOT EXISTS taken_over_from text
