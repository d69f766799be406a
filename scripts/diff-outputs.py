#!/usr/bin/env python3
"""Differential check: two tablefmt binaries must print the same bytes.

Runs OLD and NEW on the same inputs with the same options and compares standard output, standard
error and the exit status of each run, byte for byte. Used before a change that should not change
any output (a speed change, docs/BENCHMARKS.md): the binary before it against the one after it.

Inputs:
  - every golden case under Fixtures/cases, with its own arguments, then with each option set of
    the chosen paths in place of its options (its input file kept);
  - every CSV, TSV, JSON and JSON Lines file under Fixtures/examples and Tests/Conformance;
  - the benchmark generator's rows (scripts/gen-bench-data.py) at small sizes, one large enough to
    be read in pieces on both cores, and 1,000 rows with long non-ASCII notes (--long-notes);
  - random tables (CSV and TSV) whose cells hold what the renderers treat apart: Markdown
    punctuation, spaces at the edges, URLs, units, numbers, dates, empty cells, CJK, marks,
    controls, bidirectional controls, line breaks, long text; some large enough for pieces.
Each file is given by name and, for a share of the cases, on standard input (a pipe).

Usage: python3 scripts/diff-outputs.py OLD_BIN NEW_BIN [--paths markdown,list,pages,box,ansi,group,html,tsv,plain,sort]
       [--random N] [--seed S] [--jobs J] [--quick]
Exit status 0 when every case matches; 1 with the first differences printed.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Option sets per path; GROUP stands for a column to group by (the input's second column).
PATHS = {
    "plain": [["-w", "0"], ["-w", "80"], ["-w", "50", "--wrap", "2"]],
    "markdown": [["-f", "markdown"], ["-f", "markdown", "-w", "50"], ["-f", "markdown", "--layout", "list"],
                 ["-f", "markdown", "--layout", "pages", "-w", "60"], ["-f", "markdown", "--group-by", "GROUP"],
                 ["-f", "markdown", "--units", "keep", "-w", "0"]],
    "list": [["--layout", "list", "-w", "80"], ["--layout", "list", "-w", "30"], ["--layout", "list", "-w", "0"],
             ["--layout", "list", "-w", "80", "--color", "always"], ["--layout", "list", "-w", "40", "--wrap", "2", "--units", "keep"],
             ["--layout", "list", "-w", "60", "--ambiguous-wide", "--null", "n/a"]],
    "pages": [["--layout", "pages", "-w", "80"], ["--layout", "pages", "-w", "40", "--color", "always"],
              ["--layout", "pages", "-w", "60", "--style", "box"]],
    "box": [["--style", "box", "-w", "0"], ["--style", "box", "-w", "60"], ["--style", "box", "-w", "0", "--color", "always", "--zebra"],
            ["--style", "ascii", "-w", "0"], ["--style", "compact", "-w", "70"]],
    "ansi": [["--color", "always", "-w", "0"], ["--color", "always", "--zebra", "-w", "80"],
             ["--color", "always", "-w", "60", "--wrap", "2"]],
    "group": [["--group-by", "GROUP", "-w", "0"], ["--group-by", "GROUP", "-w", "70", "--style", "box"],
              ["--group-by", "GROUP", "-w", "0", "--color", "always"], ["--group-by", "GROUP", "-w", "0", "--footer", "none"]],
    "html": [["-f", "html"], ["-f", "html", "--fragment"], ["-f", "html", "--group-by", "GROUP", "--wrap", "2"],
             ["-f", "html", "--fragment", "--layout", "list"]],
    # Text cut and wrapped to a width (issue 47): narrow widths, both ellipsis modes, two lines, pages,
    # list reports, East Asian ambiguous characters wide.
    "fit": [["-w", "20"], ["-w", "40", "--ellipsis", "middle"], ["-w", "60", "--wrap", "2"], ["-w", "80", "--ellipsis", "middle", "--wrap", "2"],
            ["-w", "40", "--wrap", "3"], ["--layout", "pages", "-w", "40", "--ellipsis", "middle"], ["--layout", "list", "-w", "20"],
            ["--layout", "list", "-w", "40", "--ellipsis", "middle"], ["-w", "30", "--ambiguous-wide"],
            ["-w", "50", "--wrap", "2", "--ambiguous-wide", "--ellipsis", "middle"], ["-f", "markdown", "-w", "40"],
            ["-f", "markdown", "-w", "30", "--ellipsis", "middle"], ["--color", "always", "-w", "40", "--wrap", "2"]],
    "tsv": [["-w", "0", "-i", "tsv"], ["-f", "markdown", "-i", "tsv"], ["--layout", "list", "-w", "80", "-i", "tsv"]],
    # Rows held, sorted, spilled to runs on disk (--memory-limit 1M), limited, a pipe's window.
    "sort": [["--sort", "GROUP", "-w", "0"], ["--sort", "-GROUP", "--group-by", "GROUP", "-w", "0"],
             ["--group-by", "GROUP", "--memory-limit", "1M", "-w", "0"], ["--sort", "GROUP", "--memory-limit", "1M", "-w", "0"],
             ["--sort", "-GROUP", "--group-by", "GROUP", "--memory-limit", "1M", "-w", "0"],
             ["--limit", "7", "--sort", "GROUP", "-w", "0"], ["--limit", "7", "--sort", "GROUP", "--memory-limit", "1M", "-w", "0"],
             ["--window", "3", "-w", "60"], ["--limit", "5", "-w", "0"], ["--layout", "pages", "--sort", "GROUP", "-w", "70"],
             ["--limit", "9", "--group-by", "GROUP", "-w", "0"]],
}

INPUT_EXTENSIONS = (".csv", ".tsv", ".tab", ".json", ".jsonl", ".ndjson", ".ssv")


def run(binary, args, cwd, stdin_path):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TABLEFMT_VIEW", "TERM")}
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        p = subprocess.run([binary] + args, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""
    finally:
        if stdin_path:
            stdin.close()


def second_column(path):
    """The name of a file's second column as its header writes it, or "2"."""
    try:
        with open(path, "rb") as f:
            head = f.readline().decode("utf-8", "replace").rstrip("\r\n")
    except OSError:
        return "2"
    for sep in ("\t", ",", ";", "|"):
        parts = head.split(sep)
        if len(parts) > 1 and parts[1] and '"' not in parts[1] and parts[1].strip() == parts[1] and parts[1].isprintable():
            return parts[1]
    return "2"


