-- Keizer events (issue 28): the event's Keizer options as a JSON object by the API's names
-- (`{}`: every option at its default). Other systems ignore it.
ALTER TABLE events ADD COLUMN keizer TEXT NOT NULL DEFAULT '{}';
-- `entry_absences.kind` now also holds a Keizer event's `excused` and `club_duty`.
