#!/usr/bin/env python3
"""qili beside Fairy-Stockfish on the same cycles: time per ruling, case by case.

For every case of the given .jsonl files, times pyffish's `is_optional_game_end` (Fairy-Stockfish's
repetition rule, `xiangqi` variant) on the case's start position and moves, and qili's ruling of
the same case in process (`qili cases --json`, which measures the ruling alone: the cases are read
once). Both are timed the same way: the mean of a loop of `--loops` calls on the same case (qili's
`cases --repeat`), the best of `--runs` loops. `--cold` times qili's first ruling of each case
alone instead (its caches then hold the case before it, not this one: the figure a caller ruling
one repetition now and then pays). Prints the slowest cases, every case where qili is slower, and
the mean and median of qili's time over pyffish's.

  pip install pyffish==0.0.90
  cargo build --profile dist
  python3 scripts/pyffish_compare.py --bin target/dist/qili cases/ ../shared/rulebook/*.jsonl

pyffish's figure includes one Python call per ruling (about a microsecond), as a caller of it
would pay.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time


def cases_of(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "**", "*.jsonl"), recursive=True))
        else:
            files.append(p)
    for f in files:
        with open(f, encoding="utf-8-sig") as fh:
            for line in fh:
                line = line.strip()
                if not line or line.startswith("//") or line.startswith("#"):
                    continue
                yield f, json.loads(line)


def fsf_fen(fen):
    """A qili FEN (ICCS board, side, maybe more fields) as Fairy-Stockfish reads it."""
    if not fen.strip():
        return "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    fields = fen.split()
    board, side = fields[0], fields[1] if len(fields) > 1 else "w"
    side = "b" if side in ("b", "B") else "w"
    return f"{board} {side} - - 0 1"


def fsf_move(iccs):
    """ICCS ranks 0-9 as Fairy-Stockfish's 1-10."""
    m = iccs.replace("-", "").lower()
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def time_pyffish(sf, fen, moves, loops, runs):
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(loops):
            sf.is_optional_game_end("xiangqi", fen, moves)
        best = min(best, (time.perf_counter() - t) / loops)
    return best * 1e6


def time_qili(binary, files, loops, runs):
    best = {}
    for _ in range(runs):
        out = subprocess.run([binary, "cases", "--json", "--repeat", str(loops), *files],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"qili cases failed: {out.stderr.strip()}")
        for r in json.loads(out.stdout)["results"]:
            us = r["timeMs"] * 1e3
            best[r["id"]] = min(best.get(r["id"], us), us)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", help=".jsonl case files or folders")
    ap.add_argument("--bin", default="target/release/qili")
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--show", type=int, default=10, help="slowest cases to list")
    ap.add_argument("--cold", action="store_true",
                    help="time qili's first ruling of each case alone, not a loop's mean")
    a = ap.parse_args()
    import pyffish as sf

    cases = list(cases_of(a.paths))
    files = sorted({f for f, _ in cases})
    qili = time_qili(a.bin, files, 1 if a.cold else a.loops, a.runs)
    rows = []
    for f, c in cases:
        fen = fsf_fen(c.get("fen", ""))
        moves = [fsf_move(m) for m in c["moves"]]
        ff = time_pyffish(sf, fen, moves, a.loops, a.runs)
        q = qili.get(c["id"])
        if q is not None:
            rows.append((c["id"], q, ff))
    ratios = [q / ff for _, q, ff in rows]
    print(f"{len(rows)} cases; qili/pyffish mean {statistics.mean(ratios):.3f}, "
          f"median {statistics.median(ratios):.3f}")
    print(f"qili median {statistics.median(q for _, q, _ in rows):.1f} µs, "
          f"mean {statistics.mean(q for _, q, _ in rows):.1f} µs; pyffish median "
          f"{statistics.median(ff for _, _, ff in rows):.1f} µs")
    print(f"slowest {a.show} for qili:")
    for cid, q, ff in sorted(rows, key=lambda r: -r[1])[: a.show]:
        print(f"  {cid:40} qili {q:9.1f} µs  pyffish {ff:8.1f} µs  ({q / ff:.2f}×)")
    slower = [(cid, q, ff) for cid, q, ff in rows if q > ff]
    print(f"{len(slower)} cases where qili is slower than pyffish:")
    for cid, q, ff in sorted(slower, key=lambda r: -r[1] / r[2]):
        print(f"  {cid:40} qili {q:9.1f} µs  pyffish {ff:8.1f} µs  ({q / ff:.2f}×)")


if __name__ == "__main__":
    main()
