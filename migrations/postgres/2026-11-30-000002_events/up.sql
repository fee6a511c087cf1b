-- Events: round-robin and Swiss tournaments, their entries, rounds, pairings and results.
-- Points are stored as integer half-points; results as the TRF-style codes of the domain.
CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    place TEXT NOT NULL DEFAULT '',
    starts_on DATE,
    ends_on DATE,
    variant TEXT NOT NULL,
    -- Local rules on top of the preset, as JSON (mandatory_capture, capture_choice, ...).
    local_rules TEXT NOT NULL DEFAULT '{}',
    system TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    time_control TEXT NOT NULL,
    draw_offer_min_moves INTEGER NOT NULL,
    rated BOOLEAN NOT NULL,
    scoring_display TEXT NOT NULL,
    pab_half_points INTEGER NOT NULL,
    tiebreaks TEXT NOT NULL,
    first_colour TEXT NOT NULL,
    status TEXT NOT NULL,
    self_registration BOOLEAN NOT NULL,
    late_entry_until_round INTEGER NOT NULL DEFAULT 0,
    organiser_id BIGINT NOT NULL REFERENCES users(id),
    club_id BIGINT REFERENCES clubs(id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX events_status ON events(status, starts_on);

CREATE TABLE event_arbiters (
    event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE entries (
    id BIGSERIAL PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id),
    start_no INTEGER NOT NULL,
    rating INTEGER,
    -- First round the player is paired in (1 unless a late entry).
    first_round INTEGER NOT NULL DEFAULT 1,
    -- Withdrawn from this round on (NULL: still playing).
    withdrawn_from_round INTEGER,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (event_id, player_id),
    UNIQUE (event_id, start_no)
);

-- Requested half-point byes (H) and announced absences (Z) for a coming round.
CREATE TABLE entry_absences (
    entry_id BIGINT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (entry_id, round)
);

CREATE TABLE forbidden_pairs (
    event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    first_entry_id BIGINT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
    second_entry_id BIGINT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
    PRIMARY KEY (event_id, first_entry_id, second_entry_id)
);

CREATE TABLE rounds (
    id BIGSERIAL PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    published BOOLEAN NOT NULL DEFAULT FALSE,
    paired_at TIMESTAMP NOT NULL,
    published_at TIMESTAMP,
    UNIQUE (event_id, number)
);

-- One board of a round, or a player without an opponent (black_entry_id NULL, bye set).
CREATE TABLE pairings (
    id BIGSERIAL PRIMARY KEY,
    round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    white_entry_id BIGINT NOT NULL REFERENCES entries(id),
    black_entry_id BIGINT REFERENCES entries(id),
    -- For a player without an opponent: U (pairing-allocated), H, F or Z.
    bye TEXT,
    -- 1-0, 1/2-1/2, 0-1, +/-, -/+, -/- ; NULL while unplayed.
    result TEXT,
    UNIQUE (round_id, board)
);

-- Who changed which result when: corrections keep their history.
CREATE TABLE result_changes (
    id BIGSERIAL PRIMARY KEY,
    pairing_id BIGINT NOT NULL REFERENCES pairings(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    changed_at TIMESTAMP NOT NULL,
    old_result TEXT,
    new_result TEXT
);
CREATE INDEX result_changes_pairing ON result_changes(pairing_id);
