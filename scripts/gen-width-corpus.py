#!/usr/bin/env python3
"""Generate the display-width corpus that DisplayWidthTests checks against wcwidth.

Usage (paths are found relative to this script):

    pip install 'wcwidth>=0.9,<0.10'
    python3 scripts/gen-width-corpus.py                  # rewrite the test corpus
    python3 scripts/gen-width-corpus.py --random 50000 --seed 7 --output /tmp/big.tsv
                                                         # a larger random corpus for local fuzzing

Each line of the output is plain ASCII:

    <wcswidth(shown)> TAB <wcswidth(shown, ambiguous_width=2)> TAB <label> TAB <s escaped>

where `shown` is s as tablefmt prints it: s itself, or with U+25CC before a spacing combining mark
(Mc, wcwidth's table) that starts it, since tablefmt shows such a mark on a dotted circle (printed
bare it would join whatever precedes the cell).

where the escaped string writes every character outside printable ASCII, and the backslash, as
`\\u{HEX}`. The output is deterministic (fixed seed, fixed lists).

Strings on which tablefmt differs from wcwidth by design are left out:
- C0 controls, DEL, C1 controls (wcswidth returns -1), NUL (wcwidth counts 0), and the
  bidirectional controls U+202A-U+202E, U+2066-U+2069 and U+FEFF (wcwidth counts 0): tablefmt
  prints them as visible escapes and counts the escape's width (O5); DisplayWidthTests and
  HiddenControlTests check those by hand.
- A ZWJ followed by a scalar that is neither Extended_Pictographic nor a regional indicator (and
  not right after a virama): wcswidth skips whatever follows a ZWJ, tablefmt measures such a
  scalar as terminals and grapheme segmentation do.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

import wcwidth
from wcwidth import table_ambiguous, table_grapheme, table_mc, table_wide, table_zero
from wcwidth._wcswidth import wcswidth as python_wcswidth

OUTPUT = os.path.join("Tests", "FormatEngineTests", "Resources", "width-corpus.tsv")
ZWJ = "\u200d"


def ranges_contain(ranges, cp):
    lo, hi = 0, len(ranges) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if cp > ranges[mid][1]:
            lo = mid + 1
        elif cp < ranges[mid][0]:
            hi = mid - 1
        else:
            return True
    return False


EXT_PICT = tuple(table_grapheme.EXTENDED_PICTOGRAPHIC)
VIRAMA = tuple(sorted(tuple(table_grapheme.ISC_VIRAMA) + tuple(table_grapheme.ISC_INVISIBLE_STACKER)))


SPACING_MARKS = table_mc.CATEGORY_MC[max(table_mc.CATEGORY_MC, key=lambda v: tuple(int(x) for x in v.split(".")))]


def shown(text):
    """The text as tablefmt prints it: a spacing mark (Mc) that starts it stands on U+25CC."""
    if text and ranges_contain(SPACING_MARKS, ord(text[0])):
        return "\u25cc" + text
    return text


def is_control(cp):
    """Scalars tablefmt shows as visible escapes (O5): C0, DEL, C1, the bidirectional embeddings,
    overrides and isolates (U+202A-U+202E, U+2066-U+2069) and U+FEFF."""
    return cp < 0x20 or 0x7F <= cp < 0xA0 or 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069 or cp == 0xFEFF


def joins_after_zwj(cp):
    return 0x1F1E6 <= cp <= 0x1F1FF or ranges_contain(EXT_PICT, cp)


def differs_by_design(text):
    """True for strings where tablefmt deliberately does not follow wcwidth (see module doc)."""
    cps = [ord(c) for c in text]
    if any(is_control(cp) for cp in cps):
        return True
    for i, cp in enumerate(cps):
        if cp != 0x200D or i + 1 >= len(cps):
            continue
        after_virama = i >= 1 and ranges_contain(VIRAMA, cps[i - 1]) and (i < 2 or cps[i - 2] != 0x200D)
        if not after_virama and not joins_after_zwj(cps[i + 1]):
            return True
    return False


def escape(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if 0x20 <= cp < 0x7F and ch != "\\":
            out.append(ch)
        else:
            out.append("\\u{%X}" % cp)
    return "".join(out)


# Hand-picked strings, by label.
CURATED = {
    "ascii": ["", "a", "hello world", "Hello, World!", "0123456789", "~!@#$%^&*()_+-=[]{}|;':\",./<>?",
              "  leading and trailing  ", "x" * 100, "The quick brown fox jumps over the lazy dog",
              "/usr/local/lib/python3/bin/tool", "a\\b", "tab\\tescaped"],
    "latin-precomposed": ["café", "naïve", "Ångström", "Łódź", "straße", "Ñandú", "façade", "Crème brûlée",
                          "Dvořák", "Ærøskøbing", "İstanbul", "ǅemal", "ẞ"],
    "latin-decomposed": ["cafe\u0301", "n\u0303", "a\u0308\u0304", "e\u0301\u0302\u0323", "A\u030a",
                         "Crème bru\u0302le\u0301e", "o\u0328\u0301", "x\u0332y\u0332", "\u0301", "a\u20dd",
                         "i\u0307\u0301"],
    "ambiguous": ["±", "×", "°C", "α β γ", "Ω", "…", "→ ←", "①②③", "■□", "Привет", "§ ¶", "½ ¼",
                  "\u00ad", "\ue000", "\ufffd", "ø", "Ⅻ", "※", "“quoted”", "‘single’", "☆★", "♀♂"],
    "cjk": ["中文", "日本語", "漢字テスト", "한국어", "ｈｅｌｌｏ", "ｶﾀｶﾅ", "\u3000", "𠀀𠀁", "「括弧」", "、。",
            "中a文b", "東京都渋谷区", "ひらがな", "カタカナ", "〈〉", "〜", "ー", "㍿", "︙", "\uff5e", "￥100",
            "ＡＢＣ１２３", "🀄", "\u4e00\u9fff", "\uac00\ud7a3", "\u9fff\ua000", "\U00020000\U0002fffd\U00030000"],
    "hangul-jamo": ["\u1100\u1161\u11a8", "\u1112\u1161\u11ab\u1100\u1173\u11af", "\u1100", "\u1161",
                    "\u11a8", "\u115f\u1160", "\ua960\ud7b0\ud7cb", "한\u11a8"],
    "emoji": ["😀", "👍", "👍🏽", "🧑🏿‍🚀", "👩‍💻", "👨‍👩‍👧‍👦", "👨‍👨‍👦", "🏳️‍🌈", "🏴‍☠️", "❤️", "❤", "☺️",
              "☺", "✔️", "✔", "⚠️", "⚠", "#️⃣", "1️⃣", "*️⃣", "©️", "©", "™️", "™", "⌚", "⌚︎", "☕︎",
              "✈️", "✈", "👁️‍🗨️", "🫶🏻", "🙂‍↕️", "🏃‍♀️", "🏃🏻‍♀️‍➡️", "⏰", "🃏", "☀", "☀️", "♥", "♥️",
              "🐈‍⬛", "🧔🏾‍♂️", "👩🏼‍🤝‍👩🏿", "🫠", "🪿", "🏻", "a🏻", "👋🏻👋🏿", "🤷‍♂️🤷‍♀️",
              "emoji 😀 in text", "❤️❤️❤️", "1\ufe0f2\ufe0f", "#\u20e3", "#\ufe0f", "\ufe0f", "\ufe0e",
              "😀\ufe0e", "😀\ufe0f", "↔️↕️", "‼️⁉️", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
              "👨\u200d", "\u200d👍", "a\u200d👍", "👍\u200d"],
    "flags": ["🇺🇸", "🇯🇵🇫🇷", "🇦", "🇦🇧🇨", "🇩🇪🇬🇧🇮🇹🇪🇸", "x🇺🇸y", "🇺🇸🏻", "🇺\u200d🇸"],
    "thai": ["ภาษาไทย", "กำ", "น้ำ", "ผู้ใหญ่", "สวัสดีครับ", "นํ้า", "ก่", "\u0e31", "เกี่ยว"],
    "devanagari": ["नमस्ते", "हिन्दी", "क्ष", "क्\u200dष", "क्\u200cष", "क\u0903", "\u0903", "\u094dक",
                   "क्a", "क्ष्म", "श्री", "ज़िंदगी", "संस्कृत", "द्वि", "र्क"],
    "other-scripts": ["বাংলা", "தமிழ்", "తెలుగు", "ಕನ್ನಡ", "മലയാളം", "ગુજરાતી", "ਪੰਜਾਬੀ", "සිංහල",
                      "မြန်မာ", "ខ្មែរ", "ລາວ", "བོད་ཡིག", "ᜀᜁᜂ", "ꦗꦮ", "𑄃𑄳𑄇", "مرحبا", "שָׁלוֹם",
                      "Ελληνικά", "Հայերեն", "ქართული", "አማርኛ", "ᐃᓄᒃᑎᑐᑦ", "𝐀𝐁𝐂", "𓀀𓀁", "𐌰𐌱"],
    "zero-width": ["a\u200bb", "a\u200cb", "\ufeffBOM", "a\u2060b", "\u200e\u200f", "a\ufe00", "a\U000e0100",
                   "a\U000e01ef", "a\u034f", "\u2028\u2029", "\u202a\u202e", "\u2066x\u2069", "a\u180e",
                   "\u061c", "\U000e0001", "\U0001d173", "\u1d00\u1dc0", "\u200b" * 5],
    "mixed": ["Größe 中 😀 done", "名前: Zoë 👩‍💻", "価格 ¥1,200 (税込)", "status: ✅ ok", "temp 23°C ☀️",
              "Ünïcödé ✓ テスト", "🇫🇷 Paris — café", "user@例え.jp", "नमस्ते 世界 🌍", "a\u0301中\u0301😀\u0301"],
}


def boundary_samples():
    """Single scalars at the edges of wcwidth's zero, wide and ambiguous ranges."""
    samples = []
    version = wcwidth.list_versions()[-1]
    tables = (table_zero.ZERO_WIDTH[version], table_wide.WIDE_EASTASIAN[version],
              table_ambiguous.AMBIGUOUS_EASTASIAN[version])
    rng = random.Random(2024)
    for table in tables:
        picks = sorted(rng.sample(range(len(table)), min(20, len(table))))
        for i in picks:
            lo, hi = table[i]
            for cp in (lo - 1, lo, hi, hi + 1):
                if 0xA0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
                    samples.append(chr(cp))
    return sorted(set(samples))


