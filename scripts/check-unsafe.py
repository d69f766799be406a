#!/usr/bin/env python3
"""The unsafe code's budget (issue #44; docs/FUZZING.md, "Memory safety").

Counts, in every Swift file under Sources/, the uses of unsafe constructs by name: `Unsafe…`
types, `withUnsafe…` calls, `unsafe` marks, `assumingMemoryBound`, `bindMemory`,
`unsafeBitCast`, `unsafeAddress`. Each file may hold at most what scripts/unsafe-budget.txt
gives it; a file not listed may hold none. So a change that adds unsafe code fails `make test`
until the budget is raised in the same change, where a review sees it; a change that removes
some is told to lower the budget, so the count only goes down.

    scripts/check-unsafe.py            check (exit 1 when a file is over its budget)
    scripts/check-unsafe.py --update   write the budget as the counts are now
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUDGET = os.path.join(ROOT, "scripts", "unsafe-budget.txt")
PATTERN = re.compile(r"\b(?:\w*Unsafe\w*|withUnsafe\w*|unsafe\w*|assumingMemoryBound|bindMemory)\b")
# Where strict memory safety is on (the Support target), each use is also marked `unsafe expr`
# (and a type that hides its pointers `@safe`): the mark names a use already counted by its type
# or function, so the bare keyword is not counted again (`nonisolated(unsafe)` and `unsafeBitCast`
# still are).
MARK = re.compile(r"(?<![(\w])unsafe(?=\s)|@safe\b")


def counts():
    found = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            n = 0
            with open(path, encoding="utf-8") as f:
                for line in f:
                    code = line.split("//", 1)[0]  # comments may name what they avoid
                    n += len(PATTERN.findall(MARK.sub("", code)))
            if n:
                found[os.path.relpath(path, ROOT)] = n
    return found


def budget():
    allowed = {}
    with open(BUDGET, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                n, path = line.split(None, 1)
                allowed[path] = int(n)
    return allowed


def main():
    now = counts()
    if "--update" in sys.argv[1:]:
        with open(BUDGET, "w", encoding="utf-8") as f:
            f.write("# Uses of unsafe constructs allowed per file (scripts/check-unsafe.py). Lower, never raise,\n")
            f.write("# without saying why in the commit: a measured hot path, behind a bounds-checked function.\n")
            for path in sorted(now):
                f.write(f"{now[path]} {path}\n")
        print(f"unsafe budget written: {sum(now.values())} uses in {len(now)} files")
        return 0
    allowed = budget()
    over = [(p, n, allowed.get(p, 0)) for p, n in sorted(now.items()) if n > allowed.get(p, 0)]
    under = [(p, now.get(p, 0), n) for p, n in sorted(allowed.items()) if now.get(p, 0) < n]
    for path, n, limit in over:
        print(f"{path}: {n} uses of unsafe constructs, {limit} allowed (scripts/unsafe-budget.txt)", file=sys.stderr)
    for path, n, limit in under:
        print(f"note: {path} now has {n} uses of unsafe constructs, fewer than its {limit}: lower its budget (--update)")
    print(f"unsafe code: {sum(now.values())} uses in {len(now)} files (budget {sum(allowed.values())})")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
