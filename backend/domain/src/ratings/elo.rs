//! The federation Elo rating, by the FIDE rating regulations in force from 1 March 2024
//! (FMJD's Annex 9 is Elo-based in the same way), as `../shared/RATINGS.md` gives them.
//!
//! A rating period is one event (or one calendar month of standalone games): every game in
//! it is scored against the ratings as they stood before the period. Ratings are whole
//! numbers, as FIDE publishes them; all arithmetic is exact integer arithmetic in
//! hundredths of a point, so a recompute gives exactly the same figures on any machine.
//!
//! Rounding, in one place:
//! - the change `K · Σ(score − P)` is rounded to the nearest whole number, 0.5 away from
//!   zero (FIDE 8.3.4);
//! - an average of opponents' ratings is rounded half up;
//! - the percentage score for the dp table is rounded half up to two decimals
//!   ([`crate::tiebreak::rating::dp`]).
//!
//! Where RATINGS.md is silent, the choices made here:
//! - K: a new player (under 30 games) or a junior below 2300 has 40 even if 2400 was once
//!   reached; "reached 2400" means a rating after a period (or an imported one) of 2400+;
//! - the floor also lifts a first rating that computes below 1400, and an imported rating
//!   below 1400 comes up to the floor at its next period;
//! - games against unrated opponents are not passed in: the caller leaves them out, as FIDE
//!   does for rated players and for an unrated player's first rating.

use crate::ratings::Score;
use crate::tiebreak::rating::dp;
use crate::tournament::HalfPoints;

/// The lowest rating there is: a period that would take a player below it leaves them here.
pub const RATING_FLOOR: EloRating = EloRating(1400);
/// A first rating never exceeds this, however strong the first games were.
pub const FIRST_RATING_CAP: EloRating = EloRating(2200);
/// Games against rated opponents an unrated player needs before a first rating.
pub const GAMES_FOR_FIRST_RATING: u32 = 5;
/// The rating of the two hypothetical opponents a first rating adds, each drawn.
pub const HYPOTHETICAL_OPPONENT: EloRating = EloRating(1800);
/// The most a period may change a rating by K: K · games never exceeds this.
pub const MAX_K_TIMES_GAMES: u32 = 700;
/// Rating differences beyond this count as this much (FIDE 8.3.1).
pub const MAX_COUNTED_DIFFERENCE: u32 = 400;

/// A published Elo rating: whole points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EloRating(pub u32);

/// One rated game of a period, from the rated player's side. Only games against rated
/// opponents count, so the opponent always has a rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EloGame {
    /// The opponent's rating before the period.
    pub opponent: EloRating,
    pub score: Score,
}

/// What an unrated player has played so far against rated opponents: the sums the first
/// rating needs, so collecting them costs no allocation however many periods it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnratedRecord {
    pub games: u32,
    pub opponents_rating_sum: u64,
    pub score: HalfPoints,
}

/// A rated player's state between periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedRecord {
    pub rating: EloRating,
    /// Rated games played so far, the games of the first rating included (K 40 until 30).
    pub games: u32,
    /// Whether a published rating ever reached 2400: K stays 10 afterwards, even below it.
    pub reached_2400: bool,
}

/// A player's Elo state in one variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EloState {
    Unrated(UnratedRecord),
    Rated(RatedRecord),
}

impl EloState {
    /// A player who has played no rated game.
    pub fn new_player() -> EloState {
        EloState::Unrated(UnratedRecord::default())
    }

    /// A player carried over with an existing rating (an imported list).
    pub fn rated(rating: EloRating, games: u32) -> EloState {
        EloState::Rated(RatedRecord {
            rating,
            games,
            reached_2400: rating.0 >= 2400,
        })
    }

    pub fn rating(&self) -> Option<EloRating> {
        match self {
            EloState::Unrated(_) => None,
            EloState::Rated(record) => Some(record.rating),
        }
    }
}

/// A player as the K factor needs them: their state and, when known, the year of birth
/// (for the under-18 rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EloPlayer {
    pub state: EloState,
    pub birth_year: Option<i32>,
}

/// One rating period: its calendar year (for the under-18 rule) and its games.
#[derive(Debug, Clone, Copy)]
pub struct EloPeriod<'a> {
    pub year: i32,
    pub games: &'a [EloGame],
}

