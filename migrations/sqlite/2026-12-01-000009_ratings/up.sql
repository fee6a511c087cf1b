-- Ratings computed from played results (issue 12). Everything in `ratings` and
-- `rating_changes` is derived: `damka ratings recompute` rebuilds it from the results,
-- the starting ratings (`player_ratings` for Elo, `glicko2_starts` for Glicko-2) and the
-- birth years, and every result change recomputes its variant. So `event_id` and
-- `game_id` say what caused a change without being foreign keys: a deleted event or game
-- is gone from the next recompute.

-- A player's current rating per variant and system (`elo` or `glicko2`).
CREATE TABLE ratings (
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    system TEXT NOT NULL,
    -- NULL for an Elo player still short of a first rating (fewer than 5 counted games).
    rating DOUBLE,
    -- Glicko-2's RD and volatility; NULL for Elo.
    deviation DOUBLE,
    volatility DOUBLE,
    games INTEGER NOT NULL,
    provisional BOOLEAN NOT NULL,
    last_played TIMESTAMP,
    -- The player's steps in rating_changes and a digest of them (FNV-1a over every field),
    -- so that a recompute after one result reads these rows, not every history, to find
    -- the histories it must rewrite.
    history_steps INTEGER NOT NULL,
    history_digest BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant, system)
);
CREATE INDEX ratings_list ON ratings(variant, system, rating);

-- Every step of a rating: a Glicko-2 game, or an Elo period (an event, a month of
-- standalone games), numbered per player, variant and system in the order computed.
CREATE TABLE rating_changes (
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    system TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at TIMESTAMP NOT NULL,
    rating_before DOUBLE,
    rating_after DOUBLE,
    deviation DOUBLE,
    volatility DOUBLE,
    games INTEGER NOT NULL,
    event_id BIGINT,
    game_id BIGINT,
    -- Elo: the performance over the period's counted games.
    performance INTEGER,
    step_games INTEGER NOT NULL,
    step_half_points INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant, system, seq)
);
CREATE INDEX rating_changes_event ON rating_changes(event_id);

-- A Glicko-2 rating a player arrived with (an imported list); the Elo one is
-- `player_ratings`, which TRF imports have always filled with the federation rating.
CREATE TABLE glicko2_starts (
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating DOUBLE NOT NULL,
    deviation DOUBLE NOT NULL,
    volatility DOUBLE NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);

-- One row per variant, bumped by the first statement of every recompute: on PostgreSQL it
-- holds the row lock, so two recomputes of a variant (results entered in two events at
-- once, or the command line) take turns and the second sees what the first wrote.
CREATE TABLE rating_variants (
    variant TEXT PRIMARY KEY NOT NULL,
    revision BIGINT NOT NULL
);
INSERT INTO rating_variants (variant, revision) VALUES
    ('russian', 0), ('english', 0), ('international', 0), ('brazilian', 0);
