//! Why a use case said no: one variant per refusal, each with a stable code and typed
//! arguments, never a finished sentence. The web layer turns a refusal into text through
//! the message catalogue (`error.<code>`, with the arguments as `{0}`, `{1}`, ... in the
//! order the fields are declared), in the reader's language; problem+json carries the code.
//!
//! Codes are part of the public API: a variant may be renamed, its code may not change.
use std::fmt;

use damka_domain::berger::BergerError;
use damka_domain::dutch::PairingError;
use damka_domain::keizer::{KeizerOptionsError, options::MAX_SIXTHS};
use damka_domain::pairing_check::PlacementError;
use damka_domain::standings::StandingsError;
use damka_domain::tiebreak::{HistoryError, TieBreakParseError};
use damka_domain::trf::{Limited, TrfError, TrfProblem};

/// One argument of a refusal, as its catalogue text shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// A count, a limit, a round, a start number, a line of a file.
    Number(i64),
    /// Shown as it is: a value the user sent, a list of accepted codes, a cell of a file.
    Text(String),
    /// Refusals inside this one (the problems of a pairing, the problem on a line of a
    /// file), each shown in the reader's language, joined by "; ".
    Refusals(Vec<Refusal>),
    /// A word the catalogue translates (its key): a side of the board, shown as "White"
    /// or «Белые», never as the code.
    Term(&'static str),
}

/// How a field of a refusal becomes its argument.
pub trait ToArg {
    fn to_arg(&self) -> Arg;
}

macro_rules! number_args {
    (from: $($small:ty),*; try_from: $($large:ty),*) => {
        $(impl ToArg for $small {
            fn to_arg(&self) -> Arg {
                Arg::Number(i64::from(*self))
            }
        })*
        $(impl ToArg for $large {
            fn to_arg(&self) -> Arg {
                Arg::Number(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        })*
    };
}
number_args!(from: i32, i64, u32; try_from: u64, usize);

impl ToArg for String {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.clone())
    }
}

impl ToArg for Vec<String> {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.join(", "))
    }
}

impl ToArg for Box<Refusal> {
    fn to_arg(&self) -> Arg {
        Arg::Refusals(vec![(**self).clone()])
    }
}

impl ToArg for Vec<Refusal> {
    fn to_arg(&self) -> Arg {
        Arg::Refusals(self.clone())
    }
}

impl ToArg for damka_engine::Color {
    fn to_arg(&self) -> Arg {
        Arg::Term(match self {
            damka_engine::Color::White => "side.white",
            damka_engine::Color::Black => "side.black",
        })
    }
}

/// Declares `Refusal` with its codes: `Variant { field: Type, ... } => "code"`. The fields
/// are the arguments, in order; `CODES` lists every code, so a test can walk them all.
macro_rules! refusals {
    ($(
        $(#[$doc:meta])*
        $variant:ident $({ $($field:ident : $ty:ty),* $(,)? })? => $code:literal,
    )*) => {
        #[derive(Debug, Clone, PartialEq)]
        pub enum Refusal {
            $(
                $(#[$doc])*
                $variant $({ $($field: $ty),* })?,
            )*
        }

        impl Refusal {
            /// Every code, in declaration order.
            pub const CODES: &'static [&'static str] = &[$($code),*];

            /// The stable code: the catalogue key (`error.<code>`) and problem+json's `code`.
            pub fn code(&self) -> &'static str {
                match self {
                    $(Refusal::$variant $({ $($field: _),* })? => $code,)*
                }
            }

            /// The arguments, in the order of the catalogue's `{0}`, `{1}`, ...
            pub fn args(&self) -> Vec<Arg> {
                match self {
                    $(Refusal::$variant $({ $($field),* })? => vec![$($($field.to_arg()),*)?],)*
                }
            }
        }
    };
}

