#!/usr/bin/env python3
"""damka's PDN as another program reads it: every game of `damka demo`, downloaded as PDN
(`GET /api/v1/games/{id}/pdn`), is read and replayed move by move by pydraughts (an
independent implementation of the rules and of PDN), and must end on the position damka
shows for the game (`fen` of `GET /api/v1/games/{id}`). A move pydraughts cannot read or
finds illegal, or a different final position, fails the run.

    pip install pydraughts
    NO_BUILD=1 PROFILE=debug scripts/pdn_crosscheck.py

Environment: PORT=18471, PROFILE and NO_BUILD as in scripts/demo_server.py.
"""

import os
import sys

from demo_server import DemoServer

PORT = int(os.environ.get("PORT", "18471"))

try:
    from draughts import Board, Move
    from draughts.PDN import PDNReader
except ImportError:
    print("pdn_crosscheck: needs pydraughts (pip install pydraughts)", file=sys.stderr)
    sys.exit(2)


def pieces(fen):
    """A FEN's side to move and its men and kings by colour, whatever the order the squares
    are listed in: `W:Wa1,Kc3:Bh8` -> ('W', {('W', 'a1'), ('WK', 'c3'), ('B', 'h8')})."""
    side, *fields = fen.strip().rstrip(".").split(":")
    found = set()
    for field in fields:
        colour, squares = field[:1], field[1:]
        for square in filter(None, squares.split(",")):
            king = square.startswith("K")
            found.add((colour + ("K" if king else ""), square.lstrip("K")))
    return side, found


def replay(pdn):
    """The position pydraughts reaches by playing the file's moves."""
    game = PDNReader(pdn_text=pdn).games[0]
    start = game.tags.get("FEN")
    board = Board(variant=game.variant, fen=start) if start else Board(variant=game.variant)
    moves = game.moves
    # pydraughts' reader (0.6) lists the first move twice when Black starts (a FEN with
    # "B", as a drawn opening of an odd number of moves leaves it): `1... b6-c5` reads as
    # ['b6-c5', 'b6-c5', ...]. Its bug, not the file's; the copy is dropped.
    if start and start.startswith("B") and len(moves) > 1 and moves[0] == moves[1]:
        moves = moves[1:]
    for ply, text in enumerate(moves, start=1):
        try:
            board.push(Move(board, pdn_move=text))
        except Exception as error:  # pydraughts raises KeyError/ValueError on a bad move
            raise ValueError(f"ply {ply} {text!r}: {error!r}") from error
    return game.variant, len(moves), board.fen


def main():
    failures = []
    checked = 0
    variants = {}
    with DemoServer("pdn_crosscheck", PORT) as server:
        games = server.every_item("/api/v1/games")
        for listed in games:
            game_id = listed["id"]
            pdn = server.get_text(f"/api/v1/games/{game_id}/pdn")
            ours = server.get_json(f"/api/v1/games/{game_id}")
            try:
                variant, plies, theirs = replay(pdn)
            except ValueError as error:
                failures.append(f"game {game_id}: pydraughts refused {error}")
                continue
            if plies != ours["ply"]:
                failures.append(f"game {game_id}: {plies} moves read, damka has {ours['ply']}")
            elif pieces(theirs)[1] != pieces(ours["fen"])[1]:
                failures.append(f"game {game_id} ({variant}): pydraughts ends on {theirs}, "
                                f"damka on {ours['fen']}")
            checked += 1
            variants[variant] = variants.get(variant, 0) + 1
    kinds = ", ".join(f"{name} {count}" for name, count in sorted(variants.items()))
    print(f"pdn_crosscheck: {checked} of {len(games)} demo games replayed by pydraughts "
          f"({kinds}); {len(failures)} differ")
    for failure in failures:
        print(f"  {failure}", file=sys.stderr)
    if failures or not games:
        sys.exit(1)


if __name__ == "__main__":
    main()
