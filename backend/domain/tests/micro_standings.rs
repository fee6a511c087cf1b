//! Standings and tie-breaks of a small micro-match event (two games per pairing), worked
//! out by hand, under game points and under match points. The figures count what each
//! round really gave, not the collapsed results the pairing uses.
//!
//! Players 1-4 (ratings 2000, 1900, 1800, 1700), game points of each side:
//! - round 1: 1-4 1.5-0.5, 2-3 1-1
//! - round 2: 3-1 0-2, 4-2 1.5-0.5
//! - round 3: 1-2 1-1, 3-4 2-0 (or, in the second event, 3 the PAB and 4 absent)

use damka_domain::micro_match::{MatchScoring, MicroMatch, collapse};
use damka_domain::standings::{StandingsOptions, compute_standings, crosstable, player_card};
use damka_domain::tiebreak::{EventKind, parse_tiebreak_list};
use damka_domain::tournament::{
    ByeKind, Colour, HalfPoints, Player, RoundEntry, StartNo, Tournament,
};

/// (white, black, white's game half-points) of each board, per round.
type Rounds<'a> = &'a [&'a [(StartNo, StartNo, u32)]];

fn event(
    scoring: MatchScoring,
    rounds: Rounds<'_>,
    byes: &[(usize, StartNo, ByeKind)],
) -> Tournament {
    let m = MicroMatch { games: 2, scoring };
    let mut players: Vec<Player> = [2000, 1900, 1800, 1700]
        .iter()
        .enumerate()
        .map(|(i, &rating)| Player {
            start_no: i as StartNo + 1,
            name: format!("P{}", i + 1),
            rating: Some(rating),
            ..Player::default()
        })
        .collect();
    for (r, boards) in rounds.iter().enumerate() {
        for p in &mut players {
            p.rounds.push(RoundEntry::NotPaired);
            p.round_scores.push(None);
        }
        for &(white, black, white_points) in *boards {
            for (me, opponent, colour, points) in [
                (white, black, Colour::White, white_points),
                (black, white, Colour::Black, 4 - white_points),
            ] {
                let p = &mut players[me as usize - 1];
                p.rounds[r] = RoundEntry::Played {
                    opponent,
                    colour,
                    outcome: collapse(HalfPoints(points), 2),
                    rated: true,
                };
                p.round_scores[r] = Some(m.round_score(HalfPoints(points)));
            }
        }
    }
    let t = Tournament::default();
    for &(r, player, kind) in byes {
        let p = &mut players[player as usize - 1];
        p.rounds[r] = RoundEntry::Bye(kind);
        // The PAB is worth two games won; an absence nothing.
        p.round_scores[r] = Some(match kind {
            ByeKind::PairingAllocated => m.round_win(&t.points),
            _ => HalfPoints::ZERO,
        });
    }
    Tournament {
        name: "micro".into(),
        total_rounds: 3,
        players,
        micro_match: Some(m),
        ..t
    }
}

const ALL_PLAYED: Rounds<'static> = &[
    &[(1, 4, 3), (2, 3, 2)],
    &[(3, 1, 0), (4, 2, 3)],
    &[(1, 2, 2), (3, 4, 4)],
];

fn options(list: &str) -> StandingsOptions {
    StandingsOptions {
        tiebreaks: Some(parse_tiebreak_list(list).expect("tie-breaks")),
        kind: Some(EventKind::Swiss),
        ..StandingsOptions::default()
    }
}

/// (start number, points, figures as printed) in standings order.
fn table(t: &Tournament, list: &str) -> Vec<(StartNo, f64, Vec<String>)> {
    let st = compute_standings(t, &options(list)).expect("standings");
    st.rows
        .iter()
        .map(|r| {
            (
                r.start_no,
                r.points.as_f64(),
                r.tiebreaks.iter().map(ToString::to_string).collect(),
            )
        })
        .collect()
}

fn row(no: StartNo, points: f64, figures: &[&str]) -> (StartNo, f64, Vec<String>) {
    (no, points, figures.iter().map(|s| s.to_string()).collect())
}

