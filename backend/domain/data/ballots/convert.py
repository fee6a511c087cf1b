#!/usr/bin/env python3
"""Converts the public opening-ballot tables into damka's TSV data files.

Usage: convert.py PYDRAUGHTS_DIR STRATEGYGAMES_DIR [OUT_DIR]

PYDRAUGHTS_DIR is a checkout of AttackingOrDefending/pydraughts (MIT) and STRATEGYGAMES_DIR one
of Mind-Sports-Games/strategygames (MIT); OUT_DIR defaults to this script's directory. See
ATTRIBUTION.md for the files read and what is changed.

Each output line is `code<TAB>moves<TAB>start_fen<TAB>fen` and, in the 64-square tables,
`<TAB>brazilian`:
  moves      the plies in damka-engine's notation (c3-d4, c3:e5, 9-13, 13x22), space separated;
  start_fen  empty when the game starts from the initial position, else the set-up position
             (the FMJD/IDF "relocation" starts, which have no moves);
  fen        the position after the moves, as the source gives it, written as damka-engine
             writes FEN (squares in PDN number order, algebraic for the 64-square tables);
  brazilian  1 if the source's Brazilian version of the table keeps the entry, else 0.
The short notation of the sources ("ab4": the man on the a-file goes to b4) is resolved here on a
board with men only; damka replays every entry when it loads the table and checks that the moves
are legal and reach `fen`, so a mistake here is an error at load time, not a wrong opening.
"""
import json
import os
import re
import subprocess
import sys

FILES = "abcdefgh"


def square_name(n):
    """PDN square number (1 = b8 .. 32 = g1) as an algebraic name."""
    row, k = divmod(n - 1, 4)
    col = 2 * k + 1 if row % 2 == 0 else 2 * k
    return FILES[col] + str(8 - row)


NUMBER = {square_name(n): n for n in range(1, 33)}


def row_col(n):
    row, k = divmod(n - 1, 4)
    return row, (2 * k + 1 if row % 2 == 0 else 2 * k)


def number_at(row, col):
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def parse_fen(fen):
    """(side, {number: 'w'|'b'}) from a PDN FEN with numeric or algebraic squares, men only."""
    side, *fields = fen.strip().split(":")
    board = {}
    for field in fields:
        color = field[0].lower()
        for item in filter(None, field[1:].split(",")):
            if item.startswith("K"):
                sys.exit(f"unexpected king in {fen}")
            n = NUMBER[item] if item[0].isalpha() else int(item)
            board[n] = color
    return side.upper(), board


def engine_fen(side, board, algebraic):
    """The FEN as damka-engine's `Position::to_fen` writes it."""
    def squares(color):
        return ",".join(square_name(n) if algebraic else str(n)
                        for n in sorted(board) if board[n] == color)
    return f"{side}:W{squares('w')}:B{squares('b')}"


def initial_board():
    board = {n: "b" for n in range(1, 13)}
    board.update({n: "w" for n in range(21, 33)})
    return board


