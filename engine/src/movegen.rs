//! Bitboard move generation, generic over the preset (see `preset.rs`) and the side to move.
//!
//! Captured pieces stay on the board until the sequence ends, so during a capture search they
//! still block (they are neither empty nor capturable again: the Turkish strike rule). The
//! square the capturing piece started from counts as empty, because it has left it.
//!
//! Flying kings look along precomputed rays (`geometry.rs`): the first piece on a ray is one
//! bit scan away, so a king's moves, its captures and the landing squares behind a victim
//! cost a few table look-ups each instead of a walk square by square.

use crate::geometry::{
    Geometry, is_forward, king_moves, nearest, open_ray_before, opposite, seers, step, stop,
    stop_is_in, stop_span, stop_square,
};
use crate::preset::{MidCapturePromotion, Preset};
use crate::square::bits;
use std::num::NonZeroU64;

/// Where the pieces stand, in the layout of `geometry.rs`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bitboards {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
}

impl Bitboards {
    #[inline(always)]
    pub fn side(&self, white: bool) -> u64 {
        if white { self.white } else { self.black }
    }
}

/// A move as the generator sees it: bits, not squares, and no path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawMove {
    pub from: u8,
    pub to: u8,
    pub promotes: bool,
    pub captured: u64,
}

/// Longest possible path: one landing square per captured piece (at most 20 on 10x10).
pub(crate) const MAX_PATH: usize = 24;

/// Receives each complete capture sequence.
///
/// Two sequences of the same piece that take the same pieces and end on the same square are
/// one move. With one or two pieces taken that can only happen by landing on different
/// squares of one run and going on straight over the same next piece, which the search never
/// does (see [`CaptureSearch::king_ray`]); so sinks compare only sequences of three or more.
pub(crate) trait CaptureSink {
    /// Whether the sink reads the landing squares (perft does not, and skips recording them).
    const TRACK_PATH: bool;

    /// A sequence from `from` to `to` that took the `count` pieces of `captured`.
    fn push(&mut self, from: u32, to: u32, captured: u64, count: u32, promotes: bool, path: &[u8]);

    /// The same sequence ending on each of the `landing_count` squares of `landings`: a
    /// flying king's last jump. Used only when the sink does not track paths.
    #[inline(always)]
    fn push_landings(
        &mut self,
        from: u32,
        landings: u64,
        landing_count: u32,
        captured: u64,
        count: u32,
        promotes: bool,
    ) {
        let _ = landing_count;
        for to in bits(landings) {
            self.push(from, to, captured, count, promotes, &[]);
        }
    }
}

/// Collects captures as [`RawMove`]s, applying the maximum rule (if asked) and dropping
/// duplicates (same from, to, captured set and promotion: the same resulting position).
pub(crate) struct RawCaptures<'a> {
    pub list: &'a mut Vec<RawMove>,
    pub maximum: bool,
    pub best: u32,
}

impl CaptureSink for RawCaptures<'_> {
    const TRACK_PATH: bool = false;

    #[inline]
    fn push(
        &mut self,
        from: u32,
        to: u32,
        captured: u64,
        count: u32,
        promotes: bool,
        _path: &[u8],
    ) {
        if self.maximum {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.best = count;
                self.list.clear();
            }
        }
        let mv = RawMove {
            from: from as u8,
            to: to as u8,
            promotes,
            captured,
        };
        if count >= 3 && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }
}

/// Counts captures without building them (bulk perft), with the same maximum rule and
/// duplicate handling as [`RawCaptures`]; only sequences of three or more pieces are kept,
/// in `long`, to find their duplicates.
pub(crate) struct CaptureCount<'a> {
    pub long: &'a mut Vec<RawMove>,
    pub maximum: bool,
    pub best: u32,
    pub count: u64,
}

impl CaptureCount<'_> {
    /// Applies the maximum rule; whether a sequence of `count` pieces is to be counted.
    #[inline(always)]
    fn admits(&mut self, count: u32) -> bool {
        if self.maximum {
            if count < self.best {
                return false;
            }
            if count > self.best {
                self.best = count;
                self.count = 0;
                self.long.clear();
            }
        }
        true
    }
}

