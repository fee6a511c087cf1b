//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with dual
//! variables, O(n³) per solve), over the wide integer weights of [`super::bigint`].
//!
//! The graph is complete; an edge of weight zero is absent and never matched. The result is
//! a matching of maximum total weight (not necessarily of maximum cardinality).
//!
//! [`Matcher`] keeps the optimal matching, the dual variables and the blossoms between
//! solves, so that changing the edges of a few vertices costs O(k·n²) instead of a fresh
//! O(n³) solve: the blossoms containing a changed vertex are dissolved (their dual spread
//! over their vertices, which keeps every edge feasible), the changed vertex and any pair
//! whose edge is no longer tight are unmatched, the changed vertex's dual is raised until
//! its edges are feasible again, and the search resumes from the exposed vertices whose dual
//! is still positive (each stage either augments, frees a vertex whose dual reached zero,
//! or finishes a root). A stage keeps augmenting over tight edges with the trees left after
//! each augmentation until it needs a dual change; only then does it start afresh.

use super::bigint::Big;
use super::tables::{BlossomEdges, WeightTable};
use std::collections::VecDeque;

/// Solver state for one computation. Vertices are 1-based; 0 means "none". Indices above
/// `n` are blossoms.
struct Solver<const N: usize> {
    n: usize,
    nx: usize,
    /// 2·w for each pair of real vertices (w being twice the caller's weight, so that all
    /// dual values stay integral).
    ww: WeightTable<N>,
    /// Representative real edges of the blossoms (see [`BlossomEdges`]).
    g: BlossomEdges,
    lab: Vec<Big<N>>,
    mate: Vec<usize>,
    slack: Vec<usize>,
    /// `e_delta` of the edge `slack[x]`–`x`, kept up to date while `slack[x] != 0`.
    slack_val: Vec<Big<N>>,
    st: Vec<usize>,
    pa: Vec<usize>,

    s: Vec<i8>,
    vis: Vec<u32>,
    vis_t: u32,
    flo: Vec<Vec<usize>>,
    q: VecDeque<usize>,
    /// Root of the alternating tree each labelled top-level (super) vertex belongs to.
    tree: Vec<usize>,
    /// Scratch for [`Self::add_blossom`]: slack of the new blossom's best edge to each
    /// (super) vertex.
    best_slack: Vec<Option<Big<N>>>,
    /// Real vertices in a final pair: matched, with no other edge; the search skips them.
    frozen: Vec<bool>,
    /// Real vertices not frozen.
    active: Vec<usize>,
    active_dirty: bool,
}

impl<const N: usize> Solver<N> {
    #[inline(always)]
    fn edge(&self, x: usize, y: usize) -> (usize, usize) {
        self.g.edge(x, y)
    }

    #[inline(always)]
    fn w_of(&self, e: (usize, usize)) -> Big<N> {
        self.ww.get(e.0, e.1)
    }

    #[inline(always)]
    fn has_edge(&self, x: usize, y: usize) -> bool {
        let e = self.edge(x, y);
        !self.ww.is_zero(e.0, e.1)
    }

    #[inline(always)]
    fn e_delta(&self, e: (usize, usize)) -> Big<N> {
        Big::sum_minus(&self.lab[e.0], &self.lab[e.1], &self.w_of(e))
    }

    fn update_slack(&mut self, u: usize, x: usize) {
        let e = self.e_delta(self.edge(u, x));
        self.offer_slack(u, x, e);
    }

    #[inline(always)]
    fn offer_slack(&mut self, u: usize, x: usize, e: Big<N>) {
        if self.slack[x] == 0 || e < self.slack_val[x] {
            self.slack[x] = u;
            self.slack_val[x] = e;
        }
    }

    fn set_slack(&mut self, x: usize) {
        self.slack[x] = 0;
        for i in 0..self.active.len() {
            let u = self.active[i];
            if self.has_edge(u, x) && self.st[u] != x && self.s[self.st[u]] == 0 {
                self.update_slack(u, x);
            }
        }
    }

    /// Queues (super) vertex `x`, which has just become outer, for scanning.
    fn q_push(&mut self, x: usize) {
        self.q.push_back(x);
    }

