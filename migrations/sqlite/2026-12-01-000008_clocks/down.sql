ALTER TABLE game_moves DROP COLUMN clock_ms;
DROP INDEX games_deadline;
ALTER TABLE games DROP COLUMN deadline;
ALTER TABLE games DROP COLUMN black_ms;
ALTER TABLE games DROP COLUMN white_ms;
ALTER TABLE games DROP COLUMN clock;
ALTER TABLE events DROP COLUMN clock;
