#!/usr/bin/env python3
"""Regenerates the micro-match corpus: random Swiss events in which every pairing plays two
games with colours swapped, scored by summed game points or by match points 2-1-0, each
round paired by bbpPairings (`--dutch`) on a TRF written the PlayStrategy way: one
collapsed result per pairing in the player line ("1" above half the pairing's game points,
"=" exactly half, "0" below; the first game's colour; "U" for the PAB) and, for every
player, an XXA line holding for rounds 1..min(played + 1, rounds) the real points minus the
collapsed points over the rounds before.

Real points of a round: game points (the sum of the two games) or match points (2, 1, 0
by the collapsed result); the PAB is worth two games won (2 points) under both scorings, a
requested half-point bye two draws (1 point), an absence nothing.

Usage: generate.py BBP_EXECUTABLE [OUTPUT_DIR]
Writes NAME.trf (the finished event, XXA for all rounds), NAME.pairings (bbpPairings'
output for each round, each block preceded by `round N`) and NAME.scores (one line per
player: the start number, then the real half-points of each round).
"""
import os
import random
import subprocess
import sys
import tempfile

BBP = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))

COLLAPSED = {"1": 2, "=": 1, "0": 0, "U": 2, "H": 1, "Z": 0}


def fmt_pts(half):
    return f"{half // 2}.{5 if half % 2 else 0}"


class Event:
    def __init__(self, name, n, rounds, rng, cfg):
        self.name, self.n, self.rounds, self.rng, self.cfg = name, n, rounds, rng, cfg
        self.ratings = sorted((rng.randint(1400, 2600) if rng.random() > 0.05 else 0 for _ in range(n)), reverse=True)
        self.cells = [[] for _ in range(n)]  # per player, per round: the collapsed 8-character cell
        self.real = [[] for _ in range(n)]  # per player, per round: real half-points
        self.first = rng.choice(["white1", "black1"])
        self.withdrawn_after = {p: rng.randint(2, rounds) for p in range(n) if rng.random() < cfg["withdraw"]}

    def collapsed(self, p):
        return [COLLAPSED[c[7]] for c in self.cells[p]]

    def accelerations(self, p, count):
        out, diff = [], 0
        collapsed = self.collapsed(p)
        for rn in range(count):
            out.append(diff)
            if rn < len(collapsed):
                diff += self.real[p][rn] - collapsed[rn]
        return out

    def trf(self, requests=None):
        played = len(self.cells[0])
        lines = [f"012 {self.name}", f"XXR {self.rounds}", f"XXC {self.first}"]
        for p in range(self.n):
            pts = sum(self.collapsed(p))
            head = f"001 {p + 1:>4}      {'Player ' + str(p + 1):<33} {self.ratings[p] or '':>4}"
            line = f"{head:<80}{fmt_pts(pts):>4}{p + 1:>5}"
            cells = list(self.cells[p])
            if requests is not None and p in requests:
                cells.append(requests[p])
            for c in cells:
                line += "  " + c
            lines.append(line.rstrip())
        count = min(played + 1, self.rounds)
        for p in range(self.n):
            lines.append(f"XXA {p + 1:>4}" + "".join(f" {fmt_pts(a):>4}" for a in self.accelerations(p, count)))
        return "\n".join(lines) + "\n"

    def game_points(self, a, b):
        """Half-points of a and b over two games, a White in the first."""
        ra, rb = self.ratings[a] or 1500, self.ratings[b] or 1500
        e = 1 / (1 + 10 ** ((rb - ra) / 400))
        drawp = self.cfg["draws"]
        pa = 0
        for _ in range(2):
            y = self.rng.random()
            if y < drawp:
                pa += 1
            elif y < drawp + (1 - drawp) * e:
                pa += 2
        return pa, 4 - pa

    def real_points(self, half, collapsed):
        if self.cfg["scoring"] == "game_points":
            return half
        return 2 * collapsed  # match points 2/1/0 = twice the collapsed 1/0.5/0

    def play(self):
        rng = self.rng
        out = []
        for r in range(1, self.rounds + 1):
            requests = {}
            for p in range(self.n):
                if p in self.withdrawn_after and r > self.withdrawn_after[p]:
                    requests[p] = "0000 - Z"
                elif rng.random() < self.cfg["hbye"]:
                    requests[p] = "0000 - H"
                elif rng.random() < self.cfg["absent"]:
                    requests[p] = "0000 - Z"
            with tempfile.TemporaryDirectory() as d:
                inp = os.path.join(d, "in.trf")
                outp = os.path.join(d, "out.txt")
                with open(inp, "w") as f:
                    f.write(self.trf(requests))
                res = subprocess.run([BBP, "--dutch", inp, "-p", outp], capture_output=True, text=True)
                if res.returncode != 0:
                    return None  # no valid pairing: discard this event
                text = open(outp).read()
            out.append((r, text))
            tokens = text.split()
            paired = set()
            for k in range(int(tokens[0])):
                a, b = int(tokens[1 + 2 * k]) - 1, int(tokens[2 + 2 * k]) - 1
                if b < 0:
                    self.cells[a].append("0000 - U")
                    self.real[a].append(4)
                    paired.add(a)
                    continue
                paired.update((a, b))
                ha, hb = self.game_points(a, b)
                code = lambda h: "1" if h > 2 else "=" if h == 2 else "0"
                ca, cb = code(ha), code(hb)
                self.cells[a].append(f"{b + 1:>4} w {ca}")
                self.cells[b].append(f"{a + 1:>4} b {cb}")
                self.real[a].append(self.real_points(ha, COLLAPSED[ca]))
                self.real[b].append(self.real_points(hb, COLLAPSED[cb]))
            for p in range(self.n):
                if p not in paired:
                    req = requests.get(p, "0000 - Z")
                    self.cells[p].append(req)
                    self.real[p].append(2 if req.endswith("H") else 0)
        return out


def main():
    made = 0
    for i in range(40):
        for attempt in range(20):
            rng = random.Random(7000 + 100 * i + attempt)
            n = rng.randint(10, 60)
            rounds = rng.randint(5, 9)
            cfg = {
                "scoring": "game_points" if i % 2 == 0 else "match_points",
                "hbye": rng.choice([0, 0.02, 0.05]),
                "absent": rng.choice([0, 0.01, 0.03]),
                "withdraw": rng.choice([0, 0.03, 0.08]),
                "draws": rng.choice([0.2, 0.4, 0.6]),
            }
            name = f"micro_{n:03d}_{i:02d}_{'gp' if cfg['scoring'] == 'game_points' else 'mp'}"
            t = Event(name, n, rounds, rng, cfg)
            res = t.play()
            if res is None:
                continue
            with open(os.path.join(OUT, name + ".trf"), "w") as f:
                f.write(t.trf())
            with open(os.path.join(OUT, name + ".pairings"), "w") as f:
                for r, text in res:
                    f.write(f"round {r}\n{text}")
            with open(os.path.join(OUT, name + ".scores"), "w") as f:
                for p in range(n):
                    f.write(" ".join(str(x) for x in [p + 1] + t.real[p]) + "\n")
            made += 1
            break
    print(f"{made} events written to {OUT}")


if __name__ == "__main__":
    main()
