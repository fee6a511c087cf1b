//! The bracket-by-bracket procedure (C.04.3 B): score groups are paired from the top down;
//! each bracket's pairing is chosen by a sequence of maximum-weight matchings over all the
//! players still unpaired, so that the completion criterion and the look-ahead to the next
//! bracket are always honoured, then narrowed step by step: which moved-down players are
//! paired and with whom (B.3 / C7), which players are exchanged between S1 and S2 (B.4, the
//! fewest and then the smallest exchanges), and finally the opponent of each S1 player, in
//! rank order, as in the transpositions order of the rules.

use super::PairingError;
use super::bigint::Big;
use super::blossom::Matcher;
use super::players::RoundContext;
use super::tables::LimbHasher;
use super::weights::{Layout, WeightContext};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The complete weighted graph handed to the matching, kept solved incrementally.
struct Graph<const N: usize> {
    matcher: Matcher<N>,
    final_weight: Big<N>,
}

impl<const N: usize> Graph<N> {
    fn new(n: usize, final_weight: Big<N>) -> Self {
        Graph {
            matcher: Matcher::new(n),
            final_weight,
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Big<N>) {
        self.matcher.set_weight(a, b, &w);
    }

    /// Makes {a, b} a final pair: its edge outweighs everything, their other edges vanish.
    fn fix(&mut self, a: usize, b: usize) {
        self.matcher.freeze(a, b, &self.final_weight);
    }

    /// Mate of every vertex (itself when unmatched) in a maximum-weight matching.
    fn solve(&mut self) -> Vec<usize> {
        self.matcher.solve()
    }
}

/// Pairs (by player index) and the player left for the PAB.
pub type RoundResult = (Vec<(usize, usize)>, Option<usize>);

/// The players of the round in pairing order: vertex `v` of the graph is player
/// `sorted[v]`, with score `scores[v]`.
struct Order<'a> {
    round: &'a RoundContext,
    sorted: Vec<usize>,
    scores: Vec<u32>,
    layout: Layout,
}

impl Order<'_> {
    /// The weights of the round once the PAB's score is known.
    fn weights<'b>(&'b self, bye: &'b ByeChoice, single: bool) -> WeightContext<'b> {
        WeightContext {
            round: self.round,
            layout: &self.layout,
            bye_score: bye.score,
            single_downfloater_is_bye: single,
            unplayed_rank: &bye.ranks,
        }
    }
}

/// Which score gets the PAB, and what C9 needs to prefer among its candidates.
struct ByeChoice {
    /// Score of the player who will get the PAB (0 when the number of players is even).
    score: u32,
    /// Whether the single player floating down from the top bracket is the PAB assignee.
    single: bool,
    /// Rank of a number of played games among the PAB candidates.
    ranks: HashMap<u32, u64>,
}

/// The matching being narrowed: the graph, its current optimum and the players whose
/// pairing is decided.
struct Solver<const N: usize> {
    graph: Graph<N>,
    /// Mate of every vertex in the current maximum-weight matching.
    stable: Vec<usize>,
    matched: Vec<bool>,
}

/// The players still unpaired when a bracket opens, and whether C9 still applies.
struct Carry {
    /// Moved-down players first, then the residents of the bracket.
    cur: Vec<usize>,
    /// First vertex not yet in any bracket.
    next_it: usize,
    mdp_count: usize,
    /// First vertex of the bracket's own score group.
    group_begin_v: usize,
    single: bool,
}

/// One bracket being paired.
struct Bracket<const N: usize> {
    /// Vertices: moved-down players (`..mdp_count`), residents (`mdp_count..next_begin`),
    /// then the next score group (`next_begin..`), looked ahead to.
    cur: Vec<usize>,
    mdp_count: usize,
    next_begin: usize,
    group_begin_v: usize,
    /// First vertex of the next score group.
    next_begin_v: usize,
    /// First vertex of the next score group, as a position in the order.
    group_it: usize,
    /// First vertex after the next score group: not yet in any bracket.
    next_it: usize,
    /// `base[i][j]` (for `j < i`, `i >= mdp_count`): the criteria's weight of the edge
    /// between `cur[j]` and `cur[i]`.
    base: BaseWeights<N>,
}

