#!/usr/bin/env python3
"""Reference perft counts and legal-move lists for qili's tests, from an independent generator.

Development only: qili never depends on this. It uses pyffish (Fairy-Stockfish's Python binding,
`pip install pyffish`), whose move strings number ranks 1-10; they are converted here to ICCS
ranks 0-9 (Fairy-Stockfish `h3e3` is our `h2e2`).

    python3 scripts/perft_reference.py            # print perft counts for tests/perft.rs
    python3 scripts/perft_reference.py --dump     # rewrite tests/data/movegen.jsonl instead
    python3 scripts/perft_reference.py NAME...    # only these positions

The dump holds, for positions reached by seeded random legal play from every position below,
one JSON object per line: {"fen": ..., "moves": [sorted legal moves, ICCS, ranks 0-9]}.
"""
import json
import random
import re
import sys
from pathlib import Path

import pyffish as sf

VARIANT = "xiangqi"

# (name, FEN, depth): the published positions first, then ones chosen to stress pins and checks.
POSITIONS = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 3),
    ("midgame", "rnbakabr1/9/9/p1p1n3p/6p2/2P6/Pc2P1PcP/1CN3N2/9/R1BAKABR1 w - - 0 7", 3),
    # An uncrossed black pawn off its files: needs Position::from_fen_lenient.
    ("cannon_screens", "3k5/1r7/9/9/1p2c4/9/4P4/1C7/4R4/5K3 w - - 0 1", 3),
    ("crossed_soldiers", "P3k4/3P5/4P4/9/9/9/2r6/6p2/9/3K5 w - - 0 1", 4),
    # Horse e3 pinned by the rook on e8; rook f1 and horse g1 both screens of the cannon on i1.
    ("rook_and_cannon_pins", "3k5/4r4/9/9/9/9/4N4/9/4KRN1c/9 w - - 0 1", 4),
    # No screen between king e0 and cannon e6: interposing on e1-e5 would make one.
    ("interposed_screen", "4k4/9/9/4c4/9/9/9/R1N6/1C7/4K4 w - - 0 1", 4),
    # Rook f1 stands on the leg of the horse g1 aimed at e0; pawn d8 holds the leg of horse d7
    # aimed at e9, and d8-e8 gives a double check.
    ("horse_legs", "4k4/3Pa4/3N5/9/9/9/9/9/5Rn2/4K4 w - - 0 1", 4),
    # Cannon e4 alone between the kings must stay on the file (flying general).
    ("flying_general", "4k4/9/7n1/9/9/4C4/2p6/1R7/9/4K4 w - - 0 1", 4),
    # Rook e5 and horse g1 both give check: only king moves help.
    ("double_check", "3k5/9/9/9/4r4/9/9/7C1/R5n2/4K4 w - - 0 1", 4),
    # Cannon e3 and horse e5 are both screens of the cannon on e8; cannon f1 pinned by rook i1.
    ("cannon_pins_on_lines", "5k3/4c4/9/9/4N4/9/4C4/9/4KC2r/9 w - - 0 1", 4),
    # Cannon e7 checks through the rook e3: move the screen off, add a second one, or capture.
    ("cannon_check", "3k5/9/4c4/9/9/9/4R4/2N6/9/4K4 w - - 0 1", 4),
    # Pawn e8 and horse g8 check together; the cannon e5 lets the king take on e8.
    ("pawn_and_horse_check", "3aka3/4P1N2/9/9/4c4/9/9/9/9/4K4 b - - 0 1", 4),
    ("checkmate", "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", 3),
    ("stalemate", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", 3),
    ("double_check_mate", "3aka3/4P1N2/9/9/9/9/9/9/9/4K4 b - - 0 1", 3),
]

MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(move):
    """Fairy-Stockfish `h3e3` (ranks 1-10) to ICCS `h2e2` (ranks 0-9)."""
    m = MOVE.match(move)
    if not m:
        raise ValueError(f"unexpected move {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def legal(fen):
    return sf.legal_moves(VARIANT, fen, [])


def perft(fen, depth):
    moves = legal(fen)
    if depth == 1:
        return len(moves)
    return sum(perft(sf.get_fen(VARIANT, fen, [m]), depth - 1) for m in moves)


def random_positions(fen, rng, games, plies):
    """FENs met along `games` random legal games of at most `plies` plies from `fen`."""
    seen = []
    for _ in range(games):
        cur = fen
        for _ in range(plies):
            seen.append(cur)
            moves = legal(cur)
            if not moves:
                break
            cur = sf.get_fen(VARIANT, cur, [rng.choice(moves)])
    return seen


def main():
    if "--dump" in sys.argv:
        dump()
        return
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for name, fen, depth in POSITIONS:
        if only and name not in only:
            continue
        counts = [perft(fen, d) for d in range(1, depth + 1)]
        print(f"{name}: {counts}  # {fen}")


def dump():
    """Writes FEN and sorted ICCS legal moves for positions met in random games."""
    rng = random.Random(20240601)
    out = Path(__file__).resolve().parent.parent / "tests" / "data" / "movegen.jsonl"
    lines = []
    seen = set()
    for _, fen, _ in POSITIONS:
        for cur in random_positions(fen, rng, games=2, plies=16):
            key = " ".join(cur.split()[:2])
            if key in seen:
                continue
            seen.add(key)
            moves = sorted(to_iccs(m) for m in legal(cur))
            lines.append(json.dumps({"fen": cur, "moves": moves}))
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} positions to {out}")

if __name__ == "__main__":
    main()
