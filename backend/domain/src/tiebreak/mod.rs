//! Tie-breaks of FIDE Handbook C.07 (as revised in 2026) for individual events.
//!
//! A [`TieBreak`] is a C.07 acronym with an optional modifier (`BH/C1`, `BH/M1`, `SB`, ...).
//! [`Context`] holds one event's history cut at a round, with every player's score and
//! adjusted score computed once; each family lives in its own module:
//! - [`unplayed`]: the rules for unplayed rounds (C.07 Article 16),
//! - [`buchholz`]: Buchholz and Sonneborn-Berger with Cut/Median modifiers,
//! - [`direct_encounter`]: DE, computed inside groups of tied players,
//! - [`counts`]: WIN, WON, BPG,
//! - [`rating`]: ARO and TPR with the FIDE dp table,
//! - [`labels`]: display names per language and naming (FIDE or Russian draughts).
//!
//! Every figure counts the points each round really gave ([`Context::points`]): in a
//! micro-match the summed game points or match points, with a won or drawn round worth
//! [`Tournament::round_win_points`] / [`Tournament::round_draw_points`]; only WIN counts
//! the collapsed results (won pairings).
//!
//! Where the C.07 text leaves room, the figures follow FIDE's reference calculator
//! (TieBreakServer, rules of 2026-03-01); tests say which figures were cross-checked.

pub mod buchholz;
pub mod counts;
pub mod direct_encounter;
pub mod labels;
pub mod rating;
pub mod unplayed;

use std::fmt;
use std::str::FromStr;

use crate::tournament::{HalfPoints, RoundEntry, StartNo, Tournament};

/// The tie-break families this crate computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreakKind {
    /// BH: sum of the opponents' (adjusted) scores.
    Buchholz,
    /// SB: sum of opponent's score times the points scored against them.
    SonnebornBerger,
    /// DE: results among the tied players.
    DirectEncounter,
    /// WIN: rounds won, with or without playing.
    Wins,
    /// WON: games won over the board.
    GamesWon,
    /// BPG: games played with Black.
    BlackGames,
    /// ARO: average rating of the opponents met over the board.
    AverageRatingOfOpponents,
    /// TPR: tournament performance rating.
    PerformanceRating,
}

impl TieBreakKind {
    /// Whether the value is a sum of points (BH, SB, DE), so that an event shown on the
    /// 2-1-0 scale shows it doubled too; counts and ratings stay as they are.
    pub fn sums_points(self) -> bool {
        matches!(
            self,
            TieBreakKind::Buchholz | TieBreakKind::SonnebornBerger | TieBreakKind::DirectEncounter
        )
    }

    /// The C.07 acronym.
    pub fn code(self) -> &'static str {
        match self {
            TieBreakKind::Buchholz => "BH",
            TieBreakKind::SonnebornBerger => "SB",
            TieBreakKind::DirectEncounter => "DE",
            TieBreakKind::Wins => "WIN",
            TieBreakKind::GamesWon => "WON",
            TieBreakKind::BlackGames => "BPG",
            TieBreakKind::AverageRatingOfOpponents => "ARO",
            TieBreakKind::PerformanceRating => "TPR",
        }
    }

    /// Whether Cut-n / Median-n apply to this family (here: BH and SB).
    pub fn accepts_cut(self) -> bool {
        matches!(self, TieBreakKind::Buchholz | TieBreakKind::SonnebornBerger)
    }
}

/// C.07 Article 14 modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Modifier {
    #[default]
    None,
    /// Cut-n: drop the n least significant contributions (`/C1`).
    Cut(u8),
    /// Median-n: drop the n least and the n most significant (`/M1`).
    Median(u8),
}

/// One entry of an event's tie-break order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TieBreak {
    pub kind: TieBreakKind,
    pub modifier: Modifier,
}

impl TieBreak {
    pub const fn new(kind: TieBreakKind) -> TieBreak {
        TieBreak {
            kind,
            modifier: Modifier::None,
        }
    }

    pub const fn with(kind: TieBreakKind, modifier: Modifier) -> TieBreak {
        TieBreak { kind, modifier }
    }

