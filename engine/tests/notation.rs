//! Move notation: every accepted spelling and every typed refusal.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::{Game, MoveError, Position, Variant, parse_move};

fn russian(fen: &str) -> Position {
    Position::from_fen(Variant::Russian, fen).unwrap()
}

#[test]
fn canonical_notation_per_variant() {
    let pos = russian("W:Wc3:Bd4,f6");
    assert_eq!(pos.legal_moves()[0].notation(), "c3:e5:g7");
    let pos = Position::from_fen(Variant::Brazilian, "W:Wc3:Bd4,f6").unwrap();
    assert_eq!(pos.legal_moves()[0].notation(), "c3xe5xg7");
    let pos = Position::from_fen(Variant::English, "B:W18,26:B15").unwrap();
    assert_eq!(pos.legal_moves()[0].notation(), "15x22x31");
    let start = Position::start(Variant::International);
    assert!(start.legal_moves().iter().any(|m| m.notation() == "32-28"));
}

#[test]
fn every_spelling_of_a_move_is_accepted() {
    let pos = russian("W:Wc3:Bd4,f6");
    let expected = pos.legal_moves()[0];
    for text in [
        "c3:e5:g7",
        "c3xe5xg7",
        "C3:E5:G7",
        " c3 : e5 : g7 ",
        "c3:g7",
        "c3xg7",
        "c3e5g7",
        "C3E5G7",
        "c3g7",
        "22:15:8",
    ] {
        assert_eq!(parse_move(&pos, text), Ok(expected), "{text}");
    }
    let start = Position::start(Variant::Russian);
    assert_eq!(parse_move(&start, "c3-d4").unwrap().notation(), "c3-d4");
    assert_eq!(parse_move(&start, "c3d4").unwrap().notation(), "c3-d4");
    assert_eq!(parse_move(&start, "22-18").unwrap().notation(), "c3-d4");
    let english = Position::start(Variant::English);
    assert_eq!(parse_move(&english, "11-15").unwrap().notation(), "11-15");
}

#[test]
fn short_form_is_refused_when_ambiguous() {
    // d2 reaches f8 over c3, c5, e7 or over e3, e5, e7.
    let pos = russian("W:Wd2:Bc3,c5,e7,e3,e5");
    let err = parse_move(&pos, "d2:f8").unwrap_err();
    let MoveError::Ambiguous { mut candidates } = err.clone() else {
        panic!("expected ambiguity, got {err:?}");
    };
    candidates.sort();
    assert_eq!(candidates, ["d2:b4:d6:f8", "d2:f4:d6:f8"]);
    assert!(err.to_string().contains("d2:b4:d6:f8"));
    // The full path decides.
    let chosen = parse_move(&pos, "d2:b4:d6:f8").unwrap();
    assert_eq!(chosen.captured().len(), 3);
    assert_eq!(chosen.notation(), "d2:b4:d6:f8");
}

