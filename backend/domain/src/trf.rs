//! FIDE Tournament Report File (TRF-16, with the TRF-2026 / bbpPairings extensions) reading
//! and writing.
//!
//! Reading produces the shared [`Tournament`] model. Records understood: `012` (name),
//! `XXR`/`142` (number of rounds), `XXC`/`152` (colour of the first player in round 1),
//! `162` (points per result), `XXP` (forbidden pairs), `BBW BBD BBL BBZ BBF BBU` (bbpPairings'
//! point records), `XXA` (accelerations, as bbpPairings and PlayStrategy write them) and
//! `001` player lines. Other records are ignored. The points column of a player line is
//! not checked against the results: bbpPairings accepts there the plain sum or the sum
//! plus the acceleration, and so does this reader. A player's cell in the
//! column after the last paired round holding `0000 - H`, `0000 - Z` or `0000 - F` is a
//! requested bye or absence for the round about to be paired. A game paired and not played
//! yet is written as JaVaFo and the TRF-2026 draft write it, with the opponent and colour
//! and a blank result (`   7 w  `), never as an absence (`0000 - Z`): it counts nowhere,
//! and [`Tournament::pending_games`] lists it so that nobody pairs the next round on it.
//!
//! Errors name the 1-based line and column.
//!
//! Reading is linear in the size of the file, and [`Limits`] bound what one file may hold
//! (players, rounds, forbidden pairs): an `XXP` line of n numbers forbids n(n-1)/2 pairs,
//! so the pairs are counted before they are listed.

use crate::tournament::{
    ByeKind, Colour, HalfPoints, NextRoundAbsence, Outcome, PendingGame, Player, PointSystem,
    RoundEntry, StartNo, Tournament,
};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// A TRF that could not be read: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("TRF line {line}, column {column}: {problem}")]
pub struct TrfError {
    /// 1-based line number (0 when the problem concerns the whole file).
    pub line: usize,
    /// 1-based column (0 when the problem concerns the whole line).
    pub column: usize,
    pub problem: TrfProblem,
}

impl TrfError {
    /// Set when the file is readable but holds more than [`Limits`] allow.
    pub fn exceeded(&self) -> Option<LimitExceeded> {
        match self.problem {
            TrfProblem::TooMany { what, found, limit } => {
                Some(LimitExceeded { what, found, limit })
            }
            _ => None,
        }
    }
}

/// What is wrong at that place, with the text found there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfProblem {
    #[error("invalid player number {0:?}")]
    InvalidPlayerNumber(String),
    #[error("a player cannot be paired with himself")]
    PairedWithHimself,
    #[error("invalid colour {0:?} (expected w, b or -)")]
    InvalidCellColour(char),
    #[error("invalid result {0:?}")]
    InvalidResult(char),
    #[error("a played game needs a colour (w or b)")]
    GameWithoutColour,
    #[error("a bye cannot have a colour")]
    ByeWithColour,
    #[error("player line too short: no start rank in columns 5-8")]
    LineTooShort,
    #[error("invalid rating {0:?}")]
    InvalidRating(String),
    #[error("invalid points {0:?}")]
    InvalidPoints(String),
    #[error("unexpected character between round cells")]
    CharacterBetweenCells,
    #[error("incomplete round cell")]
    IncompleteCell,
    /// A `162` record's score that is not a multiple of a half point.
    #[error("invalid score {0:?} (half-points only)")]
    InvalidHalfPoints(String),
    #[error("unsupported point code {0:?}")]
    UnsupportedPointCode(char),
    #[error("invalid number of rounds {0:?}")]
    InvalidRoundCount(String),
    /// A `152` record other than `W` or `B`.
    #[error("invalid colour {0:?}")]
    InvalidFirstColour(String),
    /// A bbpPairings point record (`BBW`, ...) that is not a score.
    #[error("invalid score {0:?}")]
    InvalidScore(String),
    /// A result's points that the `162` record's four columns cannot hold.
    #[error("score {0:?} is more than a result can be worth ({MAX_RESULT_POINTS} at most)")]
    ScoreTooLarge(String),
    #[error("player {0} appears twice")]
    PlayerTwice(StartNo),
    #[error("opponent {0} is not in the player list")]
    UnknownOpponent(StartNo),
    #[error("round entry after the next unpaired round")]
    EntryAfterUnpairedRound,
    #[error("the file has {played} rounds but XXR says {total}")]
    MoreRoundsThanXxr { played: usize, total: u32 },
    /// `round` is 1-based.
    #[error("round {round} of player {player} contradicts the entry of player {opponent}")]
    ContradictingEntries {
        round: usize,
        player: StartNo,
        opponent: StartNo,
    },
    #[error("forbidden pair names unknown player {0}")]
    ForbiddenPairUnknownPlayer(StartNo),
    /// An `XXA` line for a start number without a `001` line.
    #[error("acceleration (XXA) for player {0}, who is not in the player list")]
    AccelerationUnknownPlayer(StartNo),
    /// bbpPairings refuses more acceleration entries than the event has rounds.
    #[error(
        "player {player} has {entries} accelerations (XXA), more than the {rounds} rounds of the event"
    )]
    TooManyAccelerations {
        player: StartNo,
        entries: usize,
        rounds: usize,
    },
    /// The file is readable but holds more than [`Limits`] allow.
    #[error("the file has {found} {}, more than the {limit} allowed", what.noun())]
    TooMany {
        what: Limited,
        found: usize,
        limit: usize,
    },
}

fn err(line: usize, column: usize, problem: TrfProblem) -> TrfError {
    TrfError {
        line,
        column,
        problem,
    }
}

/// The most one file may hold. The defaults fit any real event (the largest opens have a
/// few thousand players and a dozen rounds; a double round-robin of 26 has 50 rounds) and
/// keep the cost of a hostile file to well under a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub players: usize,
    pub rounds: usize,
    pub forbidden_pairs: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            players: 5000,
            rounds: 50,
            forbidden_pairs: 10_000,
        }
    }
}

/// What a file holds too much of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limited {
    Players,
    Rounds,
    ForbiddenPairs,
}

impl Limited {
    pub fn noun(self) -> &'static str {
        match self {
            Limited::Players => "players",
            Limited::Rounds => "rounds",
            Limited::ForbiddenPairs => "forbidden pairs",
        }
    }
}

/// A file over one of the [`Limits`]: how many it has and how many are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitExceeded {
    pub what: Limited,
    pub found: usize,
    pub limit: usize,
}

fn exceeded(line: usize, what: Limited, found: usize, limit: usize) -> TrfError {
    err(line, 0, TrfProblem::TooMany { what, found, limit })
}

/// One raw round cell as read, before deciding whether it belongs to the history or is a
/// request for the next round.
#[derive(Debug, Clone, Copy)]
struct Cell {
    entry: RoundEntry,
    /// The player took part in the pairing of that round (paired, forfeit, or PAB).
    participated: bool,
    /// A game paired and not played yet (blank result): the opponent and the colour.
    pending: Option<(StartNo, Colour)>,
}

fn slice(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from >= to {
        return String::new();
    }
    chars[from..to].iter().collect()
}

fn opt_field(chars: &[char], from: usize, to: usize) -> Option<String> {
    let s = slice(chars, from, to);
    let t = s.trim();
    if t.is_empty() {
        None
    } else {
        Some(t.to_string())
    }
}

