#!/usr/bin/env python3
"""O4 checked with a real GFM renderer (GitHub's cmark-gfm, through the `cmarkgfm` package).

tablefmt's Markdown is rendered to HTML with the table and autolink extensions; each table cell and
heading, list-report label (which must stay one bold piece of text) and value, row title, group
heading, pages caption and title is read back as text (`<br>` as a line break) and compared with
what the input holds, after the changes tablefmt documents (O5: controls as visible escapes, a CR
LF or LF as a line break). Two figures per output kind:
  - cells lost: a cell whose rendered text differs from the input's (must be 0);
  - needless escapes per 1,000 cells: a backslash or character reference that can be removed
    without changing what GFM renders (judged by rendering the cell both ways).

Inputs: every UTF-8 CSV, TSV and SSV under Fixtures/ and Tests/Conformance/real-world (read back
with Python's csv module), a hostile corpus
generated here with a fixed seed (line breaks of every kind, pipes, backslashes before every ASCII
punctuation, entities, HTML, URLs, emphasis runs, code spans, links, line-start markers, controls),
and generated tables whose column names, titles and cells are random strings of ASCII punctuation
(every character of it in first place too). Each is drawn as a table, a list report, with
--group-by as tables and as list reports, and with --title; the generated tables as pages too.

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
    """The text of each td/th, li (its bold label as a "label" item, then its value), p, h3 and
    h4, in order. Any tag inside a label (an <em> from a stray `*`) makes it read "<tag>", so a
    label GFM did not keep as one piece of text is told apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.current, self.kind, self.depth_strong, self.after_label = [], None, None, 0, False

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th", "h3", "h4", "li", "p") and not (tag == "p" and self.kind == "li"):
            self.current, self.kind, self.after_label = "", tag, tag != "li"
        elif tag == "br" and self.current is not None:
            self.current += "\n"
        elif tag == "strong" and self.kind == "li":
            self.depth_strong += 1
            if self.depth_strong > 1 or self.current.strip() or self.after_label:
                self.current += "<strong>"  # not the label's own
        elif self.current is not None and self.kind == "li" and not self.after_label and tag != "strong":
            self.current += "<%s>" % tag

    def handle_endtag(self, tag):
        if tag == "strong" and self.kind == "li":
            self.depth_strong -= 1
            if self.depth_strong == 0 and not self.after_label:
                self.items.append(("label", self.current))
                self.after_label = True
                self.current = ""
                return
        if tag in ("td", "th", "h3", "h4", "li", "p") and self.current is not None and not (tag == "p" and self.kind == "li"):
            text = self.current[1:] if tag == "li" and self.current.startswith(" ") else self.current
            self.items.append((tag, text))
            self.current, self.kind = None, None

    def handle_data(self, data):
        if self.current is not None:
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


def punctuation_tables(seed=20270127, count=40, columns=10, rows=4):
    """Tables whose column names (and title, and cells) are made of ASCII punctuation, with a few
    letters and inner spaces: every punctuation character in every place a name goes (a list
    report's label, a group heading, a pages caption, a table heading), the same every run."""
    rnd = random.Random(seed)
    chars = PUNCT * 4 + "ab "
    def name():
        return "".join(rnd.choice(chars) for _ in range(rnd.randint(1, 5))).strip() or rnd.choice(PUNCT)
    out = []
    for k in range(count):
        names = []
        while len(names) < columns:
            n = list(PUNCT[k % len(PUNCT):][:1]) if not names else [name()]
            if n[0] not in names:
                names.append(n[0])
        body = [names]
        firsts = [name(), name()]
        for _ in range(rows):
            body.append([rnd.choice(firsts)] + ["".join(rnd.choice(chars) for _ in range(rnd.randint(1, 3))) for _ in range(columns - 1)])
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(body)
        out.append(("punctuation names %d" % k, text.getvalue(), name() + " " + name()))
    return out


def groups_of(rows):
    """The groups by the first column, in first-seen order, and each group's rows (W12)."""
    order, members = [], {}
    for r in rows:
        if r[0] not in members:
            order.append(r[0])
            members[r[0]] = []
        members[r[0]].append(r)
    return order, members


