#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a time budget (E5; docs/FUZZING.md).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]          default 60
#
# Environment:
#   FUZZ_TARGETS   which targets, in order (default "csv json pipeline save")
#   FUZZ_MAX_LEN   the longest input the fuzzer makes, in bytes (default 8192)
#   FUZZ_KEEP_GOING=1  keep fuzzing after a finding (-fork=1 -ignore_crashes=1 …) instead of stopping
#   FUZZ_OUT       the build and work folder (default .build-fuzz, ignored by git as .build*/)
#   FUZZ_SEEDS     the folder the seed corpus is made from (default Tests/Conformance)
#
# Everything goes to $FUZZ_OUT: a snapshot of Sources/FormatEngine (so edits made while fuzzing do
# not disturb the build), one binary per target, corpora in corpus-<target>/ (seeded from the
# conformance suites in Tests/Conformance, never written into the repository) and findings in
# findings-<target>/.
# Targets run one after another with one job each. The JSON target is skipped, with a message,
# while the JSON reader does not compile. Exit status: 0 when nothing was found, 1 when a target
# left a finding, 2 when nothing could be built.
set -uo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${FUZZ_OUT:-.build-fuzz}
targets=${FUZZ_TARGETS:-csv json pipeline save}
conformance=${FUZZ_SEEDS:-$root/Tests/Conformance}
swiftc=${SWIFTC:-swiftc}
# The system zlib through the package's module map (Sources/CZlib), and the system calls of
# Sources/CSystem's header, as SwiftPM builds them.
zlib=(-I "$root/Sources/CZlib" -lz -I "$root/Sources/CSystem")
# The package's name, as SwiftPM passes it: the engine has `package` declarations.
package=(-package-name tablefmt)

mkdir -p "$out"
out=$(cd "$out" && pwd)

# 1. A snapshot of the engine's sources and the targets below it, built here as one module: their
#    imports of each other are taken out of the copies.
rm -rf "$out/src"
mkdir -p "$out/src"
# The layers the engine is built from, lowest first (Package.swift's targets).
layers=(Support Text Input Profile Transform Schedule Options Layout Render Save Run Viewer FormatEngine)
layer_imports=()
for layer in "${layers[@]}"; do
    cp -R "Sources/$layer" "$out/src/"
    layer_imports+=(-e "/^\(@_exported \)\{0,1\}import $layer\$/d")
