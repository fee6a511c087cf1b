//! A whole variant's ratings recomputed from its played results: the fold of [`super::elo`]
//! and [`super::glicko2`] over every counted result in a defined order, giving each
//! player's current rating in both systems and every change with what caused it.
//!
//! The order is the one RATINGS.md defines and nothing else: Glicko-2 rates one result at a
//! time by the instant it became final, then by its kind (event boards before standalone
//! games) and id. Elo rates one period at a time (an event, or a calendar month of
//! standalone games), each against the ratings as they stood before it; periods follow
//! the instant their last result became final, then kind and id. The same input therefore
//! always gives the same output, bit for bit: a recompute can be compared with what was
//! stored.
//!
//! The caller decides what counts (played results of rated events and finished rated
//! standalone games) and leaves everything else out.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use super::Score;
use super::elo::{self, EloGame, EloPeriod, EloPlayer, EloRating, EloState, EloUpdate};
use super::glicko2::{Glicko, GlickoParams, rate_game};

/// A player profile's id.
pub type PlayerId = i64;

/// An instant as microseconds since the Unix epoch (UTC), what databases keep exactly.
pub type Micros = i64;

/// Where a counted result comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A board of a rated event (entered by an arbiter or reached from its game).
    Board {
        event_id: i64,
        pairing_id: i64,
        /// The game played on the site for this board, if any.
        game_id: Option<i64>,
    },
    /// A rated game outside any event.
    Standalone { game_id: i64 },
}

impl Origin {
    /// The tie-break after the instant: boards first, then games, each by id.
    fn order(&self) -> (u8, i64) {
        match self {
            Origin::Board { pairing_id, .. } => (0, *pairing_id),
            Origin::Standalone { game_id } => (1, *game_id),
        }
    }

    pub fn event_id(&self) -> Option<i64> {
        match self {
            Origin::Board { event_id, .. } => Some(*event_id),
            Origin::Standalone { .. } => None,
        }
    }

    pub fn game_id(&self) -> Option<i64> {
        match self {
            Origin::Board { game_id, .. } => *game_id,
            Origin::Standalone { game_id } => Some(*game_id),
        }
    }
}

/// A calendar month, the Elo period of standalone games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Month {
    pub year: i32,
    /// 1..=12.
    pub month: u32,
}

/// One played result that counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CountedResult {
    /// When the result became final (its last change).
    pub at: Micros,
    /// The calendar month of `at` (UTC): the period of a standalone game, and the year the
    /// under-18 rule looks at.
    pub month: Month,
    pub origin: Origin,
    /// The game of a micro-match (1, 2, ...), 0 for a board of one game or a standalone
    /// game: the last tie-break of the order, after the origin.
    pub game_no: i32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub white_score: Score,
}

/// A rating a player arrived with (an imported list): where that system starts for them
/// instead of "unrated" (Elo) or 1500/350/0.06 (Glicko-2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloStart {
    pub rating: EloRating,
    pub games: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlickoStart {
    pub glicko: Glicko,
    pub games: u32,
}

/// Everything a recompute of one variant reads.
#[derive(Debug, Clone, Default)]
pub struct LedgerInput {
    pub results: Vec<CountedResult>,
    pub elo_starts: HashMap<PlayerId, EloStart>,
    pub glicko_starts: HashMap<PlayerId, GlickoStart>,
    pub birth_years: HashMap<PlayerId, i32>,
}

/// The two systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum System {
    Elo,
    Glicko2,
}

/// A player's current rating in one system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// `None` for an Elo player still short of a first rating.
    pub rating: Option<f64>,
    /// Glicko-2 only.
    pub deviation: Option<f64>,
    /// Glicko-2 only.
    pub volatility: Option<f64>,
    /// Rated games so far (an imported count included); for an unrated Elo player, the
    /// games so far towards a first rating.
    pub games: u32,
    /// Glicko-2: RD at least 110. Elo: no rating yet.
    pub provisional: bool,
    pub last_played: Option<Micros>,
}

