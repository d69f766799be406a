#!/usr/bin/env python3
"""O6 checked with an independent HTML parser (Python's html.parser): tablefmt's HTML, as a page
(-f html) and as a fragment (--fragment), read back.

For every input the Markdown check uses (every UTF-8 fixture and real-world file, its hostile
corpus and its tables of punctuation names, scripts/check-markdown-gfm.py) and a corpus of
attribute-breaking, `</script>`, `</style>` and comment cases made here (in cells, headings and
the title), each drawn as a table, with a title (and `--wrap 2`), in groups, as a list report and
as pages:
  - no element, attribute or script was added: every tag is one tablefmt writes in that mode, with
    only its attributes (class values from the page's own set; a fragment has no class, style, id
    or script), and a page has one <style> and one <script>, the ones its Content-Security-Policy
    names by their SHA-256;
  - every heading, cell, title, group heading and list-report label and value reads back as the
    input holds it (O5: controls as visible escapes, a LF or CR LF as a line break, <br>; in a
    one-line cell the <br> right after a <span class="lb"> holding only `↵`, the mark the style
    shows on the line, which is not the cell's text).

Usage: check-html-parse.py BINARY      (make test runs it)
Prints `html-parse: N passed, N failed` (one per output checked); exit status 1 on a failure.
"""
import base64
import csv
import hashlib
import html.parser
import importlib.util
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gfm", os.path.join(HERE, "check-markdown-gfm.py"))
gfm = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(gfm)  # its corpus and its reading of what a cell should show
except SystemExit:
    print("html-parse: needs cmarkgfm for the Markdown check's module (python3 -m pip install cmarkgfm)")
    sys.exit(1)
shown = gfm.shown

ATTACKS = ['"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", "</script><script>alert(1)</script>",
           "</style><script>alert(2)</script>", "<!--", "-->", "<![CDATA[x]]>", "</textarea><b>x</b>",
           "javascript:alert(3)", "&lt;script&gt;", "a\u2028b", "\x00nul", " onmouseover=alert(4) x=",
           "`${alert(5)}`", "</td></tr></tbody></table><script>alert(6)</script>", "\u202egnp.exe", "&#x3c;"]


def attack_table():
    rows = [["id", ATTACKS[0], ATTACKS[2], "n"]]
    for k, a in enumerate(ATTACKS):
        rows.append([a, ATTACKS[(k + 1) % len(ATTACKS)], ATTACKS[(k + 5) % len(ATTACKS)] + " tail", str(k)])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


PAGE_TAGS = {
    "html": {"lang"}, "head": set(), "meta": {"charset", "name", "content", "http-equiv"}, "title": set(),
    "style": set(), "body": set(), "script": set(), "div": {"class", "tabindex", "role", "aria-label"},
    "table": {"class"}, "caption": set(), "colgroup": set(), "col": set(), "thead": set(), "tbody": {"class"},
    "tr": {"class"}, "th": {"scope", "class", "title", "colspan"}, "td": {"class", "data-v"}, "span": {"class", "data-c"}, "br": {"class"},
    "p": {"class"}, "h1": set(), "h2": set(), "article": {"class"}, "dl": set(), "dt": set(), "dd": set(),
}
FRAGMENT_TAGS = {"table": set(), "thead": set(), "tbody": set(), "tr": set(), "th": {"align", "colspan"},
                 "td": {"align", "colspan"}, "details": {"open"}, "summary": set(), "br": set()}
CLASS = re.compile(r"^(d|t\d+|pg|z|w2|scroll|r|n|f\d+|g|t|c|l|note|row|lb)( (d|t\d+|b|pg|z|w2))*$")
# A page's marks (O6): a number's sort key, or empty for a placeholder; the control a visible
# escape stands for.
VALUES = {"data-v": re.compile(r"^([-+]?[0-9]*\.?[0-9]*([eE][-+]?[0-9]+)?)$"), "data-c": re.compile(r"^[0-9a-f]{1,4}$")}


