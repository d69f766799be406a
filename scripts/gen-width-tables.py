#!/usr/bin/env python3
"""Generate Sources/Text/WidthTables.swift from the wcwidth package's tables.

Usage (from anywhere; paths are found relative to this script):

    pip install 'wcwidth>=0.9,<0.10'
    python3 scripts/gen-width-tables.py            # rewrite the Swift file
    python3 scripts/gen-width-tables.py --check    # exit 1 if the Swift file is out of date

Only the Python standard library and wcwidth are used. The tables are taken from wcwidth's own
data modules for the newest Unicode version it ships, so that tablefmt's display width agrees with
`wcwidth.wcswidth` (the corpus test checks that). Every table is emitted sorted, with overlapping
and adjacent ranges merged, as a flat `[UInt32]` of inclusive `lo, hi` pairs. The output depends
only on the wcwidth version installed: running the script twice gives the same bytes.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

import wcwidth
from wcwidth import table_ambiguous, table_grapheme, table_mc, table_vs15, table_vs16
from wcwidth import table_wide, table_zero

SCRIPT = "scripts/gen-width-tables.py"
OUTPUT = os.path.join("Sources", "Text", "WidthTables.swift")

# C0 controls, DEL and C1 controls: tablefmt prints these as visible escapes (Sanitize), so they
# are never looked up in the tables. wcwidth lists U+0000 as zero width; it is removed here.
CONTROL_RANGES = ((0x00, 0x1F), (0x7F, 0x9F))


def merged(ranges):
    """Sort ranges and merge overlapping or adjacent ones."""
    out = []
    for lo, hi in sorted((int(lo), int(hi)) for lo, hi in ranges):
        if lo > hi:
            raise SystemExit(f"bad range {lo:#x}..{hi:#x}")
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [tuple(r) for r in out]


def minus(ranges, removed):
    """The ranges with every code point of `removed` taken out."""
    out = []
    for lo, hi in ranges:
        pieces = [(lo, hi)]
        for rlo, rhi in removed:
            next_pieces = []
            for plo, phi in pieces:
                if rhi < plo or rlo > phi:
                    next_pieces.append((plo, phi))
                    continue
                if plo < rlo:
                    next_pieces.append((plo, rlo - 1))
                if phi > rhi:
                    next_pieces.append((rhi + 1, phi))
            pieces = next_pieces
        out.extend(pieces)
    return merged(out)


def contains(ranges, cp):
    return any(lo <= cp <= hi for lo, hi in ranges)


def newest(table_by_version):
    """The entry for the newest Unicode version in a {version: ranges} dict, and that version."""
    version = max(table_by_version, key=lambda v: tuple(int(x) for x in v.split(".")))
    return version, table_by_version[version]


def build_tables():
    zero_version, zero = newest(table_zero.ZERO_WIDTH)
    wide_version, wide = newest(table_wide.WIDE_EASTASIAN)
    amb_version, ambiguous = newest(table_ambiguous.AMBIGUOUS_EASTASIAN)
    mc_version, spacing = newest(table_mc.CATEGORY_MC)
    if len({zero_version, wide_version, amb_version, mc_version}) != 1:
        raise SystemExit("wcwidth's tables disagree on the Unicode version")
    # wcswidth uses the VS16/VS15 tables keyed '9.0.0' (the emoji variation sequences as of
    # Unicode 9, when emoji presentation became wide); take the same entry it uses.
    vs16 = table_vs16.VS16_NARROW_TO_WIDE["9.0.0"]
    vs15 = table_vs15.VS15_WIDE_TO_NARROW["9.0.0"]

    tables = [
        ("zeroWidth",
         "Zero width: combining marks (Mn, Me, and Mc as wcwidth lists them), ZWJ, ZWNJ, "
         "variation selectors, Hangul medial and final jamo, default-ignorable and format "
         "characters. Controls are removed: they print as escapes.",
         minus(zero, CONTROL_RANGES)),
        ("wide",
         "Two columns: East Asian Wide and Fullwidth, and emoji presentation.",
         merged(wide)),
        ("ambiguous",
         "East Asian Ambiguous: two columns only with `ambiguousIsWide`.",
         minus(ambiguous, CONTROL_RANGES)),
        ("emojiVS16",
         "Narrow characters that VS16 (U+FE0F) turns into two-column emoji.",
         merged(vs16)),
        ("textVS15",
         "Wide characters that VS15 (U+FE0E) turns into one-column text presentation.",
         merged(vs15)),
        ("spacingMark",
         "Spacing combining marks (Mc): after a base they make its cluster two columns.",
         merged(spacing)),
        ("virama",
         "Indic viramas and invisible stackers: the next consonant joins a conjunct "
         "(at most two columns).",
         merged(list(table_grapheme.ISC_VIRAMA) + list(table_grapheme.ISC_INVISIBLE_STACKER))),
        ("extendedPictographic",
         "Extended_Pictographic: after a ZWJ such a scalar joins the emoji before it.",
         merged(table_grapheme.EXTENDED_PICTOGRAPHIC)),
    ]

    # Facts DisplayWidth.swift relies on; fail loudly if a future wcwidth changes them.
    by_name = {name: ranges for name, _, ranges in tables}
    for cp in (0x200B, 0x200C, 0x200D, 0xFE00, 0xFE0F, 0xE0100, 0xE01EF, 0x1160, 0x11FF, 0x0301):
        assert contains(by_name["zeroWidth"], cp), f"{cp:#x} should be zero width"
    for lo, hi in ((0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F1E6, 0x1F1FF), (0x1F3FB, 0x1F3FF)):
        assert any(a <= lo and hi <= b for a, b in by_name["wide"]), f"{lo:#x} should be wide"
    # DisplayWidth.swift answers these blocks without a search: they must be wide, never zero.
    for lo, hi in ((0x4E00, 0x9FFF), (0xAC00, 0xD7A3)):
        assert any(a <= lo and hi <= b for a, b in by_name["wide"]), f"{lo:#x} should be wide"
        assert not any(a <= hi and lo <= b for a, b in by_name["zeroWidth"]), f"{lo:#x} has zeros"
    for lo, hi in by_name["zeroWidth"] + by_name["wide"]:
        assert lo >= 0x300, \
            f"DisplayWidth's quick path assumes nothing below U+0300 is zero or wide: {lo:#x}"
    for name in ("spacingMark", "virama"):
        for lo, hi in by_name[name]:
            for cp in (lo, hi):
                assert contains(by_name["zeroWidth"], cp), f"{name} {cp:#x} should be zero width"
    return zero_version, tables


def render(version, tables):
    lines = [
        "// GENERATED FILE: do not edit by hand.",
        f"// Generated by `python3 {SCRIPT}` from the tables of the Python package",
        f"// wcwidth {wcwidth.__version__} for Unicode {version} (EastAsianWidth, DerivedGeneralCategory,",
        "// emoji-data and IndicSyllabicCategory as wcwidth distils them; VS16/VS15 from its 9.0.0 table).",
        "// Each table is a flat list of inclusive `lo, hi` pairs, sorted, non-overlapping and merged.",
        "",
        "/// Unicode range tables for `DisplayWidth`, searched with `WidthTables.contains(_:_:)`.",
        "package enum WidthTables {",
        "    /// The Unicode version the tables were generated from.",
        f"    package static let unicodeVersion = \"{version}\"",
    ]
    for name, doc, ranges in tables:
        lines.append("")
        for doc_line in textwrap.wrap(f"{doc} ({len(ranges)} ranges)", width=92):
            lines.append(f"    /// {doc_line}")
        lines.append(f"    package static let {name}: [UInt32] = [")
        per_line = 4
        for i in range(0, len(ranges), per_line):
            chunk = ranges[i:i + per_line]
            text = " ".join(f"0x{lo:04X}, 0x{hi:04X}," for lo, hi in chunk)
            lines.append(f"        {text}")
        lines.append("    ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the file differs from what would be written")
    args = parser.parse_args()

    major_minor = tuple(int(x) for x in wcwidth.__version__.split(".")[:2])
    if major_minor < (0, 9):
        raise SystemExit(f"wcwidth {wcwidth.__version__} is too old: pip install 'wcwidth>=0.9,<0.10'")

    version, tables = build_tables()
    text = render(version, tables)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, OUTPUT)
    if args.check:
        with open(path, encoding="utf-8") as handle:
            current = handle.read()
        if current != text:
            print(f"{OUTPUT} is out of date: run python3 {SCRIPT}", file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print(f"wrote {OUTPUT}: Unicode {version}, "
          + ", ".join(f"{name} {len(r)}" for name, _, r in tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
