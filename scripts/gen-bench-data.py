#!/usr/bin/env python3
"""Benchmark data for tablefmt: deterministic, report-like tables (Python standard library only).

`make bench` (scripts/bench.sh, setting BENCH_GEN) runs this to write its inputs into .bench-data/.
The data is generated and never committed: 1M rows are 108 MB of CSV and 185 MB of NDJSON.
With the same seed, every run writes byte-identical files, so numbers from different runs and
machines are measured on the same bytes.

Columns (same values in every format):
  id        integer, 1..N
  name      text; person names as "Last, First" (comma -> RFC 4180 quoting),
            companies with embedded double quotes, accented Latin, CJK, Hangul
  region    short text, some CJK
  qty       integer, may be negative (returns)
  price     decimal with 2 places; empty in CSV/TSV and null in JSON for ~1% rows
  discount  percentage as text, e.g. "12.5%"
  date      ISO date YYYY-MM-DD
  paid      boolean (true/false)
  note      longish free text (about 15..70 chars), sometimes with commas and quotes

Formats written for each size (file stems rows_3, rows_1k, rows_100k, rows_1m, else rows_N):
  <stem>.csv     RFC 4180: fields quoted only when they contain , " or CR/LF;
                 embedded quotes doubled; CRLF is NOT used (LF line ends).
  <stem>.tsv     tab-separated, no quoting (no field contains a tab or newline).
  <stem>.ndjson  one JSON object per line (UTF-8, not \\u-escaped).
  <stem>.json    one JSON array of the same objects, one object per line.

No field contains a newline, so line-oriented tools (column, awk) see one record per line.

Usage:  python3 scripts/gen-bench-data.py [--out DIR] [--seed N] [--sizes 3,1000,100000,1000000]
        (--out defaults to .bench-data/ in the repository, which git ignores)

The peers docs/BENCHMARKS.md compares against, all reading the same generated file in the same run:
Miller 6 (`mlr --icsv --opprint cat`), `csvtool readable`, SQLite's box mode, util-linux
`column -t -s,` (no quote handling) and `awk -F, '{print $1}'` as a floor that formats nothing.
"""
import argparse
import datetime
import json
import os
import random

STEMS = {3: "rows_3", 1000: "rows_1k", 100_000: "rows_100k", 1_000_000: "rows_1m"}

FIRST = ["Anna", "José", "François", "Zoë", "Søren", "Łukasz", "Mary", "John",
         "Ingrid", "Chloé", "Björn", "Renée", "Ahmed", "Priya", "Olga", "Tomás",
         "Émilie", "Jürgen", "Ana", "Li", "Kenji", "Fatima", "Noël", "Ørjan"]
LAST = ["Müller", "García", "Smith", "O'Brien", "Dvořák", "Nguyễn", "Kowalski",
        "Johansson", "Brown", "Núñez", "Lefèvre", "Schäfer", "Rossi", "Öztürk",
        "Jones", "Andersen", "Weiß", "Costa", "Papadopoulos", "Żak"]
CJK_PEOPLE = ["田中 太郎", "佐藤 花子", "王小明", "李娜", "김민준", "이서연",
              "山本 健一", "陈静", "鈴木 一郎", "박지훈"]
COMPANIES = ['Acme, Inc.', 'The "Best" Shop', 'Müller & Söhne GmbH',
             '株式会社サンプル', '北京科技有限公司', 'Café "Zur Post"',
             'Smith, Jones & Co.', 'Ōsaka Trading KK', 'Société Générale SA',
             '삼성물산', 'Björk Design AB', 'Northwind Traders',
             'O\'Reilly Media', 'Äpfel & Birnen', '東京電機株式会社']
REGIONS = ["North", "South", "East", "West", "Central", "EMEA", "APAC",
           "東京", "上海", "서울", "Île-de-France", "Bayern", "São Paulo"]
WORDS = ["order", "shipped", "late", "customer", "requested", "refund",
         "invoice", "pending", "approved", "backorder", "express", "delivery",
         "warehouse", "damaged", "replacement", "partial", "confirmed",
         "quarterly", "review", "discount", "applied", "manual", "check",
         "the", "a", "to", "of", "and", "with", "for", "on", "after",
         "配送", "確認済み", "返品", "très", "rápido", "größe", "naïve", "café"]