    fn set_st(&mut self, x: usize, b: usize) {
        self.st[x] = b;
        if x > self.n {
            for i in 0..self.flo[x].len() {
                let c = self.flo[x][i];
                self.set_st(c, b);
            }
        }
    }

    fn get_pr(&mut self, b: usize, xr: usize) -> usize {
        let pr = self.flo[b].iter().position(|&c| c == xr).unwrap_or(0);
        if pr % 2 == 1 {
            self.flo[b][1..].reverse();
            self.flo[b].len() - pr
        } else {
            pr
        }
    }

    fn set_match(&mut self, u: usize, v: usize) {
        let e = self.edge(u, v);
        self.mate[u] = e.1;
        if u <= self.n {
            return;
        }
        let xr = self.g.flo_from(u, e.0);
        let pr = self.get_pr(u, xr);
        for i in 0..pr {
            let a = self.flo[u][i];
            let b = self.flo[u][i ^ 1];
            self.set_match(a, b);
        }
        self.set_match(xr, v);
        self.flo[u].rotate_left(pr);
    }

    fn augment(&mut self, mut u: usize, mut v: usize) {
        loop {
            let xnv = self.st[self.mate[u]];
            self.set_match(u, v);
            if xnv == 0 {
                return;
            }
            let p = self.st[self.pa[xnv]];
            self.set_match(xnv, p);
            u = p;
            v = xnv;
        }
    }

    fn get_lca(&mut self, mut u: usize, mut v: usize) -> usize {
        self.vis_t += 1;
        let t = self.vis_t;
        while u != 0 || v != 0 {
            if u != 0 {
                if self.vis[u] == t {
                    return u;
                }
                self.vis[u] = t;
                u = self.st[self.mate[u]];
                if u != 0 {
                    u = self.st[self.pa[u]];
                }
            }
            std::mem::swap(&mut u, &mut v);
        }
        0
    }

    fn add_blossom(&mut self, u: usize, lca: usize, v: usize) {
        let mut b = self.n + 1;
        while b <= self.nx && self.st[b] != 0 {
            b += 1;
        }
        if b > self.nx {
            self.nx += 1;
        }
        self.lab[b] = Big::ZERO;
        self.s[b] = 0;
        self.tree[b] = self.tree[lca];
        self.mate[b] = self.mate[lca];
        let mut flo = vec![lca];
        let mut x = u;
        while x != lca {
            flo.push(x);
            let y = self.st[self.mate[x]];
            flo.push(y);
            self.q_push(y);
            x = self.st[self.pa[y]];
        }
        flo[1..].reverse();
        let mut x = v;
        while x != lca {
            flo.push(x);
            let y = self.st[self.mate[x]];
            flo.push(y);
            self.q_push(y);
            x = self.st[self.pa[y]];
        }
        self.flo[b] = flo;
        self.set_st(b, b);
        self.g.open_blossom(b, self.nx);
        let mut best = std::mem::take(&mut self.best_slack);
        best[1..=self.nx].fill(None);
        for i in 0..self.flo[b].len() {
            let xs = self.flo[b][i];
            for (x, best_x) in best.iter_mut().enumerate().take(self.nx + 1).skip(1) {
                let cand = self.edge(xs, x);
                if self.ww.is_zero(cand.0, cand.1) {
                    continue;
                }
                let e = self.e_delta(cand);
                if best_x.as_ref().is_none_or(|cur| e < *cur) {
                    *best_x = Some(e);
                    self.g.set_pair(b, x, cand);
                }
            }
            self.g.inherit_flo_from(b, xs);
        }
        self.best_slack = best;
        self.set_slack(b);
    }

    fn expand_blossom(&mut self, b: usize) {
        for i in 0..self.flo[b].len() {
            let c = self.flo[b][i];
            self.set_st(c, c);
            self.tree[c] = self.tree[b];
        }
        let entry = self.edge(b, self.pa[b]).0;
        let xr = self.g.flo_from(b, entry);
        let pr = self.get_pr(b, xr);
        let mut i = 0;
        while i < pr {
            let xs = self.flo[b][i];
            let xns = self.flo[b][i + 1];
            self.pa[xs] = self.edge(xns, xs).0;
            self.s[xs] = 1;
            self.s[xns] = 0;
            self.slack[xs] = 0;
            self.set_slack(xns);
            self.q_push(xns);
            i += 2;
        }
        self.s[xr] = 1;
        self.pa[xr] = self.pa[b];
        for i in pr + 1..self.flo[b].len() {
            let xs = self.flo[b][i];
            self.s[xs] = -1;
            self.set_slack(xs);
        }
        self.st[b] = 0;
    }

