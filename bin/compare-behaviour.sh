#!/usr/bin/env bash
# Behaviour unchanged? Runs the same deterministic commands at a base revision (default: the
# previous commit) and in this working tree, and compares their outputs byte for byte, timings
# removed: perft, searches, seed 000's official files, a seeded match with replays, a seeded
# tournament's standings, and grade reports of the example submissions.
#
#   bin/compare-behaviour.sh [BASE_REV]
#
# A refactoring must leave every line equal; the script exits 1 and shows the diff otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base_rev=${1:-HEAD~1}
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-behaviour-XXXXXX")
trap 'git -C "$here" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git -C "$here" worktree add --quiet --detach "$work/base" "$base_rev"
(cd "$work/base" && npm ci --no-audit --no-fund --silent >/dev/null 2>&1 && npm run -s build)
# bin/mancala.js runs dist/, so both trees are built from their own sources.
(cd "$here" && npm run -s build)

# Timings differ from run to run; everything else must not.
strip_times() {
  sed -E 's/"(ms|time|[a-zA-Z]*Ms)": ?[0-9.e+-]+/"\1":0/g; s/"(time|[a-zA-Z]*Ms)": ?\[[0-9., e+-]*\]/"\1":[]/g; s/[0-9.]+ ?ms/0 ms/g'
}

run_all() {
  local root=$1 out=$2
  mkdir -p "$out"
  local m="node $root/bin/mancala.js"
  (cd "$root" && $m perft --rules kalah --depth 6 --unit turn --table) | awk '{print $1, $2, $3, $4}' > "$out/perft.txt"
  for algo in minimax alphabeta; do
    (cd "$root" && $m search --rules kalah-empty-capture --pits 6 --seeds 4 --algo "$algo" --depth 6 --unit move --json) | strip_times > "$out/search-$algo.json"
  done
  (cd "$root" && $m search --game tictactoe --algo alphabeta --json) | strip_times > "$out/search-tictactoe.json"
  local official="$here/../shared/conformance/csci561-official"
  if [ -d "$official" ]; then
    for input in "$official"/testInput_*.txt; do
      local n
      n=$(basename "$input" .txt)
      (cd "$root" && $m csci561 "$input" --out "$out/$n" >/dev/null)
    done
  fi
  (cd "$root" && $m match alphabeta:depth=3 greedy --games 6 --seed 7 --json --replays "$out/replays") | strip_times > "$out/match.json"
  for f in "$out"/replays/*; do strip_times < "$f" > "$f.t" && mv "$f.t" "$f"; done
  (cd "$root" && $m tournament random greedy alphabeta:depth=2 --games-per-pair 2 --seed 3 --out "$out/tournament" --json "$out/standings.json" >/dev/null)
  strip_times < "$out/standings.json" > "$out/standings.t" && mv "$out/standings.t" "$out/standings.json"
  rm -f "$out/tournament/results.jsonl"
  (cd "$root" && $m grade agents/examples/alice agents/examples/bob agents/examples/carol --suite testcases/kalah-basics --json "$out/grade.json" >/dev/null 2>&1) || true
  strip_times < "$out/grade.json" > "$out/grade.t" && mv "$out/grade.t" "$out/grade.json"
}

echo "compare-behaviour: $base_rev against the working tree"
run_all "$work/base" "$work/before"
run_all "$here" "$work/after"
if diff -r "$work/before" "$work/after"; then
  echo "compare-behaviour: identical ($(find "$work/after" -type f | wc -l) files)"
else
  echo "compare-behaviour: outputs differ (above)" >&2
  exit 1
fi
