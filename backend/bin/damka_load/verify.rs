//! `--verify`: after the games mode, every game it touched is read back and checked.
//!
//! - Every move the server acknowledged (answered `201 Created`) is stored at its ply: a
//!   server that acknowledges before the move is durable loses it in a crash, and this
//!   finds it.
//! - Every stored game replays move by move through the rules engine from its start
//!   position to the position the server shows: no illegal move is stored.
//! - A game's status agrees with the rules: when the engine says the replayed game is over
//!   (no legal move, an automatic draw), the server finished it with the same result, and a
//!   game the server finished by a rule is over for the engine too.
//! - Every finished event game's result is on its board in the event's rounds.
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;
use std::time::Duration;

use anyhow::{Context, bail};
use damka_engine::{Game, Position, Variant};
use serde::Deserialize;

use super::{Target, fetch};

/// What the run saw: what the verification checks against.
#[derive(Default)]
pub struct Evidence {
    /// Every acknowledged move: (game, ply, move as sent).
    pub acknowledged: Vec<(i64, i32, String)>,
    /// Every game a connection played.
    pub games: BTreeSet<i64>,
    /// Every event the run created (`--in-events`).
    pub events: Vec<i64>,
}

/// How many problems of each kind are listed (all are counted).
const LISTED: usize = 10;

/// What the verification found.
#[derive(Default)]
pub struct VerifyReport {
    pub games: u64,
    pub finished_games: u64,
    pub event_games: u64,
    pub plies_replayed: u64,
    pub acknowledged: u64,
    /// Acknowledged moves not stored at their ply (or stored differently).
    pub missing: Problems,
    /// Games whose stored moves do not replay, or replay to another position.
    pub illegal: Problems,
    /// Games whose status disagrees with the rules.
    pub wrong_status: Problems,
    /// Finished event games whose result is not on their board.
    pub results_missing: Problems,
    /// Games or events that could not be read.
    pub unreadable: Problems,
}

/// A count and the first few descriptions.
#[derive(Default)]
pub struct Problems {
    pub count: u64,
    pub first: Vec<String>,
}

impl Problems {
    fn add(&mut self, what: String) {
        self.count += 1;
        if self.first.len() < LISTED {
            self.first.push(what);
        }
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({ "count": self.count, "first": self.first })
    }
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.games > 0
            && [
                &self.missing,
                &self.illegal,
                &self.wrong_status,
                &self.results_missing,
                &self.unreadable,
            ]
            .iter()
            .all(|p| p.count == 0)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "finished_games": self.finished_games,
            "event_games": self.event_games,
            "plies_replayed": self.plies_replayed,
            "acknowledged_moves": self.acknowledged,
            "acknowledged_missing": self.missing.json(),
            "illegal_games": self.illegal.json(),
            "wrong_status": self.wrong_status.json(),
            "results_missing": self.results_missing.json(),
            "unreadable": self.unreadable.json(),
            "ok": self.ok(),
        })
    }

    pub fn text(&self) -> String {
        let mut lines = vec![format!(
            "  verified     {} games ({} finished, {} in events), {} plies replayed, {} \
             acknowledged moves: {}",
            self.games,
            self.finished_games,
            self.event_games,
            self.plies_replayed,
            self.acknowledged,
            if self.ok() {
                "all as expected"
            } else {
                "PROBLEMS"
            }
        )];
        for (name, problems) in [
            ("acknowledged move missing", &self.missing),
            ("illegal game", &self.illegal),
            ("status against the rules", &self.wrong_status),
            ("result not on its board", &self.results_missing),
            ("could not be read", &self.unreadable),
        ] {
            if problems.count > 0 {
                lines.push(format!("  {name}: {}", problems.count));
                lines.extend(problems.first.iter().map(|p| format!("    {p}")));
            }
        }
        lines.join("\n")
    }
}

#[derive(Deserialize)]
struct StoredMove {
    ply: i32,
    #[serde(rename = "move")]
    notation: String,
}

#[derive(Deserialize)]
struct StoredGame {
    variant: String,
    event_id: Option<i64>,
    status: String,
    result: Option<String>,
    reason: Option<String>,
    fen: String,
    start_fen: String,
    ply: i32,
    moves: Vec<StoredMove>,
}

#[derive(Deserialize)]
struct StoredBoard {
    board: i32,
    result: Option<String>,
    game_id: Option<i64>,
}

#[derive(Deserialize)]
struct StoredRound {
    number: i32,
    boards: Vec<StoredBoard>,
}

/// Reasons that only people give; every other end is the rules' and must agree with them.
const HUMAN_ENDS: [&str; 4] = ["resignation", "agreement", "arbiter", "time_forfeit"];

