//! The service's integration tests, as one test binary (`cargo test --test integration`):
//! each module used to be its own binary, and linking 19 of them against the whole
//! application dominated a CI run. Cargo builds `tests/<dir>/main.rs` as one target and
//! leaves the modules below it alone, so a new test file goes here as a `mod` line, not as
//! a new `tests/*.rs` (which would become a binary of its own again).
mod common;

mod api_date_times;
mod architecture;
mod authorization_table;
mod backup;
mod body_limits;
mod browser;
mod browser_claim;
mod browser_confirm_end;
mod browser_event_game;
mod browser_round_stays;
mod claims;
mod cli_engine;
mod cli_pair;
mod cli_ratings;
mod cli_standings;
mod concurrency;
mod demo;
mod early_offer;
mod game_clocks;
mod game_in_progress;
mod game_races;
mod game_words;
mod hostile_parsers;
mod hostile_xss;
mod http_account_security;
mod http_accounts;
mod http_club_requests;
mod http_errors;
mod http_events_entries;
mod http_events_pages;
mod http_events_results;
mod http_events_rounds;
mod http_events_settings;
mod http_events_standings;
mod http_game_pdn;
mod http_games;
mod http_live;
mod http_pairing_changes;
mod http_print;
mod http_profiles;
mod http_ratings;
mod http_requests;
mod http_roles;
mod http_trf_import;
mod keizer_api;
mod keizer_pages;
mod load_proof;
mod merges;
mod micro_match_pages;
mod micro_match_swiss;
mod micro_matches;
mod openapi;
mod paging_records;
mod processes;
mod ratings_property;
mod refusal_without_lock;
mod russian_pages;
mod store_schema;
mod swiss_random;