/// The most a result (win, draw, bye...) may be worth: what `162` writes in four columns.
pub const MAX_RESULT_POINTS: &str = "99.5";
const MAX_RESULT_HALF_POINTS: u32 = 199;

/// A result's points (a `162` or `BBx` record): at most [`MAX_RESULT_POINTS`].
fn result_points(
    value: HalfPoints,
    text: &str,
    line: usize,
    column: usize,
) -> Result<HalfPoints, TrfError> {
    if value.0 > MAX_RESULT_HALF_POINTS {
        Err(err(
            line,
            column,
            TrfProblem::ScoreTooLarge(text.trim().to_string()),
        ))
    } else {
        Ok(value)
    }
}

/// Parses a score such as `11.5`, `1`, `0.5` into half-points.
fn parse_points(text: &str) -> Option<HalfPoints> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let (int_part, frac_part) = match t.split_once('.') {
        Some((a, b)) => (a, b),
        None => (t, ""),
    };
    let int: u32 = if int_part.is_empty() {
        0
    } else {
        int_part.parse().ok()?
    };
    if !frac_part.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let frac = frac_part.trim_end_matches('0');
    let half = match frac {
        "" => 0,
        "5" => 1,
        _ => return None,
    };
    int.checked_mul(2)?.checked_add(half).map(HalfPoints)
}

fn format_points(p: HalfPoints) -> String {
    format!("{}.{}", p.0 / 2, if p.0 % 2 == 1 { 5 } else { 0 })
}

fn parse_start_no(text: &str, line: usize, column: usize) -> Result<StartNo, TrfError> {
    let t = text.trim();
    t.parse::<StartNo>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| err(line, column, TrfProblem::InvalidPlayerNumber(t.to_string())))
}

fn parse_cell(
    cell: &[char],
    own: StartNo,
    line: usize,
    column: usize,
) -> Result<Option<Cell>, TrfError> {
    // cell holds 8 characters: opponent (4), space, colour, space, result.
    let opp_text: String = cell[0..4].iter().collect();
    let colour_char = cell[5];
    let result_char = cell[7].to_ascii_uppercase();
    if opp_text.trim().is_empty() && colour_char == ' ' && result_char == ' ' {
        return Ok(None);
    }
    let opponent = if opp_text.trim().is_empty() || opp_text == "0000" {
        None
    } else {
        let n = parse_start_no(&opp_text, line, column)?;
        if n == own {
            return Err(err(line, column, TrfProblem::PairedWithHimself));
        }
        Some(n)
    };
    let colour = match colour_char {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        c => {
            return Err(err(line, column + 5, TrfProblem::InvalidCellColour(c)));
        }
    };
    let bad_result = || err(line, column + 7, TrfProblem::InvalidResult(cell[7]));
    let cell = match opponent {
        Some(opponent) => match result_char {
            '1' | '=' | '0' | 'W' | 'D' | 'L' => {
                let colour =
                    colour.ok_or_else(|| err(line, column + 5, TrfProblem::GameWithoutColour))?;
                let outcome = match result_char {
                    '1' | 'W' => Outcome::Win,
                    '=' | 'D' => Outcome::Draw,
                    _ => Outcome::Loss,
                };
                Cell {
                    entry: RoundEntry::Played {
                        opponent,
                        colour,
                        outcome,
                        rated: matches!(result_char, '1' | '=' | '0'),
                    },
                    participated: true,
                    pending: None,
                }
            }
            // Paired, not played yet: the TRF way of writing a game of the current round.
            ' ' => Cell {
                entry: RoundEntry::NotPaired,
                participated: true,
                pending: Some((
                    opponent,
                    colour.ok_or_else(|| err(line, column + 5, TrfProblem::GameWithoutColour))?,
                )),
            },
            '+' => Cell {
                entry: RoundEntry::Forfeit {
                    opponent,
                    colour,
                    won: true,
                },
                participated: true,
                pending: None,
            },
            '-' => Cell {
                entry: RoundEntry::Forfeit {
                    opponent,
                    colour,
                    won: false,
                },
                participated: true,
                pending: None,
            },
            _ => return Err(bad_result()),
        },
        None => {
            if colour.is_some() {
                return Err(err(line, column + 5, TrfProblem::ByeWithColour));
            }
            match result_char {
                'U' | '+' => Cell {
                    entry: RoundEntry::Bye(ByeKind::PairingAllocated),
                    participated: true,
                    pending: None,
                },
                'F' => Cell {
                    entry: RoundEntry::Bye(ByeKind::FullPoint),
                    participated: false,
                    pending: None,
                },
                'H' | '=' => Cell {
                    entry: RoundEntry::Bye(ByeKind::HalfPoint),
                    participated: false,
                    pending: None,
                },
                'Z' | '-' | ' ' => Cell {
                    entry: RoundEntry::Bye(ByeKind::ZeroPoint),
                    participated: false,
                    pending: None,
                },
                _ => return Err(bad_result()),
            }
        }
    };
    Ok(Some(cell))
}

struct RawPlayer {
    player: Player,
    cells: Vec<Option<Cell>>,
    line: usize,
}

fn parse_player_line(chars: &[char], line: usize) -> Result<RawPlayer, TrfError> {
    if chars.len() < 8 {
        return Err(err(line, 5, TrfProblem::LineTooShort));
    }
    let start_no = parse_start_no(&slice(chars, 4, 8), line, 5)?;
    let rating = match opt_field(chars, 48, 52) {
        None => None,
        Some(t) => Some(
            t.parse::<u32>()
                .map_err(|_| err(line, 49, TrfProblem::InvalidRating(t.clone())))?,
        ),
    }
    .filter(|r| *r > 0);
    if let Some(t) = opt_field(chars, 80, 84)
        && parse_points(&t).is_none()
    {
        return Err(err(line, 81, TrfProblem::InvalidPoints(t)));
    }
    // A last cell whose result is blank (a game not played yet) may have lost its
    // trailing blanks to an editor or a writer that trims lines: read it as if they were
    // there.
    let mut padded;
    let mut chars = chars;
    let tail = chars.len().saturating_sub(91) % 10;
    if chars.len() > 91 && (6..8).contains(&tail) {
        padded = chars.to_vec();
        padded.resize(chars.len() + 8 - tail, ' ');
        chars = &padded;
    }
    let mut cells = Vec::new();
    let mut start = 91;
    while start + 8 <= chars.len() {
        let cell = parse_cell(&chars[start..start + 8], start_no, line, start + 1)?;
        cells.push(cell);
        // The two separating characters must be blank.
        for (k, c) in chars.iter().enumerate().skip(start + 8).take(2) {
            if *c != ' ' {
                return Err(err(line, k + 1, TrfProblem::CharacterBetweenCells));
            }
        }
        start += 10;
    }
    if start < chars.len() && chars[start..].iter().any(|c| *c != ' ') {
        return Err(err(line, start + 1, TrfProblem::IncompleteCell));
    }
    while matches!(cells.last(), Some(None)) {
        cells.pop();
    }
    Ok(RawPlayer {
        player: Player {
            start_no,
            name: opt_field(chars, 14, 47).unwrap_or_default(),
            rating,
            sex: chars.get(9).copied().filter(|c| *c != ' '),
            title: opt_field(chars, 10, 13),
            federation: opt_field(chars, 53, 56),
            federation_id: opt_field(chars, 57, 68),
            birth_date: opt_field(chars, 69, 79),
            ..Player::default()
        },
        cells,
        line,
    })
}

