//! The closed sets of values an event is made of: its system, status, scoring scale and time
//! control, the result of a board, and from the engine and the domain the variant, the bye
//! kind and the colour. Each has exactly one spelling, the one it is stored in, sent in JSON
//! and posted by forms (`Spelling::spelling`), and one function that reads it back
//! (`Spelling::from_spelling`): nothing above the store compares these words. A word the
//! database should never hold is an error where the row is read (`store::columns`), never
//! a default.
use crate::tiebreak::EventKind;
use crate::tournament::{ByeKind, Colour, Outcome, RoundEntry, StartNo};
use damka_engine::Variant;
use serde::{Deserialize, Deserializer, Serializer};

/// A closed set of values written as fixed words.
pub trait Spelling: Copy + PartialEq + std::fmt::Debug + Sized + 'static {
    /// What the value is, for messages: `system`, `result`.
    const WHAT: &'static str;
    /// Every value, in the order lists and forms show them.
    const ALL: &'static [Self];

    /// The one spelling of the value.
    fn spelling(self) -> &'static str;

    /// The value `spelling` writes as `text`, if any.
    fn from_spelling(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.spelling() == text)
    }
}

/// A word that is none of the spellings of a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {text:?}: expected one of {expected}")]
pub struct UnknownSpelling {
    pub what: &'static str,
    pub text: String,
    /// The spellings, comma-separated.
    pub expected: String,
}

/// Reads `text` as a `T`, or says what was expected.
pub fn parse<T: Spelling>(text: &str) -> Result<T, UnknownSpelling> {
    T::from_spelling(text).ok_or_else(|| UnknownSpelling {
        what: T::WHAT,
        text: text.to_string(),
        expected: spellings::<T>().join(", "),
    })
}

/// Every spelling of `T`, in `T::ALL`'s order.
pub fn spellings<T: Spelling>() -> Vec<&'static str> {
    T::ALL.iter().map(|v| v.spelling()).collect()
}

/// `#[serde(with = "spelled")]`: a value as its spelling in JSON.
pub mod spelled {
    use super::*;

    pub fn serialize<T: Spelling, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.spelling())
    }

    pub fn deserialize<'de, T: Spelling, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        parse(&text).map_err(serde::de::Error::custom)
    }
}

/// `#[serde(with = "spelled_option")]`: an optional value as its spelling or `null`.
pub mod spelled_option {
    use super::*;

    pub fn serialize<T: Spelling, S: Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(v.spelling()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Spelling, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(text) => parse(&text).map(Some).map_err(serde::de::Error::custom),
            None => Ok(None),
        }
    }
}

/// Declares an enum of this crate with its spellings, and gives it `Spelling`, `Display`,
/// `FromStr` and serde through them.
macro_rules! spelled_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($what:literal) {
            $($(#[$variant_meta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl Spelling for $name {
            const WHAT: &'static str = $what;
            const ALL: &'static [$name] = &[$($name::$variant,)+];

            fn spelling(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.spelling())
            }
        }

        impl std::str::FromStr for $name {
            type Err = UnknownSpelling;

            fn from_str(text: &str) -> Result<Self, UnknownSpelling> {
                parse(text)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                spelled::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                spelled::deserialize(d)
            }
        }
    };
}

spelled_enum! {
    /// How the players of an event are paired.
    pub enum System ("system") {
        /// Everybody plays everybody once (Berger tables).
        RoundRobin = "round_robin",
        /// Everybody plays everybody twice, once with each colour.
        DoubleRoundRobin = "double_round_robin",
        /// The FIDE Dutch system, a set number of rounds.
        Swiss = "swiss",
        /// The Keizer system: whoever is present is paired top-down by the Keizer ranking,
        /// a win earns the opponent's value number (the `keizer` module).
        Keizer = "keizer",
    }
}

impl System {
    pub fn is_round_robin(self) -> bool {
        matches!(self, System::RoundRobin | System::DoubleRoundRobin)
    }

