-- A player's request to have their profile in a club. The profile's club changes only
-- when one of the club's organisers accepts; decided requests stay as a record of who
-- decided and when.
CREATE TABLE club_join_requests (
    id BIGSERIAL PRIMARY KEY,
    club_id BIGINT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    requested_by BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    requested_at TIMESTAMP NOT NULL,
    -- `pending`, `accepted` or `declined`.
    status TEXT NOT NULL,
    decided_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    decided_at TIMESTAMP
);
-- At most one open request per profile and club.
CREATE UNIQUE INDEX club_join_requests_pending ON club_join_requests(club_id, player_id)
    WHERE status = 'pending';
CREATE INDEX club_join_requests_player ON club_join_requests(player_id);
