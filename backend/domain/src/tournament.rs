//! The shared vocabulary of an event's history: players, what happened to each of them in
//! each round, and the points each outcome is worth. Pairing, tie-breaks, standings and TRF
//! import/export all read and write these plain structs.

/// A player's starting number in the event, 1-based (the TRF "start rank").
pub type StartNo = u32;

/// Points are counted in half-points so that no float ever sums a standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HalfPoints(pub u32);

impl HalfPoints {
    pub const ZERO: HalfPoints = HalfPoints(0);
    pub const HALF: HalfPoints = HalfPoints(1);
    pub const ONE: HalfPoints = HalfPoints(2);

    /// Points as a float, for display and for rating formulas only.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl std::ops::Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, rhs: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + rhs.0)
    }
}

impl std::ops::AddAssign for HalfPoints {
    fn add_assign(&mut self, rhs: HalfPoints) {
        self.0 += rhs.0;
    }
}

impl std::iter::Sum for HalfPoints {
    fn sum<I: Iterator<Item = HalfPoints>>(iter: I) -> HalfPoints {
        iter.fold(HalfPoints::ZERO, |a, b| a + b)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The outcome of a game for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The kinds of round without a game against an opponent (TRF codes in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// Pairing-allocated bye (`U`): worth `PointSystem::pab`.
    PairingAllocated,
    /// Full-point bye granted by the organiser (`F`).
    FullPoint,
    /// Requested half-point bye (`H`).
    HalfPoint,
    /// Absence or zero-point bye (`Z`, or a blank cell).
    ZeroPoint,
    /// A Keizer event's absence with notice (`excused`): zero game points, a share of the
    /// player's own value in the Keizer score. TRF has no letter for it and writes `Z`.
    Excused,
    /// A Keizer event's absence to play for the club elsewhere (`club_duty`): zero game
    /// points, a share of the player's own value. Written `Z` in a TRF.
    ClubDuty,
}

impl ByeKind {
    /// Every kind, in the order a round lists its players without an opponent.
    pub const ALL: [ByeKind; 6] = [
        ByeKind::PairingAllocated,
        ByeKind::HalfPoint,
        ByeKind::FullPoint,
        ByeKind::ZeroPoint,
        ByeKind::Excused,
        ByeKind::ClubDuty,
    ];

    /// The TRF letter of the kind (`U`, `H`, `F`, `Z`): a Keizer absence with notice or
    /// for the club is a zero-point absence there.
    pub fn letter(self) -> char {
        match self {
            ByeKind::PairingAllocated => 'U',
            ByeKind::HalfPoint => 'H',
            ByeKind::FullPoint => 'F',
            ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty => 'Z',
        }
    }

    /// How an event stores the kind and the API spells it: the TRF letter, or the Keizer
    /// absence's word.
    pub fn code(self) -> &'static str {
        match self {
            ByeKind::PairingAllocated => "U",
            ByeKind::HalfPoint => "H",
            ByeKind::FullPoint => "F",
            ByeKind::ZeroPoint => "Z",
            ByeKind::Excused => "excused",
            ByeKind::ClubDuty => "club_duty",
        }
    }

    /// Whether the kind is a Keizer event's absence with a reason (with notice, for the
    /// club): other systems know only `H` and `Z`.
    pub fn is_keizer_absence(self) -> bool {
        matches!(self, ByeKind::Excused | ByeKind::ClubDuty)
    }

    /// The kind `code` writes as `text` (the one upper-case letter or the word; the TRF
    /// reader has its own, more tolerant reading of a cell).
    pub fn from_code(text: &str) -> Option<ByeKind> {
        ByeKind::ALL.into_iter().find(|kind| kind.code() == text)
    }
}

impl std::fmt::Display for ByeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// What happened to one player in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundEntry {
    /// A game against `opponent`. `rated == false` is the TRF's `W D L`: played, but with
    /// fewer than one move each, so it scores but does not count as a game over the board
    /// for tie-breaks such as WON or for ratings.
    Played {
        opponent: StartNo,
        colour: Colour,
        outcome: Outcome,
        rated: bool,
    },
    /// A game that was not played: the player won (`+`) or lost (`-`) by forfeit. Colour
    /// is what the pairing had assigned, when the record says it.
    Forfeit {
        opponent: StartNo,
        colour: Option<Colour>,
        won: bool,
    },
    /// A double forfeit (`-` for both, TRF `0000 -` style records or `-/-`): both lose.
    DoubleForfeit {
        opponent: StartNo,
        colour: Option<Colour>,
    },
    /// No opponent this round.
    Bye(ByeKind),
    /// Not paired and no result recorded (not yet played, or withdrawn).
    NotPaired,
}

