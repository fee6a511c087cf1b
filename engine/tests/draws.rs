//! Every automatic draw counter, one ply before its limit and at it.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::{
    DrawReason, Game, Move, PieceKind, Position, Rules, Status, Variant, zobrist_hash,
};
use std::collections::HashSet;

/// What the next ply may be, given its index from the start of the sequence.
type Allowed<'a> = dyn Fn(usize, &Move, &Position) -> bool + 'a;

fn is_king_move(mv: &Move, pos: &Position) -> bool {
    pos.piece_at(mv.from())
        .is_some_and(|p| p.kind == PieceKind::King)
}

/// Plays `plies` quiet plies that never repeat a position, never offer a capture to the
/// opponent and satisfy `allowed` (depth-first search with backtracking).
fn play_quiet(game: &mut Game, plies: usize, allowed: &Allowed) {
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(zobrist_hash(game.position()));
    assert!(
        search(game, 0, plies, allowed, &mut seen),
        "no quiet sequence of {plies} plies"
    );
}

fn search(
    game: &mut Game,
    done: usize,
    plies: usize,
    allowed: &Allowed,
    seen: &mut HashSet<u64>,
) -> bool {
    if done == plies {
        return true;
    }
    let position = *game.position();
    for mv in game.legal_moves().to_vec() {
        if mv.is_capture() || mv.promotes() || !allowed(done, &mv, &position) {
            continue;
        }
        let next = position.play(&mv).unwrap();
        let hash = zobrist_hash(&next);
        if seen.contains(&hash) || next.legal_moves().iter().any(Move::is_capture) {
            continue;
        }
        let mut branch = game.clone();
        branch.play(&mv).unwrap();
        seen.insert(hash);
        if search(&mut branch, done + 1, plies, allowed, seen) {
            *game = branch;
            return true;
        }
        seen.remove(&hash);
    }
    false
}

fn any_quiet(_: usize, _: &Move, _: &Position) -> bool {
    true
}

fn kings_only(_: usize, mv: &Move, pos: &Position) -> bool {
    is_king_move(mv, pos)
}

/// Checks that the game is still on after `limit - 1` plies chosen by `allowed` and drawn
/// for `reason` after `limit`.
fn assert_draw_at(rules: Rules, fen: &str, limit: usize, allowed: &Allowed, reason: DrawReason) {
    let start = Position::from_fen(rules, fen).unwrap();
    let mut played = Game::from_position(start);
    play_quiet(&mut played, limit, allowed);
    // Replay the found sequence and look at the status on the way.
    let mut game = Game::from_position(start);
    for (ply, mv) in played.history().iter().enumerate() {
        assert_eq!(game.status(), Status::Ongoing, "after {ply} plies ({fen})");
        game.play(mv).unwrap();
    }
    assert_eq!(game.history().len(), limit);
    assert_eq!(
        game.status(),
        Status::Draw { reason },
        "at the limit ({fen})"
    );
    assert!(
        game.legal_moves().is_empty(),
        "a finished game offers no moves"
    );
}

#[test]
fn threefold_repetition() {
    let mut game = Game::from_position(
        Position::from_fen(Variant::Russian, "W:WKc1,a1,e1,g1:BKf8,b8,d8,h8").unwrap(),
    );
    for (i, mv) in [
        "c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1",
    ]
    .iter()
    .enumerate()
    {
        game.play_str(mv).unwrap();
        assert_eq!(game.status(), Status::Ongoing, "ply {}", i + 1);
    }
    game.play_str("e7-f8").unwrap();
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::ThreefoldRepetition
        },
        "the start position occurs a third time"
    );
}

#[test]
fn russian_two_or_three_pieces_five_moves() {
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,Kc1:BKb8",
        10,
        &any_quiet,
        DrawReason::NoCaptureOrPromotion {
            pieces: 3,
            moves: 5,
        },
    );
}

#[test]
fn russian_four_or_five_pieces_only_kings_fifteen_moves() {
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,c3:BKb8,h6",
        30,
        &kings_only,
        DrawReason::OnlyKingsMoved { moves: 15 },
    );
}

#[test]
fn russian_four_or_five_pieces_thirty_moves() {
    // A man move every 20 plies keeps the "only kings" counter from ending the game first.
    let schedule =
        |ply: usize, mv: &Move, pos: &Position| ply.is_multiple_of(20) != is_king_move(mv, pos);
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,e1,g1:BKb8,h8",
        60,
        &schedule,
        DrawReason::NoCaptureOrPromotion {
            pieces: 5,
            moves: 30,
        },
    );
}

