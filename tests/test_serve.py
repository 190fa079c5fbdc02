"""`scorepad run` is a real server (issue 13, item 3): gunicorn with a gevent worker by default,
holding hundreds of open live streams while it still answers; Ctrl+C stops it; `kill -9` leaves no
orphan worker on the port; a port in use is said plainly; `--dev` keeps Werkzeug's reloader.

Each test starts the command as a newcomer would, in its own process on a free port and a fresh
SQLite file."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SCOREPAD = Path(sys.executable).with_name("scorepad")
STREAMS = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Run:
    """`scorepad run` in its own process group; its output goes to a file (an unread pipe would stall it)."""

    def __init__(self, folder: Path, *args: str, port: int | None = None, **env: str) -> None:
        self.port = port or free_port()
        self.log = folder / f"run-{self.port}-{time.monotonic_ns()}.log"
        environment = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'run.db'}", "SECRET_KEY": "serve-test",
                       "SCOREPAD_DEMO": "1", **env}
        with self.log.open("w") as out:
            self.process = subprocess.Popen([str(SCOREPAD), "run", "--host", "127.0.0.1", "--port", str(self.port),
                                             *args], env=environment, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True, cwd=folder)

    def output(self) -> str:
        return self.log.read_text()

    def wait_ready(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if "Press Ctrl+C" in self.output():
                return self.output()
            assert self.process.poll() is None, self.output()
            time.sleep(0.1)
        raise AssertionError(f"not ready:\n{self.output()}")

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        return int(lines[0].split()[1]), headers, body

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[list[Run]]:
    started: list[Run] = []
    yield started
    for run in started:
        run.stop()


def test_run_serves_with_gunicorn_and_holds_hundreds_of_live_streams(tmp_path: Path, runs: list[Run]) -> None:
    # the per-client cap (live.py) is lifted: all the streams come from this one test
    run = Run(tmp_path, SCOREPAD_MAX_STREAMS_PER_CLIENT="1000")
    runs.append(run)
    printed = run.wait_ready()
    assert f"http://127.0.0.1:{run.port}/" in printed
    public = re.search(r"projector http://[^/]+/b/([\w-]+)", printed)
    assert public, printed
    status, headers, _ = run.get("/healthz")
    assert status == 200 and headers["server"].startswith("gunicorn")

    streams = []
    for _ in range(STREAMS):  # projectors and phones following the event, all open at once
        s = socket.create_connection(("127.0.0.1", run.port), timeout=30)
        s.sendall(f"GET /b/{public.group(1)}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Accept: text/event-stream\r\n\r\n".encode())
        streams.append(s)
    try:
        for s in streams:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                assert chunk, "a stream was closed by the server"
                head += chunk
            assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head[:200]
        status, _, body = run.get("/")  # the server still answers pages with every stream open
        assert status == 200 and b"Scorepad" in body
    finally:
        for s in streams:
            s.close()

    os.killpg(run.process.pid, signal.SIGINT)  # Ctrl+C in the terminal
    assert run.process.wait(timeout=15) == 0
    assert run.output().rstrip().endswith("Stopped.")


def test_kill_9_of_the_server_leaves_no_worker_on_the_port(tmp_path: Path, runs: list[Run]) -> None:
    run = Run(tmp_path, SCOREPAD_DEMO="0")
    runs.append(run)
    run.wait_ready()
    assert run.get("/healthz")[0] == 200
    run.process.send_signal(signal.SIGKILL)  # the master only, as a crash or the OOM killer would
    run.process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", run.port), timeout=1).close()
        except OSError:
            break  # nobody answers: the worker died with its master
        time.sleep(0.2)
    else:
        raise AssertionError("an orphan worker still answers on the port")
    again = Run(tmp_path, port=run.port, SCOREPAD_DEMO="0")  # the same port serves again at once
    runs.append(again)
    again.wait_ready()
    assert again.get("/healthz")[0] == 200


def test_a_port_in_use_is_said_plainly(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([str(SCOREPAD), "run", "--host", "127.0.0.1", "--port", str(port)],
                                env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}",
                                     "SECRET_KEY": "serve-test", "SCOREPAD_DEMO": "0"},
                                capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 1
    assert f"port {port} is already in use (another Scorepad?): try --port {port + 1}" in result.stderr
    assert "Scorepad is running" not in result.stdout


def test_dev_serves_with_werkzeug_and_its_reloader(tmp_path: Path, runs: list[Run]) -> None:
    run = Run(tmp_path, "--dev", SCOREPAD_DEMO="0")
    runs.append(run)
    printed = run.wait_ready()
    assert "development server, reloading on code changes" in printed
    deadline = time.monotonic() + 30
    while True:  # the reloader's child binds the port a moment after the banner
        try:
            status, headers, _ = run.get("/healthz")
            break
        except OSError:
            assert time.monotonic() < deadline, run.output()
            time.sleep(0.2)
    assert status == 200 and headers["server"].startswith("Werkzeug")
    os.killpg(run.process.pid, signal.SIGINT)
    run.process.wait(timeout=15)