/// The criteria's weights of a bracket's edges, `[i][j]` for `j < i`: a triangle of
/// indices into the few distinct values (a bracket of 5,000 players has 12.5 million edges).
struct BaseWeights<const N: usize> {
    rows: Vec<Vec<u32>>,
    /// Distinct weights; index 0 is zero.
    values: Vec<Big<N>>,
    index: HashMap<Big<N>, u32, BuildHasherDefault<LimbHasher>>,
}

impl<const N: usize> BaseWeights<N> {
    fn new(rows: usize) -> Self {
        BaseWeights {
            rows: vec![Vec::new(); rows],
            values: vec![Big::ZERO],
            index: HashMap::from_iter([(Big::ZERO, 0)]),
        }
    }

    fn push(&mut self, row: usize, w: Big<N>) {
        let next = self.values.len() as u32;
        let idx = *self.index.entry(w).or_insert(next);
        if idx == next {
            self.values.push(w);
        }
        self.rows[row].push(idx);
    }

    fn get(&self, i: usize, j: usize) -> Big<N> {
        self.values[self.rows[i][j] as usize]
    }

    fn clear(&mut self, i: usize, j: usize) {
        self.rows[i][j] = 0;
    }
}

impl<const N: usize> Bracket<N> {
    /// Whether `m` (a mate) belongs to the bracket's own score group.
    fn in_bracket(&self, m: usize) -> bool {
        m >= self.group_begin_v && m < self.next_begin_v
    }

    /// Whether `v` heads a pair of this bracket (is in S1).
    fn heads(&self, stable: &[usize], v: usize) -> bool {
        stable[v] > v && stable[v] < self.next_begin_v
    }
}

/// The residents not paired with moved-down players, and how many pairs they form.
struct Remainder {
    /// Positions in the bracket's `cur`.
    members: Vec<usize>,
    pairs: usize,
    group_bits: usize,
}

impl Remainder {
    /// The base weight of an edge of the remainder, raised so that the matching prefers
    /// `small` in S1 (while it is among the first `pairs`) and higher players first.
    fn weight<const N: usize>(
        &self,
        base: &BaseWeights<N>,
        small: usize,
        large: usize,
        small_idx: usize,
    ) -> Big<N> {
        let mut r = base.get(large, small);
        if !r.is_zero() {
            let mut add = Big::<N>::from_u64(u64::from(small_idx < self.pairs));
            add.shl(2 * self.group_bits);
            add.sub_small(small_idx as u64);
            add.shl(1);
            r.add_assign(&add);
        }
        r
    }
}

/// Pairs the players of `round` (indices into `round.players`). Returns the pairs (by
/// player index, in no particular order) and the player left for the PAB, if any.
pub fn pair_round<const N: usize>(round: &RoundContext) -> Result<RoundResult, PairingError> {
    let sorted = pairing_order(round);
    let n = sorted.len();
    if n == 0 {
        return Ok((Vec::new(), None));
    }
    let scores: Vec<u32> = sorted.iter().map(|&p| round.players[p].score).collect();
    let layout = Layout::new(&scores, round.played_rounds);
    let order = Order {
        round,
        sorted,
        scores,
        layout,
    };
    let mut graph = Graph::<N>::new(n, order.layout.final_weight());
    let bye = choose_bye(&order, &mut graph)?;

    let mut solver = Solver {
        graph,
        stable: Vec::new(),
        matched: vec![false; n],
    };
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let top = order.scores[0];
    let cur: Vec<usize> = (0..n).take_while(|&v| order.scores[v] >= top).collect();
    let mut carry = Carry {
        next_it: cur.len(),
        cur,
        mdp_count: 0,
        group_begin_v: 0,
        single: bye.single,
    };
    while carry.cur.len() > 1 || carry.next_it < n {
        let mut bracket = open_bracket(&order, &bye, carry, &mut solver);
        choose_moved_down_players(&order, &bracket, &mut solver);
        pair_moved_down_players(&bracket, &mut solver);
        let remainder = remainder_of(&order, &bracket, &mut solver);
        let exchanges = remainder
            .members
            .iter()
            .take(remainder.pairs)
            .filter(|&&p| !bracket.heads(&solver.stable, bracket.cur[p]))
            .count();
        exchange_out_of_s1(&remainder, exchanges, &mut bracket, &mut solver);
        exchange_into_s1(&remainder, exchanges, &mut bracket, &mut solver);
        fix_heads(&remainder, &mut bracket, &mut solver);
        pair_s1_players(&remainder, &bracket, &mut solver);
        carry = close_bracket(&order, &bye, bracket, &mut solver, &mut pairs)?;
    }
    let bye = carry.cur.first().map(|&v| order.sorted[v]);
    Ok((pairs, bye))
}

