//! Standings after any round (points, then the event's tie-breaks, shared places where
//! everything is equal), the crosstable, the pairings and results of a round, and a
//! player's card.
//!
//! ```text
//! let st = compute_standings(&tournament, &StandingsOptions::default())?;
//! for row in &st.rows { println!("{} {} {}", row.place_label(), row.name, row.points.as_f64()); }
//! ```

use std::cmp::Reverse;

use crate::tiebreak::direct_encounter::direct_encounter;
use crate::tiebreak::rating::{average_rating, performance, rated_games};
use crate::tiebreak::{
    Context, EventKind, HistoryError, TieBreak, TieBreakKind, TieBreakOptions, TieBreakValue,
};
use crate::tournament::{ByeKind, Colour, HalfPoints, Outcome, RoundEntry, StartNo, Tournament};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error("no player with start number {0}")]
    PlayerNotFound(StartNo),
    #[error("round {round} does not exist (the event has {rounds} rounds with results)")]
    NoSuchRound { round: u32, rounds: u32 },
}

/// What to compute. `Default`: after the last round with results, kind detected from the
/// history, the kind's default tie-breaks, unrated opponents left out of ARO/TPR.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StandingsOptions {
    pub after_round: Option<u32>,
    /// `None`: [`EventKind::default_tiebreaks`].
    pub tiebreaks: Option<Vec<TieBreak>>,
    /// `None`: [`EventKind::detect`].
    pub kind: Option<EventKind>,
    pub unrated_rating: Option<u32>,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingRow {
    /// First place of the shared range (1-based).
    pub place: u32,
    /// Last place of the shared range (= `place` when not shared).
    pub place_to: u32,
    pub start_no: StartNo,
    pub name: String,
    pub rating: Option<u32>,
    pub points: HalfPoints,
    /// One figure per tie-break of [`Standings::tiebreaks`].
    pub tiebreaks: Vec<TieBreakValue>,
}

impl StandingRow {
    /// `3`, or `3-4` for a shared place.
    pub fn place_label(&self) -> String {
        if self.place == self.place_to {
            self.place.to_string()
        } else {
            format!("{}-{}", self.place, self.place_to)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    pub after_round: u32,
    pub kind: EventKind,
    pub tiebreaks: Vec<TieBreak>,
    /// In standings order; players sharing a place by start number.
    pub rows: Vec<StandingRow>,
}

impl Standings {
    pub fn row(&self, start_no: StartNo) -> Option<&StandingRow> {
        self.rows.iter().find(|r| r.start_no == start_no)
    }
}

fn context<'a>(
    t: &'a Tournament,
    after_round: Option<u32>,
    kind: Option<EventKind>,
    unrated_rating: Option<u32>,
) -> Result<Context<'a>, HistoryError> {
    let kind = kind.unwrap_or_else(|| EventKind::detect(t));
    Context::new(
        t,
        after_round,
        TieBreakOptions {
            kind,
            unrated_rating,
        },
    )
}

/// Sort key of a figure: higher is better (DE: lower place is better, 0 = not separated).
fn sort_key(tb: &TieBreak, v: &TieBreakValue) -> (bool, i64) {
    match v.numerator {
        None => (true, 0),
        Some(n) if tb.kind == TieBreakKind::DirectEncounter => (false, n),
        Some(n) => (false, -n),
    }
}

/// Splits `order[range]` into runs of equal `key`.
fn runs<K: PartialEq>(order: &[usize], key: impl Fn(usize) -> K) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && key(order[end]) == key(order[start]) {
            end += 1;
        }
        out.push((start, end));
        start = end;
    }
    out
}