def resolve_short(board, side, token):
    """`ab4` -> `a3-b4` or a capture `a3:c5`: the one man of `side` on the token's file that
    reaches the square by a step forward or by a jump over an opponent."""
    file, target = token[0], NUMBER[token[1:]]
    mover = "w" if side == "W" else "b"
    forward = -1 if mover == "w" else 1
    tr, tc = row_col(target)
    found = []
    for n, color in board.items():
        r, c = row_col(n)
        if color != mover or FILES[c] != file or target in board:
            continue
        if tr - r == forward and abs(tc - c) == 1:
            found.append((n, None))
        if abs(tr - r) == 2 and abs(tc - c) == 2:
            victim = number_at((r + tr) // 2, (c + tc) // 2)
            if board.get(victim) not in (None, mover):
                found.append((n, victim))
    if len(found) != 1:
        sys.exit(f"cannot resolve {token!r}: {found}")
    (start, victim), = found
    del board[start]
    board[target] = mover
    if victim is not None:
        del board[victim]
    separator = ":" if victim is not None else "-"
    return square_name(start) + separator + square_name(target)


def replay_short(tokens, side="W"):
    board = initial_board()
    moves = []
    for token in tokens:
        moves.append(resolve_short(board, side, token))
        side = "B" if side == "W" else "W"
    return moves, side, board


# Errors of the sources (the same in pydraughts and strategygames), corrected to the side to
# move given here. "gh4 ba5 hg3 ab6 ef4 dc5" is six plies from the initial position, so White
# is to move, not Black. "e3-a5 e7-g5" relocates a man of each side, and in every other such
# start of both tables White is to move. Listed so that an unexpected disagreement still fails.
CORRECTED_SIDE = {
    ("idf64", "XXVII-9"): "W",
    ("idf64", "XX-18"): "W",
    ("fmjd64", "45-IX"): "W",
    ("fmjd64", "22-XV"): "W",
}


# Entries whose FEN in the source is wrong while their moves are right: the FEN is made from
# the moves. Basic "2-IV" is "ef4 fe5 ab4" (legal: after 1.ef4 fe5 nothing can be taken, d6
# is occupied), but its FEN is a copy of "2-V" (ab4 fe5 ba5), named here as the check.
FEN_FROM_MOVES = {
    ("basic150", "2-IV"): "2-V",
}


def side_after(table, code, source_side, plies):
    """The side to move after `plies` plies from the initial position (White first)."""
    side = "W" if plies % 2 == 0 else "B"
    corrected = CORRECTED_SIDE.get((table, code))
    if corrected is not None:
        assert source_side != corrected, f"{table} {code} is no longer wrong in the source"
        return corrected
    if plies and source_side != side:
        sys.exit(f"{table} {code}: {source_side} to move after {plies} plies")
    return source_side


def write(out_dir, name, header, rows):
    path = os.path.join(out_dir, name)
    with open(path, "w") as out:
        for line in header:
            out.write(f"# {line}\n")
        for row in rows:
            out.write("\t".join(row) + "\n")
    print(f"{path}: {len(rows)} entries")


def git_show(repo, path):
    return subprocess.check_output(["git", "-C", repo, "show", f"HEAD:{path}"], text=True)


def short_table_rows(table, entries, code_split, brazilian):
    """Rows of a pydraughts 64-square table: {"CODE moves": fen}; `brazilian(key)` says
    whether the Brazilian version keeps the entry."""
    rows = []
    for key, fen in entries.items():
        code, rest = code_split(key)
        tokens = rest.split()
        side, board = parse_fen(fen)
        if tokens == ["Free"]:
            tokens = []
        if any("-" in t for t in tokens):
            # A relocation start ("a1-a5 ---"): no moves, the FEN is the position.
            start = engine_fen(side_after(table, code, side, 0), board, True)
            rows.append((code, "", start, start, brazilian(key)))
            continue
        moves, _, replayed = replay_short(tokens)
        copied_from = FEN_FROM_MOVES.get((table, code))
        if copied_from is not None:
            # The source's FEN is another entry's: check that it still is, then use the moves.
            twin = next(f for k, f in entries.items() if code_split(k)[0] == copied_from)
            assert fen == twin, f"{table} {code}: its FEN is no longer {copied_from}'s"
            board = replayed
        assert replayed == board, f"{table} {code}: the moves do not reach the FEN"
        side = side_after(table, code, side, len(moves))
        rows.append((code, " ".join(moves), "", engine_fen(side, board, True), brazilian(key)))
    return rows


def scala_positions(text):
    pattern = re.compile(r'StartingPosition\(\s*"([^"]*)",\s*FEN\("([^"]*)"\),\s*"([^"]*)",'
                         r'\s*(?:"([^"]*)"\.some|None)\s*\)')
    return pattern.findall(text)


def main():
    pydraughts, strategygames = sys.argv[1], sys.argv[2]
    out_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.dirname(os.path.abspath(__file__))
    ballots = "draughts/ballot_files/"

    idf = json.loads(git_show(pydraughts, ballots + "russian.json"))
    assert idf["standard"] == list(idf["all"]), "every IDF entry is in play"
    # Cross-check: every IDF position is also in strategygames' copy of the IDF table.
    idf_scala = git_show(strategygames, "src/main/scala/draughts/opening/DrawTablesIDF.scala")
    idf_scala_positions = {
        (side, frozenset(board.items()))
        for side, board in (parse_fen(fen) for _, fen, _, _ in scala_positions(idf_scala))
    }
    for key, fen in idf["all"].items():
        side, board = parse_fen(fen)
        assert (side, frozenset(board.items())) in idf_scala_positions, f"IDF {key} unconfirmed"
    idf_brazilian = json.loads(git_show(pydraughts, ballots + "brazilian.json"))["all"]
    assert all(idf["all"].get(k) == fen for k, fen in idf_brazilian.items())
    write(out_dir, "idf64.tsv",
          ["IDF Drawing Table 64, from pydraughts draughts/ballot_files/russian.json (MIT);",
           "brazilian: whether draughts/ballot_files/brazilian.json has the entry.",
           "code\tmoves\tstart_fen\tfen\tbrazilian"],
          short_table_rows("idf64", idf["all"], lambda k: tuple(x.strip() for x in k.split(":", 1)),
                           lambda k: "1" if k in idf_brazilian else "0"))

    basic = json.loads(git_show(pydraughts, ballots + "150russian_and_brazilian.json"))
    assert basic["standard"] == list(basic["all"])
    write(out_dir, "basic150.tsv",
          ["IDF 150 basic positions, from pydraughts "
           "draughts/ballot_files/150russian_and_brazilian.json (MIT).",
           "The same table is played in Brazilian draughts.",
           "code\tmoves\tstart_fen\tfen\tbrazilian"],
          short_table_rows("basic150", basic["all"], lambda k: tuple(k.split(" ", 1)),
                           lambda k: "1"))

    fmjd_text = git_show(strategygames, "src/main/scala/draughts/opening/DrawTablesFMJD.scala")
    fmjd_text, brazilian_text = fmjd_text.split("val categoriesFMJDBrazilian")
    not_brazilian = set(re.findall(r'code == "([^"]+)"', brazilian_text))
    fmjd_rows = []
    for code, fen, description, moves in scala_positions(fmjd_text):
        side, board = parse_fen(fen)
        if description == "":
            # Relocation start: `moves` names the relocated men ("a3-d4 f6-a3"), not plies.
            start = engine_fen(side_after("fmjd64", code, side, 0), board, True)
            fmjd_rows.append((code, "", start, start, "0" if code in not_brazilian else "1"))
        else:
            plies, _, replayed = replay_short(moves.split())
            assert replayed == board, f"fmjd64 {code}: the moves do not reach the FEN"
            after = engine_fen(side_after("fmjd64", code, side, len(plies)), board, True)
            fmjd_rows.append((code, " ".join(plies), "", after,
                              "0" if code in not_brazilian else "1"))
    write(out_dir, "fmjd64.tsv",
          ["FMJD Drawing Table 64, from strategygames "
           "src/main/scala/draughts/opening/DrawTablesFMJD.scala (MIT);",
           "brazilian: 0 for the entries its categoriesFMJDBrazilian leaves out.",
           "code\tmoves\tstart_fen\tfen\tbrazilian"],
          fmjd_rows)

    english = json.loads(git_show(pydraughts, ballots + "3move_english.json"))
    # pydraughts' `lost` list names #13 twice and leaves out #26 (9-13 24-19 10-15), which
    # the ACF bars; the barred set is its distinct entries plus #26: 18 openings.
    barred = {key.split()[0] for key in english["lost"]} | {"026"}
    assert len(barred) == 18, barred
    assert next(k for k in english["all"] if k.startswith("026 ")) == "026 09-13 24-19 10-15"
    english_rows = []
    for key, fen in english["all"].items():
        code, *plies = key.split()
        if code in barred:
            continue
        moves = []
        for ply in plies:
            a, b = (int(x) for x in ply.split("-"))
            jump = abs(row_col(a)[0] - row_col(b)[0]) == 2
            moves.append(f"{a}{'x' if jump else '-'}{b}")
        side, board = parse_fen(fen)
        english_rows.append((code, " ".join(moves), "", engine_fen(side, board, False)))
    write(out_dir, "english3.tsv",
          ["ACF three-move openings without the 18 barred ones, from pydraughts "
           "draughts/ballot_files/3move_english.json (MIT).",
           "Barred and left out: " + " ".join(sorted(barred)) + ".",
           "code\tmoves\tstart_fen\tfen"],
          english_rows)


if __name__ == "__main__":
    main()
