DROP TABLE result_changes;
DROP TABLE pairings;
DROP TABLE rounds;
DROP TABLE forbidden_pairs;
DROP TABLE entry_absences;
DROP TABLE entries;
DROP TABLE event_arbiters;
DROP TABLE events;
