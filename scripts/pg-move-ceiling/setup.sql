-- The tables a move touches, shaped like damka's (players, API tokens, games, moves), with
-- 400 players, 10 tokens and 200 games: for measuring what PostgreSQL alone can do per move.
DROP TABLE IF EXISTS b_moves; DROP TABLE IF EXISTS b_games; DROP TABLE IF EXISTS b_tokens; DROP TABLE IF EXISTS b_players;
CREATE TABLE b_players (id bigserial primary key, name text not null);
CREATE TABLE b_tokens (id bigserial primary key, token_hash text unique not null, user_id bigint not null, last_used_at timestamp);
CREATE TABLE b_games (id bigserial primary key, white bigint not null references b_players(id), black bigint not null references b_players(id), status text not null default 'ongoing', result text, reason text, ply int not null default 0, draw_offer_by text, draw_offer_ply int, draw_offer_pending boolean not null default false, revision bigint not null default 0, finished_at timestamp, local_rules text not null default '{}', start_fen text not null default 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12');
CREATE TABLE b_moves (game_id bigint not null references b_games(id), ply int not null, notation text not null, submitted_by bigint, played_at timestamp not null, primary key (game_id, ply));
INSERT INTO b_players (name) SELECT 'Player ' || g FROM generate_series(1, 400) g;
INSERT INTO b_tokens (token_hash, user_id) SELECT md5(g::text), g FROM generate_series(1, 10) g;
INSERT INTO b_games (white, black) SELECT 2*g-1, 2*g FROM generate_series(1, 200) g;
