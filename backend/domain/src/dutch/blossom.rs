//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with dual
//! variables, O(n³) per solve), over the wide integer weights of [`super::bigint`].
//!
//! The graph is complete; an edge of weight zero is absent and never matched. The result is
//! a matching of maximum total weight (not necessarily of maximum cardinality).

use super::bigint::Big;
use std::collections::VecDeque;

/// Solver state for one computation. Vertices are 1-based; 0 means "none". Indices above
/// `n` are blossoms.
struct Solver<'a, const N: usize> {
    n: usize,
    nx: usize,
    /// Row stride of `ww`.
    stride: usize,
    /// 2·w for each pair of real vertices (w being twice the caller's weight, so that all
    /// dual values stay integral).
    ww: &'a [Big<N>],
    /// Representative real edge between two (super) vertices, `m × m`.
    g: Vec<(u32, u32)>,
    m: usize,
    lab: Vec<Big<N>>,
    mate: Vec<usize>,
    slack: Vec<usize>,
    st: Vec<usize>,
    pa: Vec<usize>,
    flo_from: Vec<usize>,
    s: Vec<i8>,
    vis: Vec<u32>,
    vis_t: u32,
    flo: Vec<Vec<usize>>,
    q: VecDeque<usize>,
}

impl<const N: usize> Solver<'_, N> {
    fn gidx(&self, x: usize, y: usize) -> usize {
        x * self.m + y
    }

    fn edge(&self, x: usize, y: usize) -> (usize, usize) {
        let (u, v) = self.g[self.gidx(x, y)];
        (u as usize, v as usize)
    }

    fn w_of(&self, e: (usize, usize)) -> &Big<N> {
        &self.ww[e.0 * self.stride + e.1]
    }

    fn has_edge(&self, x: usize, y: usize) -> bool {
        !self.w_of(self.edge(x, y)).is_zero()
    }

    fn e_delta(&self, e: (usize, usize)) -> Big<N> {
        let mut r = self.lab[e.0];
        r.add_assign(&self.lab[e.1]);
        r.sub_assign(self.w_of(e));
        r
    }

    fn update_slack(&mut self, u: usize, x: usize) {
        let sx = self.slack[x];
        if sx == 0 || self.e_delta(self.edge(u, x)) < self.e_delta(self.edge(sx, x)) {
            self.slack[x] = u;
        }
    }

    fn set_slack(&mut self, x: usize) {
        self.slack[x] = 0;
        for u in 1..=self.n {
            if self.has_edge(u, x) && self.st[u] != x && self.s[self.st[u]] == 0 {
                self.update_slack(u, x);
            }
        }
    }

    fn q_push(&mut self, x: usize) {
        if x <= self.n {
            self.q.push_back(x);
        } else {
            for i in 0..self.flo[x].len() {
                let c = self.flo[x][i];
                self.q_push(c);
            }
        }
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
        let xr = self.flo_from[u * (self.n + 1) + e.0];
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
        for x in 1..=self.nx {
            let i = self.gidx(b, x);
            self.g[i] = (0, 0);
            let j = self.gidx(x, b);
            self.g[j] = (0, 0);
        }
        let row = b * (self.n + 1);
        for x in 1..=self.n {
            self.flo_from[row + x] = 0;
        }
        for i in 0..self.flo[b].len() {
            let xs = self.flo[b][i];
            for x in 1..=self.nx {
                let cand = self.edge(xs, x);
                if self.w_of(cand).is_zero() {
                    continue;
                }
                let cur = self.edge(b, x);
                if self.w_of(cur).is_zero() || self.e_delta(cand) < self.e_delta(cur) {
                    let gi = self.gidx(b, x);
                    self.g[gi] = self.g[self.gidx(xs, x)];
                    let gj = self.gidx(x, b);
                    self.g[gj] = self.g[self.gidx(x, xs)];
                }
            }
            let xrow = xs * (self.n + 1);
            for x in 1..=self.n {
                if self.flo_from[xrow + x] != 0 {
                    self.flo_from[row + x] = xs;
                }
            }
        }
        self.set_slack(b);
    }

    fn expand_blossom(&mut self, b: usize) {
        for i in 0..self.flo[b].len() {
            let c = self.flo[b][i];
            self.set_st(c, c);
        }
        let entry = self.edge(b, self.pa[b]).0;
        let xr = self.flo_from[b * (self.n + 1) + entry];
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

    fn on_found_edge(&mut self, e: (usize, usize)) -> bool {
        let u = self.st[e.0];
        let v = self.st[e.1];
        if self.s[v] == -1 {
            self.pa[v] = e.0;
            self.s[v] = 1;
            let nu = self.st[self.mate[v]];
            self.slack[v] = 0;
            self.slack[nu] = 0;
            self.s[nu] = 0;
            self.q_push(nu);
        } else if self.s[v] == 0 {
            let lca = self.get_lca(u, v);
            if lca == 0 {
                self.augment(u, v);
                self.augment(v, u);
                return true;
            }
            self.add_blossom(u, lca, v);
        }
        false
    }

    /// One stage: returns true after an augmentation, false when the matching is optimal.
    fn stage(&mut self) -> bool {
        for x in 1..=self.nx {
            self.s[x] = -1;
            self.slack[x] = 0;
        }
        self.q.clear();
        for x in 1..=self.nx {
            if self.st[x] == x && self.mate[x] == 0 {
                self.pa[x] = 0;
                self.s[x] = 0;
                self.q_push(x);
            }
        }
        if self.q.is_empty() {
            return false;
        }
        loop {
            while let Some(u) = self.q.pop_front() {
                if self.s[self.st[u]] == 1 {
                    continue;
                }
                for v in 1..=self.n {
                    if self.st[u] != self.st[v] && !self.ww[u * self.stride + v].is_zero() {
                        if self.e_delta((u, v)).is_zero() {
                            if self.on_found_edge((u, v)) {
                                return true;
                            }
                        } else {
                            let sv = self.st[v];
                            self.update_slack(u, sv);
                        }
                    }
                }
            }
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
            for x in 1..=self.nx {
                if self.st[x] == x && self.slack[x] != 0 {
                    let mut c = self.e_delta(self.edge(self.slack[x], x));
                    if self.s[x] == -1 {
                        take(&mut d, c);
                    } else if self.s[x] == 0 {
                        c.shr1();
                        take(&mut d, c);
                    }
                }
            }
            for u in 1..=self.n {
                match self.s[self.st[u]] {
                    0 => {
                        if d.is_none_or(|d| self.lab[u] <= d) {
                            return false;
                        }
                        if let Some(d) = &d {
                            self.lab[u].sub_assign(d);
                        }
                    }
                    1 => {
                        if let Some(d) = &d {
                            self.lab[u].add_assign(d);
                        }
                    }
                    _ => {}
                }
            }
            let Some(d) = d else { return false };
            let d2 = d.plus(&d);
            for b in self.n + 1..=self.nx {
                if self.st[b] == b {
                    match self.s[b] {
                        0 => self.lab[b].add_assign(&d2),
                        1 => self.lab[b].sub_assign(&d2),
                        _ => {}
                    }
                }
            }
            self.q.clear();
            for x in 1..=self.nx {
                let sx = self.slack[x];
                if self.st[x] == x
                    && sx != 0
                    && self.st[sx] != x
                    && self.e_delta(self.edge(sx, x)).is_zero()
                    && self.on_found_edge(self.edge(sx, x))
                {
                    return true;
                }
            }
            for b in self.n + 1..=self.nx {
                if self.st[b] == b && self.s[b] == 1 && self.lab[b].is_zero() {
                    self.expand_blossom(b);
                }
            }
        }
    }
}

