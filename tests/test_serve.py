"""`scorepad run` is a real server (issue 13, item 3): gunicorn with a gevent worker by default,
holding hundreds of open live streams while it still answers; Ctrl+C stops it; `kill -9` leaves no
orphan worker on the port; a port in use is said plainly; `--dev` keeps Werkzeug's reloader.

Where gunicorn cannot run (Windows) it serves with gevent's own WSGI server in one process (issue
29, item 1): the tests marked with both servers run again with that server forced
(SCOREPAD_SERVER=gevent), as Windows gets it; tests/browser/test_serve_gevent.py plays a game and
follows a projector through it.

Each test starts the command as a newcomer would, in its own process on a free port and a fresh
SQLite file."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad import serve
from tests.serving import SCOREPAD, ScorepadRun, read_answer
from tests.slowness import scaled

STREAMS = 300
SERVERS = ("gunicorn", "gevent")  # gevent: gevent.pywsgi, the server on Windows
SERVED_BY = {"gunicorn": "gunicorn", "gevent": None}  # the Server header each sends (pywsgi sends none)


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[list[ScorepadRun]]:
    started: list[ScorepadRun] = []
    yield started
    for run in started:
        run.stop()


@pytest.mark.parametrize("server", SERVERS)
def test_run_serves_and_holds_hundreds_of_live_streams(tmp_path: Path, runs: list[ScorepadRun], server: str) -> None:
    # the per-client cap (live.py) is lifted: all the streams come from this one test
    run = ScorepadRun(tmp_path, SCOREPAD_MAX_STREAMS_PER_CLIENT="1000", SCOREPAD_SERVER=server)
    runs.append(run)
    printed = run.start()
    assert f"http://127.0.0.1:{run.port}/" in printed
    assert f"Data: {tmp_path / 'run.db'}" in printed  # where the games are, beside the addresses
    assert ("Served by gevent's WSGI server, in one process." in printed) == (server == "gevent")
    public = re.search(r"projector http://[^/]+/b/([\w-]+)", printed)
    assert public, printed
    status, headers, _ = run.get("/healthz")
    assert status == 200 and headers.get("server", "").split("/")[0] == (SERVED_BY[server] or "")
    assert len(run.workers()) == (1 if server == "gunicorn" else 0)  # pywsgi: one process, no worker

    streams = []
    for _ in range(STREAMS):  # projectors and phones following the event, all open at once
        s = socket.create_connection(("127.0.0.1", run.port), timeout=scaled(30))
        s.sendall(
            f"GET /b/{public.group(1)}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
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
    assert run.process.wait(timeout=scaled(15)) == 0
    assert run.output().rstrip().endswith("Stopped.")


def test_sigterm_stops_the_gevent_server_cleanly(tmp_path: Path, runs: list[ScorepadRun]) -> None:
    """systemd's and a container's stop is SIGTERM to the one process."""
    run = ScorepadRun(tmp_path, SCOREPAD_DEMO="0", SCOREPAD_SERVER="gevent")
    runs.append(run)
    run.start()
    run.process.send_signal(signal.SIGTERM)
    assert run.process.wait(timeout=scaled(15)) == 0
    assert run.output().rstrip().endswith("Stopped.")


@pytest.mark.parametrize("server", SERVERS)
def test_kill_9_of_the_server_leaves_no_worker_on_the_port(
    tmp_path: Path, runs: list[ScorepadRun], server: str
) -> None:
    run = ScorepadRun(tmp_path, SCOREPAD_DEMO="0", SCOREPAD_SERVER=server)
    runs.append(run)
    run.start()
    assert run.get("/healthz")[0] == 200
    run.process.send_signal(signal.SIGKILL)  # the master only, as a crash or the OOM killer would
    run.process.wait(timeout=scaled(10))
    deadline = time.monotonic() + scaled(10)
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", run.port), timeout=1).close()
        except OSError:
            break  # nobody answers: the worker died with its master
        time.sleep(0.2)
    else:
        raise AssertionError("an orphan worker still answers on the port")
    again = ScorepadRun(
        tmp_path, port=run.port, SCOREPAD_DEMO="0", SCOREPAD_SERVER=server
    )  # the same port serves again at once
    runs.append(again)
    again.start()
    assert again.get("/healthz")[0] == 200


def test_a_port_in_use_is_said_plainly(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [str(SCOREPAD), "run", "--host", "127.0.0.1", "--port", str(port)],
            env={
                **os.environ,
                "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}",
                "SECRET_KEY": "serve-test",
                "SCOREPAD_DEMO": "0",
            },
            capture_output=True,
            text=True,
            timeout=scaled(60),
            cwd=tmp_path,
        )
    assert result.returncode == 1
    assert f"port {port} is already in use (another Scorepad?): try --port {port + 1}" in result.stderr
    assert "Scorepad is running" not in result.stdout


def test_dev_serves_with_werkzeug_and_its_reloader(tmp_path: Path, runs: list[ScorepadRun]) -> None:
    run = ScorepadRun(tmp_path, "--dev", SCOREPAD_DEMO="0")
    runs.append(run)
    printed = run.start()
    assert "development server, reloading on code changes" in printed
    deadline = time.monotonic() + scaled(30)
    while True:  # the reloader's child binds the port a moment after the banner
        try:
            status, headers, _ = run.get("/healthz")
            break
        except OSError:
            assert time.monotonic() < deadline, run.output()
            time.sleep(0.2)
    assert status == 200 and headers["server"].startswith("Werkzeug")
    os.killpg(run.process.pid, signal.SIGINT)
    try:
        run.process.wait(timeout=scaled(15))  # the reloader and its child stop: slow on a busy machine
    except subprocess.TimeoutExpired:
        # Seen only inside the whole suite (3 runs of 3 on 2026-11-27, never alone in 20): what each
        # process was doing is printed for the record, then Ctrl+C comes again as a user gives it.
        ps = ["ps", "-o", "pid,ppid,stat,wchan:20,etime,args", "-g", str(run.process.pid)]
        print(subprocess.run(ps, capture_output=True, text=True).stdout, run.output()[-2000:])
        os.killpg(run.process.pid, signal.SIGINT)
        run.process.wait(timeout=scaled(15))


FORWARDED = {"X_Forwarded_Proto": "https", "X_Forwarded_Host": "whist.club.example", "X_Forwarded_For": "10.1.2.3"}


@pytest.mark.parametrize("server", SERVERS)
def test_forwarded_headers_are_believed_only_behind_a_proxy(
    tmp_path: Path, runs: list[ScorepadRun], server: str
) -> None:
    """Issue 13, item 5: gunicorn itself believes X-Forwarded-Proto from 127.0.0.1 unless told not to;
    by default no program on the machine (or phone on the LAN) can make the links say https, and
    `--behind-proxy` (one proxy, SCOREPAD_PROXY_HOPS=1) makes them say the proxy's address."""
    plain = ScorepadRun(tmp_path, database="plain.db", SCOREPAD_SERVER=server)
    runs.append(plain)
    printed = plain.start()
    public = re.search(r"projector http://[^/]+/b/([\w-]+)", printed)
    assert public, printed
    status, headers, body = plain.get(f"/b/{public.group(1)}", **FORWARDED)
    assert status == 200 and b"https://" not in body and b"whist.club.example" not in body
    assert "strict-transport-security" not in headers
    plain.stop()

    proxied = ScorepadRun(
        tmp_path, "--behind-proxy", port=plain.port, database="plain.db", SCOREPAD_SERVER=server
    )  # the same demo event
    runs.append(proxied)
    printed = proxied.start()
    assert "Behind a reverse proxy (SCOREPAD_PROXY_HOPS=1)" in printed
    status, headers, body = proxied.get(f"/b/{public.group(1)}", **FORWARDED)
    assert status == 200, body
    assert f"https://whist.club.example/b/{public.group(1)}/standings".encode() in body
    assert headers["strict-transport-security"] == "max-age=31536000"