    /// Handles the tight edge `e` from an outer vertex. After an augmentation, returns the
    /// roots of the (one or two) alternating trees it used up.
    fn on_found_edge(&mut self, e: (usize, usize)) -> Option<(usize, usize)> {
        let u = self.st[e.0];
        let v = self.st[e.1];
        if self.s[v] == -1 && self.mate[v] == 0 {
            // An exposed vertex whose dual is already zero: augment to it.
            let t = self.tree[u];
            self.augment(u, v);
            self.augment(v, u);
            return Some((t, t));
        }
        if self.s[v] == -1 {
            self.pa[v] = e.0;
            self.s[v] = 1;
            self.tree[v] = self.tree[u];
            let nu = self.st[self.mate[v]];
            self.slack[v] = 0;
            self.slack[nu] = 0;
            self.s[nu] = 0;
            self.tree[nu] = self.tree[u];
            self.q_push(nu);
        } else if self.s[v] == 0 {
            let lca = self.get_lca(u, v);
            if lca == 0 {
                let trees = (self.tree[u], self.tree[v]);
                self.augment(u, v);
                self.augment(v, u);
                return Some(trees);
            }
            self.add_blossom(u, lca, v);
        }
        None
    }

    /// After an augmentation found without a dual change: unlabels the trees rooted at
    /// `t1` and `t2` so that the search goes on growing the others over tight edges, as
    /// their labels are still valid. Returns whether any tree is left.
    fn drop_trees(&mut self, (t1, t2): (usize, usize)) -> bool {
        let mut any_left = false;
        for x in 1..=self.nx {
            if self.st[x] != x || self.s[x] == -1 {
                continue;
            }
            if self.tree[x] == t1 || self.tree[x] == t2 {
                self.s[x] = -1;
            } else if self.s[x] == 0 {
                any_left = true;
            }
        }
        any_left
    }

    /// The real vertex at the base of (super) vertex `x`.
    fn base_of(&self, mut x: usize) -> usize {
        while x > self.n {
            x = self.flo[x][0];
        }
        x
    }

    /// Makes real vertex `u` the base of blossom `b` (and of every blossom between), with
    /// no mate: the pairs inside are re-matched along the cycles.
    fn rebase(&mut self, b: usize, u: usize) {
        self.mate[b] = 0;
        if b <= self.n {
            return;
        }
        let xr = self.g.flo_from(b, u);
        let pr = self.get_pr(b, xr);
        for i in 0..pr {
            let a = self.flo[b][i];
            let c = self.flo[b][i ^ 1];
            self.set_match(a, c);
        }
        self.rebase(xr, u);
        self.flo[b].rotate_left(pr);
    }

    /// `u`, in an outer blossom, has a zero dual: expose it, moving the exposure of its
    /// tree's root down the alternating path.
    fn free_zero_vertex(&mut self, u: usize) {
        let b = self.st[u];
        if self.mate[b] == 0 {
            self.rebase(b, u);
            return;
        }
        let t = self.st[self.mate[b]];
        self.rebase(b, u);
        let p = self.st[self.pa[t]];
        self.set_match(t, p);
        self.augment(p, t);
    }

    /// All real vertices inside (super) vertex `x`.
    fn leaves(&self, x: usize, out: &mut Vec<usize>) {
        if x <= self.n {
            out.push(x);
        } else {
            for &c in &self.flo[x] {
                self.leaves(c, out);
            }
        }
    }

    /// Unmatches real vertex `x` (and every blossom it is the base of) and its mate.
    fn unmatch(&mut self, x: usize) {
        let y = self.mate[x];
        if y == 0 {
            return;
        }
        for r in [x, y] {
            let mut node = self.st[r];
            loop {
                self.mate[node] = 0;
                if node == r {
                    break;
                }
                node = self.g.flo_from(node, r);
                debug_assert!(node != 0, "broken blossom chain");
            }
        }
    }