#[test]
fn game_points_standings_and_tiebreaks() {
    let t = event(MatchScoring::GamePoints, ALL_PLAYED, &[]);
    // Real points 4.5, 2.5, 3.0, 2.0 (collapsed: 2.5, 1.0, 1.5, 1.0).
    // BH: 1: 2.0+3.0+2.5; 2: 3.0+2.0+4.5; 3: 2.5+4.5+2.0; 4: 4.5+2.5+3.0.
    // SB: 1: 2.0x1.5 + 3.0x2 + 2.5x1 = 11.5; 2: 3.0x1 + 2.0x0.5 + 4.5x1 = 8.5;
    //     3: 2.5x1 + 4.5x0 + 2.0x2 = 6.5; 4: 4.5x0.5 + 2.5x1.5 + 3.0x0 = 6.0.
    // WIN and WON count won pairings, BPG pairings with Black in the first game.
    // TPR: ARO + dp of the real points over 2 points a round; 1: 1800, 4.5 of 6 = 75 %
    // -> +193; 3: 1867, 50 % -> 0; 2: 1833, 42 % -> -57; 4: 1900, 33 % -> -125.
    assert_eq!(
        table(&t, "BH/C1,BH,SB,WIN,WON,BPG,TPR"),
        [
            row(1, 4.5, &["5.5", "7.5", "11.50", "2", "2", "1", "1993"]),
            row(3, 3.0, &["7.0", "9.0", "6.50", "1", "1", "1", "1867"]),
            row(2, 2.5, &["7.5", "9.5", "8.50", "0", "0", "2", "1776"]),
            row(4, 2.0, &["7.5", "10.0", "6.00", "1", "1", "2", "1775"]),
        ]
    );
}

#[test]
fn match_points_standings_and_direct_encounter() {
    let t = event(MatchScoring::MatchPoints, ALL_PLAYED, &[]);
    // Match points 2-1-0: 1 won, won, drew = 5; 2 drew, lost, drew = 2; 3 drew, lost,
    // won = 3; 4 lost, won, lost = 2. 2 and 4 have the same BH (3+2+5 = 5+2+3 = 10):
    // 4 won their encounter, so DE puts 4 first.
    // SB of 1: 2x2 + 3x2 + 2x1 = 12; of 3: 2x1 + 5x0 + 2x2 = 6; of 2: 3x1 + 2x0 + 5x1 = 8;
    // of 4: 5x0 + 2x2 + 3x0 = 4. TPR of 1: 5 of 6 = 83 % -> +273; 2 and 4: 33 % -> -125.
    assert_eq!(
        table(&t, "BH,DE,SB,TPR"),
        [
            row(1, 5.0, &["7.0", "0", "12.00", "2073"]),
            row(3, 3.0, &["9.0", "0", "6.00", "1867"]),
            row(4, 2.0, &["10.0", "1", "4.00", "1775"]),
            row(2, 2.0, &["10.0", "2", "8.00", "1708"]),
        ]
    );
}

#[test]
fn crosstable_and_card_show_the_real_round_points() {
    let t = event(MatchScoring::GamePoints, ALL_PLAYED, &[]);
    let st = compute_standings(&t, &options("BH")).expect("standings");
    let ct = crosstable(&t, &st).expect("crosstable");
    let first = &ct.rows[0];
    assert_eq!(first.start_no, 1);
    let points: Vec<HalfPoints> = first.rounds.iter().map(|c| c.points).collect();
    assert_eq!(points, [HalfPoints(3), HalfPoints(4), HalfPoints(2)]);
    let card = player_card(&t, 4, None, None).expect("card");
    let running: Vec<f64> = card
        .rounds
        .iter()
        .map(|r| r.running_score.as_f64())
        .collect();
    assert_eq!(running, [0.5, 2.0, 2.0]);
    assert_eq!(card.points, HalfPoints(4));
}

#[test]
fn unplayed_rounds_count_a_drawn_micro_match() {
    // Round 3: 1-2 1-1, 3 gets the PAB (2 points), 4 is absent.
    let rounds: Rounds<'_> = &[
        &[(1, 4, 3), (2, 3, 2)],
        &[(3, 1, 0), (4, 2, 3)],
        &[(1, 2, 2)],
    ];
    let t = event(
        MatchScoring::GamePoints,
        rounds,
        &[
            (2, 3, ByeKind::PairingAllocated),
            (2, 4, ByeKind::ZeroPoint),
        ],
    );
    // 4's trailing absence counts, for the opponents, as a drawn micro-match (1 point):
    // 4's adjusted score is 0.5 + 1.5 + 1.0 = 3.0. BH of 1: 3.0 + 3.0 + 2.5 = 8.5.
    // Own unplayed rounds: a dummy with the own score, capped at a drawn micro-match per
    // round (1 point x 3): 3's PAB counts 3.0 (2.5 + 4.5 + 3.0 = 10.0), 4's absence 2.0
    // (4.5 + 2.5 + 2.0 = 9.0).
    let st = compute_standings(&t, &options("BH")).expect("standings");
    let bh = |no| st.row(no).expect("row").tiebreaks[0].to_string();
    assert_eq!(bh(1), "8.5");
    assert_eq!(bh(3), "10.0");
    assert_eq!(bh(4), "9.0");
    assert_eq!(st.row(3).expect("row").points, HalfPoints(6));
}