refusals! {
    // Fields of forms and JSON bodies.
    /// A required field is empty.
    Required => "required",
    /// A password shorter than the minimum.
    TooShort { min: usize } => "too_short",
    /// A text longer than the field takes.
    TooLong { max: usize } => "too_long",
    /// A one-line text with a control character (a line break, a NUL, an escape).
    ControlCharacters => "control_characters",
    /// A multi-line text with a control character other than a line break or a tab.
    ControlCharactersInText => "control_characters_in_text",
    /// Unicode embeddings, overrides or isolates, which can make a name show as another.
    DirectionControls => "direction_controls",
    /// A date outside the years every database stores.
    DateOutOfRange { first: i32, last: i32 } => "date_out_of_range",
    /// A date that is not written as a date.
    NotADate => "not_a_date",
    /// A birth year outside the accepted range.
    YearOutOfRange { first: i32, last: i32 } => "year_out_of_range",
    NotAnEmail => "not_an_email",
    /// A federation/country code that is not 2-3 letters.
    NotACountryCode => "not_a_country_code",
    /// A time zone name the time zone database does not have.
    UnknownTimeZone => "unknown_time_zone",
    NotAWholeNumber => "not_a_whole_number",
    /// A value that is not one of the accepted codes.
    NotOneOf { allowed: Vec<String> } => "not_one_of",
    /// A number outside its range.
    NotBetween { min: i64, max: i64 } => "not_between",
    UnsupportedLanguage => "unsupported_language",
    /// A list's `cursor` that no page of this list gave out (edited, or from another list).
    BadCursor => "bad_cursor",

    // Requests that cannot be read.
    BadQueryString { message: String } => "bad_query_string",
    UnreadableJson { message: String } => "unreadable_json",
    NotAForm { content_type: String } => "not_a_form",
    UnreadableForm { message: String } => "unreadable_form",
    AuthorizationNotText => "authorization_not_text",
    AuthorizationNotBearer => "authorization_not_bearer",
    /// PostgreSQL refuses text with NUL bytes.
    NulCharacters => "nul_characters",
    /// Any other request the web server itself refused.
    UnreadableRequest { message: String } => "unreadable_request",
    /// The request's body did not arrive whole within the server's `body_timeout` (seconds).
    BodyTimeout { seconds: u64 } => "body_timeout",
    /// One address holds more open connections than the server allows it.
    TooManyConnections { limit: usize } => "too_many_connections",
    /// One address holds more live streams (SSE) than the server allows it.
    TooManyStreams { limit: usize } => "too_many_streams",

    // What the database refused.
    AlreadyExists { message: String } => "already_exists",
    StillReferenced => "still_referenced",

    // Accounts and the site.
    OnlyAdministrators => "only_administrators",
    AdminExists => "admin_exists",
    /// The first-run page, once the site has an administrator.
    FirstRunClosed => "first_run_closed",
    InvitationRequired => "invitation_required",
    InvitationUnknown => "invitation_unknown",
    InvitationForOtherEmail => "invitation_for_other_email",
    /// Two registrations raced for one invitation.
    InvitationJustUsed => "invitation_just_used",
    EmailTaken => "email_taken",
    WrongCurrentPassword => "wrong_current_password",
    CannotDropOwnAdminRole => "cannot_drop_own_admin_role",
    ProfileLinkedElsewhere => "profile_linked_elsewhere",
    NoAccountWithEmail => "no_account_with_email",

    // Clubs and player profiles.
    OnlyOrganisersCreateClubs => "only_organisers_create_clubs",
    ClubNameTaken => "club_name_taken",
    OnlyClubOrganisersEdit => "only_club_organisers_edit",
    OnlyClubOrganisersChangeMembers => "only_club_organisers_change_members",
    OnlyClubOrganisersAnswerRequests => "only_club_organisers_answer_requests",
    /// Only a club's organisers (and administrators) put an event or a profile in it.
    NotClubOrganiser => "not_club_organiser",
    NoProfileToJoinClub => "no_profile_to_join_club",
    AlreadyInClub => "already_in_club",
    JoinRequestPending => "join_request_pending",
    RequestAlreadyAnswered => "request_already_answered",
    NoSuchClub => "no_such_club",
    NoSuchPlayer => "no_such_player",
    AlreadyHasProfile => "already_has_profile",
    MayNotEditProfile => "may_not_edit_profile",
    /// Adding many members at once: more lines than one submission takes.
    BulkTooManyLines { found: usize, limit: usize } => "bulk_too_many_lines",
    /// Adding many members at once: neither names nor a CSV were given.
    BulkNothingGiven => "bulk_nothing_given",
    /// The CSV's header has no `name` column.
    BulkCsvNoName => "bulk_csv_no_name",
    /// A column of the CSV's header that neither a profile nor the ratings import knows.
    BulkCsvUnknownColumn { column: String } => "bulk_csv_unknown_column",
    /// A profile of this name is in the club already.
    NameAlreadyInClub => "name_already_in_club",
    /// Several profiles without a club have this name: which one is meant is not clear.
    SeveralClublessNamed { count: usize } => "several_clubless_named",

    // Claiming and merging profiles.
    /// The profile claimed already belongs to an account.
    ProfileTaken => "profile_taken",
    /// The account claiming a profile already has one.
    AccountHasProfile => "account_has_profile",
    /// Deciding a claim or handing out a link: the profile's club organisers, the
    /// organiser who made it, administrators.
    OnlyProfileManagers => "only_profile_managers",
    ClaimAlreadyDecided => "claim_already_decided",
    /// A one-time link that has been opened already.
    ClaimLinkUsed => "claim_link_used",
    /// Merging: administrators, or an organiser who manages both profiles.
    OnlyManagersOfBothMerge => "only_managers_of_both_merge",
    MergeIntoItself => "merge_into_itself",
    /// Both profiles played in this event: one person cannot have played twice.
    SameEvent { event: String } => "same_event",
    /// Both profiles are linked to accounts: one must be unlinked first.
    BothProfilesHaveAccounts => "both_profiles_have_accounts",
    /// The profile was merged into profile `into` (404, with `merged_into`).
    PlayerMerged { into: i64 } => "player_merged",

    // Archiving and deleting events, profiles and clubs.
    /// An archived event takes no changes until it is restored.
    EventArchived => "event_archived",
    /// A running event is finished before it is archived or deleted.
    EventRunningFinishFirst => "event_running_finish_first",
    /// Deleting an event whose results count for ratings: archive it instead.
    EventHasRatedResults => "event_has_rated_results",
    /// Deleting a profile with entries, games, a rating history, an account or profiles
    /// merged into it: archive it instead.
    PlayerHasRecords => "player_has_records",
    /// An archived profile is entered in nothing new and plays no new game.
    PlayerArchived => "player_archived",
    /// Deleting a club that `count` events name as theirs: archive it instead.
    ClubHasEvents { count: i64 } => "club_has_events",
    /// An archived club takes no new members or events.
    ClubArchived => "club_archived",
    AlreadyArchived => "already_archived",
    NotArchived => "not_archived",

    // Events: who may act.
    OnlyOrganisersCreateEvents => "only_organisers_create_events",
    OnlyOrganisersImportEvents => "only_organisers_import_events",
    OnlyEventOrganiser => "only_event_organiser",
    OnlyEventOfficials => "only_event_officials",
    /// The event changed under a long computation more often than it was retried.
    EventChangedMeanwhile => "event_changed_meanwhile",

    // Event settings and status.
    SwissRoundsOutOfRange { min: i32, max: i32 } => "swiss_rounds_out_of_range",
    /// A Keizer season plans at most `max` rounds, or leaves them open (0).
    KeizerRoundsOutOfRange { max: i32 } => "keizer_rounds_out_of_range",
    /// A Keizer option's share of a value number is more than six sixths.
    KeizerShareTooLarge { field: String, max: u32 } => "keizer_share_too_large",
    /// A Keizer option outside the bounds that keep every score exact and small.
    KeizerOptionOutOfRange { field: String, min: u32, max: u32 } => "keizer_option_out_of_range",
    EndsBeforeStart => "ends_before_start",
    InvalidByePoints => "invalid_bye_points",
    /// The variant and the system are fixed once a round is paired.
    FixedOncePaired => "fixed_once_paired",
    FewerRoundsThanPaired => "fewer_rounds_than_paired",
    /// An opening table that is not played in the event's variant.
    BallotNotForVariant { ballot: String, variant: String } => "ballot_not_for_variant",
    /// The organiser's own opening table, at the entry that cannot be used.
    BadOpeningTable { line: usize, problem: Box<Refusal> } => "bad_opening_table",
    /// The organiser's own opening table has no opening.
    EmptyOpeningTable => "empty_opening_table",
    OpeningTableTooLarge { bytes: usize, limit: usize } => "opening_table_too_large",
    OpeningTableTooMany { limit: usize } => "opening_table_too_many",
    OpeningTooLong { code: String, plies: usize, limit: usize } => "opening_too_long",
    OpeningCodeTooLong { code: String, limit: usize } => "opening_code_too_long",
    /// A move of an opening the engine refuses: the opening, its ply, the move as written
    /// and the engine's reason.
    OpeningBadMove { code: String, ply: usize, text: String, reason: Box<Refusal> } => "opening_bad_move",
    OpeningBadFen { code: String, reason: String } => "opening_bad_fen",
    /// The opening leaves no game to play (over after `ply` plies; 0: its position).
    OpeningGameOver { code: String, ply: usize } => "opening_game_over",
    OpeningCodeTwice { code: String, first_line: usize } => "opening_code_twice",
    EventFinished => "event_finished",
    EventFinishedReopenToChange => "event_finished_reopen_to_change",
    EventFinishedReopenToCorrect => "event_finished_reopen_to_correct",
    EventNotFinished => "event_not_finished",
    UnpublishedRoundLeft => "unpublished_round_left",
    ResultsMissing => "results_missing",

    // Tie-break lists.
    UnknownTiebreak { name: String } => "unknown_tiebreak",
    UnknownTiebreakModifier { modifier: String, tiebreak: String } => "unknown_tiebreak_modifier",
    TiebreakTakesNoModifier { tiebreak: String } => "tiebreak_takes_no_modifier",
    EmptyTiebreak => "empty_tiebreak",

    // Entries.
    OnlyOrganiserEntersOthers => "only_organiser_enters_others",
    NoProfileToEnter => "no_profile_to_enter",
    SelfRegistrationClosed => "self_registration_closed",
    AlreadyEntered => "already_entered",
    RoundRobinStarted => "round_robin_started",
    LateEntriesClosed => "late_entries_closed",
    InvalidAbsenceKind => "invalid_absence_kind",
    RoundAlreadyPaired => "round_already_paired",
    NoHalfPointByeInRoundRobin => "no_half_point_bye_in_round_robin",
    PairNeedsTwoPlayers => "pair_needs_two_players",
    NotAnEntry => "not_an_entry",

    // Rounds and results.
    TooFewPlayers => "too_few_players",
    /// A Keizer round: fewer than two players are present.
    TooFewPresent { present: u32 } => "too_few_present",
    RoundNotPublished { round: i32 } => "round_not_published",
    RoundIncomplete { round: i32, missing: usize } => "round_incomplete",
    AllRoundsPaired { rounds: u32 } => "all_rounds_paired",
    NoRoundPaired => "no_round_paired",
    RoundHasResults { round: i32 } => "round_has_results",
    RoundAlreadyPublished { round: i32 } => "round_already_published",
    ByeHasNoResult => "bye_has_no_result",
    PublishBeforeResults => "publish_before_results",
    OnlyLastRoundResultClears => "only_last_round_result_clears",
    /// A micro-match's games have their own results; the pairing as a whole only a forfeit.
    MicroMatchResultPerGame { games: i32 } => "micro_match_result_per_game",
    NoValidPairing => "no_valid_pairing",
    RoundCountUnknown => "round_count_unknown",
    TooLargeToPair { bits: usize } => "too_large_to_pair",
    RoundRobinPlayerCount { min: u32, max: u32, players: u32 } => "round_robin_player_count",
    NoSuchRoundInCycle { round: u32, players: u32, rounds: u32 } => "no_such_round_in_cycle",
    RoundRobinCycles { cycles: u32 } => "round_robin_cycles",

    // Standings over a stored history.
    NoSuchRound { round: u32, rounds: u32 } => "no_such_round",
    StandingsAfterUnplayedRound { after: u32, played: u32 } => "standings_after_unplayed_round",
    OpponentNotInEvent { player: u32, opponent: u32, round: u32 } => "opponent_not_in_event",
    StartNumberTwice { start_no: u32 } => "start_number_twice",

    // A pairing changed by hand.
    OnlyLastRoundChanges { round: i32 } => "only_last_round_changes",
    NoSuchStartNumber { start_no: i64 } => "no_such_start_number",
    NotAStartNumber { value: String } => "not_a_start_number",
    RowNeedsTwoPlayers { row: usize } => "row_needs_two_players",
    PlayerWithdrew { player: i32, round: i32 } => "player_withdrew",
    PlayerJoinsLater { player: i32, round: i32 } => "player_joins_later",
    RoundNeedsABoard => "round_needs_a_board",
    /// Everything that makes a proposed pairing impossible, all at once.
    ImpossiblePairing { problems: Vec<Refusal> } => "impossible_pairing",
    PlayerNotInEvent { player: u32 } => "player_not_in_event",
    PlayerPlacedTwice { player: u32 } => "player_placed_twice",
    PairedWithThemself { player: u32 } => "paired_with_themself",
    PlayerLeftOut { player: u32 } => "player_left_out",

    // Importing a TRF.
    TrfTooLarge { bytes: usize, limit: usize } => "trf_too_large",
    TrfTooManyPlayers { found: usize, limit: usize } => "trf_too_many_players",
    TrfTooManyRounds { found: usize, limit: usize } => "trf_too_many_rounds",
    TrfTooManyForbiddenPairs { found: usize, limit: usize } => "trf_too_many_forbidden_pairs",
    /// A problem at a line and column of the file.
    TrfAt { line: usize, column: usize, problem: Box<Refusal> } => "trf_at",
    /// A problem at a column of several lines.
    TrfAtColumn { column: usize, problem: Box<Refusal> } => "trf_at_column",
    /// A problem of the whole file.
    TrfFile { problem: Box<Refusal> } => "trf_file",
    TrfInvalidPlayerNumber { text: String } => "trf_invalid_player_number",
    TrfPairedWithHimself => "trf_paired_with_himself",
    TrfInvalidCellColour { text: String } => "trf_invalid_cell_colour",
    TrfInvalidResult { text: String } => "trf_invalid_result",
    TrfGameWithoutColour => "trf_game_without_colour",
    TrfByeWithColour => "trf_bye_with_colour",
    TrfLineTooShort => "trf_line_too_short",
    TrfInvalidRating { text: String } => "trf_invalid_rating",
    TrfInvalidPoints { text: String } => "trf_invalid_points",
    TrfCharacterBetweenCells => "trf_character_between_cells",
    TrfIncompleteCell => "trf_incomplete_cell",
    TrfInvalidHalfPoints { text: String } => "trf_invalid_half_points",
    TrfUnsupportedPointCode { text: String } => "trf_unsupported_point_code",
    TrfInvalidRoundCount { text: String } => "trf_invalid_round_count",
    TrfInvalidFirstColour { text: String } => "trf_invalid_first_colour",
    TrfInvalidScore { text: String } => "trf_invalid_score",
    TrfScoreTooLarge { text: String } => "trf_score_too_large",
    TrfPlayerTwice { player: u32 } => "trf_player_twice",
    TrfUnknownOpponent { opponent: u32 } => "trf_unknown_opponent",
    TrfEntryAfterUnpairedRound => "trf_entry_after_unpaired_round",
    TrfMoreRoundsThanXxr { played: usize, total: u32 } => "trf_more_rounds_than_xxr",
    TrfContradictingEntries {
        round: usize,
        player: u32,
        opponent: u32,
    } => "trf_contradicting_entries",
    TrfForbiddenPairUnknownPlayer { player: u32 } => "trf_forbidden_pair_unknown_player",
    /// Two players of the file with one federation id (at the second one's line).
    TrfFederationIdTwice {
        line: usize,
        first: u32,
        second: u32,
        id: String,
    } => "trf_federation_id_twice",
    /// Points per result other than 1 - 1/2 - 0 (the file's figures, as `3.0`).
    TrfPointsUnsupported {
        win: String,
        draw: String,
        loss: String,
        bye: String,
    } => "trf_points_unsupported",
    TrfNoOpponent {
        line: usize,
        column: usize,
        round: usize,
        player: u32,
        opponent: u32,
    } => "trf_no_opponent",
    /// Only half-point byes (H) and absences (Z) can be asked for the next round.
    TrfFullPointByeRequested {
        line: usize,
        column: usize,
        player: u32,
    } => "trf_full_point_bye_requested",
    /// The two players' cells of one game tell different stories (the cells as written).
    TrfLinesDisagree {
        line: usize,
        column: usize,
        round: usize,
        player: u32,
        opponent: u32,
        cell: String,
        opponent_line: usize,
        opponent_cell: String,
    } => "trf_lines_disagree",
    InvalidStartNumber { start_no: u32 } => "invalid_start_number",
    ImportProfilesChanged => "import_profiles_changed",

    // Ratings.
    OnlyOrganisersImportRatings => "only_organisers_import_ratings",
    /// A number (a decimal point allowed) was expected.
    NotANumber => "not_a_number",
    /// Bytes that are not UTF-8, at this offset of the file.
    RatingsCsvNotUtf8 { offset: usize } => "ratings_csv_not_utf8",
    /// Everything wrong with a ratings file, line by line; nothing was stored.
    RatingsCsvInvalid { problems: Vec<Refusal> } => "ratings_csv_invalid",
    /// A problem of a whole line of the file.
    RatingsCsvAt { line: usize, problem: Box<Refusal> } => "ratings_csv_at",
    /// A problem of one cell: its line and column.
    RatingsCsvCell { line: usize, column: String, problem: Box<Refusal> } => "ratings_csv_cell",
    /// No header line, or no data line.
    RatingsCsvEmpty => "ratings_csv_empty",
    /// The last entry of a long list of a file's problems: how many more there are.
    RatingsCsvMoreProblems { more: usize } => "ratings_csv_more_problems",
    RatingsCsvUnclosedQuote => "ratings_csv_unclosed_quote",
    RatingsCsvUnknownColumn { column: String, allowed: Vec<String> } => "ratings_csv_unknown_column",
    RatingsCsvColumnTwice { column: String } => "ratings_csv_column_twice",
    RatingsCsvMissingColumns { columns: Vec<String> } => "ratings_csv_missing_columns",
    /// The header has neither `player_id` nor `federation_id`.
    RatingsCsvNoPlayerColumn => "ratings_csv_no_player_column",
    /// A line with neither a player id nor a federation id.
    RatingsCsvNoPlayer => "ratings_csv_no_player",
    RatingsCsvFieldCount { found: usize, expected: usize } => "ratings_csv_field_count",
    RatingsCsvUnknownFederationId { id: String } => "ratings_csv_unknown_federation_id",
    /// Two profiles carry this federation id: the line names neither.
    RatingsCsvFederationIdShared { id: String } => "ratings_csv_federation_id_shared",
    /// `rd` and `volatility` belong to Glicko-2 lines.
    RatingsCsvGlickoOnly => "ratings_csv_glicko_only",
    /// A Glicko-2 volatility must be above 0 and at most 0.1.
    RatingsCsvVolatilityRange => "ratings_csv_volatility_range",
    /// The same player, variant and system as an earlier line.
    RatingsCsvDuplicate { first_line: usize } => "ratings_csv_duplicate",

    // Games.
    /// The actor is neither a player of the game nor one of its arbiters.
    NotInGame => "not_in_game",
    /// A player acting when it is the opponent's turn (or offering a draw not right after
    /// their own move).
    NotYourTurn => "not_your_turn",
    /// Only the game's arbiters set results and take moves back.
    OnlyGameArbiters => "only_game_arbiters",
    /// Offers, answers and resignations belong to the players.
    OnlyPlayersOfGame => "only_players_of_game",
    OnlyPlayersOrOrganisersCreateGames => "only_players_or_organisers_create_games",
    SamePlayerBothSides => "same_player_both_sides",
    /// A casual game is offered by a player: the account needs its own profile.
    NoProfileToPlay => "no_profile_to_play",
    /// A challenge names no opponent (neither chosen from the list nor typed).
    OpponentMissing => "opponent_missing",
    /// No profile has this name.
    NoPlayerNamed { name: String } => "no_player_named",
    /// Several profiles have this name: the form asks for a choice from the list.
    SeveralPlayersNamed { name: String, count: usize } => "several_players_named",
    GameOver => "game_over",
    /// The mover's time was over when the move arrived: the game is lost on time.
    FlagFallen => "flag_fallen",
    /// Clocks were to be started in a game or round played without them.
    NotTimed => "not_timed",
    /// Another move is stored at this ply (the stored one, canonical).
    PlyTaken { ply: i32, stored: String } => "ply_taken",
    /// The submission skips plies: the game has `ply` plies, the next is `expected`.
    PlyAhead { ply: i32, expected: i32 } => "ply_ahead",
    /// The engine refused the move: why, and the legal moves.
    IllegalMove { reason: Box<Refusal>, legal_moves: Vec<String> } => "illegal_move",
    MoveEmpty => "move_empty",
    MoveMalformed { text: String } => "move_malformed",
    MoveNotASquare { text: String } => "move_not_a_square",
    MoveNoPiece { square: String } => "move_no_piece",
    MoveNotYourPiece { square: String } => "move_not_your_piece",
    MoveCaptureCompulsory { capturers: Vec<String> } => "move_capture_compulsory",
    MoveIllegalPath { text: String } => "move_illegal_path",
    MoveAmbiguous { candidates: Vec<String> } => "move_ambiguous",
    /// Each side must have made `min` moves; `moves_needed` more to go.
    DrawOfferTooEarly { moves_needed: u32, min: u32 } => "draw_offer_too_early",
    DrawOfferPending => "draw_offer_pending",
    /// One offer per own move.
    DrawOfferRepeated => "draw_offer_repeated",
    NoDrawOffer => "no_draw_offer",
    /// A player cannot answer their own offer.
    OwnDrawOffer => "own_draw_offer",
    NothingToTakeBack => "nothing_to_take_back",
    /// The position ends the game by the rules; its result cannot be cleared.
    GameOverByRules => "game_over_by_rules",
    /// A forfeit for a board whose game has moves.
    GameHasMoves { plies: i32 } => "game_has_moves",
    /// A typed result for a board whose game is being played (it has `moves` moves and is
    /// not over): ending it is the arbiter's decision, confirmed with `end_game`.
    GameInProgress { moves: i32, result: String } => "game_in_progress",
    /// A change that would take away a board whose game has moves.
    RoundHasPlayedGames { round: i32, board: i32, plies: i32 } => "round_has_played_games",

    // Importing a round's games from PDN.
    /// Bytes that are not UTF-8, at this offset of the file.
    PdnNotUtf8 { offset: usize } => "pdn_not_utf8",
    /// The engine's PDN reader stopped here: what it found, as one of the `pdn_*` problems
    /// below.
    PdnUnreadable { line: usize, column: usize, problem: Box<Refusal> } => "pdn_unreadable",
    PdnTagNotClosed => "pdn_tag_not_closed",
    /// A tag not written `[Name "value"]` (as found).
    PdnBadTag { text: String } => "pdn_bad_tag",
    PdnCommentNotClosed => "pdn_comment_not_closed",
    PdnVariationNotClosed => "pdn_variation_not_closed",
    PdnUnexpectedCharacter { text: String } => "pdn_unexpected_character",
    /// A GameType that names no variant the engine plays.
    PdnUnknownGameType { text: String } => "pdn_unknown_game_type",
    /// A FEN tag that is not a position.
    PdnBadFen => "pdn_bad_fen",
    /// The file holds no game.
    PdnEmpty => "pdn_empty",
    /// More games than the round has.
    PdnTooManyGames { found: usize, limit: usize } => "pdn_too_many_games",
    /// Game `game` of the file (1-based) fits no game of the round: neither its Board tag
    /// nor its White and Black tags.
    PdnNoMatchingGame { game: usize, white: String, black: String } => "pdn_no_matching_game",
    /// Two games of the file are for one board.
    PdnBoardTwice { board: i32, first: usize, second: usize } => "pdn_board_twice",
    /// Game `game` starts from another position (FEN or GameType) than the round's game.
    PdnStartPositionDiffers { game: usize } => "pdn_start_position_differs",
    /// The first move of the file the engine refuses: the game, the move number as the
    /// file numbers it, the side, the move as written, and the engine's reason.
    PdnIllegalMove {
        game: usize,
        move_number: usize,
        side: damka_engine::Color,
        text: String,
        reason: Box<Refusal>,
    } => "pdn_illegal_move",
    /// The board's game already has moves and the file's game does not begin with them
    /// (the first half-move that differs, or the one the file lacks).
    PdnMovesDiffer { game: usize, board: i32, ply: i32 } => "pdn_moves_differ",
}

