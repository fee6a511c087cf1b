//! Pure domain logic: pairing, scoring, tie-breaks, ratings. No I/O.
