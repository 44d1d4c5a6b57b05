#!/usr/bin/env python3
"""Development check of qili's XQF writer against an independent XQF reader.

Reads every tests/data/xqf/*.xqf with the `cchess` package (whose XQF reader follows XQStudio's
own XQFRW.pas) and compares, with the PGN game each fixture was made from: the start position,
the moves (all of them, or as many as cchess's PGN reader gets through), the players and the
result; it also prints the comments cchess finds on the start and on move 1, which the fixtures
carry. Run: `pip install cchess && python3 scripts/check_xqf_with_cchess.py`.
cchess is a development tool only; qili never depends on it.
"""
import glob
import os
import sys
import tempfile

from cchess.read_pgn import read_from_pgn
from cchess.read_xqf import read_from_xqf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pgn_game(path):
    """cchess reads UTF-8 only: the GBK records go through a UTF-8 copy."""
    text = open(path, "rb").read().decode("gb18030")
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        return read_from_pgn(f.name)
    finally:
        os.unlink(f.name)


def main():
    failures = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "xqf", "*.xqf"))):
        stem = os.path.basename(path)[:-4]
        version = open(path, "rb").read()[2]
        game = read_from_xqf(path)
        lines = game.dump_iccs_moves()
        moves = lines[0] if lines else []
        fen = game.init_board.to_fen()
        source = os.path.join(ROOT, "tests", "data", "pgn", stem + ".pgn")
        if not os.path.exists(source):
            print(f"{stem}: version {version}, {len(moves)} moves, start {fen} (golden file)")
            continue
        pgn = pgn_game(source)
        pgn_lines = pgn.dump_iccs_moves()
        pgn_moves = pgn_lines[0] if pgn_lines else []
        problems = []
        if fen.split()[0] != pgn.init_board.to_fen().split()[0]:
            problems.append(f"start {fen} != {pgn.init_board.to_fen()}")
        if moves[:len(pgn_moves)] != pgn_moves:
            problems.append("moves differ")
        for key in ("red", "black", "result"):
            if game.info.get(key) != pgn.info.get(key):
                problems.append(f"{key} {game.info.get(key)!r} != {pgn.info.get(key)!r}")
        notes = [m.annote for m in game.iter_moves()][:1]
        compared = "all" if len(pgn_moves) == len(moves) else f"the first {len(pgn_moves)}"
        status = "; ".join(problems) if problems else f"same ({compared} of {len(moves)} moves)"
        print(f"{stem}: version {version}: {status}; comments {game.annote!r} {notes}")
        failures += bool(problems)
    print(f"{failures} differing")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
