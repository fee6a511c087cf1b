//! Opening ballots (issue 15): the built-in tables load with their documented sizes and
//! every entry replays; uploaded tables are checked line by line; the draw is reproducible
//! and never repeats an opening for a pair.

use damka_domain::ballots::{
    BallotError, BallotPer, BallotTable, MAX_ENTRIES, MAX_PLIES, MAX_TEXT_BYTES, Opening,
    SplitMix64, draw, parse_custom_table,
};
use damka_engine::{Game, Position, Variant};
use std::collections::{HashMap, HashSet};

fn table(t: BallotTable) -> &'static [Opening] {
    t.openings().expect("built-in table loads")
}

fn find<'a>(openings: &'a [Opening], code: &str) -> &'a Opening {
    openings
        .iter()
        .find(|o| o.code == code)
        .unwrap_or_else(|| panic!("{code} is in the table"))
}

#[test]
fn tables_have_their_documented_sizes_and_unique_codes() {
    let expected = [
        (BallotTable::Idf64, 745, 396),
        (BallotTable::Fmjd64, 736, 392),
        (BallotTable::Basic150, 150, 0),
        (BallotTable::English3Move, 156, 0),
    ];
    for (t, size, relocations) in expected {
        let openings = table(t);
        assert_eq!(openings.len(), size, "{}", t.code());
        let ends = openings.first().zip(openings.last());
        let ends = ends.map(|(a, b)| (a.code.as_str(), b.code.as_str()));
        let expected_ends = match t {
            BallotTable::Idf64 => ("I-1", "XXXIII-9"),
            BallotTable::Fmjd64 => ("1-I", "46-XVI"),
            BallotTable::Basic150 => ("1-I", "15-X"),
            BallotTable::English3Move => ("001", "174"),
        };
        assert_eq!(ends, Some(expected_ends));
        let set_up = openings.iter().filter(|o| o.start_fen.is_some()).count();
        assert_eq!(set_up, relocations, "{} relocation starts", t.code());
        // A set-up start has no moves, and a move sequence starts from the initial position.
        for o in openings {
            assert_eq!(
                o.start_fen.is_some(),
                o.moves.is_empty() && o.code != "5-VII"
            );
        }
        let codes: HashSet<&str> = openings.iter().map(|o| o.code.as_str()).collect();
        assert_eq!(codes.len(), size, "{} codes are unique", t.code());
    }
}

#[test]
fn every_entry_replays_to_its_fen() {
    // Loading already replays; this replays again independently of the loader.
    for t in BallotTable::ALL {
        for &variant in t.variants() {
            let openings = t.openings_for(variant).expect("loads");
            for o in openings {
                let mut game = match &o.start_fen {
                    Some(fen) => Game::from_position(
                        Position::from_fen(variant, fen).expect("start FEN parses"),
                    ),
                    None => Game::new(variant),
                };
                for ply in &o.moves {
                    game.play_str(ply).expect("legal ply");
                    assert_eq!(
                        game.history().last().map(|m| m.notation()),
                        Some(ply.clone())
                    );
                }
                assert!(!game.status().is_over(), "{} leaves a game", o.code);
                assert_eq!(game.position().to_fen(), o.fen, "{} {variant}", o.code);
            }
        }
    }
}