def random_alphabet():
    pools = [
        [chr(c) for c in range(0x20, 0x7F)],
        [" "] * 10,
        [chr(c) for c in range(0xA0, 0x250)],
        [chr(c) for c in range(0x300, 0x370)],
        [chr(c) for c in range(0x4E00, 0x4E80)] + [chr(c) for c in range(0xAC00, 0xAC40)],
        [chr(c) for c in range(0x1100, 0x1200)],
        [chr(c) for c in range(0xFF01, 0xFF70)],
        [chr(c) for c in range(0x1F300, 0x1F650)],
        [chr(c) for c in range(0x1F1E6, 0x1F200)],
        [chr(c) for c in range(0x1F3FB, 0x1F400)],
        ["\u200d", "\ufe0f", "\ufe0e", "\u200b", "\u200c", "\u20e3", "\U000e0020"],
        [chr(c) for c in range(0x0E01, 0x0E5C)],
        [chr(c) for c in range(0x0900, 0x0980)],
        [chr(c) for c in range(0x2000, 0x2800)],
        ["❤", "☺", "✔", "⚠", "©", "®", "™", "#", "*", "1", "⌚", "☕", "♥", "☀", "✈"],
    ]
    return pools


def random_strings(count, seed):
    rng = random.Random(seed)
    pools = random_alphabet()
    out = []
    while len(out) < count:
        length = rng.randint(1, 12)
        text = "".join(rng.choice(rng.choice(pools)) for _ in range(length))
        if not differs_by_design(text):
            out.append(text)
    return out