    /// Dissolves top-level blossom `b`: its dual goes to its vertices (all edges stay
    /// feasible), its children become top-level, and its base pair is unmatched if the
    /// matched edge is no longer tight.
    fn dissolve(&mut self, b: usize) {
        if !self.lab[b].is_zero() {
            let mut half = self.lab[b];
            half.shr1();
            let mut vs = Vec::new();
            self.leaves(b, &mut vs);
            for v in vs {
                self.lab[v].add_assign(&half);
            }
            let base = self.base_of(b);
            self.unmatch(base);
            self.lab[b] = Big::ZERO;
        }
        for i in 0..self.flo[b].len() {
            let c = self.flo[b][i];
            self.set_st(c, c);
        }
        self.flo[b].clear();
        self.st[b] = 0;
    }

    /// Raises the dual of exposed (super) vertex `x`'s base to an even value without
    /// breaking tightness inside `x`, so that every root of the search has an even dual and
    /// all halvings of slacks are exact.
    fn make_even(&mut self, x: usize) {
        if x <= self.n {
            self.lab[x].add_small(1);
        } else if self.lab[x] >= Big::from_u64(2) {
            let mut vs = Vec::new();
            self.leaves(x, &mut vs);
            for v in vs {
                self.lab[v].add_small(1);
            }
            self.lab[x].sub_small(2);
        } else {
            let base_child = self.flo[x][0];
            self.dissolve(x);
            self.make_even(base_child);
        }
    }

    fn normalise_roots(&mut self) {
        for x in 1..=self.nx {
            if self.st[x] == x && self.mate[x] == 0 && self.lab[self.base_of(x)].0[0] & 1 == 1 {
                self.make_even(x);
            }
        }
    }

    /// Dissolves the top-level blossoms whose dual is zero (repeatedly): this changes no
    /// slack and keeps the matching, and keeps the number of blossoms small between solves.
    fn dissolve_free_blossoms(&mut self) {
        let mut again = true;
        while again {
            again = false;
            for b in self.n + 1..=self.nx {
                if self.st[b] == b && self.lab[b].is_zero() {
                    self.dissolve(b);
                    again = true;
                }
            }
        }
    }

    /// Prepares vertex `v` (1-based) for changes of its edge weights.
    fn isolate(&mut self, v: usize) {
        while self.st[v] != v {
            let top = self.st[v];
            self.dissolve(top);
        }
        self.unmatch(v);
    }

    /// Whether the edges of `v` changed so that the optimality conditions no longer hold
    /// around it (an edge not feasible, its matched edge not tight, or exposed with a
    /// positive dual). When they still hold, the matching is still optimal.
    fn needs_isolation(&self, v: usize) -> bool {
        if self.st[v] != v {
            return true;
        }
        for u in 1..=self.n {
            if u != v
                && !self.ww.is_zero(v, u)
                && self.lab[v].plus(&self.lab[u]) < self.ww.get(v, u)
            {
                return true;
            }
        }
        let m = self.mate[v];
        if m == 0 {
            return !self.lab[v].is_zero();
        }
        self.ww.is_zero(v, m) || self.lab[v].plus(&self.lab[m]) != self.ww.get(v, m)
    }

    /// After the edges of `v` changed: make them feasible.
    fn refresh(&mut self, v: usize) {
        for u in 1..=self.n {
            let w = self.ww.get(v, u);
            if u != v && !w.is_zero() {
                let need = w.minus(&self.lab[u]);
                if w > self.lab[u] && need > self.lab[v] {
                    self.lab[v] = need;
                }
            }
        }
    }

    /// Refreshes the blossoms' representative edges towards the changed vertices.
    fn refresh_blossom_edges(&mut self, changed: &[usize]) {
        if changed.is_empty() {
            return;
        }
        for b in self.n + 1..=self.nx {
            if self.st[b] == b {
                self.refresh_blossom_edges_of(b, changed);
            }
        }
    }

