//! `--play-games N`: N games of Russian draughts played at once over the JSON API, one
//! keep-alive connection per game, to measure accepted moves per second and the latency of
//! a move.
//!
//! Setup (not measured): each connection creates two player profiles
//! (`POST /api/v1/players`) and a standalone game between them (`POST /api/v1/games`). The
//! signed-in account must be an organiser or an administrator: the organiser who creates a
//! standalone game is its arbiter and enters the moves of both sides.
//!
//! Then every connection plays its game: `POST /api/v1/games/{id}/moves` with
//! `{"ply": n, "move": m}`, `m` chosen by a seeded generator among the `legal_moves` of the
//! previous answer, so a run with the same seed plays the same games. A finished game is
//! replaced by a new one between the same two players (its creation is neither timed nor
//! counted). Only `201 Created` is a success; any other answer or a transport failure is an
//! error, after which the connection reads the game again (`GET /api/v1/games/{id}`) and
//! goes on from what the server stored.
//!
//! With `--in-events` the games are instead the boards of Swiss events the tool runs as
//! their organiser (`events.rs`): a connection whose game is over waits for the next round.
//! With `--also-url` the connections are spread over several instances of one service.
//! With `--verify` every game is read back and checked when the run is over (`verify.rs`);
//! `--expect-outage` lets the run go on through a server that is killed and restarted
//! (failed requests are retried, and the verification alone decides the exit status).
//!
//! Without `--rate` every connection sends its next move as soon as the answer to the last
//! one arrives (the most moves the server can take: with N games in flight, a move waits
//! for the N - 1 others, so its latency is about N / throughput). With `--rate R` the moves
//! are paced: each game moves every N / R seconds, the games evenly staggered, and a move's
//! latency counts from the moment it was due, so a server that falls behind shows it in
//! the latency instead of in a slower schedule.
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Deserialize;
use tokio::task::JoinSet;

use super::events::Coordinator;
use super::verify::{Evidence, VerifyReport};
use super::{
    Conn, Failure, LatencySummary, Response, Stats, Target, counts_text, exchange, request_bytes,
};

/// How many error answers are kept to be shown.
const ERROR_SAMPLES: usize = 5;
/// How much of an error body is shown.
const ERROR_BODY_CHARS: usize = 400;

/// What the games mode was asked to do.
pub struct Plan {
    pub target: Target,
    /// More instances of the same service: connection `i` uses `[target, also...][i % n]`.
    pub also: Vec<Target>,
    /// Play the boards of Swiss events instead of standalone games.
    pub in_events: bool,
    /// Read every game back at the end and check it.
    pub verify: bool,
    /// The server may go away during the run: failures are retried, not fatal.
    pub expect_outage: bool,
    /// Includes `Authorization`; `Content-Type` is added here.
    pub headers: Vec<(String, String)>,
    pub games: usize,
    pub seed: u64,
    pub warmup: Duration,
    pub duration: Duration,
    /// Play on past `duration` until this many games are over (0: stop at `duration`).
    pub min_finished: u64,
    pub timeout: Duration,
    /// Moves per second offered across all games; `None`: as fast as answered.
    pub rate: Option<f64>,
    /// Subscribers on another instance that time each move's event (`live.rs`).
    pub live: Option<super::live::Watch>,
}

impl Plan {
    /// The instance connection `index` talks to.
    fn target_for(&self, index: usize) -> Target {
        let instances = 1 + self.also.len();
        match index % instances {
            0 => self.target.clone(),
            other => self.also[other - 1].clone(),
        }
    }
}

/// When the connections stop: at the end of `--duration`, or, with `--min-finished N`,
/// once N games are over (at most `MIN_FINISHED_GRACE` later), so that a slow or busy
/// machine still plays games to their end instead of stopping every game midway.
struct Stop {
    deadline: Instant,
    latest: Instant,
    min_finished: u64,
    finished: AtomicU64,
}

/// How long `--min-finished` may run past `--duration`.
const MIN_FINISHED_GRACE: Duration = Duration::from_secs(300);

impl Stop {
    fn new(deadline: Instant, min_finished: u64) -> Stop {
        Stop {
            deadline,
            latest: deadline + MIN_FINISHED_GRACE,
            min_finished,
            finished: AtomicU64::new(0),
        }
    }

    /// The instant the run stops at, as far as is known now.
    fn at(&self) -> Instant {
        if self.finished.load(Ordering::Relaxed) >= self.min_finished {
            self.deadline
        } else {
            self.latest
        }
    }

