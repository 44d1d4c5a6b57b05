#!/usr/bin/env python3
"""qili's `axf` profile beside Fairy-Stockfish on many cycles: a differential check of verdicts.

What it builds. Positions: every position of the real games behind `benches/data/platform-mix.jsonl`
(each request's FEN played through its moves), then the start positions of the `cases/*.jsonl`
cases whose ruleset is `axf`. From a position (side A to move) a cycle is A's move m1, B's move m2,
A's reverse of m1, B's reverse of m2: all legal, none a capture, none a pawn's advance (a pawn's
sideways step is reversible), so the four plies bring the position back; they are played three
times (12 plies, the start position then stands four times). A cycle is *interesting* when one of
its four moves gives check or newly attacks an enemy piece (a piece the mover can legally take after
the move and could not before it); the others (both sides idle) are kept only as a small control
(`--idle`). The draw is deterministic (`--seed`): the positions are shuffled, then each one gets at
most `--per-position` interesting cycles out of `--tries` random (m1, m2) pairs, until `--cycles`
(10 000 by default: about 1 700 of the 2 082 positions give them).

The two answers. Fairy-Stockfish: `pyffish.is_optional_game_end("xiangqi", fen, moves)` answers
`(True, v)` at the end of such a cycle, `v` from the side to move's point of view: `-VALUE_MATE`,
the side to move loses; `+VALUE_MATE`, the other side loses; `0`, a draw. Fairy-Stockfish's "this
side loses by the repetition" is qili's "this side must change" (AXF rule 3: it loses only if it
repeats once told), so the map is: the loser's `<colour>_must_change`, or `draw`. Calibrated on the
independent AXF suite: with this map pyffish 0.0.90 answers all 75 rulings of
`../shared/rulebook/axf-external.jsonl` as the suite does (`--calibrate FILE` checks it again and
stops). qili: every cycle goes into one `.jsonl` of cases (ruleset `axf`, `expected` = Fairy-
Stockfish's verdict) and is ruled by `qili cases --json` in one process, so a case that "fails" is a
disagreement; errors (a legal request refused), exhausted searches (`search.budgetExhausted`, a
move's `mateSearch`/`gainSearch`) and the slowest rulings (`timeMs`) are counted too.

Output: the counts (agree, and each kind of disagreement: qili's verdict against Fairy-Stockfish's,
with qili's two patterns), then `--out` (default `/tmp/pyffish-diff.jsonl`): every disagreement as
a case line in the case format, grouped by kind (the largest first): `expected` = qili's verdict
and patterns (so `qili cases FILE` replays qili's side and passes), `source` = the position it
came from and the kind, `note` = Fairy-Stockfish's verdict, qili's per-move kind and targets, and
qili's reasons for each side's targets it did not count as chased.

  pip install pyffish==0.0.90
  cargo build --release
  python3 scripts/pyffish_diff.py --bin target/release/qili          # 10 000 cycles, ~1 minute
  python3 scripts/pyffish_diff.py --calibrate ../shared/rulebook/axf-external.jsonl

Run time: a pyffish call costs about 1.5 ms whatever it does (it sets a position up from the FEN
each time), so the cycles are built by the small move generator below (checked against pyffish's
legal moves on every start position used) and pyffish is asked once a cycle; the default 10 000
cycles take about 55 s on one core of a loaded machine (build 33 s, pyffish 16 s, qili 3 s).
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pyffish_compare import cases_of, fsf_fen, fsf_move  # noqa: E402

# Board: index rank * 9 + file, rank 0 = red's back rank (ICCS ranks), file 0 = a.
ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def on(r, f):
    return 0 <= r <= 9 and 0 <= f <= 8


def red(p):
    return p.isupper()


def parse_fen(fen):
    """(board dict square -> piece letter, side 'w'/'b') from a FEN (ranks 9 to 0)."""
    fields = fen.split()
    rows = fields[0].split("/")
    board = {}
    for i, row in enumerate(rows):
        r, f = 9 - i, 0
        for ch in re.findall(r"\d+|[A-Za-z]", row):
            if ch.isdigit():
                f += int(ch)
            else:
                board[(r, f)] = ch
                f += 1
    return board, fields[1] if len(fields) > 1 else "w"


def to_fen(board, side):
    rows = []
    for r in range(9, -1, -1):
        s, gap = "", 0
        for f in range(9):
            p = board.get((r, f))
            if p is None:
                gap += 1
            else:
                s += (str(gap) if gap else "") + p
                gap = 0
        rows.append(s + (str(gap) if gap else ""))
    return "/".join(rows) + " " + side


def in_palace(r, f, is_red):
    return 3 <= f <= 5 and (0 <= r <= 2 if is_red else 7 <= r <= 9)


def own_half(r, is_red):
    return r <= 4 if is_red else r >= 5


def pseudo(board, is_red):
    """Pseudo-legal moves of one side: ((r, f), (r2, f2))."""
    out = []
    for (r, f), p in board.items():
        if red(p) != is_red:
            continue
        k = p.upper()

        def add(r2, f2):
            q = board.get((r2, f2))
            if q is None or red(q) != is_red:
                out.append(((r, f), (r2, f2)))

        if k == "K":
            for dr, dc in ORTHO:
                if in_palace(r + dr, f + dc, is_red):
                    add(r + dr, f + dc)
        elif k == "A":
            for dr, dc in DIAG:
                if in_palace(r + dr, f + dc, is_red):
                    add(r + dr, f + dc)
        elif k == "B":
            for dr, dc in DIAG:
                r2, f2 = r + 2 * dr, f + 2 * dc
                if on(r2, f2) and own_half(r2, is_red) and (r + dr, f + dc) not in board:
                    add(r2, f2)
        elif k == "N":
            for dr, dc in ORTHO:
                if not on(r + dr, f + dc) or (r + dr, f + dc) in board:
                    continue
                for s in (1, -1):
                    r2, f2 = (r + 2 * dr + (s if dr == 0 else 0), f + 2 * dc + (s if dc == 0 else 0))
                    if on(r2, f2):
                        add(r2, f2)
        elif k in "RC":
            for dr, dc in ORTHO:
                r2, f2 = r + dr, f + dc
                while on(r2, f2) and (r2, f2) not in board:
                    out.append(((r, f), (r2, f2)))
                    r2, f2 = r2 + dr, f2 + dc
                if k == "R":
                    if on(r2, f2):
                        add(r2, f2)
                else:
                    r2, f2 = r2 + dr, f2 + dc
                    while on(r2, f2) and (r2, f2) not in board:
                        r2, f2 = r2 + dr, f2 + dc
                    if on(r2, f2) and red(board[(r2, f2)]) != is_red:
                        out.append(((r, f), (r2, f2)))
        elif k == "P":
            fwd = 1 if is_red else -1
            if on(r + fwd, f):
                add(r + fwd, f)
            if not own_half(r, is_red):
                for dc in (1, -1):
                    if on(r, f + dc):
                        add(r, f + dc)
    return out


def attacked(board, sq, by_red):
    """Is `sq` attacked by a piece of side `by_red` (kings facing each other included)?"""
    r, f = sq
    for dr, dc in ORTHO:
        r2, f2, screens = r + dr, f + dc, 0
        while on(r2, f2):
            p = board.get((r2, f2))
            if p is not None:
                if red(p) == by_red:
                    k = p.upper()
                    if screens == 0 and (k == "R" or (k == "K" and dc == 0)):
                        return True
                    if screens == 1 and k == "C":
                        return True
                screens += 1
                if screens > 1:
                    break
            r2, f2 = r2 + dr, f2 + dc
    # Horses: a horse at (r+a, f+b) reaches sq through its leg next to itself.
    for a, b in ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)):
        h = (r + a, f + b)
        p = board.get(h)
        if p is not None and red(p) == by_red and p.upper() == "N":
            leg = (h[0] - (a // 2 if abs(a) == 2 else 0), h[1] - (b // 2 if abs(b) == 2 else 0))
            if leg not in board:
                return True
    back = -1 if by_red else 1  # a pawn of by_red attacks from behind sq
    p = board.get((r + back, f))
    if p is not None and red(p) == by_red and p.upper() == "P":
        return True
    for dc in (1, -1):
        p = board.get((r, f + dc))
        if p is not None and red(p) == by_red and p.upper() == "P" and not own_half(r, by_red):
            return True
    return False


def king(board, is_red):
    k = "K" if is_red else "k"
    return next((s for s, p in board.items() if p == k), None)


def play(board, mv):
    b = dict(board)
    b[mv[1]] = b.pop(mv[0])
    return b


def legal(board, is_red):
    out = []
    for mv in pseudo(board, is_red):
        b = play(board, mv)
        k = king(b, is_red)
        if k is not None and not attacked(b, k, not is_red):
            out.append(mv)
    return out


def in_check(board, is_red):
    k = king(board, is_red)
    return k is not None and attacked(board, k, not is_red)


def targets(board, is_red):
    """Enemy pieces (not the king) that side `is_red` can legally take, by square."""
    return {mv[1] for mv in legal(board, is_red)
            if mv[1] in board and board[mv[1]].upper() != "K"}


def iccs(mv):
    (r, f), (r2, f2) = mv
    return f"{'abcdefghi'[f]}{r}{'abcdefghi'[f2]}{r2}"


def from_iccs(s):
    s = s.replace("-", "").lower()
    return ((int(s[1]), "abcdefghi".index(s[0])), (int(s[3]), "abcdefghi".index(s[2])))


def reversible(board, mv, is_red):
    """Not a capture, not a pawn's advance."""
    if mv[1] in board:
        return False
    p = board[mv[0]]
    return not (p.upper() == "P" and mv[0][1] == mv[1][1])


