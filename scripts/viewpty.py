"""The live view on a pseudo-terminal, for the view's benchmarks (bench-view.py, bench-edit.py):
`tablefmt FILE` started with the pseudo-terminal as its controlling terminal, what it writes
gathered in `seen`, and `wait_for` a pattern in it."""
import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time


class ViewPty:
    def __init__(self, binary, path, rows=40, columns=80, name="bench-view"):
        self.name = name
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

        def child_setup():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        env = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
        self.start = time.monotonic()
        self.proc = subprocess.Popen([binary, path], stdin=slave, stdout=slave, stderr=slave, env=env,
                                     preexec_fn=child_setup, close_fds=True)
        os.close(slave)
        self.seen = bytearray()

    def wait_for(self, pattern, timeout=120.0, since=0):
        """The time `pattern` shows in what was written after `since`, and its match."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            match = regex.search(self.seen, since)
            if match:
                return time.monotonic(), match
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    self.seen.extend(os.read(self.master, 1 << 16))
                except OSError:
                    break
        raise SystemExit(f"{self.name}: timed out waiting for {pattern!r}; last written: {bytes(self.seen[-400:])!r}")