@pytest.mark.parametrize("server", SERVERS)
def test_a_chunked_form_past_the_limit_is_refused_whole(tmp_path: Path, runs: list[ScorepadRun], server: str) -> None:
    """Issue 33, item 5, through gunicorn as phones reach it: a 980 KB form sent with
    `Transfer-Encoding: chunked` was cut at 64 KB and acted on (303, a game started); it is a 413 now,
    as with a Content-Length, and a chunked form under the limit is still taken."""
    run = ScorepadRun(tmp_path, SCOREPAD_DEMO="0", SCOREPAD_SERVER=server)
    runs.append(run)
    run.start()
    status, headers, page = run.get("/new/whist")
    assert status == 200
    cookie = headers["set-cookie"].split(";")[0]
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf-token" content="([^"]+)"', page)
    assert token, page[:500]
    form = (
        f"csrf_token={(token.group(1) or token.group(2)).decode()}&team.0=Us&team.1=Them&name.0=Ann&name.1=Bob"
        f"&name.2=Cat&name.3=Dan&first_dealer=0&action=start&pad="
    ).encode()

    def post(body: bytes) -> int:
        """The form, chunked; its answer read while it is sent (the server may answer a body past the
        limit before the rest arrives, and close the connection on what is left)."""
        with socket.create_connection(("127.0.0.1", run.port), timeout=scaled(30)) as s:
            s.sendall(
                f"POST /new/whist HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
            )

            def send() -> None:
                try:
                    for start in range(0, len(body), 16 * 1024):
                        chunk = body[start : start + 16 * 1024]
                        s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                    s.sendall(b"0\r\n\r\n")
                except OSError:
                    pass

            sender = threading.Thread(target=send)
            sender.start()
            head = b""
            try:
                while b"\r\n" not in head and (chunk := s.recv(4096)):
                    head += chunk
            except ConnectionResetError:
                pass
            sender.join()
            assert head.startswith(b"HTTP/1.1 "), head
            return int(head.split()[1])

    def games() -> int:
        with sqlite3.connect(tmp_path / "run.db") as db:
            return int(db.execute("SELECT count(*) FROM game").fetchone()[0])

    assert post(form + b"x" * (980 * 1024)) == 413
    assert games() == 0
    assert post(form + b"x" * 100) == 303
    assert games() == 1


def test_the_server_is_chosen_by_platform_and_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows gets gevent's server (gunicorn does not run there); elsewhere gunicorn, unless forced."""
    assert serve.server_for("auto") == "gunicorn" and serve.server_for("") == "gunicorn"
    assert serve.server_for("gevent") == "gevent" and serve.server_for(" GEVENT ") == "gevent"
    monkeypatch.setattr(serve, "WINDOWS", True)
    assert serve.server_for("auto") == "gevent"
    with pytest.raises(ValueError, match="SCOREPAD_SERVER must be one of auto, gunicorn, gevent, not 'uwsgi'"):
        serve.server_for("uwsgi")
    assert serve.gevent_argv("0.0.0.0", 5000)[1:] == ["-m", "scorepad.serve_gevent", "0.0.0.0", "5000"]


def test_several_workers_need_gunicorn(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(SCOREPAD), "run", "--server", "gevent", "--workers", "2"],
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}", "SCOREPAD_DEMO": "0"},
        capture_output=True,
        text=True,
        timeout=scaled(60),
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("Error: --workers 2 needs gunicorn, which does not run on Windows")
    assert "Traceback" not in result.stderr


def test_on_windows_the_server_runs_as_a_child_waited_for(tmp_path: Path) -> None:
    """Windows has no exec (os.execv there ends this process and the console takes its prompt back
    while the server runs): `replace_process` runs it as a child, waits, and exits with its status,
    sitting out the Ctrl+C that reaches both."""
    code = (
        "import sys; from scorepad.serve import replace_process; "
        "replace_process([sys.executable, '-c', 'print(\"the server\"); raise SystemExit(3)'], spawn=True)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(60))
    assert result.returncode == 3 and result.stdout == "the server\n", result


def _helpers_of(run: ScorepadRun, server: str = "gunicorn") -> list[int]:
    """The worker's helper processes (scorepad/offload.py) running now (gevent's own server is its
    own worker: its helpers are its children)."""
    assert run.process is not None
    workers, found = set(run.workers()) if server == "gunicorn" else {run.process.pid}, []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent in workers and b"scorepad.offload" in command:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.parametrize("server", SERVERS)
def test_a_heavy_import_is_checked_off_the_loop_while_the_worker_answers_others(
    tmp_path: Path, runs: list[ScorepadRun], server: str
) -> None:
    """Issue 33, item 7: the largest game record (a Military game of 64 tables and 500 hands, seconds
    of CPU to check) is checked in the worker's helper process, and a request sent once the check has
    begun there is answered while the import still waits for it: the order the answers come in,
    not how long they took."""
    run = ScorepadRun(tmp_path, SCOREPAD_DEMO="0", SCOREPAD_SERVER=server)
    runs.append(run)
    run.start()
    status, headers, page = run.get("/")
    cookie = headers["set-cookie"].split(";", 1)[0]
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page)
    assert status == 200 and csrf
    teams = [{"name": f"Team {i}", "players": [f"A{i}", f"B{i}", f"X{i}", f"Y{i}"]} for i in range(1, 65)]
    hands = [{"results": [{"tricks": 3 + (hand * 7 + table * 5) % 9} for table in range(64)]} for hand in range(500)]
    record = json.dumps({"variant": "military", "options": {"days": [100] * 5}, "teams": teams, "hands": hands})
    boundary = "scorepad-serve-test"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{csrf.group(1).decode()}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="final.json"\r\n'
        f"Content-Type: application/json\r\n\r\n{record}\r\n--{boundary}--\r\n"
    ).encode()
    assert not _helpers_of(run, server)  # started for the first heavy job
    importing = socket.create_connection(("127.0.0.1", run.port), timeout=scaled(120))
    importing.sendall(
        f"POST /games/import HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n"
        f"Connection: close\r\n\r\n".encode()
        + body
    )
    deadline = time.monotonic() + scaled(60)
    while not _helpers_of(run, server):  # the worker has read the record and handed it to its helper
        assert time.monotonic() < deadline, run.output()
        assert not select.select([importing], [], [], 0)[0], "the import answered before a helper checked it"
        time.sleep(0.01)
    assert run.get("/healthz")[0] == 200
    assert not select.select([importing], [], [], 0)[0], "the import answered before the request sent after it"
    status, headers, _ = read_answer(importing)
    importing.close()
    assert status == 303 and headers["location"].startswith("/g/"), run.output()
    assert _helpers_of(run, server)  # kept for the next job