impl RoundEntry {
    /// The opponent the pairing assigned, if any. Only a game played over the board stops
    /// the two from being paired again: a forfeited pairing "is not considered to be illegal
    /// in future rounds" (FIDE), as bbpPairings treats it too.
    pub fn opponent(&self) -> Option<StartNo> {
        match *self {
            RoundEntry::Played { opponent, .. }
            | RoundEntry::Forfeit { opponent, .. }
            | RoundEntry::DoubleForfeit { opponent, .. } => Some(opponent),
            RoundEntry::Bye(_) | RoundEntry::NotPaired => None,
        }
    }

    /// The colour the player actually played with over the board (forfeits have none for
    /// colour-history purposes, as in the FIDE rules).
    pub fn played_colour(&self) -> Option<Colour> {
        match *self {
            RoundEntry::Played { colour, .. } => Some(colour),
            _ => None,
        }
    }
}

/// Points per result. Defaults: FMJD/FIDE 1 - 1/2 - 0, PAB worth a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointSystem {
    pub win: HalfPoints,
    pub draw: HalfPoints,
    pub loss: HalfPoints,
    pub forfeit_win: HalfPoints,
    pub forfeit_loss: HalfPoints,
    pub pab: HalfPoints,
    pub full_point_bye: HalfPoints,
    pub half_point_bye: HalfPoints,
    pub zero_point_bye: HalfPoints,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: HalfPoints::ONE,
            draw: HalfPoints::HALF,
            loss: HalfPoints::ZERO,
            forfeit_win: HalfPoints::ONE,
            forfeit_loss: HalfPoints::ZERO,
            pab: HalfPoints::ONE,
            full_point_bye: HalfPoints::ONE,
            half_point_bye: HalfPoints::HALF,
            zero_point_bye: HalfPoints::ZERO,
        }
    }
}

impl PointSystem {
    /// The points one round entry is worth.
    pub fn points(&self, entry: &RoundEntry) -> HalfPoints {
        match *entry {
            RoundEntry::Played { outcome, .. } => match outcome {
                Outcome::Win => self.win,
                Outcome::Draw => self.draw,
                Outcome::Loss => self.loss,
            },
            RoundEntry::Forfeit { won: true, .. } => self.forfeit_win,
            RoundEntry::Forfeit { won: false, .. } => self.forfeit_loss,
            RoundEntry::DoubleForfeit { .. } => self.forfeit_loss,
            RoundEntry::Bye(ByeKind::PairingAllocated) => self.pab,
            RoundEntry::Bye(ByeKind::FullPoint) => self.full_point_bye,
            RoundEntry::Bye(ByeKind::HalfPoint) => self.half_point_bye,
            RoundEntry::Bye(ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty)
            | RoundEntry::NotPaired => self.zero_point_bye,
        }
    }
}

/// One entrant of an event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Player {
    pub start_no: StartNo,
    pub name: String,
    pub rating: Option<u32>,
    pub sex: Option<char>,
    pub title: Option<String>,
    pub federation: Option<String>,
    pub federation_id: Option<String>,
    pub birth_date: Option<String>,
    /// One entry per round played so far (index 0 = round 1). In a micro-match the entry
    /// holds the collapsed result of the pairing (see `micro_match::collapse`).
    pub rounds: Vec<RoundEntry>,
    /// Pairing accelerations (TRF `XXA`), index 0 = round 1: added to the score when the
    /// round of that index is paired, and when earlier floats are judged, exactly as
    /// bbpPairings uses them. Standings and tie-breaks never see them. Missing entries
    /// are zero.
    pub accelerations: Vec<HalfPoints>,
    /// What each round really gave the player, where that differs from
    /// `PointSystem::points` of the round's entry (index 0 = round 1): in a micro-match
    /// the summed game points or the match points. `None` or a missing entry: the point
    /// system's value. Standings and tie-breaks count these points.
    pub round_scores: Vec<Option<HalfPoints>>,
}

impl Player {
    /// The player's entry in round `round_index` (0-based); `NotPaired` past the end.
    pub fn entry(&self, round_index: usize) -> RoundEntry {
        self.rounds
            .get(round_index)
            .copied()
            .unwrap_or(RoundEntry::NotPaired)
    }

    /// The points round `round_index` (0-based) really gave: the recorded round score
    /// when there is one, else what `points` gives the entry.
    pub fn round_points(&self, points: &PointSystem, round_index: usize) -> HalfPoints {
        self.round_scores
            .get(round_index)
            .copied()
            .flatten()
            .unwrap_or_else(|| points.points(&self.entry(round_index)))
    }

    /// The acceleration used when round `round_index` (0-based) is paired (0 if none).
    pub fn acceleration(&self, round_index: usize) -> HalfPoints {
        self.accelerations
            .get(round_index)
            .copied()
            .unwrap_or(HalfPoints::ZERO)
    }
}

/// A requested bye or absence for the round about to be paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NextRoundAbsence {
    pub player: StartNo,
    pub kind: ByeKind,
}

