#!/usr/bin/env python3
"""Development check of the ruling corpus against an independent move generator.

For every case in cases/*.jsonl (or the files given): the FEN is accepted, every move is legal
(checked with pyffish, Fairy-Stockfish's Python binding), the final position occurred before and
occurs at least three times in all (the cycle came round at least twice), and the required fields
are present. Run: `pip install pyffish && python3 scripts/check_cases.py [FILES]`.
pyffish is a development tool only; qili never depends on it.
"""
import glob
import json
import sys

import pyffish as sf

VERDICTS = {"draw", "red_loses", "black_loses", "red_must_change", "black_must_change", "no_repetition"}
LABELS = {"perpetual_check", "perpetual_mate_threat", "perpetual_chase", "check_and_mate_threat",
          "check_and_chase", "mate_threat_and_chase", "perpetual_attack", "attacks_with_idle", "idle"}
RULESETS = {"cxa1999", "cxa2011", "axf", "wxf"}


def to_fsf(move):
    """ICCS ranks 0-9 -> Fairy-Stockfish ranks 1-10."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def key(fen):
    return " ".join(fen.split()[:2])


MAX = {"k": 1, "a": 2, "b": 2, "e": 2, "n": 2, "h": 2, "r": 2, "c": 2, "p": 5}
ADVISOR = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
ELEPHANT = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}


def placement_errors(fen):
    """Counts and reachable points, which pyffish does not check (red's view: black flipped)."""
    errors = []
    counts = {}
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            red = ch.isupper()
            kind = ch.lower()
            counts[ch] = counts.get(ch, 0) + 1
            r = rank if red else 9 - rank
            where = f"{'abcdefghi'[f]}{rank}"
            if kind == "k" and not (3 <= f <= 5 and r <= 2):
                errors.append(f"king on {where} outside its palace")
            if kind == "a" and (f, r) not in ADVISOR:
                errors.append(f"advisor on {where} off its points")
            if kind in "be" and (f, r) not in ELEPHANT:
                errors.append(f"elephant on {where} off its points")
            if kind == "p" and (r < 3 or (r < 5 and f % 2 == 1)):
                errors.append(f"pawn on {where} where a pawn never stands")
            f += 1
    for ch, n in counts.items():
        if n > MAX[ch.lower()]:
            errors.append(f"{n} pieces '{ch}' (at most {MAX[ch.lower()]})")
    return errors


def check(case):
    errors = []
    for field in ("id", "fen", "moves", "expected", "article", "source"):
        if field not in case:
            errors.append(f"missing field {field}")
    if errors:
        return errors
    if case.get("ruleset", "cxa1999") not in RULESETS:
        errors.append(f"unknown ruleset {case['ruleset']}")
    exp = case["expected"]
    if exp.get("verdict") not in VERDICTS:
        errors.append(f"bad verdict {exp.get('verdict')}")
    for side in ("red", "black"):
        if side in exp and exp[side] not in LABELS:
            errors.append(f"bad label {side}={exp[side]}")
    fen = case["fen"]
    if len(fen.split()) == 2:
        fen += " - - 0 1"
    errors.extend(placement_errors(fen))
    if not sf.validate_fen(fen, "xiangqi") == 1:
        errors.append(f"pyffish rejects the FEN ({sf.validate_fen(fen, 'xiangqi')})")
        return errors
    seen = [key(fen)]
    played = []
    for i, mv in enumerate(case["moves"]):
        legal = sf.legal_moves("xiangqi", fen, played)
        if to_fsf(mv) not in legal:
            errors.append(f"ply {i}: {mv} is illegal")
            return errors
        played.append(to_fsf(mv))
        seen.append(key(sf.get_fen("xiangqi", fen, played)))
    final = seen[-1]
    count = seen.count(final)
    if exp.get("verdict") != "no_repetition" and count < 3:
        errors.append(f"final position occurs {count} times; a case repeats its cycle at least twice (3 occurrences)")
    return errors


def main():
    files = sys.argv[1:] or sorted(glob.glob("cases/**/*.jsonl", recursive=True))
    bad = 0
    total = 0
    ids = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                total += 1
                case = json.loads(line)
                errs = check(case)
                if case.get("id") in ids:
                    errs.append("duplicate id")
                ids.add(case.get("id"))
                if errs:
                    bad += 1
                    print(f"{path}:{n} {case.get('id')}: " + "; ".join(errs))
    print(f"{total - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