fn parse_162(
    chars: &[char],
    line: usize,
    points: &mut PointSystem,
    pab_set: &mut bool,
) -> Result<(), TrfError> {
    // Groups of 9 characters starting at column 6: code, then a 4-character score.
    let mut start = 5;
    while start + 5 <= chars.len() {
        let code = chars[start];
        let value_text = slice(chars, start + 1, start + 5);
        let value = parse_points(&value_text).ok_or_else(|| {
            err(
                line,
                start + 2,
                TrfProblem::InvalidHalfPoints(value_text.trim().to_string()),
            )
        })?;
        let value = result_points(value, &value_text, line, start + 2)?;
        match code {
            'W' => {
                points.win = value;
                points.forfeit_win = value;
                points.full_point_bye = value;
                if !*pab_set {
                    points.pab = value;
                }
            }
            'D' => {
                points.draw = value;
                points.half_point_bye = value;
            }
            'L' => points.loss = value,
            'Z' => {
                points.zero_point_bye = value;
                points.forfeit_loss = value;
            }
            'P' => {
                points.pab = value;
                *pab_set = true;
            }
            ' ' => {}
            c => {
                return Err(err(line, start + 1, TrfProblem::UnsupportedPointCode(c)));
            }
        }
        start += 9;
    }
    Ok(())
}

/// Reads a TRF within the default [`Limits`]. Lines may end with `\n`, `\r\n` or `\r`
/// (bbpPairings writes `\r`).
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    parse_with_limits(text, &Limits::default())
}

/// What the lines of a TRF say before the players are checked against each other.
#[derive(Default)]
struct Records {
    raw_players: Vec<RawPlayer>,
    /// Whether a `BBU` or `162 P` line set the PAB's points (a later win value keeps them).
    pab_set: bool,
    forbidden_groups: Vec<(usize, Vec<StartNo>)>,
    acceleration_lines: Vec<(usize, Vec<char>)>,
}

/// Reads a TRF, refusing one that holds more than `limits` allow.
pub fn parse_with_limits(text: &str, limits: &Limits) -> Result<Tournament, TrfError> {
    let mut t = Tournament::default();
    let mut records = read_records(text, &mut t)?;
    check_players(&mut records.raw_players, limits)?;
    let known = |n: StartNo| {
        records
            .raw_players
            .binary_search_by_key(&n, |p| p.player.start_no)
            .is_ok()
    };
    t.forbidden_pairs = forbidden_pairs(&records.forbidden_groups, known, limits)?;
    let played = rounds_paired(&records.raw_players, &t, limits)?;
    pending_games(&records.raw_players, &mut t)?;
    // bbpPairings counts the entries against XXR; without XXR, against the rounds paired
    // and the one about to be.
    let acceleration_rounds = match t.total_rounds {
        0 => played + 1,
        total => total as usize,
    };
    accelerations(
        &records.acceleration_lines,
        &mut records.raw_players,
        acceleration_rounds,
    )?;
    add_players(records.raw_players, played, &mut t);
    mark_double_forfeits(&mut t);
    check_both_sides(&t)?;
    Ok(t)
}

/// Reads every line by its record kind (the first three characters); unknown kinds are
/// skipped.
fn read_records(text: &str, t: &mut Tournament) -> Result<Records, TrfError> {
    let mut records = Records::default();
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    for (idx, raw_line) in normalised.split('\n').enumerate() {
        let line = idx + 1;
        let chars: Vec<char> = raw_line.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        let prefix = slice(&chars, 0, 3);
        let rest = slice(&chars, 3, chars.len());
        match prefix.as_str() {
            "001" => records.raw_players.push(parse_player_line(&chars, line)?),
            "012" => t.name = rest.trim().to_string(),
            "XXR" | "142" => t.total_rounds = parse_round_count(&rest, line)?,
            "XXC" => parse_xxc(&rest, t),
            "152" => t.first_colour = Some(parse_152(&rest, line)?),
            "162" => parse_162(&chars, line, &mut t.points, &mut records.pab_set)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                parse_bb(&prefix, &rest, line, &mut t.points, &mut records.pab_set)?;
            }
            "XXA" => records.acceleration_lines.push((line, chars)),
            "XXP" => records
                .forbidden_groups
                .push((line, parse_xxp(&rest, line)?)),
            _ => {}
        }
    }
    Ok(records)
}

/// `XXR` / `142`: the number of rounds, at least one.
fn parse_round_count(rest: &str, line: usize) -> Result<u32, TrfError> {
    let n = rest.trim();
    n.parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| err(line, 5, TrfProblem::InvalidRoundCount(n.to_string())))
}

/// `XXC`: the colour of the first player in round 1 (`white1` / `black1`); other
/// tokens are bbpPairings' options damka does not need.
fn parse_xxc(rest: &str, t: &mut Tournament) {
    for token in rest.split_whitespace() {
        match token {
            "white1" => t.first_colour = Some(Colour::White),
            "black1" => t.first_colour = Some(Colour::Black),
            _ => {}
        }
    }
}

/// `152`: the colour of the first player in round 1 (`W` / `B`).
fn parse_152(rest: &str, line: usize) -> Result<Colour, TrfError> {
    match rest.trim() {
        "W" => Ok(Colour::White),
        "B" => Ok(Colour::Black),
        other => Err(err(
            line,
            5,
            TrfProblem::InvalidFirstColour(other.to_string()),
        )),
    }
}

/// `BBW`, `BBD`, `BBL`, `BBZ`, `BBF`, `BBU`: bbpPairings' points for a win, draw, loss,
/// zero-point bye, forfeit loss and pairing-allocated bye.
fn parse_bb(
    prefix: &str,
    rest: &str,
    line: usize,
    points: &mut PointSystem,
    pab_set: &mut bool,
) -> Result<(), TrfError> {
    let v = rest.trim();
    let value =
        parse_points(v).ok_or_else(|| err(line, 5, TrfProblem::InvalidScore(v.to_string())))?;
    let value = result_points(value, v, line, 5)?;
    match prefix {
        "BBW" => {
            points.win = value;
            points.forfeit_win = value;
            points.full_point_bye = value;
            if !*pab_set {
                points.pab = value;
            }
        }
        "BBD" => {
            points.draw = value;
            points.half_point_bye = value;
        }
        "BBL" => points.loss = value,
        "BBZ" => points.zero_point_bye = value,
        "BBF" => points.forfeit_loss = value,
        _ => {
            points.pab = value;
            *pab_set = true;
        }
    }
    Ok(())
}

/// `XXP`: start numbers of players who may not meet each other.
fn parse_xxp(rest: &str, line: usize) -> Result<Vec<StartNo>, TrfError> {
    let mut group = Vec::new();
    let mut col = 4;
    for token in rest.split_whitespace() {
        group.push(parse_start_no(token, line, col)?);
        col += token.len() + 1;
    }
    Ok(group)
}

