#!/usr/bin/env python3
"""O4 checked with a real GFM renderer (GitHub's cmark-gfm, through the `cmarkgfm` package).

tablefmt's Markdown is rendered to HTML with the table and autolink extensions; each table cell,
list-report value, group heading and title is read back as text (`<br>` as a line break) and
compared with what the input holds, after the changes tablefmt documents (O5: controls as visible
escapes, a CR LF or LF as a line break). Two figures per output kind:
  - cells lost: a cell whose rendered text differs from the input's (must be 0);
  - needless escapes per 1,000 cells: a backslash or character reference that can be removed
    without changing what GFM renders (judged by rendering the cell both ways).

Inputs: every UTF-8 CSV, TSV and SSV under Fixtures/ and Tests/Conformance/real-world (read back
with Python's csv module), and a hostile corpus
generated here with a fixed seed (line breaks of every kind, pipes, backslashes before every ASCII
punctuation, entities, HTML, URLs, emphasis runs, code spans, links, line-start markers, controls).
Each is drawn as a table, a list report, with --group-by and with --title.

Usage: check-markdown-gfm.py BINARY      (make test runs it; needs `pip install cmarkgfm`)
Exit status 1 when a cell is lost or the needless escapes exceed 1 per 1,000 cells.
"""
import csv
import html
import html.parser
import io
import os
import random
import re
import subprocess
import sys

try:
    import cmarkgfm
    from cmarkgfm.cmark import Options
except ImportError:
    print("markdown-gfm: needs cmarkgfm (python3 -m pip install cmarkgfm)")
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
NOT_UTF8 = {"StarWars.csv", "characters.csv", "spanish_chars.csv", "utf-16le_encoded.csv"}
DELIMITERS = {"weird_head_padding.csv": ";", "simple.ssv": ";", "2016_presidential_election_durham.csv": ";", "milk.csv": "\t"}


def render(markdown):
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


class Texts(html.parser.HTMLParser):
    """The text of each td/th, li value (after its bold label), h3 and h4, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.current, self.kind, self.depth_strong, self.after_label = [], None, None, 0, False

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th", "h3", "h4", "li"):
            self.current, self.kind, self.after_label = "", tag, tag != "li"
        elif tag == "br" and self.current is not None and self.after_label:
            self.current += "\n"
        elif tag == "strong" and self.kind == "li":
            self.depth_strong += 1

    def handle_endtag(self, tag):
        if tag == "strong" and self.kind == "li":
            self.depth_strong -= 1
            if self.depth_strong == 0 and not self.after_label:
                self.after_label = True
                self.current = ""
                return
        if tag in ("td", "th", "h3", "h4", "li") and self.current is not None:
            text = self.current[1:] if tag == "li" and self.current.startswith(" ") else self.current
            self.items.append((tag, text))
            self.current, self.kind = None, None

    def handle_data(self, data):
        if self.current is not None and self.after_label:
            self.current += data


def texts(markdown):
    parser = Texts()
    parser.feed(render(markdown))
    return parser.items


def shown(cell):
    """A cell as tablefmt shows it (O5): CR LF and LF are line breaks, controls are escapes."""
    out, i = "", 0
    while i < len(cell):
        c = cell[i]
        if c == "\r" and i + 1 < len(cell) and cell[i + 1] == "\n":
            out += "\n"
            i += 2
            continue
        o = ord(c)
        if c == "\n":
            out += "\n"
        elif c == "\t":
            out += "\\t"
        elif c == "\r":
            out += "\\r"
        elif o < 0x20 or 0x7F <= o < 0xA0:
            out += "\\x%02x" % o
        elif 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069 or o == 0xFEFF:
            out += "\\u%04x" % o
        else:
            out += c
        i += 1
    return out


PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def hostile_rows(seed=20261124, count=400):
    """A corpus of hostile cells, the same every run."""
    rnd = random.Random(seed)
    pieces = ["a", "b c", "x_y", "snake_case", "__init__", "*a*", "**b**", "_c_", "a*b", " * ", "*", "~~s~~", "~t~",
              "`x`", "``", "a`b", "[a](b)", "[a]", "![i](u)", "<b>", "</i>", "<!-- c -->", "<https://a.b>", "a < b",
              "&amp;", "&#35;", "&copy;", "&copy", "&x", "AT&T", "https://x.org/a_b?q=1&r=2", "www.example.com/x_y",
              "|", "a|b", "\\", "C:\\Users\\x", "\r\n", "\n", "\r", "\x1b[2J", "\t", "#", "# x", ">", "- x", "+ x",
              "1. x", "1) x", "===", "---", "'q'", '"q"', "100%", "$5", "日本", "e\u0301", "\u202e"]
    pieces += ["\\" + p for p in PUNCT]
    rows = [["id", "text", "more"]]
    for k in range(count):
        cell = lambda: "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 4)))
        rows.append([str(k), cell(), cell()])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def inputs():
    files = []
    for base in (os.path.join(ROOT, "Fixtures"), os.path.join(ROOT, "Tests", "Conformance", "real-world")):
        for d, _, fs in os.walk(base):
            for f in fs:
                if f.endswith((".csv", ".ssv", ".tsv")) and f not in NOT_UTF8:
                    files.append(os.path.join(d, f))
    for path in sorted(files):
        try:
            with open(path, encoding="utf-8-sig", newline="") as f:
                yield os.path.relpath(path, ROOT), f.read()
        except UnicodeDecodeError:
            continue
    yield "hostile corpus", hostile_rows()


def expected(text, name):
    delimiter = "\t" if name.endswith(".tsv") else DELIMITERS.get(os.path.basename(name), ",")
    rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if r != []]
    if not rows:
        return None
    width = max(len(r) for r in rows)
    header = [h if h != "" else "Column %d" % (k + 1) for k, h in enumerate(rows[0])]
    header += ["Column %d" % (k + 1) for k in range(len(header), width)]
    # Headings that read the same are told apart in input order: A, A (2), A (3) (C4).
    seen, labels = {}, []
    for h in header:
        seen[h] = seen.get(h, 0) + 1
        labels.append(h if seen[h] == 1 else "%s (%d)" % (h, seen[h]))
    return [labels] + [r + [""] * (width - len(r)) for r in rows[1:]]


NEEDLESS = {}


def needless(markdown_cell, context):
    """Escapes in a cell's Markdown that GFM renders the same without."""
    count = 0
    base = texts(context % markdown_cell)
    for m in re.finditer(r"\\[!-/:-@\[-`{-~]|&#32;|&amp;", markdown_cell):
        if m.group(0) == "&#32;":
            continue  # the edge spaces GFM would trim: never needless at an edge, checked below
        variant = markdown_cell[:m.start()] + (m.group(0)[1] if m.group(0).startswith("\\") else "&") + markdown_cell[m.end():]
        if texts(context % variant) == base:
            count += 1
            NEEDLESS[m.group(0)] = NEEDLESS.get(m.group(0), 0) + 1
    return count