/// What one period did to a player's rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EloUpdate {
    /// Still unrated: fewer than 5 games against rated opponents so far.
    StillUnrated { games_so_far: u32 },
    /// The period completed the games a first rating needs.
    FirstRating { rating: EloRating },
    /// A rated player's rating moved by `change` (after the floor), with this K.
    Changed {
        before: EloRating,
        after: EloRating,
        k: u32,
        change: i32,
    },
}

/// The player's state after the period and what happened to the rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EloOutcome {
    pub state: EloState,
    pub update: EloUpdate,
}

/// Rates one period. A period without games leaves the state as it was.
pub fn rate_period(player: &EloPlayer, period: EloPeriod<'_>) -> EloOutcome {
    match player.state {
        EloState::Unrated(record) => rate_unrated(record, period.games),
        EloState::Rated(record) => {
            let junior = is_junior(player.birth_year, period.year);
            rate_rated(record, junior, period.games)
        }
    }
}

/// Whether the under-18 rule applies: until the end of the year of the 18th birthday.
pub fn is_junior(birth_year: Option<i32>, period_year: i32) -> bool {
    birth_year.is_some_and(|born| period_year <= born + 18)
}

/// FIDE's development coefficient before the 700 limit. A new player keeps 40 for the first
/// 30 games, a junior below 2300 keeps 40; otherwise 10 once 2400 was reached, else 20.
pub fn k_factor(record: &RatedRecord, junior: bool) -> u32 {
    if record.games < 30 || (junior && record.rating.0 < 2300) {
        40
    } else if record.reached_2400 {
        10
    } else {
        20
    }
}

/// K lowered to the largest whole number with K · games <= 700, so one long event cannot
/// move a rating by more than 700 points.
pub fn k_within_period_limit(k: u32, games: usize) -> u32 {
    let games = u32::try_from(games).unwrap_or(u32::MAX);
    if games == 0 {
        return k;
    }
    k.min(MAX_K_TIMES_GAMES / games)
}

/// Expected score, in hundredths, of a player rated `own` against `opponent`, from FIDE
/// table 8.1b with differences over 400 counted as 400.
pub fn expected_score_hundredths(own: EloRating, opponent: EloRating) -> i64 {
    let difference = own.0.abs_diff(opponent.0).min(MAX_COUNTED_DIFFERENCE);
    // The row is the first whose upper bound is at least the difference; rows start at .50.
    let row = EXPECTED_SCORE_ROW_UPPER_BOUNDS.partition_point(|&upper| upper < difference);
    let higher_rated = 50 + row as i64;
    if own >= opponent {
        higher_rated
    } else {
        100 - higher_rated
    }
}

/// FIDE table 8.1b: upper bounds of the rating-difference rows for P = .50, .51, ..., .92.
const EXPECTED_SCORE_ROW_UPPER_BOUNDS: [u32; 43] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 400,
];

/// Rating change before the floor: K · Σ(score − P), rounded 0.5 away from zero.
pub fn rating_change(own: EloRating, k: u32, games: &[EloGame]) -> i32 {
    let surplus_hundredths: i64 = games
        .iter()
        .map(|game| game.score.hundredths() - expected_score_hundredths(own, game.opponent))
        .sum();
    let change = divide_rounding_half_away_from_zero(i64::from(k) * surplus_hundredths, 100);
    i32::try_from(change).unwrap_or(if change < 0 { i32::MIN } else { i32::MAX })
}

fn rate_rated(record: RatedRecord, junior: bool, games: &[EloGame]) -> EloOutcome {
    let k = k_within_period_limit(k_factor(&record, junior), games.len());
    let unfloored = i64::from(record.rating.0) + i64::from(rating_change(record.rating, k, games));
    let after = EloRating(clamp_to_u32(unfloored).max(RATING_FLOOR.0));
    let played = u32::try_from(games.len()).unwrap_or(u32::MAX);
    let state = EloState::Rated(RatedRecord {
        rating: after,
        games: record.games.saturating_add(played),
        reached_2400: record.reached_2400 || after.0 >= 2400,
    });
    let change = i64::from(after.0) - i64::from(record.rating.0);
    EloOutcome {
        state,
        update: EloUpdate::Changed {
            before: record.rating,
            after,
            k,
            change: i32::try_from(change).unwrap_or(0),
        },
    }
}

