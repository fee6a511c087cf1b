//! Randomised Swiss tournaments played through the service layer (the events issue: "a
//! randomized test that plays whole tournaments through the service and checks the absolute
//! criteria after every round").
//!
//! Each case is one event drawn from a seed: 7 to 60 players, 5 to 9 rounds, random results
//! (with forfeits), requested half-point byes (`H`) and absences (`Z`), withdrawals, late
//! entries and forbidden pairs; one event in four is "rough" (many more of those). After
//! every round the rounds are read back and checked against the absolute criteria of FIDE
//! C.04.1 / C.04.3 (TOURNAMENTS.md): no two players play each other twice over the board (a
//! pairing that was not played, a forfeit, may be repeated: FIDE "such a pairing is not
//! considered to be illegal in future rounds", as bbpPairings does; forbidden pairs never
//! meet), the pairing-allocated bye at most once and never
//! after an unplayed full point, every present player paired exactly once, no meeting of two
//! non-topscorers with the same absolute colour preference, colours that respect an absolute
//! preference, and standings that add up. An event keeps going after a broken criterion;
//! each such round is reported with the seed, the players and (first time) the TRF the
//! engine paired from. Violations are tagged (`[met twice]`, `[C3]`, `[PAB]`, ...) and
//! counted per tag at the end.
//!
//! The engine may refuse a round ("no valid pairing") only when the exhaustive prover of
//! `backend/domain/tests/common/pairing_proof.rs` shows that no pairing satisfies those
//! criteria; a refusal it cannot prove is a violation (`[gave up]`, with the pairing the
//! prover found), and any other pairing error fails at once. Events ended by a proven
//! refusal are counted, each with its reason, and must stay rare (`Totals::assert_floor`).
//!
//! Replay one case (seed, smallest and largest field):
//! `DAMKA_SWISS_SEED=0x1234abcd:7:60 cargo test -p damka --test integration
//! swiss_random::random_swiss_tournaments -- --exact --nocapture`.
//! More cases, best in release mode: `DAMKA_SWISS_COUNT=500 cargo test --release -p damka
//! --test integration swiss_random:: -- --ignored --nocapture` (`DAMKA_SWISS_BASE` picks
//! another series, `DAMKA_SWISS_MIN` / `DAMKA_SWISS_MAX` the field sizes). CI runs a short
//! series in debug: `DAMKA_SWISS_COUNT=15 cargo test --test integration
//! swiss_random::random_swiss_tournaments_many -- --ignored --exact`.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::time::Instant;

use common::{Role, TestApp};
use damka::service::events::entries::{AbsenceInput, EntryInput, EntryView};
use damka::service::events::reports::StandingsView;
use damka::service::events::rounds::{ResultInput, RoundView};
use damka::service::events::{EventInput, entries, reports, rounds, settings};
use damka::service::{Actor, AppError, Refusal};
use damka::store::models::{PlayerFields, PlayerRating};
use damka::store::{self, DbConn};
use damka_domain::tournament::Colour;
use damka_domain::vocabulary::{Spelling, System};

// The exhaustive prover the domain crate's random pairing tests use.
#[path = "../../backend/domain/tests/common/pairing_proof.rs"]
mod pairing_proof;
use pairing_proof::{DEFAULT_BUDGET, PlayerFacts, Problem, Verdict};

// ---------------------------------------------------------------------------------------
// A tiny deterministic generator: splitmix64 to spread the seed, then xorshift64*.

fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(splitmix(seed) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// 0..n (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// lo..=hi.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `p`/1000.
    fn per_mille(&mut self, p: u64) -> bool {
        self.below(1000) < p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

// ---------------------------------------------------------------------------------------
// Rounds as read back from the service.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Res {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    Pending,
}

/// What one entry did in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Game {
        opponent: i64,
        white: bool,
        res: Res,
    },
    Bye(char),
}

impl Slot {
    fn half_points(self, pab: u32) -> u32 {
        match self {
            Slot::Game {
                res: Res::Win | Res::ForfeitWin,
                ..
            } => 2,
            Slot::Game { res: Res::Draw, .. } => 1,
            Slot::Game { .. } => 0,
            Slot::Bye('U') => pab,
            Slot::Bye('F') => 2,
            Slot::Bye('H') => 1,
            Slot::Bye(_) => 0,
        }
    }

    /// The colour played over the board; forfeits and byes have none for colour purposes.
    fn played_white(self) -> Option<bool> {
        match self {
            Slot::Game {
                white,
                res: Res::Win | Res::Draw | Res::Loss,
                ..
            } => Some(white),
            _ => None,
        }
    }

    /// An unplayed round worth a win: it makes the player ineligible for the PAB.
    fn unplayed_full_point(self, pab: u32) -> bool {
        match self {
            Slot::Game { res, .. } => res == Res::ForfeitWin,
            Slot::Bye('U') => true,
            Slot::Bye(c) => Slot::Bye(c).half_points(pab) >= 2,
        }
    }

    fn label(self) -> String {
        match self {
            Slot::Game { white, res, .. } => {
                let c = if white { 'w' } else { 'b' };
                match res {
                    Res::Win => format!("{c}1"),
                    Res::Draw => format!("{c}="),
                    Res::Loss => format!("{c}0"),
                    Res::ForfeitWin => format!("{c}+"),
                    Res::ForfeitLoss => format!("{c}-"),
                    Res::DoubleForfeit => format!("{c}--"),
                    Res::Pending => format!("{c}?"),
                }
            }
            Slot::Bye(c) => c.to_string(),
        }
    }
}

fn result_codes(code: Option<&str>) -> Option<(Res, Res)> {
    Some(match code {
        Some("1-0") => (Res::Win, Res::Loss),
        Some("1/2-1/2") => (Res::Draw, Res::Draw),
        Some("0-1") => (Res::Loss, Res::Win),
        Some("+/-") => (Res::ForfeitWin, Res::ForfeitLoss),
        Some("-/+") => (Res::ForfeitLoss, Res::ForfeitWin),
        Some("-/-") => (Res::DoubleForfeit, Res::DoubleForfeit),
        None => (Res::Pending, Res::Pending),
        Some(_) => return None,
    })
}

