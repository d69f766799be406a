#!/usr/bin/env python3
"""O6 checked in a real browser: tablefmt's HTML page in headless Chromium (Debian's chromium and
chromium-driver, driven by selenium).

Each check names what it would catch:
  - policy: the page's script ran under its own Content-Security-Policy (a wrong hash blocks it)
    and the browser reported no violation;
  - sticky header: after scrolling down, the header row is still at the top of the scroll box,
    with its shadow;
  - sticky column: after scrolling right, the first column is still at its left, with a shadow,
    and a text first column narrows to 25% of the box;
  - sort: a click on a numeric heading sorts by value (9 before 10 before 100), a second click
    reverses, aria-sort says which; Enter on a text heading sorts by text;
  - sheet: a click on a row whose long cell the table cut with … opens a dialog listing that
    field whole, and a cell of JSON as an outline of disclosure triangles; on the keyboard, the
    first row in the Tab order, Down to the next and Enter open it too;
  - wrap: under --wrap 2 a long cell is held to two lines;
  - copy: two checked rows copied as CSV give the heading line and those rows;
  - narrow: at a 375 px wide viewport the table scrolls inside its box, header and first column
    held;
  - print: with print media emulated, the table is a list report (no header row, a block per row,
    each value after its column's label);
  - cells: the sort, whitespace, line breaks (a one-line cell's innerText keeps `↵` between its
    lines) and copy checks of check-html-browser-cells.py;
  - large and groups: check-html-browser-large.py's: 100,000 rows open and sort within a bound
    (the figures printed), stripes across row groups, a group's total row printed;
  - hostile: the hostile corpus (the Markdown check's and attribute-breaking, </script> cases), as
    a page and as a fragment put in a page without any policy, runs no script, adds no element,
    and every cell's text equals the input's.
A screenshot of the page is written to .build/html-page.png (and the narrow one to
.build/html-page-375.png) to be looked at.

Usage: check-html-browser.py BINARY      (make test runs it)
Prints `html-browser: N passed, N failed`; exit status 1 on a failure.
"""
import csv
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("html-browser: needs selenium (python3 -m pip install selenium)")
    print("html-browser: 0 passed, 1 failed")
    sys.exit(1)


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def csv_text(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


META = '{"tags": ["a", "<b>"], "n": 1}'
LONG = "the quick brown fox jumps over the lazy dog and keeps running far past the column's edge: END"


def data_rows(count=120, extra=14):
    """id, a long text (cut by the table), a score whose text order differs from its value order,
    a city, then enough more columns that the table scrolls right."""
    header = ["id", "story", "score", "city", "meta"] + ["extra %d" % k for k in range(extra)]
    scores = [100, 9, 10, 2, 1000, 33, 5, 10.5]
    cities = ["Zürich", "Aachen", "Oslo", "Bergen", "Ålesund"]
    rows = [header]
    for r in range(count):
        rows.append([str(r + 1), (LONG if r == 2 else "short %d" % r), str(scores[r % len(scores)]), cities[r % len(cities)], META]
                    + ["v%d-%d" % (r, k) for k in range(extra)])
    return rows


class Browser:
    def __init__(self):
        options = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800",
                    "--force-device-scale-factor=1"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if binary:
            options.binary_location = binary
        driver = shutil.which("chromedriver")
        self.driver = webdriver.Chrome(options=options, service=Service(driver) if driver else None)
        self.driver.set_page_load_timeout(60)

    def open(self, path, width=1280, height=800):
        self.driver.set_window_size(width, height)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        self.driver.get("file://" + path)
        self.driver.get_log("browser")  # start each page with an empty log

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def close(self):
        self.driver.quit()


# A cell's text as the page holds it: text nodes, <br> as a line break, the `↵` mark shown before
# a one-line cell's <br> (<span class="lb">) left out (the script's own reading).
TEXT = "const text=n=>{let s='';for(const c of n.childNodes)s+=c.nodeName==='BR'?'\\n':c.nodeType===3?c.data:c.className==='lb'?'':text(c);return s};"


def rows_of(b, table="table.d"):
    return b.js(TEXT + "return [...document.querySelectorAll(arguments[0]+' tbody tr')].map(tr=>[...tr.cells]"
                ".filter(c=>!c.classList.contains('k')).map(text))", table)


def main():
    binary = os.path.abspath(sys.argv[1])
    gfm = load("check-markdown-gfm")
    parse = load("check-html-parse")
    cells = load("check-html-browser-cells")
    large = load("check-html-browser-large")
    work = tempfile.mkdtemp(prefix="tablefmt-html-")
    results = []

    def check(name, ok, detail=""):
        results.append((name, bool(ok)))
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok or not detail else ": %s" % (detail,)))

    def page(name, text, *args):
        path = os.path.join(work, name)
        run = subprocess.run([binary, "-f", "html", *args, "-"], input=text.encode("utf-8"), capture_output=True)
        with open(path, "wb") as f:
            f.write(run.stdout)
        return path

    rows = data_rows()
    main_page = page("data.html", csv_text(rows), "--headers", "keep", "--title", "Browser check")
    try:
        b = Browser()
    except Exception as error:
        print("FAIL no browser: %s (Debian: apt-get install chromium chromium-driver)" % repr(error)[:300])
        print("html-browser: 0 passed, 1 failed")
        return 1
    try:
        b.open(main_page)
        scripted = b.js("return document.documentElement.classList.contains('js')")
        violations = [e for e in b.driver.get_log("browser") if "Content Security Policy" in e.get("message", "")]
        check("policy: the script runs under the page's CSP, no violation", scripted and not violations, violations[:2])
        os.makedirs(os.path.join(ROOT, ".build"), exist_ok=True)
        b.driver.save_screenshot(os.path.join(ROOT, ".build", "html-page.png"))

        geometry = ("const s=document.querySelector('.scroll'),h=document.querySelector('thead th:not(.k)'),"
                    "c=document.querySelector('tbody tr:nth-child(60)>td:nth-child(1 of :not(.k))'),sb=s.getBoundingClientRect();"
                    "return {top:sb.top+s.clientTop,left:sb.left+s.clientLeft,k:(q=>q?q.getBoundingClientRect().width:0)(document.querySelector('td.k')),"
                    "head:h.getBoundingClientRect().top,cell:c.getBoundingClientRect().left,scrollTop:s.scrollTop,scrollLeft:s.scrollLeft,"
                    "wide:s.scrollWidth>s.clientWidth,tall:s.scrollHeight>s.clientHeight}")
        b.js("document.querySelector('.scroll').scrollTop=1500")
        g = b.js(geometry)
        time.sleep(0.3)  # the scroll event's handler runs after the scroll
        shadow = b.js("return getComputedStyle(document.querySelector('thead th')).boxShadow")
        check("sticky header: after scrolling down the header row is at the top of the box, with a shadow",
              g["tall"] and g["scrollTop"] > 0 and abs(g["head"] - g["top"]) <= 1 and shadow not in ("", "none"), (g, shadow))
        b.js("const s=document.querySelector('.scroll');s.scrollTop=0;s.scrollLeft=3000")
        g = b.js(geometry)
        check("sticky column: after scrolling right the first column is at the left of the box",
              g["wide"] and g["scrollLeft"] > 0 and abs(g["cell"] - (g["left"] + g["k"])) <= 1, g)
        time.sleep(0.3)  # the scroll event's handler runs after the scroll
        shadow = b.js("return getComputedStyle(document.querySelector('tbody tr>td:nth-child(1 of :not(.k))')).boxShadow")
        check("sticky column: it casts a shadow once scrolled right", shadow and shadow != "none", shadow)
        b.js("document.querySelector('.scroll').scrollLeft=0")

        heads = b.driver.find_elements(By.CSS_SELECTOR, "thead th:not(.k)")
        heads[2].click()
        scores = [float(r[2]) for r in rows_of(b)]
        first_sort = heads[2].get_attribute("aria-sort")
        heads[2].click()
        reverse = [float(r[2]) for r in rows_of(b)]
        check("sort: a numeric heading sorts by value, a second click reverses (aria-sort)",
              scores == sorted(scores) and reverse == sorted(scores, reverse=True) and first_sort == "ascending"
              and heads[2].get_attribute("aria-sort") == "descending", (scores[:6], reverse[:6]))
        heads[3].send_keys(Keys.ENTER)
        cities = [r[3] for r in rows_of(b)]
        check("sort: Enter on a text heading sorts by text", cities == sorted(cities) and heads[3].get_attribute("aria-sort") == "ascending",
              cities[:6])
        b.js("location.reload()")

        cut = b.js("const c=[...document.querySelectorAll('tbody td')].find(c=>c.textContent.endsWith('END'));"
                   "return c && c.scrollWidth>c.clientWidth")
        b.driver.find_element(By.XPATH, "//td[contains(., 'END')]").click()
        sheet = b.js(TEXT + "const d=document.querySelector('dialog');return {open:d.open,fields:[...d.querySelectorAll('dl>div')]"
                     ".map(v=>[v.querySelector('dt').textContent,text(v.querySelector('dd'))])}")
        check("sheet: a row whose cell the table cut opens a dialog with that field whole",
              cut and sheet["open"] and ["story", LONG] in sheet["fields"] and len(sheet["fields"]) == len(rows[0]), (cut, sheet))
        outline = b.js("const dd=[...document.querySelectorAll('dialog dl>div')].find(v=>v.querySelector('dt').textContent==='meta')"
                       ".querySelector('dd');return {summaries:[...dd.querySelectorAll('summary')].map(s=>s.textContent),"
                       "items:[...dd.querySelectorAll('li>span')].map(s=>s.textContent),open:[...dd.querySelectorAll('details')].every(d=>d.open)}")
        check("sheet: a cell holding JSON is an outline of disclosure triangles",
              outline == {"summaries": ["{2}", "tags: [2]"], "items": ["0: a", "1: <b>", "n: 1"], "open": True}, outline)
        b.driver.find_element(By.CSS_SELECTOR, "dialog button").click()

        b.driver.find_element(By.XPATH, "//button[text()='Select rows']").click()
        boxes = b.driver.find_elements(By.CSS_SELECTOR, "tbody td.k input")
        boxes[0].click()
        boxes[4].click()
        b.driver.find_element(By.XPATH, "//button[contains(text(),'as CSV')]").click()
        copied = b.js("return [...document.querySelectorAll('.bar button')].find(b=>b.dataset.csv).dataset.csv")
        want = io.StringIO()
        csv.writer(want, lineterminator="\r\n").writerows([rows[0], rows[1], rows[5]])
        want = want.getvalue()
        check("copy: two checked rows copy as CSV with the heading line", copied == want, repr(copied)[:200])

        b.open(main_page)
        tabbed = b.js("return [...document.querySelectorAll('tbody tr')].filter(r=>r.tabIndex===0).map(r=>r.cells[0].textContent)")
        b.js("document.querySelector('tbody tr[tabindex=\"0\"]').focus()")
        b.driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        b.driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ARROW_UP, Keys.ENTER)
        opened = b.js("const d=document.querySelector('dialog');return d.open&&d.querySelector('h2').textContent")
        check("sheet: one row in the Tab order, the first; Down, Down, Up and Enter open the second's sheet",
              tabbed == [rows[1][0]] and opened == rows[2][0], (tabbed, opened))
        b.js("document.querySelector('dialog').close()")

        named = [["name"] + ["column %d" % k for k in range(12)]]
        named += [["a long first-column name that is wider than a quarter of the box %d" % r] + ["value %d" % k for k in range(12)]
                  for r in range(40)]
        b.open(page("named.html", csv_text(named), "--headers", "keep"), width=1000, height=600)
        before = b.js("return document.querySelector('tbody td').getBoundingClientRect().width")
        b.js("document.querySelector('.scroll').scrollLeft=400")
        time.sleep(0.3)
        after = b.js("const s=document.querySelector('.scroll');return {cell:document.querySelector('tbody td').getBoundingClientRect().width,"
                     "box:s.offsetWidth-2*s.clientLeft}")  # the box's width inside its border, scroll bar included, as cqw counts it
        check("sticky column: a text first column narrows to 25% of the box once scrolled right",
              before > after["box"] * 0.3 and after["cell"] <= after["box"] * 0.25 + 1, (before, after))

        wrapped = [list(r) for r in rows]
        wrapped[3][1] = " ".join([LONG] * 3)
        b.open(page("wrapped.html", csv_text(wrapped), "--headers", "keep", "--wrap", "2"))
        held = b.js(TEXT + "const c=[...document.querySelectorAll('tbody td')].find(c=>c.textContent.endsWith('END')),s=c.querySelector('span'),"
                    "line=parseFloat(getComputedStyle(s).lineHeight),k=s.cloneNode(true);k.style.webkitLineClamp='none';k.style.display='block';"
                    "c.append(k);const all=k.clientHeight/line;k.remove();return {lines:s.clientHeight/line,cut:all>2.5,"
                    "whole:text(c)===arguments[0]}", wrapped[3][1])
        check("wrap: under --wrap 2 a long cell takes two lines, the rest cut, its whole text in the page",
              abs(held["lines"] - 2) < 0.1 and held["cut"] and held["whole"], held)

        b.open(main_page, width=375, height=700)
        b.driver.find_element(By.XPATH, "//button[text()='Select rows']").click()  # held beside the checkbox column
        b.driver.save_screenshot(os.path.join(ROOT, ".build", "html-page-375.png"))
        b.js("const s=document.querySelector('.scroll');s.scrollTop=800;s.scrollLeft=600")
        g = b.js(geometry)
        width = b.js("return document.querySelector('.scroll').getBoundingClientRect().right")
        check("narrow: at 375 px the table scrolls in its box with header and first column held",
              width <= 375 and g["scrollTop"] > 0 and g["scrollLeft"] > 0 and abs(g["head"] - g["top"]) <= 1
              and abs(g["cell"] - (g["left"] + g["k"])) <= 1, (width, g))

        b.open(main_page)
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        printed = b.js("const tr=document.querySelector('tbody tr'),td=tr.querySelectorAll('td:not(.k)');"
                       "return {head:getComputedStyle(document.querySelector('thead')).display,row:getComputedStyle(tr).display,"
                       "cell:getComputedStyle(td[2]).display,label:getComputedStyle(td[2],'::before').content,"
                       "below:td[2].getBoundingClientRect().top>td[1].getBoundingClientRect().top}")
        check("print: emulated print media shows the list report (a block per row, a label per value)",
              printed["head"] == "none" and printed["row"] == "block" and printed["cell"] == "block"
              and printed["label"] == '"score"' and printed["below"], printed)
        b.driver.save_screenshot(os.path.join(ROOT, ".build", "html-print.png"))
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

        cells.check_sort(b, page, check, csv_text)
        cells.check_whitespace(b, page, check, csv_text)
        cells.check_line_breaks(b, page, check, csv_text)
        cells.check_copy(b, page, check, csv_text)
        cells.check_pages(b, page, check, csv_text)
        large.check_groups(b, page, check, csv_text)
        large.check_large(b, page, check, csv_text)

        hostile = gfm.hostile_rows() if hasattr(gfm, "hostile_rows") else ""
        for label, text in (("hostile corpus", hostile), ("attack corpus", parse.attack_table())):
            want = gfm.expected(text, label)
            hostile_page = page("hostile.html", text, "--units", "keep", "--headers", "keep", "--title", parse.ATTACKS[2])
            fragment = subprocess.run([binary, "-f", "html", "--fragment", "--units", "keep", "--headers", "keep", "-"],
                                      input=text.encode("utf-8"), capture_output=True).stdout.decode("utf-8")
            wrapped = os.path.join(work, "fragment.html")
            with open(wrapped, "w", encoding="utf-8") as f:
                f.write("<!DOCTYPE html><meta charset=utf-8><title>f</title><body>" + fragment + "</body>")
            for kind, path, table in (("page", hostile_page, "table.d"), ("fragment", wrapped, "table")):
                b.open(path)
                got = rows_of(b, table)
                heads = b.js(TEXT + "return [...document.querySelectorAll(arguments[0]+' thead th')].filter(c=>!c.classList.contains('k')).map(c=>text(c))", table)
                state = b.js("return {scripts:document.scripts.length,"
                             "extra:document.querySelectorAll('img,svg,iframe,object,embed,textarea,b,a,style:not(head>style)').length,"
                             "handlers:[...document.querySelectorAll('*')].filter(e=>[...e.attributes].some(a=>a.name.startsWith('on'))).length}")
                expect = [[gfm.shown(c) for c in r] for r in want[1:]]
                ok = (got == expect and heads == [gfm.shown(h) for h in want[0]] and state["scripts"] == (1 if kind == "page" else 0)
                      and state["extra"] == 0 and state["handlers"] == 0)
                bad = next((k for k in range(min(len(got), len(expect))) if got[k] != expect[k]), None)
                check("hostile: %s as a %s runs no script, adds no element, every cell equals the input" % (label, kind), ok,
                      (state, bad, got[bad] if bad is not None else len(got), expect[bad] if bad is not None else len(expect)))
    except Exception as error:  # a broken page or driver is a failure, reported, not a traceback
        check("the browser run finished", False, repr(error)[:300])
    finally:
        b.close()
        shutil.rmtree(work, ignore_errors=True)
    failed = sum(1 for _, ok in results if not ok)
    print("html-browser: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
