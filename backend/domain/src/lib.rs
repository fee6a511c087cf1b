//! Pure domain logic of damka: pairing, scoring, tie-breaks, ratings, TRF, CSV lines. No
//! I/O: every function takes plain structs and returns plain structs, so it is tested with
//! tables of cases and no database.
pub mod ballots;
pub mod berger;
pub mod clock;
pub mod csv;
pub mod dutch;
pub mod keizer;
pub mod micro_match;
pub mod names;
pub mod pairing_check;
pub mod pairing_system;
pub mod ratings;
pub mod standings;
pub mod tiebreak;
pub mod tournament;
pub mod trf;
pub mod vocabulary;
