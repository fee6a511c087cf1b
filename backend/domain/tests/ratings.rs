//! Properties of the rating systems over random games, and a whole-club recompute
//! (100,000 games among 2,000 players) in both systems to keep the code allocation-light.

#[path = "common/lcg.rs"]
mod lcg;
use lcg::Lcg;

use std::time::{Duration, Instant};

use damka_domain::ratings::Score;
use damka_domain::ratings::elo::{
    EloGame, EloPeriod, EloPlayer, EloRating, EloState, EloUpdate, RATING_FLOOR, RatedRecord,
    rate_period,
};
use damka_domain::ratings::glicko2::{Glicko, GlickoParams, rate_game};
use proptest::prelude::*;

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![Just(Score::Loss), Just(Score::Draw), Just(Score::Win)]
}

fn adult(rating: u32, games: u32, reached_2400: bool) -> EloPlayer {
    EloPlayer {
        state: EloState::Rated(RatedRecord {
            rating: EloRating(rating),
            games,
            reached_2400,
        }),
        birth_year: None,
    }
}

fn change_of(outcome: &damka_domain::ratings::elo::EloOutcome) -> i32 {
    match outcome.update {
        EloUpdate::Changed { change, .. } => change,
        other => panic!("a rated player's period gives a change, got {other:?}"),
    }
}

proptest! {
    /// With the same K on both sides, what one player gains the other loses: P(D) + P(−D)
    /// is one and rounding is symmetric about zero. Ratings stay clear of the floor.
    #[test]
    fn elo_changes_of_both_players_sum_to_zero_with_equal_k(
        rating_a in 1500u32..2800,
        rating_b in 1500u32..2800,
        games in 0u32..200,
        reached_2400 in any::<bool>(),
        scores in prop::collection::vec(score(), 1..12),
    ) {
        let a = adult(rating_a, games, reached_2400);
        let b = adult(rating_b, games, reached_2400);
        let games_of_a: Vec<EloGame> = scores
            .iter()
            .map(|&score| EloGame { opponent: EloRating(rating_b), score })
            .collect();
        let games_of_b: Vec<EloGame> = scores
            .iter()
            .map(|&score| EloGame { opponent: EloRating(rating_a), score: score.reversed() })
            .collect();
        let outcome_a = rate_period(&a, EloPeriod { year: 2026, games: &games_of_a });
        let outcome_b = rate_period(&b, EloPeriod { year: 2026, games: &games_of_b });
        prop_assert_eq!(change_of(&outcome_a) + change_of(&outcome_b), 0);
    }

    /// Whatever happens in a period, the rating stays at or above the floor and moves by at
    /// most 700 points.
    #[test]
    fn elo_period_respects_floor_and_700_limit(
        rating in 1400u32..2900,
        games_before in 0u32..100,
        birth_year in prop::option::of(1950i32..2020),
        games in prop::collection::vec((1400u32..2900, score()), 0..80),
    ) {
        let player = EloPlayer { birth_year, ..adult(rating, games_before, false) };
        let games: Vec<EloGame> = games
            .into_iter()
            .map(|(opponent, score)| EloGame { opponent: EloRating(opponent), score })
            .collect();
        let outcome = rate_period(&player, EloPeriod { year: 2026, games: &games });
        let after = outcome.state.rating().expect("a rated player stays rated");
        prop_assert!(after >= RATING_FLOOR);
        prop_assert!(change_of(&outcome).abs() <= 700);
    }

    /// After any sequence of games and pauses, RD stays within 50..350, volatility within
    /// (0, 0.1], and the rating is a finite number.
    #[test]
    fn glicko_stays_within_bounds(
        games in prop::collection::vec((0usize..4, 0usize..4, score(), 0u64..400), 1..150),
    ) {
        let params = GlickoParams::LIDRAUGHTS;
        let mut players = [Glicko::initial(&params); 4];
        for (first, second, score, days_between) in games {
            if first == second {
                continue;
            }
            let pause = Duration::from_secs(days_between * 86_400);
            let a = players[first].aged(pause, &params);
            let b = players[second].aged(pause, &params);
            players[first] = rate_game(a, b, score, &params);
            players[second] = rate_game(b, a, score.reversed(), &params);
        }
        for player in players {
            prop_assert!((50.0..=350.0).contains(&player.deviation), "{:?}", player);
            prop_assert!(player.volatility > 0.0 && player.volatility <= 0.1, "{:?}", player);
            prop_assert!(player.rating.is_finite(), "{:?}", player);
        }
    }
}

