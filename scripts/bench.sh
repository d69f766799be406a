#!/usr/bin/env bash
# make bench — tablefmt against its peers on the same files in the same run (the P rules in docs/RULES.md).
#
# Needs Bash, coreutils and python3; GNU time (/usr/bin/time) for peak memory. Installs nothing:
# a missing peer is skipped with the command that installs it.
#
# Environment (all optional):
#   TABLEFMT_BIN          the binary to measure   (default: $(swift build -c release --show-bin-path)/tablefmt)
#   BENCH_DIR             generated data, never committed (default: <repo>/.bench-data, self-ignored)
#   BENCH_GEN             the generator           (default: <repo>/scripts/gen-bench-data.py)
#   BENCH_RUNS            whole-process runs per tool and input, median taken (default 5)
#   BENCH_SLOW_AFTER      a tool whose first run takes longer than this many seconds ...  (default 5)
#   BENCH_SLOW_RUNS       ... gets this many runs instead                                (default 3)
#   BENCH_SLOW_LIMIT      a first run longer than this many seconds is the only run     (default 60)
#   BENCH_STARTUP_RUNS    runs for the start-up median on the 3-row file                (default 50)
#   BENCH_LATENCY_TIMEOUT seconds to wait for the first output line on a pipe            (default 10)
#   BENCH_INPUTS          which inputs (default: "csv-100k csv-1m ndjson-1m json-1m")
#   BENCH_PEERS           which peers  (default: "mlr csvtool sqlite3 column awk")
#   BENCH_OUTPUTS         1: every output path against the plain table and its Miller peer (#27); 0: skip (default 1)
#   BENCH_FIT             1: text cut and wrapped to a width against the same table uncut (#47), on the
#                         generator's rows and on its long non-ASCII notes (--long-notes); 0: skip (default 1)
set -u -o pipefail
export LC_NUMERIC=C   # printf's decimal point

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
BENCH_DIR=${BENCH_DIR:-$REPO/.bench-data}
BENCH_GEN=${BENCH_GEN:-$REPO/scripts/gen-bench-data.py}
RUNS=${BENCH_RUNS:-5}
SLOW_AFTER=${BENCH_SLOW_AFTER:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-3}
SLOW_LIMIT=${BENCH_SLOW_LIMIT:-60}
STARTUP_RUNS=${BENCH_STARTUP_RUNS:-50}
LAT_TIMEOUT=${BENCH_LATENCY_TIMEOUT:-10}
INPUTS=${BENCH_INPUTS:-csv-100k csv-1m ndjson-1m json-1m}
PEERS=${BENCH_PEERS:-mlr csvtool sqlite3 column awk}
OUTPUTS=${BENCH_OUTPUTS:-1}
FIT=${BENCH_FIT:-1}
TF_ARGS=(-w 0 --layout table)
TIME=/usr/bin/time
LATENCY_PY="$REPO/scripts/bench-latency.py"

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }
has_peer() { [[ " $PEERS " == *" $1 "* ]]; }

# ---------------------------------------------------------------- the binary
if [[ -z "${TABLEFMT_BIN:-}" ]]; then
    bin_dir=$(swift build -c release --show-bin-path 2>/dev/null) || die "swift build --show-bin-path failed; set TABLEFMT_BIN"
    TABLEFMT_BIN="$bin_dir/tablefmt"
fi
[[ -x "$TABLEFMT_BIN" ]] || die "no binary at $TABLEFMT_BIN (run 'make build', or set TABLEFMT_BIN)"
command -v python3 >/dev/null || die "python3 is required"

# ---------------------------------------------------------------- peers present?
INSTALL_HINT="apt-get install miller csvtool sqlite3 time hyperfine"
declare -A PEER_PKG=([mlr]=miller [csvtool]=csvtool [sqlite3]=sqlite3 [column]=bsdextrautils [awk]=mawk)
missing=()
for p in $PEERS; do
    command -v "$p" >/dev/null || missing+=("$p (${PEER_PKG[$p]:-?})")
done
HAVE_TIME=1
if [[ ! -x $TIME ]]; then
    HAVE_TIME=0
    note "/usr/bin/time is missing: peak memory is not measured (apt-get install time)"