    /// How many times each two players meet in a round-robin (one for a Swiss, where the
    /// pairing decides).
    pub fn cycles(self) -> u32 {
        match self {
            System::DoubleRoundRobin => 2,
            System::RoundRobin | System::Swiss | System::Keizer => 1,
        }
    }

    /// The kind of event the tie-break rules distinguish.
    pub fn event_kind(self) -> EventKind {
        if self.is_round_robin() {
            EventKind::RoundRobin
        } else {
            EventKind::Swiss
        }
    }

    /// The tie-breaks an event uses when the organiser has not picked any (TOURNAMENTS.md).
    pub fn default_tiebreaks(self) -> &'static str {
        if self.is_round_robin() {
            "SB,DE,WIN"
        } else {
            "BH/C1,BH,SB,WIN"
        }
    }
}

spelled_enum! {
    /// Where an event is in its life.
    pub enum EventStatus ("status") {
        /// Taking entries; no round paired yet.
        Registration = "registration",
        /// Rounds are being played.
        Running = "running",
        /// Closed: the standings are final until the organiser reopens it.
        Finished = "finished",
    }
}

spelled_enum! {
    /// The scale an event shows points on. Points are counted in half-points either way.
    pub enum ScoringDisplay ("scoring") {
        /// 1 for a win, ½ for a draw.
        OneHalfZero = "1-0.5-0",
        /// 2 for a win, 1 for a draw: every figure doubled.
        TwoOneZero = "2-1-0",
    }
}

impl ScoringDisplay {
    /// A score of `half_points` as a number of half-units of this scale: unchanged on
    /// 1-½-0, doubled on 2-1-0 (where a draw is a whole point).
    pub fn shown_half_points(self, half_points: u32) -> u32 {
        match self {
            ScoringDisplay::OneHalfZero => half_points,
            ScoringDisplay::TwoOneZero => half_points * 2,
        }
    }
}

spelled_enum! {
    /// The kind of clock an event is played with.
    pub enum TimeCategory ("time control") {
        Classical = "classical",
        Rapid = "rapid",
        Blitz = "blitz",
        /// Played without clocks.
        Untimed = "none",
    }
}

impl TimeCategory {
    /// The category of a timed event, from its time control.
    pub fn of(category: crate::clock::Category) -> TimeCategory {
        use crate::clock::Category;
        match category {
            Category::Classical => TimeCategory::Classical,
            Category::Rapid => TimeCategory::Rapid,
            Category::Blitz => TimeCategory::Blitz,
        }
    }
}

spelled_enum! {
    /// The result of a board, White's side first: a game played, or a game not played
    /// (`+/-`: White won by forfeit, `-/+`: Black did, `-/-`: both lost). Stored, sent and
    /// posted as written here, which is also how PDN writes the games on the 1-½-0 scale.
    pub enum ResultCode ("result") {
        WhiteWins = "1-0",
        Draw = "1/2-1/2",
        BlackWins = "0-1",
        WhiteWinsByForfeit = "+/-",
        BlackWinsByForfeit = "-/+",
        DoubleForfeit = "-/-",
    }
}

impl ResultCode {
    /// White's and Black's share as the event shows it: `1 0`, `½ ½`, on 2-1-0 `2 0`,
    /// `1 1`; for a forfeit `+ -`.
    pub fn sides(self, scale: ScoringDisplay) -> (&'static str, &'static str) {
        let doubled = scale == ScoringDisplay::TwoOneZero;
        match self {
            ResultCode::WhiteWins if doubled => ("2", "0"),
            ResultCode::WhiteWins => ("1", "0"),
            ResultCode::Draw if doubled => ("1", "1"),
            ResultCode::Draw => ("½", "½"),
            ResultCode::BlackWins if doubled => ("0", "2"),
            ResultCode::BlackWins => ("0", "1"),
            ResultCode::WhiteWinsByForfeit => ("+", "-"),
            ResultCode::BlackWinsByForfeit => ("-", "+"),
            ResultCode::DoubleForfeit => ("-", "-"),
        }
    }