/// Players by score, then pairing number.
fn pairing_order(round: &RoundContext) -> Vec<usize> {
    let mut sorted: Vec<usize> = (0..round.players.len()).collect();
    sorted.sort_by(|&a, &b| {
        let (pa, pb) = (&round.players[a], &round.players[b]);
        pb.score.cmp(&pa.score).then(pa.rank.cmp(&pb.rank))
    });
    sorted
}

/// Completion: is there a pairing at all, and which score gets the PAB? Leaves the graph
/// weighted by the criteria for that choice.
fn choose_bye<const N: usize>(
    order: &Order,
    graph: &mut Graph<N>,
) -> Result<ByeChoice, PairingError> {
    let (round, sorted, n) = (order.round, &order.sorted, order.sorted.len());
    let score = |v: usize| order.scores[v];
    let top = score(0);
    let mut bye = ByeChoice {
        score: 0,
        single: false,
        ranks: HashMap::new(),
    };
    let wctx = order.weights(&bye, false);
    for i in 0..n {
        for j in 0..i {
            let w = if n % 2 == 1 {
                completion_weight(order, i, j, top)
            } else {
                wctx.edge(sorted[j], sorted[i], false, false)
            };
            graph.set(i, j, w);
        }
    }
    let first = graph.solve();
    let unmatched: Vec<usize> = (0..n).filter(|&v| first[v] == v).collect();
    if unmatched.len() > 1
        || unmatched
            .iter()
            .any(|&v| !round.players[sorted[v]].bye_eligible)
    {
        return Err(PairingError::NoValidPairing);
    }
    if n % 2 == 1 {
        let bye_v = unmatched.first().copied().unwrap_or(n - 1);
        bye.score = score(bye_v);
        if bye.score >= top {
            bye.single = (0..n)
                .take_while(|&v| score(v) >= top)
                .all(|v| score(first[v]) >= top);
        }
        let mut games: Vec<u32> = (0..n)
            .filter(|&v| score(v) == bye.score)
            .map(|v| round.players[sorted[v]].played_games)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        for (i, g) in games.iter().enumerate() {
            bye.ranks.insert(*g, i as u64);
        }
        let wctx = order.weights(&bye, bye.single);
        for i in 0..n {
            for j in 0..i {
                graph.set(i, j, wctx.edge(sorted[j], sorted[i], false, false));
            }
        }
    }
    Ok(bye)
}

/// The completion weight of vertices `i` and `j` when the number of players is odd:
/// compatible pairs, preferring to leave a PAB-eligible player of the lowest score.
fn completion_weight<const N: usize>(order: &Order, i: usize, j: usize, top: u32) -> Big<N> {
    let (round, sorted, layout) = (order.round, &order.sorted, &order.layout);
    if !round.compatible(sorted[i], sorted[j]) {
        return Big::ZERO;
    }
    let pi = &round.players[sorted[i]];
    let pj = &round.players[sorted[j]];
    let mut w = Big::<N>::from_u64(1 + u64::from(!pi.bye_eligible) + u64::from(!pj.bye_eligible));
    w.shl(layout.groups_width);
    let sh = |s: u32| layout.score_shift.get(&s).copied().unwrap_or(0) as u64;
    w.add_small(sh(pi.score) + sh(pj.score));
    w.shl(layout.group_bits);
    w.or_small(u64::from(pi.score >= top));
    w
}