fi
if ((${#missing[@]})); then
    note "not installed, skipped: ${missing[*]} — install with: $INSTALL_HINT"
fi

# ---------------------------------------------------------------- data
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
# The folder ignores itself, so it is never committed wherever it lives.
[[ -f "$BENCH_DIR/.gitignore" ]] || printf '*\n' > "$BENCH_DIR/.gitignore"

generate() {  # generate [--long-notes] SIZES FILE... : run the generator unless every FILE exists (atomic: tmp dir, then move)
    local extra=()
    [[ $1 == --long-notes ]] && { extra=(--long-notes); shift; }
    local sizes=$1; shift
    local f need=0
    for f in "$@"; do [[ -s "$BENCH_DIR/$f" ]] || need=1; done
    ((need)) || return 0
    [[ -f "$BENCH_GEN" ]] || die "generator not found: $BENCH_GEN (set BENCH_GEN)"
    local tmp="$BENCH_DIR/.gen-tmp"
    rm -rf "$tmp"
    note "generating rows $sizes into $BENCH_DIR ..."
    python3 "$BENCH_GEN" --out "$tmp" --sizes "$sizes" "${extra[@]}" >&2 || die "$BENCH_GEN failed"
    mv -f "$tmp"/* "$BENCH_DIR"/ && rmdir "$tmp"
}
generate 100000,1000000 rows_100k.csv rows_1m.csv rows_1m.tsv rows_1m.ndjson rows_1m.json
generate 3 rows_3.csv
[[ $FIT == 1 ]] && generate --long-notes 1000000 text_1m.csv

# ---------------------------------------------------------------- measuring
TMPD=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$TMPD"' EXIT

fmt_s()   { printf '%.3f' "${1}e-9"; }                          # ns -> s
fmt_mb()  { printf '%.1f' "$(($1 * 1024))e-6"; }                # KiB (GNU time %M) -> MB (10^6 bytes)
median()  { printf '%s\n' "$@" | sort -n | { mapfile -t v; n=${#v[@]}; if ((n % 2)); then echo "${v[n/2]}"; else echo $(( (v[n/2-1] + v[n/2]) / 2 )); fi; }; }
max_of()  { printf '%s\n' "$@" | sort -n | tail -n 1; }

# run_once MODE FILE CMD... : one whole-process run of CMD (FILE as its stdin when MODE is pipe, via
# cat). Sets O_RC (exit status), O_NS (wall ns), O_CPU (user+sys ns, "" if unknown), O_KB (peak RSS
# KiB, "" if unknown).
run_once() {
    local mode=$1 file=$2; shift 2
    local t0 t1 wall kb user sys
    O_CPU="" O_KB=""
    t0=$(date +%s%N)
    if ((HAVE_TIME)); then
        if [[ $mode == pipe ]]; then
            cat -- "$file" | $TIME -o "$TMPD/time" -f '%e %M %U %S' "$@" >/dev/null 2>"$TMPD/err"
            O_RC=${PIPESTATUS[1]}
        else
            $TIME -o "$TMPD/time" -f '%e %M %U %S' "$@" >/dev/null 2>"$TMPD/err" </dev/null
            O_RC=$?
        fi
    else
        if [[ $mode == pipe ]]; then
            cat -- "$file" | "$@" >/dev/null 2>"$TMPD/err"; O_RC=${PIPESTATUS[1]}
        else
            "$@" >/dev/null 2>"$TMPD/err" </dev/null; O_RC=$?
        fi
    fi
    t1=$(date +%s%N)
    O_NS=$((t1 - t0))
    if ((O_RC != 0)); then
        [[ -s "$TMPD/err" ]] && note "$(basename "$1") on $(basename "$file"): $(head -c 200 "$TMPD/err" | head -n 1)"
        return
    fi
    if ((HAVE_TIME)); then
        read -r wall kb user sys < <(tail -n 1 "$TMPD/time")
        O_KB=$kb
        O_CPU=$(( (10#${user/./} + 10#${sys/./}) * 10000000 ))   # centiseconds -> ns
    fi
}

# runs_wanted FIRST_NS : how many runs a tool gets after a first run of FIRST_NS.
runs_wanted() {
    if (($1 > SLOW_LIMIT * 1000000000)); then echo 1
    elif (($1 > SLOW_AFTER * 1000000000 && SLOW_RUNS < RUNS)); then echo "$SLOW_RUNS"
    else echo "$RUNS"; fi
}

# Tools measured in rounds: each round runs every tool once, in turn, so a change in the machine's
# load during the run falls on all of them alike and their ratios stay fair (the machines here are
# shared). tool_add LABEL CMD... queues a tool; run_rounds MODE FILE runs the queue (FILE as stdin,
# through cat, when MODE is pipe); result_of T then sets, for queued tool T, R_STATUS (ok | "n/a
# (exit N)"), R_NS (median wall ns), R_CPU (median user+sys ns, "" if unknown), R_KB (max peak RSS
# KiB, "" if unknown) and R_RUNS; clear_queue empties the queue.
Q_LABEL=()
tool_add() {
    local n=${#Q_LABEL[@]}
    Q_LABEL+=("$1"); shift
    declare -g -a "Q_CMD_$n=()"
    local -n cmd="Q_CMD_$n"
    cmd=("$@")
}
declare -a RES_STATUS RES_NS RES_CPU RES_PEAK
run_rounds() {
    local mode=$1 file=$2 n=${#Q_LABEL[@]} round=0 t more
    local -a want
    RES_STATUS=() RES_NS=() RES_CPU=() RES_PEAK=()
    for ((t = 0; t < n; t++)); do want[t]=$RUNS RES_STATUS[t]=ok RES_NS[t]="" RES_CPU[t]="" RES_PEAK[t]=0; done
    more=1
    while ((more)); do
        round=$((round + 1)) more=0
        for ((t = 0; t < n; t++)); do
            [[ ${RES_STATUS[t]} == ok ]] && ((round <= want[t])) || continue
            local -n cmd="Q_CMD_$t"
            run_once "$mode" "$file" "${cmd[@]}"
            if ((O_RC != 0)); then RES_STATUS[t]="n/a (exit $O_RC)"; continue; fi
            RES_NS[t]+=" $O_NS"
            if [[ -n $O_KB ]]; then
                RES_CPU[t]+=" $O_CPU"
                ((O_KB > RES_PEAK[t])) && RES_PEAK[t]=$O_KB
            fi
            ((round == 1)) && want[t]=$(runs_wanted "$O_NS")
            ((round < want[t])) && more=1
        done
    done
}
result_of() {
    local t=$1
    R_STATUS=${RES_STATUS[t]} R_NS=0 R_CPU="" R_KB="" R_RUNS=0
    [[ $R_STATUS == ok ]] || return 0
    # shellcheck disable=SC2086
    set -- ${RES_NS[t]}
    R_RUNS=$# R_NS=$(median "$@")
    if [[ -n ${RES_CPU[t]} ]]; then
        # shellcheck disable=SC2086
        R_CPU=$(median ${RES_CPU[t]}) R_KB=${RES_PEAK[t]}
    fi
}
clear_queue() {
    local t
    for ((t = 0; t < ${#Q_LABEL[@]}; t++)); do unset "Q_CMD_$t"; done
    Q_LABEL=()
}
# measure_rounds FILE : the queued tools on FILE, in rounds, each tool's results a row of the table.
measure_rounds() {
    local t
    run_rounds file "$1"
    for ((t = 0; t < ${#Q_LABEL[@]}; t++)); do
        result_of "$t"
        row_add "${Q_LABEL[t]}"
    done
    clear_queue
}
# measure MODE FILE CMD... : one tool alone (its runs one after another), results in R_*.
measure() {
    local mode=$1 file=$2; shift 2
    tool_add "" "$@"
    run_rounds "$mode" "$file"
    result_of 0
    clear_queue
}

# One table per input. Rows are collected, then printed once Miller's time is known.
declare -a ROW_TOOL ROW_STATUS ROW_NS ROW_CPU ROW_KB ROW_RUNS
row_add() { ROW_TOOL+=("$1"); ROW_STATUS+=("$R_STATUS"); ROW_NS+=("$R_NS"); ROW_CPU+=("$R_CPU"); ROW_KB+=("$R_KB"); ROW_RUNS+=("$R_RUNS"); }
row_skip() { R_STATUS=$2 R_NS=0 R_CPU="" R_KB="" R_RUNS=0; row_add "$1"; }

declare -A SUMMARY   # key -> value for the closing summary

print_table() {  # print_table TITLE FILE
    local title=$1 file=$2 bytes mlr_ns=0 mlr_cpu=0 i
    bytes=$(stat -c %s "$file")
    for i in "${!ROW_TOOL[@]}"; do
        if [[ ${ROW_TOOL[i]} == mlr* && ${ROW_STATUS[i]} == ok ]]; then mlr_ns=${ROW_NS[i]} mlr_cpu=${ROW_CPU[i]:-0}; fi
    done
    local fmt='| %-44s | %4s | %9s | %8s | %8s | %12s | %9s | %9s |\n'
    echo
    echo "### $title — $(basename "$file"), $(printf '%.1f' "${bytes}e-6") MB"
    echo
    printf "$fmt" "tool" "runs" "median s" "CPU s" "MB/s" "peak RSS MB" "vs Miller" "CPU vs Ml"
    printf "$fmt" "$(printf -- '-%.0s' {1..44})" "---:" "--------:" "-------:" "-------:" "-----------:" "--------:" "--------:"
    for i in "${!ROW_TOOL[@]}"; do
        if [[ ${ROW_STATUS[i]} != ok ]]; then
            printf "$fmt" "${ROW_TOOL[i]}" "-" "${ROW_STATUS[i]}" "" "" "" "" ""
            continue
        fi
        local ns=${ROW_NS[i]} cpu=${ROW_CPU[i]} kb=${ROW_KB[i]} s c="?" mbs rss ratio="-" cratio="-"
        s=$(fmt_s "$ns")
        [[ -n $cpu ]] && c=$(printf '%.2f' "${cpu}e-9")
        mbs=$(printf '%.1f' "$((bytes * 1000000 / (ns > 0 ? ns : 1)))e-3")
        rss=${kb:+$(fmt_mb "$kb")}; rss=${rss:-?}
        ((mlr_ns > 0)) && ratio=$(printf '%.3f' "$((ns * 10000 / mlr_ns))e-4")
        [[ -n $cpu ]] && ((mlr_cpu > 0)) && cratio=$(printf '%.3f' "$((cpu * 10000 / mlr_cpu))e-4")
        printf "$fmt" "${ROW_TOOL[i]}" "${ROW_RUNS[i]}" "$s" "$c" "$mbs" "$rss" "$ratio" "$cratio"
    done
    ROW_TOOL=() ROW_STATUS=() ROW_NS=() ROW_CPU=() ROW_KB=() ROW_RUNS=()
}

queue_peer() {  # queue_peer NAME LABEL CMD... : queue an installed peer for measure_rounds, or a skip row
    local name=$1 label=$2; shift 2
    has_peer "$name" || return 0
    if ! command -v "$name" >/dev/null; then row_skip "$label" "not installed"; return 0; fi
    tool_add "$label" "$@"
}

bench_input() {  # bench_input KEY TITLE FILE KIND(csv|ndjson|json)
    local key=$1 title=$2 file=$3 kind=$4 i
    note "$title: $(basename "$file") ..."
    cat -- "$file" >/dev/null   # page cache warm for every tool alike
    tool_add "tablefmt -w 0 --layout table" "$TABLEFMT_BIN" "${TF_ARGS[@]}" "$file"
    case $kind in
        csv)
            queue_peer mlr "mlr --icsv --opprint cat" mlr --icsv --opprint cat "$file"
            # csvtool recurses per row: with the default 8 MB stack it dies on 1M rows (exit 2).
            queue_peer csvtool "csvtool readable (ulimit -s unlimited)" \
                bash -c 'ulimit -s unlimited && exec csvtool readable "$1"' csvtool "$file"
            queue_peer sqlite3 "sqlite3 .import + .mode box" \
                sqlite3 :memory: -cmd '.mode csv' -cmd ".import $file t" -cmd '.mode box' 'SELECT * FROM t'
            queue_peer column "column -t -s, (no quote handling)" column -t -s, "$file"
            ;;
        ndjson) queue_peer mlr "mlr --ijsonl --opprint cat" mlr --ijsonl --opprint cat "$file" ;;
        json)   queue_peer mlr "mlr --ijson --opprint cat" mlr --ijson --opprint cat "$file" ;;
    esac
    queue_peer awk "awk -F, '{print \$1}' (floor: no formatting)" awk -F, '{print $1}' "$file"
    measure_rounds "$file"
    for i in "${!ROW_TOOL[@]}"; do
        if [[ ${ROW_TOOL[i]} == tablefmt* ]]; then
            SUMMARY[$key.tf.status]=${ROW_STATUS[i]} SUMMARY[$key.tf.ns]=${ROW_NS[i]} SUMMARY[$key.tf.cpu]=${ROW_CPU[i]}
            SUMMARY[$key.tf.kb]=${ROW_KB[i]} SUMMARY[$key.tf.runs]=${ROW_RUNS[i]}
        fi
        if [[ ${ROW_TOOL[i]} == mlr* && ${ROW_STATUS[i]} == ok ]]; then SUMMARY[$key.mlr.ns]=${ROW_NS[i]} SUMMARY[$key.mlr.cpu]=${ROW_CPU[i]}; fi
        if [[ ${ROW_TOOL[i]} == awk* && ${ROW_STATUS[i]} == ok ]]; then SUMMARY[$key.awk.ns]=${ROW_NS[i]}; fi
    done
    print_table "$title" "$file"
}

# ---------------------------------------------------------------- header
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
echo "## tablefmt benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
mem_kb=$(grep -m1 MemTotal /proc/meminfo 2>/dev/null | tr -s ' ' | cut -d' ' -f2)
echo "- machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $((${mem_kb:-0} / 1048576)) GiB RAM, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- tablefmt: $TABLEFMT_BIN ($("$TABLEFMT_BIN" --version 2>/dev/null | head -n 1), built $(date -u -r "$TABLEFMT_BIN" '+%Y-%m-%d %H:%M UTC')); repo at $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- Sources 2>/dev/null || echo ', Sources modified')"
peer_versions=()
command -v mlr >/dev/null && peer_versions+=("$(mlr --version 2>/dev/null | head -n 1)")
command -v sqlite3 >/dev/null && peer_versions+=("sqlite3 $(sqlite3 --version 2>/dev/null | cut -d' ' -f1)")
command -v csvtool >/dev/null && peer_versions+=("csvtool $(dpkg-query -W -f '${Version}' csvtool 2>/dev/null || echo '?')")
echo "- peers: ${peer_versions[*]:-none}"
echo "- runs: median of $RUNS whole-process runs (a tool whose first run exceeds ${SLOW_AFTER} s: $SLOW_RUNS; over ${SLOW_LIMIT} s: 1), taken in rounds for the throughput tables (each round runs every tool once, in turn); wall time from date +%s%N around /usr/bin/time -f '%e %M %U %S'; CPU = user+sys; peak RSS = max over runs; output to /dev/null; vs Miller = tool wall time / Miller wall time (CPU vs Ml: the same for CPU time; Miller is multi-threaded, so on a busy machine its wall time suffers more)"

# ---------------------------------------------------------------- throughput tables (P1)
for input in $INPUTS; do
    case $input in
        csv-100k)  bench_input csv100k "CSV, 100k rows"      "$BENCH_DIR/rows_100k.csv"   csv ;;
        csv-1m)    bench_input csv1m   "CSV, 1M rows"        "$BENCH_DIR/rows_1m.csv"     csv ;;
        ndjson-1m) bench_input ndjson1m "NDJSON, 1M rows"    "$BENCH_DIR/rows_1m.ndjson"  ndjson ;;
        json-1m)   bench_input json1m  "JSON array, 1M rows" "$BENCH_DIR/rows_1m.json"    json ;;
        *) note "unknown input '$input' (csv-100k csv-1m ndjson-1m json-1m)" ;;
    esac
done

# ---------------------------------------------------------------- memory, file and pipe (P2)
echo
echo "### Peak memory, file vs pipe (P2: < 64 MB; 1M rows within 1.5x of 100k)"
echo
printf '| %-44s | %4s | %9s | %12s |\n' "tablefmt -w 0 --layout table on" "runs" "median s" "peak RSS MB"
printf '| %-44s | %4s | %9s | %12s |\n' "--------------------------------------------" "---:" "--------:" "-----------:"
declare -A P2_KB
for spec in "file:rows_100k.csv:csv100k" "file:rows_1m.csv:csv1m" "pipe:rows_100k.csv:" "pipe:rows_1m.csv:"; do
    IFS=: read -r mode name key <<<"$spec"
    f="$BENCH_DIR/$name"
    if [[ $mode == file ]]; then
        label="FILE  tablefmt $name"
        if [[ -n $key && -n "${SUMMARY[$key.tf.status]:-}" ]]; then   # measured above: reuse
            R_STATUS=${SUMMARY[$key.tf.status]} R_NS=${SUMMARY[$key.tf.ns]} R_KB=${SUMMARY[$key.tf.kb]} R_RUNS=${SUMMARY[$key.tf.runs]}
        else
            measure file "$f" "$TABLEFMT_BIN" "${TF_ARGS[@]}" "$f"
        fi
    else
        label="PIPE  tablefmt < (cat $name)"
        measure pipe "$f" "$TABLEFMT_BIN" "${TF_ARGS[@]}"
    fi
    if [[ $R_STATUS != ok ]]; then
        printf '| %-44s | %4s | %9s | %12s |\n' "$label" "-" "$R_STATUS" ""
        continue
    fi
    P2_KB[$mode:$name]=$R_KB
    rss=${R_KB:+$(fmt_mb "$R_KB")}
    printf '| %-44s | %4s | %9s | %12s |\n' "$label" "$R_RUNS" "$(fmt_s "$R_NS")" "${rss:-?}"
done
echo
P2_MAX_KB=0 P2_GROWTH="" P2_GROWTH_OK=1
for mode in file pipe; do
    a=${P2_KB[$mode:rows_100k.csv]:-} b=${P2_KB[$mode:rows_1m.csv]:-}
    for kb in $a $b; do ((kb > P2_MAX_KB)) && P2_MAX_KB=$kb; done
    if [[ -n $a && -n $b && $a -gt 0 ]]; then
        g=$(printf '%.2f' "$((b * 100 / a))e-2")
        P2_GROWTH+=" $mode $g"
        ((b * 100 > a * 150)) && P2_GROWTH_OK=0
        printf -- '- %s: peak RSS 1M / 100k = %s\n' "$mode" "$g"
    fi
done

# ---------------------------------------------------------------- sorting beyond memory (P2)
echo
echo "### Sorting 1M rows (P2: peak < 64 MB with the default --memory-limit; time ≤ 0.35 of Miller's sort)"
echo
SORT_FILE="$BENCH_DIR/rows_1m.csv"
for spec in "qty:-qty:-nr qty" "customer:customer:-f customer"; do
    IFS=: read -r key tfkey mlrkey <<<"$spec"
    tool_add "tablefmt --sort $tfkey" "$TABLEFMT_BIN" "${TF_ARGS[@]}" --sort "$tfkey" "$SORT_FILE"
    # shellcheck disable=SC2086
    queue_peer mlr "mlr --icsv --opprint sort $mlrkey" mlr --icsv --opprint sort $mlrkey "$SORT_FILE"
    measure_rounds "$SORT_FILE"
    for i in "${!ROW_TOOL[@]}"; do
        if [[ ${ROW_TOOL[i]} == tablefmt* ]]; then
            SUMMARY[sort$key.tf.status]=${ROW_STATUS[i]} SUMMARY[sort$key.tf.ns]=${ROW_NS[i]} SUMMARY[sort$key.tf.kb]=${ROW_KB[i]}
        fi
        if [[ ${ROW_TOOL[i]} == mlr* && ${ROW_STATUS[i]} == ok ]]; then SUMMARY[sort$key.mlr.ns]=${ROW_NS[i]}; fi
    done
    print_table "Sort by $key" "$SORT_FILE"
done

# ---------------------------------------------------------------- every output path (issue 27)
# Each output path of tablefmt on the 1M-row file, measured in the same rounds as the plain table
# (-w 0 -f plain) and as the Miller command nearest to it; the target for each path is at most 1.5
# times the plain table's time, and for Markdown and the list report at most 0.2 of Miller's.
# OUT_SPEC: key | label | tablefmt arguments (FILE: the CSV, TSV: the TSV) | peer key ("" for none)
OUT_SPEC=(
    "plain|tablefmt -w 0 -f plain|-w 0 -f plain FILE|"
    "markdown|tablefmt -f markdown|-f markdown FILE|omd"
    "html|tablefmt -f html|-f html FILE|"
    "list|tablefmt --layout list -w 80|--layout list -w 80 FILE|oxtab"
    "box|tablefmt -w 0 --style box|-w 0 --style box FILE|"
    "ansi|tablefmt -w 0 --color always|-w 0 --color always FILE|"
    "tsv|tablefmt -w 0 (TSV input)|-w 0 TSV|"
    "pages|tablefmt --layout pages -w 80|--layout pages -w 80 FILE|"
    "group|tablefmt -w 0 --group-by region|-w 0 --group-by region FILE|sortf"
)
declare -A OUT_PEER=(
    [omd]="mlr --icsv --omd cat" [oxtab]="mlr --icsv --oxtab cat" [sortf]="mlr --icsv --opprint sort -f region"
)
declare -A OUT_RES   # key.ns key.cpu key.kb key.status, peer.ns
if [[ $OUTPUTS == 1 ]]; then
    OUT_FILE="$BENCH_DIR/rows_1m.csv" OUT_TSV="$BENCH_DIR/rows_1m.tsv"
    note "every output path on $(basename "$OUT_FILE") ..."
    cat -- "$OUT_FILE" "$OUT_TSV" >/dev/null
    out_keys=() out_labels=()
    for spec in "${OUT_SPEC[@]}"; do
        IFS='|' read -r key label targs peer <<<"$spec"
        # shellcheck disable=SC2206
        words=($targs)
        for i in "${!words[@]}"; do
            [[ ${words[i]} == FILE ]] && words[i]=$OUT_FILE
            [[ ${words[i]} == TSV ]] && words[i]=$OUT_TSV
        done
        tool_add "$label" "$TABLEFMT_BIN" "${words[@]}"
        out_keys+=("$key") out_labels+=("$label")
    done
    for peer in omd oxtab sortf; do
        has_peer mlr && command -v mlr >/dev/null || break
        # shellcheck disable=SC2206
        words=(${OUT_PEER[$peer]})
        tool_add "${OUT_PEER[$peer]}" "${words[@]}" "$OUT_FILE"
        out_keys+=("peer-$peer") out_labels+=("${OUT_PEER[$peer]}")
    done
    run_rounds file "$OUT_FILE"
    for t in "${!out_keys[@]}"; do
        result_of "$t"
        k=${out_keys[t]}
        OUT_RES[$k.status]=$R_STATUS OUT_RES[$k.ns]=$R_NS OUT_RES[$k.cpu]=$R_CPU OUT_RES[$k.kb]=$R_KB OUT_RES[$k.runs]=$R_RUNS
    done
    clear_queue
    echo
    echo "### Every output path, 1M rows — $(basename "$OUT_FILE") (TSV: $(basename "$OUT_TSV")), same rounds (#27: ≤ 1.5 × the plain table; Markdown, list ≤ 0.2 of Miller's)"
    echo
    ofmt='| %-44s | %4s | %9s | %8s | %12s | %8s | %-38s | %8s |\n'
    printf "$ofmt" "command" "runs" "median s" "CPU s" "peak RSS MB" "vs plain" "peer (mlr)" "vs peer"
    printf "$ofmt" "$(printf -- '-%.0s' {1..44})" "---:" "--------:" "-------:" "-----------:" "-------:" "$(printf -- '-%.0s' {1..38})" "-------:"
    plain_ns=${OUT_RES[plain.ns]:-0}
    [[ ${OUT_RES[plain.status]:-} == ok ]] || plain_ns=0
    for t in "${!out_keys[@]}"; do
        k=${out_keys[t]} label=${out_labels[t]}
        if [[ ${OUT_RES[$k.status]} != ok ]]; then
            printf "$ofmt" "$label" "-" "${OUT_RES[$k.status]}" "" "" "" "" ""
            continue
        fi
        ns=${OUT_RES[$k.ns]} cpu=${OUT_RES[$k.cpu]} kb=${OUT_RES[$k.kb]}
        c="?" rss="?" vp="-" peer_label="" vpeer="-"
        [[ -n $cpu ]] && c=$(printf '%.2f' "${cpu}e-9")
        [[ -n $kb ]] && rss=$(fmt_mb "$kb")
        ((plain_ns > 0)) && vp=$(printf '%.2f' "$((ns * 100 / plain_ns))e-2")
        spec=""
        for s2 in "${OUT_SPEC[@]}"; do [[ ${s2%%|*} == "$k" ]] && spec=$s2; done
        peer=${spec##*|}
        if [[ -n $peer && ${OUT_RES[peer-$peer.status]:-} == ok ]]; then
            peer_label=${OUT_PEER[$peer]}
            vpeer=$(printf '%.3f' "$((ns * 1000 / OUT_RES[peer-$peer.ns]))e-3")
        fi
        [[ $k == peer-* ]] && vp="-"
        printf "$ofmt" "$label" "${OUT_RES[$k.runs]}" "$(fmt_s "$ns")" "$c" "$rss" "$vp" "$peer_label" "$vpeer"
    done
fi

# ---------------------------------------------------------------- text cut and wrapped (#47)
# Each command beside the same table where nothing is cut (-w 0; a list report at -w 200), in the same
# rounds: #47 asks each within 1.3x of its uncut twin, --wrap 2 within 1.5x.
FIT_SPEC=(
    "-w 0 --columns id,note|"
    "-w 60 --columns id,note|-w 0 --columns id,note"
    "-w 60 --columns id,note --wrap 2|-w 0 --columns id,note"
    "-w 0 --columns id,customer,note|"
    "-w 60 --columns id,customer,note --ellipsis middle|-w 0 --columns id,customer,note"
    "-w 0|"
    "-w 80 --layout pages|-w 0"
    "-w 200 --layout list|"
    "-w 40 --layout list|-w 200 --layout list"
    "-w 80 --layout list|-w 200 --layout list"
)
if [[ $FIT == 1 ]]; then
    for fit_file in "$BENCH_DIR/rows_1m.csv" "$BENCH_DIR/text_1m.csv"; do
        [[ -s $fit_file ]] || continue
        note "text cut and wrapped on $(basename "$fit_file") ..."
        cat -- "$fit_file" >/dev/null
        for spec in "${FIT_SPEC[@]}"; do
            # shellcheck disable=SC2206
            words=(${spec%%|*})
            tool_add "tablefmt ${spec%%|*}" "$TABLEFMT_BIN" "${words[@]}" "$fit_file"
        done
        run_rounds file "$fit_file"
        declare -A FIT_NS=()
        for t in "${!FIT_SPEC[@]}"; do
            result_of "$t"
            FIT_NS[${FIT_SPEC[t]%%|*}]=$([[ $R_STATUS == ok ]] && echo "$R_NS" || echo 0)
        done
        clear_queue
        echo
        echo "### Text cut and wrapped, 1M rows — $(basename "$fit_file"), same rounds (#47: ≤ 1.3 × uncut, --wrap 2 ≤ 1.5 ×)"
        echo
        ffmt='| %-62s | %9s | %-32s | %8s |\n'
        printf "$ffmt" "command" "median s" "uncut twin" "× twin"
        printf "$ffmt" "$(printf -- '-%.0s' {1..62})" "--------:" "$(printf -- '-%.0s' {1..32})" "-------:"
        for spec in "${FIT_SPEC[@]}"; do
            args=${spec%%|*} twin=${spec#*|} ns=${FIT_NS[${spec%%|*}]} ratio="-"
            if [[ -n $twin ]] && ((ns > 0 && ${FIT_NS[$twin]:-0} > 0)); then
                ratio=$(printf '%.2f' "$((ns * 100 / FIT_NS[$twin]))e-2")
            fi
            printf "$ffmt" "tablefmt $args" "$( ((ns > 0)) && fmt_s "$ns" || echo n/a)" "$twin" "$ratio"
        done
        unset FIT_NS
    done
fi

# ---------------------------------------------------------------- start-up (P3)
echo
echo "### Start-up (P3: < 10 ms median on a 3-row file)"
echo
read -r su_med su_min su_max su_base su_rc < <(python3 "$LATENCY_PY" startup "$STARTUP_RUNS" "$BENCH_DIR/rows_3.csv" -- "$TABLEFMT_BIN" "${TF_ARGS[@]}")
if [[ ${su_rc:-1} != 0 ]]; then
    echo "- tablefmt on rows_3.csv: n/a (exit $su_rc)"
else
    echo "- \`tablefmt -w 0 --layout table rows_3.csv\`, $STARTUP_RUNS runs: median **$su_med ms** (min $su_min, max $su_max); spawning /bin/true the same way: $su_base ms"
fi

# ---------------------------------------------------------------- first output on a pipe (P4)
echo
echo "### First output on a pipe (P4: < 1 s after 2,000 rows, pipe left open)"
echo
read -r fo_a fo_b fo_c < <(python3 "$LATENCY_PY" first-output 2000 "$LAT_TIMEOUT" "$BENCH_DIR/rows_100k.csv" -- "$TABLEFMT_BIN" "${TF_ARGS[@]}")
if [[ $fo_a == timeout || $fo_a == no-output ]]; then
    echo "- header + 2,000 CSV rows written, pipe open: **no output line** ($fo_a ${fo_b:-})"
elif [[ $fo_a == early ]]; then
    echo "- header + 2,000 CSV rows written, pipe open: first line **$fo_b ms** after the writer started, before it had written all 2,000 rows ($fo_c lines read)"
else
    echo "- header + 2,000 CSV rows written, pipe open: first line **$fo_a ms** after the last row was written ($fo_b ms after start; $fo_c lines read)"
fi

# ---------------------------------------------------------------- live rows on a pipe (P4)
echo
echo "### Live rows (P4: a row that comes after the window, the writer then pausing, is shown within 100 ms)"
echo
read -r lr_a lr_b lr_c < <(python3 "$LATENCY_PY" live-rows 2000 20 "$LAT_TIMEOUT" "$BENCH_DIR/rows_100k.csv" -- "$TABLEFMT_BIN" "${TF_ARGS[@]}")
if [[ $lr_a == timeout ]]; then
    echo "- header + 2,000 CSV rows, then 20 rows one at a time 100 ms apart, pipe open: **a row was not shown** ($lr_b)"
else
    echo "- header + 2,000 CSV rows, then 20 rows one at a time 100 ms apart, pipe open: each row shown **$lr_a ms** (median; max $lr_b ms) after it was written"
fi

# ---------------------------------------------------------------- following (I10, P5, V9)
echo
echo "### Following (--follow: a row appended to a file is printed or drawn within 100 ms; idle CPU below 1%)"
echo
for mode in pipe pty; do
    read -r fw_a fw_b fw_c fw_d < <(python3 "$LATENCY_PY" follow "$mode" 20 10 "$LAT_TIMEOUT" -- "$TABLEFMT_BIN")
    what=$([[ $mode == pipe ]] && echo "printed to a pipe" || echo "the view on a pseudo-terminal")
    if [[ $fw_a == timeout ]]; then
        echo "- $what: **a row was not shown** ($fw_b)"
    else
        echo "- $what: 20 rows appended 100 ms apart, each shown **$fw_a ms** (median; max $fw_b ms) after it was written; idle 10 s: **$fw_d%** CPU"
    fi
done

# ---------------------------------------------------------------- summary
echo
echo "### Targets"
echo
verdict() { if (("$@")); then echo PASS; else echo FAIL; fi; }
for key in csv1m ndjson1m; do
    st=${SUMMARY[$key.tf.status]:-} tf=${SUMMARY[$key.tf.ns]:-0} ml=${SUMMARY[$key.mlr.ns]:-0}
    [[ -n $st ]] || continue
    if [[ $st != ok ]]; then echo "- P1 $key: tablefmt $st"; continue; fi
    if ((ml > 0)); then
        r=$(printf '%.3f' "$((tf * 10000 / ml))e-4")
        tc=${SUMMARY[$key.tf.cpu]:-} mc=${SUMMARY[$key.mlr.cpu]:-}
        cr=""
        if [[ -n $tc && -n $mc && $mc -gt 0 ]]; then
            cr="; CPU time $(printf '%.3f' "$((tc * 10000 / mc))e-4")"
        fi
        echo "- P1 $key: tablefmt / Miller: wall time $r $(verdict "tf * 10 <= ml")$cr (target ≤ 0.10)"
    else
        echo "- P1 $key: no Miller time to compare with"
    fi
done
for key in qty customer; do
    st=${SUMMARY[sort$key.tf.status]:-} tf=${SUMMARY[sort$key.tf.ns]:-0} ml=${SUMMARY[sort$key.mlr.ns]:-0} kb=${SUMMARY[sort$key.tf.kb]:-0}
    [[ $st == ok ]] || continue
    line="- P2 sort by $key, 1M rows: peak $(fmt_mb "$kb") MB (target < 64 MB) $(verdict "kb * 1024 < 64000000")"
    ((ml > 0)) && line+="; tablefmt / Miller $(printf '%.3f' "$((tf * 10000 / ml))e-4") (target ≤ 0.35) $(verdict "tf * 100 <= ml * 35")"
    echo "$line"
done
# #27 (3): the plain table well ahead of awk printing one field (≤ 0.7 on CSV), JSON Lines ≤ 2.
for key in csv1m ndjson1m; do
    [[ -n ${SUMMARY[$key.awk.ns]:-} && ${SUMMARY[$key.tf.ns]:-0} -gt 0 ]] || continue
    if [[ $key == csv1m ]]; then target=7 shown=0.7; else target=20 shown=2.0; fi
    echo "- P1 $key: tablefmt / awk -F, '{print \$1}': $(printf '%.3f' "$((SUMMARY[$key.tf.ns] * 10000 / SUMMARY[$key.awk.ns]))e-4") (target ≤ $shown) $(verdict "SUMMARY[$key.tf.ns] * 10 <= SUMMARY[$key.awk.ns] * target")"
done
if [[ $OUTPUTS == 1 && ${OUT_RES[plain.status]:-} == ok ]]; then
    plain_ns=${OUT_RES[plain.ns]} plain_kb=${OUT_RES[plain.kb]:-0}
    for spec in "${OUT_SPEC[@]}"; do
        IFS='|' read -r key label _ peer <<<"$spec"
        [[ $key == plain ]] && continue
        if [[ ${OUT_RES[$key.status]} != ok ]]; then echo "- #27 $key: tablefmt ${OUT_RES[$key.status]} FAIL"; continue; fi
        ns=${OUT_RES[$key.ns]}
        line="- #27 $key ($label): $(printf '%.2f' "$((ns * 100 / plain_ns))e-2") × the plain table (target ≤ 1.5) $(verdict "ns * 10 <= plain_ns * 15")"
        if [[ -n $peer && ${OUT_RES[peer-$peer.status]:-} == ok ]]; then
            pns=${OUT_RES[peer-$peer.ns]}
            line+="; / ${OUT_PEER[$peer]} $(printf '%.3f' "$((ns * 1000 / pns))e-3")"
            if [[ $key == markdown || $key == list || $key == group ]]; then line+=" (target ≤ 0.2) $(verdict "ns * 5 <= pns")"; fi
        fi
        if [[ -n ${OUT_RES[$key.kb]:-} && $plain_kb -gt 0 && $key != group ]]; then
            line+="; peak $(fmt_mb "${OUT_RES[$key.kb]}") MB against the plain table's $(fmt_mb "$plain_kb") MB"
        fi
        echo "$line"
    done
fi
if ((P2_MAX_KB > 0)); then
    echo "- P2 peak RSS, largest of file/pipe 100k/1M = $(fmt_mb "$P2_MAX_KB") MB (target < 64 MB) $(verdict "P2_MAX_KB * 1024 < 64000000"); 1M / 100k:$P2_GROWTH (target ≤ 1.5) $(verdict "P2_GROWTH_OK")"
fi
if [[ ${su_rc:-1} == 0 ]]; then
    echo "- P3 start-up median = $su_med ms (target < 10 ms) $(verdict "${su_med%.*} < 10")"
fi
if [[ ${lr_a:-timeout} == timeout ]]; then
    echo "- P4 live rows: a row was not shown (${lr_b:-}) FAIL"
else
    echo "- P4 live rows: median $lr_a ms, max $lr_b ms from write to output (target < 100 ms) $(verdict "${lr_b%.*} < 100")"
fi
case ${fo_a:-} in
    timeout|no-output|"") echo "- P4 first output on a pipe: none ($fo_a) FAIL" ;;
    early) echo "- P4 first output on a pipe: $fo_b ms after start, before the 2,000th row (target < 1 s) PASS" ;;
    *) echo "- P4 first output on a pipe: $fo_a ms after the 2,000th row (target < 1000 ms) $(verdict "${fo_a%.*} < 1000")" ;;
esac
