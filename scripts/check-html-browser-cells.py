"""check-html-browser.py's checks of cells' values in the page (O6), loaded by it:
  - sort: on generated columns (decimals with three fraction digits, decimal commas, -$3, €1,
    percentages, 1e3, units, text with placeholders and empty cells, many ties) a click on each
    heading orders the rows as `--sort COL` does and a second click as `--sort -COL`; would
    catch a sort that reads 0.125 as 125, drops a sign before a currency, puts a placeholder
    among the text or breaks ties out of the input's order;
  - whitespace: cells "  lead", "trail  ", "a  b" and one of spaces only read back exactly
    (`innerText`, which follows the rendering) in the table, under --wrap 2, in a row's sheet and
    printed; would catch white-space rules that collapse them;
  - line breaks: a cell of 30 lines keeps its one-line row as tall as a row of one line, shows
    `↵` where it breaks, as text: its `innerText` is its lines joined by `↵`; and its whole text
    in the row's sheet and on hover; printed, its lines; would catch a `<br>` breaking a one-line
    cell, the text lost from the sheet, or a cell whose text runs its lines together (`line 0line
    1`: a `↵` drawn by the style alone, the `<br>` hidden, leaves nothing between them for copy,
    find in page or a screen reader);
  - copy: every row selected and copied as CSV reads back (Python's csv module) as the input's
    values: tabs, CR LF and LF, controls, quotes, commas, spaces, a heading's line break; records
    end in CR LF (RFC 4180); would catch a copy of the page's visible escapes (`\\t`, `↵`);
  - pages: under --layout pages (240 rows: each band's rows in three row groups) a click on a
    heading of the second band orders every band's rows as `--sort` does, so the bands' rows stay
    in line; would catch a sort of one band alone, or of one row group.
"""
import csv
import io
import random

from selenium.webdriver.common.by import By

TEXTS = ["Alice", "Bob", "bob", "Zed", "Émile", "E\u0301mile", "émile", "Ørsted", "zürich", "10", "9", "a b", "日本"]
PLACEHOLDERS = ["-", "NA", "N/A", "null", "NULL"]


def sort_columns(rng, count=160):
    """An id and the generated columns, as CSV rows (the id says each row's input position)."""
    def dec3():
        return "%.3f" % rng.choice([0.125, 0.5, 0.25, 2, 12.375, 1000.001, -0.125, 7.5])

    def comma():
        return rng.choice(["3,14159", "12,5", "0,5", "-1,5", "2", "1,25", "7,0625", "12,5"])

    def money():
        return rng.choice(["-$3", "$2", "-$10", "$10.50", "$0.125", "$-4", "$2"])

    def euro():
        return rng.choice(["€1", "-€3", "€1.5", "€10", "€0.125", "€-2.25"])

    def pct():
        return rng.choice(["5%", "-2.5%", "10%", "0.125%", "100%", "5%"])

    def exp():
        return rng.choice(["1e3", "2.5E-2", "-3e1", "7", "1000", "0.5", "1e-3"])

    def unit():
        return rng.choice(["3 kg", "12.5 kg", "0.125 kg", "-2 kg", "1000 kg"])

    def text():
        return rng.choice(TEXTS)

    makers = [("dec3", dec3), ("comma", comma), ("money", money), ("euro", euro), ("pct", pct), ("exp", exp),
              ("unit", unit), ("name", text)]
    rows = [["id"] + [name for name, _ in makers]]
    for r in range(count):
        row = ["r%03d" % r]
        for _, make in makers:
            roll = rng.random()
            row.append("" if roll < 0.06 else rng.choice(PLACEHOLDERS) if roll < 0.12 else make())
        rows.append(row)
    return rows


def ids(b):
    return b.js("return [...document.querySelectorAll('table.d tbody tr')].map(tr=>tr.cells[0].textContent)")


def check_sort(b, page, check, csv_text):
    rows = sort_columns(random.Random(6))
    text = csv_text(rows)
    plain = page("sortable.html", text, "--headers", "keep")
    for k, name in enumerate(rows[0][1:], start=1):
        wanted = []
        for key in (name, "-" + name):
            b.open(page("sorted.html", text, "--headers", "keep", "--sort", key))
            wanted.append(ids(b))
        b.open(plain)
        numeric = b.js("return document.querySelectorAll('thead th')[arguments[0]].classList.contains('r')", k)
        head = b.driver.find_elements(By.CSS_SELECTOR, "thead th")[k]
        head.click()
        up = ids(b)
        head.click()
        down = ids(b)
        bad = next((n for n in range(len(up)) if up[n] != wanted[0][n]), None)
        check("sort: clicking %s (%s) orders the rows as --sort %s, again as --sort -%s"
              % (name, "numbers" if numeric else "text", name, name),
              up == wanted[0] and down == wanted[1] and numeric == (name != "name"),
              (numeric, bad, up[bad:bad + 4] if bad is not None else "", wanted[0][bad:bad + 4] if bad is not None else "",
               down == wanted[1]))


SPACED = ["  lead", "trail  ", "a  b", "   "]