#[test]
fn known_entries_are_exactly_as_the_sources_give_them() {
    let fmjd = find(table(BallotTable::Fmjd64), "1-I");
    // strategygames: "1. ab4 ba5 2. ba3 ab6 3. ab2 dc5",
    // FEN W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14.
    assert_eq!(
        fmjd.moves,
        ["a3-b4", "b6-a5", "b2-a3", "a7-b6", "a1-b2", "d6-c5"]
    );
    assert_eq!(fmjd.start_fen, None);
    assert_eq!(
        fmjd.fen,
        Position::from_fen(
            Variant::Russian,
            "W:Wb4,a3,c3,e3,g3,b2,d2,f2,h2,c1,e1,g1:Bb8,d8,f8,h8,c7,e7,g7,b6,f6,h6,a5,c5"
        )
        .expect("FEN")
        .to_fen()
    );
    assert_eq!(fmjd.label(), "1-I: a3-b4 b6-a5 b2-a3 a7-b6 a1-b2 d6-c5");
    let numeric = damka_engine::fen::parse_fen(
        Variant::Russian.into(),
        "W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14",
        damka_engine::SquareStyle::Numeric,
    )
    .expect("numeric FEN");
    assert_eq!(numeric.to_fen(), fmjd.fen);

    let relocation = find(table(BallotTable::Fmjd64), "14-I");
    // strategygames: relocation "a3-d4 f6-a3", W:W18,22,...:B1,...,12,21.
    assert!(relocation.moves.is_empty());
    assert_eq!(
        relocation.start_fen.as_deref(),
        Some(relocation.fen.as_str())
    );
    assert_eq!(
        relocation.fen,
        "W:Wd4,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,h6,a3"
    );
    assert_eq!(relocation.label(), "14-I: position");

    let capture = find(table(BallotTable::Fmjd64), "1-IX");
    assert_eq!(capture.moves[4..], ["b4:d6", "c7:e5"]);

    let idf = find(table(BallotTable::Idf64), "I-1");
    assert_eq!(idf.moves, ["a3-b4"]);
    assert_eq!(
        idf.fen,
        "B:Wb4,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
    );
    // Corrected in the data: six plies leave White to move (the source says Black).
    let corrected = find(table(BallotTable::Idf64), "XXVII-9");
    assert!(corrected.fen.starts_with("W:"));
    assert_eq!(corrected.moves.len(), 6);

    let basic = table(BallotTable::Basic150);
    assert_eq!(basic[0].label(), "1-I: c3-d4 b6-a5 d4-c5");
    assert_eq!(find(basic, "5-VII").label(), "5-VII: start position");
    // Its FEN in the source is a copy of 2-V's; the position comes from its moves.
    let mended = find(basic, "2-IV");
    assert_eq!(mended.moves, ["e3-f4", "f6-e5", "a3-b4"]);
    assert_ne!(mended.fen, find(basic, "2-V").fen);

    let english = table(BallotTable::English3Move);
    assert_eq!(english[0].label(), "001: 9-13 21-17 5-9");
    assert_eq!(find(english, "004").moves, ["9-13", "22-17", "13x22"]);
    assert_eq!(
        english.last().map(|o| o.label()),
        Some("174: 12-16 24-20 10-15".into())
    );
}

#[test]
fn the_eighteen_barred_english_openings_are_absent() {
    let barred = [
        "003", "013", "026", "035", "044", "045", "048", "052", "077", "088", "094", "109", "114",
        "137", "145", "156", "168", "171",
    ];
    let english = table(BallotTable::English3Move);
    let codes: HashSet<&str> = english.iter().map(|o| o.code.as_str()).collect();
    for code in barred {
        assert!(!codes.contains(code), "{code} is barred");
    }
    let all: HashSet<String> = (1..=174).map(|n| format!("{n:03}")).collect();
    let kept: HashSet<String> = codes.iter().map(|c| c.to_string()).collect();
    assert_eq!(all.difference(&kept).count(), 18);
    let lines: HashSet<String> = english.iter().map(|o| o.moves.join(" ")).collect();
    // #26, which pydraughts' list forgets, and #171, a barred capture line.
    assert!(!lines.contains("9-13 24-19 10-15"));
    assert!(!lines.contains("12-16 23-19 16x23"));
    assert!(lines.contains("9-13 24-19 11-15"), "#27 is played");
}

#[test]
fn table_codes_variants_and_sources() {
    for t in BallotTable::ALL {
        assert_eq!(BallotTable::from_code(t.code()), Some(t));
        assert!(t.source().contains("(MIT)"));
    }
    assert_eq!(BallotTable::from_code("idf"), None);
    assert_eq!(
        BallotTable::Idf64.variants(),
        [Variant::Russian, Variant::Brazilian]
    );
    assert_eq!(BallotTable::English3Move.variants(), [Variant::English]);
    let wrong = BallotTable::English3Move
        .openings_for(Variant::Russian)
        .expect_err("not a Russian table");
    assert_eq!(wrong.code(), "ballot_wrong_variant");
    assert!(
        BallotTable::Fmjd64
            .openings_for(Variant::International)
            .is_err()
    );
}