/// One step of a player's rating in one system: a Glicko-2 game, or an Elo period.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// When: the result's instant (Glicko-2), the player's last game of the period (Elo;
    /// periods themselves follow the instant of their last result).
    pub at: Micros,
    pub before: Option<f64>,
    pub after: Option<f64>,
    /// Glicko-2: RD and volatility after the game.
    pub deviation: Option<f64>,
    pub volatility: Option<f64>,
    /// Games after this step, as `Standing::games`.
    pub games: u32,
    pub event_id: Option<i64>,
    /// Glicko-2: the game, when the result has one on the site.
    pub game_id: Option<i64>,
    /// Elo: the performance over the period's counted games (FIDE 8.2).
    pub performance: Option<u32>,
    /// Games of this step and the points scored in them, in half-points.
    pub step_games: u32,
    pub step_half_points: u32,
    /// Where the step stands in the fold's order: the result's instant (Glicko-2), the
    /// instant of the period's last result (Elo). A refold from instant T rewrites exactly
    /// the steps at or after T.
    pub period_at: Micros,
    /// Elo: the player's whole state after the step, so that a refold can start from it.
    pub elo: Option<EloState>,
}

/// One player's line in one system: where they stand and how they got there.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlayerLedger {
    pub standing: Option<Standing>,
    pub changes: Vec<Change>,
}

/// The whole variant: per system, per player (by id).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ledger {
    pub elo: BTreeMap<PlayerId, PlayerLedger>,
    pub glicko2: BTreeMap<PlayerId, PlayerLedger>,
}

impl Ledger {
    pub fn of(&self, system: System) -> &BTreeMap<PlayerId, PlayerLedger> {
        match system {
            System::Elo => &self.elo,
            System::Glicko2 => &self.glicko2,
        }
    }
}

/// The instants a refold covers: `from` included, `to` excluded (`None`: no end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: Micros,
    pub to: Option<Micros>,
}

impl Window {
    /// Everything: a recompute from scratch.
    pub const ALL: Window = Window {
        from: Micros::MIN,
        to: None,
    };

    pub fn holds(&self, at: Micros) -> bool {
        at >= self.from && self.to.is_none_or(|to| at < to)
    }
}

/// A player's Elo state between periods and their last game so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloResume {
    pub state: EloState,
    pub last_played: Option<Micros>,
}

/// The players' states as they stood before a window: where a refold starts. A player
/// missing here starts where a recompute from scratch would (an imported start, or new).
#[derive(Debug, Clone, Default)]
pub struct StatesBefore {
    pub glicko: HashMap<PlayerId, Standing>,
    pub elo: HashMap<PlayerId, EloResume>,
}

/// Recomputes both systems from scratch.
pub fn recompute(input: &LedgerInput, params: &GlickoParams) -> Ledger {
    let mut ledger = refold(input, Window::ALL, &StatesBefore::default(), params);
    // A player with an imported start and no counted result stands at the start.
    for (&player, start) in &input.glicko_starts {
        ledger
            .glicko2
            .entry(player)
            .or_default()
            .standing
            .get_or_insert_with(|| glicko_standing(start.glicko, start.games, None, params));
    }
    for (&player, start) in &input.elo_starts {
        let state = EloState::rated(start.rating, start.games);
        ledger
            .elo
            .entry(player)
            .or_default()
            .standing
            .get_or_insert_with(|| elo_standing(&state, None));
    }
    ledger
}

/// Refolds the steps of `window` from the states before it: the Glicko-2 games whose
/// instant is in the window and the Elo periods whose last result is, in the fold's order.
/// `input.results` must hold every result of the window and, for Elo, every result of a
/// period that ends in the window (a period's earlier results may lie before it); results
/// outside are ignored. The ledger holds the window's steps and the standing after them of
/// every player who has one there; a recompute from scratch is the window of everything.
pub fn refold(
    input: &LedgerInput,
    window: Window,
    before: &StatesBefore,
    params: &GlickoParams,
) -> Ledger {
    let mut order: Vec<&CountedResult> = input.results.iter().collect();
    order.sort_by_key(|r| (r.at, r.origin.order(), r.game_no));
    Ledger {
        elo: refold_elo(input, &order, window, &before.elo),
        glicko2: refold_glicko(input, &order, window, &before.glicko, params),
    }
}