def check_whitespace(b, page, check, csv_text):
    rows = [["id"] + ["c%d" % k for k in range(len(SPACED))], ["r1"] + SPACED, ["r2", "x", "y", "z", "w"]]
    read = "return [...document.querySelectorAll('table.d tbody tr')[0].cells].slice(1).map(c=>c.innerText)"
    for wrap in ("1", "2"):
        b.open(page("spaced.html", csv_text(rows), "--headers", "keep", "--wrap", wrap))
        table = b.js(read)
        b.driver.find_elements(By.CSS_SELECTOR, "table.d tbody tr")[0].click()
        sheet = b.js("return [...document.querySelectorAll('dialog dd')].slice(1).map(d=>d.innerText)")
        b.js("document.querySelector('dialog').close()")
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        printed = b.js(read)
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        check("whitespace: leading, trailing, doubled and only spaces kept (--wrap %s) in the table, the sheet and print" % wrap,
              table == SPACED and sheet == SPACED and printed == SPACED, (table, sheet, printed))


LINES = "\n".join("line %d" % k for k in range(30))


def check_line_breaks(b, page, check, csv_text):
    rows = [["id", "text"], ["r1", LINES], ["r2", "one line"]]
    b.open(page("breaks.html", csv_text(rows), "--headers", "keep"))
    got = b.js("const r=document.querySelectorAll('table.d tbody tr'),c=r[0].cells[1];"
               "c.dispatchEvent(new MouseEvent('mouseover',{bubbles:true}));"
               "return {tall:r[0].getBoundingClientRect().height,one:r[1].getBoundingClientRect().height,title:c.title,"
               "inner:c.innerText,marks:getComputedStyle(c.querySelector('.lb')).display,"
               "breaks:getComputedStyle(c.querySelector('.lb+br')).display}")
    b.driver.find_elements(By.CSS_SELECTOR, "table.d tbody tr")[0].click()
    sheet = b.js("return [...document.querySelectorAll('dialog dd')][1].innerText")
    b.js("document.querySelector('dialog').close()")
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    printed = b.js("return document.querySelector('table.d tbody tr').cells[1].innerText")
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    check("line breaks: a one-line row stays one line (\u21b5 shown as text, in its innerText between the lines), "
          "the whole text in its sheet, on hover and printed",
          abs(got["tall"] - got["one"]) < 1 and got["inner"] == LINES.replace("\n", "\u21b5") and got["marks"] != "none"
          and got["breaks"] == "none" and got["title"] == LINES and sheet == LINES and printed == LINES,
          (dict(got, inner=got["inner"][:40]), sheet[:40], printed[:40]))


def check_copy(b, page, check, csv_text):
    rows = [["id", "two\nlines", "tab\there"],
            ["r1", "a\tb", "crlf\r\nend"], ["r2", "lf\nend", 'say "hi", then'], ["r3", "\x1b[2J\u202e", "  lead, trail  "],
            ["r4", "\\t is not a tab", "cr\ralone"]]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(rows)
    for wrap in ("1", "2"):
        b.open(page("copy.html", text.getvalue(), "--headers", "keep", "--wrap", wrap))
        b.driver.find_element(By.XPATH, "//button[text()='Select rows']").click()
        b.driver.find_element(By.CSS_SELECTOR, "thead th.k input").click()
        b.driver.find_element(By.XPATH, "//button[contains(text(),'as CSV')]").click()
        copied = b.js("return [...document.querySelectorAll('.bar button')].find(b=>b.dataset.csv).dataset.csv")
        back = list(csv.reader(io.StringIO(copied, newline="")))
        check("copy: selected rows copy as CSV with the input's raw values, records ending in CR LF (--wrap %s)" % wrap,
              back == rows and copied.endswith("\r\n") and "\r\n" in copied, (back, copied[:160]))


def check_pages(b, page, check, csv_text):
    rows = sort_columns(random.Random(8), count=240)
    args = ("--headers", "keep", "--layout", "pages", "--width", "40")
    b.open(page("sorted.html", csv_text(rows), *args, "--sort", "-exp"))
    wanted = b.js("return [...document.querySelectorAll('table.d')].map(t=>[...t.querySelectorAll('tbody tr')].map(r=>r.cells[0].textContent))")
    b.open(page("bands.html", csv_text(rows), *args))
    band = b.js("return [...document.querySelectorAll('table.d')].findIndex(t=>[...t.tHead.rows[0].cells].some(c=>c.title==='exp'))")
    head = b.driver.find_element(By.XPATH, "(//table[contains(@class,'pg')])[%d]//th[@title='exp']" % (band + 1))
    head.click()
    head.click()
    got = b.js("return [...document.querySelectorAll('table.d')].map(t=>[...t.querySelectorAll('tbody tr')].map(r=>r.cells[0].textContent))")
    check("pages: sorting one band (%d of %d) orders every band as --sort -exp" % (band + 1, len(got)),
          len(got) >= 2 and band > 0 and all(g == wanted[0] for g in got) and wanted[0] == wanted[-1], (band, [g[:4] for g in got], wanted[0][:4]))