#[test]
fn refusals_say_why() {
    let start = Position::start(Variant::Russian);
    assert_eq!(parse_move(&start, ""), Err(MoveError::Empty));
    assert_eq!(
        parse_move(&start, "c3"),
        Err(MoveError::Malformed { text: "c3".into() })
    );
    assert_eq!(
        parse_move(&start, "c3-z9"),
        Err(MoveError::NotASquare { text: "z9".into() })
    );
    assert_eq!(
        parse_move(&start, "d3-e4"),
        Err(MoveError::NotASquare { text: "d3".into() }),
        "d3 is a light square"
    );
    assert_eq!(
        parse_move(&start, "d4-e5"),
        Err(MoveError::NoPiece {
            square: "d4".into()
        })
    );
    assert_eq!(
        parse_move(&start, "b6-a5"),
        Err(MoveError::NotYourPiece {
            square: "b6".into()
        })
    );
    assert_eq!(
        parse_move(&start, "c3-c4"),
        Err(MoveError::NotASquare { text: "c4".into() })
    );
    assert_eq!(
        parse_move(&start, "c3-e5"),
        Err(MoveError::IllegalPath {
            text: "c3-e5".into()
        })
    );
    assert_eq!(
        parse_move(&start, "a1-b2"),
        Err(MoveError::IllegalPath {
            text: "a1-b2".into()
        }),
        "b2 is occupied"
    );
    let capture = russian("W:Wa3,c3,g3:Bd4,f4");
    assert_eq!(
        parse_move(&capture, "a3-b4"),
        Err(MoveError::CaptureCompulsory {
            capturers: vec!["c3".into(), "g3".into()]
        })
    );
    assert_eq!(
        MoveError::CaptureCompulsory {
            capturers: vec!["c3".into(), "g3".into()]
        }
        .to_string(),
        "a capture is compulsory: capture with the piece on c3, g3"
    );
    // Also when the piece that must capture moves quietly.
    assert!(matches!(
        parse_move(&capture, "c3-b4"),
        Err(MoveError::CaptureCompulsory { .. })
    ));
    // A capture that is not legal (it stops half-way) is an illegal path.
    let chain = russian("W:Wc3:Bd4,f6");
    assert_eq!(
        parse_move(&chain, "c3:e5"),
        Err(MoveError::IllegalPath {
            text: "c3:e5".into()
        })
    );
    let english = Position::start(Variant::English);
    assert_eq!(
        parse_move(&english, "33-29"),
        Err(MoveError::NotASquare { text: "33".into() })
    );
}

#[test]
fn a_finished_game_refuses_moves() {
    let mut game = Game::from_position(russian("W:Wc3:Bd4"));
    game.play_str("c3:e5").unwrap();
    assert_eq!(game.play_str("e5-d6"), Err(MoveError::GameOver));
}

#[test]
fn move_accessors() {
    let pos = russian("W:Wc3:Bd4,f6");
    let mv = pos.legal_moves()[0];
    let size = pos.board_size();
    let names = |squares: Vec<damka_engine::Square>| {
        squares
            .into_iter()
            .map(|s| s.algebraic(size))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(mv.path()), ["c3", "e5", "g7"]);
    assert_eq!(names(mv.captured()), ["f6", "d4"]);
    assert!(mv.is_capture());
    assert!(!mv.promotes());
    assert_eq!(mv.from().algebraic(size), "c3");
    assert_eq!(mv.to().algebraic(size), "g7");
}

#[test]
fn a_capture_path_may_cross_its_own_starting_square() {
    // Found by the property test: the king on d2 goes round and passes d2 again.
    let pos = Position::from_fen(Variant::Russian, "B:Wb6,e5,b4,e3:BKd2").unwrap();
    for mv in pos.legal_moves() {
        assert_eq!(
            parse_move(&pos, &mv.notation()),
            Ok(mv),
            "{}",
            mv.notation()
        );
    }
}

#[test]
fn the_separator_tells_a_quiet_move_from_a_capture_with_the_same_squares() {
    // With optional capture the king may step c7-d8 or take four pieces round to d8.
    let mut rules = damka_engine::Rules::preset(Variant::Russian);
    rules.mandatory_capture = false;
    let pos = Position::from_fen(rules, "W:WKc7:Bb6,b4,d4,e7").unwrap();
    let quiet = parse_move(&pos, "c7-d8").unwrap();
    assert!(!quiet.is_capture());
    let capture = parse_move(&pos, "c7:d8").unwrap();
    assert_eq!(capture.notation(), "c7:a5:c3:f6:d8");
    assert_eq!(parse_move(&pos, "c7xa5xc3xf6xd8"), Ok(capture));
}

#[test]
fn two_squares_are_the_full_path_of_a_single_capture() {
    // d6:h2 takes g3 alone; d6:a3:c1:f4:h2 ends on the same square taking four pieces. The
    // two-square spelling is the complete path of the first, not a short form of both.
    let pos = russian("W:WKd6:Bd2,c5,g3,b2");
    let single = parse_move(&pos, "d6:h2").unwrap();
    assert_eq!(single.captured_count(), 1);
    let long = parse_move(&pos, "d6:a3:c1:f4:h2").unwrap();
    assert_eq!(long.captured_count(), 4);
    assert_eq!(long.to(), single.to());
}
