#!/usr/bin/env python3
"""make bench-view: editing and saving in the live view on a pseudo-terminal (V10, issue #29).

Copies FILE to a scratch file beside it with `cp` (timed: the peer), and once more with
`dd conv=fsync` (a copy flushed to the disk, as a save is), then opens the copy in the view
(200 x 40) and:
  edits         1,000 edits through the keys (900 fields changed a page apart, 50 rows added,
                30 deleted, 20 moved): the memory they cost, VmRSS after less before (Linux)
  save (w)      from the key to the status line saying "saved to": every untouched row copied
                from the file in blocks, the edited ones written anew, flushed, renamed over
and prints the save's time against both copies'. The scratch file is removed at the end.

Usage: bench-edit.py TABLEFMT FILE ROWS
"""
import os
import subprocess
import sys
import time

from viewpty import ViewPty


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    scratch = path + ".edit-scratch.csv"
    t0 = time.monotonic()
    subprocess.run(["cp", path, scratch], check=True)
    cp_time = time.monotonic() - t0
    t0 = time.monotonic()
    subprocess.run(["dd", f"if={path}", f"of={scratch}", "bs=4M", "conv=fsync", "status=none"], check=True)
    dd_time = time.monotonic() - t0

    view = ViewPty(binary, scratch, columns=200, name="bench-edit")
    master, proc, seen = view.master, view.proc, view.seen

    def wait_for(pattern, timeout=300.0, since=0):
        return view.wait_for(pattern, timeout, since)

    def send(keys):
        os.write(master, keys)
        # Let the view keep up (the pseudo-terminal's buffer is small).
        mark = len(seen)
        try:
            wait_for(rb"\?", timeout=5, since=mark)
        except SystemExit:
            pass

    wait_for(rb"row 1 of [0-9,]+ \xc2\xb7")  # every row read
    time.sleep(0.5)
    before = rss_kb(proc.pid)
    for k in range(900):
        send(b"e\x15v%d\rf" % k)
    for k in range(50):
        send(b"+\x1bf")
    for k in range(30):
        send(b"dyf")
    for k in range(20):
        send(b"Jf")
    wait_for(rb"900 changed \xc2\xb7 50 added \xc2\xb7 30 deleted \xc2\xb7 20 moved")
    time.sleep(0.5)
    after = rss_kb(proc.pid)
    mark = len(seen)
    t0 = time.monotonic()
    os.write(master, b"w")
    t1, _ = wait_for(rb"saved to", since=mark)
    save_time = t1 - t0
    os.write(master, b"q")
    proc.wait(timeout=60)
    size = os.path.getsize(scratch)
    os.remove(scratch)
    print(f"edit {os.path.basename(path)} ({rows:,} rows, {os.path.getsize(path) / 1e6:.0f} MB)")
    if before is not None and after is not None:
        print(f"  1,000 edits      {after - before:8d} KB  resident memory they added (VmRSS after - before)")
    print(f"  cp               {cp_time:8.2f} s")
    print(f"  dd conv=fsync    {dd_time:8.2f} s")
    print(f"  save (w)         {save_time:8.2f} s    {save_time / cp_time:.2f}x cp, {save_time / dd_time:.2f}x dd conv=fsync (target 2x cp); saved {size / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