def interesting(board, mv, is_red):
    """The move gives check, or the mover can take a piece after it that it could not before."""
    after = play(board, mv)
    if in_check(after, not is_red):
        return True
    return bool(targets(after, is_red) - targets(board, is_red))


def positions(root):
    """(label, fen) of every position of the platform mix's games, then the AXF cases' starts."""
    seen = set()
    path = os.path.join(root, "benches", "data", "platform-mix.jsonl")
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            req = json.loads(line)
            board, side = parse_fen(req["fen"])
            key = to_fen(board, side)
            if key not in seen:
                seen.add(key)
                yield req["requestId"].rsplit(" ply", 1)[0] + " start", key
            for i, m in enumerate(req["moves"]):
                board = play(board, from_iccs(m))
                side = "b" if side == "w" else "w"
                key = to_fen(board, side)
                if key not in seen:
                    seen.add(key)
                    yield f"{req['requestId'].rsplit(' ply', 1)[0]} ply {i}", key
    for _, c in cases_of([os.path.join(root, "cases")]):
        if c.get("ruleset") != "axf" or not c.get("fen", "").strip():
            continue
        board, side = parse_fen(c["fen"])
        key = to_fen(board, "b" if side in ("b", "B") else "w")
        if key not in seen:
            seen.add(key)
            yield c["id"] + " start", key


