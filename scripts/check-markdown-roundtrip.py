#!/usr/bin/env python3
"""O4 (docs/RULES.md), checked on real files: `tablefmt -f markdown --units keep --headers keep FILE` must
parse back to exactly the cells Python's csv module reads from FILE.

For every UTF-8 CSV/TSV under Tests/Conformance/real-world. Python's rows are brought to
tablefmt's documented shape first: blank lines skipped, short rows padded with empty cells, extra
fields under `Column N` headings (I2). Files that are not UTF-8 are skipped (they are covered
by the reader's own tests). Exit status 1 on any difference, with the first differing cell.

Usage: check-markdown-roundtrip.py BINARY [REAL_WORLD_DIR]   (default: Tests/Conformance/real-world)
"""
import csv
import io
import os
import re
import subprocess
import sys

# Files that are not UTF-8 (their bytes are tested elsewhere), and the delimiter of the others
# where it is not a comma.
NOT_UTF8 = {"StarWars.csv", "characters.csv", "spanish_chars.csv", "utf-16le_encoded.csv"}
DELIMITERS = {"weird_head_padding.csv": ";", "simple.ssv": ";", "2016_presidential_election_durham.csv": ";",
              "poll-of-pollsters.tsv": "\t", "milk.csv": "\t"}
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def split_row(line):
    """Cells of one GFM table row: split on unescaped pipes, trim, undo tablefmt's escapes."""
    body = line[1:-1] if line.startswith("|") and line.endswith("|") else line
    cells, raw, i = [], "", 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] in PUNCT:
            raw += body[i:i + 2]
            i += 2
            continue
        if c == "|":
            cells.append(raw)
            raw = ""
        else:
            raw += c
        i += 1
    cells.append(raw)
    return [decode(c.strip(" \t")) for c in cells]


def decode(text):
    out, i = "", 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in PUNCT:
            out += text[i + 1]
            i += 2
        elif text.startswith("<br>", i):
            out += "\n"
            i += 4
        elif text.startswith("&#32;", i):
            out += " "
            i += 5
        else:
            out += text[i]
            i += 1
    return out


def line_breaks(cell):
    """Markdown writes every line break as <br>, so CRLF, CR and LF inside a cell all read back as
    LF: the comparison counts them as the same line break."""
    return cell.replace("\r\n", "\n").replace("\r", "\n")


def expected_rows(path):
    name = os.path.basename(path)
    with open(path, encoding="utf-8-sig", newline="") as f:
        text = f.read()
    rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS.get(name, ","))]
    rows = [r for r in rows if r != []]  # blank lines are skipped
    header, body = rows[0], rows[1:]
    width = max(len(r) for r in rows)
    header = [h if h != "" else "Column %d" % (k + 1) for k, h in enumerate(header)]
    header += ["Column %d" % (k + 1) for k in range(len(header), width)]
    return [[line_breaks(c) for c in row] for row in [header] + [r + [""] * (width - len(r)) for r in body]]


def main():
    binary = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "Tests", "Conformance", "real-world")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                   if f.endswith((".csv", ".tsv", ".ssv")) and f not in NOT_UTF8)
    if not files:
        print("markdown-roundtrip: no CSV/TSV/SSV files under %s" % root)
        return 1
    failures = 0
    for path in files:
        name = os.path.basename(path)
        args = [binary, "-f", "markdown", "--units", "keep", "--headers", "keep", "--layout", "table", path]
        if name in DELIMITERS:
            args[1:1] = ["-d", DELIMITERS[name]]
        if name.endswith(".tsv"):
            args[1:1] = ["-i", "csv"]  # Python's csv module decodes no backslash escapes
        run = subprocess.run(args, capture_output=True)
        got = [split_row(l) for k, l in enumerate(run.stdout.decode("utf-8").split("\n")) if l.startswith("|") and k != 1]
        want = expected_rows(path)
        if run.returncode != 0 or got != want:
            failures += 1
            detail = "exit %d" % run.returncode
            for r, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    cells = [(c, a, b) for c, (a, b) in enumerate(zip(g, w)) if a != b]
                    detail = "row %d: %s" % (r, cells[:1] or "%d cells, want %d" % (len(g), len(w)))
                    break
            else:
                if len(got) != len(want):
                    detail = "%d rows, want %d" % (len(got), len(want))
            print("FAIL %s: %s" % (name, detail))
        else:
            print("ok   %s: %d rows x %d columns" % (name, len(want) - 1, len(want[0])))
    print("markdown-roundtrip: %d passed, %d failed" % (len(files) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
