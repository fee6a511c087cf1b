//! The `damka` command line: the service (`serve`, `demo`, `admin`) and the tools for
//! people who use other programs (engine and tournament subcommands).
pub mod admin;
pub mod backup;
pub mod config;
pub mod demo;
pub mod demo_games;
pub mod engine;
pub mod ratings;
pub mod serve;
pub mod standings;
pub mod tournament;
