#!/usr/bin/env bash
# Start-up: a three-row table, tablefmt against `column -t` in the same hyperfine run (the machine
# is shared and noisy, so only the ratio and this run's medians mean anything).
# Usage: TABLEFMT_BIN=.build/release/tablefmt bash scripts/bench-startup.sh   (`make bench-startup`)
#   STARTUP_RUNS  runs of each command (default 300)
set -euo pipefail
bin=${TABLEFMT_BIN:?set TABLEFMT_BIN to the release binary}
runs=${STARTUP_RUNS:-300}
command -v hyperfine > /dev/null || { echo "bench-startup: needs hyperfine (apt-get install hyperfine)"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'name,qty,price\napple,3,1.20\npear,10,0.80\nfig,7,2.50\n' > "$dir/three.csv"
hyperfine -N --warmup 20 --runs "$runs" --export-json "$dir/startup.json" \
    "$bin -w 80 $dir/three.csv" "column -t -s, $dir/three.csv" > /dev/null
python3 - "$dir/startup.json" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
tablefmt, column = (r["median"] * 1000 for r in results)
print(f"start-up, three-row table: tablefmt {tablefmt:.2f} ms, column -t {column:.2f} ms (medians), "
      f"ratio {tablefmt / column:.2f}; target tablefmt <= 3 ms: {'PASS' if tablefmt <= 3 else 'FAIL'}")
EOF