    /// Refreshes the representative edges of blossom `b` and of the blossoms inside it,
    /// children first. The best edge of `b` towards `v` is the best of its children's: the
    /// first in leaf order with the smallest `lab[y] - w`, as a scan of all leaves would
    /// find, at a cost of one step per child instead of one per leaf and nesting level.
    fn refresh_blossom_edges_of(&mut self, b: usize, changed: &[usize]) {
        for i in 0..self.flo[b].len() {
            let c = self.flo[b][i];
            if c > self.n {
                self.refresh_blossom_edges_of(c, changed);
            }
        }
        let offset = Big::<N>::pow2(64 * N - 2);
        for &v in changed {
            let mut best: Option<(usize, Big<N>)> = None;
            for &c in &self.flo[b] {
                let y = if c <= self.n { c } else { self.edge(c, v).0 };
                if y == 0 || self.ww.is_zero(y, v) {
                    continue;
                }
                // lab[y] - w, shifted to stay non-negative.
                let key = self.lab[y].plus(&offset).minus(&self.ww.get(y, v));
                if best.as_ref().is_none_or(|(_, k)| key < *k) {
                    best = Some((y, key));
                }
            }
            let (y, _) = best.unwrap_or((0, Big::ZERO));
            self.g.set_pair(b, v, if y == 0 { (0, 0) } else { (y, v) });
        }
    }

    /// One stage: grows the alternating forest from every root, augmenting over tight edges
    /// as long as no dual change is needed; returns true after an augmentation, false when
    /// the matching is optimal.
    fn stage(&mut self) -> bool {
        if !self.plant_forest() {
            return false;
        }
        // Set once a tree has been dropped: the slacks may then come from vertices that
        // are no longer outer, so the next dual change needs a fresh stage.
        let mut dropped = false;
        let mut iterations = 0usize;
        loop {
            iterations += 1;
            debug_assert!(iterations < 1_000_000, "stage does not terminate");
            if self.scan_queue(&mut dropped) || dropped {
                return true;
            }
            let xs: Vec<usize> = self
                .active
                .iter()
                .copied()
                .chain(self.n + 1..=self.nx)
                .collect();
            let Some(d) = self.dual_change(&xs) else {
                return false;
            };
            self.apply_dual_change(&d, &xs);
            if self.after_dual_change(&xs) {
                return true;
            }
        }
    }

    /// Roots a tree at every exposed vertex with a non-zero dual; false when there is none.
    fn plant_forest(&mut self) -> bool {
        if self.active_dirty {
            self.active = (1..=self.n).filter(|&v| !self.frozen[v]).collect();
            self.active_dirty = false;
        }
        for x in 1..=self.nx {
            self.s[x] = -1;
            self.slack[x] = 0;
        }
        self.q.clear();
        for x in 1..=self.nx {
            if self.st[x] == x && self.mate[x] == 0 && !self.lab[self.base_of(x)].is_zero() {
                self.pa[x] = 0;
                self.s[x] = 0;
                self.tree[x] = x;
                self.q_push(x);
            }
        }
        !self.q.is_empty()
    }