def expand(options, path):
    return [second_column(path) if o == "GROUP" else "-" + second_column(path) if o == "-GROUP" else o for o in options]


# ---------------------------------------------------------------- random tables

WORDS = ["alpha", "beta", "snake_case", "a * b", "**bold**", "_x_", "~~del~~", "~one~", "`code`", "``", "[link](x)",
         "[a]", "<b>", "<", "a < b", "&amp;", "&#35;", "AT&T", "pipe|pipe", "back\\slash", "\\*", "# head", "> quote",
         "- item", "1. one", "http://example.com/a_b", "www.example.org", "https://x.y/*z*", "ftp://f.g", "Müller",
         "東京", "서울", "株式会社サンプル", "Nguyễn", "e\u0301", "\u0301lead", "emoji 😀", "👩\u200d💻", "\u202eevil",
         "\ufeffbom", "ctl\x01x", "tab\there", "line\nbreak", "cr\r\nlf", "…", "dash—dash", "¥100", "a  b", "x#", "###",
         # Text to cut and wrap: long non-ASCII words and notes, paths, flags, selectors, marks, ambiguous width.
         "Lieferung größe très 配送 確認済み après", "返品の確認済み", "/usr/local/share/doc/tablefmt", "C:/Users/Zoë/Documents",
         "🇩🇪🇯🇵", "❤\ufe0f", "ภาษาไทย", "नमस्ते", "한국어 문장입니다", "±½°×÷", "Ελληνικά Кириллица", "ｆｕｌｌｗｉｄｔｈ",
         "🧑🏽\u200d🚀 launch"]


def random_cell(rnd, kind):
    r = rnd.random()
    if r < 0.06:
        return ""
    if kind == "int":
        return str(rnd.randint(-99999, 99999)) if r > 0.1 else rnd.choice(["1,234", "-0", "+7", "1e5"])
    if kind == "dec":
        return f"{rnd.uniform(-1000, 1000):.{rnd.randint(0, 4)}f}"
    if kind == "pct":
        return f"{rnd.choice([0, 5, 12.5, 100, -3])}%"
    if kind == "unit":
        return rnd.choice(["$", "€"]) + f"{rnd.uniform(0, 500):.2f}" if r < 0.5 else f"{rnd.randint(1, 900)} kg"
    if kind == "date":
        return f"20{rnd.randint(10, 30)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
    if kind == "bool":
        return rnd.choice(["true", "false", "yes", "no"])
    # text
    n = rnd.choice([1, 1, 2, 3, 6]) if r < 0.97 else rnd.randint(20, 60)
    text = " ".join(rnd.choice(WORDS) if rnd.random() < 0.4 else rnd.choice(WORDS[:3] + ["plain", "text", "word", "Anna", "Li"])
                    for _ in range(n))
    if rnd.random() < 0.08:
        text = " " * rnd.randint(1, 3) + text
    if rnd.random() < 0.08:
        text = text + " " * rnd.randint(1, 3)
    return text


