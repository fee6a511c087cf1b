//! Pure domain logic of damka: pairing, scoring, tie-breaks, ratings, TRF. No I/O.
