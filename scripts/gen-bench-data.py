#!/usr/bin/env python3
"""Benchmark inputs for tablefmt, written by this project: report-like rows, the same in four formats.

`make bench` (scripts/bench.sh) runs this to fill .bench-data/ (ignored by git; never commit the
output: 1M rows are about 110 MB of CSV and 190 MB of NDJSON). A seed fixes every byte, so runs on
different days or machines measure the same input.

Each row has nine fields:
  id        1..N
  customer  people as "Family, Given" (a comma, so CSV quotes it), firms with "double quotes",
            accented Latin, Japanese, Chinese and Korean names
  region    a short word, some in CJK
  qty       an integer, a few negative (returns)
  price     two decimals; about 1 row in 100 has none (empty in CSV/TSV, null in JSON)
  discount  a percentage written as text: "0%", "12.5%"
  shipped   an ISO date, YYYY-MM-DD
  paid      true or false
  note      15 to 70 characters of words, sometimes with a comma or quotes; with --long-notes,
            40 to 140 characters of words in several scripts (accented Latin, Vietnamese, Japanese,
            Chinese, Korean): every row's note is long non-ASCII text, to be cut or wrapped at a
            terminal's width

Files, for each size: rows_<size>.csv (RFC 4180, quoted only where needed, LF line ends),
.tsv (no field holds a tab or a line break, so no quoting), .ndjson (one object per line) and
.json (an array, one object per line). Size stems: 3 -> rows_3, 1000 -> rows_1k, 100000 ->
rows_100k, 1000000 -> rows_1m, others rows_<N>.

With --long-notes the files are named text_<size> (text_1m.csv …) instead of rows_<size>.

Usage: python3 scripts/gen-bench-data.py [--out DIR] [--seed N] [--sizes 3,1000,100000,1000000] [--long-notes]
"""
import argparse
import datetime
import json
import os
import random

FAMILY = ["Müller", "García", "O'Brien", "Nguyễn", "Øster", "Smith", "Kowalski", "Dubois", "Rossi", "Novák"]
GIVEN = ["Anna", "José", "Chloé", "Li", "Søren", "Ada", "Mateus", "Zoë", "Ines", "Raj"]
FIRMS = ['The "Best" Shop', "ACME Corp", "株式会社サンプル", "北京贸易有限公司", "주식회사 한빛", "Café Zürich", "Nordic AB", '"Quoted" Ltd']
REGIONS = ["EMEA", "APAC", "North", "South", "West", "東京", "서울", "LATAM"]
WORDS = ["repeat", "customer", "express", "signature", "required", "invoice", "sent", "returned",
         "damaged", "gift", "wrap", "priority", "backorder", "partial", "refund", "called", "twice"]

# Words of long notes: Latin with accents, Vietnamese, Japanese, Chinese and Korean.
LONG_WORDS = ["Lieferung", "größer", "Rückgabe", "später", "très", "reçu", "après", "entrega", "señal", "pedido",
              "đã", "giao", "hàng", "được", "xác", "nhận", "配送", "確認済み", "返品", "お客様", "至急", "发票", "已发货",
              "退款", "배송", "확인", "반품", "고객", "and", "the", "order", "for", "with", "Zoë", "Ångström"]


def stem(size, prefix="rows_"):
    names = {1000: "1k", 100000: "100k", 1000000: "1m"}
    return prefix + names.get(size, str(size))


def customer(rnd):
    if rnd.random() < 0.7:
        return f"{rnd.choice(FAMILY)}, {rnd.choice(GIVEN)}"
    return rnd.choice(FIRMS)


def note(rnd):
    words = []
    while sum(len(w) + 1 for w in words) < rnd.randint(15, 70):
        words.append(rnd.choice(WORDS))
    text = " ".join(words)
    roll = rnd.random()
    if roll < 0.15:
        text = text.replace(" ", ", ", 1)
    elif roll < 0.2:
        text = f'said "{text}"'
    return text


def long_note(rnd):
    target = rnd.randint(40, 140)
    words = []
    while sum(len(w) + 1 for w in words) < target:
        words.append(rnd.choice(LONG_WORDS))
    text = " ".join(words)
    if rnd.random() < 0.1:
        text = text.replace(" ", ", ", 1)
    return text[0].upper() + text[1:] + "."


def generate(size, seed, long_notes=False):
    """Yields each row as a dict of Python values (None for a missing price)."""
    rnd = random.Random(seed * 1_000_003 + size)
    start = datetime.date(2024, 1, 1)
    for i in range(1, size + 1):
        qty = rnd.randint(1, 500) * (-1 if rnd.random() < 0.03 else 1)
        price = None if rnd.random() < 0.01 else round(rnd.uniform(0.5, 999.0), 2)
        discount = rnd.choice(["0%", "5%", "10%", "12.5%", "15%", "20%"])
        yield {
            "id": i,
            "customer": customer(rnd),
            "region": rnd.choice(REGIONS),
            "qty": qty,
            "price": price,
            "discount": discount,
            "shipped": (start + datetime.timedelta(days=rnd.randint(0, 730))).isoformat(),
            "paid": rnd.random() < 0.8,
            "note": long_note(rnd) if long_notes else note(rnd),
        }


def as_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def csv_quoted(text):
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def json_value(key, value):
    if key == "price" and value is not None:
        return f"{value:.2f}"  # two decimals, as in the CSV
    return json.dumps(value, ensure_ascii=False)


def write(size, out, seed, long_notes=False):
    base = os.path.join(out, stem(size, "text_" if long_notes else "rows_"))
    files = {ext: open(base + ext, "w", encoding="utf-8", newline="") for ext in (".csv", ".tsv", ".ndjson", ".json")}
    try:
        header = None
        files[".json"].write("[\n")
        for n, row in enumerate(generate(size, seed, long_notes)):
            if header is None:
                header = list(row)
                files[".csv"].write(",".join(header) + "\n")
                files[".tsv"].write("\t".join(header) + "\n")
            texts = [as_text(row[k]) for k in header]
            files[".csv"].write(",".join(csv_quoted(t) for t in texts) + "\n")
            files[".tsv"].write("\t".join(texts) + "\n")
            obj = "{" + ",".join(f"{json.dumps(k)}:{json_value(k, row[k])}" for k in header) + "}"
            files[".ndjson"].write(obj + "\n")
            files[".json"].write(("," if n else "") + obj + "\n")
        files[".json"].write("]\n")
    finally:
        for f in files.values():
            f.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".bench-data"))
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--sizes", default="3,1000,100000,1000000")
    parser.add_argument("--long-notes", action="store_true", help="long non-ASCII notes, files named text_<size>")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for size in (int(s) for s in args.sizes.split(",") if s):
        write(size, args.out, args.seed, args.long_notes)


if __name__ == "__main__":
    main()
