ALTER TABLE result_changes DROP COLUMN game_no;
DROP TABLE pairing_games;
-- The games table is not rebuilt with its old single-column UNIQUE: return games go, and
-- the two new columns stay unused.
DELETE FROM games WHERE game_no > 1;
ALTER TABLE pairings DROP COLUMN opening_fen;
ALTER TABLE pairings DROP COLUMN opening_start_fen;
ALTER TABLE pairings DROP COLUMN opening_moves;
ALTER TABLE pairings DROP COLUMN opening_code;
ALTER TABLE pairings DROP COLUMN opening_index;
ALTER TABLE rounds DROP COLUMN ballot_seed;
ALTER TABLE events DROP COLUMN custom_openings;
ALTER TABLE events DROP COLUMN ballot_per;
ALTER TABLE events DROP COLUMN opening_ballot;
ALTER TABLE events DROP COLUMN match_scoring;
ALTER TABLE events DROP COLUMN games_per_pairing;
