//! Standings after any round, shared places, crosstable, round reports and player cards.

mod common;

use common::fixture;
use damka_domain::berger::{RoundPairings, double_round_robin, single_round_robin};
use damka_domain::standings::{
    ResultCode, StandingsError, StandingsOptions, compute_standings, crosstable, player_card,
    round_report,
};
use damka_domain::tiebreak::{EventKind, HistoryError, parse_tiebreak_list};
use damka_domain::tournament::{Colour, HalfPoints, Outcome, Player, RoundEntry, Tournament};

fn options(codes: &str, after: Option<u32>, kind: EventKind) -> StandingsOptions {
    StandingsOptions {
        after_round: after,
        tiebreaks: Some(parse_tiebreak_list(codes).expect("valid")),
        kind: Some(kind),
        unrated_rating: None,
    }
}

/// (place, start no, points, tie-breaks) as f64 for comparison.
fn table(t: &Tournament, o: &StandingsOptions) -> Vec<Vec<f64>> {
    compute_standings(t, o)
        .expect("valid")
        .rows
        .iter()
        .map(|r| {
            let mut v = vec![f64::from(r.place), f64::from(r.start_no), r.points.as_f64()];
            v.extend(r.tiebreaks.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)));
            v
        })
        .collect()
}

/// Swiss A cut after rounds 2 and 3 (cross-checked with TieBreakServer `-n 2`, `-n 3`).
/// After round 2 the bye cap is ½ x 2 = 1: player 3's forfeit win counts min(1.5, adjusted
/// 7 = 1) = 1, so BH 3 = 1 + 1 = 2; player 5's half-point bye is then its last round and
/// counts ½ for its opponents; its own dummy is min(½, 1) = ½: BH 5 = 2 + ½, Cut-1 2.
#[test]
fn standings_after_earlier_rounds() {
    let t = fixture("swiss_unplayed.trf");
    let codes = "BH/C1,BH,SB,WIN";
    let after2 = [
        [1.0, 1.0, 2.0, 1.0, 1.5, 1.5, 2.0],
        [2.0, 3.0, 1.5, 1.0, 2.0, 1.5, 1.0],
        [3.0, 4.0, 1.0, 2.0, 3.0, 1.0, 1.0],
        [4.0, 2.0, 1.0, 1.5, 2.0, 1.0, 0.0],
        [5.0, 7.0, 1.0, 0.5, 1.5, 0.5, 1.0],
        [6.0, 5.0, 0.5, 2.0, 2.5, 0.25, 0.0],
        [7.0, 6.0, 0.5, 1.0, 2.0, 0.5, 0.0],
    ];
    assert_eq!(
        table(&t, &options(codes, Some(2), EventKind::Swiss)),
        after2
    );
    let after3 = [
        [1.0, 1.0, 2.5, 3.5, 4.5, 3.5, 2.0],
        [2.0, 3.0, 2.0, 4.5, 6.0, 3.75, 1.0],
        [3.0, 2.0, 2.0, 3.0, 4.0, 2.5, 1.0],
        [4.0, 5.0, 1.5, 4.0, 5.5, 2.25, 1.0],
        [5.0, 4.0, 1.0, 4.5, 5.5, 1.0, 1.0],
        [6.0, 7.0, 1.0, 2.0, 3.0, 1.0, 1.0],
        [7.0, 6.0, 0.5, 3.5, 4.0, 1.0, 0.0],
    ];
    assert_eq!(
        table(&t, &options(codes, Some(3), EventKind::Swiss)),
        after3
    );
    let err = compute_standings(&t, &options(codes, Some(9), EventKind::Swiss));
    assert!(matches!(
        err,
        Err(StandingsError::History(HistoryError::RoundOutOfRange {
            after: 9,
            ..
        }))
    ));
}

/// Builds a round-robin from the Berger schedule; `result(white, black)` gives White's
/// outcome.
fn round_robin(
    n: u32,
    schedule: &[RoundPairings],
    result: impl Fn(u32, u32, u32) -> Outcome,
) -> Tournament {
    let mut players: Vec<Player> = (1..=n)
        .map(|s| Player {
            start_no: s,
            name: format!("P{s}"),
            rating: Some(2000 - 10 * s),
            ..Player::default()
        })
        .collect();
    for r in schedule {
        for b in &r.boards {
            let o = result(r.round, b.white, b.black);
            let inv = match o {
                Outcome::Win => Outcome::Loss,
                Outcome::Draw => Outcome::Draw,
                Outcome::Loss => Outcome::Win,
            };
            players[b.white as usize - 1]
                .rounds
                .push(RoundEntry::Played {
                    opponent: b.black,
                    colour: Colour::White,
                    outcome: o,
                    rated: true,
                });
            players[b.black as usize - 1]
                .rounds
                .push(RoundEntry::Played {
                    opponent: b.white,
                    colour: Colour::Black,
                    outcome: inv,
                    rated: true,
                });
        }
        if let Some(bye) = r.bye {
            players[bye as usize - 1].rounds.push(RoundEntry::NotPaired);
        }
    }
    Tournament {
        name: "rr".into(),
        total_rounds: schedule.len() as u32,
        players,
        ..Tournament::default()
    }
}