/// A Glicko-2 standing from a rating, its games and last game.
pub fn glicko_standing(
    glicko: Glicko,
    games: u32,
    last_played: Option<Micros>,
    params: &GlickoParams,
) -> Standing {
    Standing {
        rating: Some(glicko.rating),
        deviation: Some(glicko.deviation),
        volatility: Some(glicko.volatility),
        games,
        provisional: glicko.is_provisional(params),
        last_played,
    }
}

/// Where a player's Glicko-2 stands after a step: what a refold after it starts from.
pub fn glicko_after(change: &Change, params: &GlickoParams) -> Standing {
    let glicko = Glicko {
        rating: change.after.unwrap_or(params.initial_rating),
        deviation: change.deviation.unwrap_or(params.initial_deviation),
        volatility: change.volatility.unwrap_or(params.initial_volatility),
    };
    glicko_standing(glicko, change.games, Some(change.at), params)
}

/// Where a player's Elo stands after a step (`None` for a step that is not Elo's).
pub fn elo_after(change: &Change) -> Option<EloResume> {
    change.elo.map(|state| EloResume {
        state,
        last_played: Some(change.at),
    })
}

/// An Elo standing from a state and the last game.
pub fn elo_standing(state: &EloState, last_played: Option<Micros>) -> Standing {
    let rating = state.rating().map(|r| f64::from(r.0));
    Standing {
        rating,
        deviation: None,
        volatility: None,
        games: elo_games(state),
        provisional: rating.is_none(),
        last_played,
    }
}

fn micros_between(earlier: Micros, later: Micros) -> Duration {
    Duration::from_micros(u64::try_from(later.saturating_sub(earlier)).unwrap_or(0))
}

fn refold_glicko(
    input: &LedgerInput,
    order: &[&CountedResult],
    window: Window,
    before: &HashMap<PlayerId, Standing>,
    params: &GlickoParams,
) -> BTreeMap<PlayerId, PlayerLedger> {
    let mut states: HashMap<PlayerId, Standing> = HashMap::new();
    let mut lines: BTreeMap<PlayerId, PlayerLedger> = BTreeMap::new();
    let start_of = |player: PlayerId| {
        before.get(&player).copied().unwrap_or_else(|| {
            let (glicko, games) = input
                .glicko_starts
                .get(&player)
                .map_or((Glicko::initial(params), 0), |s| (s.glicko, s.games));
            glicko_standing(glicko, games, None, params)
        })
    };
    let glicko_of = |s: &Standing| Glicko {
        rating: s.rating.unwrap_or(params.initial_rating),
        deviation: s.deviation.unwrap_or(params.initial_deviation),
        volatility: s.volatility.unwrap_or(params.initial_volatility),
    };
    for result in order.iter().filter(|r| window.holds(r.at)) {
        let white = *states
            .entry(result.white)
            .or_insert_with(|| start_of(result.white));
        let black = *states
            .entry(result.black)
            .or_insert_with(|| start_of(result.black));
        let aged = |s: &Standing| {
            let g = glicko_of(s);
            match s.last_played {
                Some(last) => g.aged(micros_between(last, result.at), params),
                None => g,
            }
        };
        let (white_before, black_before) = (aged(&white), aged(&black));
        let sides = [
            (
                result.white,
                white,
                white_before,
                black_before,
                result.white_score,
            ),
            (
                result.black,
                black,
                black_before,
                white_before,
                result.white_score.reversed(),
            ),
        ];
        for (player, standing, own, opponent, score) in sides {
            let after = rate_game(own, opponent, score, params);
            let games = standing.games.saturating_add(1);
            states.insert(
                player,
                glicko_standing(after, games, Some(result.at), params),
            );
            lines.entry(player).or_default().changes.push(Change {
                at: result.at,
                before: Some(own.rating),
                after: Some(after.rating),
                deviation: Some(after.deviation),
                volatility: Some(after.volatility),
                games,
                event_id: result.origin.event_id(),
                game_id: result.origin.game_id(),
                performance: None,
                step_games: 1,
                step_half_points: score.half_points().0,
                period_at: result.at,
                elo: None,
            });
        }
    }
    for (player, standing) in states {
        lines.entry(player).or_default().standing = Some(standing);
    }
    lines
}