#[test]
fn brazilian_versions_leave_out_what_the_sources_leave_out() {
    let sizes = [
        (BallotTable::Idf64, 736),
        (BallotTable::Fmjd64, 725),
        (BallotTable::Basic150, 150),
    ];
    for (t, size) in sizes {
        let brazilian = t.openings_for(Variant::Brazilian).expect("loads");
        assert_eq!(brazilian.len(), size, "{}", t.code());
    }
    let fmjd = BallotTable::Fmjd64
        .openings_for(Variant::Brazilian)
        .expect("loads");
    // Illegal in Brazilian (the majority capture): left out.
    assert!(fmjd.iter().all(|o| o.code != "1-IX"));
    // Brazilian notation for captures.
    let with_capture = find(fmjd, "1-XVI");
    assert_eq!(with_capture.moves[2..4], ["b4xd6", "e7xc5"]);
}

// ---- uploaded tables ----

#[test]
fn custom_table_reads_moves_codes_numbers_and_fens() {
    let text = "\u{feff}# club openings\n\
                \n\
                1. c3-d4 f6-g5 2. b2-c3\n\
                A7: c3d4 d6c5\n\
                W:Wa1,c3:Bh8\n\
                R2: W:Wc3:Bf6\n\
                B: a3-b4 d6-c5 b4:d6 e7:c5\n\
                W: c3-d4 b6-a5\n";
    let openings = parse_custom_table(Variant::Russian, text).expect("valid table");
    let labels: Vec<String> = openings.iter().map(Opening::label).collect();
    assert_eq!(
        labels,
        [
            "1: c3-d4 f6-g5 b2-c3",
            "A7: c3-d4 d6-c5",
            "3: position",
            "R2: position",
            "B: a3-b4 d6-c5 b4:d6 e7:c5",
            "W: c3-d4 b6-a5",
        ]
    );
    assert_eq!(openings[2].start_fen.as_deref(), Some("W:Wc3,a1:Bh8"));
    assert_eq!(openings[4].fen, {
        let mut game = Game::new(Variant::Russian);
        for m in ["a3-b4", "d6-c5", "b4:d6", "e7:c5"] {
            game.play_str(m).expect("legal");
        }
        game.position().to_fen()
    });
    let english = parse_custom_table(Variant::English, "11-15 23-19 8-11\n9-13 22-17 13-22")
        .expect("english");
    assert_eq!(english[1].moves, ["9-13", "22-17", "13x22"]);
}

fn refused(variant: Variant, text: &str) -> BallotError {
    parse_custom_table(variant, text).expect_err("refused")
}

#[test]
fn custom_table_errors_name_the_line_code_and_reason() {
    let e = refused(Variant::Russian, "c3-d4\n\n# x\nX1: c3-d4 f6-g5 d4-e6\n");
    assert_eq!(e.code(), "ballot_bad_move");
    assert_eq!(
        e,
        BallotError::BadMove {
            line: 4,
            code: "X1".into(),
            ply: 3,
            text: "d4-e6".into(),
            reason: damka_engine::MoveError::NotASquare { text: "e6".into() },
        }
    );
    assert_eq!(
        e.to_string(),
        "line 4, opening X1: ply 3 (\"d4-e6\"): \"e6\" is not a square of this board"
    );

    let e = refused(Variant::Russian, "c3-b4 b6-a5 b4-c3");
    assert_eq!(
        e.to_string(),
        "line 1, opening 1: ply 3 (\"b4-c3\"): b4-c3 is not a legal move here"
    );
    let e = refused(Variant::Russian, "c3-d4 b6-c5 a3-b4");
    assert_eq!(e.code(), "ballot_bad_move");
    assert!(e.to_string().contains("a capture is compulsory"), "{e}");

    let e = refused(Variant::Russian, "P: W:Wa1,z9:Bh8");
    assert_eq!(e.code(), "ballot_bad_fen");
    assert_eq!(
        e.to_string(),
        "line 1, opening P: bad FEN: column 7: \"z9\" is not a square of this board"
    );

    let e = refused(Variant::Russian, "c3-d4\nA: e3-f4\nA: g3-h4");
    assert_eq!(
        e,
        BallotError::DuplicateCode {
            line: 3,
            code: "A".into(),
            first_line: 2
        }
    );
    // An explicit code may collide with a default one.
    assert_eq!(
        refused(Variant::Russian, "c3-d4\n1: e3-f4").code(),
        "ballot_duplicate_code"
    );

    // A position where White has no move: nothing to play.
    let e = refused(Variant::Russian, "W:Wa1:Bc3,b2");
    assert_eq!(e.code(), "ballot_game_over");
    assert_eq!(
        e.to_string(),
        "line 1, opening 1: the game is already over in this position"
    );
    // A FEN followed by moves is not a form the table accepts: the line is read as a FEN.
    let e = refused(Variant::Russian, "E: W:Wc3:Bd4,h8\nF: W:Wc3:Bd4 c3:e5");
    assert_eq!(
        (
            e.code(),
            e.to_string().starts_with("line 2, opening F: bad FEN")
        ),
        ("ballot_bad_fen", true)
    );
    let e = refused(Variant::English, "9-13 22-18 13-9");
    assert_eq!(e.code(), "ballot_bad_move");

    assert_eq!(
        refused(Variant::Russian, "# only\n\n").code(),
        "ballot_empty"
    );
}

