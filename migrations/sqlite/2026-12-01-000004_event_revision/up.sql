-- Every write to an event (entries, rounds, results, settings) first bumps this counter in
-- the same transaction. The UPDATE locks the event row, so writers to one event queue up
-- instead of deciding on stale state (PostgreSQL), and a long computation done outside the
-- write transaction (pairing a large round) can tell whether the event changed meanwhile.
ALTER TABLE events ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
