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

  bench-latency.py live-rows ROWS PAUSES TIMEOUT FILE -- CMD...
      Live rows (P4): writes FILE's header line plus ROWS data lines (more than
      the sizing window), waits until CMD has printed ROWS lines, then PAUSES
      times: waits 100 ms, writes the next data line of FILE alone and times
      until its line is printed, the pipe left open all along. Prints "<median
      ms> <max ms> <rows timed>", or "timeout <what>" when a line does not come
      within TIMEOUT seconds.

  bench-latency.py follow pipe|pty ROWS IDLE TIMEOUT -- CMD...
      Following (I10, P5, V9): writes a header and 50 rows to a new file,
      starts `CMD... --follow FILE` (its output on a pipe, or the view on a
      pseudo-terminal), then ROWS times: waits 100 ms, appends one row with
      a token of its own to the file and times until the token is printed or
      drawn. Then leaves it idle IDLE seconds and reads its CPU time
      (/proc/PID/stat). Prints "<median ms> <max ms> <rows timed> <idle CPU
      %>", or "timeout <what>".
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


def end_child(p):
    """Closes the child's stdin and ends it (terminate, then kill after 5 s)."""
    try:
        if p.stdin is not None:
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
    end_child(p)
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


class LineCounter:
    """Counts the lines a child prints on a pipe, waiting for a number of them."""

    def __init__(self, fd):
        self.fd, self.lines = fd, 0

    def wait_for(self, lines, deadline):
        """The time the count reached `lines`, or None at the deadline or the child's end."""
        while self.lines < lines:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                continue
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.lines += chunk.count(b"\n")
        return time.perf_counter()

    def drain(self):
        """Counts what has been printed so far, without waiting."""
        while select.select([self.fd], [], [], 0)[0]:
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return
            self.lines += chunk.count(b"\n")


def live_rows(args):
    head, cmd = split_cmd(args)
    rows, pauses, timeout, path = int(head[0]), int(head[1]), float(head[2]), head[3]
    with open(path, "rb") as f:
        lines = [f.readline() for _ in range(rows + pauses + 1)]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, close_fds=True)
    counter, delays, result = LineCounter(p.stdout.fileno()), [], None
    def write_window():  # on a thread: the child's output is read meanwhile, so neither pipe fills up
        try:
            p.stdin.write(b"".join(lines[:rows + 1]))
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=write_window, daemon=True)
    writer.start()
    try:
        shown = counter.wait_for(rows, time.perf_counter() + timeout)
        writer.join(timeout=timeout)
        if shown is None or writer.is_alive():
            result = "timeout window"
        else:
            for k in range(pauses):
                time.sleep(0.1)
                counter.drain()  # lines printed before this row are not its own
                expected = counter.lines + 1
                written = time.perf_counter()
                p.stdin.write(lines[rows + 1 + k])
                p.stdin.flush()
                shown = counter.wait_for(expected, written + timeout)
                if shown is None:
                    result = "timeout row-%d" % (k + 1)
                    break
                delays.append((shown - written) * 1000.0)
    except (BrokenPipeError, OSError):
        result = "timeout pipe-closed"
    finally:
        end_child(p)
    if result is not None:
        print(result)
    else:
        print("%.2f %.2f %d" % (statistics.median(delays), max(delays), len(delays)))


def cpu_ticks(pid):
    """User and system time of `pid` so far, in clock ticks (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def follow(args):
    head, cmd = split_cmd(args)
    mode, rows, idle, timeout = head[0], int(head[1]), float(head[2]), float(head[3])
    import tempfile
    folder = tempfile.mkdtemp(prefix="tablefmt-bench-follow-")
    path = os.path.join(folder, "app.csv")
    with open(path, "w") as f:
        f.write("id,event,amount\n" + "".join("%d,start %d,%d.5\n" % (k, k, k) for k in range(50)))
    argv = cmd + ["--follow", path]
    if mode == "pty":
        import pty
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.execv(argv[0], argv)
    else:
        p = subprocess.Popen(argv + ["--view", "never"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, close_fds=True)
        pid, fd = p.pid, p.stdout.fileno()
    seen = b""

    def wait_for(token, deadline):
        nonlocal seen
        while token not in seen:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            r, _, _ = select.select([fd], [], [], left)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return None
                if not chunk:
                    return None
                seen = (seen + chunk)[-65536:]
        return time.perf_counter()

    delays, result, idle_pct = [], None, 0.0
    if wait_for(b"start 49", time.perf_counter() + timeout) is None:
        result = "timeout first-screen"
    else:
        for k in range(rows):
            time.sleep(0.1)
            token = b"zq%dx" % k
            written = time.perf_counter()
            with open(path, "ab") as f:
                f.write(b"%d,%s,1.5\n" % (1000 + k, token))
            shown = wait_for(token, written + timeout)
            if shown is None:
                result = "timeout row-%d" % (k + 1)
                break
            delays.append((shown - written) * 1000.0)
        time.sleep(0.5)
        before, t0 = cpu_ticks(pid), time.perf_counter()
        time.sleep(idle)
        ticks = cpu_ticks(pid) - before
        idle_pct = ticks / os.sysconf("SC_CLK_TCK") / (time.perf_counter() - t0) * 100.0
    os.kill(pid, 2)  # SIGINT: printed, the end of the input; in the view, Ctrl-C
    if mode == "pty":
        os.write(fd, b"q")
        os.waitpid(pid, 0)
    else:
        end_child(p)
    for name in os.listdir(folder):
        os.unlink(os.path.join(folder, name))
    os.rmdir(folder)
    if result is not None:
        print(result)
    else:
        print("%.2f %.2f %d %.2f" % (statistics.median(delays), max(delays), len(delays), idle_pct))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    {"startup": startup, "first-output": first_output, "live-rows": live_rows, "follow": follow}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
