DROP TABLE site_changes;
ALTER TABLE clubs DROP COLUMN archived_at;
ALTER TABLE players DROP COLUMN archived_at;
ALTER TABLE events DROP COLUMN archived_at;
