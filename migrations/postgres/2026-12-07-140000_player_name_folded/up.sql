-- The folded search key of a profile's name (damka_domain::names::fold: lower case,
-- Cyrillic transliterated, y/j -> i ...), so a name search narrows its candidates in SQL
-- (`name_folded LIKE '%word%'`) instead of folding every profile in Rust.
-- SQL cannot fold the same way (SQLite's lower() is ASCII only, and the transliteration is
-- Rust code), so existing rows start with an empty key and `store::players::fill_folded_names`
-- fills them at start-up, a bounded batch per transaction; until then the search treats an
-- empty key as "unknown" and checks those rows in Rust. A change of the fold must blank
-- this column again (UPDATE players SET name_folded = '') so start-up refills it.
ALTER TABLE players ADD COLUMN name_folded TEXT NOT NULL DEFAULT '';