#[test]
fn custom_table_limits_are_enforced() {
    let big = "c3-d4\n".repeat(MAX_TEXT_BYTES / 6 + 1);
    assert_eq!(
        refused(Variant::Russian, &big),
        BallotError::TooLarge {
            size: big.len(),
            limit: MAX_TEXT_BYTES
        }
    );
    let many: String = (0..=MAX_ENTRIES)
        .map(|i| format!("{i}x: c3-d4\n"))
        .collect();
    assert_eq!(
        refused(Variant::Russian, &many),
        BallotError::TooMany {
            line: MAX_ENTRIES + 1,
            limit: MAX_ENTRIES
        }
    );
    let exactly: String = (0..MAX_ENTRIES).map(|i| format!("{i}x: c3-d4\n")).collect();
    assert_eq!(
        parse_custom_table(Variant::Russian, &exactly).map(|t| t.len()),
        Ok(MAX_ENTRIES)
    );
    // Kings shuffling: legal plies, so only the limit stops it.
    let shuffle = "a1-b2 h8-g7 b2-a1 g7-h8 ".repeat(MAX_PLIES / 4 + 1);
    let e = refused(Variant::Russian, &format!("K: {shuffle}"));
    assert_eq!(
        e,
        BallotError::TooLong {
            line: 1,
            code: "K".into(),
            plies: (MAX_PLIES / 4 + 1) * 4,
            limit: MAX_PLIES
        }
    );
    let long_code = format!("{}: c3-d4", "c".repeat(40));
    assert_eq!(
        refused(Variant::Russian, &long_code).code(),
        "ballot_code_too_long"
    );
}

// ---- the draw ----

fn thirty_pairs() -> Vec<(i64, i64)> {
    (0..15).map(|b| (100 + 2 * b, 101 + 2 * b)).collect()
}

#[test]
fn splitmix64_matches_the_reference_sequence() {
    // The first outputs of Vigna's splitmix64.c for the seed 1234567.
    let mut rng = SplitMix64::new(1_234_567);
    let first: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
    assert_eq!(
        first,
        [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ]
    );
    let mut rng = SplitMix64::new(7);
    assert!((0..10_000).all(|_| rng.below(3) < 3));
}

#[test]
fn draw_is_reproducible_from_its_seed() {
    let pairs = thirty_pairs();
    let used = HashMap::new();
    let a = draw(42, 745, &pairs, &used, BallotPer::Pairing);
    let b = draw(42, 745, &pairs, &used, BallotPer::Pairing);
    assert_eq!(a, b);
    // Golden value: a change of the generator or of the way it is used changes the openings
    // stored rounds would be re-drawn with.
    assert_eq!(
        draw(42, 745, &pairs[..5], &used, BallotPer::Pairing),
        GOLDEN_PAIRING
    );
    assert_eq!(
        draw(42, 745, &pairs, &used, BallotPer::Round),
        vec![GOLDEN_ROUND; 15]
    );
    let other = draw(43, 745, &pairs, &used, BallotPer::Pairing);
    assert_ne!(a, other, "another seed, another draw");
    assert!(a.iter().all(|&i| i < 745));
}

const GOLDEN_PAIRING: [usize; 5] = [582, 436, 158, 354, 699];
const GOLDEN_ROUND: usize = 658;

