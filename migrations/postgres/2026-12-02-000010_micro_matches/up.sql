-- Micro-matches and opening ballots (issue 15): a pairing may play two games with colours
-- swapped, each from an opening drawn by lot from a table the event names.

-- Games per pairing: 1, or 2 (a micro-match; the second game with colours swapped).
ALTER TABLE events ADD COLUMN games_per_pairing INTEGER NOT NULL DEFAULT 1;
-- How a micro-match scores: `game_points` (the games' points summed) or `match_points`
-- (2 for the match won, 1 drawn, 0 lost).
ALTER TABLE events ADD COLUMN match_scoring TEXT NOT NULL DEFAULT 'game_points';
-- The opening ballot: `none`, `idf64`, `fmjd64`, `basic150`, `english3` or `custom`.
ALTER TABLE events ADD COLUMN opening_ballot TEXT NOT NULL DEFAULT 'none';
-- `pairing`: every board draws its own opening; `round`: one opening for every board.
ALTER TABLE events ADD COLUMN ballot_per TEXT NOT NULL DEFAULT 'pairing';
-- The organiser's own table (`custom`): one opening a line, moves or a FEN.
ALTER TABLE events ADD COLUMN custom_openings TEXT NOT NULL DEFAULT '';

-- The seed the round's openings were drawn with, so the draw can be repeated and checked.
ALTER TABLE rounds ADD COLUMN ballot_seed BIGINT;

-- The opening drawn for the board, as it was when drawn (a later change of the table does
-- not rewrite history): its place in the table, its code, its moves (canonical notation,
-- space-separated), the position it starts from when that is not the initial one, and the
-- position after its moves.
ALTER TABLE pairings ADD COLUMN opening_index INTEGER;
ALTER TABLE pairings ADD COLUMN opening_code TEXT;
ALTER TABLE pairings ADD COLUMN opening_moves TEXT;
ALTER TABLE pairings ADD COLUMN opening_start_fen TEXT;
ALTER TABLE pairings ADD COLUMN opening_fen TEXT;

-- Which game of its pairing a game is: 1, or 2 for a micro-match's return game.
ALTER TABLE games ADD COLUMN game_no INTEGER NOT NULL DEFAULT 1;
-- How many of its first plies are the drawn opening's (nobody's moves: not taken back,
-- and they do not make a game "played" that is still only set up).
ALTER TABLE games ADD COLUMN opening_plies INTEGER NOT NULL DEFAULT 0;
-- A board has one game or two: unique per game number, no longer alone.
ALTER TABLE games DROP CONSTRAINT games_pairing_id_key;
ALTER TABLE games ADD CONSTRAINT games_pairing_game UNIQUE (pairing_id, game_no);

-- Each game's own result in a micro-match, in that game's colours (its White first). The
-- pairing's `result` holds the collapsed result once every game has one.
CREATE TABLE pairing_games (
    pairing_id BIGINT NOT NULL REFERENCES pairings(id) ON DELETE CASCADE,
    game_no INTEGER NOT NULL,
    result TEXT,
    PRIMARY KEY (pairing_id, game_no)
);

-- A result change names the game of a micro-match it was made in (NULL: the pairing).
ALTER TABLE result_changes ADD COLUMN game_no INTEGER;