    /// The same result seen with the colours the other way round (`1-0` becomes `0-1`,
    /// `+/-` becomes `-/+`): a micro-match's second game, whose White is the pairing's
    /// Black.
    pub fn swapped(self) -> ResultCode {
        match self {
            ResultCode::WhiteWins => ResultCode::BlackWins,
            ResultCode::BlackWins => ResultCode::WhiteWins,
            ResultCode::WhiteWinsByForfeit => ResultCode::BlackWinsByForfeit,
            ResultCode::BlackWinsByForfeit => ResultCode::WhiteWinsByForfeit,
            ResultCode::Draw => ResultCode::Draw,
            ResultCode::DoubleForfeit => ResultCode::DoubleForfeit,
        }
    }

    /// Whether the game was played over the board.
    pub fn played(self) -> bool {
        matches!(
            self,
            ResultCode::WhiteWins | ResultCode::Draw | ResultCode::BlackWins
        )
    }

    /// The result as an event's pages write it: `1-0`, `½-½`, `2-0` on the 2-1-0 scale,
    /// forfeits as entered (`+/-`). `spaced` writes games as `1 - 0`, to be read from
    /// across the room on a printed sheet.
    pub fn shown(self, scale: ScoringDisplay, spaced: bool) -> String {
        let (white, black) = self.sides(scale);
        let separator = match (self.played(), spaced) {
            (false, _) => "/",
            (true, false) => "-",
            (true, true) => " - ",
        };
        format!("{white}{separator}{black}")
    }

    /// A PDN `Result` tag on either scale (`1-0` or `2-0`, `1/2-1/2` or `1-1`); `None` for
    /// anything else (`*`, an unfinished game).
    pub fn from_pdn(tag: &str) -> Option<ResultCode> {
        ScoringDisplay::ALL.iter().find_map(|scale| {
            ResultCode::ALL
                .iter()
                .copied()
                .find(|r| r.played() && r.pdn(*scale) == tag)
        })
    }

    /// The PDN `Result` tag of a game on this scale (`1-0` / `2-0`); a forfeit, which PDN
    /// has no word for, as stored.
    pub fn pdn(self, scale: ScoringDisplay) -> String {
        match (self.played(), scale) {
            (true, ScoringDisplay::TwoOneZero) => self.shown(scale, false),
            _ => self.spelling().to_string(),
        }
    }

    /// What the result is for White and for Black in the domain's terms (White's opponent
    /// is `black` and the other way round): the inverse of `from_round_entries`.
    pub fn round_entries(self, white: StartNo, black: StartNo) -> (RoundEntry, RoundEntry) {
        let played = |opponent, colour, outcome| RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        };
        let forfeit = |opponent, colour, won| RoundEntry::Forfeit {
            opponent,
            colour: Some(colour),
            won,
        };
        match self {
            ResultCode::WhiteWins => (
                played(black, Colour::White, Outcome::Win),
                played(white, Colour::Black, Outcome::Loss),
            ),
            ResultCode::Draw => (
                played(black, Colour::White, Outcome::Draw),
                played(white, Colour::Black, Outcome::Draw),
            ),
            ResultCode::BlackWins => (
                played(black, Colour::White, Outcome::Loss),
                played(white, Colour::Black, Outcome::Win),
            ),
            ResultCode::WhiteWinsByForfeit => (
                forfeit(black, Colour::White, true),
                forfeit(white, Colour::Black, false),
            ),
            ResultCode::BlackWinsByForfeit => (
                forfeit(black, Colour::White, false),
                forfeit(white, Colour::Black, true),
            ),
            ResultCode::DoubleForfeit => (
                RoundEntry::DoubleForfeit {
                    opponent: black,
                    colour: Some(Colour::White),
                },
                RoundEntry::DoubleForfeit {
                    opponent: white,
                    colour: Some(Colour::Black),
                },
            ),
        }
    }

    /// The result of a game played, from White's and Black's outcomes (`None` when the two
    /// do not fit together, such as two wins).
    pub fn of_game(white: Outcome, black: Outcome) -> Option<ResultCode> {
        match (white, black) {
            (Outcome::Win, Outcome::Loss) => Some(ResultCode::WhiteWins),
            (Outcome::Draw, Outcome::Draw) => Some(ResultCode::Draw),
            (Outcome::Loss, Outcome::Win) => Some(ResultCode::BlackWins),
            _ => None,
        }
    }

    /// The result of a game not played, from whether White and Black won it by forfeit
    /// (`None` when both did).
    pub fn of_forfeit(white_won: bool, black_won: bool) -> Option<ResultCode> {
        match (white_won, black_won) {
            (true, false) => Some(ResultCode::WhiteWinsByForfeit),
            (false, true) => Some(ResultCode::BlackWinsByForfeit),
            (false, false) => Some(ResultCode::DoubleForfeit),
            (true, true) => None,
        }
    }
}