    fn game_over(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}

/// When one connection plays.
#[derive(Clone)]
struct Schedule {
    measure_from: Instant,
    stop: Arc<Stop>,
    timeout: Duration,
    /// With `--rate`: the time between two moves of one game, and this game's first move.
    pace: Option<(Duration, Instant)>,
}

/// The fields of a game (`GameView`) the player needs.
#[derive(Debug, Clone, Deserialize)]
struct GameAnswer {
    id: i64,
    ply: i32,
    status: String,
    #[serde(default)]
    reason: Option<String>,
    legal_moves: Vec<String>,
}

impl GameAnswer {
    fn is_finished(&self) -> bool {
        self.status == "finished"
    }
}

#[derive(Debug, Deserialize)]
struct CreatedPlayer {
    id: i64,
}

/// SplitMix64: a tiny deterministic generator, so that a seed means the same games on
/// every build (no dependence on a library's choice of algorithm).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `len` (> 0). The modulo bias is irrelevant for a few dozen moves.
    fn below(&mut self, len: usize) -> usize {
        (self.next() % len as u64) as usize
    }
}

/// One connection: its game, its players and its requests.
struct Player {
    target: Target,
    headers: Vec<(String, String)>,
    conn: Option<Conn>,
    white: i64,
    black: i64,
    game: GameAnswer,
    rng: SplitMix64,
    /// With `--live`: where each measured move's 201 is noted.
    acks: Option<super::live::Acks>,
    /// This connection's board (`--in-events`).
    index: usize,
    /// The round of `--in-events` this connection plays.
    generation: u64,
    /// The game must be read again before the next move (a move failed, or a new round).
    stale: bool,
}

/// What one connection measured beyond the request statistics.
#[derive(Default)]
struct Played {
    stats: Stats,
    accepted: u64,
    /// Games finished during the measured time, by reason.
    finished: BTreeMap<String, u64>,
    /// Plies of the games finished during the measured time.
    finished_plies: u64,
    /// Failed requests other than moves (a new game, re-reading a game after an error),
    /// warm-up included: none should fail.
    other_errors: u64,
    /// Every move answered 201, warm-up included: (game, ply, move).
    acknowledged: Vec<(i64, i32, String)>,
    /// Every game played.
    games: BTreeSet<i64>,
}

/// The first few error answers, shared by all connections.
type ErrorSamples = Arc<Mutex<Vec<String>>>;

fn remember_error(samples: &ErrorSamples, what: String) {
    if let Ok(mut kept) = samples.lock()
        && kept.len() < ERROR_SAMPLES
    {
        kept.push(what);
    }
}

fn body_text(response: &Response) -> String {
    String::from_utf8_lossy(&response.body)
        .chars()
        .take(ERROR_BODY_CHARS)
        .collect()
}

impl Player {
    fn request(&self, method: &str, path: &str, body: &serde_json::Value) -> Vec<u8> {
        let body = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        request_bytes(method, &self.target, path, &self.headers, &body)
    }

    /// One request outside the measurement (setup, re-reading a game, a new game).
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        body: serde_json::Value,
        expected: u16,
        timeout: Duration,
    ) -> anyhow::Result<Response> {
        let request = self.request(method, path, &body);
        let mut ignored = Stats::default();
        let answer = tokio::time::timeout(
            timeout,
            exchange(
                &mut self.conn,
                self.target.addr,
                &request,
                true,
                &mut ignored,
            ),
        )
        .await;
        let response = match answer {
            Ok(Ok(response)) => response,
            Ok(Err(failure)) => {
                self.conn = None;
                bail!("{method} {path}: {}", failure.label());
            }
            Err(_) => {
                self.conn = None;
                bail!("{method} {path}: no answer within {timeout:?}");
            }
        };
        if response.close {
            self.conn = None;
        }
        if response.status != expected {
            bail!(
                "{method} {path} answered {}: {}",
                response.status,
                body_text(&response)
            );
        }
        Ok(response)
    }

    async fn new_game(&mut self, timeout: Duration) -> anyhow::Result<()> {
        let body = serde_json::json!({
            "variant": "russian",
            "white_player_id": self.white,
            "black_player_id": self.black,
        });
        let created = self
            .call("POST", "/api/v1/games", body, 201, timeout)
            .await?;
        self.game = serde_json::from_slice(&created.body).context("the created game")?;
        Ok(())
    }

    async fn reread_game(&mut self, timeout: Duration) -> anyhow::Result<()> {
        let path = format!("/api/v1/games/{}", self.game.id);
        let answer = self
            .call("GET", &path, serde_json::Value::Null, 200, timeout)
            .await?;
        self.game = serde_json::from_slice(&answer.body).context("the game")?;
        Ok(())
    }
}