/// Sorts the players by start number and checks them: within the limit, each number
/// once, every opponent named is a player.
fn check_players(raw_players: &mut [RawPlayer], limits: &Limits) -> Result<(), TrfError> {
    if raw_players.len() > limits.players {
        return Err(exceeded(
            0,
            Limited::Players,
            raw_players.len(),
            limits.players,
        ));
    }
    raw_players.sort_by_key(|p| p.player.start_no);
    for w in raw_players.windows(2) {
        if w[0].player.start_no == w[1].player.start_no {
            return Err(err(
                w[1].line,
                5,
                TrfProblem::PlayerTwice(w[1].player.start_no),
            ));
        }
    }
    let known = |n: StartNo| {
        raw_players
            .binary_search_by_key(&n, |p| p.player.start_no)
            .is_ok()
    };
    for p in raw_players.iter() {
        for (r, cell) in p.cells.iter().enumerate() {
            if let Some(opp) = cell.and_then(|c| c.entry.opponent().or(c.pending.map(|g| g.0)))
                && !known(opp)
            {
                return Err(err(p.line, 92 + 10 * r, TrfProblem::UnknownOpponent(opp)));
            }
        }
    }
    Ok(())
}

/// Rounds paired so far: the last column where someone took part in a pairing. A
/// non-empty column beyond that holds requests for the next round; nothing may follow it.
fn rounds_paired(
    raw_players: &[RawPlayer],
    t: &Tournament,
    limits: &Limits,
) -> Result<usize, TrfError> {
    let mut played = 0usize;
    for p in raw_players {
        for (r, cell) in p.cells.iter().enumerate() {
            if let Some(c) = cell
                && c.participated
            {
                played = played.max(r + 1);
            }
        }
    }
    let rounds = played.max(t.total_rounds as usize);
    if rounds > limits.rounds {
        return Err(exceeded(0, Limited::Rounds, rounds, limits.rounds));
    }
    for p in raw_players {
        for (r, cell) in p.cells.iter().enumerate() {
            if r > played || (r == played && cell.is_some_and(|c| c.participated)) {
                return Err(err(
                    p.line,
                    92 + 10 * r,
                    TrfProblem::EntryAfterUnpairedRound,
                ));
            }
        }
    }
    if t.total_rounds != 0 && played > t.total_rounds as usize {
        return Err(err(
            0,
            0,
            TrfProblem::MoreRoundsThanXxr {
                played,
                total: t.total_rounds,
            },
        ));
    }
    Ok(played)
}

/// The players with an entry for each round paired, and the byes requested for the next.
fn add_players(raw_players: Vec<RawPlayer>, played: usize, t: &mut Tournament) {
    for raw in raw_players {
        let mut player = raw.player;
        for r in 0..played {
            let entry = raw
                .cells
                .get(r)
                .copied()
                .flatten()
                .map_or(RoundEntry::NotPaired, |c| c.entry);
            player.rounds.push(entry);
        }
        if let Some(Some(cell)) = raw.cells.get(played)
            && let RoundEntry::Bye(kind) = cell.entry
        {
            t.next_round_absences.push(NextRoundAbsence {
                player: player.start_no,
                kind,
            });
        }
        t.players.push(player);
    }
}

/// The index of player `n` in `players`, sorted by start number: an opponent is found by
/// binary search, so the checks cost players x rounds x log(players), not players squared.
fn index_of(players: &[Player], n: StartNo) -> Option<usize> {
    players.binary_search_by_key(&n, |q| q.start_no).ok()
}

/// Two forfeit losses against each other are a double forfeit.
fn mark_double_forfeits(t: &mut Tournament) {
    let snapshot = t.players.clone();
    for p in &mut t.players {
        for (r, entry) in p.rounds.iter_mut().enumerate() {
            if let RoundEntry::Forfeit {
                opponent,
                colour,
                won: false,
            } = *entry
                && index_of(&snapshot, opponent)
                    .and_then(|i| snapshot[i].rounds.get(r))
                    .is_some_and(|e| matches!(e, RoundEntry::Forfeit { won: false, .. }))
            {
                *entry = RoundEntry::DoubleForfeit { opponent, colour };
            }
        }
    }
}

