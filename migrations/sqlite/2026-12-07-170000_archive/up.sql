-- Archiving and deleting events, profiles and clubs (issue 27). What holds records others
-- rely on (rated results, games, entries) is archived instead of deleted: hidden from the
-- lists and closed to changes, kept whole, and restorable.
ALTER TABLE events ADD COLUMN archived_at TIMESTAMP;
ALTER TABLE players ADD COLUMN archived_at TIMESTAMP;
ALTER TABLE clubs ADD COLUMN archived_at TIMESTAMP;

-- The site's trail of archivings, restorings and deletions. It names its subject by kind,
-- id and name instead of a foreign key: a deleted subject's row stays.
CREATE TABLE site_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    changed_at TIMESTAMP NOT NULL,
    user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    -- `event`, `player` or `club`.
    subject TEXT NOT NULL,
    subject_id BIGINT NOT NULL,
    subject_name TEXT NOT NULL,
    -- `archived`, `restored` or `deleted`.
    action TEXT NOT NULL
);
CREATE INDEX site_changes_subject ON site_changes(subject, subject_id);
