//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) with the parameters
//! lidraughts uses: start 1500 / RD 350 / volatility 0.06, tau 0.75, RD kept within 50..350,
//! volatility at most 0.1, provisional while RD >= 110.
//!
//! Each game is its own rating period ([`rate_game`]); before it, each player's RD grows
//! with the time since their last game ([`Glicko::aged`]). [`rate_period`] rates several
//! games at once, which is what Glickman's worked example does.
//!
//! Values are kept as `f64` at full precision and rounded only for display
//! ([`Glicko::display_rating`]). The same inputs in the same order give bit-identical
//! results (no parallel sums, no platform-dependent functions beyond `exp`/`ln`/`sqrt`), so a
//! recompute compares equal to what it computed before.

use std::time::Duration;

use crate::ratings::Score;

/// Glicko-2's conversion factor between the rating scale and its internal scale (400 / ln 10).
const SCALE: f64 = 173.7178;
/// The rating the internal scale is centred on.
const CENTRE: f64 = 1500.0;
/// Convergence tolerance of the volatility iteration (Glickman's suggestion).
const CONVERGENCE: f64 = 0.000_001;
/// A bound on the volatility iterations: they converge in a handful of steps, the bound
/// only keeps a corrupt input (NaN, infinity) from looping for ever.
const MAX_ITERATIONS: u32 = 100;
const SECONDS_PER_DAY: f64 = 86_400.0;

/// The system's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlickoParams {
    pub initial_rating: f64,
    pub initial_deviation: f64,
    pub initial_volatility: f64,
    /// How much the volatility may change per period (Glickman's τ).
    pub tau: f64,
    pub min_deviation: f64,
    pub max_deviation: f64,
    pub max_volatility: f64,
    /// A player is provisional while their RD is at least this.
    pub provisional_deviation: f64,
    /// Rating periods of inactivity per day, for the RD growth between games.
    pub periods_per_day: f64,
}

impl GlickoParams {
    /// lidraughts' parameters. 0.21436 periods a day is lila's figure: with volatility 0.06
    /// it takes an RD of 60 to 110 in about a year without games.
    pub const LIDRAUGHTS: GlickoParams = GlickoParams {
        initial_rating: 1500.0,
        initial_deviation: 350.0,
        initial_volatility: 0.06,
        tau: 0.75,
        min_deviation: 50.0,
        max_deviation: 350.0,
        max_volatility: 0.1,
        provisional_deviation: 110.0,
        periods_per_day: 0.21436,
    };
}

impl Default for GlickoParams {
    fn default() -> Self {
        GlickoParams::LIDRAUGHTS
    }
}

/// A player's Glicko-2 state on the rating scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    pub volatility: f64,
}

impl Glicko {
    /// A player who has not played yet.
    pub fn initial(params: &GlickoParams) -> Glicko {
        Glicko {
            rating: params.initial_rating,
            deviation: params.initial_deviation,
            volatility: params.initial_volatility,
        }
    }

    pub fn is_provisional(&self, params: &GlickoParams) -> bool {
        self.deviation >= params.provisional_deviation
    }

    /// The rating as lists show it: rounded to the nearest whole point, halves away from zero.
    pub fn display_rating(&self) -> i64 {
        self.rating.round() as i64
    }

    /// The state after `inactive` without games: the RD grows as over that many (fractional)
    /// rating periods without games, φ² + t·σ², up to the maximum RD.
    pub fn aged(self, inactive: Duration, params: &GlickoParams) -> Glicko {
        // Two games at the same instant must not nudge the RD by a rounding error.
        if inactive.is_zero() {
            return self;
        }
        let periods = inactive.as_secs_f64() / SECONDS_PER_DAY * params.periods_per_day;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            deviation: grown.clamp(params.min_deviation, params.max_deviation),
            ..self
        }
    }
}

/// One game of a period: the opponent as they stood before it, and the result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlickoGame {
    pub opponent: Glicko,
    pub score: Score,
}