class Reader(html.parser.HTMLParser):
    """Items in output order: (kind, text) for each caption/summary, heading, cell, group
    heading, list title, label and value; `bad` lists every tag or attribute tablefmt does not
    write; `raw` keeps the style's and script's text."""

    def __init__(self, fragment):
        super().__init__(convert_charrefs=True)
        self.fragment, self.items, self.bad, self.raw = fragment, [], [], {}
        self.current, self.kind, self.stack, self.section, self.row_class, self.cdata = None, None, [], None, None, None
        # A one-line cell's line-break mark, <span class="lb">↵</span> before its <br>: the text
        # inside it (`mark`, None outside one), and whether the <br> is still to come.
        self.mark, self.mark_br = None, False

    def end_cell(self):
        if self.current is not None and self.kind in ("th", "td", "group", "note", "total", "label", "value"):
            self.items.append((self.kind, self.current))
            self.current, self.kind = None, None

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th", "tr", "tbody", "thead"):
            self.end_cell()  # a page leaves out the end tags of cells and rows, as HTML allows
        allowed = (FRAGMENT_TAGS if self.fragment else PAGE_TAGS).get(tag)
        if allowed is None:
            self.bad.append("<%s>" % tag)
        for name, value in attrs:
            if allowed is not None and name not in allowed:
                self.bad.append("<%s %s>" % (tag, name))
            if name == "class" and not CLASS.match(value or ""):
                self.bad.append("class=%r" % value)
            if name in VALUES and not VALUES[name].match(value or ""):
                self.bad.append("%s=%r" % (name, value))
        a = dict(attrs)
        if self.mark_br and tag != "br":
            self.bad.append("<span class=lb> not followed by <br>")
        self.mark_br = False
        if tag == "span" and a.get("class") == "lb":
            self.mark = ""
        if tag in ("script", "style"):
            self.cdata, self.raw[tag] = tag, self.raw.get(tag, []) + [""]
        if tag in ("thead", "tbody"):
            self.section = tag
        if tag == "tr":
            self.row_class, self.cells_in_row = a.get("class"), 0
        if tag == "br":
            if self.current is None:
                self.bad.append("<br> outside a cell")
            else:
                self.current += "\n"
            return
        if self.current is not None and not (tag == "span" and self.kind in ("th", "td", "dd", "h2")):
            self.bad.append("<%s> inside %s" % (tag, self.kind))
        kind = None
        if tag in ("caption", "summary", "h1", "h2", "dt", "dd", "p"):
            kind = tag
        elif tag in ("th", "td"):
            if "colspan" in a:
                kind = "group" if tag == "th" else "note"
            elif self.row_class == "t":
                kind = "total"
            elif self.section == "thead":
                kind = "th"
            elif self.section is None and self.fragment:
                kind = "label" if tag == "th" else "value"  # a list report's block in a fragment
            else:
                kind = "td"
        if kind:
            self.current, self.kind = "", kind

    def handle_endtag(self, tag):
        if tag == "span" and self.mark is not None:
            # The mark the style shows for the line break after it: not the cell's text.
            if self.mark != "\u21b5":
                self.bad.append("<span class=lb> holding %r" % self.mark)
            self.mark, self.mark_br = None, True
            return
        if self.mark_br:
            self.bad.append("<span class=lb> not followed by <br>")
            self.mark_br = False
        if tag in ("tr", "tbody", "thead", "table"):
            self.end_cell()
        if tag in ("script", "style"):
            self.cdata = None
        if tag in ("thead", "tbody"):
            self.section = None
        if self.current is not None and tag in ("caption", "summary", "h1", "h2", "dt", "dd", "p", "th", "td"):
            self.items.append((self.kind, self.current))
            self.current, self.kind = None, None

    def handle_data(self, data):
        if self.mark is not None:
            self.mark += data
            return
        if self.mark_br:
            self.bad.append("<span class=lb> not followed by <br>")
            self.mark_br = False
        if self.cdata:
            self.raw[self.cdata][-1] += data
        elif self.current is not None:
            self.current += data


def sha(text):
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def expected_items(kind, header, rows, title, fragment):
    """What the reader should find, in order (notes left out)."""
    label = lambda v, n: "%s: %s (%s row%s)" % (shown(header[0]), shown(v) if v else "(empty)", format(n, ","), "" if n == 1 else "s")
    items = []
    if kind == "title":
        items.append(("summary" if fragment else "caption", shown(title)))
    if kind in ("table", "title", "groups"):
        items += [("th", shown(h)) for h in header]
        if kind == "groups":
            order, members = gfm.groups_of(rows)
            for v in order:
                items.append(("group", label(v, len(members[v]))))
                for r in members[v]:
                    items += [("td", shown(c)) for c in r]
        else:
            for r in rows:
                items += [("td", shown(c)) for c in r]
    elif kind == "list":
        for r in rows:
            items.append(("summary" if fragment else "h2", shown(r[0]) if r[0] else "—"))
            for h, c in zip(header[1:], r[1:]):
                items += [("label" if fragment else "dt", shown(h)), ("value" if fragment else "dd", shown(c))]
    return items