/// Creates connection `index`'s two players and its first game, or (`--in-events`) takes
/// the game on its board.
async fn set_up(plan: &Plan, index: usize, board_game: Option<i64>) -> anyhow::Result<Player> {
    let mut headers = plan.headers.clone();
    headers.push(("Content-Type".into(), "application/json".into()));
    let mut player = Player {
        target: plan.target_for(index),
        headers,
        conn: None,
        white: 0,
        black: 0,
        game: GameAnswer {
            id: 0,
            ply: 0,
            status: String::new(),
            reason: None,
            legal_moves: Vec::new(),
        },
        rng: SplitMix64(plan.seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407)),
        acks: None,
        index,
        generation: 0,
        stale: false,
    };
    if let Some(game) = board_game {
        player.game.id = game;
        player.reread_game(plan.timeout).await?;
        return Ok(player);
    }
    let mut ids = [0_i64; 2];
    for (id, colour) in ids.iter_mut().zip(["White", "Black"]) {
        let body = serde_json::json!({ "name": format!("Load {colour} {}", index + 1) });
        let created = player
            .call("POST", "/api/v1/players", body, 201, plan.timeout)
            .await?;
        *id = serde_json::from_slice::<CreatedPlayer>(&created.body)
            .context("the created player")?
            .id;
    }
    [player.white, player.black] = ids;
    player.new_game(plan.timeout).await?;
    Ok(player)
}

impl Played {
    /// Adds what another connection played.
    fn add(&mut self, played: Played) {
        self.stats.merge(played.stats);
        self.accepted += played.accepted;
        self.finished_plies += played.finished_plies;
        self.other_errors += played.other_errors;
        for (reason, n) in played.finished {
            *self.finished.entry(reason).or_default() += n;
        }
        self.acknowledged.extend(played.acknowledged);
        self.games.extend(played.games);
    }
}

/// Plays one connection's games until the deadline.
async fn play(
    mut player: Player,
    schedule: Schedule,
    errors: ErrorSamples,
    rounds: Option<Arc<Coordinator>>,
) -> Played {
    let Schedule {
        measure_from,
        ref stop,
        timeout,
        pace,
    } = schedule;
    let mut played = Played::default();
    let mut due = pace.map(|(_, first)| first);
    loop {
        if Instant::now() >= stop.at() {
            break;
        }
        if player.stale && !catch_up(&mut player, &mut played, &errors, timeout).await {
            continue;
        }
        played.games.insert(player.game.id);
        if player.game.is_finished() || player.game.legal_moves.is_empty() {
            if !next_game(
                &mut player,
                &mut played,
                &errors,
                rounds.as_deref(),
                &schedule,
            )
            .await
            {
                break;
            }
            // Creating the game is not a move: the next move is not late because of it.
            due = due.map(|at| at.max(Instant::now()));
            continue;
        }
        let ply = player.game.ply + 1;
        let choice = player.rng.below(player.game.legal_moves.len());
        let text = player.game.legal_moves[choice].clone();
        let path = format!("/api/v1/games/{}/moves", player.game.id);
        let request = player.request(
            "POST",
            &path,
            &serde_json::json!({ "ply": ply, "move": text }),
        );
        // Paced: wait until the move is due, and time it from then even when sent late.
        let started = match (due, pace) {
            (Some(at), Some((interval, _))) => {
                if at >= stop.at() {
                    break;
                }
                tokio::time::sleep_until(at.into()).await;
                due = Some(at + interval);
                at
            }
            _ => Instant::now(),
        };
        let measured = started >= measure_from;
        let limit = (Instant::now() + timeout).min(stop.at());
        let outcome = tokio::time::timeout_at(
            limit.into(),
            exchange(
                &mut player.conn,
                player.target.addr,
                &request,
                true,
                &mut played.stats,
            ),
        )
        .await;
        let finished = Instant::now();
        let stored = match outcome {
            Err(_) => {
                player.conn = None;
                if finished >= stop.at() {
                    break;
                }
                if measured {
                    *played.stats.failures.entry(Failure::Timeout).or_default() += 1;
                }
                remember_error(&errors, format!("POST {path} ply {ply} {text}: timeout"));
                false
            }
            Ok(Err(failure)) => {
                player.conn = None;
                if measured {
                    *played.stats.failures.entry(failure).or_default() += 1;
                }
                remember_error(
                    &errors,
                    format!("POST {path} ply {ply} {text}: {}", failure.label()),
                );
                false
            }
            Ok(Ok(response)) => {
                let sent = SentMove {
                    path: &path,
                    ply,
                    text: &text,
                    started,
                    finished,
                    measured,
                };
                take_answer(&mut player, &mut played, &errors, response, &sent)
            }
        };
        if !stored {
            player.stale = true;
        }
    }
    played
}