impl Refusal {
    /// `NotOneOf` for a list of accepted codes.
    pub fn not_one_of(allowed: &[&str]) -> Refusal {
        Refusal::NotOneOf {
            allowed: allowed.iter().map(|a| (*a).to_string()).collect(),
        }
    }
}

/// The code and its arguments: what logs and the command line show (the web shows text).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())?;
        let args = self.args();
        if args.is_empty() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match arg {
                Arg::Number(n) => write!(f, "{n}")?,
                Arg::Text(text) => write!(f, "{text:?}")?,
                Arg::Term(key) => f.write_str(key)?,
                Arg::Refusals(list) => {
                    for (j, refusal) in list.iter().enumerate() {
                        if j > 0 {
                            f.write_str("; ")?;
                        }
                        write!(f, "{refusal}")?;
                    }
                }
            }
        }
        f.write_str(")")
    }
}

impl From<KeizerOptionsError> for Refusal {
    fn from(err: KeizerOptionsError) -> Refusal {
        let out_of_range = |field: &str, min, max| Refusal::KeizerOptionOutOfRange {
            field: field.to_string(),
            min,
            max,
        };
        match err {
            KeizerOptionsError::ShareTooLarge { field, .. } => Refusal::KeizerShareTooLarge {
                field: field.to_string(),
                max: MAX_SIXTHS,
            },
            KeizerOptionsError::TopValue => out_of_range("top_value", 1, 100_000),
            KeizerOptionsError::ValueStep => out_of_range("value_step", 1, 1000),
            KeizerOptionsError::RepeatGap => out_of_range("repeat_gap", 0, 100),
            KeizerOptionsError::MaxScoredAbsences => out_of_range("max_scored_absences", 0, 1000),
        }
    }
}