spelled_enum! {
    /// How a micro-match (two games a pairing) scores in the standings.
    pub enum MatchScoring ("match scoring") {
        /// The points of the games, summed: 2-0, 1½-½, 1-1 ...
        GamePoints = "game_points",
        /// The match as a whole: 2 for a match won, 1 drawn, 0 lost.
        MatchPoints = "match_points",
    }
}

impl MatchScoring {
    /// The domain's name for the same scoring.
    pub fn domain(self) -> crate::micro_match::MatchScoring {
        match self {
            MatchScoring::GamePoints => crate::micro_match::MatchScoring::GamePoints,
            MatchScoring::MatchPoints => crate::micro_match::MatchScoring::MatchPoints,
        }
    }
}

spelled_enum! {
    /// The table an event draws its openings from (`../shared/MATCHES.md`).
    pub enum OpeningBallot ("opening ballot") {
        /// Every game starts from the initial position.
        None = "none",
        /// The IDF "Drawing Table 64" (745 positions), Russian and Brazilian draughts.
        Idf64 = "idf64",
        /// FMJD's "Drawing Table 64" (736 positions in 46 groups).
        Fmjd64 = "fmjd64",
        /// The 150 basic positions of 1-3 plies.
        Basic150 = "basic150",
        /// The English 3-move deck of 156 openings (the 18 barred ones left out).
        English3 = "english3",
        /// The organiser's own table, given with the event.
        Custom = "custom",
    }
}

impl OpeningBallot {
    /// The built-in table behind the choice (`None` for none and for the organiser's own).
    pub fn table(self) -> Option<crate::ballots::BallotTable> {
        use crate::ballots::BallotTable;
        match self {
            OpeningBallot::Idf64 => Some(BallotTable::Idf64),
            OpeningBallot::Fmjd64 => Some(BallotTable::Fmjd64),
            OpeningBallot::Basic150 => Some(BallotTable::Basic150),
            OpeningBallot::English3 => Some(BallotTable::English3Move),
            OpeningBallot::None | OpeningBallot::Custom => None,
        }
    }
}

spelled_enum! {
    /// Whether every board draws its own opening or one opening serves the whole round.
    pub enum BallotPer ("ballot per") {
        Pairing = "pairing",
        Round = "round",
    }
}

impl BallotPer {
    /// The domain's name for the same choice.
    pub fn domain(self) -> crate::ballots::BallotPer {
        match self {
            BallotPer::Pairing => crate::ballots::BallotPer::Pairing,
            BallotPer::Round => crate::ballots::BallotPer::Round,
        }
    }
}

