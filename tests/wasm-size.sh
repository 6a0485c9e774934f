#!/usr/bin/env bash
# Size budget of the playground: the gzipped wasm + JS + CSS that `trunk build --release`
# puts in dist/ (the page; the worker runs the same wasm) must stay within BUDGET_KB
# (1 KB = 1024 bytes): 700 KB for the page with every feature. Prints every file's raw and
# gzip size.
# Run after `trunk build --release`. What keeps it there, and what to do when a change does
# not fit, is in docs/PERFORMANCE.md ("Load size").
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
DIST=${DIST:-dist}
BUDGET_KB=${BUDGET_KB:-700}

shopt -s nullglob
files=("$DIST"/*.wasm "$DIST"/*.js "$DIST"/*.css)
wasm=("$DIST"/*.wasm)
if [ ${#wasm[@]} -eq 0 ]; then
  echo "wasm-size: no .wasm in $DIST/: run \`trunk build --release\` first" >&2
  exit 1
fi

total=0
printf '%-48s %10s %10s\n' file raw gzip
for f in "${files[@]}"; do
  raw=$(wc -c <"$f")
  # zlib's gzip at level 9 (node's, as the browser benchmark measures): GNU gzip -9 comes
  # out a few KB smaller on the wasm, and a server compresses with zlib.
  gz=$(node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length))' "$f")
  total=$((total + gz))
  awk -v f="$(basename "$f")" -v r="$raw" -v g="$gz" 'BEGIN { printf "%-48s %8.1f KB %8.1f KB\n", f, r / 1024, g / 1024 }'
done
budget=$((BUDGET_KB * 1024))
awk -v t="$total" -v b="$BUDGET_KB" 'BEGIN { printf "%-48s %10s %8.1f KB  (budget %d KB)\n", "total (wasm + js + css)", "", t / 1024, b }'
if [ "$total" -gt "$budget" ]; then
  echo "wasm-size: FAIL: $total bytes gzipped exceed the budget of $budget bytes" >&2
  exit 1
fi
echo "wasm-size: ok"