/// An Elo rating period: an event, or a month of standalone games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum PeriodKey {
    Event(i64),
    Month(Month),
}

impl PeriodKey {
    fn of(result: &CountedResult) -> PeriodKey {
        match result.origin {
            Origin::Board { event_id, .. } => PeriodKey::Event(event_id),
            Origin::Standalone { .. } => PeriodKey::Month(result.month),
        }
    }

    /// The tie-break after the period's last instant: events first, by id, then months.
    fn order(&self) -> (u8, i64) {
        match self {
            PeriodKey::Event(id) => (0, *id),
            PeriodKey::Month(m) => (1, i64::from(m.year) * 12 + i64::from(m.month)),
        }
    }
}

struct Period<'a> {
    key: PeriodKey,
    /// The last result's instant and calendar year.
    last_at: Micros,
    year: i32,
    results: Vec<&'a CountedResult>,
}

fn elo_periods<'a>(order: &[&'a CountedResult]) -> Vec<Period<'a>> {
    let mut index: HashMap<PeriodKey, usize> = HashMap::new();
    let mut periods: Vec<Period<'a>> = Vec::new();
    // `order` is by instant, so the last result pushed to a period is its last.
    for &result in order {
        let key = PeriodKey::of(result);
        let at = *index.entry(key).or_insert_with(|| {
            periods.push(Period {
                key,
                last_at: result.at,
                year: result.month.year,
                results: Vec::new(),
            });
            periods.len() - 1
        });
        let period = &mut periods[at];
        period.last_at = result.at;
        period.year = result.month.year;
        period.results.push(result);
    }
    periods.sort_by_key(|p| (p.last_at, p.key.order()));
    periods
}

fn refold_elo(
    input: &LedgerInput,
    order: &[&CountedResult],
    window: Window,
    before: &HashMap<PlayerId, EloResume>,
) -> BTreeMap<PlayerId, PlayerLedger> {
    let mut states: HashMap<PlayerId, EloResume> = HashMap::new();
    let state_of = |states: &HashMap<PlayerId, EloResume>, player: PlayerId| {
        states
            .get(&player)
            .or_else(|| before.get(&player))
            .copied()
            .or_else(|| {
                input.elo_starts.get(&player).map(|start| EloResume {
                    state: EloState::rated(start.rating, start.games),
                    last_played: None,
                })
            })
    };
    let mut lines: BTreeMap<PlayerId, PlayerLedger> = BTreeMap::new();
    // Games of the period per player, in the period's order, with the points scored and the
    // player's last game in it; reused between periods.
    let mut period_games: BTreeMap<PlayerId, (Vec<EloGame>, u32, Micros)> = BTreeMap::new();
    let periods = elo_periods(order);
    for period in periods.iter().filter(|p| window.holds(p.last_at)) {
        for result in &period.results {
            let sides = [
                (result.white, result.black, result.white_score),
                (result.black, result.white, result.white_score.reversed()),
            ];
            for (player, opponent, score) in sides {
                // Only games against opponents rated before the period count (FIDE).
                if let Some(opponent) = state_of(&states, opponent).and_then(|s| s.state.rating()) {
                    let (games, half_points, last) = period_games.entry(player).or_default();
                    games.push(EloGame { opponent, score });
                    *half_points += score.half_points().0;
                    *last = result.at;
                }
            }
        }
        // A player's step is dated by their own last game of the period, not the period's
        // last result: a result entered in a running event then changes the two players'
        // steps only, not everyone's who played in it.
        for (player, (games, half_points, last_game)) in std::mem::take(&mut period_games) {
            let state = state_of(&states, player).map_or_else(EloState::new_player, |s| s.state);
            let outcome = elo::rate_period(
                &EloPlayer {
                    state,
                    birth_year: input.birth_years.get(&player).copied(),
                },
                EloPeriod {
                    year: period.year,
                    games: &games,
                },
            );
            states.insert(
                player,
                EloResume {
                    state: outcome.state,
                    last_played: Some(last_game),
                },
            );
            lines.entry(player).or_default().changes.push(elo_change(
                period,
                &outcome,
                &games,
                half_points,
                last_game,
            ));
        }
    }
    for (player, resume) in states {
        lines.entry(player).or_default().standing =
            Some(elo_standing(&resume.state, resume.last_played));
    }
    lines
}