def cycles_from(board, side, rng, tries, want):
    """Up to `want` interesting cycles and one idle one, from `tries` random (m1, m2) pairs."""
    a_red = side == "w"
    m1s = [m for m in legal(board, a_red) if reversible(board, m, a_red)]
    found, idle = [], None
    if not m1s:
        return found, idle
    for _ in range(tries):
        m1 = rng.choice(m1s)
        b1 = play(board, m1)
        m2s = [m for m in legal(b1, not a_red) if reversible(b1, m, not a_red)]
        if not m2s:
            continue
        m2 = rng.choice(m2s)
        b2 = play(b1, m2)
        r1, r2 = (m1[1], m1[0]), (m2[1], m2[0])
        if r1 not in legal(b2, a_red) or r1[1] in b2:
            continue
        b3 = play(b2, r1)
        if r2 not in legal(b3, not a_red):
            continue
        moves = [m1, m2, r1, r2]
        if any(moves == c for c in found) or moves == idle:
            continue
        hot = (interesting(board, m1, a_red) or interesting(b1, m2, not a_red)
               or interesting(b2, r1, a_red) or interesting(b3, r2, not a_red))
        if hot:
            found.append(moves)
            if len(found) >= want:
                break
        elif idle is None:
            idle = moves
    return found, idle


def fsf_verdict(sf, fen, moves):
    """Fairy-Stockfish's answer as qili's verdict name (None: no game end)."""
    end, value = sf.is_optional_game_end("xiangqi", fen, moves)
    if not end:
        return None
    if value == 0:
        return "draw"
    stm = sf.get_fen("xiangqi", fen, moves).split()[1]
    loser_red = (stm == "w") == (value < 0)
    return "red_must_change" if loser_red else "black_must_change"