/// Computes a maximum-weight matching. `weights` is an `n × n` row-major matrix of edge
/// weights (symmetric, diagonal ignored, zero = no edge); each weight must leave three
/// spare high bits in `Big<N>`. Returns, for each vertex, its mate or itself if unmatched.
pub fn max_weight_matching<const N: usize>(n: usize, weights: &[Big<N>]) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let stride = n + 1;
    let mut ww = vec![Big::<N>::ZERO; stride * stride];
    let mut w_max = Big::<N>::ZERO;
    for u in 0..n {
        for v in 0..n {
            if u != v {
                let mut w = weights[u * n + v];
                w.shl(1);
                if w > w_max {
                    w_max = w;
                }
                w.shl(1);
                ww[(u + 1) * stride + v + 1] = w;
            }
        }
    }
    let m = 2 * n + 1;
    let mut g = vec![(0u32, 0u32); m * m];
    for u in 1..=n {
        for v in 1..=n {
            g[u * m + v] = (u as u32, v as u32);
        }
    }
    let mut flo_from = vec![0usize; m * (n + 1)];
    for u in 1..=n {
        flo_from[u * (n + 1) + u] = u;
    }
    let mut st = vec![0usize; m];
    for (u, s) in st.iter_mut().enumerate().take(n + 1) {
        *s = u;
    }
    let mut lab = vec![Big::<N>::ZERO; m];
    for l in lab.iter_mut().take(n + 1).skip(1) {
        *l = w_max;
    }
    let mut solver = Solver {
        n,
        nx: n,
        stride,
        ww: &ww,
        g,
        m,
        lab,
        mate: vec![0; m],
        slack: vec![0; m],
        st,
        pa: vec![0; m],
        flo_from,
        s: vec![-1; m],
        vis: vec![0; m],
        vis_t: 0,
        flo: vec![Vec::new(); m],
        q: VecDeque::new(),
    };
    while solver.stage() {}
    (0..n)
        .map(|u| {
            let v = solver.mate[u + 1];
            if v == 0 { u } else { v - 1 }
        })
        .collect()
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
}