/// Adds the next score group to the unpaired players and weighs the bracket's edges.
fn open_bracket<const N: usize>(
    order: &Order,
    bye: &ByeChoice,
    carry: Carry,
    solver: &mut Solver<N>,
) -> Bracket<N> {
    let Carry {
        mut cur,
        mut next_it,
        mdp_count,
        group_begin_v,
        single,
    } = carry;
    let (sorted, n) = (&order.sorted, order.sorted.len());
    let score = |v: usize| order.scores[v];
    let next_begin = cur.len();
    let next_begin_v = group_begin_v + (next_begin - mdp_count);
    let group_it = next_it;
    while next_it < n && score(next_it) >= score(group_it) {
        cur.push(next_it);
        next_it += 1;
    }
    let wctx = order.weights(bye, single);
    let mut base = BaseWeights::new(cur.len());
    for i in mdp_count..cur.len() {
        base.rows[i].reserve_exact(i);
        for j in 0..i {
            let w = wctx.edge(
                sorted[cur[j]],
                sorted[cur[i]],
                i < next_begin,
                i >= next_begin,
            );
            solver.graph.set(cur[j], cur[i], w);
            base.push(i, w);
        }
    }
    // Most of these edges gained the bracket's criteria: the old duals, raised just enough
    // to cover them, made these the slowest solves of a large round (a third round of
    // 5,000 players: 54 s of CPU with them, 46 s started afresh).
    solver.graph.matcher.forget_changed();
    solver.stable = solver.graph.solve();
    Bracket {
        cur,
        mdp_count,
        next_begin,
        group_begin_v,
        next_begin_v,
        group_it,
        next_it,
        base,
    }
}

/// Which moved-down players are paired in this bracket (B.3 / C7).
fn choose_moved_down_players<const N: usize>(
    order: &Order,
    br: &Bracket<N>,
    solver: &mut Solver<N>,
) {
    let (cur, mdp_count, next_begin) = (&br.cur, br.mdp_count, br.next_begin);
    let score = |v: usize| order.scores[v];
    let mut md_score = 0u32;
    let mut remaining = 0usize;
    let mut remaining_matched = 0usize;
    for p in 0..mdp_count {
        if p == 0 || score(cur[p]) < md_score {
            md_score = score(cur[p]);
            remaining = 0;
            remaining_matched = 0;
            let mut q = p;
            while q < cur.len() && score(cur[q]) >= md_score {
                remaining += 1;
                if br.in_bracket(solver.stable[cur[q]]) {
                    remaining_matched += 1;
                }
                q += 1;
            }
        }
        if remaining_matched == 0 {
            continue;
        }
        let pv = cur[p];
        if remaining <= remaining_matched {
            solver.matched[pv] = true;
            continue;
        }
        remaining -= 1;
        if !br.in_bracket(solver.stable[pv]) {
            for (o, &ov) in cur.iter().enumerate().take(next_begin).skip(mdp_count) {
                let mut w = br.base.get(o, p);
                if !w.is_zero() {
                    w.or_small(1);
                    solver.graph.set(pv, ov, w);
                }
            }
            solver.stable = solver.graph.solve();
        }
        if br.in_bracket(solver.stable[pv]) {
            solver.matched[pv] = true;
            remaining_matched -= 1;
            for (o, &ov) in cur.iter().enumerate().take(next_begin).skip(mdp_count) {
                let mut w = br.base.get(o, p);
                if !w.is_zero() {
                    w.or_small((next_begin - mdp_count) as u64);
                    w.add_small(1);
                    solver.graph.set(pv, ov, w);
                }
            }
        }
    }
}

