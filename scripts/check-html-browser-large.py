"""check-html-browser.py's checks of a large page and of groups (O6), loaded by it:
  - large: a page of 100,000 generated rows (--zebra) opens, and a heading's click sorts it, each
    within LIMIT seconds (the figures are printed: first paint, DOMContentLoaded, load, the first
    frame after the script ran, each sort to its next frame). A page laid out as one table, or a
    script with work per row at load, took over 60 s to open here; the page as written opens in
    2-4 s on the shared 2-core machine, so the bound catches a regression to 10 times slower, not
    noise. Also: rows far below the screen are not laid out (content-visibility skips their
    row group), the sort orders all 100,000 rows as --sort does (by value, ties in input order),
    and the stripes alternate across the row groups' seams after the sort;
  - groups: with --group-by, the heading's, a row's and the total row's cells line up; groups of
    230 and 130 rows (so each spans row groups of the page) keep their stripes across the seams, a sort keeps each group's rows in it (heading first,
    total last) in --sort's order; printed, a group's total row is a block titled with its label
    ("Total"), each sum after its column's label and no empty field, and a screenshot of it is
    written to .build/html-print-total.png.
"""
import os
import random
import time

from selenium.webdriver.common.by import By

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ROWS = 100_000
LIMIT = 20.0  # seconds, for opening and for a sort
REGIONS = ["EMEA", "APAC", "LATAM", "North", "South"]
WORDS = ["priority", "invoice", "partial", "wrap", "signature", "gift", "returned", "required", "sent", "fragile"]