spelled_enum! {
    /// The two rating systems every player has in every variant (RATINGS.md).
    pub enum RatingSystem ("rating system") {
        /// The federation Elo (FIDE/FMJD rules), one period per event.
        Elo = "elo",
        /// Glicko-2 with lidraughts' parameters, one game per period.
        Glicko2 = "glicko2",
    }
}

/// In `ALL`'s order: Elo first, so that maps keyed by system list it first.
impl PartialOrd for RatingSystem {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RatingSystem {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.domain().cmp(&other.domain())
    }
}

impl RatingSystem {
    /// The domain's name for the same system.
    pub fn domain(self) -> crate::ratings::ledger::System {
        match self {
            RatingSystem::Elo => crate::ratings::ledger::System::Elo,
            RatingSystem::Glicko2 => crate::ratings::ledger::System::Glicko2,
        }
    }
}

spelled_enum! {
    /// What an account is in a club: one of its organisers, who decide who joins it and run its
    /// events, or a plain member.
    pub enum ClubRole ("club role") {
        Organiser = "organiser",
        Member = "member",
    }
}

spelled_enum! {
    /// Where a player's request to have their profile in a club stands.
    pub enum JoinRequestStatus ("join request status") {
        Pending = "pending",
        Accepted = "accepted",
        Declined = "declined",
    }
}

spelled_enum! {
    /// Where an account's claim to a player profile stands.
    pub enum ClaimStatus ("claim status") {
        Pending = "pending",
        Accepted = "accepted",
        Declined = "declined",
    }
}

spelled_enum! {
    /// What happened to a player profile, as its audit records it.
    pub enum PlayerChangeAction ("profile change") {
        /// This profile was merged into another (and is gone from the lists).
        MergedInto = "merged_into",
        /// Another profile was merged into this one.
        MergedFrom = "merged_from",
        /// An account was linked to this profile (a claim accepted, a one-time link used).
        AccountLinked = "account_linked",
    }
}

spelled_enum! {
    /// What the site's trail of removals names: an event, a player profile or a club.
    pub enum RemovalSubject ("removal subject") {
        Event = "event",
        Player = "player",
        Club = "club",
    }
}

spelled_enum! {
    /// What was done to an event, a profile or a club, as the site's trail records it.
    pub enum RemovalAction ("removal action") {
        /// Hidden from the lists and closed to changes, kept whole.
        Archived = "archived",
        /// Back in the lists after being archived.
        Restored = "restored",
        /// Gone for good (it held nothing others rely on).
        Deleted = "deleted",
    }
}

spelled_enum! {
    /// Where a game stands.
    pub enum GameStatus ("game status") {
        Ongoing = "ongoing",
        Finished = "finished",
    }
}

spelled_enum! {
    /// Why a game finished: the engine's verdict (a side without a legal move, one code per
    /// automatic draw rule), the players' (resignation, agreement) or an arbiter's.
    pub enum GameEnd ("game end") {
        /// The side to move had no legal move (no pieces left, or all blocked).
        NoLegalMoves = "no_legal_moves",
        Resignation = "resignation",
        /// A draw offer was accepted.
        Agreement = "agreement",
        ThreefoldRepetition = "threefold_repetition",
        /// Russian piece-count table: no capture or promotion for the table's number of moves.
        NoCaptureOrPromotion = "no_capture_or_promotion",
        /// Only kings moved, with no capture, for the rule's number of moves.
        OnlyKingsMoved = "only_kings_moved",
        /// The stronger side did not catch a lone king in time.
        LoneKingNotCaught = "lone_king_not_caught",
        /// Local rule: plies without a capture or a man move.
        NoProgressLimit = "no_progress_limit",
        /// Local rule: the game reached its move limit.
        MoveLimit = "move_limit",
        /// Local rule: one king each without a capture.
        LoneKingsLimit = "lone_kings_limit",
        /// Set by an arbiter: the arbiter's decision (ending a game in progress, or on the
        /// game's own page).
        Arbiter = "arbiter",
        /// Entered on the event's board by an organiser or arbiter, as the players reported
        /// it (a game played at the board, or a correction of one that was over).
        Entered = "entered",
        /// The side to move ran out of time.
        TimeForfeit = "time_forfeit",
    }
}

