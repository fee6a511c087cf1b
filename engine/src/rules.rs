//! Variants (rule presets), the local-rule options on top of them, and the two sides.

use std::fmt;
use std::str::FromStr;

/// The side of a player. In `english` Black (the dark pieces) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `'W'` or `'B'`, as in FEN.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Board size of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSize {
    Eight,
    Ten,
}

impl BoardSize {
    /// Squares per side (8 or 10).
    pub fn side(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    /// Number of playable (dark) squares: 32 or 50.
    pub fn squares(self) -> u8 {
        self.side() * self.side() / 2
    }

    pub(crate) fn per_row(self) -> u8 {
        self.side() / 2
    }
}

/// A rule preset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    #[default]
    Russian,
    English,
    International,
    Brazilian,
}

impl Variant {
    /// Every preset, in the order lists and forms show them: the home variant of Russian
    /// clubs first, then by how widely they are played.
    pub const ALL: [Variant; 4] = [
        Variant::Russian,
        Variant::International,
        Variant::English,
        Variant::Brazilian,
    ];

    pub fn board_size(self) -> BoardSize {
        match self {
            Variant::International => BoardSize::Ten,
            _ => BoardSize::Eight,
        }
    }

    /// The side that moves first from the start position.
    pub fn first_to_move(self) -> Color {
        match self {
            Variant::English => Color::Black,
            _ => Color::White,
        }
    }

    /// Whether squares are written algebraically (`c3`) rather than as numbers.
    pub fn algebraic(self) -> bool {
        matches!(self, Variant::Russian | Variant::Brazilian)
    }

    /// The lowercase name used on the command line and in settings.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::English => "english",
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
        }
    }

    /// The PDN `GameType` number of the variant.
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::English => 21,
            Variant::Russian => 25,
            Variant::Brazilian => 26,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of the four presets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {:?}: expected russian, english, international or brazilian",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Which capture sequences are allowed when several exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureChoice {
    /// Any complete sequence, whatever it takes.
    Free,
    /// Only the sequences that take the most pieces (a king counts as one piece).
    Maximum,
}

/// A preset plus the local rules of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    /// Off: a quiet move is allowed even when a capture exists (a started capture must still
    /// be finished).
    pub mandatory_capture: bool,
    pub capture_choice: CaptureChoice,
    /// Draw after this many plies with no capture and no man move.
    pub no_progress_limit: Option<u32>,
    /// Draw when the game reaches this many plies.
    pub move_limit: Option<u32>,
    /// One king each: draw after this many moves of each side without a capture.
    pub lone_kings_limit: Option<u32>,
}

impl Rules {
    /// The preset rules of a variant, with no local rules.
    pub fn preset(variant: Variant) -> Rules {
        Rules {
            variant,
            mandatory_capture: true,
            capture_choice: match variant {
                Variant::Russian | Variant::English => CaptureChoice::Free,
                Variant::International | Variant::Brazilian => CaptureChoice::Maximum,
            },
            no_progress_limit: None,
            move_limit: None,
            lone_kings_limit: None,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Variant::default())
    }
}

impl From<Variant> for Rules {
    fn from(variant: Variant) -> Self {
        Rules::preset(variant)
    }
}
