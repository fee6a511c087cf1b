//! PDN files: every game read is replayed in every variant (its moves all played, or the
//! first bad one named); an error names a line of the text.
#![no_main]

use damka_engine::{Variant, parse_games};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.split('\n').count();
    match parse_games(&text) {
        Ok(games) => {
            for game in games {
                for variant in Variant::ALL {
                    match game.replay(variant.into()) {
                        Ok(replayed) => assert_eq!(replayed.history().len(), game.moves.len()),
                        Err(error) => assert!(error.to_string().starts_with("line ")),
                    }
                }
            }
        }
        Err(error) => {
            assert!(error.line >= 1 && error.line <= lines);
            assert!(!error.to_string().is_empty());
        }
    }
});