impl From<PlacementError> for Refusal {
    fn from(err: PlacementError) -> Refusal {
        match err {
            PlacementError::UnknownPlayer(player) => Refusal::PlayerNotInEvent { player },
            PlacementError::PlacedTwice(player) => Refusal::PlayerPlacedTwice { player },
            PlacementError::PairedWithSelf(player) => Refusal::PairedWithThemself { player },
            PlacementError::NotPlaced(player) => Refusal::PlayerLeftOut { player },
        }
    }
}

impl From<PairingError> for Refusal {
    fn from(err: PairingError) -> Refusal {
        match err {
            PairingError::NoValidPairing => Refusal::NoValidPairing,
            PairingError::UnknownRoundCount => Refusal::RoundCountUnknown,
            PairingError::EventFinished(rounds) => Refusal::AllRoundsPaired { rounds },
            PairingError::TooLarge(bits) => Refusal::TooLargeToPair { bits },
            // The use cases refuse this before pairing; the domain refuses it too.
            PairingError::UnplayedGames(_) => Refusal::ResultsMissing,
        }
    }
}

impl From<BergerError> for Refusal {
    fn from(err: BergerError) -> Refusal {
        use damka_domain::berger::{MAX_PLAYERS, MIN_PLAYERS};
        match err {
            BergerError::PlayerCount(players) => Refusal::RoundRobinPlayerCount {
                min: MIN_PLAYERS,
                max: MAX_PLAYERS,
                players,
            },
            BergerError::Round {
                players,
                round,
                rounds,
            } => Refusal::NoSuchRoundInCycle {
                round,
                players,
                rounds,
            },
            BergerError::Cycles(cycles) => Refusal::RoundRobinCycles { cycles },
        }
    }
}

