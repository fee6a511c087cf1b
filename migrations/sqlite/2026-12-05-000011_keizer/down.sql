DELETE FROM entry_absences WHERE kind IN ('excused', 'club_duty');
ALTER TABLE events DROP COLUMN keizer;