impl CaptureSink for CaptureCount<'_> {
    const TRACK_PATH: bool = false;

    #[inline]
    fn push(
        &mut self,
        from: u32,
        to: u32,
        captured: u64,
        count: u32,
        promotes: bool,
        _path: &[u8],
    ) {
        if !self.admits(count) {
            return;
        }
        if count >= 3 {
            let mv = RawMove {
                from: from as u8,
                to: to as u8,
                promotes,
                captured,
            };
            if self.long.contains(&mv) {
                return;
            }
            self.long.push(mv);
        }
        self.count += 1;
    }

    #[inline(always)]
    fn push_landings(
        &mut self,
        from: u32,
        landings: u64,
        landing_count: u32,
        captured: u64,
        count: u32,
        promotes: bool,
    ) {
        if count >= 3 {
            for to in bits(landings) {
                self.push(from, to, captured, count, promotes, &[]);
            }
        } else if self.admits(count) {
            self.count += u64::from(landing_count);
        }
    }
}

/// Shift distance of a direction (for turning a target bit back into its origin bit).
#[inline(always)]
fn distance<G: Geometry>(dir: usize) -> u32 {
    if dir & 1 == 0 {
        G::PER_ROW
    } else {
        G::PER_ROW + 1
    }
}

#[inline(always)]
pub(crate) fn empty_squares<P: Preset>(b: &Bitboards) -> u64 {
    !(b.white | b.black) & P::Board::MASK
}

#[inline(always)]
fn promotion_row<P: Preset, const WHITE: bool>() -> u64 {
    if WHITE {
        P::Board::TOP_ROW
    } else {
        P::Board::BOTTOM_ROW
    }
}

#[inline(always)]
fn men_capture_in<P: Preset, const WHITE: bool>(dir: usize) -> bool {
    P::MEN_CAPTURE_BACKWARDS || is_forward(WHITE, dir)
}

/// Enemy pieces that can be jumped in direction `dir`: an empty square lies behind them.
#[inline(always)]
pub(crate) fn targets<P: Preset>(them: u64, empty: u64, dir: usize) -> u64 {
    them & step::<P::Board>(empty, opposite(dir))
}

/// The pieces of the side to move that can start a capture.
#[inline]
pub(crate) fn capturers<P: Preset, const WHITE: bool>(b: &Bitboards) -> u64 {
    men_capturers::<P, WHITE>(b) | king_scan::<P, WHITE>(b).capturers
}

/// The men of the side to move that can start a capture.
#[inline(always)]
pub(crate) fn men_capturers<P: Preset, const WHITE: bool>(b: &Bitboards) -> u64 {
    let men = b.side(WHITE) & !b.kings;
    let them = b.side(!WHITE);
    let empty = empty_squares::<P>(b);
    let mut found = 0;
    for dir in 0..4 {
        if men_capture_in::<P, WHITE>(dir) {
            found |= men & step::<P::Board>(targets::<P>(them, empty, dir), opposite(dir));
        }
    }
    found
}

/// What the kings of the side to move can do, found in one pass over their rays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KingScan {
    /// The kings that can start a capture.
    pub capturers: u64,
    /// The number of quiet king moves (the moves if no capture is compulsory).
    pub quiets: u64,
}

