//! Hostile TRF input: the test files mutated at random, arbitrary bytes, and shapes meant to
//! blow up the reader (huge numbers, long lines, forbidden-pair bombs). Reading must return
//! quickly with a tournament or an error naming a line and column inside the file; never
//! panic.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use std::time::{Duration, Instant};

use damka_domain::trf;
use proptest::prelude::*;

/// Debug build on a loaded two-core machine: generous, far below a quadratic blow-up.
const PARSE_BUDGET: Duration = Duration::from_secs(2);

fn fixtures() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut texts: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "trf"))
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    texts.sort();
    assert!(texts.len() >= 3, "the TRF fixtures are missing");
    texts
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    DuplicateLine(usize),
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            ' ', '0', '1', '9', '-', '+', '=', 'w', 'b', 'W', 'D', 'L', 'Z', 'H', 'F', 'U', 'X',
            '.', '\n', '\r', '\t', '\0', 'é', 'Ж', '\u{feff}', '<',
        ]),
        any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), hostile_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), hostile_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        any::<usize>().prop_map(Edit::Truncate),
        any::<usize>().prop_map(Edit::DuplicateLine),
    ]
}

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
            Edit::DuplicateLine(at) if len > 0 => {
                let at = at % len;
                let start = chars[..at]
                    .iter()
                    .rposition(|c| *c == '\n')
                    .map_or(0, |i| i + 1);
                let end = chars[at..]
                    .iter()
                    .position(|c| *c == '\n')
                    .map_or(len, |i| at + i + 1);
                let line: Vec<char> = chars[start..end].to_vec();
                chars.splice(end..end, line);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Reads `text`: a tournament that writes back to a readable file, or an error at a place
/// inside the file that says what is wrong.
fn check(text: &str) -> Result<(), TestCaseError> {
    let started = Instant::now();
    let read = trf::parse(text);
    let took = started.elapsed();
    prop_assert!(took < PARSE_BUDGET, "{:?} on {} bytes", took, text.len());
    match read {
        Ok(tournament) => {
            let written = trf::write(&tournament);
            let again = trf::parse(&written);
            prop_assert!(
                again.is_ok(),
                "what was read does not read back: {:?}",
                again
            );
        }
        Err(error) => {
            let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
            let lines: Vec<&str> = normalised.split('\n').collect();
            prop_assert!(
                error.line <= lines.len(),
                "line {} of {}",
                error.line,
                lines.len()
            );
            if error.line > 0 {
                // A missing field is named by the column where TRF puts it (a record's value
                // starts at column 5, a player's start rank takes columns 5-8), which may
                // lie past the end of a short line.
                let width = lines[error.line - 1].chars().count().max(8);
                prop_assert!(
                    error.column <= width + 1,
                    "column {} of a {}-character line: {}",
                    error.column,
                    width,
                    error
                );
            }
            let message = error.to_string();
            prop_assert!(message.starts_with("TRF line "), "{}", message);
            prop_assert!(
                message.len() > "TRF line 1, column 1: ".len(),
                "{}",
                message
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_trf_files_read_or_name_their_place(
        pick in any::<usize>(),
        edits in prop::collection::vec(edit(), 1..10),
    ) {
        let files = fixtures();
        let file = &files[pick % files.len()];
        check(&mutate(file, &edits))?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn player_lines_of_random_cells_never_panic(
        cells in prop::collection::vec("[ 0-9]{4} [wb\\- ] [01=+\\-HFUZLWD ]", 0..30),
        points in "[ 0-9.]{4}",
    ) {
        let line = format!(
            "001    1      Player One                        1800                            {points}    1  {}",
            cells.join("  ")
        );
        check(&format!("012 Random cells\nXXR 9\n{line}\n"))?;
    }
}

#[test]
fn pathological_files_are_answered_quickly_without_panic() {
    let player = |n: usize| {
        format!("001 {n:>4}      Player {n:<28}1800                             0.0 {n:>4}")
    };
    let many_players: String = (1..=6000).map(|n| player(n) + "\n").collect();
    let forbidden_bomb = format!(
        "XXR 5\n{}\nXXP {}\n",
        player(1),
        (1..=4000)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let texts = [
        many_players,
        forbidden_bomb,
        format!("XXR {}\n", "9".repeat(100)),
        format!("XXR 5\n001 {}\n", "9".repeat(100_000)),
        format!("{}\n", player(99_999_999)),
        format!("XXC {}\n", "white".repeat(10_000)),
        format!("162 {}\n", "W    1.0".repeat(10_000)),
        format!("{}  {}\n", player(1), "0001 w 1  ".repeat(10_000)),
        format!("012 {}\n", "<script>".repeat(20_000)),
        "\r\r\r\n\n\r001".to_string(),
        // Scores wider than the 162 record's four columns (found by the trf fuzz target):
        // read, they were written back shifted and the file no longer read.
        "012 x\nBBD 1151\n".to_string(),
        "162  W9999    D 0.5\n".to_string(),
        "001 ".repeat(50_000),
        // Accelerations: a line of 200,000 values is refused at the first one past XXR,
        // a line per unknown player at the first, the largest value reads back.
        format!(
            "XXR 5\n{}\nXXA    1{}\n",
            player(1),
            "  1.5".repeat(200_000)
        ),
        format!("{}\n{}", player(1), "XXA 9999  1.0\n".repeat(6000)),
        format!("XXR 5\n{}\nXXA    1 9999 99.5   .5\n", player(1)),
    ];
    for text in texts {
        check(&text).unwrap();
    }
}