/// A player's step of one Elo period.
fn elo_change(
    period: &Period<'_>,
    outcome: &elo::EloOutcome,
    games: &[EloGame],
    half_points: u32,
    last_game: Micros,
) -> Change {
    let (before, after) = match outcome.update {
        EloUpdate::StillUnrated { .. } => (None, None),
        EloUpdate::FirstRating { rating } => (None, Some(rating)),
        EloUpdate::Changed { before, after, .. } => (Some(before), Some(after)),
    };
    Change {
        at: last_game,
        before: before.map(|r| f64::from(r.0)),
        after: after.map(|r| f64::from(r.0)),
        deviation: None,
        volatility: None,
        games: elo_games(&outcome.state),
        event_id: match period.key {
            PeriodKey::Event(id) => Some(id),
            PeriodKey::Month(_) => None,
        },
        game_id: None,
        performance: elo::performance_rating(games).map(|r| r.0),
        step_games: u32::try_from(games.len()).unwrap_or(u32::MAX),
        step_half_points: half_points,
        period_at: period.last_at,
        elo: Some(outcome.state),
    }
}

fn elo_games(state: &EloState) -> u32 {
    match state {
        EloState::Unrated(record) => record.games,
        EloState::Rated(record) => record.games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Micros = 86_400_000_000;

    fn board(
        at: Micros,
        event_id: i64,
        pairing_id: i64,
        white: i64,
        black: i64,
        s: Score,
    ) -> CountedResult {
        CountedResult {
            at,
            month: Month {
                year: 2026,
                month: 11,
            },
            origin: Origin::Board {
                event_id,
                pairing_id,
                game_id: None,
            },
            game_no: 0,
            white,
            black,
            white_score: s,
        }
    }

    fn standalone(
        at: Micros,
        month: u32,
        game_id: i64,
        white: i64,
        black: i64,
        s: Score,
    ) -> CountedResult {
        CountedResult {
            at,
            month: Month { year: 2026, month },
            origin: Origin::Standalone { game_id },
            game_no: 0,
            white,
            black,
            white_score: s,
        }
    }

    fn rated(players: &[(i64, u32)]) -> HashMap<PlayerId, EloStart> {
        players
            .iter()
            .map(|&(id, rating)| {
                (
                    id,
                    EloStart {
                        rating: EloRating(rating),
                        games: 100,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn an_event_is_one_elo_period_rated_against_ratings_before_it() {
        // 1 (2000) beats 2 (2000) in round 1, then beats 3 (2000) in round 2: both games
        // count against 2000, whatever round 1 did to anyone. K 20: 20·(.5 + .5) = 20.
        let input = LedgerInput {
            results: vec![
                board(DAY, 7, 1, 1, 2, Score::Win),
                board(2 * DAY, 7, 2, 1, 3, Score::Win),
            ],
            elo_starts: rated(&[(1, 2000), (2, 2000), (3, 2000)]),
            ..LedgerInput::default()
        };
        let ledger = recompute(&input, &GlickoParams::LIDRAUGHTS);
        let one = &ledger.elo[&1];
        assert_eq!(one.changes.len(), 1);
        let change = one.changes[0];
        assert_eq!((change.before, change.after), (Some(2000.0), Some(2020.0)));
        assert_eq!(change.event_id, Some(7));
        assert_eq!(change.at, 2 * DAY);
        // 2 of 2 against 2000: +800.
        assert_eq!(change.performance, Some(2800));
        assert_eq!(one.standing.map(|s| s.rating), Some(Some(2020.0)));
        assert_eq!(ledger.elo[&2].standing.and_then(|s| s.rating), Some(1990.0));
    }

    #[test]
    fn a_later_result_of_an_event_leaves_the_other_players_steps_as_they_were() {
        let starts = rated(&[(1, 2000), (2, 2000), (3, 1900), (4, 1900)]);
        let round_1 = vec![
            board(DAY, 7, 1, 1, 2, Score::Win),
            board(DAY, 7, 2, 3, 4, Score::Draw),
        ];
        let mut round_2 = round_1.clone();
        round_2.push(board(2 * DAY, 7, 3, 1, 3, Score::Loss));
        let params = GlickoParams::LIDRAUGHTS;
        let before = recompute(
            &LedgerInput {
                results: round_1,
                elo_starts: starts.clone(),
                ..LedgerInput::default()
            },
            &params,
        );
        let after = recompute(
            &LedgerInput {
                results: round_2,
                elo_starts: starts,
                ..LedgerInput::default()
            },
            &params,
        );
        // 2 and 4 did not play in round 2: their Elo step (date included) is unchanged;
        // only where the event's period stands moved with its last result.
        for player in [2, 4] {
            let mut moved = after.elo[&player].clone();
            for change in &mut moved.changes {
                assert_eq!(change.period_at, 2 * DAY, "player {player}");
                change.period_at = DAY;
            }
            assert_eq!(before.elo[&player], moved, "player {player}");
        }
        assert_ne!(before.elo[&1], after.elo[&1]);
        assert_eq!(after.elo[&3].changes[0].at, 2 * DAY);
    }

    #[test]
    fn standalone_games_of_a_month_are_one_period_and_months_follow_each_other() {
        // November: 1 beats 2 twice (each against 2000: +10 +10 = +20 at K 20).
        // December: 1 (2020) loses to 2 (1980): P(40) = .56, 20·−.56 = −11.2 → −11.
        let input = LedgerInput {
            results: vec![
                standalone(DAY, 11, 10, 1, 2, Score::Win),
                standalone(2 * DAY, 11, 11, 2, 1, Score::Loss),
                standalone(40 * DAY, 12, 12, 1, 2, Score::Loss),
            ],
            elo_starts: rated(&[(1, 2000), (2, 2000)]),
            ..LedgerInput::default()
        };
        let ledger = recompute(&input, &GlickoParams::LIDRAUGHTS);
        let afters: Vec<Option<f64>> = ledger.elo[&1].changes.iter().map(|c| c.after).collect();
        assert_eq!(afters, vec![Some(2020.0), Some(2009.0)]);
        assert!(ledger.elo[&1].changes.iter().all(|c| c.event_id.is_none()));
    }

    #[test]
    fn games_against_unrated_opponents_do_not_count_in_elo_and_first_ratings_come_after_five() {
        // 9 is new and plays five rated players in one event, scoring 2.5: a first rating.
        // 8 is new too; its game with 9 counts for neither.
        let mut results: Vec<CountedResult> = (1..=5)
            .map(|p| board(DAY * p, 1, p, 9, p, Score::Draw))
            .collect();
        results.push(board(DAY * 6, 1, 6, 9, 8, Score::Win));
        let input = LedgerInput {
            results,
            elo_starts: rated(&[(1, 1800), (2, 1800), (3, 1800), (4, 1800), (5, 1800)]),
            ..LedgerInput::default()
        };
        let ledger = recompute(&input, &GlickoParams::LIDRAUGHTS);
        let nine = &ledger.elo[&9];
        assert_eq!(nine.changes.len(), 1);
        // 7 draws against 1800 in all: 1800.
        assert_eq!(nine.changes[0].after, Some(1800.0));
        assert_eq!(nine.changes[0].before, None);
        assert_eq!(nine.standing.map(|s| s.games), Some(5));
        assert!(
            !ledger.elo.contains_key(&8),
            "8 played only an unrated player"
        );
    }

    #[test]
    fn glicko_rates_results_in_the_order_they_became_final_then_by_id() {
        let params = GlickoParams::LIDRAUGHTS;
        let a = board(DAY, 1, 5, 1, 2, Score::Win);
        let b = standalone(DAY, 11, 3, 1, 3, Score::Loss);
        let c = board(2 * DAY, 1, 1, 2, 3, Score::Draw);
        let forwards = recompute(
            &LedgerInput {
                results: vec![a, b, c],
                ..LedgerInput::default()
            },
            &params,
        );
        let backwards = recompute(
            &LedgerInput {
                results: vec![c, b, a],
                ..LedgerInput::default()
            },
            &params,
        );
        assert_eq!(forwards, backwards, "input order does not matter");
        // At the same instant the board comes before the standalone game.
        let first_of_one = forwards.glicko2[&1].changes[0];
        assert_eq!(first_of_one.event_id, Some(1));
        assert_eq!(first_of_one.before, Some(1500.0));
        assert_eq!(forwards.glicko2[&1].changes[1].game_id, Some(3));
        let one = forwards.glicko2[&1].standing.expect("1 played");
        assert_eq!(one.games, 2);
        assert!(one.provisional);
        assert_eq!(one.last_played, Some(DAY));
    }

    #[test]
    fn glicko_rd_grows_between_games_with_inactivity() {
        let params = GlickoParams::LIDRAUGHTS;
        let established = GlickoStart {
            glicko: Glicko {
                rating: 1700.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 200,
        };
        let starts: HashMap<PlayerId, GlickoStart> = [(1, established), (2, established)].into();
        let at = |gap: Micros| {
            recompute(
                &LedgerInput {
                    results: vec![
                        board(0, 1, 1, 1, 2, Score::Draw),
                        board(gap, 1, 2, 1, 2, Score::Draw),
                    ],
                    glicko_starts: starts.clone(),
                    ..LedgerInput::default()
                },
                &params,
            )
            .glicko2[&1]
                .changes[1]
                .deviation
                .expect("a Glicko-2 change has an RD")
        };
        assert!(
            at(365 * DAY) > at(DAY) + 20.0,
            "a year away makes the rating less sure"
        );
    }

    #[test]
    fn imported_starts_are_where_each_system_begins() {
        let params = GlickoParams::LIDRAUGHTS;
        let input = LedgerInput {
            elo_starts: rated(&[(1, 2100)]),
            glicko_starts: [(
                1,
                GlickoStart {
                    glicko: Glicko {
                        rating: 1900.0,
                        deviation: 80.0,
                        volatility: 0.05,
                    },
                    games: 40,
                },
            )]
            .into(),
            ..LedgerInput::default()
        };
        let ledger = recompute(&input, &params);
        let elo = ledger.elo[&1].standing.expect("a start is a standing");
        assert_eq!(
            (elo.rating, elo.games, elo.provisional),
            (Some(2100.0), 100, false)
        );
        let glicko = ledger.glicko2[&1].standing.expect("a start is a standing");
        assert_eq!(glicko.rating, Some(1900.0));
        assert!(!glicko.provisional);
        assert!(ledger.elo[&1].changes.is_empty());
    }

    /// A small random history: boards of a few events and standalone games of a few
    /// months among 12 players, some with imported starts and birth years.
    fn random_input(seed: u64) -> LedgerInput {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let mut results = Vec::new();
        for id in 0..120_i64 {
            let white = 1 + i64::try_from(next(12)).unwrap_or(0);
            let black = 1 + (white + i64::try_from(next(11)).unwrap_or(0)) % 12;
            let score =
                [Score::Loss, Score::Draw, Score::Win][usize::try_from(next(3)).unwrap_or(0)];
            let at = i64::try_from(next(90)).unwrap_or(0) * DAY;
            let month = u32::try_from(at / (30 * DAY)).unwrap_or(0) + 1;
            results.push(if next(3) == 0 {
                standalone(at, month, 1000 + id, white, black, score)
            } else {
                let event = 1 + i64::try_from(next(5)).unwrap_or(0);
                board(at, event, id, white, black, score)
            });
        }
        let elo_starts = rated(&[(1, 2450), (2, 2100), (3, 1900), (4, 1700), (5, 2300)]);
        LedgerInput {
            results,
            elo_starts,
            glicko_starts: HashMap::new(),
            birth_years: [(6, 2012), (2, 2010)].into(),
        }
    }

    /// The states before `from`: each player's last step before it in the full ledger.
    fn states_before(full: &Ledger, from: Micros, params: &GlickoParams) -> StatesBefore {
        let mut before = StatesBefore::default();
        for (&player, line) in &full.glicko2 {
            if let Some(last) = line.changes.iter().rev().find(|c| c.period_at < from) {
                before.glicko.insert(player, glicko_after(last, params));
            }
        }
        for (&player, line) in &full.elo {
            if let Some(last) = line.changes.iter().rev().find(|c| c.period_at < from) {
                before
                    .elo
                    .insert(player, elo_after(last).expect("an Elo step"));
            }
        }
        before
    }

    #[test]
    fn a_refold_from_any_instant_gives_what_the_recompute_gives_after_it() {
        let params = GlickoParams::LIDRAUGHTS;
        for seed in 0..40 {
            let input = random_input(seed);
            let full = recompute(&input, &params);
            for from_day in [0, 1, 17, 45, 60, 89, 90] {
                let from = from_day * DAY;
                let before = states_before(&full, from, &params);
                let window = Window { from, to: None };
                let tail = refold(&input, window, &before, &params);
                for (system, full_lines, tail_lines) in [
                    ("elo", &full.elo, &tail.elo),
                    ("glicko", &full.glicko2, &tail.glicko2),
                ] {
                    for (player, line) in full_lines {
                        let expected: Vec<Change> = line
                            .changes
                            .iter()
                            .filter(|c| c.period_at >= from)
                            .copied()
                            .collect();
                        let got = tail_lines.get(player);
                        assert_eq!(
                            got.map(|l| l.changes.clone()).unwrap_or_default(),
                            expected,
                            "seed {seed} from day {from_day}: {system} steps of {player}"
                        );
                        if !expected.is_empty() {
                            assert_eq!(
                                got.and_then(|l| l.standing),
                                line.standing,
                                "seed {seed} from day {from_day}: {system} standing of {player}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn windows_one_after_another_give_the_recompute() {
        // A catch-up in bounded batches: [0, 30), [30, 61), [61, end).
        let params = GlickoParams::LIDRAUGHTS;
        for seed in 0..20 {
            let input = random_input(seed);
            let full = recompute(&input, &params);
            let mut pieced = Ledger::default();
            let bounds = [0, 30 * DAY, 61 * DAY];
            for (i, &from) in bounds.iter().enumerate() {
                let window = Window {
                    from,
                    to: bounds.get(i + 1).copied(),
                };
                let before = states_before(&full, from, &params);
                let part = refold(&input, window, &before, &params);
                for (lines, part_lines) in [
                    (&mut pieced.elo, part.elo),
                    (&mut pieced.glicko2, part.glicko2),
                ] {
                    for (player, line) in part_lines {
                        let entry = lines.entry(player).or_default();
                        entry.changes.extend(line.changes);
                        entry.standing = line.standing;
                    }
                }
            }
            for (lines, full_lines) in [(&pieced.elo, &full.elo), (&pieced.glicko2, &full.glicko2)]
            {
                for (player, line) in full_lines {
                    if line.changes.is_empty() {
                        continue;
                    }
                    assert_eq!(
                        lines.get(player),
                        Some(line),
                        "seed {seed}: player {player}"
                    );
                }
            }
        }
    }
}