/// Looks along each ray of each king once: the first piece met decides whether the king can
/// capture that way, and the squares before it are its quiet moves.
#[inline(always)]
pub(crate) fn king_scan<P: Preset, const WHITE: bool>(b: &Bitboards) -> KingScan {
    let kings = b.side(WHITE) & b.kings;
    let mut scan = KingScan::default();
    if kings == 0 {
        return scan;
    }
    let them = b.side(!WHITE);
    let empty = empty_squares::<P>(b);
    if !P::FLYING_KINGS {
        for dir in 0..4 {
            let back = opposite(dir);
            scan.capturers |= kings & step::<P::Board>(targets::<P>(them, empty, dir), back);
            scan.quiets += u64::from((step::<P::Board>(kings, dir) & empty).count_ones());
        }
        return scan;
    }
    let occupied = b.white | b.black;
    let targets_by_dir = [0, 1, 2, 3].map(|dir| targets::<P>(them, empty, dir));
    let mut quiets = 0u32;
    for king in bits(kings) {
        let mut blocked = 0;
        let mut captures = false;
        for (dir, &targets) in targets_by_dir.iter().enumerate() {
            let code = stop::<P::Board>(dir, king, occupied);
            blocked += stop_span::<P::Board>(dir, code);
            captures |= stop_is_in(dir, code, targets);
        }
        quiets += king_moves::<P::Board>(king) - blocked;
        scan.capturers |= u64::from(captures) << king;
    }
    scan.quiets = u64::from(quiets);
    scan
}

/// The squares from which a man of side `WHITE` could jump in direction `DIR`: an enemy piece
/// next to it that way with an empty square behind (none if men do not capture that way).
#[inline(always)]
fn jump_squares<P: Preset, const WHITE: bool, const DIR: usize>(them: u64, empty: u64) -> u64 {
    if men_capture_in::<P, WHITE>(DIR) {
        step::<P::Board>(targets::<P>(them, empty, DIR), opposite(DIR))
    } else {
        0
    }
}

/// Two steps in direction `DIR`: from a jumping man to its landing square.
#[inline(always)]
fn jump<P: Preset, const DIR: usize>(men: u64) -> u64 {
    step::<P::Board>(step::<P::Board>(men, DIR), DIR)
}

/// The captures of the side to move when every one of them is a single jump by a man, found
/// with bitboards: `visit(direction, jumpers)` is called for each direction with the men that
/// jump that way. Returns `false` (having visited nothing) when some jump might go on; then
/// the sequences must be searched. Kings are not looked at.
#[inline(always)]
fn single_jumps<P: Preset, const WHITE: bool>(
    b: &Bitboards,
    mut visit: impl FnMut(usize, u64),
) -> bool {
    let men = b.side(WHITE) & !b.kings;
    let them = b.side(!WHITE);
    let empty = empty_squares::<P>(b);
    // A second jump from the landing square L (reached from O in direction d) cannot land
    // on O: that would mean jumping back over the piece just taken. So the vacated start
    // square never matters for this one-jump look-ahead and `empty` is exact.
    let from = [
        jump_squares::<P, WHITE, 0>(them, empty),
        jump_squares::<P, WHITE, 1>(them, empty),
        jump_squares::<P, WHITE, 2>(them, empty),
        jump_squares::<P, WHITE, 3>(them, empty),
    ];
    let jumpers_by_dir = [men & from[0], men & from[1], men & from[2], men & from[3]];
    let landings = [
        jump::<P, 0>(jumpers_by_dir[0]),
        jump::<P, 1>(jumpers_by_dir[1]),
        jump::<P, 2>(jumpers_by_dir[2]),
        jump::<P, 3>(jumpers_by_dir[3]),
    ];
    if P::PROMOTION == MidCapturePromotion::ContinuesAsKing
        && (landings[0] | landings[1] | landings[2] | landings[3]) & promotion_row::<P, WHITE>()
            != 0
    {
        return false;
    }
    // Every direction but back over the piece just taken (direction d's opposite is d ^ 2).
    // All four directions at once and one test at the end: whether a man can jump is as
    // good as random, and a branch per direction was mispredicted often.
    let onward = (landings[0] & (from[0] | from[1] | from[3]))
        | (landings[1] & (from[0] | from[1] | from[2]))
        | (landings[2] & (from[1] | from[2] | from[3]))
        | (landings[3] & (from[0] | from[2] | from[3]));
    if onward != 0 {
        return false;
    }
    for (dir, jumpers) in jumpers_by_dir.into_iter().enumerate() {
        if jumpers != 0 {
            visit(dir, jumpers);
        }
    }
    true
}

