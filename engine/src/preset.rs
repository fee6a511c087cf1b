//! Compile-time rule presets, so the move generator is monomorphised per variant and its
//! inner loops never branch on the variant.

use crate::geometry::{Eight, Geometry, Ten};

/// What happens when a man reaches the last row during a capture.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MidCapturePromotion {
    /// It becomes a king at once and continues capturing as a king (russian).
    ContinuesAsKing,
    /// The move ends there (english).
    EndsMove,
    /// It stays a man while it can capture on; it is crowned only if the move ends there
    /// (international, brazilian).
    OnlyAtEnd,
}

pub(crate) trait Preset: 'static {
    type Board: Geometry;
    const MEN_CAPTURE_BACKWARDS: bool;
    const FLYING_KINGS: bool;
    const PROMOTION: MidCapturePromotion;
    /// Whether the capture search runs its copies compiled for the x86-64 extensions of
    /// [`Fast`] (true only for `Fast`).
    const FAST: bool = false;
}

/// A preset whose move generation runs code compiled for the x86-64 instructions popcnt,
/// lzcnt, BMI1 and BMI2 (variable shifts without the count register, `andn`, `blsr`, `tzcnt`).
/// Perft's root uses it, and only when the processor was found to have them all
/// (`perft::root`): every function that reads [`Preset::FAST`] relies on that.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Fast<P>(std::marker::PhantomData<P>);

#[cfg(target_arch = "x86_64")]
impl<P: Preset> Preset for Fast<P> {
    type Board = P::Board;
    const MEN_CAPTURE_BACKWARDS: bool = P::MEN_CAPTURE_BACKWARDS;
    const FLYING_KINGS: bool = P::FLYING_KINGS;
    const PROMOTION: MidCapturePromotion = P::PROMOTION;
    const FAST: bool = true;
}

pub(crate) struct Russian;
pub(crate) struct English;
pub(crate) struct International;
pub(crate) struct Brazilian;

impl Preset for Russian {
    type Board = Eight;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION: MidCapturePromotion = MidCapturePromotion::ContinuesAsKing;
}

impl Preset for English {
    type Board = Eight;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const PROMOTION: MidCapturePromotion = MidCapturePromotion::EndsMove;
}

impl Preset for International {
    type Board = Ten;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION: MidCapturePromotion = MidCapturePromotion::OnlyAtEnd;
}

impl Preset for Brazilian {
    type Board = Eight;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION: MidCapturePromotion = MidCapturePromotion::OnlyAtEnd;
}

/// Runs `$body` with `$P` bound to the preset type of a [`crate::Variant`].
macro_rules! with_preset {
    ($variant:expr, $P:ident => $body:expr) => {
        match $variant {
            $crate::rules::Variant::Russian => {
                type $P = $crate::preset::Russian;
                $body
            }
            $crate::rules::Variant::English => {
                type $P = $crate::preset::English;
                $body
            }
            $crate::rules::Variant::International => {
                type $P = $crate::preset::International;
                $body
            }
            $crate::rules::Variant::Brazilian => {
                type $P = $crate::preset::Brazilian;
                $body
            }
        }
    };
}
pub(crate) use with_preset;
