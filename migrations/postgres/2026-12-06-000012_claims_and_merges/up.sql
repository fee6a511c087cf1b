-- Claiming and merging player profiles (issue 26).
-- Who made a profile (the signed-in account that created it; none for older profiles and
-- for those the command line made) and, once merged, the profile it lives on in.
ALTER TABLE players ADD COLUMN created_by BIGINT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE players ADD COLUMN merged_into BIGINT REFERENCES players(id);

-- An account asks to be linked to a profile; one who manages the profile decides.
CREATE TABLE player_claims (
    id BIGSERIAL PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- `pending`, `accepted` or `declined`.
    status TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    decided_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    decided_at TIMESTAMP
);
-- At most one open claim of an account on a profile.
CREATE UNIQUE INDEX player_claims_pending ON player_claims(player_id, user_id)
    WHERE status = 'pending';
CREATE INDEX player_claims_user ON player_claims(user_id);

-- One-time links an organiser hands out: the account that opens one is linked to the
-- profile. Only the hash of the code is stored, as for invitations.
CREATE TABLE player_claim_links (
    id BIGSERIAL PRIMARY KEY,
    code_hash TEXT NOT NULL UNIQUE,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    created_by BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    used_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    used_at TIMESTAMP
);

-- A profile's audit: merges (on both profiles) and accounts linked to it.
CREATE TABLE player_changes (
    id BIGSERIAL PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    changed_at TIMESTAMP NOT NULL,
    -- `merged_into`, `merged_from` or `account_linked`.
    action TEXT NOT NULL,
    -- The other profile of a merge.
    other_player_id BIGINT REFERENCES players(id) ON DELETE SET NULL,
    -- The account linked.
    account_id BIGINT REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX player_changes_player ON player_changes(player_id);