#[test]
fn everything_equal_shares_the_place() {
    // All draws: everybody 1.5, SB 2.25, no DE separation, no wins: places 1-4 shared,
    // listed by start number.
    let s = single_round_robin(4).expect("4");
    let t = round_robin(4, &s, |_, _, _| Outcome::Draw);
    assert_eq!(EventKind::detect(&t), EventKind::RoundRobin);
    let st = compute_standings(&t, &StandingsOptions::default()).expect("valid");
    assert_eq!(st.kind, EventKind::RoundRobin);
    assert_eq!(
        st.tiebreaks.iter().map(|t| t.code()).collect::<Vec<_>>(),
        ["SB", "DE", "WIN"]
    );
    let labels: Vec<String> = st.rows.iter().map(|r| r.place_label()).collect();
    assert_eq!(labels, ["1-4", "1-4", "1-4", "1-4"]);
    assert_eq!(
        st.rows.iter().map(|r| r.start_no).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert!(st.rows.iter().all(|r| r.tiebreaks[0].to_string() == "2.25"));
}

#[test]
fn shared_place_in_the_middle() {
    // 1 beats everybody, 2..5 draw among themselves... except 5 who loses to all:
    // 2, 3 and 4 tie on everything (all draws among them), 5 last.
    let s = single_round_robin(5).expect("5");
    let t = round_robin(5, &s, |_, w, b| match (w, b) {
        (1, _) => Outcome::Win,
        (_, 1) => Outcome::Loss,
        (5, _) => Outcome::Loss,
        (_, 5) => Outcome::Win,
        _ => Outcome::Draw,
    });
    let st =
        compute_standings(&t, &options("SB,DE,WIN", None, EventKind::RoundRobin)).expect("valid");
    let labels: Vec<(String, u32)> = st
        .rows
        .iter()
        .map(|r| (r.place_label(), r.start_no))
        .collect();
    assert_eq!(
        labels,
        [
            ("1".to_string(), 1),
            ("2-4".to_string(), 2),
            ("2-4".to_string(), 3),
            ("2-4".to_string(), 4),
            ("5".to_string(), 5)
        ]
    );
    // The bye of a 5-player round-robin does not enter SB.
    let sb4 = st.row(4).expect("row").tiebreaks[0];
    // 4: draws with 2 and 3 (2 points each), win over 5 (0), loss to 1: 1 + 1 + 0 = 2.
    assert_eq!(sb4.to_string(), "2.00");
}

/// Double round-robin of 4: DE takes both games between the tied players (one win each:
/// not separated).
#[test]
fn double_round_robin_direct_encounter_averages_the_games() {
    let s = double_round_robin(4).expect("4");
    // 1 and 2 each beat the other once with White and 3 twice; 1 draws 4 twice, 2 beats 4
    // once and loses once: 4 points each.
    let t = round_robin(4, &s, |_, w, b| match (w, b) {
        (1, 2) | (2, 1) => Outcome::Win,
        (1, 3) | (2, 3) | (3, 4) => Outcome::Win,
        (3, 1) | (3, 2) | (4, 3) => Outcome::Loss,
        (1, 4) | (4, 1) => Outcome::Draw,
        (2, 4) => Outcome::Win,
        (4, 2) => Outcome::Win,
        _ => Outcome::Draw,
    });
    let st = compute_standings(&t, &options("DE,SB", None, EventKind::RoundRobin)).expect("valid");
    let p1 = st.row(1).expect("1");
    let p2 = st.row(2).expect("2");
    assert_eq!(p1.points, p2.points, "tied on points");
    // DE: 1 vs 2 scored 1 of 2 games (average ½) each: not separated (0 for both).
    assert_eq!(p1.tiebreaks[0].numerator, Some(0));
    assert_eq!(p2.tiebreaks[0].numerator, Some(0));
    // SB is equal too (same results against the same opponents): a shared first place.
    assert_eq!(p1.tiebreaks[1], p2.tiebreaks[1]);
    assert_eq!(p1.place_label(), "1-2");
    assert_eq!(p2.place_label(), "1-2");
}

#[test]
fn swiss_direct_encounter_needs_a_score_nobody_else_can_reach() {
    // Swiss A: players 2 and 3 tie on 3 points and drew each other: DE does not separate.
    let t = fixture("swiss_unplayed.trf");
    let st = compute_standings(&t, &options("DE,BH", None, EventKind::Swiss)).expect("valid");
    assert_eq!(st.row(2).expect("2").tiebreaks[0].numerator, Some(0));
    assert_eq!(st.row(3).expect("3").tiebreaks[0].numerator, Some(0));
    // After round 3: 2 and 3 tie on 2 points again, drew, still not separated; 4 and 7 tie
    // on 1 point but never met: DE 0, BH decides.
    let st = compute_standings(&t, &options("DE,BH", Some(3), EventKind::Swiss)).expect("valid");
    assert_eq!(st.row(4).expect("4").tiebreaks[0].numerator, Some(0));
    assert!(st.row(4).expect("4").place < st.row(7).expect("7").place);
    // After round 2: 2, 4 and 7 tie on 1 point; none met another: nobody is separated.
    let st = compute_standings(&t, &options("DE", Some(2), EventKind::Swiss)).expect("valid");
    for s in [2, 4, 7] {
        assert_eq!(st.row(s).expect("row").place_label(), "3-5");
    }
}

#[test]
fn crosstable_round_report_and_player_card() {
    let t = fixture("swiss_unplayed.trf");
    let st = compute_standings(&t, &StandingsOptions::default()).expect("valid");
    assert_eq!(st.kind, EventKind::Swiss);
    let ct = crosstable(&t, &st).expect("valid");
    let row = &ct.rows[0];
    assert_eq!(row.start_no, 3);
    let cells: Vec<(Option<u32>, Option<u32>, &str)> = row
        .rounds
        .iter()
        .map(|c| (c.opponent, c.opponent_place, c.result.symbol()))
        .collect();
    // 3's rounds: + vs 7 (6th), ½ vs 2 (2nd), ½ vs 1 (3rd), 1 vs 5 (4th).
    assert_eq!(
        cells,
        [
            (Some(7), Some(6), "+"),
            (Some(2), Some(2), "½"),
            (Some(1), Some(3), "½"),
            (Some(5), Some(4), "1")
        ]
    );
    assert!(row.versus.is_empty(), "Swiss layout only");

    let r4 = round_report(&t, 4).expect("round 4");
    let boards: Vec<(u32, u32, &str, &str)> = r4
        .boards
        .iter()
        .map(|b| {
            (
                b.white,
                b.black,
                b.white_result.symbol(),
                b.black_result.symbol(),
            )
        })
        .collect();
    // Ordered by the higher score before the round: 1 (2.5) v 2, 3 (2) v 5, 4 v 6.
    assert_eq!(
        boards,
        [(1, 2, "0", "1"), (3, 5, "1", "0"), (4, 6, "--", "--")]
    );
    assert_eq!(r4.unpaired, [(7, ResultCode::NotPaired)]);
    let r1 = round_report(&t, 1).expect("round 1");
    assert_eq!(r1.unpaired, [(4, ResultCode::PairingAllocatedBye)]);
    assert!(matches!(
        round_report(&t, 5),
        Err(StandingsError::NoSuchRound {
            round: 5,
            rounds: 4
        })
    ));

    let card = player_card(&t, 5, None, None).expect("player 5");
    let running: Vec<f64> = card
        .rounds
        .iter()
        .map(|r| r.running_score.as_f64())
        .collect();
    assert_eq!(running, [0.0, 0.5, 1.5, 1.5]);
    let results: Vec<ResultCode> = card.rounds.iter().map(|r| r.result).collect();
    assert_eq!(
        results,
        [
            ResultCode::Loss,
            ResultCode::HalfPointBye,
            ResultCode::PairingAllocatedBye,
            ResultCode::Loss
        ]
    );
    assert_eq!(card.rounds[0].opponent_name.as_deref(), Some("Player One"));
    assert_eq!(card.rounds[0].colour, Some(Colour::Black));
    // Two games, both lost, against 2000 and 1800: ARO 1900, p = 0 -> -800.
    assert_eq!(card.rated_games, 2);
    assert_eq!(card.average_opponent_rating, Some(1900));
    assert_eq!(card.performance, Some(1100));
    assert_eq!(card.points, HalfPoints(3));
    assert!(matches!(
        player_card(&t, 99, None, None),
        Err(StandingsError::PlayerNotFound(99))
    ));
}

#[test]
fn round_robin_crosstable_has_the_versus_layout() {
    let t = fixture("rr_forfeit_de.trf");
    let st = compute_standings(&t, &StandingsOptions::default()).expect("valid");
    let ct = crosstable(&t, &st).expect("valid");
    // Rows: 2, 1, 4, 3. Row of 4 (third), column of 3 (fourth): forfeit win.
    let row4 = &ct.rows[2];
    assert_eq!(row4.start_no, 4);
    assert_eq!(row4.versus[3].len(), 1);
    assert_eq!(row4.versus[3][0].result, ResultCode::ForfeitWin);
    assert!(row4.versus[2].is_empty(), "diagonal");
    assert_eq!(row4.versus[1][0].result.symbol(), "0", "lost to 1");
}

#[test]
fn bad_histories_are_typed_errors() {
    let mut t = fixture("rr_forfeit_de.trf");
    t.players[0].rounds[0] = RoundEntry::Played {
        opponent: 42,
        colour: Colour::White,
        outcome: Outcome::Win,
        rated: true,
    };
    assert_eq!(
        compute_standings(&t, &StandingsOptions::default()),
        Err(StandingsError::History(HistoryError::UnknownOpponent {
            player: 1,
            opponent: 42,
            round: 1
        }))
    );
    let mut t = fixture("rr_forfeit_de.trf");
    t.players[1].start_no = 1;
    assert_eq!(
        compute_standings(&t, &StandingsOptions::default()),
        Err(StandingsError::History(HistoryError::DuplicateStartNo(1)))
    );
}

#[test]
fn event_kind_detection() {
    assert_eq!(
        EventKind::detect(&fixture("swiss_unplayed.trf")),
        EventKind::Swiss
    );
    // A round-robin of 6 after 2 of its 5 rounds: not everybody met, but XXR = 5 = n-1.
    let s = single_round_robin(6).expect("6");
    let mut t = round_robin(6, &s[..2], |_, _, _| Outcome::Draw);
    t.total_rounds = 5;
    assert_eq!(EventKind::detect(&t), EventKind::RoundRobin);
    t.total_rounds = 4;
    assert_eq!(EventKind::detect(&t), EventKind::Swiss);
}

#[test]
fn plain_text_table() {
    let t = fixture("swiss_last_round_bye.trf");
    let st = compute_standings(&t, &StandingsOptions::default()).expect("valid");
    let text = damka_domain::standings::render_table(&st);
    let want = "\
Rank  SNo  Name     Pts  BH/C1   BH    SB  WIN
1       2  Bravo    3.0    7.0  8.0  5.25    2
2       3  Charlie  2.5    7.5  8.5  4.00    2
3       1  Alpha    2.5    7.0  9.0  5.50    2
4       4  Delta    1.5    7.0  8.0  1.75    1
5       5  Echo     1.5    6.0  7.0  2.25    1
6       6  Foxtrot  1.0    7.0  8.5  1.50    1
";
    assert_eq!(text, want);
    // Shared places print as ranges.
    let s = single_round_robin(4).expect("4");
    let t = round_robin(4, &s, |_, _, _| Outcome::Draw);
    let text = damka_domain::standings::render_table(
        &compute_standings(&t, &StandingsOptions::default()).expect("valid"),
    );
    assert!(
        text.lines().skip(1).all(|l| l.starts_with("1-4 ")),
        "{text}"
    );
}

#[test]
fn huge_start_numbers_are_fine() {
    // Start numbers far apart (a sparse index) give the same standings.
    let mut t = fixture("rr_forfeit_de.trf");
    let dense = compute_standings(&t, &StandingsOptions::default()).expect("valid");
    let map = |s: u32| s * 1_000_000_000;
    for p in &mut t.players {
        p.start_no = map(p.start_no);
        for e in &mut p.rounds {
            match e {
                RoundEntry::Played { opponent, .. }
                | RoundEntry::Forfeit { opponent, .. }
                | RoundEntry::DoubleForfeit { opponent, .. } => *opponent = map(*opponent),
                _ => {}
            }
        }
    }
    let sparse = compute_standings(
        &t,
        &StandingsOptions {
            kind: Some(EventKind::RoundRobin),
            ..StandingsOptions::default()
        },
    )
    .expect("valid");
    assert_eq!(dense.rows.len(), sparse.rows.len());
    for (d, s) in dense.rows.iter().zip(&sparse.rows) {
        assert_eq!(map(d.start_no), s.start_no);
        assert_eq!(d.tiebreaks, s.tiebreaks);
        assert_eq!(d.place_label(), s.place_label());
    }
    t.players[1].start_no = t.players[0].start_no;
    assert_eq!(
        compute_standings(&t, &StandingsOptions::default()),
        Err(StandingsError::History(HistoryError::DuplicateStartNo(
            1_000_000_000
        )))
    );
}