/// Goes on from the game as the server has it (a failed move may have been stored after
/// all). False when it could not be read.
async fn catch_up(
    player: &mut Player,
    played: &mut Played,
    errors: &ErrorSamples,
    timeout: Duration,
) -> bool {
    match player.reread_game(timeout).await {
        Ok(()) => {
            player.stale = false;
            true
        }
        Err(err) => {
            played.other_errors += 1;
            remember_error(errors, format!("{err:#}"));
            tokio::time::sleep(Duration::from_millis(20)).await;
            false
        }
    }
}

/// Counts a game that is over and moves to the next: the next round's (once every board
/// of this one is over), or a new standalone game. False when there is no next round.
async fn next_game(
    player: &mut Player,
    played: &mut Played,
    errors: &ErrorSamples,
    rounds: Option<&Coordinator>,
    schedule: &Schedule,
) -> bool {
    schedule.stop.game_over();
    if Instant::now() >= schedule.measure_from {
        let reason = player.game.reason.clone().unwrap_or_else(|| "none".into());
        *played.finished.entry(reason).or_default() += 1;
        played.finished_plies += u64::try_from(player.game.ply).unwrap_or(0);
    }
    if let Some(rounds) = rounds {
        return match rounds.next(player.generation, schedule.stop.at()).await {
            Some(next) => {
                player.generation = next.generation;
                player.game.id = next.games[player.index];
                player.stale = true;
                true
            }
            None => false,
        };
    }
    if let Err(err) = player.new_game(schedule.timeout).await {
        played.other_errors += 1;
        remember_error(errors, format!("{err:#}"));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// A move sent, as its answer is recorded.
struct SentMove<'a> {
    path: &'a str,
    ply: i32,
    text: &'a str,
    started: Instant,
    finished: Instant,
    measured: bool,
}

/// Records the server's answer to a move: its latency and status when measured, and the
/// game as the server now has it when the move was accepted. Whether it was.
fn take_answer(
    player: &mut Player,
    played: &mut Played,
    errors: &ErrorSamples,
    response: Response,
    sent: &SentMove,
) -> bool {
    let SentMove {
        path,
        ply,
        text,
        started,
        finished,
        measured,
    } = *sent;
    if measured {
        let micros = finished.duration_since(started).as_micros();
        played
            .stats
            .latencies
            .push(u32::try_from(micros).unwrap_or(u32::MAX));
        *played.stats.statuses.entry(response.status).or_default() += 1;
        played.stats.body_bytes += response.body_len as u64;
    }
    if response.close {
        player.conn = None;
    }
    let answer = (response.status == 201)
        .then(|| serde_json::from_slice::<GameAnswer>(&response.body).ok())
        .flatten();
    match answer {
        Some(game) => {
            played
                .acknowledged
                .push((game.id, game.ply, text.to_string()));
            if measured {
                played.accepted += 1;
                if let Some(acks) = &player.acks {
                    acks.stored(game.id, game.ply, finished);
                }
            }
            player.game = game;
            true
        }
        // Not accepted (a 201 whose body is not a game is not accepted either).
        None => {
            remember_error(
                errors,
                format!(
                    "POST {path} ply {ply} {text}: {} {}",
                    response.status,
                    body_text(&response)
                ),
            );
            false
        }
    }
}

/// Sets up and plays the games, then reports.
pub async fn run(plan: Plan, json: bool) -> anyhow::Result<std::process::ExitCode> {
    let plan = Arc::new(plan);
    let setup_started = Instant::now();
    let (rounds, first_round) = if plan.in_events {
        let (coordinator, first) =
            Coordinator::start(plan.target.clone(), plan.headers.clone(), plan.games)
                .await
                .context("setting up the first event")?;
        (Some(Arc::new(coordinator)), Some(first))
    } else {
        (None, None)
    };
    let mut setups = JoinSet::new();
    for index in 0..plan.games {
        let plan = plan.clone();
        let board_game = first_round.as_ref().map(|round| round.games[index]);
        setups.spawn(async move { (index, set_up(&plan, index, board_game).await) });
    }
    let mut players: Vec<Option<Player>> = (0..plan.games).map(|_| None).collect();
    while let Some(done) = setups.join_next().await {
        let (index, player) = done.context("a setup task failed")?;
        players[index] = Some(player.with_context(|| format!("setting up game {}", index + 1))?);
    }
    let setup_time = setup_started.elapsed();
    eprintln!(
        "damka-load: created {} players and {} games{} in {:.1} s",
        2 * plan.games,
        plan.games,
        if plan.in_events {
            " (round 1 of a Swiss event)"
        } else {
            ""
        },
        setup_time.as_secs_f64()
    );
    let acks = super::live::Acks::default();
    let watching = match &plan.live {
        Some(watch) => {
            let ids: Vec<i64> = players.iter().flatten().map(|p| p.game.id).collect();
            for player in players.iter_mut().flatten() {
                player.acks = Some(acks.clone());
            }
            Some(super::live::start(watch, &ids).await?)
        }
        None => None,
    };

    let errors: ErrorSamples = Arc::default();
    let begin = Instant::now();
    let measure_from = begin + plan.warmup;
    let deadline = measure_from + plan.duration;
    let stop = Arc::new(Stop::new(deadline, plan.min_finished));
    let games = plan.games as f64;
    let tasks: Vec<_> = players
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(index, player)| {
            let pace = plan.rate.map(|rate| {
                let interval = Duration::from_secs_f64(games / rate);
                (interval, begin + interval.mul_f64(index as f64 / games))
            });
            let schedule = Schedule {
                measure_from,
                stop: stop.clone(),
                timeout: plan.timeout,
                pace,
            };
            tokio::spawn(play(player, schedule, errors.clone(), rounds.clone()))
        })
        .collect();
    let mut total = Played::default();
    for task in tasks {
        total.add(task.await.context("a game task failed")?);
    }
    // With `--min-finished` the run may have gone on past `--duration`: rates are per
    // second of the time it really measured.
    let measured = if plan.min_finished > 0 {
        plan.duration.max(measure_from.elapsed())
    } else {
        plan.duration
    };
    if let Some(rounds) = &rounds {
        // Failed requests of the organiser's part count like any other failed request.
        total.other_errors += rounds.failures();
        if let Some(err) = rounds.last_error().await {
            remember_error(&errors, format!("setting up a round: {err}"));
        }
    }
    let samples = errors.lock().map(|kept| kept.clone()).unwrap_or_default();
    let live = match watching {
        Some(watching) => Some(watching.finish(deadline, &acks).await?),
        None => None,
    };
    let events = rounds.as_ref().map(|r| r.events()).unwrap_or_default();
    let verified = if plan.verify {
        eprintln!(
            "damka-load: verifying {} games and {} events",
            total.games.len(),
            events.len()
        );
        let evidence = Evidence {
            acknowledged: std::mem::take(&mut total.acknowledged),
            games: std::mem::take(&mut total.games),
            events: events.clone(),
        };
        Some(super::verify::verify(&plan.target, &plan.headers, &evidence).await)
    } else {
        None
    };
    let outcome = Outcome {
        samples: &samples,
        live: live.as_ref(),
        events: events.len(),
        verified: verified.as_ref(),
        measured,
    };
    Ok(report(&plan, json, total, &outcome))
}