impl GameEnd {
    /// The reason of a game the engine says is over.
    pub fn of_status(status: damka_engine::Status) -> Option<GameEnd> {
        use damka_engine::{DrawReason, Status, WinReason};
        Some(match status {
            Status::Ongoing => return None,
            Status::Win {
                reason: WinReason::NoLegalMoves,
                ..
            } => GameEnd::NoLegalMoves,
            Status::Win {
                reason: WinReason::Resignation,
                ..
            } => GameEnd::Resignation,
            Status::Draw { reason } => match reason {
                DrawReason::ThreefoldRepetition => GameEnd::ThreefoldRepetition,
                DrawReason::Agreement => GameEnd::Agreement,
                DrawReason::NoCaptureOrPromotion { .. } => GameEnd::NoCaptureOrPromotion,
                DrawReason::OnlyKingsMoved { .. } => GameEnd::OnlyKingsMoved,
                DrawReason::LoneKingNotCaught { .. } => GameEnd::LoneKingNotCaught,
                DrawReason::NoProgressLimit { .. } => GameEnd::NoProgressLimit,
                DrawReason::MoveLimit { .. } => GameEnd::MoveLimit,
                DrawReason::LoneKingsLimit { .. } => GameEnd::LoneKingsLimit,
            },
        })
    }
}

impl Spelling for damka_engine::Color {
    const WHAT: &'static str = "side";
    const ALL: &'static [damka_engine::Color] =
        &[damka_engine::Color::White, damka_engine::Color::Black];

    fn spelling(self) -> &'static str {
        match self {
            damka_engine::Color::White => "white",
            damka_engine::Color::Black => "black",
        }
    }
}

impl Spelling for Variant {
    const WHAT: &'static str = "variant";
    const ALL: &'static [Variant] = &Variant::ALL;

    fn spelling(self) -> &'static str {
        self.name()
    }

    /// The engine's own reading of a variant name.
    fn from_spelling(text: &str) -> Option<Variant> {
        text.parse().ok()
    }
}

impl Spelling for ByeKind {
    const WHAT: &'static str = "bye";
    const ALL: &'static [ByeKind] = &ByeKind::ALL;

    fn spelling(self) -> &'static str {
        self.code()
    }

    fn from_spelling(text: &str) -> Option<ByeKind> {
        ByeKind::from_code(text)
    }
}

impl Spelling for Colour {
    const WHAT: &'static str = "colour";
    const ALL: &'static [Colour] = &[Colour::White, Colour::Black];

