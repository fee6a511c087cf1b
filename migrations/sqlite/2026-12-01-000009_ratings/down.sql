DROP TABLE rating_variants;
DROP TABLE glicko2_starts;
DROP TABLE rating_changes;
DROP TABLE ratings;
