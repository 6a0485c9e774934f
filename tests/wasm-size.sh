#!/usr/bin/env bash
# Size budget of the playground: the gzipped wasm + JS + CSS that `trunk build --release`
# puts in dist/ (the page) must stay within BUDGET_KB (1 KB = 1024 bytes): 700 KB for the
# page with every feature. Prints every file's raw and gzip size, and the total of every part.
# The engine worker's wasm (`quotalab-engine*` and worker-loader.js: crates/engine-worker,
# compiled for speed, fetched beside the page and run only in workers) has its own budget,
# ENGINE_BUDGET_KB (700 KB: the whole engine at opt-level 3, the YAML and CSV readers, the
# comparison).
# Files loaded lazily are listed apart and count against their own budget, LAZY_BUDGET_KB,
# not the page's: the page's tools (`quotalab-tools*`,
# src/io/tools.rs: the configuration dialog, the CSV trace import, the compare card's
# comparison, the result files' exports and the report, imported when one is first used)
# and the Explore panel with its sweep workers (`quotalab-explore*`, src/explore/, imported
# when the panel first opens). None is ever fetched at load; each part (its wasm and JS)
# must stay within LAZY_BUDGET_KB (480 KB: what opening it downloads once, about a second
# on a 4 Mbit/s line, and cached after; 460 KB until the comparison's verdict, matched
# completion and the report's comparison section took the tools part to 471 KB: issue #30,
# one engine compiled once for every worker, is what takes the copies out).
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

BUDGET_LAZY_KB=${LAZY_BUDGET_KB:-480}
BUDGET_ENGINE_KB=${ENGINE_BUDGET_KB:-700}
is_engine() { case "$(basename "$1")" in quotalab-engine* | worker-loader.js) return 0 ;; *) return 1 ;; esac; }
is_lazy() { case "$(basename "$1")" in quotalab-tools* | quotalab-explore*) return 0 ;; *) return 1 ;; esac; }
# The lazily loaded part a file belongs to.
part_of() { case "$(basename "$1")" in quotalab-explore*) echo explore ;; *) echo tools ;; esac; }

gzip_size() {
  # zlib's gzip at level 9 (node's, as the browser benchmark measures): GNU gzip -9 comes
  # out a few KB smaller on the wasm, and a server compresses with zlib.
  node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length))' "$1"
}

total=0
lazy_total=0
engine_total=0
every_total=0
lazy=()
engine=()
printf '%-48s %10s %10s\n' file raw gzip
for f in "${files[@]}"; do
  every_total=$((every_total + $(gzip_size "$f")))
  if is_engine "$f"; then engine+=("$f"); continue; fi
  if is_lazy "$f"; then lazy+=("$f"); continue; fi
  raw=$(wc -c <"$f")
  gz=$(gzip_size "$f")
  total=$((total + gz))
  awk -v f="$(basename "$f")" -v r="$raw" -v g="$gz" 'BEGIN { printf "%-48s %8.1f KB %8.1f KB\n", f, r / 1024, g / 1024 }'
done
budget=$((BUDGET_KB * 1024))
awk -v t="$total" -v b="$BUDGET_KB" 'BEGIN { printf "%-48s %10s %8.1f KB  (budget %d KB)\n", "total at load (wasm + js + css)", "", t / 1024, b }'
echo "the engine worker (fetched and compiled beside the page, run in workers):"
for f in "${engine[@]}"; do
  raw=$(wc -c <"$f")
  gz=$(gzip_size "$f")
  engine_total=$((engine_total + gz))
  awk -v f="$(basename "$f")" -v r="$raw" -v g="$gz" 'BEGIN { printf "  %-46s %8.1f KB %8.1f KB\n", f, r / 1024, g / 1024 }'
done
awk -v t="$engine_total" -v b="$BUDGET_ENGINE_KB" 'BEGIN { printf "  %-46s %10s %8.1f KB  (budget %d KB)\n", "total of the engine", "", t / 1024, b }'
if [ ${#lazy[@]} -gt 0 ]; then
  echo "loaded lazily (the import tools and the Explore panel, when first used):"
  for part in tools explore; do
    part_total=0
    for f in "${lazy[@]}"; do
      [ "$(part_of "$f")" = "$part" ] || continue
      raw=$(wc -c <"$f")
      gz=$(gzip_size "$f")
      part_total=$((part_total + gz))
      awk -v f="$(basename "$f")" -v r="$raw" -v g="$gz" 'BEGIN { printf "  %-46s %8.1f KB %8.1f KB\n", f, r / 1024, g / 1024 }'
    done
    [ "$part_total" -gt 0 ] || continue
    awk -v p="$part" -v t="$part_total" -v b="$BUDGET_LAZY_KB" 'BEGIN { printf "  %-46s %10s %8.1f KB  (budget %d KB)\n", "total of the " p " part", "", t / 1024, b }'
    if [ "$part_total" -gt "$lazy_total" ]; then lazy_total=$part_total; fi
  done
fi
awk -v t="$every_total" 'BEGIN { printf "%-48s %10s %8.1f KB  (issue #30 aims at 1,000 KB)\n", "total of every part", "", t / 1024 }'
status=0
if [ "$engine_total" -gt $((BUDGET_ENGINE_KB * 1024)) ]; then
  echo "wasm-size: FAIL: the engine worker has $engine_total bytes gzipped, over its budget of $((BUDGET_ENGINE_KB * 1024)) bytes" >&2
  status=1
fi
if [ "$total" -gt "$budget" ]; then
  echo "wasm-size: FAIL: $total bytes gzipped at load exceed the budget of $budget bytes" >&2
  status=1
fi
if [ "$lazy_total" -gt $((BUDGET_LAZY_KB * 1024)) ]; then
  echo "wasm-size: FAIL: a part loaded lazily has $lazy_total bytes gzipped, over its budget of $((BUDGET_LAZY_KB * 1024)) bytes" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "wasm-size: ok"
exit "$status"
