DROP TABLE player_changes;
DROP TABLE player_claim_links;
DROP TABLE player_claims;
ALTER TABLE players DROP COLUMN merged_into;
ALTER TABLE players DROP COLUMN created_by;