/// One round by entry; structural problems (an entry twice, a bye without a code) go to
/// `problems`.
fn parse_round(round: &RoundView, problems: &mut Vec<String>) -> HashMap<i64, Slot> {
    let mut slots = HashMap::new();
    let mut put = |entry: i64, slot: Slot, problems: &mut Vec<String>| {
        if let Some(old) = slots.insert(entry, slot) {
            problems.push(format!(
                "[service] entry {entry} appears twice in round {} ({} and {})",
                round.number,
                old.label(),
                slot.label()
            ));
        }
    };
    for b in &round.boards {
        match b.black_entry_id {
            Some(black) => {
                if black == b.white_entry_id {
                    problems.push(format!(
                        "[service] board {}: entry {black} plays itself",
                        b.board
                    ));
                }
                if b.bye.is_some() {
                    problems.push(format!(
                        "[service] board {}: a game with a bye code",
                        b.board
                    ));
                }
                let (w, bl) = result_codes(b.result.map(|r| r.spelling())).unwrap_or_else(|| {
                    problems.push(format!(
                        "[service] board {}: unknown result {:?}",
                        b.board, b.result
                    ));
                    (Res::Pending, Res::Pending)
                });
                let white = b.white_entry_id;
                put(
                    white,
                    Slot::Game {
                        opponent: black,
                        white: true,
                        res: w,
                    },
                    problems,
                );
                put(
                    black,
                    Slot::Game {
                        opponent: white,
                        white: false,
                        res: bl,
                    },
                    problems,
                );
            }
            None => {
                let code = b.bye.map(|kind| kind.letter());
                let Some(code) = code else {
                    problems.push(format!(
                        "[service] board {}: entry {} has neither an opponent nor a bye code",
                        b.board, b.white_entry_id
                    ));
                    continue;
                };
                if !"UHFZ".contains(code) {
                    problems.push(format!(
                        "[service] board {}: unknown bye code {code}",
                        b.board
                    ));
                }
                if b.result.is_some() {
                    problems.push(format!("[service] board {}: a bye with a result", b.board));
                }
                put(b.white_entry_id, Slot::Bye(code), problems);
            }
        }
    }
    slots
}

/// The absolute colour preference (C.04.3 A.6.a) from the colours played over the board,
/// oldest first: `Some(true)` for White. Colour difference beyond ±1, or the same colour in
/// the two latest games played.
fn absolute_preference(colours: &[bool]) -> Option<bool> {
    let whites = colours.iter().filter(|&&w| w).count() as i32;
    let diff = whites - (colours.len() as i32 - whites);
    let n = colours.len();
    if diff > 1 {
        Some(false)
    } else if diff < -1 {
        Some(true)
    } else if n >= 2 && colours[n - 1] == colours[n - 2] {
        Some(!colours[n - 1])
    } else {
        None
    }
}

fn colour_name(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

// ---------------------------------------------------------------------------------------
// What the test did to the event, and the checks.

#[derive(Debug, Clone, Copy)]
struct Case {
    seed: u64,
    min_players: i64,
    max_players: i64,
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seed {:#018x}:{}:{}",
            self.seed, self.min_players, self.max_players
        )
    }
}

struct EntryInfo {
    name: String,
    first_round: i32,
    withdrawn_from: Option<i32>,
}

type Snapshot = Vec<(i64, i32, i64, Option<i64>, Option<String>, Option<String>)>;

struct Model {
    case: Case,
    event_id: i64,
    total_rounds: i32,
    pab: u32,
    entries: BTreeMap<i64, EntryInfo>,
    /// (entry, round) -> `H` or `Z`, as requested.
    requests: HashMap<(i64, i32), char>,
    /// Forbidden pairs and the first round they apply to.
    forbidden: Vec<(i64, i64, i32)>,
    /// The result entered per pairing id.
    results: HashMap<i64, &'static str>,
    /// Each round's boards as first read back.
    snapshots: Vec<Snapshot>,
    /// Start numbers and names from the latest read-back, for messages.
    start_no: HashMap<i64, i32>,
    /// Games in which a player had an absolute colour preference (the colour checks bite).
    absolute_games: usize,
    /// Final-round games between players with the same absolute preference, allowed
    /// because one of them is a topscorer.
    topscorer_exceptions: usize,
}

impl Model {
    fn present(&self, entry: i64, round: i32) -> bool {
        let info = &self.entries[&entry];
        info.first_round <= round && info.withdrawn_from.is_none_or(|w| w > round)
    }

    fn active(&self, round: i32) -> Vec<i64> {
        self.entries
            .keys()
            .copied()
            .filter(|&e| self.present(e, round))
            .collect()
    }

    /// Present and without a requested bye or absence: the players the engine must pair.
    fn pairable(&self, round: i32) -> usize {
        self.active(round)
            .into_iter()
            .filter(|e| !self.requests.contains_key(&(*e, round)))
            .count()
    }

    fn is_forbidden(&self, a: i64, b: i64, round: i32) -> bool {
        self.forbidden
            .iter()
            .any(|&(x, y, from)| from <= round && ((x, y) == (a, b) || (x, y) == (b, a)))
    }

    fn who(&self, entry: i64) -> String {
        let name = self
            .entries
            .get(&entry)
            .map_or("?", |info| info.name.as_str());
        match self.start_no.get(&entry) {
            Some(no) => format!("#{no} {name} (entry {entry})"),
            None => format!("{name} (entry {entry})"),
        }
    }