def check(name, text, binary, kind, failures, stats):
    want = expected(text, name)
    if want is None:
        return
    header, rows = want[0], want[1:]
    if not rows and kind in ("list", "groups"):
        return  # no rows: nothing to list or group (a table of headings is checked as "table")
    args = [binary, "-f", "markdown", "--units", "keep", "--headers", "keep", "-i", "csv"]
    delimiter = "\t" if name.endswith(".tsv") else DELIMITERS.get(os.path.basename(name))
    if delimiter:
        args += ["-d", delimiter]  # a TSV read as CSV with TAB: Python's csv decodes no backslash escapes
    title = "Title: *a* | b_c \\ <x> &amp; #"
    if kind == "table":
        args += ["--layout", "table"]
    elif kind == "list":
        args += ["--layout", "list"]
    elif kind == "groups":
        args += ["--layout", "table", "--group-by", "1", "--footer", "none"]
    elif kind == "title":
        args += ["--layout", "table", "--title", title]
    run = subprocess.run(args + ["-"], input=text.encode("utf-8"), capture_output=True)
    if run.returncode != 0:
        return  # malformed input (an error case, tested elsewhere): nothing to read back
    markdown = run.stdout.decode("utf-8")
    got = texts(markdown)
    cells = 0
    lost = []
    # What each item should read, in output order.
    if kind in ("table", "title"):
        expect = ([("h3", shown(title))] if kind == "title" else []) + [("th", shown(h)) for h in header]
        for r in rows:
            expect += [("td", shown(c)) for c in r]
    elif kind == "groups":
        expect, order, members = [], [], {}
        for r in rows:
            if r[0] not in members:
                order.append(r[0])
                members[r[0]] = []
            members[r[0]].append(r)
        for value in order:
            n = len(members[value])
            expect.append(("h4", "%s: %s (%d row%s)" % (shown(header[0]), shown(value) if value else "(empty)", n, "" if n == 1 else "s")))
            expect += [("th", shown(h)) for h in header]
            for r in members[value]:
                expect += [("td", shown(c)) for c in r]
    else:
        expect = []
        for r in rows:
            expect.append(("h4", shown(r[0]) if r[0] else "—"))
            expect += [("li", shown(c)) for c in r[1:]]
    for k, (tag, value) in enumerate(expect):
        cells += 1
        if k >= len(got) or got[k] != (tag, value):
            lost.append((k, (tag, value), got[k] if k < len(got) else None))
    if len(got) != len(expect):
        lost.append(("count", len(expect), len(got)))
    # Needless escapes, per cell of the Markdown source.
    escapes = 0
    for line in markdown.split("\n"):
        if kind in ("table", "title", "groups") and line.startswith("| ") and not line.startswith("| :") and not line.startswith("| -"):
            for cell in re.split(r"(?<!\\) \| ", line[2:-2]):
                if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", cell):
                    escapes += needless(cell, "| h |\n| --- |\n| %s |\n")
        elif kind == "list" and line.startswith("- **"):
            value = line.split(":** ", 1)[1] if ":** " in line else ""
            if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", value):
                escapes += needless(value, "- **L:** %s\n")
    stats.setdefault(kind, [0, 0, 0])
    stats[kind][0] += cells
    stats[kind][1] += len(lost)
    stats[kind][2] += escapes
    if lost:
        failures.append("%s (%s): %d lost, first %r" % (name, kind, len(lost), lost[0]))


def main():
    binary = sys.argv[1]
    failures, stats = [], {}
    for name, text in inputs():
        for kind in ("table", "list", "groups", "title"):
            check(name, text, binary, kind, failures, stats)
    ok = not failures
    for kind, (cells, lost, escapes) in stats.items():
        rate = 1000.0 * escapes / max(1, cells)
        print("markdown-gfm %-6s: %7d cells, %d lost, %d needless escapes (%.2f per 1,000 cells)" % (kind, cells, lost, escapes, rate))
        ok = ok and lost == 0 and rate <= 1.0
    if NEEDLESS:
        print("needless escapes by kind:", ", ".join("%s %d" % kv for kv in sorted(NEEDLESS.items(), key=lambda kv: -kv[1])))
    for failure in failures[:10]:
        print("FAIL", failure)
    print("markdown-gfm: %d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
