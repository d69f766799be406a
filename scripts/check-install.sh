#!/usr/bin/env bash
# Installs tablefmt into a temporary PREFIX and checks it as a user would find it:
#   - the binary links no Swift runtime or Foundation library (Linux: ldd; macOS: otool -L is
#     allowed the OS's own /usr/lib/swift),
#   - it runs with the Swift toolchain's folder hidden (a mount namespace over it, where unshare
#     works; else with an empty environment),
#   - the man page renders without warnings, and man finds it under PREFIX/share/man,
#   - the bash completion completes option names and an enumerated option's values, and the zsh and
#     fish scripts parse (when those shells are installed).
# Usage: bash scripts/check-install.sh   (from the repository; `make check-install` runs it)
set -uo pipefail
cd "$(dirname "$0")/.."

prefix=$(mktemp -d "${TMPDIR:-/tmp}/tablefmt-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

make --no-print-directory install PREFIX="$prefix" > "$prefix.log" 2>&1 || { cat "$prefix.log"; rm -f "$prefix.log"; echo "make install failed"; exit 1; }
rm -f "$prefix.log"
bin=$prefix/bin/tablefmt
example=Fixtures/examples/orders.csv

for f in bin/tablefmt share/man/man1/tablefmt.1 share/bash-completion/completions/tablefmt \
         share/zsh/site-functions/_tablefmt share/fish/vendor_completions.d/tablefmt.fish; do
    if [ -s "$prefix/$f" ]; then ok "installed $f"; else fail "missing or empty: $prefix/$f"; fi
done

# The binary stands alone.
if [ "$(uname -s)" = Linux ]; then
    libs=$(ldd "$bin")
    if grep -qE 'libswift|libFoundation|libdispatch|libBlocksRuntime' <<<"$libs"; then
        fail "the binary links the Swift runtime: $(grep -E 'swift|Foundation|dispatch' <<<"$libs" | tr '\n' ' ')"
    else
        ok "ldd names no libswift*, libFoundation* or libdispatch"
    fi
    toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
    if unshare -m true 2> /dev/null && [ -d "$toolchain" ]; then
        out=$(unshare -m bash -c 'mount -t tmpfs none "$1" && [ -z "$(ls -A "$1")" ] && env -i "$2" -w 0 "$3"' _ "$toolchain" "$bin" "$example" 2>&1)
        status=$?
        where="with $toolchain hidden"
    else
        out=$(env -i "$bin" -w 0 "$example" 2>&1)
        status=$?
        where="with an empty environment (unshare is not available to hide $toolchain)"
    fi
    if [ $status -eq 0 ] && grep -q 'Müller, Anna' <<<"$out"; then ok "runs $where"; else fail "does not run $where (exit $status): $out"; fi
else
    libs=$(otool -L "$bin")
    if grep -E 'libswift|Foundation' <<<"$libs" | grep -qv '/usr/lib/swift/'; then fail "links a toolchain's Swift library"; else ok "links only the OS's Swift runtime"; fi
fi

# The man page.
if command -v groff > /dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z "$prefix/share/man/man1/tablefmt.1" 2>&1)
    if [ -z "$warnings" ]; then ok "man page renders without warnings"; else fail "groff warns: $warnings"; fi
fi
if command -v man > /dev/null; then
    page=$(MANPATH="$prefix/share/man" MANWIDTH=80 man -P cat tablefmt 2> /dev/null)
    if grep -q -- '--no-color' <<<"$page" && grep -q 'EXIT STATUS' <<<"$page"; then ok "man finds the page under PREFIX"; else fail "man tablefmt under PREFIX: not found or incomplete"; fi
fi

# The completions.
bash_out=$(bash -c 'source "$1"
    COMP_WORDS=(tablefmt --lay); COMP_CWORD=1; _tablefmt; echo "${COMPREPLY[*]}"
    COMP_WORDS=(tablefmt --layout ""); COMP_CWORD=2; _tablefmt; echo "${COMPREPLY[*]}"
    COMP_WORDS=(tablefmt -f m); COMP_CWORD=2; _tablefmt; echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/tablefmt")
expected=$'--layout\nauto table list pages\nmarkdown'
if [ "$bash_out" = "$expected" ]; then ok "bash completes --lay, --layout's values and -f m"; else fail "bash completion gave: $bash_out"; fi
if command -v zsh > /dev/null; then
    if zsh -n "$prefix/share/zsh/site-functions/_tablefmt"; then ok "zsh completion parses"; else fail "zsh -n"; fi
fi
if command -v fish > /dev/null; then
    if fish -n "$prefix/share/fish/vendor_completions.d/tablefmt.fish"; then ok "fish completion parses"; else fail "fish -n"; fi
    fish_out=$(fish -c "source '$prefix/share/fish/vendor_completions.d/tablefmt.fish'; complete -C 'tablefmt --style '" 2>&1 | cut -f1 | tr '\n' ' ')
    if [ "$fish_out" = "rule box ascii compact " ] || [ "$fish_out" = "ascii box compact rule " ]; then ok "fish completes --style's values"; else fail "fish completion gave: $fish_out"; fi
fi

echo "check-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