def check(name, text, binary, kind, failures, stats, title="Title: *a* | b_c \\ <x> &amp; #"):
    want = expected(text, name)
    if want is None:
        return
    header, rows = want[0], want[1:]
    if not rows and kind in ("list", "groups", "list-groups"):
        return  # no rows: nothing to list or group (a table of headings is checked as "table")
    args = [binary, "-f", "markdown", "--units", "keep", "--headers", "keep", "-i", "csv"]
    delimiter = "\t" if name.endswith(".tsv") else DELIMITERS.get(os.path.basename(name))
    if delimiter:
        args += ["-d", delimiter]  # a TSV read as CSV with TAB: Python's csv decodes no backslash escapes
    if kind == "table":
        args += ["--layout", "table"]
    elif kind == "list":
        args += ["--layout", "list"]
    elif kind == "groups":
        args += ["--layout", "table", "--group-by", "1", "--footer", "none"]
    elif kind == "title":
        args += ["--layout", "table", "--title", title]
    elif kind == "list-groups":
        args += ["--layout", "list", "--group-by", "1"]
    elif kind == "pages":
        args += ["--layout", "pages", "--width", "40"]
    run = subprocess.run(args + ["-"], input=text.encode("utf-8"), capture_output=True)
    if run.returncode != 0:
        return  # malformed input (an error case, tested elsewhere): nothing to read back
    markdown = run.stdout.decode("utf-8")
    got = texts(markdown)
    if kind != "pages":
        got = [g for g in got if g[0] != "p"]  # notes under the output: not cells
    cells = 0
    lost = []
    # What each item should read, in output order.
    if kind in ("table", "title"):
        expect = ([("h3", shown(title))] if kind == "title" else []) + [("th", shown(h)) for h in header]
        for r in rows:
            expect += [("td", shown(c)) for c in r]
    elif kind == "groups":
        expect = []
        order, members = groups_of(rows)
        for value in order:
            n = len(members[value])
            expect.append(("h4", "%s: %s (%s row%s)" % (shown(header[0]), shown(value) if value else "(empty)", format(n, ","), "" if n == 1 else "s")))
            expect += [("th", shown(h)) for h in header]
            for r in members[value]:
                expect += [("td", shown(c)) for c in r]
    elif kind == "pages":
        # Each band: its caption naming its columns (when there are several), its headings (the
        # first column's again), its cells. Which columns a band takes is the layout's choice:
        # read from the headings, then checked against the input's order.
        expect, start = [], 1
        bands = [g for g in got if g[0] == "p"]
        for b in range(max(1, len(bands))):
            if bands:
                # A name may hold ", ": the band's columns are the run of headings that reads as
                # its caption's list (none does: the caption is wrong, and so is what follows).
                names = bands[b][1].split(": ", 1)[1] if ": " in bands[b][1] else ""
                end = start + 1
                while end <= len(header) and ", ".join(shown(h) for h in header[start:end]) != names:
                    end += 1
                members = list(range(start, min(end, len(header))))
                expect.append(("p", "Page %d of %d: %s" % (b + 1, len(bands), ", ".join(shown(header[m]) for m in members))))
                start = start + len(members)
            else:
                members = list(range(1, len(header)))
            band = [0] + members
            expect += [("th", shown(header[m])) for m in band]
            for r in rows:
                expect += [("td", shown(r[m])) for m in band]
    elif kind == "list-groups":
        expect = []
        order, members = groups_of(rows)
        for value in order:
            n = len(members[value])
            expect.append(("h4", "%s: %s (%s row%s)" % (shown(header[0]), shown(value) if value else "(empty)", format(n, ","), "" if n == 1 else "s")))
            for r in members[value]:
                expect.append(("h4", shown(r[0]) if r[0] else "—"))
                for h, c in zip(header[1:], r[1:]):
                    expect += [("label", shown(h) + ":"), ("li", shown(c))]
    else:
        expect = []
        for r in rows:
            expect.append(("h4", shown(r[0]) if r[0] else "—"))
            for h, c in zip(header[1:], r[1:]):
                expect += [("label", shown(h) + ":"), ("li", shown(c))]
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
            for cell in line[2:-2].split(" | "):  # a `|` in a cell is always `\|`
                if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", cell):
                    escapes += needless(cell, "| h |\n| --- |\n| %s |\n")
        elif kind in ("list", "list-groups") and line.startswith("- **"):
            # The label and the value, each judged on the line as written (either can change how
            # GFM reads the other).
            label, value = line[4:].split(":** ", 1) if ":** " in line else (line[4:], "")
            if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", value):
                escapes += needless(value, "- **" + label.replace("%", "%%") + ":** %s\n")
            if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", label):
                escapes += needless(label, "- **%s:** " + value.replace("%", "%%") + "\n")
        elif kind in ("list", "list-groups", "pages", "title", "groups") and line.startswith(("#### ", "### ")) or kind == "pages" and line.startswith("Page "):
            head = line.split(" ", 1)[1] if line.startswith("#") else line
            prefix = line[:len(line) - len(head)].replace("%", "%%")
            if re.search(r"\\[!-/:-@\[-`{-~]|&amp;", head):
                escapes += needless(head, prefix + "%s\n")
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
        for kind in ("table", "list", "groups", "title", "list-groups"):
            check(name, text, binary, kind, failures, stats)
    for name, text, title in punctuation_tables():
        for kind in ("table", "list", "groups", "title", "list-groups", "pages"):
            check(name, text, binary, kind, failures, stats, title)
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
