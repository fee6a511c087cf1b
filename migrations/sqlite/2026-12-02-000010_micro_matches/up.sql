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

-- A board now has one game or two, so `games.pairing_id` is unique per game number, not
-- alone. SQLite cannot drop a column's UNIQUE, so the table is made anew; migrations run
-- with foreign keys on and inside a transaction, where they cannot be switched off, so
-- dropping the old table deletes the rows that reference it (their ON DELETE CASCADE):
-- game_moves and game_changes are kept aside and put back, ids and all.
CREATE TABLE games_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    variant TEXT NOT NULL,
    local_rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    white_player_id BIGINT NOT NULL REFERENCES players(id),
    black_player_id BIGINT NOT NULL REFERENCES players(id),
    event_id BIGINT REFERENCES events(id) ON DELETE CASCADE,
    pairing_id BIGINT REFERENCES pairings(id),
    rated BOOLEAN NOT NULL,
    draw_offer_min_moves INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    ply INTEGER NOT NULL,
    draw_offer_by TEXT,
    draw_offer_ply INTEGER,
    draw_offer_pending BOOLEAN NOT NULL,
    revision BIGINT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    clock TEXT NOT NULL DEFAULT 'none',
    white_ms BIGINT,
    black_ms BIGINT,
    deadline TIMESTAMP,
    -- Which game of its pairing a game is: 1, or 2 for a micro-match's return game.
    game_no INTEGER NOT NULL DEFAULT 1,
    -- How many of its first plies are the drawn opening's (nobody's moves: not taken
    -- back, and they do not make a game "played" that is still only set up).
    opening_plies INTEGER NOT NULL DEFAULT 0,
    UNIQUE (pairing_id, game_no)
);
INSERT INTO games_new (id, variant, local_rules, start_fen, white_player_id, black_player_id,
    event_id, pairing_id, rated, draw_offer_min_moves, status, result, reason, ply,
    draw_offer_by, draw_offer_ply, draw_offer_pending, revision, created_by, created_at,
    finished_at, clock, white_ms, black_ms, deadline)
SELECT id, variant, local_rules, start_fen, white_player_id, black_player_id,
    event_id, pairing_id, rated, draw_offer_min_moves, status, result, reason, ply,
    draw_offer_by, draw_offer_ply, draw_offer_pending, revision, created_by, created_at,
    finished_at, clock, white_ms, black_ms, deadline
FROM games;
-- Ids are never given twice (AUTOINCREMENT): the new table goes on from the old count.
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'games')
    WHERE name = 'games_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'games');
CREATE TEMP TABLE kept_game_moves AS SELECT * FROM game_moves;
CREATE TEMP TABLE kept_game_changes AS SELECT * FROM game_changes;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
INSERT INTO game_moves SELECT * FROM kept_game_moves;
INSERT INTO game_changes SELECT * FROM kept_game_changes;
DROP TABLE kept_game_moves;
DROP TABLE kept_game_changes;
CREATE INDEX games_white ON games(white_player_id);
CREATE INDEX games_black ON games(black_player_id);
CREATE INDEX games_event ON games(event_id);
CREATE INDEX games_deadline ON games(deadline);

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