#[test]
fn russian_six_or_seven_pieces_only_kings_twenty_five_moves() {
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,c1,e1:BKb8,h8,d8",
        50,
        &kings_only,
        DrawReason::OnlyKingsMoved { moves: 25 },
    );
}

#[test]
fn russian_six_or_seven_pieces_sixty_moves() {
    let schedule =
        |ply: usize, mv: &Move, pos: &Position| ply.is_multiple_of(40) != is_king_move(mv, pos);
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKc1,a3,e1,g1:BKf8,b6,d8",
        120,
        &schedule,
        DrawReason::NoCaptureOrPromotion {
            pieces: 7,
            moves: 60,
        },
    );
}

#[test]
fn russian_no_counter_with_eight_pieces() {
    let mut game = Game::from_position(
        Position::from_fen(Variant::Russian, "W:WKc1,a1,e1,g1:BKf8,b8,d8,h8").unwrap(),
    );
    play_quiet(&mut game, 150, &kings_only);
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn russian_three_kings_against_a_lone_king() {
    // Counted in moves of the stronger side: White moves first, so its 15th move is ply 29.
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,Kc1,Ke1:BKb8",
        29,
        &any_quiet,
        DrawReason::LoneKingNotCaught { moves: 15 },
    );
}

#[test]
fn russian_lone_king_on_the_main_road() {
    // The lone king stands on the a1-h8 diagonal when the balance arises: 5 moves.
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa3,Kc1,e1:BKd4",
        9,
        &any_quiet,
        DrawReason::LoneKingNotCaught { moves: 5 },
    );
}

#[test]
fn international_sixteen_moves_against_a_lone_king() {
    assert_draw_at(
        Variant::International.into(),
        "W:WK47,K48,K49:BK23",
        32,
        &any_quiet,
        DrawReason::LoneKingNotCaught { moves: 16 },
    );
}

#[test]
fn international_five_moves_with_two_kings_against_one() {
    assert_draw_at(
        Variant::International.into(),
        "W:WK47,K48:BK3",
        10,
        &any_quiet,
        DrawReason::LoneKingNotCaught { moves: 5 },
    );
}

#[test]
fn international_twenty_five_king_moves() {
    assert_draw_at(
        Variant::International.into(),
        "W:WK46,K47,36:BK5,K4,15",
        50,
        &kings_only,
        DrawReason::OnlyKingsMoved { moves: 25 },
    );
}

#[test]
fn brazilian_follows_international_counters() {
    assert_draw_at(
        Variant::Brazilian.into(),
        "W:WKc1,Ke1:BKd8",
        10,
        &any_quiet,
        DrawReason::LoneKingNotCaught { moves: 5 },
    );
}

#[test]
fn english_forty_moves() {
    assert_draw_at(
        Variant::English.into(),
        "W:WK29,K30,21:BK1,K2,12",
        80,
        &kings_only,
        DrawReason::OnlyKingsMoved { moves: 40 },
    );
}

#[test]
fn local_no_progress_limit() {
    let mut rules = Rules::preset(Variant::Russian);
    rules.no_progress_limit = Some(40);
    assert_draw_at(
        rules,
        "W:WKc1,a1,e1,g1:BKf8,b8,d8,h8",
        40,
        &kings_only,
        DrawReason::NoProgressLimit { plies: 40 },
    );
}

#[test]
fn local_move_limit() {
    let mut rules = Rules::preset(Variant::English);
    rules.move_limit = Some(6);
    let start = Position::start(rules);
    assert_draw_at(
        rules,
        &start.to_fen(),
        6,
        &any_quiet,
        DrawReason::MoveLimit { plies: 6 },
    );
}

#[test]
fn local_lone_kings_limit() {
    let mut rules = Rules::preset(Variant::Russian);
    rules.lone_kings_limit = Some(3);
    assert_draw_at(
        rules,
        "W:WKa1:BKb8",
        6,
        &any_quiet,
        DrawReason::LoneKingsLimit { moves: 3 },
    );
}

#[test]
fn a_man_move_restarts_the_only_kings_counter() {
    // 4-5 pieces: 20 king plies, a man move, then 29 king plies is no draw (49 king plies in
    // all, but only 29 since the man moved); the 30th is.
    let schedule = |ply: usize, mv: &Move, pos: &Position| (ply == 20) != is_king_move(mv, pos);
    assert_draw_at(
        Variant::Russian.into(),
        "W:WKa1,c3:BKb8,h6",
        51,
        &schedule,
        DrawReason::OnlyKingsMoved { moves: 15 },
    );
}