/// What the run found besides the moves' statistics.
struct Outcome<'a> {
    samples: &'a [String],
    live: Option<&'a super::live::LiveReport>,
    /// Events created (`--in-events`).
    events: usize,
    verified: Option<&'a VerifyReport>,
    /// The measured time: `--duration`, or longer when `--min-finished` played on.
    measured: Duration,
}

fn report(plan: &Plan, json: bool, mut total: Played, outcome: &Outcome) -> std::process::ExitCode {
    let Outcome {
        samples,
        live,
        events,
        verified,
        measured,
    } = *outcome;
    let stats = &mut total.stats;
    stats.latencies.sort_unstable();
    let responses = stats.latencies.len() as u64;
    let failures: u64 = stats.failures.values().sum();
    let bad = responses + failures - total.accepted;
    let seconds = measured.as_secs_f64();
    let moves_per_sec = total.accepted as f64 / seconds;
    let latency = LatencySummary::of(&stats.latencies);
    let games_finished: u64 = total.finished.values().sum();
    let mean_plies = if games_finished == 0 {
        0.0
    } else {
        total.finished_plies as f64 / games_finished as f64
    };
    // Through an outage failed requests are expected; what was acknowledged must hold.
    let ok = (plan.expect_outage || (bad == 0 && total.other_errors == 0))
        && total.accepted > 0
        && live.is_none_or(|live| live.missed == 0)
        && verified.is_none_or(VerifyReport::ok);
    if json {
        let statuses = stats.statuses_json();
        let errors = stats.failures_json();
        let out = serde_json::json!({
            "mode": "games",
            "url": format!("http://{}/", plan.target.authority),
            "games": plan.games,
            "connections": plan.games,
            "instances": 1 + plan.also.len(),
            "in_events": plan.in_events,
            "events": events,
            "expect_outage": plan.expect_outage,
            "seed": plan.seed,
            "offered_moves_per_sec": plan.rate,
            "duration_s": seconds,
            "warmup_s": plan.warmup.as_secs_f64(),
            "moves": total.accepted,
            "moves_per_sec": (moves_per_sec * 10.0).round() / 10.0,
            "requests": responses,
            "latency_ms": latency.json(),
            "statuses": statuses,
            "errors": errors,
            "non_201_or_failed": bad,
            "other_errors": total.other_errors,
            "games_finished": games_finished,
            "finish_reasons": total.finished,
            "mean_plies_per_finished_game": (mean_plies * 10.0).round() / 10.0,
            "reconnects": stats.reconnects,
            "body_bytes": stats.body_bytes,
            "first_errors": samples,
            "live": live.map(|live| live.json()),
            "verify": verified.map(VerifyReport::json),
            "ok": ok,
        });
        println!("{out}");
    } else {
        println!(
            "{} games of russian draughts at once on http://{}/ for {:.1} s (after {:.1} s warm-up), seed {}, {}",
            plan.games,
            plan.target.addr,
            seconds,
            plan.warmup.as_secs_f64(),
            plan.seed,
            match plan.rate {
                Some(rate) => format!("{rate} moves/s offered"),
                None => "each move sent when the last was answered".to_string(),
            }
        );
        println!("  moves        {} accepted (201)", total.accepted);
        println!("  moves/s      {moves_per_sec:.1}");
        println!("{}", latency.text());
        println!(
            "  finished     {games_finished} games, {mean_plies:.1} plies on average ({})",
            counts_text(total.finished.iter().map(|(r, n)| (r.to_string(), *n)))
        );
        println!("  statuses     {}", stats.statuses_text());
        println!(
            "  errors       {}; {} other failed requests; {} reconnects",
            stats.failures_text(),
            total.other_errors,
            stats.reconnects
        );
        if let Some(live) = live {
            println!("{}", live.text());
        }
        if plan.in_events {
            println!("  events       {events} Swiss events run");
        }
        if let Some(verified) = verified {
            println!("{}", verified.text());
        }
    }
    for sample in samples {
        eprintln!("damka-load: error: {sample}");
    }
    if ok {
        std::process::ExitCode::SUCCESS
    } else if verified.is_some_and(|v| !v.ok()) {
        eprintln!("damka-load: the verification found stored games that are not as acknowledged");
        std::process::ExitCode::FAILURE
    } else {
        eprintln!(
            "damka-load: {bad} of {} move requests were not answered 201 Created; {} other \
             requests failed",
            responses + failures,
            total.other_errors
        );
        std::process::ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_deterministic_and_spreads() {
        let mut a = SplitMix64(7);
        let mut b = SplitMix64(7);
        let first: Vec<usize> = (0..32).map(|_| a.below(5)).collect();
        let second: Vec<usize> = (0..32).map(|_| b.below(5)).collect();
        assert_eq!(first, second);
        assert!(first.iter().all(|&i| i < 5));
        for index in 0..5 {
            assert!(first.contains(&index), "{index} never chosen in {first:?}");
        }
        assert_ne!(SplitMix64(8).next(), SplitMix64(7).next());
    }

    #[test]
    fn a_game_answer_reads_the_view() -> anyhow::Result<()> {
        let view = r#"{"id": 4, "variant": "russian", "ply": 2, "status": "ongoing",
            "result": null, "reason": null, "moves": [], "legal_moves": ["c3-d4", "g3-h4"]}"#;
        let game: GameAnswer = serde_json::from_str(view)?;
        assert_eq!((game.id, game.ply), (4, 2));
        assert!(!game.is_finished());
        assert_eq!(game.legal_moves, ["c3-d4", "g3-h4"]);
        Ok(())
    }
}