    fn spelling(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Spelling>() {
        for value in T::ALL {
            assert_eq!(parse::<T>(value.spelling()), Ok(*value));
        }
        let err = parse::<T>("no such thing").expect_err("unknown");
        assert_eq!(err.what, T::WHAT);
        assert!(
            err.to_string().contains(&spellings::<T>().join(", ")),
            "{err}"
        );
    }

    #[test]
    fn every_value_reads_back_from_its_spelling() {
        round_trips::<System>();
        round_trips::<EventStatus>();
        round_trips::<ScoringDisplay>();
        round_trips::<TimeCategory>();
        round_trips::<ResultCode>();
        round_trips::<Variant>();
        round_trips::<ByeKind>();
        round_trips::<Colour>();
    }

    #[test]
    fn spellings_are_the_public_ones() {
        assert_eq!(
            spellings::<System>(),
            ["round_robin", "double_round_robin", "swiss", "keizer"]
        );
        assert_eq!(
            spellings::<EventStatus>(),
            ["registration", "running", "finished"]
        );
        assert_eq!(spellings::<ScoringDisplay>(), ["1-0.5-0", "2-1-0"]);
        assert_eq!(
            spellings::<TimeCategory>(),
            ["classical", "rapid", "blitz", "none"]
        );
        assert_eq!(
            spellings::<ResultCode>(),
            ["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"]
        );
        assert_eq!(
            spellings::<Variant>(),
            ["russian", "international", "english", "brazilian"]
        );
        assert_eq!(
            spellings::<ByeKind>(),
            ["U", "H", "F", "Z", "excused", "club_duty"]
        );
        assert_eq!(spellings::<Colour>(), ["white", "black"]);
    }

    #[test]
    fn json_carries_the_spelling_and_refuses_other_words() {
        assert_eq!(
            serde_json::to_string(&ResultCode::Draw).expect("json"),
            "\"1/2-1/2\""
        );
        assert_eq!(
            serde_json::from_str::<System>("\"double_round_robin\"").expect("json"),
            System::DoubleRoundRobin
        );
        let err = serde_json::from_str::<System>("\"knockout\"").expect_err("unknown");
        assert!(err.to_string().contains("unknown system"), "{err}");
    }

    #[test]
    fn results_are_shown_on_the_event_scale() {
        let one = ScoringDisplay::OneHalfZero;
        let two = ScoringDisplay::TwoOneZero;
        assert_eq!(ResultCode::WhiteWins.shown(one, false), "1-0");
        assert_eq!(ResultCode::Draw.shown(one, false), "½-½");
        assert_eq!(ResultCode::Draw.shown(one, true), "½ - ½");
        assert_eq!(ResultCode::BlackWins.shown(two, false), "0-2");
        assert_eq!(ResultCode::Draw.shown(two, true), "1 - 1");
        assert_eq!(ResultCode::WhiteWinsByForfeit.shown(two, true), "+/-");
        assert_eq!(ResultCode::BlackWinsByForfeit.shown(one, false), "-/+");
        assert_eq!(ResultCode::DoubleForfeit.shown(one, true), "-/-");
    }

    #[test]
    fn pdn_results_read_and_write_on_both_scales() {
        for result in ResultCode::ALL.iter().copied().filter(|r| r.played()) {
            for scale in ScoringDisplay::ALL.iter().copied() {
                assert_eq!(ResultCode::from_pdn(&result.pdn(scale)), Some(result));
            }
        }
        assert_eq!(ResultCode::from_pdn("2-0"), Some(ResultCode::WhiteWins));
        assert_eq!(ResultCode::from_pdn("1-1"), Some(ResultCode::Draw));
        assert_eq!(ResultCode::from_pdn("0-1"), Some(ResultCode::BlackWins));
        assert_eq!(ResultCode::from_pdn("*"), None);
        assert_eq!(ResultCode::from_pdn("+/-"), None);
    }

    #[test]
    fn round_entries_and_outcomes_agree() {
        for result in ResultCode::ALL.iter().copied() {
            let (white, black) = result.round_entries(1, 2);
            let back = match (white, black) {
                (RoundEntry::Played { outcome: w, .. }, RoundEntry::Played { outcome: b, .. }) => {
                    ResultCode::of_game(w, b)
                }
                (RoundEntry::Forfeit { won: w, .. }, RoundEntry::Forfeit { won: b, .. }) => {
                    ResultCode::of_forfeit(w, b)
                }
                (RoundEntry::DoubleForfeit { .. }, RoundEntry::DoubleForfeit { .. }) => {
                    ResultCode::of_forfeit(false, false)
                }
                other => panic!("{result}: {other:?}"),
            };
            assert_eq!(back, Some(result));
            assert_eq!(white.opponent(), Some(2));
            assert_eq!(black.opponent(), Some(1));
        }
        assert_eq!(ResultCode::of_game(Outcome::Win, Outcome::Win), None);
        assert_eq!(ResultCode::of_forfeit(true, true), None);
    }
}