def calibrate(sf, path):
    agree, total = 0, 0
    for _, c in cases_of([path]):
        if c.get("ruleset") != "axf":
            continue
        want = c["expected"]["verdict"].replace("_loses", "_must_change")
        got = fsf_verdict(sf, fsf_fen(c.get("fen", "")), [fsf_move(m) for m in c["moves"]])
        total += 1
        agree += got == want
        if got != want:
            print(f"  {c['id']}: suite {want}, Fairy-Stockfish {got}")
    print(f"calibration: Fairy-Stockfish as mapped agrees with {agree} of {total} rulings of {path}")
    return agree == total


def short(v):
    return v.replace("VERDICT_", "").lower() if v else v


def pattern(side):
    return side["pattern"].replace("PATTERN_", "").lower() if side else "?"


def labels(ruling):
    """Each move's kind and targets as qili reports them: `c9b9 idle [red cannon b2 unprotected]`."""
    out = []
    for m in ruling.get("moves", []):
        ts = []
        for t in m.get("targets", []):
            piece = t.get("piece", {})
            who = (piece.get("color", "").replace("COLOR_", "") + " "
                   + piece.get("role", "").replace("ROLE_", "")).lower()
            flags = [t.get("protection", "").replace("PROTECTION_", "").lower()]
            flags += [f for f in ("isNew", "counted") if t.get(f)]
            ts.append(f"{who} {t.get('square', '')} {' '.join(flags)}".strip())
        out.append(f"{m['iccs']} {m['kind'].replace('MOVE_KIND_', '').lower()}"
                   + (f" [{'; '.join(ts)}]" if ts else ""))
    return out


def reasons(ruling, colour):
    """qili's reasons for the targets of one side's moves that it did not count as chased."""
    out = set()
    for m in ruling.get("moves", []):
        if m["color"] != "COLOR_" + colour.upper():
            continue
        for t in m.get("targets", []):
            if not t.get("counted"):
                out.add(re.sub(r" \(.*", "", t.get("reason", "")).split(":")[0])
    return sorted(out)


