-- Time controls and server-kept clocks. Clocks are stored, never kept in memory, so every
-- instance computes the same remaining times from the same rows.

-- The event's time control: `none`, `fischer:<base s>+<increment s>`, `per_move:<s>`.
-- events.time_control keeps the category (classical/rapid/blitz), derived from this one
-- when the event is timed.
ALTER TABLE events ADD COLUMN clock TEXT NOT NULL DEFAULT 'none';

-- A game's time control, copied from its event (or chosen for a standalone game).
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'none';
-- Each side's remaining milliseconds after its last move (the base time before it); NULL
-- for an untimed game.
ALTER TABLE games ADD COLUMN white_ms BIGINT;
ALTER TABLE games ADD COLUMN black_ms BIGINT;
-- While the side to move's clock runs: the instant it shows zero. The sweep that ends
-- games whose time ran out with no request looks for these.
ALTER TABLE games ADD COLUMN deadline TIMESTAMP;
CREATE INDEX games_deadline ON games(deadline);

-- The mover's remaining milliseconds right after the move (NULL: untimed).
ALTER TABLE game_moves ADD COLUMN clock_ms BIGINT;