    /// Grows the forest over the tight edges from the queued outer vertices, keeping the
    /// slacks of the others; true after an augmentation. Sets `dropped` when a tree was
    /// dropped.
    fn scan_queue(&mut self, dropped: &mut bool) -> bool {
        // A blossom is scanned as a whole through its representative edges (the
        // tightest edge from any of its vertices): its vertices' duals all move
        // together, so one scan costs n steps instead of n per vertex inside.
        'scan: while let Some(u) = self.q.pop_front() {
            if self.s[self.st[u]] != 0 {
                continue;
            }
            for i in 0..self.active.len() {
                let v = self.active[i];
                // Edges to inner (T) vertices never matter for the search: a tight one
                // changes nothing, and their slacks are recomputed on expansion.
                if self.s[self.st[v]] == 1 || self.st[u] == self.st[v] {
                    continue;
                }
                let uv = if u <= self.n { (u, v) } else { self.edge(u, v) };
                if self.ww.is_zero(uv.0, uv.1) {
                    continue;
                }
                let e = self.e_delta(uv);
                if e.is_zero() {
                    if let Some(trees) = self.on_found_edge(uv) {
                        *dropped = true;
                        if !self.drop_trees(trees) {
                            return true;
                        }
                        continue 'scan;
                    }
                } else {
                    let sv = self.st[v];
                    if sv == v {
                        self.offer_slack(u, sv, e);
                    } else {
                        self.update_slack(u, sv);
                    }
                }
            }
        }
        false
    }

    /// The largest dual change that keeps every dual and slack non-negative; none when
    /// nothing can change (the matching is optimal).
    fn dual_change(&self, xs: &[usize]) -> Option<Big<N>> {
        let mut d: Option<Big<N>> = None;
        let take = |d: &mut Option<Big<N>>, c: Big<N>| {
            if d.is_none_or(|x| c < x) {
                *d = Some(c);
            }
        };
        for b in self.n + 1..=self.nx {
            if self.st[b] == b && self.s[b] == 1 {
                let mut h = self.lab[b];
                h.shr1();
                take(&mut d, h);
            }
        }
        for &x in xs {
            if self.st[x] == x && self.slack[x] != 0 {
                let mut c = self.slack_val[x];
                if self.s[x] == -1 {
                    take(&mut d, c);
                } else if self.s[x] == 0 {
                    c.shr1();
                    take(&mut d, c);
                }
            }
        }
        for &u in &self.active {
            if self.s[self.st[u]] == 0 {
                take(&mut d, self.lab[u]);
            }
        }
        d
    }

    /// Moves the duals of outer and inner vertices and blossoms, and the slacks, by `d`.
    fn apply_dual_change(&mut self, d: &Big<N>, xs: &[usize]) {
        for &u in &self.active {
            match self.s[self.st[u]] {
                0 => self.lab[u].sub_assign(d),
                1 => self.lab[u].add_assign(d),
                _ => {}
            }
        }
        let d2 = d.plus(d);
        for &x in xs {
            if self.st[x] == x && self.slack[x] != 0 {
                match self.s[x] {
                    -1 => self.slack_val[x].sub_assign(d),
                    0 => self.slack_val[x].sub_assign(&d2),
                    _ => {}
                }
            }
        }
        for b in self.n + 1..=self.nx {
            if self.st[b] == b {
                match self.s[b] {
                    0 => self.lab[b].add_assign(&d2),
                    1 => self.lab[b].sub_assign(&d2),
                    _ => {}
                }
            }
        }
    }

    /// After a dual change: frees a vertex whose dual reached zero, follows an edge that
    /// became tight, and expands inner blossoms whose dual reached zero. True after an
    /// augmentation.
    fn after_dual_change(&mut self, xs: &[usize]) -> bool {
        // A vertex of an outer blossom whose dual reached zero may stay exposed.
        if let Some(&u) = self
            .active
            .iter()
            .find(|&&u| self.s[self.st[u]] == 0 && self.lab[u].is_zero())
        {
            self.free_zero_vertex(u);
            return true;
        }
        self.q.clear();
        for &x in xs {
            let sx = self.slack[x];
            if self.st[x] == x
                && sx != 0
                && self.s[x] != 1
                && self.st[sx] != x
                && self.slack_val[x].is_zero()
                && self.on_found_edge(self.edge(sx, x)).is_some()
            {
                return true;
            }
        }
        for b in self.n + 1..=self.nx {
            if self.st[b] == b && self.s[b] == 1 && self.lab[b].is_zero() {
                self.expand_blossom(b);
            }
        }
        false
    }
}

/// A maximum-weight matching kept up to date under changes of edge weights.
pub struct Matcher<const N: usize> {
    solver: Solver<N>,
    changed: Vec<bool>,
    changed_list: Vec<usize>,
    forget: bool,
}

impl<const N: usize> Matcher<N> {
    /// `n` vertices, no edges. Weights must leave three spare high bits in `Big<N>`.
    pub fn new(n: usize) -> Self {
        let m = 2 * n + 1;
        let mut st = vec![0usize; m];
        for (u, s) in st.iter_mut().enumerate().take(n + 1) {
            *s = u;
        }
        Matcher {
            solver: Solver {
                n,
                nx: n,
                ww: WeightTable::new(n + 1),
                g: BlossomEdges::new(n),
                lab: vec![Big::ZERO; m],
                mate: vec![0; m],
                slack: vec![0; m],
                slack_val: vec![Big::ZERO; m],
                st,
                pa: vec![0; m],
                s: vec![-1; m],
                vis: vec![0; m],
                vis_t: 0,
                flo: vec![Vec::new(); m],
                q: VecDeque::new(),
                tree: vec![0; m],
                best_slack: vec![None; m],
                frozen: vec![false; n + 1],
                active: (1..=n).collect(),
                active_dirty: false,
            },
            changed: vec![false; n + 1],
            changed_list: Vec::new(),
            forget: false,
        }
    }