/// Bulk count of the captures when every capture is a single jump by a man; `None` when the
/// sequences must be searched. Each (man, direction) jump is a distinct move. Only for
/// positions where no king can capture.
#[inline]
pub(crate) fn count_single_jumps<P: Preset, const WHITE: bool>(b: &Bitboards) -> Option<u64> {
    let mut count = 0u64;
    single_jumps::<P, WHITE>(b, |_, jumpers| count += u64::from(jumpers.count_ones()))
        .then_some(count)
}

/// Appends the captures when every capture is a single jump by a man; `false` (nothing
/// appended) when the sequences must be searched. Only for positions where no king can
/// capture.
#[inline]
fn push_single_jumps<P: Preset, const WHITE: bool>(b: &Bitboards, out: &mut Vec<RawMove>) -> bool {
    let promotion = promotion_row::<P, WHITE>();
    single_jumps::<P, WHITE>(b, |dir, jumpers| {
        let shift = distance::<P::Board>(dir);
        for from in bits(jumpers) {
            let (victim, to) = if dir < 2 {
                (from + shift, from + 2 * shift)
            } else {
                (from - shift, from - 2 * shift)
            };
            out.push(RawMove {
                from: from as u8,
                to: to as u8,
                promotes: promotion & (1u64 << to) != 0,
                captured: 1u64 << victim,
            });
        }
    })
}

/// Number of quiet moves of the men, counted without building them (bulk perft).
#[inline(always)]
pub(crate) fn count_men_quiets<P: Preset, const WHITE: bool>(b: &Bitboards) -> u64 {
    let men = b.side(WHITE) & !b.kings;
    let empty = empty_squares::<P>(b);
    let (left, right) = if WHITE { (2, 3) } else { (0, 1) };
    u64::from((step::<P::Board>(men, left) & empty).count_ones())
        + u64::from((step::<P::Board>(men, right) & empty).count_ones())
}

/// The bits of `set`, a subset of a ray in direction `dir`, nearest to the ray's origin first.
#[inline(always)]
fn along(dir: usize, mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = nearest(dir, NonZeroU64::new(set)?);
        set ^= 1u64 << bit;
        Some(bit)
    })
}

/// Appends every quiet (non-capturing) move: the men's by direction, each king's by direction
/// and distance (the order of [`crate::Position::legal_moves`]).
pub(crate) fn generate_quiets<P: Preset, const WHITE: bool>(b: &Bitboards, out: &mut Vec<RawMove>) {
    push_quiets::<P, WHITE, true>(b, out);
}

/// Appends every quiet move, each king's in the order of its squares (perft, where the order
/// does not matter): one loop over a king's four rays at once instead of one per ray, whose
/// ends the processor mispredicted about once a king.
fn generate_quiets_unordered<P: Preset, const WHITE: bool>(b: &Bitboards, out: &mut Vec<RawMove>) {
    push_quiets::<P, WHITE, false>(b, out);
}

#[inline(always)]
fn push_quiets<P: Preset, const WHITE: bool, const BY_RAY: bool>(
    b: &Bitboards,
    out: &mut Vec<RawMove>,
) {
    let us = b.side(WHITE);
    let empty = empty_squares::<P>(b);
    let men = us & !b.kings;
    let kings = us & b.kings;
    let promotion = promotion_row::<P, WHITE>();
    for dir in 0..4 {
        if !is_forward(WHITE, dir) {
            continue;
        }
        let shift = distance::<P::Board>(dir);
        for to in bits(step::<P::Board>(men, dir) & empty) {
            let from = if dir < 2 { to - shift } else { to + shift };
            out.push(RawMove {
                from: from as u8,
                to: to as u8,
                promotes: promotion & (1u64 << to) != 0,
                captured: 0,
            });
        }
    }
    let occupied = b.white | b.black;
    let reach = |from: u32, dir: usize| {
        if P::FLYING_KINGS {
            open_ray_before::<P::Board>(dir, from, stop::<P::Board>(dir, from, occupied)).0
        } else {
            step::<P::Board>(1u64 << from, dir) & empty
        }
    };
    let king_move = |from: u32, to: u32| RawMove {
        from: from as u8,
        to: to as u8,
        promotes: false,
        captured: 0,
    };
    for from in bits(kings) {
        if BY_RAY {
            for dir in 0..4 {
                out.extend(along(dir, reach(from, dir)).map(|to| king_move(from, to)));
            }
        } else {
            let all = reach(from, 0) | reach(from, 1) | reach(from, 2) | reach(from, 3);
            out.extend(bits(all).map(|to| king_move(from, to)));
        }
    }
}