/// Opponents of the moved-down players, highest first.
fn pair_moved_down_players<const N: usize>(br: &Bracket<N>, solver: &mut Solver<N>) {
    let (cur, mdp_count, next_begin) = (&br.cur, br.mdp_count, br.next_begin);
    for p in 0..mdp_count {
        let pv = cur[p];
        if !solver.matched[pv] {
            continue;
        }
        let mut addend = cur.len() as u64;
        for o in (mdp_count..next_begin).rev() {
            let ov = cur[o];
            if solver.matched[ov] {
                continue;
            }
            let mut w = br.base.get(o, p);
            if !w.is_zero() {
                w.add_small(addend);
                solver.graph.set(pv, ov, w);
                addend += 1;
            }
        }
        solver.stable = solver.graph.solve();
        let mv = solver.stable[pv];
        solver.matched[mv] = true;
        solver.graph.fix(pv, mv);
    }
}

/// The remainder: residents not paired with moved-down players, weighted so that the
/// matching prefers the fewest exchanges.
fn remainder_of<const N: usize>(
    order: &Order,
    br: &Bracket<N>,
    solver: &mut Solver<N>,
) -> Remainder {
    let cur = &br.cur;
    let mut remainder = Remainder {
        members: Vec::new(),
        pairs: 0,
        group_bits: order.layout.group_bits,
    };
    for (i, &v) in cur
        .iter()
        .enumerate()
        .take(br.next_begin)
        .skip(br.mdp_count)
    {
        if solver.stable[v] < br.group_begin_v {
            continue;
        }
        remainder.members.push(i);
        if solver.stable[v] < v {
            remainder.pairs += 1;
        }
    }
    for (oi, &o) in remainder.members.iter().enumerate() {
        for (pi, &p) in remainder.members.iter().enumerate().take(oi) {
            solver
                .graph
                .set(cur[p], cur[o], remainder.weight(&br.base, p, o, pi));
        }
    }
    solver.stable = solver.graph.solve();
    remainder
}

/// Exchanges (B.4): the lowest S1 players leave S1 first where possible.
fn exchange_out_of_s1<const N: usize>(
    remainder: &Remainder,
    exchanges: usize,
    br: &mut Bracket<N>,
    solver: &mut Solver<N>,
) {
    let members = &remainder.members;
    let mut left = exchanges;
    let mut idx = remainder.pairs;
    while idx > 0 && left > 0 {
        let start_o = idx;
        idx -= 1;
        let p = members[idx];
        let pv = br.cur[p];
        if br.heads(&solver.stable, pv) {
            for &o in &members[start_o..] {
                let mut w = remainder.weight(&br.base, p, o, idx);
                if !w.is_zero() {
                    w.sub_small(1);
                    solver.graph.set(pv, br.cur[o], w);
                }
            }
            solver.stable = solver.graph.solve();
        }
        let exchange = !br.heads(&solver.stable, pv);
        if exchange {
            left -= 1;
        }
        for &o in &members[idx + 1..] {
            if exchange {
                br.base.clear(o, p);
            }
            solver
                .graph
                .set(pv, br.cur[o], remainder.weight(&br.base, p, o, idx));
        }
    }
}

/// Exchanges (B.4), continued: the highest S2 players enter S1 first.
fn exchange_into_s1<const N: usize>(
    remainder: &Remainder,
    exchanges: usize,
    br: &mut Bracket<N>,
    solver: &mut Solver<N>,
) {
    let members = &remainder.members;
    let mut left = exchanges;
    let mut ri = remainder.pairs;
    while ri < members.len() && left > 1 {
        let p = members[ri];
        let pv = br.cur[p];
        let already = br.heads(&solver.stable, pv);
        if !already {
            for &o in &members[ri + 1..] {
                let mut w = remainder.weight(&br.base, p, o, ri);
                if !w.is_zero() {
                    w.add_small(1);
                    solver.graph.set(pv, br.cur[o], w);
                }
            }
            solver.stable = solver.graph.solve();
        }
        if br.heads(&solver.stable, pv) {
            left -= 1;
            for &o in &members[..ri] {
                br.base.clear(p, o);
                solver.graph.set(pv, br.cur[o], Big::ZERO);
            }
            for o in br.next_begin..br.cur.len() {
                br.base.clear(o, p);
                solver.graph.set(pv, br.cur[o], Big::ZERO);
            }
        }
        if !already {
            for &o in &members[ri + 1..] {
                solver
                    .graph
                    .set(pv, br.cur[o], remainder.weight(&br.base, p, o, ri));
            }
        }
        ri += 1;
    }
}