/// Standings with all tie-breaks and shared places.
pub fn compute_standings(
    t: &Tournament,
    options: &StandingsOptions,
) -> Result<Standings, StandingsError> {
    let ctx = context(t, options.after_round, options.kind, options.unrated_rating)?;
    let kind = ctx.options.kind;
    let tiebreaks = options
        .tiebreaks
        .clone()
        .unwrap_or_else(|| kind.default_tiebreaks());
    let n = ctx.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (Reverse(ctx.score[i]), t.players[i].start_no));
    // Group boundaries: [start, end) ranges of `order` still tied.
    let mut groups = runs(&order, |i| ctx.score[i]);
    let mut values: Vec<Vec<TieBreakValue>> = vec![Vec::with_capacity(tiebreaks.len()); n];
    for tb in &tiebreaks {
        let mut col = ctx.values(*tb);
        if tb.kind == TieBreakKind::DirectEncounter {
            for &(s, e) in &groups {
                if e - s >= 2 {
                    let places = direct_encounter(&ctx, &order[s..e]);
                    for (k, p) in places.into_iter().enumerate() {
                        col[order[s + k]] = TieBreakValue::integer(Some(p));
                    }
                }
            }
        }
        let mut next = Vec::with_capacity(groups.len());
        for &(s, e) in &groups {
            let slice = &mut order[s..e];
            slice.sort_by_key(|&i| (sort_key(tb, &col[i]), t.players[i].start_no));
            for (a, b) in runs(slice, |i| sort_key(tb, &col[i])) {
                next.push((s + a, s + b));
            }
        }
        groups = next;
        for (i, v) in col.into_iter().enumerate() {
            values[i].push(v);
        }
    }
    let mut rows = Vec::with_capacity(n);
    for &(s, e) in &groups {
        for &i in &order[s..e] {
            let p = &t.players[i];
            rows.push(StandingRow {
                place: s as u32 + 1,
                place_to: e as u32,
                start_no: p.start_no,
                name: p.name.clone(),
                rating: p.rating,
                points: ctx.score[i],
                tiebreaks: values[i].clone(),
            });
        }
    }
    Ok(Standings {
        after_round: ctx.rounds,
        kind,
        tiebreaks,
        rows,
    })
}

/// A result as the crosstable and the card print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultCode {
    Win,
    Draw,
    Loss,
    /// Played but under one move (TRF `W D L`).
    UnratedWin,
    UnratedDraw,
    UnratedLoss,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    PairingAllocatedBye,
    FullPointBye,
    HalfPointBye,
    ZeroPointBye,
    NotPaired,
}

impl ResultCode {
    pub fn of(entry: &RoundEntry) -> ResultCode {
        match *entry {
            RoundEntry::Played { outcome, rated, .. } => match (outcome, rated) {
                (Outcome::Win, true) => ResultCode::Win,
                (Outcome::Draw, true) => ResultCode::Draw,
                (Outcome::Loss, true) => ResultCode::Loss,
                (Outcome::Win, false) => ResultCode::UnratedWin,
                (Outcome::Draw, false) => ResultCode::UnratedDraw,
                (Outcome::Loss, false) => ResultCode::UnratedLoss,
            },
            RoundEntry::Forfeit { won: true, .. } => ResultCode::ForfeitWin,
            RoundEntry::Forfeit { won: false, .. } => ResultCode::ForfeitLoss,
            RoundEntry::DoubleForfeit { .. } => ResultCode::DoubleForfeit,
            RoundEntry::Bye(ByeKind::PairingAllocated) => ResultCode::PairingAllocatedBye,
            RoundEntry::Bye(ByeKind::FullPoint) => ResultCode::FullPointBye,
            RoundEntry::Bye(ByeKind::HalfPoint) => ResultCode::HalfPointBye,
            RoundEntry::Bye(ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty) => {
                ResultCode::ZeroPointBye
            }
            RoundEntry::NotPaired => ResultCode::NotPaired,
        }
    }

    /// Short symbol: `1 ½ 0` for games, `+ -` forfeits, `--` double forfeit, the TRF letters
    /// `U F H Z` for byes, blank when not paired.
    pub fn symbol(self) -> &'static str {
        match self {
            ResultCode::Win | ResultCode::UnratedWin => "1",
            ResultCode::Draw | ResultCode::UnratedDraw => "½",
            ResultCode::Loss | ResultCode::UnratedLoss => "0",
            ResultCode::ForfeitWin => "+",
            ResultCode::ForfeitLoss => "-",
            ResultCode::DoubleForfeit => "--",
            ResultCode::PairingAllocatedBye => ByeKind::PairingAllocated.code(),
            ResultCode::FullPointBye => ByeKind::FullPoint.code(),
            ResultCode::HalfPointBye => ByeKind::HalfPoint.code(),
            ResultCode::ZeroPointBye => ByeKind::ZeroPoint.code(),
            ResultCode::NotPaired => "",
        }
    }
}

fn colour_of(entry: &RoundEntry) -> Option<Colour> {
    match *entry {
        RoundEntry::Played { colour, .. } => Some(colour),
        RoundEntry::Forfeit { colour, .. } | RoundEntry::DoubleForfeit { colour, .. } => colour,
        RoundEntry::Bye(_) | RoundEntry::NotPaired => None,
    }
}