    /// The code as `--tiebreaks` takes it and TieBreakServer prints it: `BH/C1`.
    pub fn code(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.code())?;
        match self.modifier {
            Modifier::None => Ok(()),
            Modifier::Cut(n) => write!(f, "/C{n}"),
            Modifier::Median(n) => write!(f, "/M{n}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TieBreakParseError {
    #[error("unknown tie-break `{0}` (known: BH, SB, DE, WIN, WON, BPG, ARO, TPR)")]
    Unknown(String),
    #[error(
        "unknown modifier `{modifier}` in tie-break `{code}` (known: C1, C2, ..., M1, M2, ...)"
    )]
    Modifier { code: String, modifier: String },
    #[error("tie-break `{0}` takes no Cut or Median modifier")]
    NoModifierAllowed(String),
    #[error("empty tie-break in the list")]
    Empty,
}

impl FromStr for TieBreak {
    type Err = TieBreakParseError;

    /// Case-insensitive: `bh/c1`, `BH/M1`, `sb`, `Win`.
    fn from_str(s: &str) -> Result<TieBreak, TieBreakParseError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(TieBreakParseError::Empty);
        }
        let upper = s.to_ascii_uppercase();
        let (name, modifier) = match upper.split_once('/') {
            Some((n, m)) => (n, Some(m)),
            None => (upper.as_str(), None),
        };
        let kind = match name {
            "BH" => TieBreakKind::Buchholz,
            "SB" => TieBreakKind::SonnebornBerger,
            "DE" => TieBreakKind::DirectEncounter,
            "WIN" => TieBreakKind::Wins,
            "WON" => TieBreakKind::GamesWon,
            "BPG" => TieBreakKind::BlackGames,
            "ARO" => TieBreakKind::AverageRatingOfOpponents,
            "TPR" => TieBreakKind::PerformanceRating,
            _ => return Err(TieBreakParseError::Unknown(s.to_string())),
        };
        let modifier = match modifier {
            None => Modifier::None,
            Some(m) => {
                if !kind.accepts_cut() {
                    return Err(TieBreakParseError::NoModifierAllowed(s.to_string()));
                }
                let bad = || TieBreakParseError::Modifier {
                    code: s.to_string(),
                    modifier: m.to_string(),
                };
                let (letter, digits) = m.split_at(m.len().min(1));
                let n: u8 = digits.parse().map_err(|_| bad())?;
                if n == 0 {
                    return Err(bad());
                }
                match letter {
                    "C" => Modifier::Cut(n),
                    "M" => Modifier::Median(n),
                    _ => return Err(bad()),
                }
            }
        };
        Ok(TieBreak { kind, modifier })
    }
}

/// Parses a comma-separated list such as `BH/C1,BH,SB,WIN`.
pub fn parse_tiebreak_list(list: &str) -> Result<Vec<TieBreak>, TieBreakParseError> {
    list.split(',').map(str::parse).collect()
}

/// Swiss or round-robin: the rules for unplayed rounds and the defaults differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    Swiss,
    RoundRobin,
}

impl EventKind {
    /// Guess from the history (for TRF files, which do not say): a round-robin when every
    /// pair of players has been paired at least once, or when the planned number of rounds
    /// is one or two full cycles (n-1 or 2(n-1) rounds for even n, n or 2n for odd n) and no
    /// pair has met more often than the cycles allow; otherwise Swiss.
    pub fn detect(t: &Tournament) -> EventKind {
        let n = t.players.len();
        if n < 2 {
            return EventKind::Swiss;
        }
        let mut index = vec![usize::MAX; n + 1];
        let mut dense = true;
        for (i, p) in t.players.iter().enumerate() {
            match index.get_mut(p.start_no as usize) {
                Some(slot) => *slot = i,
                None => dense = false,
            }
        }
        if !dense {
            return EventKind::Swiss;
        }
        let mut met = vec![0u16; n * n];
        for (i, p) in t.players.iter().enumerate() {
            for e in &p.rounds {
                if let Some(o) = e.opponent()
                    && let Some(&j) = index.get(o as usize)
                    && j != usize::MAX
                {
                    met[i * n + j] = met[i * n + j].saturating_add(1);
                }
            }
        }
        let pairs_met_at_least =
            |k: u16| (0..n).all(|i| (0..n).all(|j| i == j || met[i * n + j] >= k));
        if pairs_met_at_least(1) {
            return EventKind::RoundRobin;
        }
        let cycle = (n + n % 2 - 1) as u32;
        let cycles = if t.total_rounds == cycle {
            1
        } else if t.total_rounds == 2 * cycle {
            2
        } else {
            return EventKind::Swiss;
        };
        if met.iter().all(|&m| m <= cycles) {
            EventKind::RoundRobin
        } else {
            EventKind::Swiss
        }
    }