done
all_sources=()
while IFS= read -r -d '' f; do all_sources+=("$f"); done < <(for layer in "${layers[@]}"; do find "$out/src/$layer" -name '*.swift' -print0; done | sort -z)
for f in "${all_sources[@]}"; do sed -i "${layer_imports[@]}" "$f"; done
no_json_sources=()
for f in "${all_sources[@]}"; do
    case ${f##*/} in JSONReader*.swift) ;; *) no_json_sources+=("$f") ;; esac
done

# 2. Which sources compile: all of them, or all but the JSON reader (being written).
json_ok=1
sources=("${all_sources[@]}")
if ! "$swiftc" -typecheck -parse-as-library -module-name FuzzCheck "${package[@]}" "${zlib[@]}" "${all_sources[@]}" Fuzz/FuzzSupport.swift >"$out/typecheck.log" 2>&1; then
    json_ok=0
    sources=("${no_json_sources[@]}")
    if ! "$swiftc" -typecheck -parse-as-library -module-name FuzzCheck "${package[@]}" "${zlib[@]}" "${sources[@]}" Fuzz/FuzzSupport.swift >"$out/typecheck.log" 2>&1; then
        echo "fuzz: Sources/FormatEngine does not compile, even without JSONReader*.swift:" >&2
        head -20 "$out/typecheck.log" >&2
        exit 2
    fi
    echo "fuzz: the JSON reader does not compile yet (see $out/typecheck.log); building without JSONReader*.swift"
fi

# 3. One binary per target, rebuilt when its inputs change.
build() {
    local target=$1 file=$2 binary=$out/fuzz-$1
    local stamp
    stamp=$(cat "${sources[@]}" Fuzz/FuzzSupport.swift "$file" | sha256sum | cut -c1-32)
    if [[ -x $binary && -f $binary.stamp && $(cat "$binary.stamp") == "$stamp" ]]; then return 0; fi
    echo "fuzz: building $target"
    if ! "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -wmo -module-name "Fuzz_$target" "${package[@]}" "${zlib[@]}" \
        "${sources[@]}" Fuzz/FuzzSupport.swift "$file" -o "$binary" >"$out/build-$target.log" 2>&1; then
        echo "fuzz: building $target failed:" >&2
        grep -E 'error' "$out/build-$target.log" | head -20 >&2
        return 1
    fi
    echo "$stamp" >"$binary.stamp"
}

declare -A summary
status=0
for target in $targets; do
    case $target in
    csv) file=Fuzz/FuzzCSV.swift ;;
    json) file=Fuzz/FuzzJSON.swift ;;
    pipeline) file=Fuzz/FuzzPipeline.swift ;;
    save) file=Fuzz/FuzzSave.swift ;;
    *) echo "fuzz: unknown target $target" >&2; exit 2 ;;
    esac
    if [[ $target == json && $json_ok == 0 ]]; then
        echo "fuzz: skipping json: the JSON reader does not compile yet"
        summary[$target]="skipped: JSONReader*.swift does not compile yet"
        continue
    fi
    if ! build "$target" "$file"; then
        summary[$target]="build failed (see $out/build-$target.log)"
        status=2
        continue
    fi

    max_len=${FUZZ_MAX_LEN:-8192}

    # 4. The corpus: seeds from the conformance suites, then whatever earlier runs kept.
    corpus=$out/corpus-$target
    findings=$out/findings-$target
    mkdir -p "$corpus" "$findings"
    if [[ -d $conformance ]]; then
        Fuzz/make-seeds.sh "$target" "$conformance" "$corpus" "$max_len" >/dev/null
    else
        echo "fuzz: no $conformance; starting $target from an empty corpus"
    fi
    dict=()
    [[ -f Fuzz/$target.dict ]] && dict=(-dict="Fuzz/$target.dict")
    keep=()
    [[ ${FUZZ_KEEP_GOING:-0} == 1 ]] && keep=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    before=$(find "$findings" -type f | wc -l)
    marker=$out/.started-$target
    touch "$marker"
    log=$out/run-$target.log
    echo "fuzz: running $target for ${seconds}s (log: $log)"
    start=$(date +%s)
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$out/fuzz-$target" "$corpus" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" \
        -artifact_prefix="$findings/" -print_final_stats=1 "${dict[@]}" "${keep[@]}" >"$log" 2>&1
    code=$?
    elapsed=$(($(date +%s) - start))
    execs=$(grep -Eo 'stat::number_of_executed_units:[[:space:]]+[0-9]+' "$log" | awk '{s += $2} END {print s + 0}')
    if [[ $execs == 0 ]]; then  # a run cut short by a finding prints no final stats
        execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    rss=$(grep -Eo 'stat::peak_rss_mb:[[:space:]]+[0-9]+' "$log" | awk '{print $2}' | sort -n | tail -1)
    rss=${rss:+$rss MB}
    [[ -z $rss && ${#keep[@]} -gt 0 ]] && rss="n/a (fork mode)"
    after=$(find "$findings" -type f | wc -l)
    new=$((after - before))
    if ((new > 0)) || ((code != 0)); then
        status=1
        summary[$target]="${execs:-0} executions in ${elapsed}s, peak RSS ${rss:-?}, FINDINGS: $new new (exit $code)"
        find "$findings" -type f -newer "$marker" -printf '    %p\n' 2>/dev/null
        grep -E 'ERROR: |FUZZ INVARIANT|Fatal error|SUMMARY' "$log" | head -5 | sed 's/^/    /'
    else
        summary[$target]="${execs:-0} executions in ${elapsed}s, peak RSS ${rss:-?}, no findings; corpus $(find "$corpus" -type f | wc -l) inputs"
    fi
done

echo
echo "fuzz summary (${seconds}s per target):"
for target in $targets; do printf '  %-9s %s\n' "$target" "${summary[$target]:-not run}"; done
exit $status