/// One round of one player in the crosstable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossCell {
    pub round: u32,
    pub opponent: Option<StartNo>,
    /// The opponent's place in the standings the crosstable was built from.
    pub opponent_place: Option<u32>,
    pub colour: Option<Colour>,
    pub result: ResultCode,
    pub points: HalfPoints,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrosstableRow {
    pub place: u32,
    pub place_to: u32,
    pub start_no: StartNo,
    pub name: String,
    pub rating: Option<u32>,
    pub points: HalfPoints,
    pub tiebreaks: Vec<TieBreakValue>,
    /// Round by round (the Swiss layout).
    pub rounds: Vec<CrossCell>,
    /// Round-robin layout: the games against each row's player, in row order (empty on the
    /// diagonal and for pairs that have not met; two cells in a double round-robin).
    pub versus: Vec<Vec<CrossCell>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosstable {
    pub kind: EventKind,
    pub after_round: u32,
    pub tiebreaks: Vec<TieBreak>,
    pub rows: Vec<CrosstableRow>,
}

/// The crosstable of standings computed from `t` (same `after_round`).
pub fn crosstable(t: &Tournament, standings: &Standings) -> Result<Crosstable, StandingsError> {
    let ctx = context(t, Some(standings.after_round), Some(standings.kind), None)?;
    let mut place_of = vec![0u32; t.players.len()];
    let mut row_of = vec![usize::MAX; t.players.len()];
    for (k, row) in standings.rows.iter().enumerate() {
        let i = ctx
            .index_of(row.start_no)
            .ok_or(StandingsError::PlayerNotFound(row.start_no))?;
        place_of[i] = row.place;
        row_of[i] = k;
    }
    let mut rows = Vec::with_capacity(standings.rows.len());
    for row in &standings.rows {
        let i = ctx
            .index_of(row.start_no)
            .ok_or(StandingsError::PlayerNotFound(row.start_no))?;
        let cells: Vec<CrossCell> = (0..ctx.rounds)
            .map(|r| {
                let e = ctx.entry(i, r);
                let opp = e.opponent();
                CrossCell {
                    round: r + 1,
                    opponent: opp,
                    opponent_place: opp.and_then(|o| ctx.index_of(o)).map(|j| place_of[j]),
                    colour: colour_of(&e),
                    result: ResultCode::of(&e),
                    points: ctx.points(i, r),
                }
            })
            .collect();
        let mut versus = vec![
            Vec::new();
            if standings.kind == EventKind::RoundRobin {
                standings.rows.len()
            } else {
                0
            }
        ];
        if !versus.is_empty() {
            for c in &cells {
                if let Some(j) = c.opponent.and_then(|o| ctx.index_of(o))
                    && let Some(slot) = versus.get_mut(row_of[j])
                {
                    slot.push(c.clone());
                }
            }
        }
        rows.push(CrosstableRow {
            place: row.place,
            place_to: row.place_to,
            start_no: row.start_no,
            name: row.name.clone(),
            rating: row.rating,
            points: row.points,
            tiebreaks: row.tiebreaks.clone(),
            rounds: cells,
            versus,
        });
    }
    Ok(Crosstable {
        kind: standings.kind,
        after_round: standings.after_round,
        tiebreaks: standings.tiebreaks.clone(),
        rows,
    })
}

/// One board of a round with its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    pub white: StartNo,
    pub black: StartNo,
    pub white_result: ResultCode,
    pub black_result: ResultCode,
}

/// Pairings and results of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundReport {
    pub round: u32,
    /// Ordered by the higher score before the round, then the sum, then start number.
    pub boards: Vec<BoardResult>,
    /// Players without an opponent (byes, absences), by start number.
    pub unpaired: Vec<(StartNo, ResultCode)>,
}

/// The pairings and results of `round` (1-based).
pub fn round_report(t: &Tournament, round: u32) -> Result<RoundReport, StandingsError> {
    let rounds = t
        .players
        .iter()
        .map(|p| p.rounds.len() as u32)
        .max()
        .unwrap_or(0);
    if round == 0 || round > rounds {
        return Err(StandingsError::NoSuchRound { round, rounds });
    }
    let before = context(t, Some(round - 1), None, None)?;
    let r = round - 1;
    let mut boards = Vec::new();
    let mut unpaired = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let e = before.entry(i, r);
        let Some(o) = e.opponent() else {
            unpaired.push((p.start_no, ResultCode::of(&e)));
            continue;
        };
        let j = before.index_of(o).ok_or(HistoryError::UnknownOpponent {
            player: p.start_no,
            opponent: o,
            round,
        })?;
        let oe = before.entry(j, r);
        let me_white = match (colour_of(&e), colour_of(&oe)) {
            (Some(c), _) => c == Colour::White,
            (None, Some(c)) => c == Colour::Black,
            (None, None) => p.start_no < o,
        };
        if !me_white {
            continue;
        }
        boards.push((
            i,
            j,
            BoardResult {
                white: p.start_no,
                black: o,
                white_result: ResultCode::of(&e),
                black_result: if oe.opponent() == Some(p.start_no) {
                    ResultCode::of(&oe)
                } else {
                    ResultCode::NotPaired
                },
            },
        ));
    }
    boards.sort_by_key(|(i, j, b)| {
        let (si, sj) = (before.score[*i], before.score[*j]);
        (Reverse(si.max(sj)), Reverse(si + sj), b.white.min(b.black))
    });
    unpaired.sort_by_key(|u| u.0);
    Ok(RoundReport {
        round,
        boards: boards.into_iter().map(|b| b.2).collect(),
        unpaired,
    })
}

