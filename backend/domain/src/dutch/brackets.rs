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
use super::weights::{Layout, WeightContext};
use std::collections::HashMap;

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

/// Pairs the players of `round` (indices into `round.players`). Returns the pairs (by
/// player index, in no particular order) and the player left for the PAB, if any.
pub fn pair_round<const N: usize>(round: &RoundContext) -> Result<RoundResult, PairingError> {
    // Players by score, then pairing number: vertex v is sorted[v].
    let mut sorted: Vec<usize> = (0..round.players.len()).collect();
    sorted.sort_by(|&a, &b| {
        let (pa, pb) = (&round.players[a], &round.players[b]);
        pb.score.cmp(&pa.score).then(pa.rank.cmp(&pb.rank))
    });
    let n = sorted.len();
    if n == 0 {
        return Ok((Vec::new(), None));
    }
    let score = |v: usize| round.players[sorted[v]].score;
    let scores: Vec<u32> = (0..n).map(score).collect();
    let layout = Layout::new(&scores, round.played_rounds);
    let top = score(0);
    let no_ranks = HashMap::new();
    let mut graph = Graph::<N>::new(n, layout.final_weight());

    // Completion: is there a pairing at all, and which score gets the PAB?
    let mut wctx = WeightContext {
        round,
        layout: &layout,
        bye_score: 0,
        single_downfloater_is_bye: false,
        unplayed_rank: &no_ranks,
    };
    for i in 0..n {
        for j in 0..i {
            let w = if n % 2 == 1 {
                if round.compatible(sorted[i], sorted[j]) {
                    let pi = &round.players[sorted[i]];
                    let pj = &round.players[sorted[j]];
                    let mut w = Big::<N>::from_u64(
                        1 + u64::from(!pi.bye_eligible) + u64::from(!pj.bye_eligible),
                    );
                    w.shl(layout.groups_width);
                    let sh = |s: u32| layout.score_shift.get(&s).copied().unwrap_or(0) as u64;
                    w.add_small(sh(pi.score) + sh(pj.score));
                    w.shl(layout.group_bits);
                    w.or_small(u64::from(pi.score >= top));
                    w
                } else {
                    Big::ZERO
                }
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
    let mut ranks: HashMap<u32, u64> = HashMap::new();
    let mut bye_score = 0;
    let mut single = false;
    if n % 2 == 1 {
        let bye_v = unmatched.first().copied().unwrap_or(n - 1);
        bye_score = score(bye_v);
        if bye_score >= top {
            single = (0..n)
                .take_while(|&v| score(v) >= top)
                .all(|v| score(first[v]) >= top);
        }
        let mut games: Vec<u32> = (0..n)
            .filter(|&v| score(v) == bye_score)
            .map(|v| round.players[sorted[v]].played_games)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        for (i, g) in games.iter().enumerate() {
            ranks.insert(*g, i as u64);
        }
        wctx = WeightContext {
            round,
            layout: &layout,
            bye_score,
            single_downfloater_is_bye: single,
            unplayed_rank: &ranks,
        };
        for i in 0..n {
            for j in 0..i {
                graph.set(i, j, wctx.edge(sorted[j], sorted[i], false, false));
            }
        }
    }

    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut matched = vec![false; n];
    // Players of the current bracket (moved-down players first) and of the next one.
    let mut cur: Vec<usize> = (0..n).take_while(|&v| score(v) >= top).collect();
    let mut next_it = cur.len();
    let mut mdp_count = 0usize;
    let mut group_begin_v = 0usize;

    while cur.len() > 1 || next_it < n {
        let next_begin = cur.len();
        let next_begin_v = group_begin_v + (next_begin - mdp_count);
        let group_it = next_it;
        while next_it < n && score(next_it) >= score(group_it) {
            cur.push(next_it);
            next_it += 1;
        }
        let wctx = WeightContext {
            round,
            layout: &layout,
            bye_score,
            single_downfloater_is_bye: single,
            unplayed_rank: &ranks,
        };
        // base[i][j] for j < i, i >= mdp_count.
        let mut base: Vec<Vec<Big<N>>> = vec![Vec::new(); cur.len()];
        for i in mdp_count..cur.len() {
            let mut row = Vec::with_capacity(i);
            for j in 0..i {
                let w = wctx.edge(
                    sorted[cur[j]],
                    sorted[cur[i]],
                    i < next_begin,
                    i >= next_begin,
                );
                graph.set(cur[j], cur[i], w);
                row.push(w);
            }
            base[i] = row;
        }
        let in_bracket = |m: usize| m >= group_begin_v && m < next_begin_v;
        let mut stable = graph.solve();

        // Which moved-down players are paired in this bracket.
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
                    if in_bracket(stable[cur[q]]) {
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
                matched[pv] = true;
                continue;
            }
            remaining -= 1;
            if !in_bracket(stable[pv]) {
                for o in mdp_count..next_begin {
                    let mut w = base[o][p];
                    if !w.is_zero() {
                        w.or_small(1);
                        graph.set(pv, cur[o], w);
                    }
                }
                stable = graph.solve();
            }
            if in_bracket(stable[pv]) {
                matched[pv] = true;
                remaining_matched -= 1;
                for o in mdp_count..next_begin {
                    let mut w = base[o][p];
                    if !w.is_zero() {
                        w.or_small((next_begin - mdp_count) as u64);
                        w.add_small(1);
                        graph.set(pv, cur[o], w);
                    }
                }
            }
        }

        // Opponents of the moved-down players, highest first.
        for p in 0..mdp_count {
            let pv = cur[p];
            if !matched[pv] {
                continue;
            }
            let mut addend = cur.len() as u64;
            for o in (mdp_count..next_begin).rev() {
                let ov = cur[o];
                if matched[ov] {
                    continue;
                }
                let mut w = base[o][p];
                if !w.is_zero() {
                    w.add_small(addend);
                    graph.set(pv, ov, w);
                    addend += 1;
                }
            }
            stable = graph.solve();
            let mv = stable[pv];
            matched[mv] = true;
            graph.fix(pv, mv);
        }

        // The remainder: residents not paired with moved-down players.
        let mut remainder: Vec<usize> = Vec::new();
        let mut rem_pairs = 0usize;
        for (i, &v) in cur.iter().enumerate().take(next_begin).skip(mdp_count) {
            if stable[v] < group_begin_v {
                continue;
            }
            remainder.push(i);
            if stable[v] < v {
                rem_pairs += 1;
            }
        }
        let rem_weight = |base: &Vec<Vec<Big<N>>>, small: usize, large: usize, small_idx: usize| {
            let mut r = base[large][small];
            if !r.is_zero() {
                let mut add = Big::<N>::from_u64(u64::from(small_idx < rem_pairs));
                add.shl(2 * layout.group_bits);
                add.sub_small(small_idx as u64);
                add.shl(1);
                r.add_assign(&add);
            }
            r
        };
        for (oi, &o) in remainder.iter().enumerate() {
            for (pi, &p) in remainder.iter().enumerate().take(oi) {
                graph.set(cur[p], cur[o], rem_weight(&base, p, o, pi));
            }
        }
        stable = graph.solve();
        let heads = |stable: &Vec<usize>, v: usize| stable[v] > v && stable[v] < next_begin_v;
        let exchange_count = remainder
            .iter()
            .take(rem_pairs)
            .filter(|&&p| !heads(&stable, cur[p]))
            .count();

        // Exchanges: lowest S1 players leave S1 first where possible.
        let mut left = exchange_count;
        let mut idx = rem_pairs;
        while idx > 0 && left > 0 {
            let start_o = idx;
            idx -= 1;
            let p = remainder[idx];
            let pv = cur[p];
            if heads(&stable, pv) {
                for &o in &remainder[start_o..] {
                    let mut w = rem_weight(&base, p, o, idx);
                    if !w.is_zero() {
                        w.sub_small(1);
                        graph.set(pv, cur[o], w);
                    }
                }
                stable = graph.solve();
            }
            let exchange = !heads(&stable, pv);
            if exchange {
                left -= 1;
            }
            for &o in &remainder[idx + 1..] {
                if exchange {
                    base[o][p] = Big::ZERO;
                }
                graph.set(pv, cur[o], rem_weight(&base, p, o, idx));
            }
        }
        // ... and the highest S2 players enter S1 first.
        let mut left = exchange_count;
        let mut ri = rem_pairs;
        while ri < remainder.len() && left > 1 {
            let p = remainder[ri];
            let pv = cur[p];
            let already = heads(&stable, pv);
            if !already {
                for &o in &remainder[ri + 1..] {
                    let mut w = rem_weight(&base, p, o, ri);
                    if !w.is_zero() {
                        w.add_small(1);
                        graph.set(pv, cur[o], w);
                    }
                }
                stable = graph.solve();
            }
            if heads(&stable, pv) {
                left -= 1;
                for &o in &remainder[..ri] {
                    base[p][o] = Big::ZERO;
                    graph.set(pv, cur[o], Big::ZERO);
                }
                for o in next_begin..cur.len() {
                    base[o][p] = Big::ZERO;
                    graph.set(pv, cur[o], Big::ZERO);
                }
            }
            if !already {
                for &o in &remainder[ri + 1..] {
                    graph.set(pv, cur[o], rem_weight(&base, p, o, ri));
                }
            }
            ri += 1;
        }
        // Fix who heads a pair and who does not.
        for (pi, &p) in remainder.iter().enumerate() {
            let pv = cur[p];
            for &o in &remainder[pi + 1..] {
                let ov = cur[o];
                if !heads(&stable, pv) || heads(&stable, ov) {
                    base[o][p] = Big::ZERO;
                }
                graph.set(pv, ov, base[o][p]);
            }
        }
        // Opponent of each S1 player, in order: the highest possible.
        for &p in &remainder {
            let pv = cur[p];
            if !heads(&stable, pv) {
                continue;
            }
            // The current matching is optimal; if it already gives p its highest possible
            // opponent, favouring that opponent cannot change it.
            let top = remainder
                .iter()
                .find(|&&o| o > p && !matched[cur[o]] && !base[o][p].is_zero())
                .map(|&o| cur[o]);
            let swapped = match top {
                Some(t) if t != stable[pv] && graph.matcher.try_swap(pv, t) => {
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
                for &o in remainder.iter().rev() {
                    let ov = cur[o];
                    if o <= p || matched[ov] {
                        continue;
                    }
                    let mut w = base[o][p];
                    if !w.is_zero() {
                        w.add_small(addend);
                        graph.set(pv, ov, w);
                    }
                    addend += 1;
                }
                stable = graph.solve();
            }
            let mv = stable[pv];
            matched[pv] = true;
            matched[mv] = true;
            graph.fix(pv, mv);
        }

        // Carry the unpaired players into the next bracket.
        let mut new_cur = Vec::new();
        mdp_count = 0;
        single = n % 2 == 1 && group_it < n && bye_score >= score(group_it);
        for (i, &v) in cur.iter().enumerate() {
            if i < next_begin && matched[v] {
                if v < stable[v] {
                    pairs.push((sorted[v], sorted[stable[v]]));
                } else if v == stable[v] {
                    return Err(PairingError::NoValidPairing);
                }
            } else {
                new_cur.push(v);
                if i < next_begin {
                    mdp_count += 1;
                }
                if single && score(stable[v]) < score(group_it) {
                    single = false;
                }
            }
        }
        cur = new_cur;
        group_begin_v = next_begin_v;
    }
    let bye = cur.first().map(|&v| sorted[v]);
    Ok((pairs, bye))
}
