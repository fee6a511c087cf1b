//! The options of a Keizer event, by the names the API and the event form use.
use serde::{Deserialize, Serialize};

/// How the standings after a round are computed from the rankings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeizerMethod {
    /// Start from the ranking after the previous round, score every round with it, rank,
    /// and repeat with the new ranking until it no longer changes (at most
    /// [`MAX_ITERATIONS`] times; then the last ranking stands).
    #[default]
    Iterative,
    /// Keizer's own 1956 way: rounds 1..k scored once with the ranking after round k-1.
    PerRound,
}

impl KeizerMethod {
    pub const ALL: [KeizerMethod; 2] = [KeizerMethod::Iterative, KeizerMethod::PerRound];

    /// The spelling the API and the form use.
    pub fn code(self) -> &'static str {
        match self {
            KeizerMethod::Iterative => "iterative",
            KeizerMethod::PerRound => "per_round",
        }
    }
}

/// The most rounds a season can have, planned or left open: a year of weekly club nights
/// with room to spare, and a bound on the work of one standings table.
pub const MAX_ROUNDS: u32 = 100;

/// At most this many rankings are computed for one standings table (`iterative`).
pub const MAX_ITERATIONS: u32 = 20;

/// The highest share (in sixths) an option may give: six sixths, the whole value.
pub const MAX_SIXTHS: u32 = 6;

/// A Keizer event's options. Every share of a value number is in sixths, so every score
/// is an exact integer number of sixths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KeizerOptions {
    /// The value number of the first-ranked player; `None`: the number of entries.
    pub top_value: Option<u32>,
    /// How much lower each next rank's value number is.
    pub value_step: u32,
    /// Whether every player's score holds their own value once.
    pub own_value: bool,
    /// The share of the opponent's value a win earns (a forfeit win too).
    pub win_sixths: u32,
    /// The share of the opponent's value a draw earns.
    pub draw_sixths: u32,
    /// The share of the opponent's value a loss earns (a forfeit loss earns nothing).
    pub loss_sixths: u32,
    /// The share of one's own value the pairing bye earns.
    pub bye_sixths: u32,
    /// The share of one's own value an absence with notice earns (the first
    /// `max_scored_absences` of them; later ones earn nothing).
    pub excused_sixths: u32,
    /// The share of one's own value playing for the club elsewhere earns (always).
    pub club_duty_sixths: u32,
    /// The share of one's own value an absence without notice earns.
    pub absent_sixths: u32,
    /// How many absences with notice score.
    pub max_scored_absences: u32,
    pub method: KeizerMethod,
    /// Two players do not meet again within this many rounds, as long as the rest can
    /// still be paired; otherwise the gap shrinks by one until a pairing exists.
    pub repeat_gap: u32,
}

impl Default for KeizerOptions {
    fn default() -> Self {
        DEFAULT
    }
}

/// A named set of options the event form offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeizerPreset {
    /// Stable code, also the form's value: `default`, `knsb`, `no_own_value`.
    pub code: &'static str,
    pub options: KeizerOptions,
}

/// The presets the event form offers, in the order it shows them.
pub const PRESETS: &[KeizerPreset] = &[
    KeizerPreset {
        code: "default",
        options: DEFAULT,
    },
    // The Dutch federation's club rules in sixths: the bye half the own value, an absence
    // with notice a third, club duty two thirds.
    KeizerPreset {
        code: "knsb",
        options: KeizerOptions {
            bye_sixths: 3,
            ..DEFAULT
        },
    },
    // No own value: only games and absences score, so a player who never comes stays at 0.
    KeizerPreset {
        code: "no_own_value",
        options: KeizerOptions {
            own_value: false,
            ..DEFAULT
        },
    },
];

/// [`KeizerOptions::default`] as a constant, for the presets.
const DEFAULT: KeizerOptions = KeizerOptions {
    top_value: None,
    value_step: 1,
    own_value: true,
    win_sixths: 6,
    draw_sixths: 3,
    loss_sixths: 0,
    bye_sixths: 4,
    excused_sixths: 2,
    club_duty_sixths: 4,
    absent_sixths: 0,
    max_scored_absences: 5,
    method: KeizerMethod::Iterative,
    repeat_gap: 3,
};

/// Why options cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeizerOptionsError {
    #[error("{field} is {value}; a share is at most {MAX_SIXTHS} sixths")]
    ShareTooLarge { field: &'static str, value: u32 },
    #[error("top_value must be at least 1 and at most 100000")]
    TopValue,
    #[error("value_step must be at least 1 and at most 1000")]
    ValueStep,
    #[error("repeat_gap must be at most 100")]
    RepeatGap,
    #[error("max_scored_absences must be at most 1000")]
    MaxScoredAbsences,
}

impl KeizerOptions {
    /// The options' shares by field name, for checks and forms.
    pub fn shares(&self) -> [(&'static str, u32); 7] {
        [
            ("win_sixths", self.win_sixths),
            ("draw_sixths", self.draw_sixths),
            ("loss_sixths", self.loss_sixths),
            ("bye_sixths", self.bye_sixths),
            ("excused_sixths", self.excused_sixths),
            ("club_duty_sixths", self.club_duty_sixths),
            ("absent_sixths", self.absent_sixths),
        ]
    }

    /// Checks the options are within the bounds that keep every score small and exact.
    pub fn check(&self) -> Result<(), KeizerOptionsError> {
        if let Some((field, value)) = self.shares().into_iter().find(|(_, v)| *v > MAX_SIXTHS) {
            return Err(KeizerOptionsError::ShareTooLarge { field, value });
        }
        if self.top_value.is_some_and(|v| !(1..=100_000).contains(&v)) {
            return Err(KeizerOptionsError::TopValue);
        }
        if !(1..=1000).contains(&self.value_step) {
            return Err(KeizerOptionsError::ValueStep);
        }
        if self.repeat_gap > 100 {
            return Err(KeizerOptionsError::RepeatGap);
        }
        if self.max_scored_absences > 1000 {
            return Err(KeizerOptionsError::MaxScoredAbsences);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_rules_and_the_first_preset() {
        let empty: KeizerOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, KeizerOptions::default());
        let shares: Vec<u32> = empty.shares().iter().map(|(_, v)| *v).collect();
        assert_eq!(shares, [6, 3, 0, 4, 2, 4, 0]);
        assert_eq!(
            (empty.top_value, empty.value_step, empty.own_value),
            (None, 1, true)
        );
        assert_eq!((empty.max_scored_absences, empty.repeat_gap), (5, 3));
        assert_eq!(empty.method, KeizerMethod::Iterative);
        assert_eq!(PRESETS[0].options, empty);
        assert_eq!(PRESETS[1].options.bye_sixths, 3);
        assert!(!PRESETS[2].options.own_value);
    }

    #[test]
    fn options_read_by_name_with_defaults_for_the_rest() {
        let options: KeizerOptions =
            serde_json::from_str(r#"{"top_value": 50, "method": "per_round"}"#).unwrap();
        assert_eq!(options.top_value, Some(50));
        assert_eq!(options.method, KeizerMethod::PerRound);
        assert_eq!(options.win_sixths, 6);
        assert!(serde_json::from_str::<KeizerOptions>(r#"{"win": 6}"#).is_err());
    }

    #[test]
    fn a_share_over_six_sixths_is_refused_by_name() {
        let options = KeizerOptions {
            bye_sixths: 7,
            ..KeizerOptions::default()
        };
        assert_eq!(
            options.check(),
            Err(KeizerOptionsError::ShareTooLarge {
                field: "bye_sixths",
                value: 7
            })
        );
    }
}