/// One round on a player's card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRound {
    pub round: u32,
    pub opponent: Option<StartNo>,
    pub opponent_name: Option<String>,
    pub opponent_rating: Option<u32>,
    pub colour: Option<Colour>,
    pub result: ResultCode,
    pub points: HalfPoints,
    /// Score after this round.
    pub running_score: HalfPoints,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCard {
    pub start_no: StartNo,
    pub name: String,
    pub rating: Option<u32>,
    pub rounds: Vec<CardRound>,
    pub points: HalfPoints,
    /// Games over the board against rated opponents (those ARO/TPR use).
    pub rated_games: u32,
    pub rated_score: HalfPoints,
    pub average_opponent_rating: Option<i64>,
    /// Performance rating: average opponent rating + dp (FIDE table 8.1a).
    pub performance: Option<i64>,
}

/// A player's card after `after_round` rounds (`None`: all).
pub fn player_card(
    t: &Tournament,
    start_no: StartNo,
    after_round: Option<u32>,
    unrated_rating: Option<u32>,
) -> Result<PlayerCard, StandingsError> {
    let ctx = context(t, after_round, None, unrated_rating)?;
    let i = ctx
        .index_of(start_no)
        .ok_or(StandingsError::PlayerNotFound(start_no))?;
    let p = &t.players[i];
    let mut running = HalfPoints::ZERO;
    let rounds = (0..ctx.rounds)
        .map(|r| {
            let e = ctx.entry(i, r);
            let pts = ctx.points(i, r);
            running += pts;
            let opp = e
                .opponent()
                .and_then(|o| ctx.index_of(o))
                .map(|j| &t.players[j]);
            CardRound {
                round: r + 1,
                opponent: e.opponent(),
                opponent_name: opp.map(|o| o.name.clone()),
                opponent_rating: opp.and_then(|o| o.rating),
                colour: colour_of(&e),
                result: ResultCode::of(&e),
                points: pts,
                running_score: running,
            }
        })
        .collect();
    let (ratings, rated_score) = rated_games(&ctx, i);
    Ok(PlayerCard {
        start_no,
        name: p.name.clone(),
        rating: p.rating,
        rounds,
        points: ctx.score[i],
        rated_games: ratings.len() as u32,
        rated_score,
        average_opponent_rating: average_rating(&ratings),
        performance: performance(&ratings, rated_score, t.round_win_points()),
    })
}

/// Points with one decimal: `3.0`, `2.5`.
pub fn format_points(p: HalfPoints) -> String {
    format!("{}.{}", p.0 / 2, if p.0 % 2 == 1 { 5 } else { 0 })
}

/// The standings as a plain-text table, one player per line after a header line: rank
/// (shared places as `3-4`), start number, name, points, then each tie-break. Columns are
/// separated by at least two spaces; numbers are right-aligned.
pub fn render_table(st: &Standings) -> String {
    let mut header = vec![
        "Rank".to_string(),
        "SNo".into(),
        "Name".into(),
        "Pts".into(),
    ];
    header.extend(st.tiebreaks.iter().map(TieBreak::code));
    let mut lines: Vec<Vec<String>> = vec![header];
    for r in &st.rows {
        let mut line = vec![
            r.place_label(),
            r.start_no.to_string(),
            r.name.clone(),
            format_points(r.points),
        ];
        line.extend(r.tiebreaks.iter().map(ToString::to_string));
        lines.push(line);
    }
    let columns = lines[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| l.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in &lines {
        let mut cells = Vec::with_capacity(columns);
        for (c, text) in l.iter().enumerate() {
            let pad = widths[c].saturating_sub(text.chars().count());
            // Rank and name left-aligned, numbers right-aligned.
            if c == 0 || c == 2 {
                cells.push(format!("{text}{}", " ".repeat(pad)));
            } else {
                cells.push(format!("{}{text}", " ".repeat(pad)));
            }
        }
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
