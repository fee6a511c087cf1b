#!/usr/bin/env python3
"""Regenerates the Dutch-system corpus: random tournaments whose every round is paired by
bbpPairings (`--dutch`), with requested byes (H), absences (Z), withdrawals, late entries,
forfeits (one-sided and double), forbidden pairs (XXP) and a few point systems.

Usage: generate.py BBP_EXECUTABLE [OUTPUT_DIR]
Writes NAME.trf (the finished tournament) and NAME.pairings (bbpPairings' output for each
round, in order, each block preceded by a line `round N`).
"""
import os
import random
import subprocess
import sys
import tempfile

BBP = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))


def fmt_pts(half):
    return f"{half // 2}.{5 if half % 2 else 0}"


class Tourney:
    def __init__(self, name, n, rounds, rng, cfg):
        self.name, self.n, self.rounds, self.rng, self.cfg = name, n, rounds, rng, cfg
        self.ratings = sorted((rng.randint(1400, 2600) if rng.random() > 0.05 else 0 for _ in range(n)), reverse=True)
        self.cells = [[] for _ in range(n)]  # per player, per round: text cell (8 chars) or None (blank)
        self.win, self.draw = cfg.get("points", (2, 1))  # half-points
        self.pab = cfg.get("pab", self.win)
        self.first = rng.choice(["white1", "black1"])
        self.forbidden = []
        for _ in range(cfg.get("forbidden", 0)):
            a, b = rng.sample(range(1, n + 1), 2)
            self.forbidden.append((min(a, b), max(a, b)))
        self.late = {p: rng.randint(1, max(1, rounds // 2)) for p in range(n) if rng.random() < cfg.get("late", 0)}
        self.withdrawn_after = {p: rng.randint(2, rounds) for p in range(n) if rng.random() < cfg.get("withdraw", 0)}

    def points_of(self, cell):
        if cell is None:
            return 0
        r = cell[7]
        return {"1": self.win, "=": self.draw, "0": 0, "+": self.win, "-": 0, "U": self.pab,
                "H": self.draw, "F": self.win, "Z": 0, "W": self.win, "D": self.draw, "L": 0}[r]

    def trf(self, requests=None):
        lines = [f"012 {self.name}", f"XXR {self.rounds}", f"XXC {self.first}"]
        if (self.win, self.draw, self.pab) != (2, 1, 2):
            lines.append(f"162  W{fmt_pts(self.win):>4}    D{fmt_pts(self.draw):>4}    P{fmt_pts(self.pab):>4}")
        for a, b in self.forbidden:
            lines.append(f"XXP {a} {b}")
        for p in range(self.n):
            pts = sum(self.points_of(c) for c in self.cells[p])
            head = f"001 {p + 1:>4}      {'Player ' + str(p + 1):<33} {self.ratings[p] or '':>4}"
            line = f"{head:<80}{fmt_pts(pts):>4}{p + 1:>5}"
            cells = list(self.cells[p])
            if requests is not None and p in requests:
                cells.append(requests[p])
            while cells and cells[-1] is None:
                cells.pop()
            for c in cells:
                line += "  " + (c if c is not None else " " * 8)
            lines.append(line.rstrip())
        return "\n".join(lines) + "\n"

    def play(self, limit=None):
        rng = self.rng
        out = []
        for r in range(1, (limit or self.rounds) + 1):
            requests = {}
            for p in range(self.n):
                if p in self.late and r <= self.late[p]:
                    requests[p] = "0000 - Z"
                elif p in self.withdrawn_after and r > self.withdrawn_after[p]:
                    requests[p] = "0000 - Z"
                elif rng.random() < self.cfg.get("hbye", 0):
                    requests[p] = "0000 - H"
                elif rng.random() < self.cfg.get("absent", 0):
                    requests[p] = "0000 - Z"
            with tempfile.TemporaryDirectory() as d:
                inp = os.path.join(d, "in.trf")
                outp = os.path.join(d, "out.txt")
                with open(inp, "w") as f:
                    f.write(self.trf(requests))
                res = subprocess.run([BBP, "--dutch", inp, "-p", outp], capture_output=True, text=True)
                if res.returncode != 0:
                    return None  # no valid pairing: discard this tournament
                text = open(outp).read()
            out.append((r, text))
            lines = text.split()
            count = int(lines[0])
            paired = set()
            for k in range(count):
                a, b = int(lines[1 + 2 * k]) - 1, int(lines[2 + 2 * k]) - 1
                if b < 0:
                    self.cells[a].append("0000 - U")
                    paired.add(a)
                    continue
                paired.update((a, b))
                x = rng.random()
                if x < self.cfg.get("forfeit", 0):
                    y = rng.random()
                    if y < 0.2:
                        wa, wb = "-", "-"
                    elif y < 0.6:
                        wa, wb = "+", "-"
                    else:
                        wa, wb = "-", "+"
                    self.cells[a].append(f"{b + 1:>4} w {wa}")
                    self.cells[b].append(f"{a + 1:>4} b {wb}")
                    continue
                ra, rb = self.ratings[a] or 1500, self.ratings[b] or 1500
                e = 1 / (1 + 10 ** ((rb - ra) / 400))
                y = rng.random()
                drawp = self.cfg.get("draws", 0.3)
                if y < drawp:
                    ca, cb = "=", "="
                elif y < drawp + (1 - drawp) * e:
                    ca, cb = "1", "0"
                else:
                    ca, cb = "0", "1"
                if rng.random() < 0.02:
                    ca, cb = {"1": "W", "0": "L", "=": "D"}[ca], {"1": "W", "0": "L", "=": "D"}[cb]
                self.cells[a].append(f"{b + 1:>4} w {ca}")
                self.cells[b].append(f"{a + 1:>4} b {cb}")
            for p in range(self.n):
                if p not in paired:
                    req = requests.get(p, "0000 - Z")
                    # Late entries and withdrawn players sometimes keep a blank cell.
                    if req == "0000 - Z" and (p in self.late or p in self.withdrawn_after) and rng.random() < 0.5:
                        self.cells[p].append(None)
                    else:
                        self.cells[p].append(req)
        return out


def bench(n, played, total):
    """A tournament of n players after `played` rounds, for the pairing benchmark; also
    writes bbpPairings' pairing of the next round and the time it took."""
    import time
    rng = random.Random(n)
    cfg = {"hbye": 0.01, "absent": 0.01, "withdraw": 0.02, "late": 0.0, "forfeit": 0.01,
           "forbidden": 2, "draws": 0.3}
    t = Tourney(f"bench_{n:04d}", n, total, rng, cfg)
    t.rounds_to_play = played
    t.play(limit=played)
    os.makedirs(os.path.join(OUT, "bench"), exist_ok=True)
    path = os.path.join(OUT, "bench", f"bench_{n:04d}.trf")
    with open(path, "w") as f:
        f.write(t.trf())
    start = time.time()
    res = subprocess.run([BBP, "--dutch", path, "-p", path + ".bbp"], capture_output=True, text=True)
    took = time.time() - start
    os.replace(path + ".bbp", os.path.join(OUT, "bench", f"bench_{n:04d}.pairing"))
    print(f"bench_{n:04d}: bbpPairings paired round {played + 1} in {took:.2f} s (exit {res.returncode})")


def main():
    if len(sys.argv) > 3 and sys.argv[3] == "--bench":
        for n in map(int, sys.argv[4].split(",")):
            bench(n, 5, 9)
        return
    sizes = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 29, 30,
             31, 33, 35, 36, 38, 40, 41, 44, 47, 50, 53, 56, 60, 63, 67, 70, 75, 80, 85, 91,
             99, 100, 110, 121, 130, 150, 170, 200]
    made = 0
    for i, n in enumerate(sizes):
        for attempt in range(20):
            rng = random.Random(1000 * i + attempt)
            rounds = rng.choice([5, 6, 7, 8, 9, 9, 11]) if n > 12 else rng.choice([4, 5, 6, 7])
            rounds = min(rounds, n - 1)
            cfg = {
                "hbye": rng.choice([0, 0.02, 0.05]),
                "absent": rng.choice([0, 0.01, 0.03]),
                "withdraw": rng.choice([0, 0.03, 0.08]),
                "late": rng.choice([0, 0.03, 0.08]),
                "forfeit": rng.choice([0, 0.02, 0.05]),
                "forbidden": rng.choice([0, 0, 1, 3, max(1, n // 10)]),
                "draws": rng.choice([0.1, 0.3, 0.5]),
            }
            if i % 7 == 3:
                cfg["points"] = (6, 2)  # 3-1-0 football scoring
            if i % 11 == 5:
                cfg["pab"] = 1  # PAB worth a draw
            name = f"dutch_{n:03d}_{i:02d}"
            t = Tourney(name, n, rounds, rng, cfg)
            res = t.play()
            if res is None:
                continue
            with open(os.path.join(OUT, name + ".trf"), "w") as f:
                f.write(t.trf())
            with open(os.path.join(OUT, name + ".pairings"), "w") as f:
                for r, text in res:
                    f.write(f"round {r}\n{text}")
            made += 1
            break
    print(f"{made} tournaments written to {OUT}")


if __name__ == "__main__":
    main()
