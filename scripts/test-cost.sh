#!/usr/bin/env bash
# The "Test cost" figures of BENCHMARKS.md for one commit: the test executables that
# `cargo test --release` builds (how many, their total size) and, with --time, the CPU time of the
# command. Each commit is built in a scratch worktree with its own target directory, so nothing is
# shared with another build and the sizes do not depend on what was built before.
#
#   scripts/test-cost.sh [COMMIT] [--time]          (default: HEAD)
#
# Without --time: `cargo test --release --no-run`, then the sizes (they depend only on the
# commit, Cargo.lock and the toolchain, not on the machine's load).
# With --time (on an idle machine only): the CPU time (user + system, every child process
# included) and the wall time of
#   1. `cargo test --release` from a clean target directory (compiling every dependency);
#   2. `cargo test --release` again (nothing to compile: the tests alone);
#   3. `touch src/lib.rs; cargo test --release` (the library and every test executable rebuilt).
# Dependencies must be downloaded first (`cargo fetch`): no download is timed.
# Env: SCRATCH (default /tmp/qili-test-cost): where the worktrees and target directories go.
set -euo pipefail
cd "$(dirname "$0")/.."

commit=HEAD
timed=false
for arg in "$@"; do
  case $arg in
    --time) timed=true ;;
    *) commit=$arg ;;
  esac
done
sha=$(git rev-parse --short "$commit^{commit}")
scratch=${SCRATCH:-/tmp/qili-test-cost}
tree=$scratch/$sha
mkdir -p "$scratch"
if [ ! -e "$tree" ]; then
  git worktree add --quiet --detach "$tree" "$sha"
fi
cd "$tree"
export CARGO_TARGET_DIR=$tree/target CARGO_TERM_COLOR=never

run() { # label, command…: prints the label, the CPU and the wall time of the command
  local label=$1
  shift
  /usr/bin/time -f "$label: %U s user + %S s system CPU, %e s wall" -o "$scratch/time" "$@" \
    >"$scratch/$sha-$label.log" 2>&1 || echo "$label: the command failed (see $scratch/$sha-$label.log)"
  cat "$scratch/time"
}

echo "commit $sha"
if $timed; then
  rm -rf "$CARGO_TARGET_DIR"
  run clean cargo test --release
  run again cargo test --release
  touch src/lib.rs
  run touched cargo test --release
fi
# The test executables: every artifact cargo builds for `cargo test` that is an executable.
cargo test --release --no-run --message-format=json 2>/dev/null \
  | python3 -c '
import json, os, sys
exes = set()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        exes.add(m["executable"])
total = sum(os.path.getsize(e) for e in exes)
for e in sorted(exes):
    print(f"  {os.path.getsize(e) / 2**20:8.1f} MiB  {os.path.basename(e)}")
print(f"{len(exes)} test executables, {total / 2**20:.1f} MiB in all")
'
