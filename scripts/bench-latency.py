#!/usr/bin/env python3
"""Latency probes for scripts/bench.sh (Python standard library only).

  bench-latency.py startup RUNS FILE -- CMD...
      Runs `CMD... FILE` RUNS times (stdout to /dev/null) and prints
      "<median ms> <min ms> <max ms> <baseline ms> <worst exit status>".  The
      baseline is the median of spawning /bin/true the same way, so the reader
      can tell process-spawn cost from the tool's own start-up.

  bench-latency.py first-output ROWS TIMEOUT FILE -- CMD...
      Starts CMD with a pipe on stdin, writes FILE's header line plus ROWS
      data lines into it, then keeps the pipe open without writing. Prints
      "<ms from last row written to first output line> <ms from start> <lines
      seen>" ("early" when output came before the last row was written),
      or "timeout <seconds>" when nothing arrives in TIMEOUT seconds.
      Stdin is closed and the child is ended afterwards.
"""
import os
import select
import statistics
import subprocess
import sys
import threading
import time


def split_cmd(argv):
    if "--" not in argv:
        sys.exit("usage: see the module docstring")
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def spawn_ms(cmd):
    """Wall time of one whole process (posix_spawn + waitpid: the least overhead Python offers)."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(cmd[0], cmd, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    return (time.perf_counter() - t0) * 1000.0, os.waitstatus_to_exitcode(status)


def startup(args):
    head, cmd = split_cmd(args)
    runs, path = int(head[0]), head[1]
    spawn_ms(cmd + [path])  # warm the page cache and the dynamic loader
    times, worst = [], 0
    for _ in range(runs):
        ms, rc = spawn_ms(cmd + [path])
        times.append(ms)
        worst = rc if rc != 0 else worst
    base = statistics.median(spawn_ms(["/bin/true"])[0] for _ in range(max(runs // 2, 5)))
    print("%.2f %.2f %.2f %.2f %d" % (statistics.median(times), min(times), max(times), base, worst))


def first_output(args):
    head, cmd = split_cmd(args)
    rows, timeout, path = int(head[0]), float(head[1]), head[2]
    with open(path, "rb") as f:
        lines = [f.readline() for _ in range(rows + 1)]
    payload = b"".join(lines)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, close_fds=True)
    written = {}

    def writer():
        try:
            p.stdin.write(payload)
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        written["t"] = time.perf_counter()
        # ...and keep the pipe open: no close here.

    t0 = time.perf_counter()
    th = threading.Thread(target=writer, daemon=True)
    th.start()
    fd = p.stdout.fileno()
    buf, seen_line_at, deadline = b"", None, t0 + timeout
    while seen_line_at is None:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:  # the tool exited without a line
            break
        buf += chunk
        if b"\n" in buf:
            seen_line_at = time.perf_counter()
    # drain a little to count lines, then end the child
    try:
        p.stdin.close()
    except OSError:
        pass
    if p.poll() is None:
        p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    th.join(timeout=1)
    if seen_line_at is None:
        print("timeout %.1f" % timeout if time.perf_counter() >= deadline else "no-output %d" % p.returncode)
        return
    t_written = written.get("t")
    if t_written is not None and t_written <= seen_line_at:
        since_written = "%.1f" % ((seen_line_at - t_written) * 1000.0)
    else:
        since_written = "early"  # output came before every row was written
    print("%s %.1f %d" % (since_written, (seen_line_at - t0) * 1000.0, buf.count(b"\n")))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    {"startup": startup, "first-output": first_output}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
