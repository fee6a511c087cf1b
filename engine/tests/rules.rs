//! One test per rule of RULES.md, each in a position where that rule decides the outcome.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::{
    CaptureChoice, Color, Game, MoveError, Position, Rules, Status, Variant, WinReason, parse_move,
};

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.notation()).collect();
    moves.sort();
    moves
}

fn moves(variant: impl Into<Rules>, fen: &str) -> Vec<String> {
    sorted_moves(&Position::from_fen(variant, fen).unwrap())
}

#[test]
fn start_positions_and_first_mover() {
    let russian = Position::start(Variant::Russian);
    assert_eq!(russian.side_to_move(), Color::White);
    assert_eq!(russian.pieces().len(), 24);
    let english = Position::start(Variant::English);
    assert_eq!(
        english.side_to_move(),
        Color::Black,
        "in english Black moves first"
    );
    assert_eq!(
        sorted_moves(&english),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    let international = Position::start(Variant::International);
    assert_eq!(international.pieces().len(), 40);
    assert_eq!(international.legal_moves().len(), 9);
}

#[test]
fn men_move_forward_only() {
    assert_eq!(moves(Variant::Russian, "W:Wc3:Bh8"), ["c3-b4", "c3-d4"]);
    assert_eq!(moves(Variant::Russian, "B:Wa1:Bc3"), ["c3-b2", "c3-d2"]);
}

#[test]
fn men_capture_backwards_except_in_english() {
    // The white man on d4 can take c3 backwards in russian, international-style and brazilian.
    assert_eq!(moves(Variant::Russian, "W:Wd4:Bc3"), ["d4:b2"]);
    assert_eq!(moves(Variant::Brazilian, "W:Wd4:Bc3"), ["d4xb2"]);
    // English: square 18 is d4's equivalent, 22 is c3 (1 = b8).
    assert_eq!(moves(Variant::English, "W:W18:B22"), ["18-14", "18-15"]);
    assert_eq!(moves(Variant::English, "W:W22:B18"), ["22x15"]);
}

#[test]
fn capture_is_compulsory() {
    // The man on a3 could move quietly, but c3 must take d4.
    let pos = Position::from_fen(Variant::Russian, "W:Wa3,c3:Bd4,h8").unwrap();
    assert_eq!(sorted_moves(&pos), ["c3:e5"]);
    assert_eq!(
        parse_move(&pos, "a3-b4"),
        Err(MoveError::CaptureCompulsory {
            capturers: vec!["c3".into()]
        })
    );
}

#[test]
fn local_rule_optional_capture() {
    let mut rules = Rules::preset(Variant::English);
    rules.mandatory_capture = false;
    let pos = Position::from_fen(rules, "W:W22,30:B18").unwrap();
    assert_eq!(sorted_moves(&pos), ["22-17", "22x15", "30-25", "30-26"]);
}

#[test]
fn a_started_capture_must_be_completed() {
    // c3 takes d4 then f6: stopping on e5 is not a move.
    let pos = Position::from_fen(Variant::Russian, "W:Wc3:Bd4,f6").unwrap();
    assert_eq!(sorted_moves(&pos), ["c3:e5:g7"]);
    assert!(matches!(
        parse_move(&pos, "c3:e5"),
        Err(MoveError::IllegalPath { .. })
    ));
}

#[test]
fn flying_and_short_kings() {
    assert_eq!(
        moves(Variant::Russian, "W:WKa1:Bh8").len(),
        6,
        "a1 to b2..g7"
    );
    // English kings move one square: king on 29 (a1) has only 25 (b2).
    assert_eq!(moves(Variant::English, "W:WK29:B4"), ["29-25"]);
    // A flying king takes from a distance and may land on any empty square beyond.
    assert_eq!(
        moves(Variant::Russian, "W:WKa1:Bd4"),
        ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
    // English king captures only an adjacent piece.
    assert_eq!(moves(Variant::English, "W:WK29:B18"), ["29-25"]);
    assert_eq!(moves(Variant::English, "W:WK29:B25"), ["29x22"]);
}

#[test]
fn flying_king_must_land_where_it_can_go_on() {
    let pos = Position::from_fen(Variant::Russian, "W:WKa1:Bb2,e5").unwrap();
    // a1 takes b2, lands on c3 or d4 (both see e5 further along a1-h8) and goes on: the two
    // landing squares give the same moves, listed once.
    assert_eq!(sorted_moves(&pos), ["a1:c3:f6", "a1:c3:g7", "a1:c3:h8"]);
    let pos = Position::from_fen(Variant::Russian, "W:WKa1:Bb2,f4").unwrap();
    // After b2 the king could land on c3, d4, e5, f6, g7 or h8, but only from e5 can it go on
    // (taking f4), so it must land there.
    assert_eq!(sorted_moves(&pos), ["a1:e5:g3", "a1:e5:h2"]);
}

#[test]
fn maximum_capture_where_the_preset_has_it() {
    // c3:e5 takes one piece, c3:a5:c7 takes two.
    let fen = "W:Wc3:Bd4,b4,b6";
    assert_eq!(
        moves(Variant::Russian, fen),
        ["c3:a5:c7", "c3:e5"],
        "russian: free choice"
    );
    assert_eq!(
        moves(Variant::Brazilian, fen),
        ["c3xa5xc7"],
        "brazilian: the most pieces"
    );
    let mut rules = Rules::preset(Variant::Russian);
    rules.capture_choice = CaptureChoice::Maximum;
    assert_eq!(moves(rules, fen), ["c3:a5:c7"], "local rule maximum");
}

#[test]
fn a_king_counts_as_one_piece_for_the_maximum() {
    // 33 (f4) can take the king on 28 or the man on 29 and then 19: two men beat one king.
    let fen = "W:W33:BK28,29,19";
    assert_eq!(moves(Variant::International, fen), ["33x24x13"]);
    // One king against one man: equal counts, free choice.
    assert_eq!(
        moves(Variant::International, "W:W33:BK28,29"),
        ["33x22", "33x24"]
    );
}

#[test]
fn promotion_during_a_capture() {
    // English: f6 (11) takes e7 (7) and is crowned on d8 (2); the move ends there although a
    // king on d8 could take c7 (6).
    assert_eq!(moves(Variant::English, "W:W11:B7,6"), ["11x2"]);
    // Russian: the same man is crowned on d8 and goes on taking c7 as a king.
    assert_eq!(
        moves(Variant::Russian, "W:Wf6:Be7,c7"),
        ["f6:d8:a5", "f6:d8:b6"]
    );
    let promoted = Position::from_fen(Variant::Russian, "W:Wf6:Be7,c7").unwrap();
    assert!(promoted.legal_moves().iter().all(|m| m.promotes()));
}

#[test]
fn turkish_strike_captured_pieces_block() {
    // PERFT.md probe: the king may not jump the already taken d2 again.
    let pos = Position::from_fen(Variant::Russian, "W:WKc1:Bd2,e5,c5,c3").unwrap();
    assert_eq!(pos.legal_moves().len(), 4);
}

#[test]
fn duplicate_paths_are_one_move_and_every_spelling_is_accepted() {
    // The man on e3 can go round d4, d6, f6, f4 either way and ends on e3 again.
    let pos = Position::from_fen(Variant::Russian, "W:We3:Bd4,f4,d6,f6").unwrap();
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].captured_count(), 4);
    let one_way = parse_move(&pos, "e3:c5:e7:g5:e3").unwrap();
    let other_way = parse_move(&pos, "e3:g5:e7:c5:e3").unwrap();
    assert_eq!(one_way, other_way);
    assert_eq!(one_way, legal[0]);
    assert_eq!(parse_move(&pos, "e3xe3").unwrap(), legal[0], "short form");
}