fn rate_unrated(record: UnratedRecord, games: &[EloGame]) -> EloOutcome {
    let record = games.iter().fold(record, |sums, game| UnratedRecord {
        games: sums.games.saturating_add(1),
        opponents_rating_sum: sums.opponents_rating_sum + u64::from(game.opponent.0),
        score: sums.score + game.score.half_points(),
    });
    if record.games < GAMES_FOR_FIRST_RATING {
        return EloOutcome {
            state: EloState::Unrated(record),
            update: EloUpdate::StillUnrated {
                games_so_far: record.games,
            },
        };
    }
    let rating = first_rating(&record);
    EloOutcome {
        state: EloState::Rated(RatedRecord {
            rating,
            games: record.games,
            reached_2400: false,
        }),
        update: EloUpdate::FirstRating { rating },
    }
}

/// The first rating: performance over the games so far plus two draws against 1800,
/// capped at 2200 and never below the floor.
pub fn first_rating(record: &UnratedRecord) -> EloRating {
    let with_hypothetical_draws = UnratedRecord {
        games: record.games + 2,
        opponents_rating_sum: record.opponents_rating_sum + 2 * u64::from(HYPOTHETICAL_OPPONENT.0),
        score: record.score + Score::Draw.half_points() + Score::Draw.half_points(),
    };
    let performance = performance_of_sums(&with_hypothetical_draws).unwrap_or(RATING_FLOOR);
    EloRating(performance.0.clamp(RATING_FLOOR.0, FIRST_RATING_CAP.0))
}

/// Performance rating Rp = Ra + dp(p) over `games` (FIDE 8.2, full table 8.1a): Ra the
/// average opponent rating rounded half up. `None` without games; never below zero.
pub fn performance_rating(games: &[EloGame]) -> Option<EloRating> {
    let sums = games
        .iter()
        .fold(UnratedRecord::default(), |sums, game| UnratedRecord {
            games: sums.games.saturating_add(1),
            opponents_rating_sum: sums.opponents_rating_sum + u64::from(game.opponent.0),
            score: sums.score + game.score.half_points(),
        });
    performance_of_sums(&sums)
}

fn performance_of_sums(sums: &UnratedRecord) -> Option<EloRating> {
    if sums.games == 0 {
        return None;
    }
    let games = u64::from(sums.games);
    let average = (2 * sums.opponents_rating_sum + games) / (2 * games);
    let dp = dp(sums.score, sums.games, HalfPoints::ONE)?;
    let average = i64::try_from(average).ok()?;
    Some(EloRating(clamp_to_u32(average + i64::from(dp))))
}

fn divide_rounding_half_away_from_zero(numerator: i64, denominator: i64) -> i64 {
    let magnitude = (2 * numerator.abs() + denominator) / (2 * denominator);
    if numerator < 0 { -magnitude } else { magnitude }
}