/// Rates one game as its own period; the opponent is rated separately with the reversed
/// score. Both players should already be [`Glicko::aged`] to the time of the game.
pub fn rate_game(player: Glicko, opponent: Glicko, score: Score, params: &GlickoParams) -> Glicko {
    rate_period(player, &[GlickoGame { opponent, score }], params)
}

/// Rates one period of games (Glickman's steps 2–8), then keeps RD and volatility within
/// the parameters' bounds. Without games only the RD grows, by one period.
pub fn rate_period(player: Glicko, games: &[GlickoGame], params: &GlickoParams) -> Glicko {
    let mu = (player.rating - CENTRE) / SCALE;
    let phi = player.deviation / SCALE;
    let rated = if games.is_empty() {
        Glicko {
            deviation: (phi * phi + player.volatility * player.volatility).sqrt() * SCALE,
            ..player
        }
    } else {
        let PeriodSums {
            variance,
            improvement_sum,
        } = period_sums(mu, games);
        let improvement = variance * improvement_sum;
        let volatility = new_volatility(player.volatility, phi, variance, improvement, params.tau);
        let pre_period_phi_squared = phi * phi + volatility * volatility;
        let new_phi = 1.0 / (1.0 / pre_period_phi_squared + 1.0 / variance).sqrt();
        let new_mu = mu + new_phi * new_phi * improvement_sum;
        Glicko {
            rating: new_mu * SCALE + CENTRE,
            deviation: new_phi * SCALE,
            volatility,
        }
    };
    Glicko {
        rating: rated.rating,
        deviation: rated
            .deviation
            .clamp(params.min_deviation, params.max_deviation),
        volatility: rated.volatility.min(params.max_volatility),
    }
}

/// Step 3's estimated variance v and step 4's sum Σ g(φj)(sj − E), the improvement before
/// it is scaled by v.
struct PeriodSums {
    variance: f64,
    improvement_sum: f64,
}

fn period_sums(mu: f64, games: &[GlickoGame]) -> PeriodSums {
    let mut information = 0.0;
    let mut improvement_sum = 0.0;
    for game in games {
        let opponent_mu = (game.opponent.rating - CENTRE) / SCALE;
        let weight = g(game.opponent.deviation / SCALE);
        let expected = expected_score(mu, opponent_mu, weight);
        information += weight * weight * expected * (1.0 - expected);
        improvement_sum += weight * (game.score.as_f64() - expected);
    }
    PeriodSums {
        variance: 1.0 / information,
        improvement_sum,
    }
}

/// g(φ): how much an opponent's uncertainty discounts the game.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected_score(mu: f64, opponent_mu: f64, weight: f64) -> f64 {
    1.0 / (1.0 + (-weight * (mu - opponent_mu)).exp())
}

