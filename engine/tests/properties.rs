//! Property tests: FEN round trips, PDN replays of random games, no panics on random input.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::fen::{SquareStyle, format_fen, parse_fen};
use damka_engine::{
    CaptureChoice, Game, Position, Rules, Square, Status, Variant, parse_games, parse_move,
};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Russian),
        Just(Variant::English),
        Just(Variant::International),
        Just(Variant::Brazilian),
    ]
}

/// A random legal set-up: each square empty or holding a man or king of either side (men
/// never on their promotion row).
fn position() -> impl Strategy<Value = Position> {
    (variant(), prop::collection::vec(0u8..8, 50), any::<bool>()).prop_map(
        |(variant, contents, white_to_move)| {
            let size = variant.board_size();
            let per_row = size.squares() / size.side();
            let mut white = Vec::new();
            let mut black = Vec::new();
            for n in 1..=size.squares() {
                let name = Square::new(n, size)
                    .unwrap()
                    .name(size, variant.algebraic());
                match contents[usize::from(n - 1)] {
                    1 if n > per_row => white.push(name),
                    2 => white.push(format!("K{name}")),
                    3 if n <= size.squares() - per_row => black.push(name),
                    4 => black.push(format!("K{name}")),
                    _ => {}
                }
            }
            let side = if white_to_move { 'W' } else { 'B' };
            let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
            Position::from_fen(variant, &fen).unwrap()
        },
    )
}

proptest! {
    #[test]
    fn fen_round_trips(pos in position()) {
        let fen = pos.to_fen();
        prop_assert_eq!(Position::from_fen(*pos.rules(), &fen).unwrap(), pos);
        let numeric = format_fen(&pos, SquareStyle::Numeric);
        prop_assert_eq!(parse_fen(*pos.rules(), &numeric, SquareStyle::Numeric).unwrap(), pos);
    }

    #[test]
    fn random_games_replay_from_their_pdn(variant in variant(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let mut game = Game::new(variant);
        for choice in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[usize::from(choice) % legal.len()];
            game.play(&mv).unwrap();
        }
        let pdn = game.to_pdn(&[("Event", "proptest")]);
        let games = parse_games(&pdn).unwrap();
        prop_assert_eq!(games.len(), 1);
        let replayed = games[0].replay(Rules::default()).unwrap();
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.status(), game.status());
        prop_assert_eq!(replayed.history(), game.history());
    }

    #[test]
    fn every_listed_move_parses_back_to_itself(pos in position()) {
        for mv in pos.legal_moves() {
            prop_assert_eq!(parse_move(&pos, &mv.notation()), Ok(mv));
        }
    }

    #[test]
    fn random_strings_never_panic(text in ".{0,80}", variant in variant()) {
        let _ = parse_games(&text);
        let _ = Position::from_fen(variant, &text);
        let _ = parse_fen(variant.into(), &text, SquareStyle::Numeric);
        let _ = parse_move(&Position::start(variant), &text);
        let _ = text.parse::<Variant>();
    }

    #[test]
    fn draughts_like_strings_never_panic(text in "[WBK0-9a-jx:,\\-\\[\\]{}\"\\. \n]{0,60}", variant in variant()) {
        let _ = parse_games(&text);
        let _ = Position::from_fen(variant, &text);
        let _ = parse_move(&Position::start(variant), &text);
        if let Ok(games) = parse_games(&text) {
            for game in games {
                let _ = game.replay(variant.into());
            }
        }
    }

    #[test]
    fn games_under_local_rules_stay_consistent(
        variant in variant(),
        mandatory in any::<bool>(),
        maximum in any::<bool>(),
        no_progress in prop::option::of(4u32..40),
        move_limit in prop::option::of(10u32..120),
        choices in prop::collection::vec(any::<u16>(), 0..200),
    ) {
        let mut rules = Rules::preset(variant);
        rules.mandatory_capture = mandatory;
        rules.capture_choice = if maximum { CaptureChoice::Maximum } else { CaptureChoice::Free };
        rules.no_progress_limit = no_progress;
        rules.move_limit = move_limit;
        let mut game = Game::new(rules);
        for choice in choices {
            let legal = game.legal_moves().to_vec();
            if legal.is_empty() {
                prop_assert!(game.status() != Status::Ongoing);
                break;
            }
            if maximum && mandatory && legal[0].is_capture() {
                let most = legal.iter().map(|m| m.captured_count()).max().unwrap_or(0);
                prop_assert!(legal.iter().all(|m| m.captured_count() == most));
            }
            let mv = legal[usize::from(choice) % legal.len()];
            let played = game.play_str(&mv.notation());
            prop_assert_eq!(played, Ok(mv));
            if let Some(limit) = move_limit {
                prop_assert!(game.history().len() <= limit as usize);
            }
        }
    }
}
