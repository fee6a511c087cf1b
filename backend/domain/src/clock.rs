//! Time controls and the clocks of a game, as pure arithmetic on milliseconds.
//!
//! A game's clocks are kept as three numbers only: each side's remaining time as it stood
//! after that side's last move, and the instant (milliseconds since the epoch) at which the
//! side to move runs out of time, while its clock runs. Whatever reads them later (another
//! instance, a page rendered a minute from now) computes the same remaining times from the
//! same stored numbers and its own "now": nothing lives in memory.
//!
//! When clocks start: a side's clock runs once its opponent has made a move (the first
//! move of the game is not timed, as on online sites), or from the moment an arbiter starts
//! the round for over-the-board play.
use std::fmt;

/// How a game is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    /// No clock (transcribed games, or games played with clocks the server does not see).
    #[default]
    Untimed,
    /// `base_s` seconds for the game, `increment_s` added after every timed move.
    Fischer { base_s: u32, increment_s: u32 },
    /// A fixed time for every move: what is left is not carried over.
    PerMove { seconds: u32 },
}

/// The rating category of a time control, as FIDE and FMJD draw the lines: the time for
/// a game of 60 moves (base + 60 increments, or 60 moves at the fixed time each) over
/// 60 minutes is classical, over 10 minutes rapid, otherwise blitz.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    Classical,
    Rapid,
    Blitz,
}

/// Why a time control cannot be read or is out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("unknown time control `{0}`")]
    Unknown(String),
    #[error("{field} must be between {min} and {max}")]
    OutOfRange {
        field: &'static str,
        min: u32,
        max: u32,
    },
}

/// The longest base time accepted: a day (correspondence play is not what clocks are for).
pub const MAX_BASE_S: u32 = 24 * 3600;
/// The largest increment, and the longest fixed time per move: an hour.
pub const MAX_INCREMENT_S: u32 = 3600;

impl TimeControl {
    /// The controls the event form offers by name, besides a custom one.
    pub const PRESETS: [TimeControl; 7] = [
        TimeControl::Untimed,
        TimeControl::Fischer {
            base_s: 90 * 60,
            increment_s: 30,
        },
        TimeControl::Fischer {
            base_s: 60 * 60,
            increment_s: 30,
        },
        TimeControl::Fischer {
            base_s: 15 * 60,
            increment_s: 10,
        },
        TimeControl::Fischer {
            base_s: 5 * 60,
            increment_s: 3,
        },
        TimeControl::PerMove { seconds: 30 },
        TimeControl::PerMove { seconds: 60 },
    ];

    /// A control from its parts as a form or the API gives them: `kind` is `none`,
    /// `fischer` or `per_move`; a per-move control takes its seconds from `base_s`.
    pub fn from_parts(
        kind: &str,
        base_s: u32,
        increment_s: u32,
    ) -> Result<TimeControl, TimeControlError> {
        let control = match kind {
            "none" => TimeControl::Untimed,
            "fischer" => TimeControl::Fischer {
                base_s,
                increment_s,
            },
            "per_move" => TimeControl::PerMove { seconds: base_s },
            other => return Err(TimeControlError::Unknown(other.to_string())),
        };
        control.validated()
    }

    /// Checks the ranges: a Fischer base of 1 s to a day (0 is allowed with an increment,
    /// as in "0+5"), an increment and a time per move of at most an hour.
    pub fn validated(self) -> Result<TimeControl, TimeControlError> {
        match self {
            TimeControl::Untimed => {}
            TimeControl::Fischer {
                base_s,
                increment_s,
            } => {
                if increment_s > MAX_INCREMENT_S {
                    return Err(TimeControlError::OutOfRange {
                        field: "increment_s",
                        min: 0,
                        max: MAX_INCREMENT_S,
                    });
                }
                let min = if increment_s == 0 { 1 } else { 0 };
                if base_s < min || base_s > MAX_BASE_S {
                    return Err(TimeControlError::OutOfRange {
                        field: "base_s",
                        min,
                        max: MAX_BASE_S,
                    });
                }
            }
            TimeControl::PerMove { seconds } => {
                if !(1..=MAX_INCREMENT_S).contains(&seconds) {
                    return Err(TimeControlError::OutOfRange {
                        field: "base_s",
                        min: 1,
                        max: MAX_INCREMENT_S,
                    });
                }
            }
        }
        Ok(self)
    }

