//! Opening ballots: which table an event draws from, and the draw of a round's openings,
//! recorded with the round (its seed) and on each board (the opening as drawn), so that it
//! can be shown, printed, checked and repeated.
use std::borrow::Cow;
use std::collections::HashMap;

use damka_domain::ballots::draw::normalise;
use damka_domain::ballots::{self, BallotError, Opening};
use damka_engine::Variant;

use super::history::History;
use crate::service::{AppError, AppResult, Refusal};
use crate::store::micro_matches::{self, DrawnOpening};
use crate::store::models::Event;
use crate::store::{DbConn, events};
use damka_domain::vocabulary::{OpeningBallot, Spelling};

/// Checks the event's ballot setting against its variant, reading the organiser's own
/// table when it is chosen; returns the table text to keep (none unless it is chosen).
pub fn check_setting(variant: Variant, ballot: OpeningBallot, custom: &str) -> AppResult<String> {
    match ballot {
        OpeningBallot::None => Ok(String::new()),
        OpeningBallot::Custom => {
            let openings = ballots::parse_custom_table(variant, custom)
                .map_err(|e| AppError::invalid("custom_openings", refusal_of(&e)))?;
            if openings.is_empty() {
                return Err(AppError::invalid(
                    "custom_openings",
                    Refusal::EmptyOpeningTable,
                ));
            }
            Ok(custom.to_string())
        }
        built_in => {
            let fits = built_in
                .table()
                .is_some_and(|table| table.variants().contains(&variant));
            if !fits {
                return Err(AppError::invalid(
                    "opening_ballot",
                    Refusal::BallotNotForVariant {
                        ballot: built_in.spelling().to_string(),
                        variant: variant.to_string(),
                    },
                ));
            }
            Ok(String::new())
        }
    }
}

/// A table's problem as a refusal naming the entry (its line, when it has one).
fn refusal_of(error: &BallotError) -> Refusal {
    let at = |line: usize, problem: Refusal| Refusal::BadOpeningTable {
        line,
        problem: Box::new(problem),
    };
    match error.clone() {
        BallotError::TooLarge { size, limit } => {
            Refusal::OpeningTableTooLarge { bytes: size, limit }
        }
        BallotError::TooMany { line, limit } => at(line, Refusal::OpeningTableTooMany { limit }),
        BallotError::TooLong {
            line,
            code,
            plies,
            limit,
        } => at(line, Refusal::OpeningTooLong { code, plies, limit }),
        BallotError::CodeTooLong { line, code, limit } => {
            at(line, Refusal::OpeningCodeTooLong { code, limit })
        }
        BallotError::BadMove {
            line,
            code,
            ply,
            text,
            reason,
        } => at(
            line,
            Refusal::OpeningBadMove {
                code,
                ply,
                text,
                reason: Box::new(crate::service::games::engine_refusal::move_refusal(reason)),
            },
        ),
        BallotError::BadFen { line, code, reason } => {
            at(line, Refusal::OpeningBadFen { code, reason })
        }
        BallotError::GameOver { line, code, ply } => {
            at(line, Refusal::OpeningGameOver { code, ply })
        }
        BallotError::DuplicateCode {
            line,
            code,
            first_line,
        } => at(line, Refusal::OpeningCodeTwice { code, first_line }),
        BallotError::Empty => Refusal::EmptyOpeningTable,
        BallotError::WrongVariant { table, variant } => Refusal::BallotNotForVariant {
            ballot: table.to_string(),
            variant: variant.to_string(),
        },
        BallotError::BadBuiltin { .. } => Refusal::UnreadableRequest {
            message: error.to_string(),
        },
    }
}

/// The openings the event draws from, in table order (a built-in table borrowed, not
/// copied); `None` without a ballot.
pub fn table_of(event: &Event) -> AppResult<Option<Cow<'static, [Opening]>>> {
    match event.opening_ballot {
        OpeningBallot::None => Ok(None),
        OpeningBallot::Custom => ballots::parse_custom_table(event.variant, &event.custom_openings)
            .map(|openings| Some(Cow::Owned(openings)))
            .map_err(|e| AppError::invalid("custom_openings", refusal_of(&e))),
        built_in => {
            let table = built_in
                .table()
                .ok_or_else(|| AppError::internal("a built-in ballot without its table"))?;
            let openings = table
                .openings_for(event.variant)
                .map_err(AppError::internal)?;
            Ok(Some(Cow::Borrowed(openings)))
        }
    }
}

/// A seed for a new round's draw: any 63-bit number (it is stored as a signed BIGINT).
pub fn new_seed() -> i64 {
    (rand::random::<u64>() >> 1) as i64
}