def check(name, text, binary, kind, fragment, failures, title):
    want = gfm.expected(text, name)
    if want is None:
        return None
    header, rows = want[0], want[1:]
    if not rows and kind in ("list", "groups"):
        return None
    args = [binary, "-f", "html", "--units", "keep", "--headers", "keep", "-i", "csv"] + (["--fragment"] if fragment else [])
    delimiter = "\t" if name.endswith(".tsv") else gfm.DELIMITERS.get(os.path.basename(name))
    if delimiter:
        args += ["-d", delimiter]
    args += {"table": ["--layout", "table"], "title": ["--layout", "table", "--title", title, "--wrap", "2"],
             "groups": ["--layout", "table", "--group-by", "1", "--footer", "none"], "list": ["--layout", "list"],
             "pages": ["--layout", "pages", "--width", "40", "--title", title]}[kind]
    run = subprocess.run(args + ["-"], input=text.encode("utf-8"), capture_output=True)
    if run.returncode != 0:
        return None  # malformed input: an error case, tested elsewhere
    out = run.stdout.decode("utf-8")
    reader = Reader(fragment)
    reader.feed(out)
    reader.close()
    problems = list(reader.bad)
    if not fragment:
        if [len(reader.raw.get(t, [])) for t in ("style", "script")] != [1, 1]:
            problems.append("style/script count %r" % {t: len(v) for t, v in reader.raw.items()})
        else:
            csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', out)
            policy = csp.group(1) if csp else ""
            for t in ("style", "script"):
                if "%s-src 'sha256-%s'" % (t, sha(reader.raw[t][0])) not in policy:
                    problems.append("the policy does not name the %s's hash: %s" % (t, policy))
            if "default-src 'none'" not in policy or "unsafe" in policy:
                problems.append("policy %r" % policy)
    if kind == "pages":
        got = [i for i in reader.items if i[0] in ("th", "td")]
        # Each band repeats the first column: every input cell must be somewhere, every shown one
        # must be an input cell at its place.
        cells = {("th", shown(h)) for h in header} | {("td", shown(c)) for r in rows for c in r}
        stray = [g for g in got if g not in cells]
        if stray:
            problems.append("pages: %d cells not in the input, first %r" % (len(stray), stray[0]))
    else:
        skip = ("p", "note", "total") + (("h1",) if kind == "list" else ())
        got = [i for i in reader.items if i[0] not in skip]
        if fragment and kind == "list":
            got = [("summary", g[1]) if g[0] == "summary" else g for g in got]
        expect = expected_items(kind, header, rows, title, fragment)
        if got != expect:
            k = next((k for k in range(min(len(got), len(expect))) if got[k] != expect[k]), min(len(got), len(expect)))
            problems.append("item %d: expected %r, got %r (%d items, %d expected)" % (
                k, expect[k] if k < len(expect) else None, got[k] if k < len(got) else None, len(got), len(expect)))
    if problems:
        failures.append("%s (%s%s): %s" % (name, kind, ", fragment" if fragment else "", "; ".join(problems[:3])))
        return False
    return True


def main():
    binary = sys.argv[1]
    failures, passed = [], 0
    hostile_title = 'T "<b>" \'x\' </title><script>alert(7)</script> & \x1b[2J \u202e'
    inputs = list(gfm.inputs()) + [("attack corpus", attack_table())]
    jobs = [(n, t, hostile_title) for n, t in inputs] + [(n, t, title) for n, t, title in gfm.punctuation_tables(count=10)]
    for name, text, title in jobs:
        for kind in ("table", "title", "groups", "list", "pages"):
            for fragment in (False, True):
                ok = check(name, text, binary, kind, fragment, failures, title)
                passed += ok is True
    for failure in failures[:15]:
        print("FAIL", failure)
    print("html-parse: %d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
