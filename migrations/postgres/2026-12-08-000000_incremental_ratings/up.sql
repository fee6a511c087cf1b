-- Ratings at federation scale (issue 31): a change refolds the ratings from the first
-- instant it affects, from the stored states before it, instead of recomputing the
-- variant from scratch inside every write.

-- The results that count, one row each, as the from-scratch gather derives them from the
-- boards, micro-match games and standalone games: the fold's input, kept current by every
-- write that changes what counts, so that a refold reads the results after an instant
-- through an index instead of every result of the variant.
CREATE TABLE rated_results (
    variant TEXT NOT NULL,
    -- FALSE: a board or micro-match game of a rated event (source_id is the pairing);
    -- TRUE: a rated game outside any event (source_id is the game).
    standalone BOOLEAN NOT NULL,
    source_id BIGINT NOT NULL,
    -- The micro-match game (1, 2, ...); 0 for a board of one game or a standalone game.
    game_no INTEGER NOT NULL,
    -- When the result became final: the fold's order.
    at TIMESTAMP NOT NULL,
    event_id BIGINT,
    game_id BIGINT,
    white_id BIGINT NOT NULL,
    black_id BIGINT NOT NULL,
    -- White's score: 0, 1 or 2 half-points.
    white_half_points INTEGER NOT NULL,
    PRIMARY KEY (variant, standalone, source_id, game_no)
);
CREATE INDEX rated_results_at ON rated_results(variant, at);
CREATE INDEX rated_results_event ON rated_results(event_id);
CREATE INDEX rated_results_white ON rated_results(white_id);
CREATE INDEX rated_results_black ON rated_results(black_id);

-- Each step carries where it stands in the fold (period_at: the result's instant for
-- Glicko-2, the instant of the period's last result for Elo), the whole Elo state after it
-- (a refold starts from it) and the running digest of the history up to it.
ALTER TABLE rating_changes ADD COLUMN period_at TIMESTAMP NOT NULL DEFAULT '1970-01-01 00:00:00';
ALTER TABLE rating_changes ADD COLUMN elo_reached_2400 BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE rating_changes ADD COLUMN elo_unrated_opponents BIGINT;
ALTER TABLE rating_changes ADD COLUMN elo_unrated_half_points INTEGER;
ALTER TABLE rating_changes ADD COLUMN digest BIGINT NOT NULL DEFAULT 0;
CREATE INDEX rating_changes_period ON rating_changes(variant, system, period_at);
-- A player's last step before an instant (where a refold starts for them), and an Elo
-- period's steps (an event's, or a month's of standalone games: event_id NULL, by `at`):
-- with every column the queries name, so that SQLite never prefers the variant-wide index.
CREATE INDEX rating_changes_player_period ON rating_changes(player_id, variant, system, period_at);
DROP INDEX rating_changes_event;
CREATE INDEX rating_changes_event ON rating_changes(event_id, variant, system, at);

-- A catch-up under way: the ratings of the variant are refolded up to stale_from and not
-- yet after it; stale_since is when it began (what pages show). NULL when current.
ALTER TABLE rating_variants ADD COLUMN stale_from TIMESTAMP;
ALTER TABLE rating_variants ADD COLUMN stale_since TIMESTAMP;

-- What writes ask for: "refold variant V from instant T". Appended inside the write
-- (no lock, so no write waits for another's rating work) and merged by the catch-up,
-- which deletes the requests it has taken into stale_from.
CREATE TABLE rating_requests (
    id BIGSERIAL PRIMARY KEY,
    variant TEXT NOT NULL,
    from_at TIMESTAMP NOT NULL,
    requested_at TIMESTAMP NOT NULL
);
CREATE INDEX rating_requests_variant ON rating_requests(variant);

-- The stored ratings lack the new columns: start-up recomputes every variant from scratch
-- (a revision of 0 means never computed), which also fills rated_results.
DELETE FROM rating_changes;
DELETE FROM ratings;
UPDATE rating_variants SET revision = 0;