impl From<HistoryError> for Refusal {
    fn from(err: HistoryError) -> Refusal {
        match err {
            HistoryError::UnknownOpponent {
                player,
                opponent,
                round,
            } => Refusal::OpponentNotInEvent {
                player,
                opponent,
                round,
            },
            HistoryError::DuplicateStartNo(start_no) => Refusal::StartNumberTwice { start_no },
            HistoryError::SelfPairing(player) => Refusal::PairedWithThemself { player },
            HistoryError::RoundOutOfRange { after, played } => {
                Refusal::StandingsAfterUnplayedRound { after, played }
            }
        }
    }
}

impl From<StandingsError> for Refusal {
    fn from(err: StandingsError) -> Refusal {
        match err {
            StandingsError::History(history) => history.into(),
            StandingsError::PlayerNotFound(start_no) => Refusal::NoSuchStartNumber {
                start_no: start_no.into(),
            },
            StandingsError::NoSuchRound { round, rounds } => Refusal::NoSuchRound { round, rounds },
        }
    }
}

impl From<TieBreakParseError> for Refusal {
    fn from(err: TieBreakParseError) -> Refusal {
        match err {
            TieBreakParseError::Unknown(name) => Refusal::UnknownTiebreak { name },
            TieBreakParseError::Modifier { code, modifier } => Refusal::UnknownTiebreakModifier {
                modifier,
                tiebreak: code,
            },
            TieBreakParseError::NoModifierAllowed(tiebreak) => {
                Refusal::TiebreakTakesNoModifier { tiebreak }
            }
            TieBreakParseError::Empty => Refusal::EmptyTiebreak,
        }
    }
}

/// A TRF that cannot be read: the problem, placed at its line and column when it has them.
impl From<TrfError> for Refusal {
    fn from(err: TrfError) -> Refusal {
        let quoted = |text: String| format!("{text:?}");
        let problem = match err.problem {
            TrfProblem::TooMany { what, found, limit } => {
                return match what {
                    Limited::Players => Refusal::TrfTooManyPlayers { found, limit },
                    Limited::Rounds => Refusal::TrfTooManyRounds { found, limit },
                    Limited::ForbiddenPairs => Refusal::TrfTooManyForbiddenPairs { found, limit },
                };
            }
            TrfProblem::InvalidPlayerNumber(text) => {
                Refusal::TrfInvalidPlayerNumber { text: quoted(text) }
            }
            TrfProblem::PairedWithHimself => Refusal::TrfPairedWithHimself,
            TrfProblem::InvalidCellColour(c) => Refusal::TrfInvalidCellColour {
                text: format!("{c:?}"),
            },
            TrfProblem::InvalidResult(c) => Refusal::TrfInvalidResult {
                text: format!("{c:?}"),
            },
            TrfProblem::GameWithoutColour => Refusal::TrfGameWithoutColour,
            TrfProblem::ByeWithColour => Refusal::TrfByeWithColour,
            TrfProblem::LineTooShort => Refusal::TrfLineTooShort,
            TrfProblem::InvalidRating(text) => Refusal::TrfInvalidRating { text: quoted(text) },
            TrfProblem::InvalidPoints(text) => Refusal::TrfInvalidPoints { text: quoted(text) },
            TrfProblem::CharacterBetweenCells => Refusal::TrfCharacterBetweenCells,
            TrfProblem::IncompleteCell => Refusal::TrfIncompleteCell,
            TrfProblem::InvalidHalfPoints(text) => {
                Refusal::TrfInvalidHalfPoints { text: quoted(text) }
            }
            TrfProblem::UnsupportedPointCode(c) => Refusal::TrfUnsupportedPointCode {
                text: format!("{c:?}"),
            },
            TrfProblem::InvalidRoundCount(text) => {
                Refusal::TrfInvalidRoundCount { text: quoted(text) }
            }
            TrfProblem::InvalidFirstColour(text) => {
                Refusal::TrfInvalidFirstColour { text: quoted(text) }
            }
            TrfProblem::InvalidScore(text) => Refusal::TrfInvalidScore { text: quoted(text) },
            TrfProblem::ScoreTooLarge(text) => Refusal::TrfScoreTooLarge { text: quoted(text) },
            TrfProblem::PlayerTwice(player) => Refusal::TrfPlayerTwice { player },
            TrfProblem::UnknownOpponent(opponent) => Refusal::TrfUnknownOpponent { opponent },
            TrfProblem::EntryAfterUnpairedRound => Refusal::TrfEntryAfterUnpairedRound,
            TrfProblem::MoreRoundsThanXxr { played, total } => {
                Refusal::TrfMoreRoundsThanXxr { played, total }
            }
            TrfProblem::ContradictingEntries {
                round,
                player,
                opponent,
            } => Refusal::TrfContradictingEntries {
                round,
                player,
                opponent,
            },
            TrfProblem::ForbiddenPairUnknownPlayer(player) => {
                Refusal::TrfForbiddenPairUnknownPlayer { player }
            }
            // Until the catalogue has texts of their own: the nearest existing refusals.
            TrfProblem::AccelerationUnknownPlayer(player) => Refusal::TrfInvalidPlayerNumber {
                text: quoted(player.to_string()),
            },
            TrfProblem::TooManyAccelerations {
                entries, rounds, ..
            } => Refusal::TrfMoreRoundsThanXxr {
                played: entries,
                total: u32::try_from(rounds).unwrap_or(u32::MAX),
            },
        };
        let problem = Box::new(problem);
        match (err.line, err.column) {
            (0, 0) => Refusal::TrfFile { problem },
            (0, column) => Refusal::TrfAtColumn { column, problem },
            (line, column) => Refusal::TrfAt {
                line,
                column,
                problem,
            },
        }
    }
}

