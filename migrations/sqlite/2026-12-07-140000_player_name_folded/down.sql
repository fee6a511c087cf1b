ALTER TABLE players DROP COLUMN name_folded;