/// An event's whole history, as pairing, standings and TRF need it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tournament {
    pub name: String,
    /// Planned number of rounds (TRF `XXR`).
    pub total_rounds: u32,
    pub points: PointSystem,
    /// Colour of the first-ranked player in round 1 (TRF `XXC`); White when unset.
    pub first_colour: Option<Colour>,
    pub players: Vec<Player>,
    /// Pairs that must never be paired (TRF `XXP`), as if they had already met.
    pub forbidden_pairs: Vec<(StartNo, StartNo)>,
    /// Players who will not be paired in the next round and what they get for it.
    pub next_round_absences: Vec<NextRoundAbsence>,
    /// Games paired and not yet played (no result): they count nowhere yet, but they are
    /// not absences either, and the next round cannot be paired before they have a result.
    pub pending_games: Vec<PendingGame>,
    /// Set when each pairing plays several games (a micro-match): what a won or drawn
    /// round is worth in real points then (tie-breaks need it). `None`: one game each.
    pub micro_match: Option<MicroMatch>,
}

impl Tournament {
    /// The points `player`'s round `round_index` (0-based) really gave (see
    /// [`Player::round_points`]).
    pub fn round_points(&self, player: &Player, round_index: usize) -> HalfPoints {
        player.round_points(&self.points, round_index)
    }

    /// What a won round is worth in real points: a win, or in a micro-match a pairing won
    /// in every game (game points) or the match points of a win.
    pub fn round_win_points(&self) -> HalfPoints {
        self.micro_match
            .map_or(self.points.win, |m| m.round_win(&self.points))
    }

    /// What a drawn round is worth in real points (see [`Tournament::round_win_points`]).
    pub fn round_draw_points(&self) -> HalfPoints {
        self.micro_match
            .map_or(self.points.draw, |m| m.round_draw(&self.points))
    }
}

/// How a micro-match round is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MatchScoring {
    /// The sum of the game points (the Russian Cup regulations' "points").
    #[default]
    GamePoints,
    /// 2 points for a won pairing, 1 for a drawn one, 0 for a lost one.
    MatchPoints,
}

impl MatchScoring {
    pub const ALL: [MatchScoring; 2] = [MatchScoring::GamePoints, MatchScoring::MatchPoints];

    /// The stable code an event stores.
    pub fn code(self) -> &'static str {
        match self {
            MatchScoring::GamePoints => "game_points",
            MatchScoring::MatchPoints => "match_points",
        }
    }

    pub fn from_code(text: &str) -> Option<MatchScoring> {
        MatchScoring::ALL.into_iter().find(|s| s.code() == text)
    }
}

/// Match points of a won pairing (2 points).
pub const MATCH_POINTS_WIN: HalfPoints = HalfPoints(4);
/// Match points of a drawn pairing (1 point).
pub const MATCH_POINTS_DRAW: HalfPoints = HalfPoints(2);

/// An event's micro-match format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MicroMatch {
    /// Games per pairing.
    pub games: u32,
    pub scoring: MatchScoring,
}

impl MicroMatch {
    /// Real points of a won round: every game won (game points) or the match points of a
    /// win. `points` is the event's per-game point system.
    pub fn round_win(&self, points: &PointSystem) -> HalfPoints {
        match self.scoring {
            MatchScoring::GamePoints => HalfPoints(points.win.0.saturating_mul(self.games)),
            MatchScoring::MatchPoints => MATCH_POINTS_WIN,
        }
    }

    /// Real points of a drawn round: every game drawn, or the match points of a draw.
    pub fn round_draw(&self, points: &PointSystem) -> HalfPoints {
        match self.scoring {
            MatchScoring::GamePoints => HalfPoints(points.draw.0.saturating_mul(self.games)),
            MatchScoring::MatchPoints => MATCH_POINTS_DRAW,
        }
    }
}

/// A game of a paired round that has no result yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PendingGame {
    /// 1-based.
    pub round: u32,
    pub white: StartNo,
    pub black: StartNo,
}

impl std::fmt::Display for PendingGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "round {}: {} – {}", self.round, self.white, self.black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bye_codes_read_back_and_nothing_else_does() {
        for kind in ByeKind::ALL {
            assert_eq!(ByeKind::from_code(kind.code()), Some(kind));
            assert_eq!(kind.to_string(), kind.code());
            if kind.is_keizer_absence() {
                // TRF has no letter for a Keizer absence with a reason: a zero-point one.
                assert_eq!(kind.letter(), 'Z');
            } else {
                assert_eq!(kind.code(), kind.letter().to_string());
            }
        }
        for text in ["", "u", "X", "UU", " U", "Excused", "club duty"] {
            assert_eq!(ByeKind::from_code(text), None, "{text:?}");
        }
    }
}
