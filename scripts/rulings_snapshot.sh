#!/usr/bin/env bash
# Writes the full JSON of every ruling of the corpus (cases/ and ../shared/rulebook/*.jsonl, as
# `qili judge --format json` prints it: verdict, patterns, every move's kinds, targets, protection,
# defenders, lines, participants, reasons, notes, the articles with their texts, the explanation,
# the search counts) and of `qili analyze --format json` on each case's start and first move, one
# line a case, `qili judge --format json` on every request of the platform mix
# (benches/data/platform-mix.jsonl), then `qili scan --format json` of the real games in ../shared/data/pgn under each
# profile (crowded middlegames), to OUT. Two snapshots compared with `cmp` tell whether a change
# moved any ruling.
#
#   scripts/rulings_snapshot.sh OUT [QILI]      (QILI: the binary, default target/release/qili)
set -euo pipefail
out=${1:?usage: scripts/rulings_snapshot.sh OUT [QILI]}
qili=${2:-target/release/qili}
root=$(cd "$(dirname "$0")/.." && pwd)
files=("$root"/cases/*.jsonl)
for f in "$root"/../shared/rulebook/*.jsonl; do
    [ -e "$f" ] && files+=("$f")
done
python3 - "$qili" "$out" "$root/benches/data/platform-mix.jsonl" "${files[@]}" <<'PY'
import json, subprocess, sys

qili, out, mix, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

def run(args):
    p = subprocess.run([qili] + args, capture_output=True, text=True)
    body = p.stdout if p.returncode == 0 else "exit %d: %s" % (p.returncode, p.stderr)
    try:
        return json.loads(body)
    except ValueError:
        return body.strip()

def sides(flags, flag):
    return [a for c in ("red", "black") if (flags or {}).get(c) for a in (flag, c)]

with open(out, "w", encoding="utf-8") as w:
    for path in files:
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            if not line.strip():
                continue
            case = json.loads(line)
            common = ["--fen", case.get("fen", ""), "--ruleset", case.get("ruleset", "cxa1999")]
            moves = case.get("moves", [])
            judge = run(["judge", "--format", "json", "--moves", " ".join(moves)] + common
                        + sides(case.get("told_to_change"), "--told-to-change")
                        + sides(case.get("defensive_key_point"), "--key-point"))
            first = ["--move", moves[0]] if moves else []
            analyze = run(["analyze", "--format", "json"] + first + common
                          + sides(case.get("defensive_key_point"), "--key-point"))
            record = {"id": case["id"], "judge": judge, "analyze": analyze}
            w.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    # The platform mix (benches/data/platform-mix.jsonl): a request after every move of real games.
    for line in open(mix, encoding="utf-8"):
        if not line.strip():
            continue
        req = json.loads(line)
        judge = run(["judge", "--format", "json", "--moves", " ".join(req["moves"]), "--fen",
                     req["fen"], "--ruleset", req.get("ruleset") or "cxa1999"])
        record = {"id": req["requestId"], "judge": judge}
        w.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
PY
pgn="$root/../shared/data/pgn"
if [ -d "$pgn" ]; then
    for ruleset in cxa1999 cxa2011 axf; do
        "$qili" scan --format json --record "$pgn" --ruleset "$ruleset" >> "$out"
    done
fi
echo "$(wc -l < "$out") rulings written to $out"