const PLAYERS: usize = 2_000;
const GAMES: usize = 100_000;
/// Games per Elo period (one event): ratings of the event are those before it.
const GAMES_PER_EVENT: usize = 500;

struct ClubGame {
    white: usize,
    black: usize,
    white_score: Score,
}

fn club_games() -> Vec<ClubGame> {
    let mut random = Lcg(12);
    (0..GAMES)
        .map(|_| {
            let white = random.index_below(PLAYERS);
            let black = (white + 1 + random.index_below(PLAYERS - 1)) % PLAYERS;
            let white_score = [Score::Loss, Score::Draw, Score::Win][random.index_below(3)];
            ClubGame {
                white,
                black,
                white_score,
            }
        })
        .collect()
}

/// The whole club's history in both systems, shaped the way a recompute will run it. Not
/// timed as a test (a later benchmark does that); it prints how long it took.
#[test]
fn rating_100_000_games_among_2_000_players_in_both_systems() {
    let games = club_games();
    let started = Instant::now();

    let params = GlickoParams::LIDRAUGHTS;
    let mut glicko = vec![Glicko::initial(&params); PLAYERS];
    for game in &games {
        let white = glicko[game.white];
        let black = glicko[game.black];
        glicko[game.white] = rate_game(white, black, game.white_score, &params);
        glicko[game.black] = rate_game(black, white, game.white_score.reversed(), &params);
    }
    let glicko_done = started.elapsed();

    // Half the club arrives rated, half unrated; unrated opponents' games do not count.
    let mut elo: Vec<EloPlayer> = (0..PLAYERS)
        .map(|i| EloPlayer {
            state: if i % 2 == 0 {
                EloState::rated(EloRating(1500 + (i as u32 % 700)), 40)
            } else {
                EloState::new_player()
            },
            birth_year: Some(1990 + (i as i32 % 30)),
        })
        .collect();
    // One buffer per player, cleared each event and reused, so events allocate nothing.
    let mut period_games: Vec<Vec<EloGame>> = vec![Vec::new(); PLAYERS];
    let mut first_ratings = 0;
    for event in games.chunks(GAMES_PER_EVENT) {
        for game in event {
            let (white, black) = (elo[game.white].state, elo[game.black].state);
            if let Some(rating) = black.rating() {
                period_games[game.white].push(EloGame {
                    opponent: rating,
                    score: game.white_score,
                });
            }
            if let Some(rating) = white.rating() {
                period_games[game.black].push(EloGame {
                    opponent: rating,
                    score: game.white_score.reversed(),
                });
            }
        }
        for (player, games) in elo.iter_mut().zip(period_games.iter_mut()) {
            if games.is_empty() {
                continue;
            }
            let outcome = rate_period(player, EloPeriod { year: 2026, games });
            if matches!(outcome.update, EloUpdate::FirstRating { .. }) {
                first_ratings += 1;
            }
            player.state = outcome.state;
            games.clear();
        }
    }
    let elo_done = started.elapsed() - glicko_done;
    eprintln!("100,000 games, 2,000 players: Glicko-2 {glicko_done:?}, Elo {elo_done:?}");

    assert!(glicko.iter().all(|player| {
        (50.0..=350.0).contains(&player.deviation)
            && player.volatility <= 0.1
            && player.rating.is_finite()
    }));
    // 100 games each on average: everyone started uncertain and is now established.
    assert!(glicko.iter().all(|player| !player.is_provisional(&params)));
    assert_eq!(first_ratings, PLAYERS / 2);
    assert!(
        elo.iter()
            .all(|player| player.state.rating().is_some_and(|r| r >= RATING_FLOOR))
    );
}
