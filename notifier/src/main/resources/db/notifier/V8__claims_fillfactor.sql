-- Vigil notifier schema, version 8. Statements are separated by lines holding only ';'.
-- A claim row is written twice: inserted when claimed, updated when settled (a column no index covers). With free
-- room left on each page the update can stay on the row's page (a heap-only tuple): no new entry in the primary
-- key's index, less for vacuum to clean. Applies to pages written from now on.
ALTER TABLE claims SET (fillfactor = 70)