    /// Sets the weight of edge {a, b} (0-based, a ≠ b); zero removes it.
    pub fn set_weight(&mut self, a: usize, b: usize, w: &Big<N>) {
        let s = &mut self.solver;
        let (a, b) = (a + 1, b + 1);
        let mut ww = *w;
        ww.shl(2);
        if s.ww.get(a, b) == ww {
            return;
        }
        for x in [a, b] {
            if s.frozen[x] {
                let y = s.mate[x];
                s.frozen[x] = false;
                s.frozen[y] = false;
                s.active_dirty = true;
            }
        }
        if !self.changed[a] {
            self.changed[a] = true;
            self.changed_list.push(a);
        }
        s.ww.set(a, b, &ww);
    }

    /// Makes {a, b} (0-based) a final pair with weight `w` and removes every other edge
    /// of a and b. When a and b are already matched together outside any blossom, the
    /// matching stays optimal and only their duals change; otherwise this falls back to
    /// ordinary weight changes.
    pub fn freeze(&mut self, a: usize, b: usize, w: &Big<N>) {
        let n = self.solver.n;
        let (a1, b1) = (a + 1, b + 1);
        let s = &self.solver;
        let quick = s.mate[a1] == b1
            && s.st[a1] == a1
            && s.st[b1] == b1
            && !self.changed[a1]
            && !self.changed[b1];
        if !quick {
            for x in 0..n {
                for (p, q) in [(a, b), (b, a)] {
                    if x != p {
                        let v = if x == q { *w } else { Big::ZERO };
                        self.set_weight(p, x, &v);
                    }
                }
            }
            return;
        }
        let s = &mut self.solver;
        for x in 1..=n {
            for p in [a1, b1] {
                if x != p {
                    s.ww.set(p, x, &Big::ZERO);
                }
            }
        }
        let mut ww = *w;
        ww.shl(2);
        s.ww.set(a1, b1, &ww);
        s.lab[a1] = ww.minus(&s.lab[b1]);
        // No blossom contains a or b, and they have no edge to any blossom any more.
        for bl in n + 1..=s.nx {
            if s.st[bl] != 0 {
                for p in [a1, b1] {
                    s.g.set_pair(bl, p, (0, 0));
                }
            }
        }
        s.frozen[a1] = true;
        s.frozen[b1] = true;
        s.active_dirty = true;
    }

    /// Pairs `p` with `t` (0-based) and their former mates with each other, when the four
    /// are distinct single vertices (no blossom) and both new edges are tight: the result
    /// is then another optimal matching. Returns false (and changes nothing) otherwise.
    pub fn try_swap(&mut self, p: usize, t: usize) -> bool {
        let s = &mut self.solver;
        if !self.changed_list.is_empty() {
            return false;
        }
        let (p, t) = (p + 1, t + 1);
        let (mp, mt) = (s.mate[p], s.mate[t]);
        if mp == 0 || mt == 0 || mp == t || p == t {
            return false;
        }
        if [p, t, mp, mt].iter().any(|&x| s.st[x] != x) {
            return false;
        }
        let tight =
            |a: usize, b: usize| !s.ww.is_zero(a, b) && s.lab[a].plus(&s.lab[b]) == s.ww.get(a, b);
        if !tight(p, t) || !tight(mp, mt) {
            return false;
        }
        s.mate[p] = t;
        s.mate[t] = p;
        s.mate[mp] = mt;
        s.mate[mt] = mp;
        true
    }

    /// The current weight of edge {a, b}.
    pub fn weight(&self, a: usize, b: usize) -> Big<N> {
        let s = &self.solver;
        let mut w = s.ww.get(a + 1, b + 1);
        w.shr1();
        w.shr1();
        w
    }