def rows(random_count, seed):
    entries = []
    for label, texts in CURATED.items():
        entries.extend((label, t) for t in texts)
    entries.extend(("table-edge", t) for t in boundary_samples())
    entries.extend(("random", t) for t in random_strings(random_count, seed))
    lines = []
    for label, text in entries:
        if differs_by_design(text):
            continue
        narrow = wcwidth.wcswidth(shown(text))
        wide = wcwidth.wcswidth(shown(text), ambiguous_width=2)
        if (narrow, wide) != (python_wcswidth(shown(text)), python_wcswidth(shown(text), ambiguous_width=2)):
            raise SystemExit(f"wcwidth's C and Python implementations disagree on {escape(text)}")
        lines.append(f"{narrow}\t{wide}\t{label}\t{escape(text)}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=200, help="how many random strings (default 200)")
    parser.add_argument("--seed", type=int, default=20260101, help="random seed")
    parser.add_argument("--output", help="where to write (default: the test corpus)")
    args = parser.parse_args()

    if tuple(int(x) for x in wcwidth.__version__.split(".")[:2]) < (0, 9):
        raise SystemExit(f"wcwidth {wcwidth.__version__} is too old: pip install 'wcwidth>=0.9,<0.10'")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = args.output or os.path.join(root, OUTPUT)
    body = rows(args.random, args.seed)
    header = [
        "# GENERATED by `python3 scripts/gen-width-corpus.py`: do not edit by hand.",
        f"# Widths from wcwidth {wcwidth.__version__} (Unicode {wcwidth.list_versions()[-1]}) wcswidth().",
        "# Columns: width, width with ambiguous_width=2, label, text (\\u{HEX} escapes; plain ASCII).",
        "# Left out by design (tablefmt differs from wcwidth, see the script): strings with controls",
        "# (C0, DEL, C1: wcswidth -1; NUL, U+202A-202E, U+2066-2069, U+FEFF: 0; tablefmt counts",
        "# their visible escapes), and a ZWJ",
        "# followed by a scalar that is not an emoji (wcswidth skips it, tablefmt measures it).",
    ]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii", newline="\n") as handle:
        handle.write("\n".join(header + body) + "\n")
    print(f"wrote {path}: {len(body)} strings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
