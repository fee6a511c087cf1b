//! Hostile input to the engine's parsers (move text, FEN, PDN): valid texts mutated at
//! random, and pathological shapes (huge ranges, deep variations, long lines, multi-byte
//! characters). Each parser must return, quickly, either a value that is consistent with the
//! text or an error that names the problem and a place inside the text; never panic.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use std::time::{Duration, Instant};

use damka_engine::fen::{SquareStyle, parse_fen};
use damka_engine::{Game, Position, Rules, Variant, parse_games, parse_move};
use proptest::prelude::*;

/// Debug build on a loaded two-core machine: generous, but far below what a quadratic
/// blow-up on the texts below would take.
const PARSE_BUDGET: Duration = Duration::from_secs(2);

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Russian),
        Just(Variant::English),
        Just(Variant::International),
        Just(Variant::Brazilian),
    ]
}

/// One edit of a text: what hostile or broken input looks like near valid input.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '[', ']', '{', '}', '(', ')', '"', '\\', ':', ',', '-', 'x', 'X', '×', 'K', 'W', 'B',
            '.', ';', '$', '*', '/', '\n', '\r', '\t', ' ', '\0', '\u{feff}', 'é', 'ж', '🂡',
        ]),
        prop::char::range('0', '9'),
        prop::char::range('a', 'k'),
        any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), hostile_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), hostile_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Edit::Duplicate(at, len)),
    ]
}

/// Applies edits on char boundaries (positions taken modulo the current length).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len();
        match *edit {
            Edit::Insert(at, c) => chars.insert(at % (len + 1), c),
            Edit::Delete(at) if len > 0 => {
                chars.remove(at % len);
            }
            Edit::Replace(at, c) if len > 0 => chars[at % len] = c,
            Edit::Truncate(at) => chars.truncate(at % (len + 1)),
            Edit::Duplicate(at, span) if len > 0 => {
                let start = at % len;
                let end = (start + span).min(len);
                let copy: Vec<char> = chars[start..end].to_vec();
                chars.splice(end..end, copy);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A game of random legal moves (from `choices`), to take texts from.
fn random_game(variant: Variant, choices: &[u16]) -> Game {
    let mut game = Game::new(variant);
    for choice in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(*choice) % legal.len()];
        game.play(&mv).unwrap();
    }
    game
}

fn timed<T>(what: &str, text: &str, parse: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let value = parse();
    let took = started.elapsed();
    assert!(
        took < PARSE_BUDGET,
        "{what} took {took:?} on {} bytes",
        text.len()
    );
    value
}

/// A FEN error is a clear error: it says what is wrong, at a column of the text.
fn check_fen(rules: Rules, text: &str, style: SquareStyle) -> Result<(), TestCaseError> {
    match timed("FEN", text, || parse_fen(rules, text, style)) {
        Ok(position) => {
            // What was read writes back to a FEN that reads as the same position.
            let again = Position::from_fen(rules, &position.to_fen()).unwrap();
            prop_assert_eq!(again, position);
        }
        Err(error) => {
            prop_assert!(
                error.column >= 1 && error.column <= text.len() + 1,
                "column {} outside {:?}",
                error.column,
                text
            );
            prop_assert!(!error.to_string().trim().is_empty());
        }
    }
    Ok(())
}

