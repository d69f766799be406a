#!/usr/bin/env bash
# Builds a fuzz target's seed corpus from the conformance suites (never into the repository).
#
#   Fuzz/make-seeds.sh TARGET CONFORMANCE_DIR OUT_DIR [MAX_BYTES]
#
# TARGET is csv, json, pipeline or save. Every input file (licences and notes skipped) is copied into
# OUT_DIR, cut to MAX_BYTES, behind the control bytes the target reads first (see Fuzz/Fuzz*.swift),
# in a few variants: chunk sizes, dialects, options. Names are content hashes, so running it again
# adds nothing twice.
set -euo pipefail
target=$1 conformance=$2 out=$3 max=${4:-32768}
mkdir -p "$out"

# seed PREFIX_OCTAL FILE: writes PREFIX + the file's first MAX bytes under its hash.
seed() {
    local tmp
    tmp=$(mktemp "$out/.seed.XXXXXX")
    { printf "$1"; head -c "$max" "$2"; } > "$tmp"
    mv "$tmp" "$out/seed-$(sha1sum "$tmp" | cut -c1-16)"
}

count=0
while IFS= read -r -d '' file; do
    name=${file##*/}
    case $name in LICENSE* | UNLICENSE | *.md | .gitattributes) continue ;; esac
    ext=${name##*.}
    ext=${ext,,}
    case $target in
    csv)
        [[ $ext == json ]] && continue
        # [0] dialect: comma (0), TSV = tab + backslash escapes (021), semicolon (02)
        case $ext in tsv | tab) d='\021' ;; ssv) d='\002' ;; *) d='\000' ;; esac
        seed "$d"'\345\000' "$file"       # 64 KiB chunks, encoding from the BOM
        seed "$d"'\002\000' "$file"       # 3-byte chunks
        seed "$d"'\000\005' "$file"       # 1-byte chunks, cp1252
        ;;
    json)
        case $ext in json | jsonl | ndjson) ;; *) continue ;; esac
        # [0] mode: auto (0), JSON Lines (1), one document (2)
        seed '\000\345\000' "$file"
        seed '\002\006\000' "$file"
        seed '\001\000\000' "$file"
        ;;
    pipeline)
        # 11 control bytes (Fuzz/FuzzPipeline.swift):
        # plain, auto layout, rule, width 80, a file, 64 KiB chunks
        seed '\000\120\000\000\000\000\000\000\000\345\000' "$file"
        # ansi, table, box, wrap 2, a pipe, width 40, window 3, zebra, 7-byte chunks
        seed '\325\050\000\000\000\000\000\043\000\006\000' "$file"
        # markdown, list, sort by 1 and group by 1, columns 1,2, limit 2
        seed '\012\000\000\041\032\041\000\000\000\345\000' "$file"
        # plain, pages, compact, width 30, title, --null, max/min widths, 1-byte chunks
        seed '\074\036\000\000\000\000\000\000\340\000\250' "$file"
        ;;
    save)
        # [0] the size and kind, then keys until a 0 byte (Fuzz/FuzzSave.swift): the file as it
        # is (JSON Lines for .json and .jsonl files), e q Enter; 64 KiB + 1 as CSV, J K; 128 KiB as TSV, + e q Enter
        case $ext in json | jsonl | ndjson) k='\122' ;; *) k='\022' ;; esac
        seed "$k"'\017\020\002\000' "$file"
        seed '\150\004\005\000' "$file"
        seed '\052\006\017\020\002\000' "$file"
        ;;
    *) echo "unknown target $target" >&2; exit 64 ;;
    esac
    count=$((count + 1))
done < <(find "$conformance" -type f -print0 | sort -z)
# Hostile shapes (E5, docs/FUZZING.md): a heading, a JSON key and a line as long as the input
# allows, many columns, and a gzip member of one unbroken line, made here and seeded like the files.
shapes=$(mktemp -d)
trap 'rm -rf "$shapes"' EXIT
{ head -c $((max - 16)) /dev/zero | tr '\0' h; printf ',b\n1,2\n'; } > "$shapes/long-heading.csv"
{ printf 'a,b\n'; head -c $((max - 16)) /dev/zero | tr '\0' v; printf ',2\n'; } > "$shapes/long-value.csv"
{ printf '[{"'; head -c $((max - 16)) /dev/zero | tr '\0' k; printf '": 1}]'; } > "$shapes/long-key.json"
{ head -c $((max / 2)) /dev/zero | tr '\0' ,; printf '\n'; head -c $((max / 2 - 8)) /dev/zero | tr '\0' ,; } > "$shapes/many-columns.csv"
head -c 1000000 /dev/zero | tr '\0' a | gzip -9 > "$shapes/one-line.csv.gz"
for file in "$shapes"/*; do
    case $target in
    csv) [[ $file == *.json ]] || { seed '\000\345\000' "$file"; seed '\000\002\000' "$file"; } ;;
    json) [[ $file == *.json ]] && seed '\000\345\000' "$file" ;;
    pipeline)
        seed '\000\120\000\000\000\000\000\000\000\345\000' "$file"
        seed '\012\000\000\041\032\041\000\000\000\345\000' "$file"
        ;;
    esac
done

echo "$target: $count conformance files seeded into $out ($(find "$out" -type f | wc -l) files in the corpus)"