/// Fixes who heads a pair and who does not: only S1-to-S2 edges are left.
fn fix_heads<const N: usize>(remainder: &Remainder, br: &mut Bracket<N>, solver: &mut Solver<N>) {
    let members = &remainder.members;
    for (pi, &p) in members.iter().enumerate() {
        let pv = br.cur[p];
        for &o in &members[pi + 1..] {
            let ov = br.cur[o];
            if !br.heads(&solver.stable, pv) || br.heads(&solver.stable, ov) {
                br.base.clear(o, p);
            }
            solver.graph.set(pv, ov, br.base.get(o, p));
        }
    }
    // The remainder's weights favoured the S1 players by their rank, so the duals of the
    // optimum fit them and not these: kept, they leave each stage of the next solve
    // one augmentation (half a bracket of stages, minutes for thousands of players).
    solver.graph.matcher.forget_changed();
}

/// The opponent of each S1 player, in order: the highest possible.
fn pair_s1_players<const N: usize>(remainder: &Remainder, br: &Bracket<N>, solver: &mut Solver<N>) {
    let (members, cur) = (&remainder.members, &br.cur);
    for &p in members {
        let pv = cur[p];
        if !br.heads(&solver.stable, pv) {
            continue;
        }
        // The current matching is optimal; if it already gives p its highest possible
        // opponent, favouring that opponent cannot change it.
        let top = members
            .iter()
            .find(|&&o| o > p && !solver.matched[cur[o]] && !br.base.get(o, p).is_zero())
            .map(|&o| cur[o]);
        let stable = &mut solver.stable;
        let swapped = match top {
            Some(t) if t != stable[pv] && solver.graph.matcher.try_swap(pv, t) => {
                let (mp, mt) = (stable[pv], stable[t]);
                stable[pv] = t;
                stable[t] = pv;
                stable[mp] = mt;
                stable[mt] = mp;
                true
            }
            _ => false,
        };
        if !swapped && top != Some(stable[pv]) {
            let mut addend = 0u64;
            for &o in members.iter().rev() {
                let ov = cur[o];
                if o <= p || solver.matched[ov] {
                    continue;
                }
                let mut w = br.base.get(o, p);
                if !w.is_zero() {
                    w.add_small(addend);
                    solver.graph.set(pv, ov, w);
                }
                addend += 1;
            }
            solver.stable = solver.graph.solve();
        }
        let mv = solver.stable[pv];
        solver.matched[pv] = true;
        solver.matched[mv] = true;
        solver.graph.fix(pv, mv);
    }
}

/// Records the bracket's pairs and carries the unpaired players into the next bracket.
fn close_bracket<const N: usize>(
    order: &Order,
    bye: &ByeChoice,
    br: Bracket<N>,
    solver: &mut Solver<N>,
    pairs: &mut Vec<(usize, usize)>,
) -> Result<Carry, PairingError> {
    let (sorted, n) = (&order.sorted, order.sorted.len());
    let score = |v: usize| order.scores[v];
    let (stable, group_it) = (&solver.stable, br.group_it);
    let mut carry = Carry {
        cur: Vec::new(),
        next_it: br.next_it,
        mdp_count: 0,
        group_begin_v: br.next_begin_v,
        single: n % 2 == 1 && group_it < n && bye.score >= score(group_it),
    };
    for (i, &v) in br.cur.iter().enumerate() {
        if i < br.next_begin && solver.matched[v] {
            if v < stable[v] {
                pairs.push((sorted[v], sorted[stable[v]]));
            } else if v == stable[v] {
                return Err(PairingError::NoValidPairing);
            }
        } else {
            carry.cur.push(v);
            if i < br.next_begin {
                carry.mdp_count += 1;
            }
            if carry.single && score(stable[v]) < score(group_it) {
                carry.single = false;
            }
        }
    }
    Ok(carry)
}
