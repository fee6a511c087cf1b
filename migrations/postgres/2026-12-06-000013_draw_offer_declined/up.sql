-- The last draw offer was declined by the opponent (issue 26): with `draw_offer_pending`
-- false, an offer not taken up was declined (true) or lapsed when the opponent moved on
-- (false), so the offerer can be told which.
ALTER TABLE games ADD COLUMN draw_offer_declined BOOLEAN NOT NULL DEFAULT FALSE;