fn clamp_to_u32(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opponent: u32, score: Score) -> EloGame {
        EloGame {
            opponent: EloRating(opponent),
            score,
        }
    }

    fn rated(rating: u32, games: u32, reached_2400: bool) -> EloPlayer {
        EloPlayer {
            state: EloState::Rated(RatedRecord {
                rating: EloRating(rating),
                games,
                reached_2400,
            }),
            birth_year: None,
        }
    }

    fn changed(outcome: EloOutcome) -> (u32, u32, i32) {
        match outcome.update {
            EloUpdate::Changed {
                after, k, change, ..
            } => (after.0, k, change),
            other => panic!("expected a rating change, got {other:?}"),
        }
    }

    #[test]
    fn expected_score_follows_the_table_not_the_logistic_curve() {
        // D = 25: the table says .53 where the logistic formula rounds to .54.
        assert_eq!(
            expected_score_hundredths(EloRating(2025), EloRating(2000)),
            53
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2000), EloRating(2025)),
            47
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2000), EloRating(2000)),
            50
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2003), EloRating(2000)),
            50
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2004), EloRating(2000)),
            51
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2026), EloRating(2000)),
            54
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2391), EloRating(2000)),
            91
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2392), EloRating(2000)),
            92
        );
    }

    #[test]
    fn differences_over_400_count_as_400() {
        assert_eq!(
            expected_score_hundredths(EloRating(2400), EloRating(2000)),
            92
        );
        assert_eq!(
            expected_score_hundredths(EloRating(2900), EloRating(2000)),
            92
        );
        assert_eq!(
            expected_score_hundredths(EloRating(1500), EloRating(2400)),
            8
        );
        // A 2700 player beating a 2000 player gains as if the gap were 400: 10 · (1 − .92).
        let outcome = rate_period(
            &rated(2700, 100, true),
            EloPeriod {
                year: 2026,
                games: &[game(2000, Score::Win)],
            },
        );
        assert_eq!(changed(outcome), (2701, 10, 1));
    }

    #[test]
    fn k_40_for_a_new_player_until_30_games() {
        // 1600 beats 1700: P = .36, 40 · .64 = 25.6 → 26.
        let period = EloPeriod {
            year: 2026,
            games: &[game(1700, Score::Win)],
        };
        assert_eq!(
            changed(rate_period(&rated(1600, 29, false), period)),
            (1626, 40, 26)
        );
        // With 30 games K is 20: 20 · .64 = 12.8 → 13.
        assert_eq!(
            changed(rate_period(&rated(1600, 30, false), period)),
            (1613, 20, 13)
        );
    }

    #[test]
    fn k_10_once_2400_was_reached_even_below_it() {
        // 2390 draws 2390: no change whatever K; loses to 2390: 10 · −.5 = −5.
        let period = EloPeriod {
            year: 2026,
            games: &[game(2390, Score::Loss)],
        };
        assert_eq!(
            changed(rate_period(&rated(2390, 200, true), period)),
            (2385, 10, -5)
        );
        assert_eq!(
            changed(rate_period(&rated(2390, 200, false), period)),
            (2380, 20, -10)
        );
    }

    #[test]
    fn crossing_2400_makes_k_10_for_the_next_period() {
        let win = EloPeriod {
            year: 2026,
            games: &[game(2395, Score::Win)],
        };
        let first = rate_period(&rated(2395, 200, false), win);
        assert_eq!(changed(first), (2405, 20, 10));
        let next = EloPlayer {
            state: first.state,
            birth_year: None,
        };
        assert_eq!(changed(rate_period(&next, win)).1, 10);
    }

    #[test]
    fn under_18_rule_keeps_k_40_below_2300_until_the_end_of_the_18th_year() {
        let born_2008 = |rating| EloPlayer {
            birth_year: Some(2008),
            ..rated(rating, 200, false)
        };
        let draw = [game(2000, Score::Draw)];
        let in_year = |year| EloPeriod { year, games: &draw };
        // 1900 draws 2000: P = .36, 40 · .14 = 5.6 → 6 in the year of the 18th birthday.
        assert_eq!(
            changed(rate_period(&born_2008(1900), in_year(2026))),
            (1906, 40, 6)
        );
        // The year after: K 20, 20 · .14 = 2.8 → 3.
        assert_eq!(
            changed(rate_period(&born_2008(1900), in_year(2027))),
            (1903, 20, 3)
        );
        // At 2300 the junior rule no longer applies.
        assert_eq!(changed(rate_period(&born_2008(2300), in_year(2026))).1, 20);
        // Without a known birth year nobody is a junior.
        assert!(!is_junior(None, 2026));
    }

    #[test]
    fn k_times_games_never_exceeds_700() {
        assert_eq!(k_within_period_limit(40, 17), 40);
        assert_eq!(k_within_period_limit(40, 18), 38);
        assert_eq!(k_within_period_limit(20, 35), 20);
        assert_eq!(k_within_period_limit(20, 36), 19);
        assert_eq!(k_within_period_limit(10, 71), 9);
        // A new player winning 20 games against equals: K = 35, 35 · 20 · .5 = 350.
        let games = [game(1600, Score::Win); 20];
        let outcome = rate_period(
            &rated(1600, 0, false),
            EloPeriod {
                year: 2026,
                games: &games,
            },
        );
        assert_eq!(changed(outcome), (1950, 35, 350));
    }

    #[test]
    fn change_rounds_half_away_from_zero() {
        // 2000 vs 2025 (P .47): a draw gains 20 · .03 = .6 → 1; against 2000 + 2004 (P .50, .49)
        // losing both: 20 · (−.5 − .49) = −19.8 → −20.
        assert_eq!(
            rating_change(EloRating(2000), 20, &[game(2025, Score::Draw)]),
            1
        );
        let lost = [game(2000, Score::Loss), game(2004, Score::Loss)];
        assert_eq!(rating_change(EloRating(2000), 20, &lost), -20);
        // Exactly half a point: a draw 35 points below (P .45) gains 10 · .05 = .5 → 1; the
        // higher-rated side (P .55) loses 10 · .05 = .5 → −1.
        assert_eq!(
            rating_change(EloRating(2000), 10, &[game(2035, Score::Draw)]),
            1
        );
        assert_eq!(
            rating_change(EloRating(2035), 10, &[game(2000, Score::Draw)]),
            -1
        );
    }

    #[test]
    fn rating_never_drops_below_the_floor() {
        // 1410 loses to 1410: 20 · −.5 = −10 → 1400 exactly; again → stays 1400, change 0.
        let loss = EloPeriod {
            year: 2026,
            games: &[game(1410, Score::Loss)],
        };
        assert_eq!(
            changed(rate_period(&rated(1410, 100, false), loss)),
            (1400, 20, -10)
        );
        assert_eq!(
            changed(rate_period(&rated(1405, 100, false), loss)),
            (1400, 20, -5)
        );
        assert_eq!(
            changed(rate_period(&rated(1400, 100, false), loss)),
            (1400, 20, 0)
        );
    }

    #[test]
    fn first_rating_after_five_games_with_two_hypothetical_draws() {
        let player = EloPlayer {
            state: EloState::new_player(),
            birth_year: None,
        };
        let four = [game(1700, Score::Win); 4];
        let first = rate_period(
            &player,
            EloPeriod {
                year: 2026,
                games: &four,
            },
        );
        assert_eq!(first.update, EloUpdate::StillUnrated { games_so_far: 4 });
        let second = rate_period(
            &EloPlayer {
                state: first.state,
                birth_year: None,
            },
            EloPeriod {
                year: 2026,
                games: &[game(1900, Score::Draw)],
            },
        );
        // Opponents 4·1700 + 1900 + 2·1800 = 12300 / 7 = 1757.14 → 1757; score 4.5 + 1 = 5.5
        // of 7 = .786 → .79, dp 230: 1987.
        assert_eq!(
            second.update,
            EloUpdate::FirstRating {
                rating: EloRating(1987)
            }
        );
        assert_eq!(second.state, EloState::rated(EloRating(1987), 5));
    }

    #[test]
    fn first_rating_is_capped_at_2200_and_floored_at_1400() {
        let wins = UnratedRecord {
            games: 5,
            opponents_rating_sum: 5 * 2300,
            score: HalfPoints(10),
        };
        // (5·2300 + 3600)/7 = 2157; 6/7 = .86 → dp 309: 2466, capped.
        assert_eq!(first_rating(&wins), FIRST_RATING_CAP);
        let losses = UnratedRecord {
            games: 5,
            opponents_rating_sum: 5 * 1400,
            score: HalfPoints::ZERO,
        };
        // (7000 + 3600)/7 = 1514; 1/7 = .14 → dp −309: 1205, floored.
        assert_eq!(first_rating(&losses), RATING_FLOOR);
    }

    #[test]
    fn performance_uses_the_full_dp_table() {
        // 3 of 4 against 2000: .75 → +193.
        let games = [
            game(2000, Score::Win),
            game(2000, Score::Win),
            game(2000, Score::Win),
            game(2000, Score::Loss),
        ];
        assert_eq!(performance_rating(&games), Some(EloRating(2193)));
        // 2 of 3 = .667 → .67 → +125 (a row not in RATINGS.md's excerpt); average 1933.33 → 1933.
        let games = [
            game(1900, Score::Win),
            game(1900, Score::Win),
            game(2000, Score::Loss),
        ];
        assert_eq!(performance_rating(&games), Some(EloRating(2058)));
        // 1 of 8 = .125 → .13 → −322.
        let mut games = [game(2100, Score::Loss); 8];
        games[0].score = Score::Win;
        assert_eq!(performance_rating(&games), Some(EloRating(1778)));
        // All won: +800; none: None.
        assert_eq!(
            performance_rating(&[game(1500, Score::Win)]),
            Some(EloRating(2300))
        );
        assert_eq!(performance_rating(&[]), None);
    }

    #[test]
    fn an_empty_period_changes_nothing() {
        let player = rated(1800, 50, false);
        let outcome = rate_period(
            &player,
            EloPeriod {
                year: 2026,
                games: &[],
            },
        );
        assert_eq!(outcome.state, player.state);
        assert_eq!(changed(outcome), (1800, 20, 0));
    }
}
