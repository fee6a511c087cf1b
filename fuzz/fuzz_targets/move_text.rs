//! Move text typed by a player, read in a position reached by random legal moves: a move
//! read is one of the position's legal moves; anything else is refused with a reason.
#![no_main]

use damka_engine::{Game, Variant, parse_move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&setup, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[usize::from(setup) % Variant::ALL.len()];
    // The first bytes choose moves (up to a few, so that the text still gets most of the
    // input), the rest is the text.
    let plies = usize::from(setup >> 2) % 16;
    let (choices, text) = rest.split_at(plies.min(rest.len()));
    let mut game = Game::new(variant);
    for choice in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(*choice) % legal.len()];
        if game.play(&mv).is_err() {
            return;
        }
    }
    let text = String::from_utf8_lossy(text);
    match parse_move(game.position(), &text) {
        Ok(mv) => assert!(game.position().legal_moves().contains(&mv)),
        Err(error) => assert!(!error.to_string().is_empty()),
    }
});