/// A PDN text either reads (and each game replays or names its bad move) or names the line
/// and column of its problem, inside the text.
fn check_pdn(text: &str, rules: Rules) -> Result<(), TestCaseError> {
    let lines = text.split('\n').count();
    match timed("PDN", text, || parse_games(text)) {
        Ok(games) => {
            for game in games {
                prop_assert!(game.line >= 1 && game.line <= lines);
                match timed("PDN replay", text, || game.replay(rules)) {
                    Ok(replayed) => prop_assert_eq!(replayed.history().len(), game.moves.len()),
                    Err(error) => {
                        let message = error.to_string();
                        prop_assert!(message.starts_with("line "), "{}", message);
                    }
                }
            }
        }
        Err(error) => {
            prop_assert!(
                error.line >= 1 && error.line <= lines,
                "line {} of {}",
                error.line,
                lines
            );
            prop_assert!(error.column >= 1);
            let prefix = format!("line {}", error.line);
            prop_assert!(error.to_string().starts_with(&prefix), "{}", error);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fens_read_or_name_their_column(
        variant in variant(),
        choices in prop::collection::vec(any::<u16>(), 0..40),
        edits in prop::collection::vec(edit(), 1..6),
        numeric in any::<bool>(),
    ) {
        let game = random_game(variant, &choices);
        let style = if numeric { SquareStyle::Numeric } else { SquareStyle::Native };
        let fen = damka_engine::fen::format_fen(game.position(), style);
        check_fen(variant.into(), &mutate(&fen, &edits), style)?;
    }

    #[test]
    fn mutated_pdn_reads_or_names_its_line(
        variant in variant(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let game = random_game(variant, &choices);
        let pdn = game.to_pdn(&[("Event", "Club \"Open\" \\ 2026"), ("White", "Иванов")]);
        check_pdn(&mutate(&pdn, &edits), variant.into())?;
    }

    #[test]
    fn mutated_moves_are_legal_or_refused_with_a_reason(
        variant in variant(),
        choices in prop::collection::vec(any::<u16>(), 0..30),
        pick in any::<u16>(),
        edits in prop::collection::vec(edit(), 0..4),
    ) {
        let game = random_game(variant, &choices);
        let position = game.position();
        let legal = position.legal_moves();
        let written = legal
            .get(usize::from(pick) % legal.len().max(1))
            .map(|m| m.notation())
            .unwrap_or_else(|| "c3-d4".to_string());
        let text = mutate(&written, &edits);
        match timed("move", &text, || parse_move(position, &text)) {
            Ok(mv) => prop_assert!(legal.contains(&mv), "{text:?} read as an illegal {mv:?}"),
            Err(error) => prop_assert!(!error.to_string().trim().is_empty()),
        }
    }

    #[test]
    fn arbitrary_bytes_as_text_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), variant in variant()) {
        let text = String::from_utf8_lossy(&bytes);
        check_fen(variant.into(), &text, SquareStyle::Native)?;
        check_pdn(&text, variant.into())?;
        let _ = timed("move", &text, || parse_move(&Position::start(variant), &text));
    }
}

/// Shapes that a random walk rarely reaches but a hostile user writes on purpose.
fn pathological_texts() -> Vec<String> {
    let big = 200_000;
    vec![
        // Ranges that name every square over and over.
        format!("W:W{}:B1", vec!["1-50"; 5_000].join(",")),
        format!("W:W1-{}:B1", "9".repeat(40)),
        format!("W:W{}-1:B2", "9".repeat(40)),
        "W:W1--5---7:B9".to_string(),
        format!("W{}", ":W1".repeat(10_000)),
        format!("W:WK{}:B1", "K".repeat(big)),
        // Deep and unclosed nesting, comments and tags.
        format!("1. 32-28 {} 19-23 *", "(".repeat(big)),
        format!("1. 32-28 {}{} *", "(".repeat(big), ")".repeat(big)),
        format!("1. 32-28 {} *", ")".repeat(10)),
        format!("{{{}", "x".repeat(big)),
        format!("[Event \"{}", "\\".repeat(big)),
        format!("[{} \"x\"]", "A".repeat(big)),
        "[FEN \"W:W1-50-50:B\"]\n1. 1-2 *".to_string(),
        "[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:W99:B1\"]\n1. 99-94 *".to_string(),
        "[GameType \"9999999999999999999999\"]\n*".to_string(),
        // Long move text: many numbers, glued move numbers, long words.
        format!("{} *", "1. ".repeat(big / 3)),
        format!("{} *", "12.c3-d4 ".repeat(20_000)),
        format!("{}", "1-2".repeat(big / 3)),
        format!("c3{}", "-d4".repeat(50_000)),
        format!("{}", "x".repeat(big)),
        "\u{feff}\u{feff}[Event \"\u{202e}\"]\n1. ж3-ж4 *".to_string(),
    ]
}

#[test]
fn pathological_texts_are_answered_quickly_without_panic() {
    for variant in Variant::ALL {
        let rules: Rules = variant.into();
        for text in pathological_texts() {
            check_fen(rules, &text, SquareStyle::Native).unwrap();
            check_fen(rules, &text, SquareStyle::Numeric).unwrap();
            check_pdn(&text, rules).unwrap();
            match timed("move", &text, || {
                parse_move(&Position::start(variant), &text)
            }) {
                Ok(mv) => panic!(
                    "{:?}... read as the move {mv:?}",
                    text.chars().take(40).collect::<String>()
                ),
                Err(error) => assert!(!error.to_string().is_empty()),
            }
        }
    }
}
