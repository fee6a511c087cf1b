DROP TABLE game_changes;
DROP TABLE game_moves;
DROP TABLE games;
