-- Games recorded move by move. The rules are a snapshot taken when the game is created
-- (an event's local rules may change later; a game keeps the rules it was played under).
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    variant TEXT NOT NULL,
    -- The local rules as JSON, as events.local_rules.
    local_rules TEXT NOT NULL,
    -- The start position (FEN); every stored move is replayed from it.
    start_fen TEXT NOT NULL,
    white_player_id BIGINT NOT NULL REFERENCES players(id),
    black_player_id BIGINT NOT NULL REFERENCES players(id),
    -- An event game belongs to one board of a published round; a standalone game to none.
    event_id BIGINT REFERENCES events(id) ON DELETE CASCADE,
    pairing_id BIGINT UNIQUE REFERENCES pairings(id),
    rated BOOLEAN NOT NULL,
    draw_offer_min_moves INTEGER NOT NULL,
    -- `ongoing` or `finished`.
    status TEXT NOT NULL,
    -- `1-0`, `0-1`, `1/2-1/2` once finished.
    result TEXT,
    -- Why it finished: `no_legal_moves`, `resignation`, `agreement`, an automatic draw,
    -- `arbiter`.
    reason TEXT,
    -- Plies stored in game_moves (kept here so lists need not count them).
    ply INTEGER NOT NULL,
    -- The last draw offer: the side that made it (`white`/`black`), after which ply, and
    -- whether it still stands.
    draw_offer_by TEXT,
    draw_offer_ply INTEGER,
    draw_offer_pending BOOLEAN NOT NULL,
    -- Bumped by every write to the game: the first statement of a move's transaction, so
    -- that it holds the game's row lock on PostgreSQL.
    revision BIGINT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP
);
CREATE INDEX games_white ON games(white_player_id);
CREATE INDEX games_black ON games(black_player_id);
CREATE INDEX games_event ON games(event_id);

-- One row per ply. The primary key decides a race between two submissions for one ply.
CREATE TABLE game_moves (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    -- Canonical notation of the variant (the engine's spelling).
    notation TEXT NOT NULL,
    submitted_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    played_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- What arbiters did to a game: a result set or cleared, a ply taken back.
CREATE TABLE game_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    changed_at TIMESTAMP NOT NULL,
    -- `result` or `takeback`.
    action TEXT NOT NULL,
    -- takeback: the ply and the move removed; result: the old and new result and reason.
    ply INTEGER,
    notation TEXT,
    old_result TEXT,
    new_result TEXT,
    reason TEXT
);
CREATE INDEX game_changes_game ON game_changes(game_id);