    /// Default order of the issue: Swiss `BH/C1, BH, SB, WIN`; round-robin `SB, DE, WIN`.
    pub fn default_tiebreaks(self) -> Vec<TieBreak> {
        match self {
            EventKind::Swiss => vec![
                TieBreak::with(TieBreakKind::Buchholz, Modifier::Cut(1)),
                TieBreak::new(TieBreakKind::Buchholz),
                TieBreak::new(TieBreakKind::SonnebornBerger),
                TieBreak::new(TieBreakKind::Wins),
            ],
            EventKind::RoundRobin => vec![
                TieBreak::new(TieBreakKind::SonnebornBerger),
                TieBreak::new(TieBreakKind::DirectEncounter),
                TieBreak::new(TieBreakKind::Wins),
            ],
        }
    }
}

/// A tie-break figure, exact: `numerator / denominator` (denominator 1, 2 or 4), or `None`
/// when it does not exist for the player (ARO without rated games). Higher is better except
/// for DE, whose figure is the place inside the tied group (1 = first; 0 = not separated),
/// as TieBreakServer prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TieBreakValue {
    pub numerator: Option<i64>,
    pub denominator: u32,
}

impl TieBreakValue {
    pub fn integer(v: Option<i64>) -> TieBreakValue {
        TieBreakValue {
            numerator: v,
            denominator: 1,
        }
    }

    pub fn halves(v: i64) -> TieBreakValue {
        TieBreakValue {
            numerator: Some(v),
            denominator: 2,
        }
    }

    pub fn quarters(v: i64) -> TieBreakValue {
        TieBreakValue {
            numerator: Some(v),
            denominator: 4,
        }
    }

    /// Twice the value, with one decimal fewer where that is exact: half-points become
    /// whole points on the 2-1-0 scale, quarter-points half-points.
    pub fn doubled(self) -> TieBreakValue {
        if self.denominator.is_multiple_of(2) {
            TieBreakValue {
                numerator: self.numerator,
                denominator: self.denominator / 2,
            }
        } else {
            TieBreakValue {
                numerator: self.numerator.map(|n| n * 2),
                denominator: self.denominator,
            }
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.numerator
            .map(|n| n as f64 / f64::from(self.denominator.max(1)))
    }
}

impl fmt::Display for TieBreakValue {
    /// Fixed decimals per denominator, as TieBreakServer prints them: `1850` (whole
    /// figures), `12.0` / `12.5` (half-points), `12.25` / `12.50` (quarter-points); `-` when
    /// missing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(n) = self.numerator else {
            return f.write_str("-");
        };
        let d = i64::from(self.denominator.max(1));
        let sign = if n < 0 { "-" } else { "" };
        let a = n.abs();
        let whole = a / d;
        // d divides 100 for the denominators used (1, 2, 4).
        let hundredths = (a % d) * 100 / d;
        match d {
            1 => write!(f, "{sign}{whole}"),
            2 => write!(f, "{sign}{whole}.{}", hundredths / 10),
            _ => write!(f, "{sign}{whole}.{hundredths:02}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("player {player} has an opponent {opponent} in round {round} who is not in the event")]
    UnknownOpponent {
        player: StartNo,
        opponent: StartNo,
        round: u32,
    },
    #[error("start number {0} is used by two players")]
    DuplicateStartNo(StartNo),
    #[error("player {0} is paired against themself")]
    SelfPairing(StartNo),
    #[error("standings after round {after} asked, but only {played} rounds have results")]
    RoundOutOfRange { after: u32, played: u32 },
}

/// Settings that change figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieBreakOptions {
    pub kind: EventKind,
    /// Rating an unrated opponent counts with for ARO/TPR; `None` leaves them out.
    pub unrated_rating: Option<u32>,
}

/// Player index by start number: a table when start numbers are dense (the usual case),
/// else a sorted list, so that a stray huge start number costs no memory.
#[derive(Debug, Clone)]
enum StartNoIndex {
    Dense(Vec<usize>),
    Sparse(Vec<(StartNo, usize)>),
}

impl StartNoIndex {
    fn new(t: &Tournament) -> Result<StartNoIndex, HistoryError> {
        let n = t.players.len();
        let max_no = t
            .players
            .iter()
            .map(|p| p.start_no as usize)
            .max()
            .unwrap_or(0);
        if max_no <= 4 * n + 1024 {
            let mut table = vec![usize::MAX; max_no + 1];
            for (i, p) in t.players.iter().enumerate() {
                let slot = &mut table[p.start_no as usize];
                if *slot != usize::MAX {
                    return Err(HistoryError::DuplicateStartNo(p.start_no));
                }
                *slot = i;
            }
            Ok(StartNoIndex::Dense(table))
        } else {
            let mut list: Vec<(StartNo, usize)> = t
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| (p.start_no, i))
                .collect();
            list.sort_unstable();
            if let Some(w) = list.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(HistoryError::DuplicateStartNo(w[0].0));
            }
            Ok(StartNoIndex::Sparse(list))
        }
    }

    fn get(&self, start_no: StartNo) -> Option<usize> {
        match self {
            StartNoIndex::Dense(table) => table
                .get(start_no as usize)
                .copied()
                .filter(|&i| i != usize::MAX),
            StartNoIndex::Sparse(list) => list
                .binary_search_by_key(&start_no, |e| e.0)
                .ok()
                .map(|k| list[k].1),
        }
    }
}