    /// `none`, `fischer` or `per_move`.
    pub fn kind(self) -> &'static str {
        match self {
            TimeControl::Untimed => "none",
            TimeControl::Fischer { .. } => "fischer",
            TimeControl::PerMove { .. } => "per_move",
        }
    }

    /// The base time in seconds (the time per move of a per-move control).
    pub fn base_s(self) -> u32 {
        match self {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { base_s, .. } => base_s,
            TimeControl::PerMove { seconds } => seconds,
        }
    }

    pub fn increment_s(self) -> u32 {
        match self {
            TimeControl::Fischer { increment_s, .. } => increment_s,
            _ => 0,
        }
    }

    pub fn is_timed(self) -> bool {
        self != TimeControl::Untimed
    }

    /// The category the control puts a game in; `None` for an untimed game.
    pub fn category(self) -> Option<Category> {
        let seconds_for_60_moves = match self {
            TimeControl::Untimed => return None,
            TimeControl::Fischer {
                base_s,
                increment_s,
            } => u64::from(base_s) + 60 * u64::from(increment_s),
            TimeControl::PerMove { seconds } => 60 * u64::from(seconds),
        };
        Some(if seconds_for_60_moves >= 60 * 60 {
            Category::Classical
        } else if seconds_for_60_moves > 10 * 60 {
            Category::Rapid
        } else {
            Category::Blitz
        })
    }

    /// The clocks at the start of a game; `None` for an untimed game.
    pub fn start(self) -> Option<Clocks> {
        let ms = i64::from(self.base_s()) * 1000;
        self.is_timed().then_some(Clocks {
            white_ms: ms,
            black_ms: ms,
            deadline_ms: None,
        })
    }

    /// The stored form: `none`, `fischer:5400+30`, `per_move:30`.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let unknown = || TimeControlError::Unknown(text.to_string());
        let number = |part: &str| part.parse::<u32>().map_err(|_| unknown());
        if text == "none" {
            return Ok(TimeControl::Untimed);
        }
        if let Some(rest) = text.strip_prefix("fischer:") {
            let (base, increment) = rest.split_once('+').ok_or_else(unknown)?;
            return TimeControl::Fischer {
                base_s: number(base)?,
                increment_s: number(increment)?,
            }
            .validated();
        }
        if let Some(seconds) = text.strip_prefix("per_move:") {
            return TimeControl::PerMove {
                seconds: number(seconds)?,
            }
            .validated();
        }
        Err(unknown())
    }
}

impl fmt::Display for TimeControl {
    /// The stored form (see `parse`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => f.write_str("none"),
            TimeControl::Fischer {
                base_s,
                increment_s,
            } => write!(f, "fischer:{base_s}+{increment_s}"),
            TimeControl::PerMove { seconds } => write!(f, "per_move:{seconds}"),
        }
    }
}

/// A side of the board, for the clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// The clocks of a timed game, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clocks {
    /// White's remaining time after White's last move (the start time before it).
    pub white_ms: i64,
    pub black_ms: i64,
    /// While the side to move's clock runs: the instant it shows zero.
    pub deadline_ms: Option<i64>,
}

/// The mover's time was over when the move arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagFell;