    fn history_line(&self, hist: &[HashMap<i64, Slot>], entry: i64) -> String {
        hist.iter()
            .map(|round| round.get(&entry).map_or("·".to_string(), |s| s.label()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// All checks after round `r` has been paired and its results entered.
    fn check(
        &mut self,
        r: i32,
        all: &[RoundView],
        entries_now: &[EntryView],
        standings: &StandingsView,
    ) -> Vec<String> {
        let mut v = Vec::new();
        for e in entries_now {
            self.start_no.insert(e.id, e.start_no);
        }

        // The entries as the service keeps them match what the test did.
        if entries_now.len() != self.entries.len() {
            v.push(format!(
                "[service] the event has {} entries, the test made {}",
                entries_now.len(),
                self.entries.len()
            ));
        }
        for e in entries_now {
            match self.entries.get(&e.id) {
                Some(info)
                    if info.first_round == e.first_round
                        && info.withdrawn_from == e.withdrawn_from_round => {}
                Some(info) => v.push(format!(
                    "[service] {}: first round {} withdrawn from {:?}, expected {} and {:?}",
                    self.who(e.id),
                    e.first_round,
                    e.withdrawn_from_round,
                    info.first_round,
                    info.withdrawn_from
                )),
                None => v.push(format!("[service] unexpected entry {}", e.id)),
            }
        }

        // Rounds: exactly 1..=r, all published; earlier rounds unchanged.
        let numbers: Vec<i32> = all.iter().map(|round| round.number).collect();
        if numbers != (1..=r).collect::<Vec<_>>() {
            v.push(format!(
                "[service] rounds listed: {numbers:?}, expected 1..={r}"
            ));
            return v;
        }
        if let Some(round) = all.iter().find(|round| !round.published) {
            v.push(format!("[service] round {} is not published", round.number));
        }
        for (i, round) in all.iter().enumerate() {
            let snap: Snapshot = round
                .boards
                .iter()
                .map(|b| {
                    (
                        b.pairing_id,
                        b.board,
                        b.white_entry_id,
                        b.black_entry_id,
                        b.bye.map(|kind| kind.code().to_string()),
                        b.result.map(|r| r.spelling().to_string()),
                    )
                })
                .collect();
            if i < self.snapshots.len() {
                if self.snapshots[i] != snap {
                    v.push(format!(
                        "[service] round {} changed after later rounds were paired",
                        round.number
                    ));
                }
            } else {
                self.snapshots.push(snap);
            }
        }
        let current = &all[r as usize - 1];
        for b in &current.boards {
            if b.black_entry_id.is_some() {
                let entered = self.results.get(&b.pairing_id).copied();
                if b.result.map(|r| r.spelling()) != entered {
                    v.push(format!(
                        "[service] board {}: result read back {:?}, entered {:?}",
                        b.board, b.result, entered
                    ));
                }
            }
        }

        let hist: Vec<HashMap<i64, Slot>> =
            all.iter().map(|round| parse_round(round, &mut v)).collect();
        let before = &hist[..r as usize - 1];
        let cur = &hist[r as usize - 1];
        let score_before = |e: i64| -> u32 {
            before
                .iter()
                .filter_map(|m| m.get(&e))
                .map(|s| s.half_points(self.pab))
                .sum()
        };
        let colours_before = |e: i64| -> Vec<bool> {
            before
                .iter()
                .filter_map(|m| m.get(&e))
                .filter_map(|s| s.played_white())
                .collect()
        };

        // Every present player exactly once: requested byes `H`, absences `Z`, the others
        // in a game or with the PAB; players not present are not in the round at all.
        for (&e, info) in &self.entries {
            let present = self.present(e, r);
            let request = self.requests.get(&(e, r)).copied();
            let slot = cur.get(&e).copied();
            let fine = match (present, request, slot) {
                (false, _, None) => true,
                (false, _, Some(_)) => false,
                (true, Some(k), Some(Slot::Bye(c))) => k == c,
                (true, Some(_), _) => false,
                (true, None, Some(Slot::Game { .. } | Slot::Bye('U'))) => true,
                (true, None, _) => false,
            };
            if !fine {
                v.push(format!(
                    "[paired once] {}: {} (first round {}, withdrawn from {:?}), request {:?}, got {}",
                    self.who(e),
                    if present { "present" } else { "not present" },
                    info.first_round,
                    info.withdrawn_from,
                    request,
                    slot.map_or("nothing".to_string(), |s| s.label())
                ));
            }
        }
        for &e in cur.keys() {
            if !self.entries.contains_key(&e) {
                v.push(format!("[service] unknown entry {e} in round {r}"));
            }
        }
        let pabs: Vec<i64> = cur
            .iter()
            .filter(|(_, s)| **s == Slot::Bye('U'))
            .map(|(e, _)| *e)
            .collect();
        let pairable = self.pairable(r);
        if pabs.len() != pairable % 2 {
            v.push(format!(
                "[paired once] {} pairable players but {} pairing-allocated byes ({})",
                pairable,
                pabs.len(),
                pabs.iter()
                    .map(|e| self.who(*e))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }

        // The PAB at most once, never after an unplayed full point (C.04.1 4).
        for &e in &pabs {
            for (k, round) in before.iter().enumerate() {
                if let Some(s) = round.get(&e)
                    && s.unplayed_full_point(self.pab)
                {
                    v.push(format!(
                        "[PAB] {} gets the pairing-allocated bye after {} in round {} (history {})",
                        self.who(e),
                        s.label(),
                        k + 1,
                        self.history_line(&hist, e)
                    ));
                }
            }
        }

        // Games: no second meeting, no forbidden pair, C3 and colour allocation.
        let topscorer = |e: i64| r == self.total_rounds && score_before(e) > (r - 1) as u32;
        let mut games: Vec<(i64, i64)> = cur
            .iter()
            .filter_map(|(&e, s)| match *s {
                Slot::Game {
                    opponent,
                    white: true,
                    ..
                } => Some((e, opponent)),
                _ => None,
            })
            .collect();
        games.sort_unstable();
        let (mut absolute_games, mut topscorer_exceptions) = (0, 0);
        for (w, b) in games {
            for (k, round) in before.iter().enumerate() {
                if let Some(earlier @ Slot::Game { opponent, .. }) = round.get(&w)
                    && *opponent == b
                {
                    // Only a game played over the board forbids a second meeting; a
                    // forfeited pairing may be repeated (FIDE: "such a pairing is not
                    // considered to be illegal in future rounds"; bbpPairings agrees).
                    if earlier.played_white().is_none() {
                        continue;
                    }
                    let tag = "[met twice]";
                    v.push(format!(
                        "{tag} {} and {} meet again in round {r}: they were paired in round {} ({} from the first one's side)",
                        self.who(w),
                        self.who(b),
                        k + 1,
                        earlier.label()
                    ));
                }
            }
            if self.is_forbidden(w, b, r) {
                v.push(format!(
                    "[forbidden pair] {} and {} are a forbidden pair but meet",
                    self.who(w),
                    self.who(b)
                ));
            }
            let (cw, cb) = (colours_before(w), colours_before(b));
            let (pw, pb) = (absolute_preference(&cw), absolute_preference(&cb));
            let describe = |e: i64, top: bool| {
                format!(
                    "{} (score {}/2{}, history {})",
                    self.who(e),
                    score_before(e),
                    if top { ", topscorer" } else { "" },
                    self.history_line(before, e)
                )
            };
            absolute_games += usize::from(pw.is_some() || pb.is_some());
            if pw.is_some() && pw == pb && (topscorer(w) || topscorer(b)) {
                topscorer_exceptions += 1;
            }
            if let (Some(x), Some(y)) = (pw, pb)
                && x == y
                && !topscorer(w)
                && !topscorer(b)
            {
                v.push(format!(
                    "[C3] non-topscorers with the same absolute preference for {} meet: {} - {}",
                    colour_name(x),
                    describe(w, topscorer(w)),
                    describe(b, topscorer(b))
                ));
            }
            if let Some(x) = pw
                && pb != Some(x)
                && !x
            {
                v.push(format!(
                    "[colour] {} has an absolute preference for Black but gets White against {}",
                    describe(w, topscorer(w)),
                    describe(b, topscorer(b))
                ));
            }
            if let Some(y) = pb
                && pw != Some(y)
                && y
            {
                v.push(format!(
                    "[colour] {} has an absolute preference for White but gets Black against {}",
                    describe(b, topscorer(b)),
                    describe(w, topscorer(w))
                ));
            }
        }

        self.absolute_games += absolute_games;
        self.topscorer_exceptions += topscorer_exceptions;

        // Standings: points are the sum of the results, in order.
        if standings.after_round != r as u32 {
            v.push(format!(
                "[standings] standings after round {} instead of {r}",
                standings.after_round
            ));
        }
        let total = |e: i64| -> u32 {
            hist.iter()
                .filter_map(|m| m.get(&e))
                .map(|s| s.half_points(self.pab))
                .sum()
        };
        let mut listed = BTreeSet::new();
        for row in &standings.rows {
            listed.insert(row.entry_id);
            let expected = total(row.entry_id);
            if row.half_points != expected {
                v.push(format!(
                    "[standings] standings: {} has {} half-points, the results give {} (history {})",
                    self.who(row.entry_id),
                    row.half_points,
                    expected,
                    self.history_line(&hist, row.entry_id)
                ));
            }
        }
        for w in standings.rows.windows(2) {
            if w[0].half_points < w[1].half_points {
                v.push(format!(
                    "[standings] standings out of order: {} ({}) above {} ({})",
                    self.who(w[0].entry_id),
                    w[0].half_points,
                    self.who(w[1].entry_id),
                    w[1].half_points
                ));
            }
        }
        for &e in self.entries.keys() {
            if hist.iter().any(|m| m.contains_key(&e)) && !listed.contains(&e) {
                v.push(format!("[standings] standings: {} is missing", self.who(e)));
            }
        }
        v
    }

    /// Round `r` as the absolute criteria see it, from the rounds read back before it
    /// (`all`) and what the test did: the players present and without a request, each
    /// named by entry id.
    fn problem(&self, r: i32, all: &[RoundView]) -> Problem {
        let mut ignored = Vec::new();
        let hist: Vec<HashMap<i64, Slot>> = all
            .iter()
            .filter(|round| round.number < r)
            .map(|round| parse_round(round, &mut ignored))
            .collect();
        let slots = |e: i64| hist.iter().filter_map(move |m| m.get(&e).copied());
        let players = self
            .active(r)
            .into_iter()
            .filter(|e| !self.requests.contains_key(&(*e, r)))
            .map(|e| PlayerFacts {
                id: entry_number(e),
                score: slots(e).map(|s| s.half_points(self.pab)).sum(),
                colours: slots(e)
                    .filter_map(Slot::played_white)
                    .map(|w| if w { Colour::White } else { Colour::Black })
                    .collect(),
                met: slots(e)
                    .filter(|s| s.played_white().is_some())
                    .filter_map(|s| match s {
                        Slot::Game { opponent, .. } => Some(entry_number(opponent)),
                        Slot::Bye(_) => None,
                    })
                    .collect(),
                scored_without_playing: slots(e).any(|s| s.unplayed_full_point(self.pab)),
            })
            .collect();
        Problem {
            players,
            forbidden: self
                .forbidden
                .iter()
                .filter(|&&(_, _, from)| from <= r)
                .map(|&(a, b, _)| (entry_number(a), entry_number(b)))
                .collect(),
            last_round: r == self.total_rounds,
            max_score: 2 * (r as u32 - 1),
        }
    }

    /// The prover's statement of the absolute criteria accepts round `r` as paired (the
    /// checks above say the same in their own words): what keeps [`Model::problem`] honest,
    /// so that a refusal it proves is proven about the event as it was.
    fn prover_accepts(&self, r: i32, all: &[RoundView]) -> Vec<String> {
        let problem = self.problem(r, all);
        let mut ignored = Vec::new();
        let round = parse_round(&all[r as usize - 1], &mut ignored);
        let mut pairs = Vec::new();
        let mut bye = None;
        for (&e, slot) in &round {
            match *slot {
                Slot::Game {
                    opponent,
                    white: true,
                    ..
                } => pairs.push((entry_number(e), entry_number(opponent))),
                Slot::Bye('U') => bye = Some(entry_number(e)),
                _ => {}
            }
        }
        problem
            .violations(&pairs, bye)
            .into_iter()
            .map(|broken| format!("[prover] the prover rejects the round (entry ids): {broken}"))
            .collect()
    }

    /// The report of one round that broke a criterion; the TRFs only for the first such
    /// round of an event (they grow long).
    fn report(&self, r: i32, violations: &[String], trfs: Option<(&str, &str)>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} (event {}, {} rounds, PAB worth {} half-points): round {r}",
            self.case, self.event_id, self.total_rounds, self.pab
        );
        for line in violations {
            let _ = writeln!(out, "  - {line}");
        }
        if let Some(snap) = self.snapshots.get(r as usize - 1) {
            let _ = writeln!(out, "pairing of round {r}:");
            for (_, board, white, black, bye, result) in snap {
                match black {
                    Some(black) => {
                        let _ = writeln!(
                            out,
                            "  {board:>3}. {} - {}  {}",
                            self.who(*white),
                            self.who(*black),
                            result.as_deref().unwrap_or("")
                        );
                    }
                    None => {
                        let _ = writeln!(
                            out,
                            "  {board:>3}. {} {}",
                            self.who(*white),
                            bye.as_deref().unwrap_or("?")
                        );
                    }
                }
            }
        }
        if let Some((before, after)) = trfs {
            if r > 1 {
                let _ = writeln!(out, "TRF the engine paired round {r} from:\n{before}");
            }
            if after != before {
                let _ = writeln!(out, "TRF after round {r}:\n{after}");
            }
        }
        out
    }
}

/// A round the engine refused and the prover showed impossible.
#[derive(Debug, Clone)]
struct ProvenRefusal {
    round: i32,
    /// Players to pair in that round.
    pairable: usize,
    /// Players in the event in that round (those with a requested bye or absence too).
    still_in: usize,
    /// Why no pairing exists (the prover's players are entry ids).
    why: String,
}

#[derive(Debug, Default)]
struct Summary {
    players: usize,
    rounds: i32,
    played: i32,
    ended_early: bool,
    /// Why the event ended early, when the engine's refusal was proven.
    refusal: Option<ProvenRefusal>,
    games: usize,
    forfeits: usize,
    requests: usize,
    withdrawals: usize,
    late: usize,
    forbidden: usize,
    absolute_games: usize,
    topscorer_exceptions: usize,
    rough: bool,
    /// Every criterion broken, one line each (tagged `[C3]`, `[PAB]`, ...).
    violations: Vec<String>,
    /// One report per round that broke a criterion.
    reports: Vec<String>,
}

/// How eventful an event is, in per mille: most are calm, one in four is rough (many
/// forfeits, byes, absences and withdrawals).
struct Rates {
    forfeit: u64,
    double_forfeit: u64,
    half_bye: u64,
    absence: u64,
    withdrawal: u64,
}

const CALM: Rates = Rates {
    forfeit: 50,
    double_forfeit: 10,
    half_bye: 30,
    absence: 20,
    withdrawal: 150,
};

const ROUGH: Rates = Rates {
    forfeit: 150,
    double_forfeit: 30,
    half_bye: 80,
    absence: 50,
    withdrawal: 350,
};

fn random_result(rng: &mut Rng, rates: &Rates) -> &'static str {
    let roll = rng.below(1000);
    if roll < rates.forfeit / 2 {
        "+/-"
    } else if roll < rates.forfeit {
        "-/+"
    } else if roll < rates.forfeit + rates.double_forfeit {
        "-/-"
    } else {
        match rng.below(100) {
            0..=39 => "1-0",
            40..=64 => "1/2-1/2",
            _ => "0-1",
        }
    }
}

/// An entry id as the prover's player number.
fn entry_number(entry: i64) -> u32 {
    u32::try_from(entry).expect("entry ids of a test database fit in u32")
}

fn is_no_valid_pairing(e: &AppError) -> bool {
    matches!(
        e,
        AppError::Conflict {
            reason: Refusal::NoValidPairing
        }
    )
}

/// Plays one event to the end (or until no valid pairing exists), checking every round.
fn play(conn: &mut DbConn, actor: &Actor, case: Case) -> Summary {
    let mut rng = Rng::new(case.seed);
    let n = rng.range(case.min_players, case.max_players) as usize;
    let total = rng.range(5, 9) as i32;
    let late_until = if rng.per_mille(400) {
        rng.range(2, 4) as i32
    } else {
        0
    };
    let late_pool = if late_until > 0 {
        rng.range(1, 4) as usize
    } else {
        0
    };
    let pab = match rng.below(10) {
        0 => 1,
        1 => 0,
        _ => 2,
    };
    let first_colour = if rng.per_mille(500) {
        Colour::White
    } else {
        Colour::Black
    };
    let rough = rng.per_mille(250);
    let rates = if rough { &ROUGH } else { &CALM };
    let event = settings::create(
        conn,
        actor,
        &EventInput {
            name: format!("Random Swiss {:#x}", case.seed),
            system: System::Swiss,
            rounds: total,
            pab_half_points: pab as i32,
            first_colour,
            late_entry_until_round: late_until,
            ..EventInput::default()
        },
    )
    .unwrap();
    let id = event.id;

    // Profiles: mostly rated, some unrated, some sharing a rating (ties go by name).
    let mut profiles = Vec::new();
    let mut last_rating = 1500;
    for i in 0..n + late_pool {
        let player = store::players::insert(
            conn,
            &PlayerFields {
                name: format!("P{i:02} {:04x}", case.seed & 0xffff),
                club_id: None,
                country: String::new(),
                federation_id: String::new(),
                birth_year: None,
                title: String::new(),
            },
            store::now(),
        )
        .unwrap();
        let rating = match rng.below(20) {
            0..=2 => None,
            3 => Some(last_rating),
            _ => Some(rng.range(1000, 2400) as i32),
        };
        if let Some(rating) = rating {
            last_rating = rating;
            store::players::set_rating(
                conn,
                &PlayerRating {
                    player_id: player.id,
                    variant: damka_engine::Variant::Russian,
                    rating,
                    games: 20,
                },
            )
            .unwrap();
            // A starting rating counts once the variant is recomputed, as imports do.
            damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
                .unwrap();
        }
        profiles.push(player.id);
    }

    let mut model = Model {
        case,
        event_id: id,
        total_rounds: total,
        pab,
        entries: BTreeMap::new(),
        requests: HashMap::new(),
        forbidden: Vec::new(),
        results: HashMap::new(),
        snapshots: Vec::new(),
        start_no: HashMap::new(),
        absolute_games: 0,
        topscorer_exceptions: 0,
    };
    let mut summary = Summary {
        players: n,
        rounds: total,
        ..Summary::default()
    };
    let enter = |conn: &mut DbConn, model: &mut Model, player: i64, round: i32| {
        let e = entries::add(
            conn,
            actor,
            id,
            &EntryInput {
                player_id: Some(player),
            },
        )
        .unwrap();
        assert_eq!(e.first_round, round, "{case}: first round of a new entry");
        model.entries.insert(
            e.id,
            EntryInfo {
                name: e.name,
                first_round: round,
                withdrawn_from: None,
            },
        );
    };
    for &p in &profiles[..n] {
        enter(conn, &mut model, p, 1);
    }
    let mut spare: Vec<i64> = profiles[n..].to_vec();

    let forbid = |conn: &mut DbConn, model: &mut Model, rng: &mut Rng, round: i32| {
        let active = model.active(round);
        if active.len() < 2 {
            return false;
        }
        for _ in 0..10 {
            let (a, b) = (rng.pick(&active), rng.pick(&active));
            let met =
                model.snapshots.iter().flatten().any(|(_, _, w, bl, _, _)| {
                    (*w, *bl) == (a, Some(b)) || (*w, *bl) == (b, Some(a))
                });
            if a != b && !met && !model.is_forbidden(a, b, total + 1) {
                entries::forbid_pair(conn, actor, id, a, b).unwrap();
                model.forbidden.push((a, b, round));
                return true;
            }
        }
        false
    };
    for _ in 0..rng.range(0, 3) {
        summary.forbidden += usize::from(forbid(conn, &mut model, &mut rng, 1));
    }

    for r in 1..=total {
        if r > 1 {
            let active = model.active(r);
            if active.len() > 4 && rng.per_mille(rates.withdrawal) {
                let e = rng.pick(&active);
                entries::withdraw(conn, actor, id, e).unwrap();
                model.entries.get_mut(&e).unwrap().withdrawn_from = Some(r);
                summary.withdrawals += 1;
            }
            if r <= late_until {
                while !spare.is_empty() && rng.per_mille(500) {
                    let p = spare.pop().unwrap();
                    enter(conn, &mut model, p, r);
                    summary.late += 1;
                }
            } else if late_until > 0 && r == late_until + 1 && !spare.is_empty() {
                let refused = entries::add(
                    conn,
                    actor,
                    id,
                    &EntryInput {
                        player_id: Some(spare[0]),
                    },
                );
                assert!(
                    matches!(refused, Err(AppError::Conflict { .. })),
                    "{case}: a late entry for round {r} must be refused (until round {late_until}): {refused:?}"
                );
            }
            if rng.per_mille(100) {
                summary.forbidden += usize::from(forbid(conn, &mut model, &mut rng, r));
            }
        }
        for e in model.active(r) {
            let roll = rng.below(1000);
            let kind = if roll < rates.half_bye {
                'H'
            } else if roll < rates.half_bye + rates.absence {
                'Z'
            } else {
                continue;
            };
            entries::set_absence(
                conn,
                actor,
                id,
                e,
                &AbsenceInput {
                    round: r,
                    kind: kind.to_string(),
                },
            )
            .unwrap();
            model.requests.insert((e, r), kind);
            summary.requests += 1;
        }

        let pairable = model.pairable(r);
        let trf_before = reports::trf(conn, actor, id).unwrap();
        let round = match rounds::pair_next(conn, actor, id) {
            Ok(round) => round,
            Err(e) if is_no_valid_pairing(&e) => {
                // Accepted only when the prover shows that no pairing satisfies the
                // absolute criteria; then the event cannot go on.
                let all = rounds::list(conn, actor, id).unwrap();
                let problem = model.problem(r, &all);
                let unproven = match problem.solve(DEFAULT_BUDGET) {
                    Verdict::Impossible { nodes } => {
                        summary.refusal = Some(ProvenRefusal {
                            round: r,
                            pairable,
                            still_in: model.active(r).len(),
                            why: problem.obstruction().map_or_else(
                                || format!("exhaustive search, {nodes} nodes"),
                                |why| why.replace("player ", "entry "),
                            ),
                        });
                        None
                    }
                    Verdict::Pairing { pairs, bye } => Some(format!(
                        "[gave up] no valid pairing for {pairable} players in round {r} of \
                         {total}, but this one satisfies every absolute criterion: {}{}",
                        pairs
                            .iter()
                            .map(|&(a, b)| format!(
                                "{} - {}",
                                model.who(a.into()),
                                model.who(b.into())
                            ))
                            .collect::<Vec<_>>()
                            .join(", "),
                        bye.map_or(String::new(), |p| format!(", bye {}", model.who(p.into())))
                    )),
                    Verdict::Undecided { nodes } => Some(format!(
                        "[gave up] no valid pairing for {pairable} players in round {r} of \
                         {total}, and the prover could not decide in {nodes} nodes"
                    )),
                };
                if let Some(line) = unproven {
                    let lines = [line, problem.describe()];
                    let first = summary.reports.is_empty();
                    let trfs = first.then_some((trf_before.as_str(), trf_before.as_str()));
                    summary.reports.push(model.report(r, &lines, trfs));
                    summary.violations.push(lines[0].clone());
                }
                summary.ended_early = true;
                break;
            }
            Err(e) => panic!("{case}: pairing round {r} failed: {e:?}"),
        };
        assert_eq!(round.number, r, "{case}");
        rounds::publish_last(conn, actor, id).unwrap();
        for b in round.boards.iter().filter(|b| b.black_entry_id.is_some()) {
            let code = random_result(&mut rng, rates);
            rounds::set_result(conn, actor, id, b.pairing_id, &ResultInput::typed(code)).unwrap();
            model.results.insert(b.pairing_id, code);
            summary.games += 1;
            summary.forfeits += usize::from(code.contains('+') || code == "-/-");
        }
        summary.played = r;

        let all = rounds::list(conn, actor, id).unwrap();
        let entries_now = entries::list(conn, id).unwrap();
        let standings = reports::standings(conn, id, Some(r as u32)).unwrap();
        let mut violations = model.check(r, &all, &entries_now, &standings);
        violations.extend(model.prover_accepts(r, &all));
        if !violations.is_empty() {
            // Keep playing: a later round may break another criterion.
            let trf_after = reports::trf(conn, actor, id).unwrap();
            let first = summary.reports.is_empty();
            let trfs = first.then_some((trf_before.as_str(), trf_after.as_str()));
            summary.reports.push(model.report(r, &violations, trfs));
            summary.violations.extend(violations);
        }
    }
    summary.absolute_games = model.absolute_games;
    summary.topscorer_exceptions = model.topscorer_exceptions;
    summary.rough = rough;
    summary
}

/// What a series of events came to.
#[derive(Debug, Default)]
struct Totals {
    events: usize,
    planned_rounds: i32,
    paired_rounds: i32,
    /// Events ended by a refusal the prover showed impossible: the case, its size and the
    /// round.
    proven_refusals: Vec<String>,
    /// Those of them with more players still in than the event's rounds + 2: events with
    /// room to spare, where running out of valid pairings is not expected (the others are
    /// nearly as long as a round-robin of their players).
    with_room: Vec<String>,
}

impl Totals {
    fn add(&mut self, case: Case, s: &Summary) {
        self.events += 1;
        self.planned_rounds += s.rounds;
        self.paired_rounds += s.played;
        if let Some(refusal) = &s.refusal {
            let line = format!(
                "{case} ({} players, {} still in, round {} of {}: {})",
                s.players, refusal.still_in, refusal.round, s.rounds, refusal.why
            );
            if s.rounds as usize + 2 < refusal.still_in {
                self.with_room.push(line.clone());
            }
            self.proven_refusals.push(line);
        }
    }

    /// Every event was paired to its end.
    fn assert_all_paired(&self) {
        assert!(
            self.paired_rounds == self.planned_rounds,
            "{} of {} rounds paired: {}",
            self.paired_rounds,
            self.planned_rounds,
            self.proven_refusals.join(", ")
        );
    }

    /// Events that end early must stay rare even when each end is proven: at most one in
    /// `events_per_refusal`, and at least `per_mille` of the planned rounds paired (set for
    /// the default field sizes); and an event with room to spare (`with_room`) at most one
    /// in fifty.
    fn assert_floor(&self, events_per_refusal: usize, per_mille: i32) {
        let refusals = self.proven_refusals.len();
        assert!(
            self.with_room.len() * 50 <= self.events,
            "events with more players than rounds + 2 ran out of valid pairings: {}",
            self.with_room.join(", ")
        );
        assert!(
            refusals * events_per_refusal <= self.events
                && self.paired_rounds * 1000 >= self.planned_rounds * per_mille,
            "too many events ended early, even if each end is proven: {refusals} of {} \
             events, {} of {} rounds paired (floor: one event in {events_per_refusal}, \
             {per_mille}‰ of the rounds): {}",
            self.events,
            self.paired_rounds,
            self.planned_rounds,
            self.proven_refusals.join(", ")
        );
    }
}

/// Plays the cases on one fresh database; fails with every report at the end, else
/// returns what the series came to.
async fn run(cases: Vec<Case>) -> Totals {
    let app = TestApp::new().await;
    app.user("org@x.org", Role::Organiser).await;
    let started = Instant::now();
    let (failures, totals) = app
        .with_db(move |conn| {
            let user = store::accounts::user_by_email(conn, "org@x.org")
                .unwrap()
                .expect("the organiser exists");
            let actor = Actor::signed_in(user);
            let mut failures: Vec<(Case, Summary)> = Vec::new();
            let mut totals = Totals::default();
            for case in cases {
                let started = Instant::now();
                let s = play(conn, &actor, case);
                totals.add(case, &s);
                println!(
                    "{case}: {}{} players, {}/{} rounds{}, {} games ({} forfeits, {} with an absolute colour preference, {} topscorer exceptions), {} byes/absences requested, {} withdrawn, {} late, {} forbidden pairs: {} in {:.1?}",
                    if s.rough { "rough, " } else { "" },
                    s.players,
                    s.played,
                    s.rounds,
                    match (s.ended_early, &s.refusal) {
                        (false, _) => String::new(),
                        (true, Some(refusal)) => format!(
                            " (then no valid pairing for {} players, proven: {})",
                            refusal.pairable, refusal.why
                        ),
                        (true, None) => " (then no valid pairing, NOT proven)".to_string(),
                    },
                    s.games,
                    s.forfeits,
                    s.absolute_games,
                    s.topscorer_exceptions,
                    s.requests,
                    s.withdrawals,
                    s.late,
                    s.forbidden,
                    if s.reports.is_empty() {
                        "ok".to_string()
                    } else {
                        format!("{} VIOLATION(S)", s.violations.len())
                    },
                    started.elapsed()
                );
                for report in &s.reports {
                    println!("{report}");
                }
                if !s.reports.is_empty() {
                    failures.push((case, s));
                }
            }
            (failures, totals)
        })
        .await;
    println!(
        "played in {:.1?}: {} events, {} of {} rounds paired, {} ended by a proven refusal \
         ({} of them with room to spare)",
        started.elapsed(),
        totals.events,
        totals.paired_rounds,
        totals.planned_rounds,
        totals.proven_refusals.len(),
        totals.with_room.len()
    );
    if failures.is_empty() {
        return totals;
    }
    // Which criteria broke, how often, and in which cases.
    let mut kinds: BTreeMap<String, (usize, BTreeSet<String>)> = BTreeMap::new();
    for (case, s) in &failures {
        for line in &s.violations {
            let tag = line
                .split(']')
                .next()
                .map_or(String::new(), |t| format!("{t}]"));
            let entry = kinds.entry(tag).or_default();
            entry.0 += 1;
            entry.1.insert(case.to_string());
        }
    }
    let mut message = format!(
        "{} of the random Swiss events broke a criterion:\n",
        failures.len()
    );
    for (tag, (count, cases)) in &kinds {
        let _ = writeln!(
            message,
            "  {tag} {count} time(s) in: {}",
            cases.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let _ = write!(message, "\nFirst report:\n{}", failures[0].1.reports[0]);
    panic!("{message}");
}

/// `DAMKA_SWISS_SEED=seed[:min:max]` replays one case.
fn case_from_env() -> Option<Case> {
    let text = std::env::var("DAMKA_SWISS_SEED").ok()?;
    let mut parts = text.split(':');
    let seed = parts.next()?.trim();
    let seed = match seed.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => seed.parse().ok()?,
    };
    let min_players = parts.next().and_then(|p| p.parse().ok()).unwrap_or(7);
    let max_players = parts.next().and_then(|p| p.parse().ok()).unwrap_or(60);
    Some(Case {
        seed,
        min_players,
        max_players,
    })
}

/// A series of cases: seeds spread from `base`, the field sizes cycling through `sizes`.
fn series(base: u64, count: usize, sizes: &[(i64, i64)]) -> Vec<Case> {
    (0..count)
        .map(|i| {
            let (min_players, max_players) = sizes[i % sizes.len()];
            Case {
                seed: splitmix(base.wrapping_add(i as u64)),
                min_players,
                max_players,
            }
        })
        .collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| match v.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => v.parse().ok(),
        })
        .unwrap_or(default)
}

/// Sixteen events of all sizes (about 30 s of CPU in debug mode), or the one case named by
/// `DAMKA_SWISS_SEED`. Measured: 3 of the 16 end early, each with a proven refusal (events
/// of 7 and 8 players with 7 or 8 rounds and forbidden pairs), 107 of 117 rounds paired.
#[actix_web::test]
async fn random_swiss_tournaments() {
    match case_from_env() {
        Some(case) => {
            run(vec![case]).await;
        }
        None => run(series(
            0x5EED_0001,
            16,
            &[(7, 12), (13, 24), (7, 16), (20, 36), (9, 20), (36, 60)],
        ))
        .await
        .assert_floor(5, 900),
    }
}

/// Many more events (`DAMKA_SWISS_COUNT`, default 200) of 7 to 60 players
/// (`DAMKA_SWISS_MIN`, `DAMKA_SWISS_MAX`): for release runs with `--ignored`. CI runs 15 of
/// them with the debug binary (about 40 s of CPU); measured: 2 of 15 end early (proven), 92
/// of 94 rounds paired; 3 of 30, 194 of 199.
#[actix_web::test]
#[ignore = "long: run in release mode with --ignored"]
async fn random_swiss_tournaments_many() {
    let count = env_number("DAMKA_SWISS_COUNT", 200) as usize;
    let base = env_number("DAMKA_SWISS_BASE", 0xB16_5EED);
    let min = env_number("DAMKA_SWISS_MIN", 7) as i64;
    let max = env_number("DAMKA_SWISS_MAX", 60) as i64;
    run(series(base, count, &[(min, max.max(min))]))
        .await
        .assert_floor(5, 900);
}

// ---------------------------------------------------------------------------------------
// Cases that broke a criterion, kept as they were found (see the report of each).

/// Seeds where forfeited pairings are repeated (#4 and #7 after a double forfeit `-/-` in
/// round 3 meet in round 6), which FIDE allows: kept as regular cases.
#[actix_web::test]
async fn regression_repeat_after_double_forfeit() {
    run(vec![Case {
        seed: 0x0331_7bb4_875f_b038,
        min_players: 7,
        max_players: 12,
    }])
    .await
    .assert_all_paired();
}

/// #8 and #2 are paired in round 2 (`+/-`), round 4 (`-/+`) and round 6: allowed, since
/// neither forfeited pairing was played.
#[actix_web::test]
async fn regression_repeat_after_forfeit_three_times() {
    run(vec![Case {
        seed: 0x3501_cde6_c5c1_9db2,
        min_players: 7,
        max_players: 60,
    }])
    .await
    .assert_all_paired();
}

/// Six players; player 1's round-1 game is forfeited (the others are played) and player 1
/// is then forbidden to meet anybody else. The forfeited pairing was not played, so FIDE
/// allows it again: round 2 must pair player 1 with the same opponent rather than fail.
#[actix_web::test]
async fn forfeited_pairing_may_be_repeated() {
    let app = TestApp::new().await;
    app.user("org@x.org", Role::Organiser).await;
    let outcomes = app
        .with_db(|conn| {
            let user = store::accounts::user_by_email(conn, "org@x.org")
                .unwrap()
                .unwrap();
            let actor = Actor::signed_in(user);
            let mut outcomes = Vec::new();
            for forfeit in ["+/-", "-/+", "-/-"] {
                let event = settings::create(
                    conn,
                    &actor,
                    &EventInput {
                        name: format!("Forfeit {forfeit}"),
                        system: System::Swiss,
                        rounds: 3,
                        ..EventInput::default()
                    },
                )
                .unwrap();
                let mut by_start = HashMap::new();
                for (i, rating) in [2000, 1900, 1800, 1700, 1600, 1500].into_iter().enumerate() {
                    let player = store::players::insert(
                        conn,
                        &PlayerFields {
                            name: format!("Forfeit {i}"),
                            club_id: None,
                            country: String::new(),
                            federation_id: String::new(),
                            birth_year: None,
                            title: String::new(),
                        },
                        store::now(),
                    )
                    .unwrap();
                    store::players::set_rating(
                        conn,
                        &PlayerRating {
                            player_id: player.id,
                            variant: damka_engine::Variant::Russian,
                            rating,
                            games: 20,
                        },
                    )
                    .unwrap();
                    // A starting rating counts once the variant is recomputed, as imports do.
                    damka::service::ratings::recompute::recompute(
                        conn,
                        damka_engine::Variant::Russian,
                    )
                    .unwrap();
                    let entry = entries::add(
                        conn,
                        &actor,
                        event.id,
                        &EntryInput {
                            player_id: Some(player.id),
                        },
                    )
                    .unwrap();
                    by_start.insert(i as i32 + 1, entry.id);
                }
                let round = rounds::pair_next(conn, &actor, event.id).unwrap();
                rounds::publish_last(conn, &actor, event.id).unwrap();
                let mut first_opponent = None;
                for b in &round.boards {
                    let pair = (b.white_start_no, b.black_start_no.unwrap());
                    let involves_1 = pair.0 == 1 || pair.1 == 1;
                    if involves_1 {
                        first_opponent = Some(pair.0 + pair.1 - 1);
                    }
                    let result = if involves_1 { forfeit } else { "1-0" };
                    rounds::set_result(
                        conn,
                        &actor,
                        event.id,
                        b.pairing_id,
                        &ResultInput::typed(result),
                    )
                    .unwrap();
                }
                let first_opponent = first_opponent.expect("player 1 plays in round 1");
                for other in 2..=6 {
                    if other != first_opponent {
                        entries::forbid_pair(
                            conn,
                            &actor,
                            event.id,
                            by_start[&1],
                            by_start[&other],
                        )
                        .unwrap();
                    }
                }
                let second = rounds::pair_next(conn, &actor, event.id);
                outcomes.push((forfeit, first_opponent, second));
            }
            outcomes
        })
        .await;
    let mut wrong = Vec::new();
    for (forfeit, opponent, second) in outcomes {
        match second {
            Ok(round) => {
                let again = round.boards.iter().any(|b| {
                    let pair = (b.white_start_no, b.black_start_no.unwrap_or(0));
                    pair == (1, opponent) || pair == (opponent, 1)
                });
                if !again {
                    wrong.push(format!(
                        "after `{forfeit}`: player 1 is not paired with #{opponent} again"
                    ));
                }
            }
            Err(e) => wrong.push(format!(
                "after `{forfeit}` between #1 and #{opponent}: {e:?}"
            )),
        }
    }
    assert!(
        wrong.is_empty(),
        "a forfeited pairing must stay available:\n  {}",
        wrong.join("\n  ")
    );
}
