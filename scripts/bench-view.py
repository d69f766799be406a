#!/usr/bin/env python3
"""make bench-view: the live view on a pseudo-terminal, timed from outside (V7).

Runs `tablefmt FILE` with a pseudo-terminal as its controlling terminal (80 x 40) and measures:
  first screen  the time from start until the first frame's status line is written
  all rows      the time until the status line stops saying "reading" (every row counted)
  sort          `s` on a numeric column of every row: from the key to the frame showing the sort
  key redraw    `j`: from the key to the redrawn status line (the median of 30 presses)
  while working `j` pressed every 100 ms while a sort or a filter runs (issue #28): from the key
                to the status line with the new row and the work's progress; median and worst
  text sort     `s` on a text column (TEXT-KEYS from the numeric one), from the key to the frame
  many sort     `s` on a text column of many distinct values (MANY-KEYS from the text column;
                the generator's free-text note), from the key to the frame
  filter        `&TEXT Enter`, from the key to the status line counting the kept rows
  peak memory   VmHWM of the process at the end (Linux), against 64 MB + 16 bytes a row

Usage: bench-view.py TABLEFMT FILE ROWS [COLUMN-KEYS [TEXT-KEYS [FILTER [MANY-KEYS]]]]
COLUMN-KEYS are the keys that move to the numeric column to sort by (default "lll", the 4th
column); TEXT-KEYS move from there to a text column (default "hh", the 2nd); FILTER is the text
filtered by (default "express"); MANY-KEYS move from the text column to one of many distinct
values (default "lllllll", the 9th: note; "-" leaves that sort out).
"""
import os
import re
import signal
import statistics
import sys
import time

from viewpty import ViewPty


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    moves = sys.argv[4] if len(sys.argv) > 4 else "lll"
    text_moves = sys.argv[5] if len(sys.argv) > 5 else "hh"
    needle = sys.argv[6] if len(sys.argv) > 6 else "express"
    many_moves = sys.argv[7] if len(sys.argv) > 7 else "lllllll"
    view = ViewPty(binary, path)
    master, proc, seen, start, wait_for = view.master, view.proc, view.seen, view.start, view.wait_for

    first, _ = wait_for(rb"row 1 of")
    loaded, _ = wait_for(rb"row 1 of [0-9,]+ \xc2\xb7")  # no "+ (reading...)"
    for key in moves:
        os.write(master, key.encode())
        time.sleep(0.05)
    current = 1

    def keys_while_working(started, done_pattern):
        """`j` every 100 ms until `done_pattern` shows after `started`: each key's latency to a
        status line with the work's progress and the new row."""
        nonlocal current
        latencies = []
        while not re.search(done_pattern, seen[started:]):
            mark = len(seen)
            t0 = time.monotonic()
            os.write(master, b"j")
            current += 1
            answered = rb"\xe2\x80\xa6 \d+% \xc2\xb7 row " + f"{current:,}".encode() + rb" of"
            t1, match = wait_for(rb"(" + answered + rb")|(" + done_pattern + rb")", since=mark)
            if match.group(1) is None:
                break  # the work ended first: the row moved with it
            latencies.append(t1 - t0)
            time.sleep(0.1)
        return latencies

    def timed(keys, running_pattern, done_pattern):
        """Sends `keys`, then `j` every 100 ms while the work runs (its status line matching
        `running_pattern`): the work's time (to the first status line after that matching
        `done_pattern`), the latencies."""
        mark = len(seen)
        t0 = time.monotonic()
        os.write(master, keys)
        _, running = wait_for(running_pattern, since=mark)
        mark = running.start()
        latencies = keys_while_working(mark, done_pattern)
        done, match = wait_for(done_pattern, since=mark)
        return done - t0, latencies

    def current_row():
        """The current row once the screen is still (a key answered after the work's end moved it)."""
        try:
            wait_for(rb"(?!)", timeout=0.3)
        except SystemExit:
            pass
        rows = re.findall(rb"row ([0-9,]+) of", seen)
        return int(rows[-1].replace(b",", b"")) if rows else 1

    sorted_line = rb"\x1b\[7mrow [0-9,]+ of [0-9,]+ \xc2\xb7 [^\x1b]*sort: [^\x1b]*\xe2\x96\xb2"
    sort_time, sort_keys = timed(b"s", rb"sorting by", sorted_line)
    current = current_row()
    for key in text_moves:
        os.write(master, key.encode())
        time.sleep(0.05)
    text_time, text_keys = timed(b"s", rb"sorting by", sorted_line)
    current = current_row()
    many_time = many_keys = None
    if many_moves != "-":
        for key in many_moves:
            os.write(master, key.encode())
            time.sleep(0.05)
        many_time, many_keys = timed(b"s", rb"sorting by", sorted_line)
        current = current_row()
    os.write(master, b"&" + needle.encode())
    time.sleep(0.05)
    filter_time, filter_keys = timed(b"\r", rb"filtering", rb"\x1b\[7mrow [^\x1b]*\xc2\xb7 filter")
    current = current_row()
    os.write(master, b"g")
    wait_for(rb"row 1 of")
    redraws = []
    for k in range(30):
        mark = len(seen)
        t0 = time.monotonic()
        os.write(master, b"j")
        t1, _ = wait_for(rb"row %s of" % f"{k + 2:,}".encode(), since=mark)
        redraws.append(t1 - t0)
    peak_kb = None
    try:
        with open(f"/proc/{proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    peak_kb = int(line.split()[1])
    except OSError:
        pass
    os.write(master, b"q")
    proc.wait(timeout=30)
    budget_mb = 64 + 16 * rows / 1e6
    print(f"view {os.path.basename(path)} ({rows:,} rows, {os.path.getsize(path) / 1e6:.0f} MB)")
    print(f"  first screen     {1000 * (first - start):8.1f} ms   (target 200 ms)")
    print(f"  all rows read    {loaded - start:8.2f} s")
    def keys(latencies):
        if not latencies:
            return "no key answered while it ran"
        return f"keys meanwhile: median {1000 * statistics.median(latencies):.1f} ms, worst {1000 * max(latencies):.1f} ms of {len(latencies)} (target 50 ms)"
    print(f"  numeric sort (s) {sort_time:8.2f} s    (target 3 s at 10M rows); {keys(sort_keys)}")
    print(f"  text sort (s)    {text_time:8.2f} s    (target 8 s at 10M rows); {keys(text_keys)}")
    if many_time is not None:
        print(f"  many-value sort  {many_time:8.2f} s    (target 8 s at 10M rows); {keys(many_keys)}")
    print(f"  filter (&{needle})  {filter_time:6.2f} s    (target 2 s at 10M rows); {keys(filter_keys)}")
    print(f"  key redraw (j)   {1000 * statistics.median(redraws):8.1f} ms   median of 30 (target 20 ms)")
    if peak_kb is not None:
        print(f"  peak memory      {peak_kb / 1000:8.1f} MB   (budget 64 MB + 16 B a row = {budget_mb:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