def name_for(rng):
    r = rng.random()
    if r < 0.50:
        return "%s, %s" % (rng.choice(LAST), rng.choice(FIRST))      # comma
    if r < 0.65:
        return rng.choice(CJK_PEOPLE)
    if r < 0.75:
        return '%s "%s" %s' % (rng.choice(FIRST), rng.choice(FIRST)[:3],
                               rng.choice(LAST))                      # quotes
    return rng.choice(COMPANIES)


def note_for(rng):
    target = rng.randint(12, 60)
    parts, n = [], 0
    while n < target:
        w = rng.choice(WORDS)
        if rng.random() < 0.08:
            w += ","
        elif rng.random() < 0.02:
            w = '"%s"' % w
        parts.append(w)
        n += len(w) + 1
    s = " ".join(parts).rstrip(",")
    return s[0].upper() + s[1:] + "."


def rows(n, seed):
    rng = random.Random(seed)
    d0 = datetime.date(2020, 1, 1)
    for i in range(1, n + 1):
        qty = rng.randint(1, 5000) if rng.random() > 0.05 else -rng.randint(1, 50)
        price = None if rng.random() < 0.01 else "%.2f" % (rng.lognormvariate(3, 1.2))
        disc = "%.1f%%" % (rng.choice([0, 0, 0, 5, 10, 12.5, 15, 20, 33.3]) +
                           (0 if rng.random() < 0.7 else rng.randint(0, 9) / 10))
        date = (d0 + datetime.timedelta(days=rng.randint(0, 2190))).isoformat()
        paid = rng.random() < 0.8
        yield (i, name_for(rng), rng.choice(REGIONS), qty, price, disc, date,
               paid, note_for(rng))


HEADER = ["id", "name", "region", "qty", "price", "discount", "date", "paid", "note"]


def csv_field(s):
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def text_fields(r):
    i, name, region, qty, price, disc, date, paid, note = r
    return [str(i), name, region, str(qty), price if price is not None else "",
            disc, date, "true" if paid else "false", note]


def json_obj(r):
    i, name, region, qty, price, disc, date, paid, note = r
    # Written by hand so that prices keep exactly two decimals (12.30, not 12.3).
    js = lambda s: json.dumps(s, ensure_ascii=False)
    return ('{"id":%d,"name":%s,"region":%s,"qty":%d,"price":%s,"discount":%s,'
            '"date":%s,"paid":%s,"note":%s}' % (
                i, js(name), js(region), qty, price if price is not None else "null",
                js(disc), js(date), "true" if paid else "false", js(note)))


def write_all(n, outdir, seed):
    stem = os.path.join(outdir, STEMS.get(n, "rows_%d" % n))
    opts = dict(mode="w", encoding="utf-8", newline="\n", buffering=1 << 20)
    with open(stem + ".csv", **opts) as fc, open(stem + ".tsv", **opts) as ft, \
         open(stem + ".ndjson", **opts) as fn, open(stem + ".json", **opts) as fj:
        fc.write(",".join(HEADER) + "\n")
        ft.write("\t".join(HEADER) + "\n")
        fj.write("[\n")
        first = True
        for r in rows(n, seed):
            f = text_fields(r)
            fc.write(",".join(csv_field(x) for x in f) + "\n")
            ft.write("\t".join(f) + "\n")
            o = json_obj(r)
            fn.write(o + "\n")
            fj.write(("" if first else ",\n") + o)
            first = False
        fj.write("\n]\n")
    for ext in ("csv", "tsv", "ndjson", "json"):
        p = "%s.%s" % (stem, ext)
        print("%-40s %12d bytes" % (p, os.path.getsize(p)))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", ".bench-data"))
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--sizes", default="3,1000,100000,1000000")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for n in (int(x) for x in a.sizes.split(",")):
        write_all(n, a.out, a.seed)


if __name__ == "__main__":
    main()