/// One event's history cut after `rounds` rounds, with per-player figures computed once.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    pub tournament: &'a Tournament,
    /// Rounds taken into account (1..=rounds).
    pub rounds: u32,
    pub options: TieBreakOptions,
    index: StartNoIndex,
    /// Each player's score after `rounds` rounds.
    pub score: Vec<HalfPoints>,
    /// Each player's score as their opponents see it (C.07 16.3).
    pub adjusted: Vec<HalfPoints>,
}

impl<'a> Context<'a> {
    /// Validates the history (opponents exist, start numbers unique) and computes scores.
    /// `after_round` = `None`: all rounds that have an entry for some player.
    pub fn new(
        tournament: &'a Tournament,
        after_round: Option<u32>,
        options: TieBreakOptions,
    ) -> Result<Context<'a>, HistoryError> {
        let played = tournament
            .players
            .iter()
            .map(|p| p.rounds.len() as u32)
            .max()
            .unwrap_or(0);
        let rounds = match after_round {
            None => played,
            Some(r) if r <= played => r,
            Some(r) => return Err(HistoryError::RoundOutOfRange { after: r, played }),
        };
        let index = StartNoIndex::new(tournament)?;
        for p in &tournament.players {
            for (r, e) in p.rounds.iter().enumerate().take(rounds as usize) {
                if let Some(o) = e.opponent() {
                    if o == p.start_no {
                        return Err(HistoryError::SelfPairing(o));
                    }
                    if index.get(o).is_none() {
                        return Err(HistoryError::UnknownOpponent {
                            player: p.start_no,
                            opponent: o,
                            round: r as u32 + 1,
                        });
                    }
                }
            }
        }
        let mut ctx = Context {
            tournament,
            rounds,
            options,
            index,
            score: Vec::new(),
            adjusted: Vec::new(),
        };
        ctx.score = (0..tournament.players.len())
            .map(|i| (0..rounds).map(|r| ctx.points(i, r)).sum())
            .collect();
        ctx.adjusted = (0..tournament.players.len())
            .map(|i| unplayed::adjusted_score(&ctx, i))
            .collect();
        Ok(ctx)
    }

    /// Number of players.
    pub fn len(&self) -> usize {
        self.tournament.players.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tournament.players.is_empty()
    }

    pub fn is_round_robin(&self) -> bool {
        self.options.kind == EventKind::RoundRobin
    }

    /// Player index of a start number.
    pub fn index_of(&self, start_no: StartNo) -> Option<usize> {
        self.index.get(start_no)
    }

    /// Player `i`'s entry in round `r` (0-based); missing entries are `NotPaired`.
    pub fn entry(&self, i: usize, r: u32) -> RoundEntry {
        self.tournament.players[i]
            .rounds
            .get(r as usize)
            .copied()
            .unwrap_or(RoundEntry::NotPaired)
    }

    /// The points player `i`'s round `r` (0-based) really gave: in a micro-match the
    /// round score, not the collapsed result (see [`Tournament::round_points`]).
    pub fn points(&self, i: usize, r: u32) -> HalfPoints {
        self.tournament
            .round_points(&self.tournament.players[i], r as usize)
    }

    /// The figure of one tie-break for every player, except DE, which needs the groups of
    /// tied players (see [`direct_encounter::direct_encounter`]); for DE this returns zeros.
    pub fn values(&self, tb: TieBreak) -> Vec<TieBreakValue> {
        (0..self.len())
            .map(|i| match tb.kind {
                TieBreakKind::Buchholz => buchholz::buchholz(self, i, tb.modifier),
                TieBreakKind::SonnebornBerger => buchholz::sonneborn_berger(self, i, tb.modifier),
                TieBreakKind::DirectEncounter => TieBreakValue::integer(Some(0)),
                TieBreakKind::Wins => counts::wins(self, i),
                TieBreakKind::GamesWon => counts::games_won(self, i),
                TieBreakKind::BlackGames => counts::black_games(self, i),
                TieBreakKind::AverageRatingOfOpponents => rating::aro(self, i),
                TieBreakKind::PerformanceRating => rating::tpr(self, i),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubling_for_the_two_one_zero_scale_keeps_the_value_exact() {
        assert_eq!(TieBreakValue::halves(25).doubled().to_string(), "25");
        assert_eq!(TieBreakValue::quarters(49).doubled().to_string(), "24.5");
        assert_eq!(TieBreakValue::integer(Some(3)).doubled().to_string(), "6");
        assert_eq!(TieBreakValue::integer(None).doubled().to_string(), "-");
        assert!(TieBreakKind::Buchholz.sums_points());
        assert!(TieBreakKind::SonnebornBerger.sums_points());
        assert!(TieBreakKind::DirectEncounter.sums_points());
        assert!(!TieBreakKind::Wins.sums_points());
        assert!(!TieBreakKind::AverageRatingOfOpponents.sums_points());
    }

    #[test]
    fn parses_codes_case_insensitively() {
        let list = parse_tiebreak_list("bh/c1, BH/M1,sb,De,win,WON,bpg,aro,TPR").expect("valid");
        let codes: Vec<String> = list.iter().map(TieBreak::code).collect();
        assert_eq!(
            codes,
            [
                "BH/C1", "BH/M1", "SB", "DE", "WIN", "WON", "BPG", "ARO", "TPR"
            ]
        );
        assert_eq!(
            "SB/C2".parse::<TieBreak>(),
            Ok(TieBreak::with(
                TieBreakKind::SonnebornBerger,
                Modifier::Cut(2)
            ))
        );
    }

    #[test]
    fn unknown_codes_are_named_in_the_error() {
        let err = parse_tiebreak_list("BH,XYZ").expect_err("unknown");
        assert_eq!(err, TieBreakParseError::Unknown("XYZ".into()));
        assert!(err.to_string().contains("XYZ"));
        assert!(matches!(
            "BH/Q1".parse::<TieBreak>(),
            Err(TieBreakParseError::Modifier { .. })
        ));
        assert!(matches!(
            "BH/C0".parse::<TieBreak>(),
            Err(TieBreakParseError::Modifier { .. })
        ));
        assert!(matches!(
            "WIN/C1".parse::<TieBreak>(),
            Err(TieBreakParseError::NoModifierAllowed(_))
        ));
        assert_eq!(
            parse_tiebreak_list("BH,,SB"),
            Err(TieBreakParseError::Empty)
        );
    }

    #[test]
    fn values_print_exactly() {
        assert_eq!(TieBreakValue::halves(25).to_string(), "12.5");
        assert_eq!(TieBreakValue::quarters(49).to_string(), "12.25");
        assert_eq!(TieBreakValue::quarters(48).to_string(), "12.00");
        assert_eq!(TieBreakValue::halves(24).to_string(), "12.0");
        assert_eq!(TieBreakValue::quarters(-3).to_string(), "-0.75");
        assert_eq!(TieBreakValue::integer(None).to_string(), "-");
        assert_eq!(TieBreakValue::integer(Some(1850)).to_string(), "1850");
    }
}
