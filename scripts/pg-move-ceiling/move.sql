-- One move as PostgreSQL sees it from damka: the API token lookup, then the one statement
-- that checks the game's revision, stores the move and the state and reads the names.
\set g random(1, 200)
SELECT id, user_id, last_used_at FROM b_tokens WHERE token_hash = md5('3');
WITH advanced AS (UPDATE b_games SET revision = revision + 1, ply = ply + 1, status = 'ongoing', result = NULL, reason = NULL, draw_offer_by = NULL, draw_offer_ply = NULL, draw_offer_pending = false, finished_at = NULL WHERE id = :g RETURNING id, white, black, ply), stored AS (INSERT INTO b_moves (game_id, ply, notation, submitted_by, played_at) SELECT id, ply, 'c3-d4', 1, now() FROM advanced) SELECT w.name, b.name FROM advanced JOIN b_players w ON w.id = advanced.white JOIN b_players b ON b.id = advanced.black;