/// Depth-first search of the capture sequences of one piece.
struct CaptureSearch<'s, S> {
    them: u64,
    /// Empty squares, including the square the capturing piece left.
    empty: u64,
    /// Per direction, the enemy pieces with an empty square behind them: those a piece can
    /// jump in that direction unless already taken. Fixed for one piece's search, since
    /// taken pieces stay on the board until the move ends.
    jumpable: [u64; 4],
    promotion: u64,
    from: u32,
    /// A man crowned during this sequence (russian).
    promoted: bool,
    path: [u8; MAX_PATH],
    depth: usize,
    sink: &'s mut S,
}

impl<S: CaptureSink> CaptureSearch<'_, S> {
    #[inline(always)]
    fn enter(&mut self, square: u32) {
        if S::TRACK_PATH {
            // At most one landing per enemy piece, so the depth stays below MAX_PATH.
            if let Some(slot) = self.path.get_mut(self.depth) {
                *slot = square as u8;
            }
            self.depth += 1;
        }
    }

    #[inline(always)]
    fn leave(&mut self) {
        if S::TRACK_PATH {
            self.depth -= 1;
        }
    }

    #[inline(always)]
    fn emit(&mut self, to: u32, captured: u64, count: u32, promotes: bool) {
        self.sink.push(
            self.from,
            to,
            captured,
            count,
            promotes,
            &self.path[..self.depth.min(MAX_PATH)],
        );
    }

    /// Captures of a man standing on `at` that has taken the `count` pieces of `captured`;
    /// returns whether it could capture at all.
    #[inline(always)]
    fn man<P: Preset, const WHITE: bool>(&mut self, at: u64, captured: u64, count: u32) -> bool {
        #[cfg(target_arch = "x86_64")]
        if P::FAST {
            // SAFETY: `Preset::FAST` presets run only where the processor has the extensions
            // (`perft::root`).
            #[allow(unsafe_code)]
            return unsafe { self.man_fast::<P, WHITE>(at, captured, count) };
        }
        self.man_plain::<P, WHITE>(at, captured, count)
    }

    fn man_plain<P: Preset, const WHITE: bool>(
        &mut self,
        at: u64,
        captured: u64,
        count: u32,
    ) -> bool {
        self.man_body::<P, WHITE>(at, captured, count)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    fn man_fast<P: Preset, const WHITE: bool>(
        &mut self,
        at: u64,
        captured: u64,
        count: u32,
    ) -> bool {
        self.man_body::<P, WHITE>(at, captured, count)
    }

    #[inline(always)]
    fn man_body<P: Preset, const WHITE: bool>(
        &mut self,
        at: u64,
        captured: u64,
        count: u32,
    ) -> bool {
        // One call per direction, each with its shift known at compile time: a loop over the
        // directions was not unrolled and stepped through a jump table.
        let mut found = self.man_jump::<P, WHITE, 0>(at, captured, count);
        found |= self.man_jump::<P, WHITE, 1>(at, captured, count);
        found |= self.man_jump::<P, WHITE, 2>(at, captured, count);
        found |= self.man_jump::<P, WHITE, 3>(at, captured, count);
        found
    }

    /// Whether a man on `at` that has taken `captured` can jump again (in any direction but
    /// back over the piece it just took, which `captured` excludes anyway).
    #[inline(always)]
    fn man_can_jump<P: Preset, const WHITE: bool>(&self, at: u64, captured: u64) -> bool {
        let mut victims = 0;
        for dir in 0..4 {
            if men_capture_in::<P, WHITE>(dir) {
                victims |= step::<P::Board>(at, dir) & self.jumpable[dir];
            }
        }
        victims & !captured != 0
    }

    /// The capture of a man on `at` in direction `DIR`, and every sequence it starts.
    #[inline(always)]
    fn man_jump<P: Preset, const WHITE: bool, const DIR: usize>(
        &mut self,
        at: u64,
        captured: u64,
        count: u32,
    ) -> bool {
        if !men_capture_in::<P, WHITE>(DIR) {
            return false;
        }
        // `jumpable` holds only pieces with an empty square behind them.
        let victim = step::<P::Board>(at, DIR) & self.jumpable[DIR] & !captured;
        if victim == 0 {
            return false;
        }
        let land = step::<P::Board>(victim, DIR);
        let taken = captured | victim;
        let square = land.trailing_zeros();
        self.enter(square);
        let crowned = land & self.promotion != 0;
        match P::PROMOTION {
            MidCapturePromotion::EndsMove if crowned => self.emit(square, taken, count + 1, true),
            MidCapturePromotion::ContinuesAsKing if crowned => {
                self.promoted = true;
                if !self.king::<P>(square, taken, count + 1, DIR) {
                    self.emit(square, taken, count + 1, true);
                }
                self.promoted = false;
            }
            _ => {
                // Looking ahead here spares a call for the (most common) last jump.
                if self.man_can_jump::<P, WHITE>(land, taken) {
                    self.man::<P, WHITE>(land, taken, count + 1);
                } else {
                    self.emit(square, taken, count + 1, crowned);
                }
            }
        }
        self.leave();
        true
    }

    /// Captures of a king on `at` that arrived moving in direction `came` (4: none, a king
    /// starting its move; otherwise a russian man just crowned); returns whether it could
    /// capture at all.
    #[inline(always)]
    fn king<P: Preset>(&mut self, at: u32, captured: u64, count: u32, came: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if P::FAST {
            // SAFETY: as in `man`.
            #[allow(unsafe_code)]
            return unsafe { self.king_fast::<P>(at, captured, count, came) };
        }
        self.king_plain::<P>(at, captured, count, came)
    }

    fn king_plain<P: Preset>(&mut self, at: u32, captured: u64, count: u32, came: usize) -> bool {
        self.king_body::<P>(at, captured, count, came)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    fn king_fast<P: Preset>(&mut self, at: u32, captured: u64, count: u32, came: usize) -> bool {
        self.king_body::<P>(at, captured, count, came)
    }

    #[inline(always)]
    fn king_body<P: Preset>(&mut self, at: u32, captured: u64, count: u32, came: usize) -> bool {
        if !P::FLYING_KINGS {
            return self.short_king::<P>(1u64 << at, captured, count);
        }
        // Going back would meet the piece just taken, which still blocks.
        let open = |dir: usize| came >= 4 || dir != opposite(came);
        let mut found = false;
        if open(0) {
            found |= self.king_ray::<P, 0>(at, captured, count);
        }
        if open(1) {
            found |= self.king_ray::<P, 1>(at, captured, count);
        }
        if open(2) {
            found |= self.king_ray::<P, 2>(at, captured, count);
        }
        if open(3) {
            found |= self.king_ray::<P, 3>(at, captured, count);
        }
        found
    }

    /// Captures of a flying king on `at` in the directions of the bits of `directions`, where
    /// a victim is known to wait.
    #[inline(always)]
    fn king_in<P: Preset>(&mut self, at: u32, captured: u64, count: u32, directions: u8) {
        #[cfg(target_arch = "x86_64")]
        if P::FAST {
            // SAFETY: as in `man`.
            #[allow(unsafe_code)]
            return unsafe { self.king_in_fast::<P>(at, captured, count, directions) };
        }
        self.king_in_plain::<P>(at, captured, count, directions)
    }

    fn king_in_plain<P: Preset>(&mut self, at: u32, captured: u64, count: u32, directions: u8) {
        self.king_in_body::<P>(at, captured, count, directions)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    fn king_in_fast<P: Preset>(&mut self, at: u32, captured: u64, count: u32, directions: u8) {
        self.king_in_body::<P>(at, captured, count, directions)
    }

    #[inline(always)]
    fn king_in_body<P: Preset>(&mut self, at: u32, captured: u64, count: u32, directions: u8) {
        if directions & 1 != 0 {
            self.king_ray::<P, 0>(at, captured, count);
        }
        if directions & 2 != 0 {
            self.king_ray::<P, 1>(at, captured, count);
        }
        if directions & 4 != 0 {
            self.king_ray::<P, 2>(at, captured, count);
        }
        if directions & 8 != 0 {
            self.king_ray::<P, 3>(at, captured, count);
        }
    }

    /// The captures of a flying king on `at` over the first piece in direction `DIR`.
    #[inline(always)]
    fn king_ray<P: Preset, const DIR: usize>(
        &mut self,
        at: u32,
        captured: u64,
        count: u32,
    ) -> bool {
        let occupied = !self.empty;
        let code = stop::<P::Board>(DIR, at, occupied);
        if !stop_is_in(DIR, code, self.jumpable[DIR] & !captured) {
            return false;
        }
        let victim_square = stop_square(DIR, code);
        let victim = 1u64 << victim_square;
        // `jumpable` holds only pieces with an empty square behind them: there is at least
        // one landing square, and the first is that one.
        let beyond = stop::<P::Board>(DIR, victim_square, occupied);
        let (landings, landing_count) = open_ray_before::<P::Board>(DIR, victim_square, beyond);
        let first = step::<P::Board>(victim, DIR);
        let taken = captured | victim;
        // It must land where the capture can continue, if there is such a square. Which
        // landing squares those are is decided here, from the rays, so that the search
        // recurses only into them.
        // Going on straight is looked at from the first landing square only: from a farther
        // one it takes the same pieces and ends on the same squares, and cannot change
        // whether the sequence must go on either (the first square can go on too). Whether it
        // can is whether the piece that ends the run of landing squares can be taken.
        let straight_on = first
            & 0u64.wrapping_sub(u64::from(stop_is_in(
                DIR,
                beyond,
                self.jumpable[DIR] & !taken,
            )));
        // The two directions across the ray.
        let (left, right) = (DIR ^ 1, DIR ^ 3);
        let left_on = landings & seers::<P::Board>(left, self.jumpable[left] & !taken, self.empty);
        let right_on =
            landings & seers::<P::Board>(right, self.jumpable[right] & !taken, self.empty);
        let going_on = straight_on | left_on | right_on;
        if going_on == 0 {
            let promotes = self.promoted;
            if S::TRACK_PATH {
                for land in along(DIR, landings) {
                    self.enter(land);
                    self.emit(land, taken, count + 1, promotes);
                    self.leave();
                }
            } else {
                self.sink.push_landings(
                    self.from,
                    landings,
                    landing_count,
                    taken,
                    count + 1,
                    promotes,
                );
            }
        } else {
            for land in along(DIR, going_on) {
                // The directions in which it goes on from there are known: only those are
                // searched.
                let square = 1u64 << land;
                let directions = (u8::from(straight_on & square != 0) << DIR)
                    | (u8::from(left_on & square != 0) << left)
                    | (u8::from(right_on & square != 0) << right);
                self.enter(land);
                self.king_in::<P>(land, taken, count + 1, directions);
                self.leave();
            }
        }
        true
    }

    /// Captures of a king that moves one square (english).
    fn short_king<P: Preset>(&mut self, at: u64, captured: u64, count: u32) -> bool {
        let mut found = false;
        for dir in 0..4 {
            let victim = step::<P::Board>(at, dir) & self.them & !captured;
            if victim == 0 {
                continue;
            }
            let land = step::<P::Board>(victim, dir) & self.empty;
            if land == 0 {
                continue;
            }
            found = true;
            let taken = captured | victim;
            self.enter(land.trailing_zeros());
            if !self.short_king::<P>(land, taken, count + 1) {
                self.emit(land.trailing_zeros(), taken, count + 1, false);
            }
            self.leave();
        }
        found
    }
}

/// Sends the men's captures to `sink` when every one of them is a single jump (found with
/// bitboards, no search); `false` (nothing sent) when some jump might go on.
#[inline]
pub(crate) fn sink_single_jumps<P: Preset, const WHITE: bool, S: CaptureSink>(
    b: &Bitboards,
    sink: &mut S,
) -> bool {
    let promotion = promotion_row::<P, WHITE>();
    single_jumps::<P, WHITE>(b, |dir, jumpers| {
        let shift = distance::<P::Board>(dir);
        for from in bits(jumpers) {
            let (victim, to) = if dir < 2 {
                (from + shift, from + 2 * shift)
            } else {
                (from - shift, from - 2 * shift)
            };
            let promotes = promotion & (1u64 << to) != 0;
            sink.push(from, to, 1u64 << victim, 1, promotes, &[to as u8]);
        }
    })
}

/// Sends every complete capture sequence of the men `men` and the kings `kings` (pieces of
/// the side to move that can capture) to `sink`.
pub(crate) fn generate_captures<P: Preset, const WHITE: bool, S: CaptureSink>(
    b: &Bitboards,
    men: u64,
    kings: u64,
    sink: &mut S,
) {
    let searched = men | kings;
    if searched == 0 {
        return;
    }
    let empty = empty_squares::<P>(b);
    let them = b.side(!WHITE);
    let mut search = CaptureSearch {
        them,
        empty,
        jumpable: [0; 4],
        promotion: promotion_row::<P, WHITE>(),
        from: 0,
        promoted: false,
        path: [0; MAX_PATH],
        depth: 0,
        sink,
    };
    for from in bits(searched) {
        let at = 1u64 << from;
        search.from = from;
        search.empty = empty | at;
        search.jumpable = [0, 1, 2, 3].map(|dir| targets::<P>(them, empty | at, dir));
        search.depth = 0;
        if b.kings & at != 0 {
            search.king::<P>(from, 0, 0, 4);
        } else {
            search.man::<P, WHITE>(at, 0, 0);
        }
    }
}

/// The position after `mv` (the side to move is not part of [`Bitboards`]).
#[inline(always)]
pub(crate) fn apply(b: &Bitboards, mv: &RawMove, white: bool) -> Bitboards {
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let mut next = *b;
    if white {
        next.white = (next.white & !from) | to;
        next.black &= !mv.captured;
    } else {
        next.black = (next.black & !from) | to;
        next.white &= !mv.captured;
    }
    next.kings &= !mv.captured;
    if b.kings & from != 0 || mv.promotes {
        next.kings = (next.kings & !from) | to;
    }
    next
}

/// Every legal move of the side to move, as raw moves (captures first). Inlined into perft's
/// node functions, so that it is compiled for the processor extensions they are.
#[inline(always)]
pub(crate) fn legal_raw<P: Preset, const WHITE: bool>(
    b: &Bitboards,
    mandatory: bool,
    maximum: bool,
    out: &mut Vec<RawMove>,
) {
    out.clear();
    let men = men_capturers::<P, WHITE>(b);
    let kings = king_scan::<P, WHITE>(b).capturers;
    if kings != 0 {
        let mut sink = RawCaptures {
            list: out,
            maximum,
            best: 0,
        };
        let searched_men = if men != 0 && sink_single_jumps::<P, WHITE, _>(b, &mut sink) {
            0
        } else {
            men
        };
        generate_captures::<P, WHITE, _>(b, searched_men, kings, &mut sink);
    } else if men != 0 && !push_single_jumps::<P, WHITE>(b, out) {
        let mut sink = RawCaptures {
            list: out,
            maximum,
            best: 0,
        };
        generate_captures::<P, WHITE, _>(b, men, 0, &mut sink);
    }
    if out.is_empty() || !mandatory {
        generate_quiets_unordered::<P, WHITE>(b, out);
    }
}