/// A GET answered 200, tried a few times (the server may just have been restarted).
async fn read_json<T: for<'de> Deserialize<'de>>(
    target: &Target,
    headers: &[(String, String)],
    path: &str,
) -> anyhow::Result<T> {
    let mut last = None;
    for attempt in 0..20 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        match fetch(target, "GET", path, headers, b"").await {
            Ok(answer) if answer.status == 200 => {
                return serde_json::from_slice(&answer.body)
                    .with_context(|| format!("GET {path}: the answer is not what was expected"));
            }
            Ok(answer) => last = Some(anyhow::anyhow!("GET {path} answered {}", answer.status)),
            Err(err) => last = Some(err),
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("GET {path} failed")))
}

/// Reads back every game and event of `evidence` and checks them.
pub async fn verify(
    target: &Target,
    headers: &[(String, String)],
    evidence: &Evidence,
) -> VerifyReport {
    let mut report = VerifyReport::default();
    // The games: those played, and every game on a board of the run's events.
    let mut games = evidence.games.clone();
    games.extend(
        read_boards(target, headers, &evidence.events, &mut report)
            .await
            .keys(),
    );
    let mut acknowledged: BTreeMap<i64, Vec<(i32, &str)>> = BTreeMap::new();
    for (game, ply, text) in &evidence.acknowledged {
        acknowledged.entry(*game).or_default().push((*ply, text));
        games.insert(*game);
    }
    report.acknowledged = evidence.acknowledged.len() as u64;
    let mut read = Vec::with_capacity(games.len());
    for game_id in games {
        let path = format!("/api/v1/games/{game_id}");
        match read_json::<StoredGame>(target, headers, &path).await {
            Ok(stored) => read.push((game_id, stored)),
            Err(err) => report.unreadable.add(format!("game {game_id}: {err:#}")),
        }
    }
    // The boards again, after the games: a move abandoned at the end of the run may still
    // have finished its game on the server meanwhile, and a game read finished must find
    // its result on a board read after it (both are one transaction).
    let boards = read_boards(
        target,
        headers,
        &evidence.events,
        &mut VerifyReport::default(),
    )
    .await;
    for (game_id, stored) in read {
        report.games += 1;
        for (ply, text) in acknowledged.get(&game_id).into_iter().flatten() {
            let at = usize::try_from(*ply - 1).ok();
            match at.and_then(|i| stored.moves.get(i)) {
                Some(m) if m.ply == *ply && m.notation == *text => {}
                Some(m) => report.missing.add(format!(
                    "game {game_id} ply {ply}: acknowledged {text}, stored {}",
                    m.notation
                )),
                None => report.missing.add(format!(
                    "game {game_id} ply {ply}: acknowledged {text}, the game has {} plies",
                    stored.ply
                )),
            }
        }
        let finished = stored.status == "finished";
        if finished {
            report.finished_games += 1;
        }
        match replay(&stored) {
            Ok(game) => {
                report.plies_replayed += game.history().len() as u64;
                if let Err(err) = status_agrees(&stored, &game) {
                    report.wrong_status.add(format!("game {game_id}: {err:#}"));
                }
            }
            Err(err) => report.illegal.add(format!("game {game_id}: {err:#}")),
        }
        if let Some(event) = stored.event_id {
            report.event_games += 1;
            match boards.get(&game_id) {
                Some((_, round, board, on_board)) if finished && on_board != &stored.result => {
                    report.results_missing.add(format!(
                        "game {game_id} ({event}, round {round}, board {board}): the game \
                         ended {:?}, the board says {on_board:?}",
                        stored.result
                    ));
                }
                Some(_) => {}
                None if evidence.events.contains(&event) => report.results_missing.add(format!(
                    "game {game_id} of event {event} is on no board of its rounds"
                )),
                None => {}
            }
        }
    }
    report
}

/// Where a board's game is: (event, round, board, the board's result).
type BoardOf = BTreeMap<i64, (i64, i32, i32, Option<String>)>;

/// The boards of `events` with a game, by game.
async fn read_boards(
    target: &Target,
    headers: &[(String, String)],
    events: &[i64],
    report: &mut VerifyReport,
) -> BoardOf {
    let mut boards = BoardOf::new();
    for &event in events {
        let path = format!("/api/v1/events/{event}/rounds");
        match read_json::<Vec<StoredRound>>(target, headers, &path).await {
            Ok(rounds) => {
                for round in rounds {
                    for board in round.boards {
                        if let Some(game) = board.game_id {
                            boards.insert(game, (event, round.number, board.board, board.result));
                        }
                    }
                }
            }
            Err(err) => report.unreadable.add(format!("event {event}: {err:#}")),
        }
    }
    boards
}