def exhausted(ruling):
    if ruling.get("search", {}).get("budgetExhausted"):
        return True
    return any(m.get(k, {}).get("budgetExhausted")
               for m in ruling.get("moves", []) for k in ("mateSearch", "gainSearch"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/qili")
    ap.add_argument("--root", default=".", help="the qili checkout (benches/, cases/)")
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--cycles", type=int, default=10000, help="interesting cycles to rule")
    ap.add_argument("--idle", type=int, default=60, help="idle cycles kept as a control")
    ap.add_argument("--per-position", type=int, default=6)
    ap.add_argument("--tries", type=int, default=60, help="random (m1, m2) pairs a position")
    ap.add_argument("--out", default="/tmp/pyffish-diff.jsonl")
    ap.add_argument("--slowest", type=int, default=5)
    ap.add_argument("--calibrate", metavar="FILE", help="check the verdict map on FILE and stop")
    ap.add_argument("--no-check-movegen", action="store_true",
                    help="skip comparing the move generator with pyffish on each start position")
    a = ap.parse_args()
    import pyffish as sf

    if a.calibrate:
        sys.exit(0 if calibrate(sf, a.calibrate) else 1)

    t0 = time.perf_counter()
    rng = random.Random(a.seed)
    pos = list(positions(a.root))
    rng.shuffle(pos)
    cycles, idles, used = [], [], 0
    for label, fen in pos:
        if len(cycles) >= a.cycles and len(idles) >= a.idle:
            break
        board, side = parse_fen(fen)
        if not a.no_check_movegen:
            mine = sorted(fsf_move(iccs(m)) for m in legal(board, side == "w"))
            theirs = sorted(sf.legal_moves("xiangqi", fsf_fen(fen), []))
            if mine != theirs:
                sys.exit(f"move generator differs from pyffish on {fen} ({label}): "
                         f"{sorted(set(mine) ^ set(theirs))}")
        found, idle = cycles_from(board, side, rng, a.tries, a.per_position)
        used += 1
        for moves in found[: max(0, a.cycles - len(cycles))]:
            cycles.append((label, fen, [iccs(m) for m in moves] * 3, True))
        if idle and len(idles) < a.idle:
            idles.append((label, fen, [iccs(m) for m in idle] * 3, False))
    allc = cycles + idles
    t_built = time.perf_counter()

    cases = []
    for i, (label, fen, moves, hot) in enumerate(allc):
        fv = fsf_verdict(sf, fsf_fen(fen), [fsf_move(m) for m in moves])
        cases.append({"id": f"diff-{i:05d}", "ruleset": "axf", "fen": fen, "moves": moves,
                      "expected": {"verdict": fv or "draw"}, "fsf": fv,
                      "source": f"{label}; {'interesting' if hot else 'idle control'}"})
    t_fsf = time.perf_counter()

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as tmp:
        for c in cases:
            tmp.write(json.dumps({k: v for k, v in c.items() if k != "fsf"}) + "\n")
    out = subprocess.run([a.bin, "cases", "--json", tmp.name], capture_output=True, text=True)
    os.unlink(tmp.name)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        sys.exit(f"qili cases failed ({out.returncode}): {out.stderr.strip()[:2000]}")
    results = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    t_qili = time.perf_counter()

    kinds, groups, errors, budget, times = collections.Counter(), {}, [], [], []
    no_end = 0
    for c in cases:
        r = results.get(c["id"])
        if r is None or r.get("status") == "CASE_STATUS_ERROR" or "actual" not in r:
            errors.append((c, r.get("error") if r else "no result"))
            continue
        q = r["actual"]
        times.append((r.get("timeMs", 0.0), c))
        if exhausted(q):
            budget.append(c)
        if c["fsf"] is None:
            no_end += 1
        qv = short(q["verdict"])
        if qv == c["fsf"]:
            kinds["agree " + qv] += 1
            continue
        kind = (f"qili {qv} (red {pattern(q.get('red'))}, black {pattern(q.get('black'))}), "
                f"FSF {c['fsf']}")
        kinds[kind] += 1
        unc = {side: reasons(q, side) for side in ("red", "black")}
        groups.setdefault(kind, []).append({
            "id": c["id"], "ruleset": "axf", "fen": c["fen"], "moves": c["moves"],
            "expected": {"verdict": qv, "red": pattern(q.get("red")),
                         "black": pattern(q.get("black"))},
            "source": f"scripts/pyffish_diff.py --seed {a.seed}: {c['source']}; kind: {kind}",
            "note": (f"Fairy-Stockfish (pyffish {'.'.join(map(str, sf.version()))}): {c['fsf']}; "
                     f"qili: {qv}. qili's moves: {'; '.join(labels(q))}. Targets qili did not "
                     f"count: red {unc['red'] or 'none'}, black {unc['black'] or 'none'}.")})

    agree = sum(v for k, v in kinds.items() if k.startswith("agree"))
    ruled = len(cases) - len(errors)
    print(f"positions used {used} of {len(pos)}; cycles {len(cases)} "
          f"({len(cycles)} interesting, {len(idles)} idle controls); seed {a.seed}")
    print(f"time: build {t_built - t0:.1f} s, pyffish {t_fsf - t_built:.1f} s, "
          f"qili {t_qili - t_fsf:.1f} s")
    print(f"ruled by qili {ruled}; agree {agree} ({100.0 * agree / max(ruled, 1):.1f} %), "
          f"disagree {ruled - agree}; Fairy-Stockfish saw no game end in {no_end}")
    for k, v in sorted(kinds.items(), key=lambda kv: (not kv[0].startswith("agree"), -kv[1])):
        print(f"  {v:6d}  {k}")
    idle_ids = {c["id"] for c in cases if c["source"].endswith("idle control")}
    idle_bad = sum(1 for g in groups.values() for c in g if c["id"] in idle_ids)
    print(f"idle controls disagreeing: {idle_bad} of {len(idles)}")
    print(f"errors (a legal request refused): {len(errors)}")
    for c, e in errors[:20]:
        print(f"  {c['id']} fen {c['fen']!r} moves {' '.join(c['moves'])}: {e}")
    print(f"budget exhausted: {len(budget)}")
    for c in budget[:20]:
        print(f"  {c['id']} fen {c['fen']!r} moves {' '.join(c['moves'])}")
    times.sort(key=lambda tc: -tc[0])
    print(f"slowest rulings (timeMs, one ruling each, qili cases):")
    for ms, c in times[: a.slowest]:
        print(f"  {ms:8.3f} ms  {c['id']} fen {c['fen']!r} moves {' '.join(c['moves'][:4])} x3")
    with open(a.out, "w", encoding="utf-8") as fh:
        for kind in sorted(groups, key=lambda k: -len(groups[k])):
            for c in groups[kind]:
                fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"disagreements written to {a.out}, grouped by kind")


if __name__ == "__main__":
    main()