#[cfg(test)]
pub mod examples {
    //! One example of every refusal, for the tests that walk all codes.
    use super::Refusal;

    /// Every refusal once, with arguments, in declaration order: one constructor a row (a
    /// refusal owns its texts, so the rows build them when called). A test checks that the
    /// codes are exactly `Refusal::CODES`, so a new variant is not forgotten here.
    pub const EXAMPLES: &[fn() -> Refusal] = &[
        || Refusal::Required,
        || Refusal::TooShort { min: 8 },
        || Refusal::TooLong { max: 120 },
        || Refusal::ControlCharacters,
        || Refusal::ControlCharactersInText,
        || Refusal::DirectionControls,
        || Refusal::DateOutOfRange {
            first: 1900,
            last: 2200,
        },
        || Refusal::NotADate,
        || Refusal::YearOutOfRange {
            first: 1900,
            last: 2100,
        },
        || Refusal::NotAnEmail,
        || Refusal::NotACountryCode,
        || Refusal::UnknownTimeZone,
        || Refusal::NotAWholeNumber,
        || Refusal::not_one_of(&["1-0", "0-1"]),
        || Refusal::NotBetween { min: 0, max: 30 },
        || Refusal::UnsupportedLanguage,
        || Refusal::BadCursor,
        || Refusal::BadQueryString { message: text("x") },
        || Refusal::UnreadableJson { message: text("x") },
        || Refusal::NotAForm {
            content_type: text("text/plain"),
        },
        || Refusal::UnreadableForm { message: text("x") },
        || Refusal::AuthorizationNotText,
        || Refusal::AuthorizationNotBearer,
        || Refusal::NulCharacters,
        || Refusal::UnreadableRequest { message: text("x") },
        || Refusal::BodyTimeout { seconds: 10 },
        || Refusal::TooManyConnections { limit: 256 },
        || Refusal::TooManyStreams { limit: 64 },
        || Refusal::AlreadyExists { message: text("x") },
        || Refusal::StillReferenced,
        || Refusal::OnlyAdministrators,
        || Refusal::AdminExists,
        || Refusal::FirstRunClosed,
        || Refusal::InvitationRequired,
        || Refusal::InvitationUnknown,
        || Refusal::InvitationForOtherEmail,
        || Refusal::InvitationJustUsed,
        || Refusal::EmailTaken,
        || Refusal::WrongCurrentPassword,
        || Refusal::CannotDropOwnAdminRole,
        || Refusal::ProfileLinkedElsewhere,
        || Refusal::NoAccountWithEmail,
        || Refusal::OnlyOrganisersCreateClubs,
        || Refusal::ClubNameTaken,
        || Refusal::OnlyClubOrganisersEdit,
        || Refusal::OnlyClubOrganisersChangeMembers,
        || Refusal::OnlyClubOrganisersAnswerRequests,
        || Refusal::NotClubOrganiser,
        || Refusal::NoProfileToJoinClub,
        || Refusal::AlreadyInClub,
        || Refusal::JoinRequestPending,
        || Refusal::RequestAlreadyAnswered,
        || Refusal::NoSuchClub,
        || Refusal::NoSuchPlayer,
        || Refusal::AlreadyHasProfile,
        || Refusal::MayNotEditProfile,
        || Refusal::BulkTooManyLines {
            found: 501,
            limit: 500,
        },
        || Refusal::BulkNothingGiven,
        || Refusal::BulkCsvNoName,
        || Refusal::BulkCsvUnknownColumn {
            column: text("имя"),
        },
        || Refusal::NameAlreadyInClub,
        || Refusal::SeveralClublessNamed { count: 2 },
        || Refusal::ProfileTaken,
        || Refusal::AccountHasProfile,
        || Refusal::OnlyProfileManagers,
        || Refusal::ClaimAlreadyDecided,
        || Refusal::ClaimLinkUsed,
        || Refusal::OnlyManagersOfBothMerge,
        || Refusal::MergeIntoItself,
        || Refusal::SameEvent {
            event: text("Kazan-2026"),
        },
        || Refusal::BothProfilesHaveAccounts,
        || Refusal::PlayerMerged { into: 12 },
        || Refusal::EventArchived,
        || Refusal::EventRunningFinishFirst,
        || Refusal::EventHasRatedResults,
        || Refusal::PlayerHasRecords,
        || Refusal::PlayerArchived,
        || Refusal::ClubHasEvents { count: 3 },
        || Refusal::ClubArchived,
        || Refusal::AlreadyArchived,
        || Refusal::NotArchived,
        || Refusal::OnlyOrganisersCreateEvents,
        || Refusal::OnlyOrganisersImportEvents,
        || Refusal::OnlyEventOrganiser,
        || Refusal::OnlyEventOfficials,
        || Refusal::EventChangedMeanwhile,
        || Refusal::SwissRoundsOutOfRange { min: 1, max: 30 },
        || Refusal::KeizerRoundsOutOfRange { max: 100 },
        || Refusal::KeizerShareTooLarge {
            field: text("bye_sixths"),
            max: 6,
        },
        || Refusal::KeizerOptionOutOfRange {
            field: text("value_step"),
            min: 1,
            max: 1000,
        },
        || Refusal::EndsBeforeStart,
        || Refusal::InvalidByePoints,
        || Refusal::FixedOncePaired,
        || Refusal::FewerRoundsThanPaired,
        || Refusal::BallotNotForVariant {
            ballot: text("english3"),
            variant: text("russian"),
        },
        || Refusal::BadOpeningTable {
            line: 4,
            problem: Box::new(Refusal::OpeningCodeTwice {
                code: text("A"),
                first_line: 2,
            }),
        },
        || Refusal::EmptyOpeningTable,
        || Refusal::OpeningTableTooLarge {
            bytes: 300_000,
            limit: 262_144,
        },
        || Refusal::OpeningTableTooMany { limit: 1000 },
        || Refusal::OpeningTooLong {
            code: text("X"),
            plies: 201,
            limit: 200,
        },
        || Refusal::OpeningCodeTooLong {
            code: text("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
            limit: 32,
        },
        || Refusal::OpeningBadMove {
            code: text("12-IV"),
            ply: 3,
            text: text("d4-e6"),
            reason: Box::new(Refusal::MoveNotASquare { text: text("e6") }),
        },
        || Refusal::OpeningBadFen {
            code: text("P"),
            reason: text("column 7"),
        },
        || Refusal::OpeningGameOver {
            code: text("Z"),
            ply: 0,
        },
        || Refusal::OpeningCodeTwice {
            code: text("A"),
            first_line: 2,
        },
        || Refusal::EventFinished,
        || Refusal::EventFinishedReopenToChange,
        || Refusal::EventFinishedReopenToCorrect,
        || Refusal::EventNotFinished,
        || Refusal::UnpublishedRoundLeft,
        || Refusal::ResultsMissing,
        || Refusal::UnknownTiebreak { name: text("XYZ") },
        || Refusal::UnknownTiebreakModifier {
            modifier: text("Q1"),
            tiebreak: text("BH/Q1"),
        },
        || Refusal::TiebreakTakesNoModifier {
            tiebreak: text("WIN/C1"),
        },
        || Refusal::EmptyTiebreak,
        || Refusal::OnlyOrganiserEntersOthers,
        || Refusal::NoProfileToEnter,
        || Refusal::SelfRegistrationClosed,
        || Refusal::AlreadyEntered,
        || Refusal::RoundRobinStarted,
        || Refusal::LateEntriesClosed,
        || Refusal::InvalidAbsenceKind,
        || Refusal::RoundAlreadyPaired,
        || Refusal::NoHalfPointByeInRoundRobin,
        || Refusal::PairNeedsTwoPlayers,
        || Refusal::NotAnEntry,
        || Refusal::TooFewPlayers,
        || Refusal::TooFewPresent { present: 1 },
        || Refusal::RoundNotPublished { round: 3 },
        || Refusal::RoundIncomplete {
            round: 3,
            missing: 12,
        },
        || Refusal::AllRoundsPaired { rounds: 9 },
        || Refusal::NoRoundPaired,
        || Refusal::RoundHasResults { round: 2 },
        || Refusal::RoundAlreadyPublished { round: 3 },
        || Refusal::ByeHasNoResult,
        || Refusal::PublishBeforeResults,
        || Refusal::OnlyLastRoundResultClears,
        || Refusal::MicroMatchResultPerGame { games: 2 },
        || Refusal::NoValidPairing,
        || Refusal::RoundCountUnknown,
        || Refusal::TooLargeToPair { bits: 130 },
        || Refusal::RoundRobinPlayerCount {
            min: 2,
            max: 1000,
            players: 1,
        },
        || Refusal::NoSuchRoundInCycle {
            round: 9,
            players: 6,
            rounds: 5,
        },
        || Refusal::RoundRobinCycles { cycles: 3 },
        || Refusal::NoSuchRound {
            round: 7,
            rounds: 3,
        },
        || Refusal::StandingsAfterUnplayedRound {
            after: 7,
            played: 3,
        },
        || Refusal::OpponentNotInEvent {
            player: 1,
            opponent: 40,
            round: 2,
        },
        || Refusal::StartNumberTwice { start_no: 4 },
        || Refusal::OnlyLastRoundChanges { round: 4 },
        || Refusal::NoSuchStartNumber { start_no: 99 },
        || Refusal::NotAStartNumber { value: text("x") },
        || Refusal::RowNeedsTwoPlayers { row: 2 },
        || Refusal::PlayerWithdrew {
            player: 4,
            round: 3,
        },
        || Refusal::PlayerJoinsLater {
            player: 4,
            round: 3,
        },
        || Refusal::RoundNeedsABoard,
        || Refusal::ImpossiblePairing {
            problems: vec![
                Refusal::PlayerPlacedTwice { player: 4 },
                Refusal::PlayerLeftOut { player: 7 },
            ],
        },
        || Refusal::PlayerNotInEvent { player: 40 },
        || Refusal::PlayerPlacedTwice { player: 4 },
        || Refusal::PairedWithThemself { player: 4 },
        || Refusal::PlayerLeftOut { player: 7 },
        || Refusal::TrfTooLarge {
            bytes: 2_000_000,
            limit: 1_048_576,
        },
        || Refusal::TrfTooManyPlayers {
            found: 5001,
            limit: 5000,
        },
        || Refusal::TrfTooManyRounds {
            found: 51,
            limit: 50,
        },
        || Refusal::TrfTooManyForbiddenPairs {
            found: 19_900,
            limit: 10_000,
        },
        || Refusal::TrfAt {
            line: 9,
            column: 92,
            problem: problem(),
        },
        || Refusal::TrfAtColumn {
            column: 92,
            problem: problem(),
        },
        || Refusal::TrfFile { problem: problem() },
        || Refusal::TrfInvalidPlayerNumber {
            text: text("\"x\""),
        },
        || Refusal::TrfPairedWithHimself,
        || Refusal::TrfInvalidCellColour { text: text("'x'") },
        || Refusal::TrfInvalidResult { text: text("'x'") },
        || Refusal::TrfGameWithoutColour,
        || Refusal::TrfByeWithColour,
        || Refusal::TrfLineTooShort,
        || Refusal::TrfInvalidRating {
            text: text("\"x\""),
        },
        || Refusal::TrfInvalidPoints {
            text: text("\"x\""),
        },
        || Refusal::TrfCharacterBetweenCells,
        || Refusal::TrfIncompleteCell,
        || Refusal::TrfInvalidHalfPoints {
            text: text("\"0.3\""),
        },
        || Refusal::TrfUnsupportedPointCode { text: text("'Q'") },
        || Refusal::TrfInvalidRoundCount {
            text: text("\"x\""),
        },
        || Refusal::TrfInvalidFirstColour {
            text: text("\"x\""),
        },
        || Refusal::TrfInvalidScore {
            text: text("\"x\""),
        },
        || Refusal::TrfScoreTooLarge {
            text: text("\"1151\""),
        },
        || Refusal::TrfPlayerTwice { player: 3 },
        || Refusal::TrfUnknownOpponent { opponent: 40 },
        || Refusal::TrfEntryAfterUnpairedRound,
        || Refusal::TrfMoreRoundsThanXxr {
            played: 5,
            total: 3,
        },
        || Refusal::TrfContradictingEntries {
            round: 2,
            player: 1,
            opponent: 3,
        },
        || Refusal::TrfForbiddenPairUnknownPlayer { player: 40 },
        || Refusal::TrfFederationIdTwice {
            line: 4,
            first: 1,
            second: 2,
            id: text("4100018"),
        },
        || Refusal::TrfPointsUnsupported {
            win: text("3.0"),
            draw: text("1.0"),
            loss: text("0.0"),
            bye: text("3.0"),
        },
        || Refusal::TrfNoOpponent {
            line: 3,
            column: 92,
            round: 1,
            player: 1,
            opponent: 9,
        },
        || Refusal::TrfFullPointByeRequested {
            line: 3,
            column: 102,
            player: 1,
        },
        || Refusal::TrfLinesDisagree {
            line: 3,
            column: 92,
            round: 1,
            player: 1,
            opponent: 2,
            cell: text("2 w 1"),
            opponent_line: 4,
            opponent_cell: text("1 w 0"),
        },
        || Refusal::InvalidStartNumber { start_no: 3 },
        || Refusal::ImportProfilesChanged,
        || Refusal::OnlyOrganisersImportRatings,
        || Refusal::NotANumber,
        || Refusal::RatingsCsvNotUtf8 { offset: 17 },
        || Refusal::RatingsCsvInvalid {
            problems: vec![
                Refusal::RatingsCsvCell {
                    line: 3,
                    column: text("rating"),
                    problem: Box::new(Refusal::NotAWholeNumber),
                },
                Refusal::RatingsCsvAt {
                    line: 4,
                    problem: Box::new(Refusal::RatingsCsvNoPlayer),
                },
            ],
        },
        || Refusal::RatingsCsvAt {
            line: 2,
            problem: Box::new(Refusal::RatingsCsvFieldCount {
                found: 3,
                expected: 5,
            }),
        },
        || Refusal::RatingsCsvCell {
            line: 7,
            column: text("variant"),
            problem: Box::new(Refusal::not_one_of(&["russian", "english"])),
        },
        || Refusal::RatingsCsvEmpty,
        || Refusal::RatingsCsvMoreProblems { more: 39_900 },
        || Refusal::RatingsCsvUnclosedQuote,
        || Refusal::RatingsCsvUnknownColumn {
            column: text("elo"),
            allowed: vec![text("player_id"), text("rating")],
        },
        || Refusal::RatingsCsvColumnTwice {
            column: text("rating"),
        },
        || Refusal::RatingsCsvMissingColumns {
            columns: vec![text("system"), text("rating")],
        },
        || Refusal::RatingsCsvNoPlayerColumn,
        || Refusal::RatingsCsvNoPlayer,
        || Refusal::RatingsCsvFieldCount {
            found: 3,
            expected: 5,
        },
        || Refusal::RatingsCsvUnknownFederationId {
            id: text("RUS-1234"),
        },
        || Refusal::RatingsCsvFederationIdShared {
            id: text("RUS-1234"),
        },
        || Refusal::RatingsCsvGlickoOnly,
        || Refusal::RatingsCsvVolatilityRange,
        || Refusal::RatingsCsvDuplicate { first_line: 2 },
        || Refusal::NotInGame,
        || Refusal::NotYourTurn,
        || Refusal::OnlyGameArbiters,
        || Refusal::OnlyPlayersOfGame,
        || Refusal::OnlyPlayersOrOrganisersCreateGames,
        || Refusal::SamePlayerBothSides,
        || Refusal::NoProfileToPlay,
        || Refusal::OpponentMissing,
        || Refusal::NoPlayerNamed {
            name: text("Пётр Иванов"),
        },
        || Refusal::SeveralPlayersNamed {
            name: text("Пётр Иванов"),
            count: 2,
        },
        || Refusal::GameOver,
        || Refusal::FlagFallen,
        || Refusal::NotTimed,
        || Refusal::PlyTaken {
            ply: 3,
            stored: text("b6-a5"),
        },
        || Refusal::PlyAhead {
            ply: 2,
            expected: 3,
        },
        || Refusal::IllegalMove {
            reason: Box::new(Refusal::MoveNoPiece { square: text("d4") }),
            legal_moves: vec![text("c3-d4"), text("e3-f4")],
        },
        || Refusal::MoveEmpty,
        || Refusal::MoveMalformed { text: text("zz") },
        || Refusal::MoveNotASquare { text: text("z9") },
        || Refusal::MoveNoPiece { square: text("d4") },
        || Refusal::MoveNotYourPiece { square: text("f6") },
        || Refusal::MoveCaptureCompulsory {
            capturers: vec![text("c3"), text("e3")],
        },
        || Refusal::MoveIllegalPath {
            text: text("c3-c5"),
        },
        || Refusal::MoveAmbiguous {
            candidates: vec![text("d2:f4:d6"), text("d2:b4:d6")],
        },
        || Refusal::DrawOfferTooEarly {
            moves_needed: 1,
            min: 20,
        },
        || Refusal::DrawOfferPending,
        || Refusal::DrawOfferRepeated,
        || Refusal::NoDrawOffer,
        || Refusal::OwnDrawOffer,
        || Refusal::NothingToTakeBack,
        || Refusal::GameOverByRules,
        || Refusal::GameHasMoves { plies: 12 },
        || Refusal::GameInProgress {
            moves: 23,
            result: text("1-0"),
        },
        || Refusal::RoundHasPlayedGames {
            round: 2,
            board: 3,
            plies: 7,
        },
        || Refusal::PdnNotUtf8 { offset: 1041 },
        || Refusal::PdnUnreadable {
            line: 12,
            column: 3,
            problem: Box::new(Refusal::PdnCommentNotClosed),
        },
        || Refusal::PdnTagNotClosed,
        || Refusal::PdnBadTag {
            text: text("[White Иванов]"),
        },
        || Refusal::PdnCommentNotClosed,
        || Refusal::PdnVariationNotClosed,
        || Refusal::PdnUnexpectedCharacter { text: text("'}'") },
        || Refusal::PdnUnknownGameType { text: text("99") },
        || Refusal::PdnBadFen,
        || Refusal::PdnEmpty,
        || Refusal::PdnTooManyGames { found: 9, limit: 8 },
        || Refusal::PdnNoMatchingGame {
            game: 3,
            white: text("Ivanov"),
            black: text("Petrov"),
        },
        || Refusal::PdnBoardTwice {
            board: 2,
            first: 1,
            second: 4,
        },
        || Refusal::PdnStartPositionDiffers { game: 2 },
        || Refusal::PdnIllegalMove {
            game: 2,
            move_number: 12,
            side: damka_engine::Color::Black,
            text: text("f6-e5"),
            reason: Box::new(Refusal::MoveCaptureCompulsory {
                capturers: vec![text("d6")],
            }),
        },
        || Refusal::PdnMovesDiffer {
            game: 1,
            board: 3,
            ply: 7,
        },
    ];

    /// Every example, built.
    pub fn all() -> Vec<Refusal> {
        EXAMPLES.iter().map(|example| example()).collect()
    }

    /// The problem on a line of a TRF, in the examples that carry one.
    fn problem() -> Box<Refusal> {
        Box::new(Refusal::TrfIncompleteCell)
    }

    fn text(t: &str) -> String {
        t.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case_and_every_one_has_an_example() {
        let mut seen = std::collections::HashSet::new();
        for code in Refusal::CODES {
            assert!(seen.insert(code), "{code} twice");
            assert!(
                code.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{code}"
            );
        }
        let examples: Vec<&str> = examples::all().iter().map(Refusal::code).collect();
        assert_eq!(examples, Refusal::CODES, "one example per code, in order");
    }

    #[test]
    fn arguments_follow_the_fields_in_order() {
        let refusal = Refusal::RoundIncomplete {
            round: 3,
            missing: 12,
        };
        assert_eq!(refusal.args(), vec![Arg::Number(3), Arg::Number(12)]);
        assert_eq!(refusal.to_string(), "round_incomplete(3, 12)");
        assert_eq!(Refusal::Required.to_string(), "required");
        let nested = Refusal::ImpossiblePairing {
            problems: vec![PlacementError::NotPlaced(7).into()],
        };
        assert_eq!(nested.to_string(), "impossible_pairing(player_left_out(7))");
    }
}