def write_table(path, rnd, rows, tsv):
    kinds = [rnd.choice(["int", "dec", "pct", "unit", "date", "bool", "text", "text", "text"]) for _ in range(rnd.randint(1, 10))]
    header = [rnd.choice(["id", "name", "region", "qty", "price ($)", "note", "a|b", "*star*", "snake_case", "Köln", "東京", "", "x" * 30])
              for _ in kinds]
    with open(path, "w", encoding="utf-8", newline="") as f:
        def line(cells):
            if tsv:
                return "\t".join(c.replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n") for c in cells) + "\n"
            out = []
            for c in cells:
                if any(ch in c for ch in ',"\r\n') or (c and c[0] == " " and rnd.random() < 0.5):
                    c = '"' + c.replace('"', '""') + '"'
                out.append(c)
            return ",".join(out) + "\n"
        f.write(line(header))
        for _ in range(rows):
            f.write(line([random_cell(rnd, k) for k in kinds]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--paths", default=",".join(PATHS))
    ap.add_argument("--random", type=int, default=60, help="random tables (a few of them large)")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="skip the conformance files and the large inputs")
    a = ap.parse_args()
    paths = [p for p in a.paths.split(",") if p]
    for p in paths:
        if p not in PATHS:
            sys.exit(f"diff-outputs: unknown path {p} ({', '.join(PATHS)})")
    option_sets = [o for p in paths for o in PATHS[p]]
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    work = tempfile.mkdtemp(prefix="tablefmt-diff-")
    cases = []  # (label, args, cwd, stdin)

    # Golden cases: as recorded, then with each option set (the input file kept).
    cases_dir = os.path.join(REPO, "Fixtures", "cases")
    for name in sorted(os.listdir(cases_dir)):
        d = os.path.join(cases_dir, name)
        with open(os.path.join(d, "args")) as f:
            args = [x for x in f.read().split("\n") if x != ""]
        stdin = os.path.join(d, "stdin") if os.path.exists(os.path.join(d, "stdin")) else None
        cases.append((f"{name} (as recorded)", args, d, stdin))
        files = [x for x in args if x.endswith(INPUT_EXTENSIONS) or x == "-"]
        for o in option_sets:
            target = os.path.join(d, files[-1]) if files and files[-1] != "-" else stdin
            cases.append((f"{name} {' '.join(o)}", expand(o, target or "") + files, d, stdin))

    # Input files of the repository.
    found = []
    roots = [os.path.join(REPO, "Fixtures", "examples")] + ([] if a.quick else [os.path.join(REPO, "Tests", "Conformance")])
    for root in roots:
        for dirpath, _, names in os.walk(root):
            found += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(INPUT_EXTENSIONS)]

    # The benchmark's rows at small sizes; 30,000 rows (about 3 MB) are read in pieces.
    gen = os.path.join(work, "gen")
    sizes = "3,1000" if a.quick else "3,1000,30000"
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "gen-bench-data.py"), "--out", gen, "--sizes", sizes],
                   check=True, stdout=subprocess.DEVNULL)
    # The same with long non-ASCII notes, cut and wrapped at every width (issue 47).
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "gen-bench-data.py"), "--out", gen, "--sizes", "1000", "--long-notes"],
                   check=True, stdout=subprocess.DEVNULL)
    found += [os.path.join(gen, n) for n in sorted(os.listdir(gen)) if not n.endswith(".json") or "_3." in n or "_1k." in n]

    # Random tables.
    rnd = random.Random(a.seed)
    for k in range(a.random):
        large = k % 15 == 14 and not a.quick
        tsv = k % 3 == 2
        path = os.path.join(work, f"random-{k}.{'tsv' if tsv else 'csv'}")
        write_table(path, rnd, rnd.randint(15000, 25000) if large else rnd.choice([0, 1, 2, 5, 30, 200]), tsv)
        found.append(path)

    for path in found:
        big = os.path.getsize(path) > 500_000
        for k, o in enumerate(option_sets):
            args = expand(o, path)
            if "-i" in args and not path.endswith((".tsv", ".tab")):
                continue  # -i tsv is for TSV files
            cases.append((f"{os.path.relpath(path, REPO) if path.startswith(REPO) else os.path.basename(path)} {' '.join(o)}",
                          args + [path], REPO, None))
            # A share on standard input (every option set for the large files: the pipe's window).
            if big or (zlib.crc32(path.encode()) + k) % 4 == 0:
                cases.append((f"{os.path.basename(path)} {' '.join(o)} (pipe)", args, REPO, path))

    def check(case):
        label, args, cwd, stdin = case
        return label, args, run(old, args, cwd, stdin), run(new, args, cwd, stdin)

    differences = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for label, args, o, n in pool.map(check, cases):
            if o != n:
                differences += 1
                if differences <= 10:
                    what = [name for name, x, y in zip(("exit", "stdout", "stderr"), o, n) if x != y]
                    print(f"DIFFERENT ({', '.join(what)}): {label}\n  args: {args}", file=sys.stderr)
                    if "stdout" in what:
                        ol, nl = o[1].split(b"\n"), n[1].split(b"\n")
                        for i, (x, y) in enumerate(zip(ol, nl)):
                            if x != y:
                                print(f"  line {i + 1}:\n    old {x[:200]!r}\n    new {y[:200]!r}", file=sys.stderr)
                                break
                        else:
                            print(f"  lines: old {len(ol)}, new {len(nl)}", file=sys.stderr)
    print(f"diff-outputs: {len(cases)} cases ({', '.join(paths)}), {differences} different")
    subprocess.run(["rm", "-rf", work])
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