#[test]
fn a_pairs_opening_depends_on_the_seed_and_the_pair_only() {
    let pairs = thirty_pairs();
    let used = HashMap::new();
    let forward = draw(9, 736, &pairs, &used, BallotPer::Pairing);
    let mut reversed_pairs: Vec<(i64, i64)> = pairs.iter().rev().map(|&(a, b)| (b, a)).collect();
    let mut backward = draw(9, 736, &reversed_pairs, &used, BallotPer::Pairing);
    backward.reverse();
    assert_eq!(forward, backward, "board order and colours do not matter");
    reversed_pairs.truncate(3);
    assert_eq!(
        draw(9, 736, &reversed_pairs, &used, BallotPer::Pairing).len(),
        3
    );
}

/// Rounds of 30 players, paired at random (so pairs meet again), plus two players who meet
/// every round: no pair sees an opening twice while the table has one it has not played.
#[test]
fn no_pair_gets_an_opening_twice_across_many_rounds() {
    for (table_len, rounds) in [(745, 9), (12, 30), (5, 12)] {
        let mut used: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        let mut shuffle = SplitMix64::new(table_len as u64);
        for round in 0..rounds {
            let mut players: Vec<i64> = (1..=28).collect();
            for i in (1..players.len()).rev() {
                players.swap(i, shuffle.below(i + 1));
            }
            let mut pairs: Vec<(i64, i64)> = players.chunks(2).map(|c| (c[0], c[1])).collect();
            pairs.push((900, 901));
            let drawn = draw(1000 + round, table_len, &pairs, &used, BallotPer::Pairing);
            assert_eq!(drawn.len(), pairs.len());
            for (&pair, &opening) in pairs.iter().zip(&drawn) {
                let key = (pair.0.min(pair.1), pair.0.max(pair.1));
                let history = used.entry(key).or_default();
                if history.len() < table_len {
                    assert!(!history.contains(&opening), "{key:?} got {opening} again");
                } else {
                    // Exhausted: the opening played longest ago, so the table is cycled.
                    assert_eq!(opening, history[history.len() - table_len]);
                }
                history.push(opening);
            }
        }
        let fixed = &used[&(900, 901)];
        assert_eq!(fixed.len(), rounds as usize);
        let distinct: HashSet<usize> = fixed.iter().copied().collect();
        assert_eq!(distinct.len(), fixed.len().min(table_len));
    }
}

#[test]
fn round_mode_gives_every_board_one_opening_none_of_them_played() {
    let pairs = thirty_pairs();
    let mut used: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    // Between them the pairs have played 0..=7 of a table of 10; 8 and 9 are fresh.
    for (i, &pair) in pairs.iter().enumerate() {
        used.insert(pair, vec![i % 8]);
    }
    for seed in 0..50 {
        let drawn = draw(seed, 10, &pairs, &used, BallotPer::Round);
        assert_eq!(drawn.len(), pairs.len());
        assert!(
            drawn.iter().all(|&o| o == drawn[0]),
            "one opening per round"
        );
        assert!(drawn[0] == 8 || drawn[0] == 9, "{drawn:?}");
    }
    // Everything played by someone: among the openings the fewest pairs have had. Pairs
    // 0..=7 had 0..=7 and pairs 8..=14 had 0..=6; now pair 0 also had 8 and 9, pair 1 had 9:
    // 7 and 8 were played by one pair each, every other opening by two.
    used.insert(pairs[0], vec![0, 8, 9]);
    used.insert(pairs[1], vec![1, 9]);
    let chosen: HashSet<usize> = (0..50)
        .map(|seed| draw(seed, 10, &pairs, &used, BallotPer::Round)[0])
        .collect();
    assert_eq!(chosen, HashSet::from([7, 8]));
}

#[test]
fn edge_cases_of_the_draw() {
    let used = HashMap::new();
    assert!(draw(1, 0, &thirty_pairs(), &used, BallotPer::Pairing).is_empty());
    assert!(draw(1, 10, &[], &used, BallotPer::Round).is_empty());
    assert_eq!(draw(1, 1, &[(1, 2)], &used, BallotPer::Pairing), [0]);
    // A key written (max, min) is found too, and indices outside the table are ignored.
    let mut reversed = HashMap::new();
    reversed.insert((2, 1), vec![0, 99]);
    assert_eq!(draw(5, 2, &[(1, 2)], &reversed, BallotPer::Pairing), [1]);
}