/// Draws the openings of round `round_id`'s boards that have none yet (all of them for a
/// new round; the new boards of a pairing changed by hand), with the round's seed, and
/// gives every board of a micro-match its game rows. Runs inside the event's write.
pub fn complete_round(conn: &mut DbConn, event: &Event, round_id: i64) -> AppResult<()> {
    let boards = events::pairings_of_round(conn, round_id)?;
    if event.games_per_pairing > 1 {
        for board in boards.iter().filter(|b| b.black_entry_id.is_some()) {
            micro_matches::ensure_games(conn, board.id, event.games_per_pairing)?;
        }
    }
    if event.opening_ballot == OpeningBallot::None {
        return Ok(());
    }
    let drawn: HashMap<i64, DrawnOpening> = micro_matches::openings(conn, event.id)?
        .into_iter()
        .collect();
    let missing: Vec<_> = boards
        .iter()
        .filter(|b| b.black_entry_id.is_some() && !drawn.contains_key(&b.id))
        .collect();
    if missing.is_empty() {
        // Publishing a round drawn when it was paired: nothing to read or draw.
        return Ok(());
    }
    let Some(table) = table_of(event)? else {
        return Ok(());
    };
    if table.is_empty() {
        return Err(AppError::conflict(Refusal::EmptyOpeningTable));
    }
    let round = events::rounds(conn, event.id)?
        .into_iter()
        .find(|r| r.id == round_id)
        .ok_or(AppError::NotFound { what: "round" })?;
    let seed = match round.ballot_seed {
        Some(seed) => seed,
        None => {
            let seed = new_seed();
            micro_matches::set_round_seed(conn, round_id, seed)?;
            seed
        }
    };
    // What each pair of players already had in this event (boards of this round that keep
    // their opening included), oldest first: the event's pairings come in round and board
    // order.
    let mut used: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (_, pairing) in events::pairings(conn, event.id)? {
        if let (Some(black), Some(opening)) = (pairing.black_entry_id, drawn.get(&pairing.id)) {
            used.entry(normalise((pairing.white_entry_id, black)))
                .or_default()
                .push(opening.index as usize);
        }
    }
    let pairs: Vec<(i64, i64)> = missing
        .iter()
        .filter_map(|b| {
            b.black_entry_id
                .map(|black| normalise((b.white_entry_id, black)))
        })
        .collect();
    let choices = ballots::draw(
        seed as u64,
        table.len(),
        &pairs,
        &used,
        event.ballot_per.domain(),
    );
    for (board, index) in missing.iter().zip(choices) {
        let opening = table
            .get(index)
            .ok_or_else(|| AppError::internal(format!("drawn opening {index} not in the table")))?;
        micro_matches::set_opening(conn, board.id, &drawn_opening(index, opening))?;
    }
    Ok(())
}

fn drawn_opening(index: usize, opening: &Opening) -> DrawnOpening {
    DrawnOpening {
        index: index as i32,
        code: opening.code.clone(),
        moves: opening.moves.clone(),
        start_fen: opening.start_fen.clone(),
        fen: opening.fen.clone(),
    }
}

/// The board's opening as pages and the API show it.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct OpeningView {
    /// The table it was drawn from: `idf64`, `fmjd64`, `basic150`, `english3`, `custom`.
    pub table: String,
    /// The table's name for it (`12-IV`, `001`).
    pub code: String,
    /// Its moves, in the game's notation; empty for a starting position of its own.
    pub moves: Vec<String>,
    /// The position the players take over: after the moves.
    pub fen: String,
    /// The event's variant and the table's set-up position (pages replay the moves from
    /// it to draw the diagram).
    #[serde(skip)]
    pub variant: Variant,
    #[serde(skip)]
    pub start_fen: Option<String>,
}

impl OpeningView {
    pub fn of(history: &History, opening: &DrawnOpening) -> OpeningView {
        OpeningView {
            table: history.event.opening_ballot.spelling().to_string(),
            code: opening.code.clone(),
            moves: opening.moves.clone(),
            fen: opening.fen.clone(),
            variant: history.event.variant,
            start_fen: opening.start_fen.clone(),
        }
    }

    /// "12-IV: c3-d4 f6-g5 ..." (a starting position without moves by its code alone).
    pub fn label(&self) -> String {
        if self.moves.is_empty() {
            self.code.clone()
        } else {
            format!("{}: {}", self.code, self.moves.join(" "))
        }
    }
}

/// A built-in opening table as `GET /api/v1/ballots` lists it.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct BallotTableView {
    /// The event setting that chooses it (`opening_ballot`).
    pub table: String,
    /// Where the table comes from, with its licence.
    pub source: String,
    /// The variants it is played in, and its size in each (a variant's own rules may leave
    /// some openings out).
    pub variants: Vec<BallotSizeView>,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct BallotSizeView {
    pub variant: String,
    pub openings: usize,
}

/// Every built-in table with its sizes.
pub fn catalogue() -> AppResult<Vec<BallotTableView>> {
    OpeningBallot::ALL
        .iter()
        .filter_map(|ballot| ballot.table().map(|table| (ballot, table)))
        .map(|(ballot, table)| {
            let variants = table
                .variants()
                .iter()
                .map(|variant| {
                    Ok(BallotSizeView {
                        variant: variant.to_string(),
                        openings: table
                            .openings_for(*variant)
                            .map_err(AppError::internal)?
                            .len(),
                    })
                })
                .collect::<AppResult<Vec<_>>>()?;
            Ok(BallotTableView {
                table: ballot.spelling().to_string(),
                source: table.source().to_string(),
                variants,
            })
        })
        .collect()
}