/// Step 5: the new volatility σ′ by the Illinois algorithm on f(x).
fn new_volatility(sigma: f64, phi: f64, variance: f64, improvement: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let phi_squared = phi * phi;
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi_squared + variance + ex;
        ex * (improvement * improvement - phi_squared - variance - ex)
            / (2.0 * denominator * denominator)
            - (x - a) / (tau * tau)
    };
    let mut lower = a;
    let mut upper = if improvement * improvement > phi_squared + variance {
        (improvement * improvement - phi_squared - variance).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < f64::from(MAX_ITERATIONS) {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_lower = f(lower);
    let mut f_upper = f(upper);
    let mut iterations = 0;
    while (upper - lower).abs() > CONVERGENCE && iterations < MAX_ITERATIONS {
        let candidate = lower + (lower - upper) * f_lower / (f_upper - f_lower);
        let f_candidate = f(candidate);
        if f_candidate * f_upper <= 0.0 {
            lower = upper;
            f_lower = f_upper;
        } else {
            f_lower /= 2.0;
        }
        upper = candidate;
        f_upper = f_candidate;
        iterations += 1;
    }
    (lower / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        let params = GlickoParams {
            tau: 0.5,
            ..GlickoParams::LIDRAUGHTS
        };
        let games = [
            GlickoGame {
                opponent: player(1400.0, 30.0),
                score: Score::Win,
            },
            GlickoGame {
                opponent: player(1550.0, 100.0),
                score: Score::Loss,
            },
            GlickoGame {
                opponent: player(1700.0, 300.0),
                score: Score::Loss,
            },
        ];
        let rated = rate_period(player(1500.0, 200.0), &games, &params);
        assert!((rated.rating - 1464.05).abs() < 0.01, "{rated:?}");
        assert!((rated.deviation - 151.52).abs() < 0.01, "{rated:?}");
        assert!((rated.volatility - 0.05999).abs() < 0.00001, "{rated:?}");
    }

    #[test]
    fn a_new_player_starts_provisional_at_1500() {
        let params = GlickoParams::LIDRAUGHTS;
        let new = Glicko::initial(&params);
        assert_eq!(new, player(1500.0, 350.0));
        assert!(new.is_provisional(&params));
        assert!(!player(1500.0, 109.9).is_provisional(&params));
        assert!(player(1500.0, 110.0).is_provisional(&params));
    }

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser() {
        let params = GlickoParams::LIDRAUGHTS;
        let a = player(1600.0, 80.0);
        let b = player(1550.0, 90.0);
        let winner = rate_game(a, b, Score::Win, &params);
        let loser = rate_game(b, a, Score::Loss, &params);
        assert!(winner.rating > a.rating);
        assert!(loser.rating < b.rating);
        assert!(winner.deviation < a.deviation);
    }

    #[test]
    fn deviation_stays_within_50_and_350() {
        let params = GlickoParams::LIDRAUGHTS;
        // A period of 100 games against well-known opponents would take RD under 50.
        let games = [GlickoGame {
            opponent: player(1500.0, 50.0),
            score: Score::Draw,
        }; 100];
        let veteran = rate_period(player(1500.0, 60.0), &games, &params);
        assert_eq!(veteran.deviation, 50.0);
        // Ten years away would take it over 350.
        let away = player(1500.0, 300.0).aged(Duration::from_secs(86_400 * 3650), &params);
        assert_eq!(away.deviation, 350.0);
    }

    #[test]
    fn deviation_grows_from_60_to_about_110_in_a_year_without_games() {
        let params = GlickoParams::LIDRAUGHTS;
        let year = Duration::from_secs(86_400 * 365);
        let aged = player(1500.0, 60.0).aged(year, &params);
        assert!((aged.deviation - 110.0).abs() < 1.0, "{aged:?}");
        assert_eq!(aged.rating, 1500.0);
        let unchanged = player(1500.0, 60.0).aged(Duration::ZERO, &params);
        assert_eq!(unchanged.deviation, 60.0);
    }

    #[test]
    fn volatility_is_capped_at_0_1() {
        let params = GlickoParams::LIDRAUGHTS;
        // A settled player losing repeatedly to far weaker ones looks erratic.
        let mut erratic = Glicko {
            volatility: 0.099,
            ..player(2000.0, 50.0)
        };
        for _ in 0..20 {
            erratic = rate_game(erratic, player(1000.0, 50.0), Score::Loss, &params);
        }
        assert_eq!(erratic.volatility, 0.1);
    }

    #[test]
    fn a_period_without_games_only_grows_the_deviation() {
        let params = GlickoParams::LIDRAUGHTS;
        let before = player(1700.0, 100.0);
        let after = rate_period(before, &[], &params);
        assert_eq!(after.rating, 1700.0);
        let expected = ((100.0f64 / SCALE).powi(2) + 0.06 * 0.06).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-9);
    }

    #[test]
    fn display_rating_rounds_to_whole_points() {
        assert_eq!(player(1464.5, 100.0).display_rating(), 1465);
        assert_eq!(player(1464.49, 100.0).display_rating(), 1464);
    }
}
