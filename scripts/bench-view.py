#!/usr/bin/env python3
"""make bench-view: the live view on a pseudo-terminal, timed from outside (V7).

Runs `tablefmt FILE` with a pseudo-terminal as its controlling terminal (80 x 40) and measures:
  first screen  the time from start until the first frame's status line is written
  all rows      the time until the status line stops saying "reading" (every row counted)
  sort          `s` on a numeric column of every row: from the key to the frame showing the sort
  key redraw    `j`: from the key to the redrawn status line (the median of 30 presses)
  peak memory   VmHWM of the process after the sort (Linux), against 64 MB + 16 bytes a row

Usage: bench-view.py TABLEFMT FILE ROWS [COLUMN-KEYS]
COLUMN-KEYS are the keys that move to the column to sort by (default "lll", the 4th column).
"""
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import fcntl
import time


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    moves = sys.argv[4] if len(sys.argv) > 4 else "lll"
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))

    def child_setup():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    start = time.monotonic()
    proc = subprocess.Popen([binary, path], stdin=slave, stdout=slave, stderr=slave, env=env,
                            preexec_fn=child_setup, close_fds=True)
    os.close(slave)
    seen = bytearray()

    def wait_for(pattern, timeout=600.0, since=0):
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            match = regex.search(seen, since)
            if match:
                return time.monotonic(), match
            ready, _, _ = select.select([master], [], [], 0.01)
            if ready:
                try:
                    seen.extend(os.read(master, 1 << 16))
                except OSError:
                    break
        raise SystemExit(f"bench-view: timed out waiting for {pattern!r}")

    first, _ = wait_for(rb"row 1 of")
    loaded, _ = wait_for(rb"row 1 of [0-9,]+ \xc2\xb7")  # no "+ (reading...)"
    for key in moves:
        os.write(master, key.encode())
        time.sleep(0.05)
    mark = len(seen)
    t0 = time.monotonic()
    os.write(master, b"s")
    sorted_at, _ = wait_for(rb"sort: [^\x1b]*\xe2\x96\xb2", since=mark)
    sort_time = sorted_at - t0
    redraws = []
    for k in range(30):
        mark = len(seen)
        t0 = time.monotonic()
        os.write(master, b"j")
        t1, _ = wait_for(rb"row %d of" % (k + 2), since=mark)
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
    print(f"  sort (s)         {sort_time:8.2f} s    (target 3 s for 1M rows)")
    print(f"  key redraw (j)   {1000 * statistics.median(redraws):8.1f} ms   median of 30 (target 20 ms)")
    if peak_kb is not None:
        print(f"  peak memory      {peak_kb / 1000:8.1f} MB   (budget 64 MB + 16 B a row = {budget_mb:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