    /// The next solve starts the changed vertices afresh: unmatched, with duals no higher
    /// than their edges need. Meant for a change of most edges of these vertices that
    /// would leave their old duals far off (see [`Self::solve`]).
    pub fn forget_changed(&mut self) {
        self.forget = true;
    }

    /// Brings the matching up to date; returns each vertex's mate, or itself if exposed.
    pub fn solve(&mut self) -> Vec<usize> {
        self.solver.dissolve_free_blossoms();
        let list = std::mem::take(&mut self.changed_list);
        for &v in &list {
            self.changed[v] = false;
            if self.forget || self.solver.needs_isolation(v) {
                self.solver.isolate(v);
                if self.forget {
                    self.solver.lab[v] = Big::ZERO;
                }
                self.solver.refresh(v);
            }
        }
        self.forget = false;
        self.solver.refresh_blossom_edges(&list);
        self.solver.normalise_roots();
        let mut stages = 0usize;
        while self.solver.stage() {
            stages += 1;
            debug_assert!(stages < 100_000, "matching does not terminate");
        }
        let s = &self.solver;
        (0..s.n)
            .map(|u| {
                let v = s.mate[u + 1];
                if v == 0 { u } else { v - 1 }
            })
            .collect()
    }
}

/// Computes a maximum-weight matching from scratch. `weights` is an `n × n` row-major
/// symmetric matrix (diagonal ignored, zero = no edge).
pub fn max_weight_matching<const N: usize>(n: usize, weights: &[Big<N>]) -> Vec<usize> {
    let mut m = Matcher::<N>::new(n);
    for u in 0..n {
        for v in 0..u {
            m.set_weight(u, v, &weights[u * n + v]);
        }
    }
    m.solve()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, w: &[u64]) -> u64 {
        fn rec(i: usize, used: &mut Vec<bool>, n: usize, w: &[u64]) -> u64 {
            if i == n {
                return 0;
            }
            if used[i] {
                return rec(i + 1, used, n, w);
            }
            used[i] = true;
            let mut best = rec(i + 1, used, n, w);
            for j in i + 1..n {
                if !used[j] && w[i * n + j] > 0 {
                    used[j] = true;
                    best = best.max(w[i * n + j] + rec(i + 1, used, n, w));
                    used[j] = false;
                }
            }
            used[i] = false;
            best
        }
        rec(0, &mut vec![false; n], n, w)
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let n = 1 + (rnd() % 9) as usize;
            let mut w = vec![0u64; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let x = if rnd() % 4 == 0 {
                        0
                    } else {
                        rnd() % (if round % 2 == 0 { 5 } else { 1000 })
                    };
                    w[i * n + j] = x;
                    w[j * n + i] = x;
                }
            }
            let big: Vec<Big<2>> = w.iter().map(|x| Big::from_u64(*x)).collect();
            let m = max_weight_matching(n, &big);
            let mut total = 0;
            for (i, &j) in m.iter().enumerate() {
                assert_eq!(m[j], i);
                if j > i {
                    assert!(w[i * n + j] > 0);
                    total += w[i * n + j];
                }
            }
            assert_eq!(total, brute(n, &w), "n={n} w={w:?}");
        }
    }

    #[test]
    fn incremental_updates_stay_optimal() {
        let mut seed = 987654321u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let n = 2 + (rnd() % 9) as usize;
            let range = if round % 2 == 0 { 6 } else { 1000 };
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<2>::new(n);
            for step in 0..30 {
                // Change the edges of one or two vertices.
                for _ in 0..1 + step % 2 {
                    let v = (rnd() % n as u64) as usize;
                    for u in 0..n {
                        if u != v && rnd() % 2 == 0 {
                            let x = if rnd() % 4 == 0 { 0 } else { rnd() % range };
                            w[u * n + v] = x;
                            w[v * n + u] = x;
                            m.set_weight(v, u, &Big::from_u64(x));
                        }
                    }
                }
                let mate = m.solve();
                let mut total = 0;
                for (i, &j) in mate.iter().enumerate() {
                    assert_eq!(mate[j], i);
                    if j > i {
                        assert!(w[i * n + j] > 0);
                        total += w[i * n + j];
                    }
                }
                assert_eq!(
                    total,
                    brute(n, &w),
                    "round {round} step {step} n={n} w={w:?}"
                );
            }
        }
    }
}