/// The two sides of each game agree: each names the other, and a played game has
/// opposite colours.
fn check_both_sides(t: &Tournament) -> Result<(), TrfError> {
    for p in &t.players {
        for (r, entry) in p.rounds.iter().enumerate() {
            if let Some(opp) = entry.opponent() {
                let Some(o) = index_of(&t.players, opp).map(|i| &t.players[i]) else {
                    continue;
                };
                let back = o.rounds[r];
                let ok = back.opponent() == Some(p.start_no)
                    && match (entry, back) {
                        (
                            RoundEntry::Played { colour: a, .. },
                            RoundEntry::Played { colour: b, .. },
                        ) => *a != b,
                        (RoundEntry::Played { .. }, _) | (_, RoundEntry::Played { .. }) => false,
                        _ => true,
                    };
                if !ok {
                    return Err(err(
                        0,
                        92 + 10 * r,
                        TrfProblem::ContradictingEntries {
                            round: r + 1,
                            player: p.start_no,
                            opponent: opp,
                        },
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Reads one acceleration as bbpPairings does: one token of digits with at most one
/// decimal (`1.5`, `.5`, `2`); damka keeps half-points, so `0.3` is refused.
fn parse_acceleration(field: &[char], line: usize, column: usize) -> Result<HalfPoints, TrfError> {
    let text: String = field.iter().collect();
    let token = text.trim();
    let malformed = || err(line, column, TrfProblem::InvalidScore(token.to_string()));
    let (int_part, frac_part) = token.split_once('.').unwrap_or((token, ""));
    let well_formed = !token.is_empty()
        && int_part.chars().all(|c| c.is_ascii_digit())
        && frac_part.chars().all(|c| c.is_ascii_digit())
        && frac_part.len() <= 1
        && (!token.contains('.') || !frac_part.is_empty());
    if !well_formed {
        return Err(malformed());
    }
    let int: u32 = if int_part.is_empty() {
        0
    } else {
        int_part.parse().map_err(|_| malformed())?
    };
    let half = match frac_part {
        "" | "0" => 0,
        "5" => 1,
        _ => {
            return Err(err(
                line,
                column,
                TrfProblem::InvalidHalfPoints(token.to_string()),
            ));
        }
    };
    // Four characters hold at most 9999: no overflow.
    Ok(HalfPoints(int * 2 + half))
}

/// The `XXA` lines: `XXA`, the start number in columns 5-8, then one acceleration per
/// round in columns 10-13, 15-18, ... (the first for round 1), as bbpPairings reads them.
/// Stricter than bbpPairings where it would read something else silently: a character
/// between two fields, a blank field before the last, a second line for one player and a
/// line for a player without a `001` line are errors.
fn accelerations(
    lines: &[(usize, Vec<char>)],
    raw_players: &mut [RawPlayer],
    rounds: usize,
) -> Result<(), TrfError> {
    let mut seen = HashSet::with_capacity(lines.len());
    for (line, chars) in lines {
        let line = *line;
        let mut end = chars.len();
        while end > 0 && chars[end - 1].is_whitespace() {
            end -= 1;
        }
        let chars = &chars[..end];
        if chars.len() < 8 {
            return Err(err(line, 5, TrfProblem::LineTooShort));
        }
        let start_no = parse_start_no(&slice(chars, 4, 8), line, 5)?;
        let Ok(index) = raw_players.binary_search_by_key(&start_no, |p| p.player.start_no) else {
            return Err(err(
                line,
                5,
                TrfProblem::AccelerationUnknownPlayer(start_no),
            ));
        };
        if !seen.insert(start_no) {
            return Err(err(line, 5, TrfProblem::PlayerTwice(start_no)));
        }
        let mut values = Vec::new();
        let mut start = 9;
        while start < chars.len() {
            if chars[start - 1] != ' ' {
                return Err(err(line, start, TrfProblem::CharacterBetweenCells));
            }
            let field = &chars[start..(start + 4).min(chars.len())];
            if field.len() < 4 {
                let text: String = field.iter().collect();
                return Err(err(
                    line,
                    start + 1,
                    TrfProblem::InvalidScore(text.trim().to_string()),
                ));
            }
            if values.len() == rounds {
                return Err(err(
                    line,
                    start + 1,
                    TrfProblem::TooManyAccelerations {
                        player: start_no,
                        entries: (chars.len() - 9).div_ceil(5),
                        rounds,
                    },
                ));
            }
            values.push(parse_acceleration(field, line, start + 1)?);
            start += 5;
        }
        raw_players[index].player.accelerations = values;
    }
    Ok(())
}

/// The games paired and not played yet, each once (from White's line); both lines of a
/// game must say so, with opposite colours.
fn pending_games(raw_players: &[RawPlayer], t: &mut Tournament) -> Result<(), TrfError> {
    let cell_of = |n: StartNo, r: usize| {
        raw_players
            .binary_search_by_key(&n, |p| p.player.start_no)
            .ok()
            .and_then(|i| raw_players[i].cells.get(r).copied().flatten())
    };
    for p in raw_players {
        for (r, cell) in p.cells.iter().enumerate() {
            let Some((opponent, colour)) = cell.and_then(|c| c.pending) else {
                continue;
            };
            let back = cell_of(opponent, r).and_then(|c| c.pending);
            if back != Some((p.player.start_no, colour.opposite())) {
                return Err(err(
                    p.line,
                    92 + 10 * r,
                    TrfProblem::ContradictingEntries {
                        round: r + 1,
                        player: p.player.start_no,
                        opponent,
                    },
                ));
            }
            if colour == Colour::White {
                t.pending_games.push(PendingGame {
                    round: r as u32 + 1,
                    white: p.player.start_no,
                    black: opponent,
                });
            }
        }
    }
    Ok(())
}

/// The pairs forbidden by the `XXP` lines, each once, in the order first named. A line of
/// n different players forbids all n(n-1)/2 pairs among them: the pairs are counted, and
/// refused over the limit, before any is listed, so a long line costs its length only.
fn forbidden_pairs(
    groups: &[(usize, Vec<StartNo>)],
    known: impl Fn(StartNo) -> bool,
    limits: &Limits,
) -> Result<Vec<(StartNo, StartNo)>, TrfError> {
    let mut distinct_groups = Vec::with_capacity(groups.len());
    let mut count = 0usize;
    for (line, group) in groups {
        if let Some(&a) = group.iter().find(|&&a| !known(a)) {
            return Err(err(*line, 4, TrfProblem::ForbiddenPairUnknownPlayer(a)));
        }
        let mut seen = HashSet::with_capacity(group.len());
        let distinct: Vec<StartNo> = group.iter().copied().filter(|a| seen.insert(*a)).collect();
        let n = distinct.len();
        count = count.saturating_add(n.saturating_mul(n.saturating_sub(1)) / 2);
        if count > limits.forbidden_pairs {
            // Count the remaining lines too, so the message gives the file's real number.
            let rest: usize = groups
                .iter()
                .skip(distinct_groups.len() + 1)
                .map(|(_, g)| {
                    let n = g.iter().collect::<HashSet<_>>().len();
                    n.saturating_mul(n.saturating_sub(1)) / 2
                })
                .fold(0usize, usize::saturating_add);
            return Err(exceeded(
                *line,
                Limited::ForbiddenPairs,
                count.saturating_add(rest),
                limits.forbidden_pairs,
            ));
        }
        distinct_groups.push(distinct);
    }
    let mut seen = HashSet::with_capacity(count);
    let mut pairs = Vec::with_capacity(count);
    for group in &distinct_groups {
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                let pair = (a.min(b), a.max(b));
                if seen.insert(pair) {
                    pairs.push(pair);
                }
            }
        }
    }
    Ok(pairs)
}

/// The score of a player after all recorded rounds.
pub fn score(t: &Tournament, p: &Player) -> HalfPoints {
    p.rounds.iter().map(|e| t.points.points(e)).sum()
}

/// A round cell as a player line writes it: opponent, colour, result (`   5 w 1`).
pub fn cell_text(entry: &RoundEntry) -> String {
    let colour_char = |c: Option<Colour>| match c {
        Some(Colour::White) => 'w',
        Some(Colour::Black) => 'b',
        None => '-',
    };
    match *entry {
        RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated,
        } => {
            let r = match (outcome, rated) {
                (Outcome::Win, true) => '1',
                (Outcome::Draw, true) => '=',
                (Outcome::Loss, true) => '0',
                (Outcome::Win, false) => 'W',
                (Outcome::Draw, false) => 'D',
                (Outcome::Loss, false) => 'L',
            };
            format!("{opponent:>4} {} {r}", colour_char(Some(colour)))
        }
        RoundEntry::Forfeit {
            opponent,
            colour,
            won,
        } => format!(
            "{opponent:>4} {} {}",
            colour_char(colour),
            if won { '+' } else { '-' }
        ),
        RoundEntry::DoubleForfeit { opponent, colour } => {
            format!("{opponent:>4} {} -", colour_char(colour))
        }
        RoundEntry::Bye(kind) => format!("0000 - {}", kind.letter()),
        RoundEntry::NotPaired => "0000 - Z".to_string(),
    }
}

fn fit(text: &str, width: usize) -> String {
    let t: String = text.chars().take(width).collect();
    format!("{t:<width$}")
}

/// `text` when it fits a column of `width` characters, else nothing: an id or a title cut
/// short would name someone or something else, and a longer one would shift the columns.
fn whole(text: Option<&str>, width: usize) -> &str {
    match text {
        Some(t) if t.chars().count() <= width => t,
        _ => "",
    }
}

/// Writes a TRF (lines end with `\n`). Player lines carry sex, title, name, rating,
/// federation, federation id and birth date in their TRF-16 columns; a title, federation,
/// id or date too long for its column is left blank rather than cut. Requests for the next
/// round are written as `0000 - H/Z/F` cells in the column after the last round.
pub fn write(t: &Tournament) -> String {
    // Ranks: by score, then start number.
    let mut order: Vec<(HalfPoints, StartNo)> = t
        .players
        .iter()
        .map(|pl| (score(t, pl), pl.start_no))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let ranked: Vec<StartNo> = order.into_iter().map(|(_, n)| n).collect();
    write_ranked(t, &ranked)
}

/// Writes a TRF as [`write`] does, with the players ranked in the order given (first
/// ranked first) instead of by score: a Keizer event's ranking, its rounds still holding
/// the real game points.
pub fn write_ranked(t: &Tournament, ranked: &[StartNo]) -> String {
    let mut out = String::new();
    if !t.name.is_empty() {
        let _ = writeln!(out, "012 {}", t.name);
    }
    if t.total_rounds > 0 {
        let _ = writeln!(out, "XXR {}", t.total_rounds);
    }
    match t.first_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    let p = &t.points;
    let default = PointSystem::default();
    if *p != default {
        let mut line = String::from("162  ");
        for (code, v) in [
            ('W', p.win),
            ('D', p.draw),
            ('L', p.loss),
            ('Z', p.zero_point_bye),
            ('P', p.pab),
        ] {
            let _ = write!(line, "{code}{:>4}    ", format_points(v));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for &(a, b) in &t.forbidden_pairs {
        let _ = writeln!(out, "XXP {a} {b}");
    }
    let rank_of: HashMap<StartNo, usize> = ranked
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, i + 1))
        .collect();
    let absence_of: HashMap<StartNo, ByeKind> = t
        .next_round_absences
        .iter()
        .map(|a| (a.player, a.kind))
        .rev() // the first request of a player wins, as it did when searched in order
        .collect();
    let max_rounds = t.players.iter().map(|q| q.rounds.len()).max().unwrap_or(0);
    // (player, round) -> (opponent, colour) of the games not played yet.
    let mut pending: HashMap<(StartNo, u32), (StartNo, char)> = HashMap::new();
    for g in &t.pending_games {
        pending.insert((g.white, g.round), (g.black, 'w'));
        pending.insert((g.black, g.round), (g.white, 'b'));
    }
    for pl in &t.players {
        let rank = rank_of.get(&pl.start_no).copied().unwrap_or(0);
        let mut line = format!(
            "001 {:>4} {}{:>3} {} {:>4} {} {:>11} {} {:>4} {:>4}",
            pl.start_no,
            pl.sex.unwrap_or(' '),
            whole(pl.title.as_deref(), 3),
            fit(&pl.name, 33),
            pl.rating.map(|r| r.to_string()).unwrap_or_default(),
            fit(whole(pl.federation.as_deref(), 3), 3),
            whole(pl.federation_id.as_deref(), 11),
            fit(whole(pl.birth_date.as_deref(), 10), 10),
            format_points(score(t, pl)),
            rank,
        );
        let mut last_pending = false;
        for (r, entry) in pl.rounds.iter().enumerate() {
            line.push_str("  ");
            let game = pending.get(&(pl.start_no, r as u32 + 1));
            match (entry, game) {
                (RoundEntry::NotPaired, Some((opponent, colour))) => {
                    // Paired, no result yet: opponent and colour with a blank result.
                    let _ = write!(line, "{opponent:>4} {colour}  ");
                }
                _ => line.push_str(&cell_text(entry)),
            }
            last_pending = game.is_some();
        }
        if let Some(&kind) = absence_of.get(&pl.start_no) {
            for _ in pl.rounds.len()..max_rounds {
                line.push_str("  0000 - Z");
            }
            let _ = write!(line, "  0000 - {}", kind.letter());
            last_pending = false;
        }
        let kept = line.trim_end().len();
        // A blank result is part of its cell: keep the last cell whole.
        line.truncate(if last_pending { line.len() } else { kept });
        let _ = writeln!(out, "{line}");
    }
    write_accelerations(t, &mut out);
    out
}

/// An acceleration in the four columns bbpPairings reads: `1.5`, `12.0`, and from 100
/// points on the whole number (`100`) where the decimal no longer fits.
fn acceleration_text(a: HalfPoints) -> String {
    let text = format_points(a);
    if text.len() > 4 && a.0.is_multiple_of(2) {
        (a.0 / 2).to_string()
    } else {
        text
    }
}

/// `XXA` lines as PlayStrategy writes them: one per player once any player has an
/// acceleration (an empty list gives a line with the number only), the start number
/// ending at column 8, round n's value ending at column 13 + 5(n - 1).
fn write_accelerations(t: &Tournament, out: &mut String) {
    if t.players.iter().all(|p| p.accelerations.is_empty()) {
        return;
    }
    for pl in &t.players {
        let _ = write!(out, "XXA {:>4}", pl.start_no);
        for &a in &pl.accelerations {
            let _ = write!(out, " {:>4}", acceleration_text(a));
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_not_played_yet_is_read_back_from_both_lines_or_refused() {
        let line = |n: u32, cell: &str| {
            let head = format!("001 {n:>4}      P{n:<32} {:>4}", 2000);
            format!("{head:<80}{:>4}{n:>5}  {cell}", "0.0")
        };
        let good = format!("XXR 3\n{}\n{}\n", line(1, "   2 b  "), line(2, "   1 w"));
        let t = parse(&good).expect("parse");
        assert_eq!(
            t.pending_games,
            vec![PendingGame {
                round: 1,
                white: 2,
                black: 1
            }]
        );
        assert_eq!(t.players[0].rounds, vec![RoundEntry::NotPaired]);
        assert_eq!(parse(&write(&t)).expect("round trip"), t);
        let one_sided = format!("XXR 3\n{}\n{}\n", line(1, "   2 b  "), line(2, "   1 w 1"));
        assert!(matches!(
            parse(&one_sided),
            Err(TrfError {
                problem: TrfProblem::ContradictingEntries { round: 1, .. },
                ..
            })
        ));
    }

    const SAMPLE: &str = "012 Test\nXXR 3\nXXC white1\n\
001    1      Alpha                             2100                             1.0    1     2 w 1  0000 - H\n\
001    2      Beta                              2000                             0.0    2     1 b 0\n";

    #[test]
    fn parses_players_rounds_and_next_round_requests() {
        let t = parse(SAMPLE).expect("parse");
        assert_eq!(t.total_rounds, 3);
        assert_eq!(t.first_colour, Some(Colour::White));
        assert_eq!(t.players.len(), 2);
        assert_eq!(t.players[0].rounds.len(), 1);
        assert_eq!(t.players[0].rating, Some(2100));
        assert_eq!(
            t.next_round_absences,
            vec![NextRoundAbsence {
                player: 1,
                kind: ByeKind::HalfPoint
            }]
        );
    }

    #[test]
    fn round_trips() {
        let t = parse(SAMPLE).expect("parse");
        let again = parse(&write(&t)).expect("reparse");
        assert_eq!(t, again);
    }

    fn line(head: &str, cells: &[&str]) -> String {
        let mut l = format!("{head:<80}{:>4}{:>5} ", "0.0", 1);
        for c in cells {
            l.push_str(&format!(" {c:<8} "));
        }
        l
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = format!("012 x\n{}\n", line("001    1      A", &["   3 w 1"]));
        let e = parse(&bad).expect_err("unknown opponent");
        assert_eq!(e.line, 2);
        let bad = format!(
            "{}\n{}\n",
            line("001    1      A", &["   2 x 1"]),
            line("001    2      B", &["   1 b 0"])
        );
        let e = parse(&bad).expect_err("bad colour");
        assert_eq!((e.line, e.column), (1, 97));
        let bad = format!("{}\n", line("001    1      A", &["0000 - Q"]));
        let e = parse(&bad).expect_err("bad result");
        assert_eq!((e.line, e.column), (1, 99));
    }

    #[test]
    fn double_forfeits_and_carriage_returns() {
        let text = format!(
            "012 x\rXXR 3\r{}\r{}\r",
            line("001    1      A", &["   2 w -"]),
            line("001    2      B", &["   1 b -"])
        );
        let t = parse(&text).expect("parse");
        assert_eq!(
            t.players[0].rounds[0],
            RoundEntry::DoubleForfeit {
                opponent: 2,
                colour: Some(Colour::White)
            }
        );
        assert_eq!(parse(&write(&t)).expect("reparse"), t);
    }

    /// The 1-based, inclusive columns `from..=to` of a line, trimmed.
    fn columns(line: &str, from: usize, to: usize) -> String {
        line.chars()
            .skip(from - 1)
            .take(to + 1 - from)
            .collect::<String>()
            .trim()
            .to_string()
    }

    fn profiled(start_no: StartNo, name: &str) -> Player {
        Player {
            start_no,
            name: name.to_string(),
            rating: Some(2350),
            sex: Some('m'),
            title: Some("GMI".to_string()),
            federation: Some("RUS".to_string()),
            federation_id: Some("14100018".to_string()),
            birth_date: Some("1985".to_string()),
            rounds: vec![RoundEntry::Bye(ByeKind::PairingAllocated)],
            ..Player::default()
        }
    }

    #[test]
    fn player_lines_carry_the_profile_in_trf16_columns() {
        let t = Tournament {
            name: "Profiles".into(),
            players: vec![profiled(1, "Иванов, Пётр")],
            ..Tournament::default()
        };
        let text = write(&t);
        let line = text
            .lines()
            .find(|l| l.starts_with("001"))
            .expect("a player line");
        assert_eq!(columns(line, 5, 8), "1");
        assert_eq!(columns(line, 10, 10), "m");
        assert_eq!(columns(line, 11, 13), "GMI");
        assert_eq!(columns(line, 15, 47), "Иванов, Пётр");
        assert_eq!(columns(line, 49, 52), "2350");
        assert_eq!(columns(line, 54, 56), "RUS");
        assert_eq!(columns(line, 58, 68), "14100018");
        assert_eq!(columns(line, 70, 79), "1985");
        assert_eq!(columns(line, 81, 84), "1.0");
        assert_eq!(columns(line, 92, 99), "0000 - U");
        assert_eq!(parse(&text).expect("reparse"), t);
    }

    #[test]
    fn fields_too_long_for_their_column_are_left_blank() {
        let mut long = profiled(1, "Long");
        long.title = Some("GMIF".into());
        long.federation_id = Some("123456789012".into());
        long.birth_date = Some("1985/07/14 noon".into());
        let t = Tournament {
            players: vec![long],
            ..Tournament::default()
        };
        let text = write(&t);
        let line = text
            .lines()
            .find(|l| l.starts_with("001"))
            .expect("a player line");
        assert_eq!(columns(line, 11, 13), "");
        assert_eq!(columns(line, 58, 68), "");
        assert_eq!(columns(line, 70, 79), "");
        assert_eq!(columns(line, 54, 56), "RUS", "the other columns stay put");
        assert_eq!(columns(line, 92, 99), "0000 - U");
        let back = parse(&text).expect("reparse");
        assert_eq!(back.players[0].title, None);
        assert_eq!(back.players[0].federation_id, None);
        assert_eq!(back.players[0].birth_date, None);
    }

    #[test]
    fn reads_the_profile_columns_of_a_trf16_line() {
        let line = "001    7 w MF Petrova, Anna                     2210 UKR    14109622 1999/03/21  0.0    7";
        let t = parse(line).expect("parse");
        let p = &t.players[0];
        assert_eq!(p.sex, Some('w'));
        assert_eq!(p.title.as_deref(), Some("MF"));
        assert_eq!(p.name, "Petrova, Anna");
        assert_eq!(p.rating, Some(2210));
        assert_eq!(p.federation.as_deref(), Some("UKR"));
        assert_eq!(p.federation_id.as_deref(), Some("14109622"));
        assert_eq!(p.birth_date.as_deref(), Some("1999/03/21"));
    }

    fn players(n: u32) -> String {
        (1..=n)
            .map(|no| format!("{}\n", line(&format!("001 {no:>4}      P{no}"), &[])))
            .collect()
    }

    /// An `XXP` line of 100,000 numbers naming 100 players: read once, each pair listed
    /// once. Listing pairs of positions instead of pairs of players took minutes and
    /// gigabytes for this line.
    #[test]
    fn a_long_forbidden_pairs_line_costs_its_length() {
        let numbers: Vec<String> = (0..100_000).map(|i| (i % 100 + 1).to_string()).collect();
        let text = format!("{}XXP {}\n", players(100), numbers.join(" "));
        let t = parse(&text).expect("parse");
        assert_eq!(t.forbidden_pairs.len(), 100 * 99 / 2);
        assert_eq!(t.forbidden_pairs[0], (1, 2));
        let unique: HashSet<_> = t.forbidden_pairs.iter().collect();
        assert_eq!(unique.len(), t.forbidden_pairs.len());
    }

    #[test]
    fn too_many_forbidden_pairs_are_refused_with_the_count_and_the_limit() {
        let numbers: Vec<String> = (1..=200).map(|n| n.to_string()).collect();
        let text = format!("{}XXP 1 2\nXXP {}\n", players(200), numbers.join(" "));
        let e = parse(&text).expect_err("19,901 pairs");
        assert_eq!(
            e.exceeded(),
            Some(LimitExceeded {
                what: Limited::ForbiddenPairs,
                found: 1 + 200 * 199 / 2,
                limit: 10_000
            })
        );
        assert_eq!(e.line, 202, "{e}");
    }

    #[test]
    fn too_many_players_or_rounds_are_refused() {
        let limits = Limits {
            players: 3,
            rounds: 2,
            forbidden_pairs: 1,
        };
        let e = parse_with_limits(&players(4), &limits).expect_err("4 players");
        assert_eq!(
            e.exceeded(),
            Some(LimitExceeded {
                what: Limited::Players,
                found: 4,
                limit: 3
            })
        );
        assert!(e.to_string().contains("4 players"), "{e}");
        let e = parse_with_limits(&format!("XXR 3\n{}", players(2)), &limits).expect_err("XXR");
        assert_eq!(
            e.exceeded().map(|x| (x.what, x.found)),
            Some((Limited::Rounds, 3))
        );
        let played = format!(
            "{}\n{}\n",
            line("001    1      A", &["   2 w 1", "   2 b 1", "   2 w 1"]),
            line("001    2      B", &["   1 b 0", "   1 w 0", "   1 b 0"])
        );
        let e = parse_with_limits(&played, &limits).expect_err("3 rounds played");
        assert_eq!(
            e.exceeded().map(|x| (x.what, x.found)),
            Some((Limited::Rounds, 3))
        );
        assert!(parse_with_limits(&players(3), &limits).is_ok());
        assert!(parse(&format!("XXR 51\n{}", players(2))).is_err());
    }

    /// Two players who met in round 1 of 3; `xxa` lines follow.
    fn with_xxa(xxa: &str) -> String {
        format!(
            "XXR 3\n{}\n{}\n{xxa}",
            line("001    1      A", &["   2 w 1"]),
            line("001    2      B", &["   1 b 0"])
        )
    }

    fn problem_of(text: &str) -> (usize, usize, TrfProblem) {
        let e = parse(text).expect_err("refused");
        (e.line, e.column, e.problem)
    }

    #[test]
    fn xxa_lines_are_read_as_bbp_pairings_reads_them() {
        let t = parse(&with_xxa("XXA    1  0.0  1.0\nXXA    2  0.0   .5\n")).expect("parse");
        assert_eq!(t.players[0].accelerations, [HalfPoints(0), HalfPoints(2)]);
        assert_eq!(t.players[1].accelerations, [HalfPoints(0), HalfPoints(1)]);
        // Before the player lines, with trailing blanks, a whole number: all fine.
        let text = format!("XXA    2  0.0    3  \n{}", with_xxa(""));
        let t = parse(&text).expect("parse");
        assert_eq!(t.players[1].accelerations, [HalfPoints(0), HalfPoints(6)]);
        assert!(t.players[0].accelerations.is_empty());
        // As many entries as XXR rounds is the most.
        let t = parse(&with_xxa("XXA    1  0.0  1.0  1.5\n")).expect("three rounds");
        assert_eq!(t.players[0].accelerations.len(), 3);
    }

    #[test]
    fn bad_xxa_lines_are_refused_with_line_and_column() {
        let at = |xxa: &str| problem_of(&with_xxa(xxa));
        assert_eq!(
            at("XXA    1  0.0  0.3\n"),
            (4, 15, TrfProblem::InvalidHalfPoints("0.3".into()))
        );
        for bad in ["1.50", "-1.0", "1.", "abc", "1 5", "."] {
            assert_eq!(
                at(&format!("XXA    1 {bad:>4}\n")),
                (4, 10, TrfProblem::InvalidScore(bad.trim().to_string())),
                "{bad:?}"
            );
        }
        assert_eq!(
            at("XXA    1  0.0      1.0\n"),
            (4, 15, TrfProblem::InvalidScore(String::new()))
        );
        assert_eq!(
            at("XXA    1  0.0  1\n"),
            (4, 15, TrfProblem::InvalidScore("1".into()))
        );
        assert_eq!(
            at("XXA    1  0.0x 1.0\n"),
            (4, 14, TrfProblem::CharacterBetweenCells)
        );
        assert_eq!(
            at("XXA    1  0.0  1.0  1.5  2.0\n"),
            (
                4,
                25,
                TrfProblem::TooManyAccelerations {
                    player: 1,
                    entries: 4,
                    rounds: 3
                }
            )
        );
        assert_eq!(
            at("XXA    9  0.0\n"),
            (4, 5, TrfProblem::AccelerationUnknownPlayer(9))
        );
        assert_eq!(
            at("XXA    1  0.0\nXXA    1  1.0\n"),
            (5, 5, TrfProblem::PlayerTwice(1))
        );
        assert_eq!(
            at("XXA    x  0.0\n"),
            (4, 5, TrfProblem::InvalidPlayerNumber("x".into()))
        );
        assert_eq!(at("XXA 1\n"), (4, 5, TrfProblem::LineTooShort));
        let e = parse(&with_xxa("XXA    9  0.0\n")).expect_err("unknown");
        assert!(e.to_string().contains("player 9"), "{e}");
    }

    /// Player 1 won round 1 2-0 and drew round 2 1-1 (two games each, game points); player 2
    /// lost both.
    fn micro_event() -> Tournament {
        use crate::micro_match::{MatchScoring, MicroMatch};
        let game = |opponent, colour, outcome| RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        };
        Tournament {
            total_rounds: 4,
            micro_match: Some(MicroMatch {
                games: 2,
                scoring: MatchScoring::GamePoints,
            }),
            players: vec![
                Player {
                    start_no: 1,
                    rounds: vec![
                        game(2, Colour::White, Outcome::Win),
                        game(3, Colour::Black, Outcome::Draw),
                    ],
                    round_scores: vec![Some(HalfPoints(4)), Some(HalfPoints(2))],
                    ..Player::default()
                },
                Player {
                    start_no: 2,
                    rounds: vec![
                        game(1, Colour::Black, Outcome::Loss),
                        RoundEntry::Bye(ByeKind::PairingAllocated),
                    ],
                    round_scores: vec![Some(HalfPoints(0)), Some(HalfPoints(4))],
                    ..Player::default()
                },
                Player {
                    start_no: 3,
                    rounds: vec![
                        RoundEntry::Bye(ByeKind::HalfPoint),
                        game(1, Colour::White, Outcome::Draw),
                    ],
                    round_scores: vec![Some(HalfPoints(2)), Some(HalfPoints(2))],
                    ..Player::default()
                },
            ],
            ..Tournament::default()
        }
    }

    #[test]
    fn xxa_is_written_in_playstrategys_columns_and_reads_back() {
        let mut t = micro_event();
        crate::micro_match::set_pairing_accelerations(&mut t).expect("accelerations");
        let text = write(&t);
        let xxa: Vec<&str> = text.lines().filter(|l| l.starts_with("XXA")).collect();
        assert_eq!(
            xxa,
            [
                "XXA    1  0.0  1.0  1.5",
                "XXA    2  0.0  0.0  1.0",
                "XXA    3  0.0  0.5  1.0"
            ]
        );
        // The points column holds the collapsed total, as PlayStrategy writes it.
        let first = text.lines().find(|l| l.starts_with("001")).expect("line");
        assert_eq!(columns(first, 81, 84), "1.5");
        let back = parse(&text).expect("reparse");
        for (a, b) in back.players.iter().zip(&t.players) {
            assert_eq!(a.accelerations, b.accelerations, "player {}", a.start_no);
            assert_eq!(a.rounds, b.rounds);
        }
        // bbpPairings also accepts the points column holding the sum plus the
        // acceleration: so does this reader.
        let accelerated = text.replacen(
            &format!("{:>4}{:>5}", "1.5", 1),
            &format!("{:>4}{:>5}", "3.0", 1),
            1,
        );
        assert_ne!(accelerated, text);
        assert_eq!(parse(&accelerated).expect("accepted"), back);
    }

    #[test]
    fn no_xxa_lines_without_accelerations_and_large_ones_fit_four_columns() {
        let t = micro_event();
        assert!(!write(&t).contains("XXA"));
        assert_eq!(acceleration_text(HalfPoints(199)), "99.5");
        assert_eq!(acceleration_text(HalfPoints(200)), "100");
        let mut t = micro_event();
        t.players[0].accelerations = vec![HalfPoints(0), HalfPoints(250)];
        t.players[1].accelerations.clear();
        let text = write(&t);
        assert!(text.contains("XXA    1  0.0  125\n"), "{text}");
        assert!(text.contains("XXA    2\n"), "{text}");
        let back = parse(&text).expect("reparse");
        assert_eq!(back.players[0].accelerations, t.players[0].accelerations);
        assert!(back.players[1].accelerations.is_empty());
    }

    #[test]
    fn points_parse() {
        assert_eq!(parse_points("11.5"), Some(HalfPoints(23)));
        assert_eq!(parse_points("1"), Some(HalfPoints(2)));
        assert_eq!(parse_points("0.3"), None);
    }
}
