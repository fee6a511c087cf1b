//! PDN reading and writing.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::pdn::{PdnErrorKind, ReplayError};
use damka_engine::{Game, MoveError, Position, Rules, Status, Variant, parse_games};

const TWO_GAMES: &str = r#"[Event "Club championship"]
[White "Ivanov"]
[Black "Petrov"]
[Result "1-0"]
[GameType "25"]

{Opening: Gorodskaya} 1. c3-d4 f6-e5 2. d4:f6 {sharp} g7:e5 3. g3-f4 e5:g3
4. h2:f4 1-0

[Event "Set-up"]
[GameType "20"]
[FEN "W:W28:B23,13"]
1. 28x19x8 *
"#;

#[test]
fn reads_tags_moves_comments_and_results() {
    let games = parse_games(TWO_GAMES).unwrap();
    assert_eq!(games.len(), 2);
    let first = &games[0];
    assert_eq!(first.tag("white"), Some("Ivanov"));
    assert_eq!(first.tag("Event"), Some("Club championship"));
    assert_eq!(first.intro_comment.as_deref(), Some("Opening: Gorodskaya"));
    let texts: Vec<&str> = first.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4"
        ]
    );
    assert_eq!(first.moves[2].comment.as_deref(), Some("sharp"));
    assert_eq!(first.result.as_deref(), Some("1-0"));
    assert_eq!((first.moves[0].line, first.moves[0].column), (7, 26));

    let game = first.replay(Rules::default()).unwrap();
    assert_eq!(game.history().len(), 7);
    assert_eq!(game.status(), Status::Ongoing);

    let second = &games[1];
    let game = second.replay(Rules::preset(Variant::Russian)).unwrap();
    assert_eq!(
        game.rules().variant,
        Variant::International,
        "GameType 20 wins"
    );
    assert_eq!(game.position().to_fen(), "B:W8:B");
    assert!(matches!(game.status(), Status::Win { .. }));
}

#[test]
fn reports_the_first_illegal_move_with_its_place() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4-c5 *\n";
    let games = parse_games(text).unwrap();
    let err = games[0].replay(Rules::default()).unwrap_err();
    let ReplayError::IllegalMove {
        ply,
        line,
        column,
        error,
        ..
    } = err
    else {
        panic!("expected an illegal move");
    };
    assert_eq!((ply, line, column), (2, 2, 19));
    assert_eq!(
        error,
        MoveError::CaptureCompulsory {
            capturers: vec!["d4".into()]
        }
    );
}

#[test]
fn errors_carry_line_and_column() {
    let err = parse_games("[Event \"x\"]\n1. c3-d4 {unclosed\n").unwrap_err();
    assert_eq!((err.line, err.column), (2, 10));
    assert_eq!(err.kind, PdnErrorKind::UnterminatedComment);
    let err = parse_games("[Event x]\n").unwrap_err();
    assert_eq!((err.line, err.column), (1, 1));
    assert!(matches!(err.kind, PdnErrorKind::BadTag(_)));
    let err = parse_games("1. c3-d4 }").unwrap_err();
    assert_eq!((err.line, err.column), (1, 10));
    let games = parse_games("[FEN \"W:Wz9\"]\n*").unwrap();
    let err = games[0].start_position(Rules::default()).unwrap_err();
    assert!(matches!(err.kind, PdnErrorKind::Fen(_)));
    assert_eq!(err.line, 1);
    let games = parse_games("[GameType \"99\"]\n*").unwrap();
    assert!(games[0].start_position(Rules::default()).is_err());
}

#[test]
fn numeric_squares_for_russian_when_the_game_type_says_so() {
    let text = "[GameType \"25,W,8,8,N1,0\"]\n[FEN \"W:W22:B18\"]\n1. 22x15 *\n";
    let games = parse_games(text).unwrap();
    let start = games[0].start_position(Rules::default()).unwrap();
    assert_eq!(start.to_fen(), "W:Wc3:Bd4");
}

#[test]
fn written_games_read_back() {
    let mut game = Game::new(Variant::English);
    for mv in ["11-15", "23-19", "8-11", "22-17"] {
        game.play_str(mv).unwrap();
    }
    let pdn = game.to_pdn(&[("Event", "Test"), ("White", "A \"quoted\" name")]);
    assert!(pdn.contains("[GameType \"21\"]"));
    assert!(pdn.contains("1. 11-15 23-19 2. 8-11 22-17 *"));
    let games = parse_games(&pdn).unwrap();
    assert_eq!(games[0].tag("White"), Some("A \"quoted\" name"));
    let replayed = games[0].replay(Rules::default()).unwrap();
    assert_eq!(replayed.position(), game.position());

    // A set-up start with the second player to move gets a FEN tag and "1..." numbering.
    let start = Position::from_fen(Variant::Russian, "B:Wc3:Bf6").unwrap();
    let mut game = Game::from_position(start);
    game.play_str("f6-e5").unwrap();
    let pdn = game.to_pdn(&[]);
    assert!(pdn.contains("[FEN \"B:Wc3:Bf6\"]"), "{pdn}");
    assert!(pdn.contains("1... f6-e5"), "{pdn}");
    let replayed = parse_games(&pdn).unwrap()[0]
        .replay(Rules::default())
        .unwrap();
    assert_eq!(replayed.position(), game.position());
}

/// PDN 3.0 joins a capture's squares with `x`: a Russian game, whose own notation writes
/// `d4:f6`, is written `d4xf6` (every reader takes `x`; not every one takes `:`), and reads
/// back to the same position; the move list itself keeps the variant's `:`.
#[test]
fn captures_are_written_with_x_in_every_variant() {
    let mut russian = Game::new(Variant::Russian);
    for mv in [
        "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4",
    ] {
        russian.play_str(mv).unwrap();
    }
    assert_eq!(russian.history()[2].notation(), "d4:f6");
    let pdn = russian.to_pdn(&[]);
    assert!(
        pdn.contains("1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. g3-f4 e5xg3 4. h2xf4 *"),
        "{pdn}"
    );
    assert!(!pdn.contains(':'), "{pdn}");
    let replayed = parse_games(&pdn).unwrap()[0]
        .replay(Rules::default())
        .unwrap();
    assert_eq!(replayed.position(), russian.position());

    // A multiple capture keeps every square it passes, joined by `x` (international).
    let start = Position::from_fen(Variant::International, "W:W28:B23,13").unwrap();
    let mut international = Game::from_position(start);
    international.play_str("28x19x8").unwrap();
    assert!(international.to_pdn(&[]).contains("1. 28x19x8"));
}
