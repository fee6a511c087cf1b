-- Pairings changed by hand by an arbiter: who, when, the round before and after, and the
-- rules the new pairing broke when it was saved (they are shown with the round).
CREATE TABLE pairing_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    changed_at TIMESTAMP NOT NULL,
    -- One board per line as start numbers, `white black`; `N 0` for the pairing-allocated bye.
    old_pairing TEXT NOT NULL,
    new_pairing TEXT NOT NULL,
    -- JSON array of the warnings (code, board, players, details).
    warnings TEXT NOT NULL
);
CREATE INDEX pairing_changes_round ON pairing_changes(round_id);