#[test]
fn no_legal_move_loses() {
    // Black's only man on a7 is blocked by white men on b6 and c5 (b6 protected from capture).
    let mut game =
        Game::from_position(Position::from_fen(Variant::Russian, "B:Wb6,c5,g1:Ba7").unwrap());
    assert_eq!(
        game.status(),
        Status::Win {
            winner: Color::White,
            reason: WinReason::NoLegalMoves
        }
    );
    assert_eq!(game.play_str("a7-b8"), Err(MoveError::GameOver));
    // No pieces left also means no legal move.
    let mut game = Game::from_position(Position::from_fen(Variant::Russian, "W:Wc3:Bd4").unwrap());
    game.play_str("c3:e5").unwrap();
    assert_eq!(
        game.status(),
        Status::Win {
            winner: Color::White,
            reason: WinReason::NoLegalMoves
        }
    );
}

#[test]
fn resignation_and_agreement() {
    let mut game = Game::new(Variant::International);
    game.resign(Color::White).unwrap();
    assert_eq!(
        game.status(),
        Status::Win {
            winner: Color::Black,
            reason: WinReason::Resignation
        }
    );
    let mut game = Game::new(Variant::English);
    game.agree_draw().unwrap();
    assert!(matches!(game.status(), Status::Draw { .. }));
    assert_eq!(game.resign(Color::Black), Err(MoveError::GameOver));
}

#[test]
fn moves_made_by_each_side() {
    let mut game = Game::new(Variant::English);
    assert_eq!(game.moves_made(Color::Black), 0);
    game.play_str("11-15").unwrap();
    assert_eq!(game.moves_made(Color::Black), 1);
    assert_eq!(game.moves_made(Color::White), 0);
    game.play_str("23-19").unwrap();
    assert_eq!(game.moves_made(Color::White), 1);
    assert_eq!(game.side_to_move(), Color::Black);
    assert_eq!(game.history().len(), 2);
}

#[test]
fn a_king_may_cross_the_same_empty_square_twice() {
    // d2:h6 passes f4, and the last leg d6:h2 passes f4 again.
    let pos = Position::from_fen(Variant::Russian, "W:WKd2:Bg7,d8,g3,e7,g5").unwrap();
    let legal = sorted_moves(&pos);
    assert!(legal.contains(&"d2:h6:f8:d6:h2".to_string()), "{legal:?}");
    assert_eq!(
        parse_move(&pos, "d2:h6:f8:d6:h2").unwrap().captured().len(),
        4
    );
}

#[test]
fn russian_moves_may_be_written_with_numbers() {
    // 22 = c3, 18 = d4 (1 = b8, as in english numbering).
    let start = Position::start(Variant::Russian);
    assert_eq!(parse_move(&start, "22-18").unwrap().notation(), "c3-d4");
}