def large_rows(count=ROWS):
    """id, customer, region, qty, price (two decimals), discount (a percentage: a sort key in
    data-v), shipped, note: the shape of the benchmark's CSV."""
    rng = random.Random(31)
    rows = [["id", "customer", "region", "qty", "price", "discount", "shipped", "note"]]
    for r in range(count):
        rows.append([str(r + 1), "%s, %s" % (rng.choice(["Novák", "Øster", "Müller", "Smith", "Ito"]), rng.choice(["Anna", "Chloé", "Raj"])),
                     rng.choice(REGIONS), str(rng.randint(-500, 999)), "%.2f" % (rng.randint(0, 99999) / 100),
                     rng.choice(["5%", "12.5%", "0%", "20%"]), "2025-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28)),
                     " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))])
    return rows


FRAME = "requestAnimationFrame(()=>setTimeout(()=>done(performance.now()-t)))"
STRIPES = ("return arguments[0].map(n=>{const r=document.querySelectorAll('table.d tbody tr:not(.g,.t)')[n];"
           "return getComputedStyle(r.cells[1]).backgroundColor})")


def timed_sort(b, column):
    """Clicks heading `column` and returns the seconds to the first frame after it."""
    return b.driver.execute_async_script("const done=arguments[1],t=performance.now();"
                                         "document.querySelectorAll('thead th')[arguments[0]].click();" + FRAME, column) / 1000


def alternate(colours):
    return len(set(colours)) == 2 and all(colours[k] != colours[k + 1] for k in range(len(colours) - 1))


def check_large(b, page, check, csv_text):
    rows = large_rows()
    path = page("large.html", csv_text(rows), "--headers", "keep", "--zebra")
    b.driver.set_page_load_timeout(max(120, 3 * LIMIT))
    b.driver.set_script_timeout(max(120, 3 * LIMIT))
    start = time.time()
    b.open(path)
    opened = time.time() - start
    ready = b.driver.execute_async_script("const done=arguments[0],t=0;" + FRAME) / 1000
    nav = b.js("const n=performance.getEntriesByType('navigation')[0],p=performance.getEntriesByName('first-contentful-paint')[0];"
               "return [p?p.startTime:-1,n.domContentLoadedEventEnd,n.loadEventEnd]")
    paint, loaded, load = (x / 1000 for x in nav)
    print("     large: %d rows, %.1f MB: first paint %.2f s, DOMContentLoaded %.2f s, load %.2f s, first frame after it %.2f s "
          "(driver %.2f s)" % (ROWS, len(open(path, "rb").read()) / 1e6, paint, loaded, load, ready, opened))
    check("large: %d rows open within %.0f s (first frame after the script: %.2f s)" % (ROWS, LIMIT, ready),
          0 < ready <= LIMIT and paint <= ready, (paint, loaded, load, ready))
    skipped = b.js("const r=document.querySelectorAll('table.d tbody tr');"
                   "return [r[0].checkVisibility({contentVisibilityAuto:true}),r[50000].checkVisibility({contentVisibilityAuto:true})]")
    check("large: rows far below the screen are not laid out (their row group skipped)", skipped == [True, False], skipped)

    price = rows[0].index("price")
    first = timed_sort(b, price)
    again = timed_sort(b, price)
    print("     large: sort by price %.2f s (keys read), reversed %.2f s" % (first, again))
    check("large: a sort of %d rows draws within %.0f s, and again reversed (%.2f s, %.2f s)" % (ROWS, LIMIT, first, again),
          first <= LIMIT and again <= LIMIT, (first, again))
    got = b.js("return [...document.querySelectorAll('table.d tbody tr')].map(r=>r.cells[0].textContent)")
    want = [r[0] for r in sorted(rows[1:], key=lambda r: -float(r[price]))]  # stable: ties keep the input's order
    check("large: the reversed sort orders every row as --sort -price", got == want,
          next(((k, got[k:k + 3], want[k:k + 3]) for k in range(min(len(got), len(want))) if got[k] != want[k]), len(got)))
    seams = [n for s in (100, 200, 49_900) for n in range(s - 3, s + 3)]
    colours = b.js(STRIPES, seams)
    check("large: after the sort the stripes alternate across the row groups' seams",
          all(alternate(colours[k:k + 6]) for k in range(0, len(colours), 6)), colours)


def group_rows():
    """Two groups, a of 230 rows and b of 130, interleaved, and a numeric first column."""
    rows = [["n", "team", "amount", "note"]]
    for r in range(360):
        rows.append([str(r + 1), "a" if r % 36 < 23 else "b", str((r * 37) % 101), "" if r % 3 else "x"])
    return rows


def check_groups(b, page, check, csv_text):
    rows = group_rows()
    b.open(page("groups.html", csv_text(rows), "--headers", "keep", "--zebra", "--group-by", "team"))
    bodies = b.js("return [...document.querySelectorAll('table.d tbody')].map(t=>[t.className,t.rows.length])")
    sizes = {g: sum(1 for r in rows[1:] if r[1] == g) for g in ("a", "b")}
    check("groups: each group's rows in row groups of 100, the later ones continuing it (class c)",
          [c for c, _ in bodies] == ["", "c", "c", "", "c"] and sizes == {"a": 230, "b": 130}, (bodies, sizes))
    edges = b.js("const rows=[document.querySelector('thead tr'),document.querySelector('tbody tr:not(.g,.t)'),document.querySelector('tr.t')];"
                 "return rows.map(r=>[...r.cells].map(c=>{const x=c.getBoundingClientRect();return [Math.round(x.left),Math.round(x.right)]}))")
    check("groups: the heading's, a row's and the total row's cells line up, column by column (bold text no wider)",
          edges[0] == edges[1] == edges[2] and len(edges[0]) == len(rows[0]), edges)
    seams = [n for s in (100, 200, 230, 330) for n in range(s - 3, s + 3)]
    before = b.js(STRIPES, seams)
    head = b.driver.find_elements(By.CSS_SELECTOR, "thead th")[2]
    head.click()
    after = b.js(STRIPES, seams)
    got = b.js("return [...document.querySelectorAll('table.d tbody')].reduce((a,t)=>{if(t.className!=='c')a.push([]);"
               "a[a.length-1].push(...[...t.rows].map(r=>r.classList.contains('g')?'head':r.classList.contains('t')?'total':r.cells[0].textContent));"
               "return a},[])")
    want = []
    for g in ("a", "b"):
        members = sorted((r for r in rows[1:] if r[1] == g), key=lambda r: int(r[2]))
        want.append(["head"] + [r[0] for r in members] + ["total"])
    # Seams 230 (the last row of a, the first of b) alternate within each group, not across.
    pairs = lambda c: [c[k:k + 6] for k in (0, 6, 18)] + [c[12:15], c[15:18]]
    check("groups: stripes run on across row groups, before and after a sort",
          all(alternate(p) for p in pairs(before)) and all(alternate(p) for p in pairs(after)), (before, after))
    check("groups: a sort orders each group's rows as --sort, heading first and total last", got == want,
          [(g[:4], g[-3:]) for g in got])

    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    total = b.js("const tr=document.querySelector('table.d tr.t'),shown=[...tr.cells].filter(c=>getComputedStyle(c).display!=='none');"
                 "shown.sort((x,y)=>x.getBoundingClientRect().top-y.getBoundingClientRect().top);"
                 "return {title:[shown[0].textContent,getComputedStyle(shown[0]).fontWeight,getComputedStyle(shown[0],'::before').content],"
                 "fields:shown.slice(1).map(c=>[getComputedStyle(c,'::before').content,c.textContent,getComputedStyle(c).fontWeight])}")
    sums = {g: (sum(int(r[0]) for r in rows[1:] if r[1] == g), sum(int(r[2]) for r in rows[1:] if r[1] == g)) for g in ("a",)}
    check("print: a total row is a block titled Total (bold), each sum (not bold) after its column's label, no empty field",
          total == {"title": ["Total", "600", "none"], "fields": [['"n"', str(sums["a"][0]), "400"], ['"amount"', str(sums["a"][1]), "400"]]},
          (total, sums))
    b.js("document.querySelector('table.d tr.t').scrollIntoView()")
    b.driver.save_screenshot(os.path.join(ROOT, ".build", "html-print-total.png"))
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
