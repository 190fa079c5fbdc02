"""`scorepad run` in a process of its own, as a newcomer starts it: for the tests that serve for real
(tests/test_serve.py, tests/browser/test_event_restart.py) and bench/durability.py."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.slowness import scaled

SCOREPAD = Path(sys.executable).with_name("scorepad")
CHECKOUT = Path(__file__).resolve().parent.parent  # the server runs this checkout's code, not an install's


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """An HTTP/1.1 answer read to the closed connection: status, headers (lower-case names), body."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ScorepadRun:
    """`scorepad run ARGS` on 127.0.0.1, in a process group of its own (gunicorn's master and worker),
    on the same port and SQLite file across restarts; each start's output goes to a file of its own
    (an unread pipe would stall the server)."""

    def __init__(self, folder: Path, *args: str, port: int | None = None, database: str = "run.db", **env: str) -> None:
        self.folder, self.args = folder, args
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder / database}",
            "SECRET_KEY": "scorepad-run",
            "SCOREPAD_DEMO": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")])),
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = self.kills = 0

    def start(self) -> str:
        """Start the server; return what it printed up to "Press Ctrl+C" (it listens by then)."""
        self.log = self.folder / f"run-{self.port}-{time.monotonic_ns()}.log"
        self.starts += 1
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [str(SCOREPAD), "run", "--host", "127.0.0.1", "--port", str(self.port), *self.args],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=self.folder,
            )
        deadline = time.monotonic() + scaled(60)
        while time.monotonic() < deadline:
            if "Press Ctrl+C" in self.output():
                return self.output()
            assert self.process.poll() is None, self.output()
            time.sleep(0.1)
        raise AssertionError(f"the server did not start:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text()

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        """A plain GET (with `headers`, names with '_' for '-'): status, headers (lower-case names), body."""
        extra = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
        with socket.create_connection(("127.0.0.1", self.port), timeout=scaled(30)) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode())
            return read_answer(s)

    def kill(self) -> None:
        """`kill -9` of the whole server, master and worker: no clean shutdown."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=scaled(10))
        self.kills += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()

    def workers(self) -> list[int]:
        """The process ids of gunicorn's workers (the master's children)."""
        assert self.process is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                found.append(int(stat.parent.name))
        return sorted(found)

    def worker_of(self, client: socket.socket, timeout: float = scaled(5.0)) -> int:
        """The worker that accepted `client`'s connection (Linux: the server side's socket in
        /proc/net/tcp, then the worker holding it among its open files)."""
        mine = client.getsockname()[1]
        deadline = time.monotonic() + timeout
        workers = self.workers()
        while True:
            inode = _server_side(self.port, mine)
            if inode:
                for pid in workers:
                    for fd in Path(f"/proc/{pid}/fd").glob("*"):
                        try:
                            if os.readlink(fd) == f"socket:[{inode}]":
                                return pid
                        except OSError:
                            continue
            assert time.monotonic() < deadline, f"no worker accepted the connection from port {mine}"
            time.sleep(0.01)


def _server_side(port: int, client_port: int) -> str | None:
    """The inode of the server's socket of the connection from `client_port` (0 until accepted)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == port and int(remote.split(":")[1], 16) == client_port and inode != "0":
            return inode
    return None
