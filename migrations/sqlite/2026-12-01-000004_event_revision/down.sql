ALTER TABLE events DROP COLUMN revision;
