-- Vigil notifier schema, version 3. Statements are separated by lines holding only ';'.
-- Where each incident came from, so a notice the notifier raises itself (an acknowledgement made in a vendor's
-- tool) carries the incident's own source. Rows written before this version have none and read as 'app'.
ALTER TABLE incidents ADD COLUMN IF NOT EXISTS source text
;
-- Finding Vigil's incident from a vendor's id for it (vendor_ids @> {"<channel>": "<id>"}): a vendor's webhook
-- names only its own id.
CREATE INDEX IF NOT EXISTS incidents_vendor_ids ON incidents USING gin (vendor_ids jsonb_path_ops)