impl Clocks {
    pub fn stored_ms(&self, side: Side) -> i64 {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    fn with_stored(mut self, side: Side, ms: i64) -> Clocks {
        match side {
            Side::White => self.white_ms = ms,
            Side::Black => self.black_ms = ms,
        }
        self
    }

    /// Whether the side to move's clock runs.
    pub fn running(&self) -> bool {
        self.deadline_ms.is_some()
    }

    /// What `side` has left at `now_ms` (never below zero): the side to move's time runs
    /// down while its clock runs, the other side's stands.
    pub fn remaining_ms(&self, side: Side, to_move: Side, now_ms: i64) -> i64 {
        match self.deadline_ms {
            Some(deadline) if side == to_move => (deadline - now_ms).max(0),
            _ => self.stored_ms(side),
        }
    }

    /// Whether the side to move has run out of time at `now_ms`.
    pub fn flag_fallen(&self, now_ms: i64) -> bool {
        self.deadline_ms.is_some_and(|deadline| now_ms >= deadline)
    }

    /// The clocks after `mover` moves at `now_ms`: the mover's time stops (plus the
    /// increment, or back to the full time per move) and the opponent's starts, since the
    /// mover has now made a move. A move not timed (the mover's clock did not run: the
    /// game's first move) leaves the mover's time as it was.
    pub fn after_move(
        &self,
        control: TimeControl,
        mover: Side,
        now_ms: i64,
    ) -> Result<Clocks, FlagFell> {
        let mover_ms = match self.deadline_ms {
            Some(deadline) => {
                let left = deadline - now_ms;
                if left <= 0 {
                    return Err(FlagFell);
                }
                match control {
                    TimeControl::PerMove { seconds } => i64::from(seconds) * 1000,
                    other => left + i64::from(other.increment_s()) * 1000,
                }
            }
            None => self.stored_ms(mover),
        };
        let clocks = self.with_stored(mover, mover_ms);
        Ok(Clocks {
            deadline_ms: Some(now_ms + clocks.stored_ms(mover.opponent())),
            ..clocks
        })
    }

    /// The side to move's clock starts at `now_ms` (an arbiter starts the round, or a game
    /// goes on again after a takeback); a running clock is left as it is.
    pub fn started(&self, to_move: Side, now_ms: i64) -> Clocks {
        if self.running() {
            return *self;
        }
        Clocks {
            deadline_ms: Some(now_ms + self.stored_ms(to_move)),
            ..*self
        }
    }

    /// The clocks stop at `now_ms` (the game is over): the side to move keeps what it had
    /// left then.
    pub fn stopped(&self, to_move: Side, now_ms: i64) -> Clocks {
        let left = self.remaining_ms(to_move, to_move, now_ms);
        Clocks {
            deadline_ms: None,
            ..self.with_stored(to_move, left)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FISCHER_5_3: TimeControl = TimeControl::Fischer {
        base_s: 300,
        increment_s: 3,
    };

    #[test]
    fn the_first_move_is_not_timed_and_starts_the_opponents_clock() {
        let start = FISCHER_5_3.start().unwrap();
        assert!(!start.running());
        let after_white = start.after_move(FISCHER_5_3, Side::White, 10_000).unwrap();
        assert_eq!(
            after_white.white_ms, 300_000,
            "no increment for an untimed move"
        );
        assert_eq!(after_white.deadline_ms, Some(10_000 + 300_000));
        // Black thinks 4 s: Black's clock ran, so it is charged and gets the increment.
        let after_black = after_white
            .after_move(FISCHER_5_3, Side::Black, 14_000)
            .unwrap();
        assert_eq!(after_black.black_ms, 300_000 - 4_000 + 3_000);
        assert_eq!(after_black.deadline_ms, Some(14_000 + 300_000));
        assert_eq!(
            after_black.remaining_ms(Side::White, Side::White, 20_000),
            294_000
        );
        assert_eq!(
            after_black.remaining_ms(Side::Black, Side::White, 20_000),
            299_000
        );
    }

    #[test]
    fn a_fixed_time_per_move_is_not_carried_over() {
        let control = TimeControl::PerMove { seconds: 30 };
        let clocks = control
            .start()
            .unwrap()
            .after_move(control, Side::White, 0)
            .unwrap()
            .after_move(control, Side::Black, 5_000)
            .unwrap();
        assert_eq!(clocks.black_ms, 30_000);
        assert_eq!(clocks.deadline_ms, Some(35_000));
        assert_eq!(
            clocks.after_move(control, Side::White, 35_000),
            Err(FlagFell),
            "at 30 s into White's 30 s the flag has fallen"
        );
        let in_time = clocks.after_move(control, Side::White, 34_999).unwrap();
        assert_eq!(in_time.white_ms, 30_000, "back to the full time per move");
    }

    #[test]
    fn a_move_at_or_after_the_deadline_is_a_flag_fall() {
        let clocks = Clocks {
            white_ms: 1_000,
            black_ms: 5_000,
            deadline_ms: Some(1_000),
        };
        assert!(clocks.flag_fallen(1_000));
        assert!(!clocks.flag_fallen(999));
        assert_eq!(
            clocks.after_move(FISCHER_5_3, Side::White, 1_000),
            Err(FlagFell)
        );
        assert_eq!(clocks.remaining_ms(Side::White, Side::White, 7_000), 0);
    }

    #[test]
    fn an_arbiter_start_runs_the_side_to_move_and_stopping_keeps_what_was_left() {
        let start = FISCHER_5_3.start().unwrap();
        let running = start.started(Side::White, 1_000);
        assert_eq!(running.deadline_ms, Some(301_000));
        assert_eq!(running.started(Side::White, 50_000), running);
        let stopped = running.stopped(Side::White, 101_000);
        assert_eq!(stopped.white_ms, 200_000);
        assert!(!stopped.running());
    }

    #[test]
    fn categories_follow_the_time_for_sixty_moves() {
        let fischer = |base_min: u32, increment_s: u32| TimeControl::Fischer {
            base_s: base_min * 60,
            increment_s,
        };
        assert_eq!(fischer(90, 30).category(), Some(Category::Classical));
        assert_eq!(fischer(60, 0).category(), Some(Category::Classical));
        assert_eq!(fischer(50, 10).category(), Some(Category::Classical));
        assert_eq!(fischer(45, 10).category(), Some(Category::Rapid));
        assert_eq!(fischer(15, 10).category(), Some(Category::Rapid));
        assert_eq!(fischer(10, 0).category(), Some(Category::Blitz));
        assert_eq!(fischer(5, 3).category(), Some(Category::Blitz));
        assert_eq!(
            TimeControl::PerMove { seconds: 60 }.category(),
            Some(Category::Classical)
        );
        assert_eq!(
            TimeControl::PerMove { seconds: 30 }.category(),
            Some(Category::Rapid)
        );
        assert_eq!(TimeControl::Untimed.category(), None);
    }

    #[test]
    fn the_stored_form_round_trips_and_bad_ones_are_named() {
        for control in TimeControl::PRESETS {
            assert_eq!(TimeControl::parse(&control.to_string()), Ok(control));
        }
        assert_eq!(
            TimeControl::parse("fischer:0+5"),
            Ok(TimeControl::Fischer {
                base_s: 0,
                increment_s: 5
            })
        );
        assert!(matches!(
            TimeControl::parse("fischer:0+0"),
            Err(TimeControlError::OutOfRange {
                field: "base_s",
                ..
            })
        ));
        assert!(matches!(
            TimeControl::parse("blitz"),
            Err(TimeControlError::Unknown(_))
        ));
        assert!(matches!(
            TimeControl::from_parts("per_move", 0, 0),
            Err(TimeControlError::OutOfRange {
                field: "base_s",
                ..
            })
        ));
        assert!(matches!(
            TimeControl::from_parts("fischer", 60, 3601),
            Err(TimeControlError::OutOfRange {
                field: "increment_s",
                ..
            })
        ));
    }
}