/// The stored game replayed through the engine; an error names the first bad move.
fn replay(stored: &StoredGame) -> anyhow::Result<Game> {
    let variant = Variant::from_str(&stored.variant)
        .map_err(|_| anyhow::anyhow!("unknown variant {:?}", stored.variant))?;
    let start = Position::from_fen(variant, &stored.start_fen)
        .map_err(|err| anyhow::anyhow!("start position {:?}: {err}", stored.start_fen))?;
    let mut game = Game::from_position(start);
    if stored.moves.len() != usize::try_from(stored.ply).unwrap_or(usize::MAX) {
        bail!(
            "{} moves listed for {} plies",
            stored.moves.len(),
            stored.ply
        );
    }
    for (index, m) in stored.moves.iter().enumerate() {
        if usize::try_from(m.ply).ok() != Some(index + 1) {
            bail!("the move at index {index} says ply {}", m.ply);
        }
        if game.status().is_over() {
            bail!(
                "ply {} {} was played after the game was over",
                m.ply,
                m.notation
            );
        }
        game.play_str(&m.notation)
            .map_err(|err| anyhow::anyhow!("ply {} {} is illegal: {err}", m.ply, m.notation))?;
    }
    if game.position().to_fen() != stored.fen {
        bail!(
            "the moves lead to {}, the server shows {}",
            game.position().to_fen(),
            stored.fen
        );
    }
    Ok(game)
}

/// The stored status against the replayed game's.
fn status_agrees(stored: &StoredGame, game: &Game) -> anyhow::Result<()> {
    let by_people = stored
        .reason
        .as_deref()
        .is_some_and(|r| HUMAN_ENDS.contains(&r));
    let rules = game.status();
    match (stored.status.as_str(), rules.is_over()) {
        ("finished", true) if !by_people => {
            let expected = rules.pdn_result();
            if stored.result.as_deref() != Some(expected) {
                bail!(
                    "finished {:?} ({:?}); the rules say {expected} ({rules})",
                    stored.result,
                    stored.reason
                );
            }
        }
        ("finished", false) if !by_people => bail!(
            "finished {:?} by {:?}, but the rules do not end the game there",
            stored.result,
            stored.reason
        ),
        ("finished", _) => {}
        (_, true) => bail!(
            "still {} although the rules ended it: {rules}",
            stored.status
        ),
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(moves: &[&str], fen: &str, status: &str, result: Option<&str>) -> StoredGame {
        StoredGame {
            variant: "russian".into(),
            event_id: None,
            status: status.into(),
            result: result.map(str::to_string),
            reason: result.map(|_| "no_legal_moves".to_string()),
            fen: fen.into(),
            start_fen: Position::start(Variant::Russian).to_fen(),
            ply: moves.len() as i32,
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| StoredMove {
                    ply: i as i32 + 1,
                    notation: m.to_string(),
                })
                .collect(),
        }
    }

    fn fen_after(moves: &[&str]) -> String {
        let mut game = Game::new(Variant::Russian);
        for m in moves {
            game.play_str(m).unwrap();
        }
        game.position().to_fen()
    }

    #[test]
    fn a_legal_game_replays_to_the_shown_position() {
        let moves = ["c3-d4", "f6-g5"];
        let game = replay(&stored(&moves, &fen_after(&moves), "ongoing", None)).unwrap();
        assert_eq!(game.history().len(), 2);
        assert!(status_agrees(&stored(&moves, "", "ongoing", None), &game).is_ok());
    }

    #[test]
    fn an_illegal_move_or_another_position_is_found() {
        let err = replay(&stored(
            &["c3-d4", "c3-d4"],
            &fen_after(&["c3-d4"]),
            "ongoing",
            None,
        ))
        .unwrap_err();
        assert!(
            format!("{err:#}").contains("ply 2 c3-d4 is illegal"),
            "{err:#}"
        );
        let err = replay(&stored(&["c3-d4"], &fen_after(&["a3-b4"]), "ongoing", None)).unwrap_err();
        assert!(format!("{err:#}").contains("lead to"), "{err:#}");
    }

    #[test]
    fn a_finish_the_rules_do_not_give_is_found() {
        let moves = ["c3-d4"];
        let game = replay(&stored(&moves, &fen_after(&moves), "ongoing", None)).unwrap();
        let finished = stored(&moves, "", "finished", Some("1-0"));
        assert!(status_agrees(&finished, &game).is_err());
        let mut resigned = stored(&moves, "", "finished", Some("1-0"));
        resigned.reason = Some("resignation".into());
        assert!(status_agrees(&resigned, &game).is_ok());
    }
}
