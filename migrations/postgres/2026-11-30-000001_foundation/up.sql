-- Foundation: site settings, accounts, sessions, API tokens, login throttling, invitations,
-- clubs and player profiles. Times are UTC, stored as ISO-8601 text by diesel.
CREATE TABLE site_settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- Kept for schema parity with SQLite, where write transactions touch it first to take
-- the write lock at once; PostgreSQL never uses it.
CREATE TABLE write_lock (
    id BIGINT PRIMARY KEY,
    counter BIGINT NOT NULL
);
INSERT INTO write_lock (id, counter) VALUES (1, 0);

CREATE TABLE clubs (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE players (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    club_id BIGINT REFERENCES clubs(id) ON DELETE SET NULL,
    country TEXT NOT NULL DEFAULT '',
    federation_id TEXT NOT NULL DEFAULT '',
    birth_year INTEGER,
    title TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX players_club ON players(club_id);
CREATE INDEX players_name ON players(name);

CREATE TABLE player_ratings (
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, variant)
);

CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    is_organiser BOOLEAN NOT NULL DEFAULT FALSE,
    locale TEXT,
    player_id BIGINT UNIQUE REFERENCES players(id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE club_members (
    club_id BIGINT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);

CREATE TABLE sessions (
    id BIGSERIAL PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

CREATE TABLE login_failures (
    id BIGSERIAL PRIMARY KEY,
    subject TEXT NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_subject ON login_failures(subject, failed_at);

CREATE TABLE invitations (
    id BIGSERIAL PRIMARY KEY,
    code_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    used_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    used_at TIMESTAMP
);
