"""What the event load benchmarks share (bench/events_load.py, bench/bid_whist_load.py): serving this
checkout's app for real, phones that post what the browser posts, leaderboard streams read apart,
a pace kept on the clock, and one report with the targets.

Why these pieces and not simpler ones:

- The server is gunicorn with gevent workers on this checkout's code (PYTHONPATH and --chdir, then
  checked: the interpreter's editable install may point at another checkout), on a SQLite file or a
  throwaway PostgreSQL server (tests/postgres.py) when several workers share the live updates.
- A phone posts the hidden fields of the form the previous answer swapped in (the CSRF token, the
  hand number, the hand-state fingerprint `state`, the sheet's revision `sheet`...) plus what the
  player taps, as htmx does: a post built by hand drifts from the app's forms and tests a path the
  browser never takes (a missing `state` skips the stale-page check).
- The load is a schedule, not a spread of sleeps: each table acts at a random moment within each
  period, one thread per table, so 64 tables every 2 s are 32 entries a second whatever the
  server's answer time (the achieved rate is printed beside the intended one, and falls short only
  when the server cannot keep up). A burst phase then has every table post at once (or within
  `--burst-window`): the hall finishing a hand together.
- The streams are read in a process of their own, so parsing hundreds of them does not share the
  GIL with the threads that time the entries.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import multiprocessing
import os
import random
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]  # the checkout whose code the benchmark serves
CSRF = re.compile(rb'name="csrf-token" content="([^"]+)"')
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
FORM_ACTION = re.compile(r'\baction="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
BUTTON = re.compile(r'<button type="submit" name="([^"]+)" value="([^"]*)"')

# The targets (issue 17): what a run must show to pass.
ENTRY_P99_MS = 50.0
ENTRY_BASELINE_RATIO = 3.0
SCREEN_P99_MS = 100.0
# Under --cpu-quota (issue 28): a Raspberry-Pi-class core at the hall's real pace
QUOTA_ENTRY_P99_MS = 250.0
QUOTA_SCREEN_P99_MS = 500.0
QUOTA_BURST_SCREEN_S = 2.0  # every entry of a burst on every screen within this long after its hand's last post
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")  # cgroup v1's cpu controller (this machine kind, and CI)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- forms --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """One `<form>` of an answer: where it posts, its hidden fields, its submit buttons (name, value)."""

    url: str
    hidden: dict[str, str]
    buttons: list[tuple[str, str]]

    def choices(self, name: str) -> list[str]:
        return [v for n, v in self.buttons if n == name]


def forms(page: str) -> list[Form]:
    """Every form of a page or fragment (the app writes its hidden inputs as `type, name, value`)."""
    found = []
    for attributes, body in FORM.findall(page):
        url = FORM_ACTION.search(attributes)
        found.append(
            Form(
                html.unescape(url.group(1)) if url else "",
                {k: html.unescape(v) for k, v in HIDDEN.findall(body)},
                [(k, html.unescape(v)) for k, v in BUTTON.findall(body)],
            )
        )
    return found


class FormMissing(Exception):
    """The answer does not hold the form the next step needs: the app answered something else."""


def find_form(page: str, url_ends: str, **hidden: str) -> Form:
    """The form posting to a URL ending in `url_ends` whose hidden fields hold `hidden`; "" for a
    field means it must be absent (a signature's form, not the dispute form beside it)."""
    for form in forms(page):
        if form.url.endswith(url_ends) and all(form.hidden.get(k, "") == v for k, v in hidden.items()):
            return form
    wanted = ", ".join(f"{k}={v!r}" for k, v in hidden.items())
    raise FormMissing(f"no form to {url_ends}{f' with {wanted}' if wanted else ''} in the answer")


# --- phones and the baseline --------------------------------------------------------------------


class Client:
    """One phone or browser: a keep-alive connection, its session cookie and CSRF token; `page` is the
    last answer's text (the fragment htmx swapped in), where the next form comes from."""

    timeout = 30.0  # seconds an answer may take (bench/heavy_neighbours.py waits out whole restores)

    def __init__(self, port: int, page: str) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=self.timeout)
        self.cookie = ""
        body = self.request("GET", page, htmx=False)[1]
        found = CSRF.search(body)
        if not found:
            raise RuntimeError(f"no CSRF token on {page}")
        self.csrf = found.group(1).decode()
        self.page = body.decode()

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, htmx: bool = True
    ) -> tuple[int, bytes]:
        headers = {"HX-Request": "true"} if htmx else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode({"csrf_token": self.csrf, **form})  # a form's own token, when it has one
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                if attempt:
                    raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data

    def get(self, path: str) -> int:
        """An htmx GET (a panel refreshed); its answer becomes `page`."""
        status, data = self.request("GET", path)
        self.page = data.decode()
        return status

    def submit(self, form: Form, **tapped: str) -> int:
        """Post `form` as htmx does: its hidden fields plus what the player tapped (the button's
        name and value, a radio chip); the answer becomes `page`."""
        status, data = self.request("POST", form.url, {**form.hidden, **tapped})
        self.page = data.decode()
        return status


class Baseline(threading.Thread):
    """GET /healthz every 20 ms while the benchmark runs: the same server's trivial answer, for scale."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.samples: list[float] = []
        self.errors: list[str] = []
        self.done = threading.Event()

    def run(self) -> None:
        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self.done.is_set():
            start = time.perf_counter()
            try:
                client.request("GET", "/healthz")
                response = client.getresponse()
                response.read()
            except OSError as e:
                self.errors.append(f"baseline: {e}")
                client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            if response.status == 200:
                self.samples.append(time.perf_counter() - start)
            else:
                self.errors.append(f"baseline: HTTP {response.status}")
            time.sleep(0.02)


# --- streams ------------------------------------------------------------------------------------


class StreamReader(threading.Thread):
    """Many leaderboards read by one thread (selectors), so the client does not starve the server.

    Each stream notes in `seen[i]` when each key (e.g. (hand, table)) first shows; `_read` is what
    a benchmark looks for in a stream's bytes.
    """

    def __init__(self, port: int, path: str | list[str], count: int) -> None:
        """`count` streams of `path`, or of `path[i]` each (pages that each ask for their own names)."""
        super().__init__(daemon=True)
        paths = [path] * count if isinstance(path, str) else path
        self.selector = selectors.DefaultSelector()
        self.seen: list[dict[Any, float]] = [{} for _ in range(count)]
        self.buffers = [b""] * count
        self.connected = [False] * count
        self.errors: list[str] = []
        self.traffic: Counter[str] = Counter()  # bytes read, and messages by kind (a whole board, or a patch of it)
        self._tails = [b""] * count  # a message's name cut in two by a read
        self.stop = False
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(f"GET {paths[i]} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, i)

    def all_connected(self, timeout: float) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline and not all(self.connected):
            time.sleep(0.05)
        return sum(self.connected)

    def run(self) -> None:
        while not self.stop:
            for key, _ in self.selector.select(timeout=0.2):
                i = key.data
                try:
                    chunk = key.fileobj.recv(262144)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError as e:
                    self.errors.append(f"stream {i}: {e}")
                    self.selector.unregister(key.fileobj)
                    continue
                if not chunk:
                    if not self.stop:
                        self.errors.append(f"stream {i} closed by the server")
                    self.selector.unregister(key.fileobj)
                    continue
                self._count(i, chunk)
                self._read(i, self.buffers[i] + chunk, time.perf_counter())

    def _count(self, i: int, chunk: bytes) -> None:
        self.traffic["bytes"] += len(chunk)
        looked = self._tails[i] + chunk
        for kind in (b"board", b"patch"):
            self.traffic[kind.decode()] += looked.count(b"event: " + kind + b"\n")
        self._tails[i] = looked[-12:]  # shorter than a message's name: never counted twice

    def _read(self, i: int, buffer: bytes, now: float) -> None:
        raise NotImplementedError


def _read_in_child(conn: Any, reader_class: type[StreamReader], args: tuple[Any, ...]) -> None:
    reader = reader_class(*args)
    reader.start()
    conn.send(reader.all_connected(30))
    conn.recv()  # the benchmark is over
    time.sleep(0.3)
    reader.stop = True
    reader.join(5)
    conn.send((reader.seen, reader.errors, dict(reader.traffic)))


class StreamsProcess:
    """A StreamReader in a process of its own: parsing hundreds of streams in the process that
    posts the entries made the two share one GIL, so the measuring client could add to the
    latencies it measures. time.perf_counter is the same clock in both (CLOCK_MONOTONIC)."""

    def __init__(self, reader_class: type[StreamReader], *args: Any) -> None:
        context = multiprocessing.get_context("fork")  # forked before this process starts any thread
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_read_in_child, args=(child, reader_class, args), daemon=True)
        self.process.start()
        child.close()  # the child's end only in the child: if it dies, recv() here ends (EOFError), not waits
        try:
            self.connected: int = self.conn.recv()
        except EOFError:
            raise RuntimeError("the streams' reader stopped before they connected (its error is above)") from None
        self.traffic: dict[str, int] = {}

    def finish(self) -> tuple[list[dict[Any, float]], list[str]]:
        """Stop reading; (what each stream saw and when, errors). `traffic` then holds the bytes
        read from all the streams and how many whole boards and patches came."""
        self.conn.send("stop")
        try:
            seen, errors, self.traffic = self.conn.recv()
        except EOFError:
            raise RuntimeError("the streams' reader stopped before the end (its error is above)") from None
        self.process.join(10)
        return seen, errors


# --- serving this checkout ----------------------------------------------------------------------


def app_env(database: str, **extra: str) -> dict[str, str]:
    """The environment of every process that runs the app's code: this checkout first on the path."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "bench",
        "SCOREPAD_DEMO": "0",
        "PYTHONPATH": path,
        **extra,
    }


def check_checkout(env: dict[str, str]) -> None:
    """Refuse to measure another checkout's code: the interpreter may come from a virtualenv whose
    editable install points elsewhere (another worktree), and its path would win without ours."""
    out = subprocess.run(
        [sys.executable, "-c", "import scorepad; print(scorepad.__file__)"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(out).resolve().is_relative_to(ROOT):
        sys.exit(f"the server would run {out}, not this checkout ({ROOT})")


def in_app(database: str, code: str) -> Any:
    """Run `code` (which prints JSON last) in the app's context on `database`, migrated first; the
    benchmark's event is built straight through the services, not timed."""
    prelude = (
        "import json\nfrom flask_migrate import upgrade\nfrom scorepad import create_app\n"
        "app = create_app()\nctx = app.app_context()\nctx.push()\n"
        "upgrade(directory=app.extensions['migrate'].directory)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", prelude + code], capture_output=True, text=True, env=app_env(database), cwd=ROOT
    )
    if out.returncode:
        sys.exit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


_QUOTA_GROUPS: dict[int, Path] = {}  # a server's pid: the cgroup it runs in (`--cpu-quota`)


def quota_group(share: float) -> Path:
    """A new cgroup v1 `cpu` group whose processes together get `share` of one core: the CFS quota
    over its period (100 ms), so a 0.25 share runs at most 25 ms in every 100 ms, as a slow core would
    (the latency of each request stretches, not only the throughput)."""
    group = CGROUP_CPU / f"scorepad-bench-{os.getpid()}-{len(_QUOTA_GROUPS)}"
    group.mkdir()
    (group / "cpu.cfs_period_us").write_text("100000")
    (group / "cpu.cfs_quota_us").write_text(str(max(1000, int(share * 100_000))))
    return group


def _enter(group: Path | None, cpus: set[int] | None) -> Callable[[], None] | None:
    """What the server's first process does before it runs: join the quota's group and keep to
    `cpus` (its workers, forked later, inherit both)."""
    if group is None and not cpus:
        return None

    def enter() -> None:
        if group is not None:
            (group / "cgroup.procs").write_text(str(os.getpid()))
        if cpus:
            os.sched_setaffinity(0, cpus)

    return enter


def serve(
    database: str,
    workers: int = 1,
    cpus: set[int] | None = None,
    quota: float | None = None,
    app: str = "scorepad:create_app()",
) -> tuple[subprocess.Popen[bytes], int]:
    """The app as it runs for real: gunicorn, gevent workers, on a free port; ready when it answers
    (and, with several, once each worker listens: gunicorn_conf starts the listener before it serves).
    `cpus`: the only CPUs its processes run on (`--server-cpus`); `quota`: the share of one core
    they get together (`--cpu-quota`); `app`: gunicorn's app, from the checkout's root."""
    port = free_port()
    group = quota_group(quota) if quota else None
    # all the streams come from this one machine: lift the per-client cap (live.py) for the bench
    env = app_env(database, SCOREPAD_MAX_STREAMS="1500", SCOREPAD_MAX_STREAMS_PER_CLIENT="1500")
    check_checkout(env)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-k",
            "gevent",
            "-w",
            str(workers),
            "--worker-connections",
            "2000",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--chdir",
            str(ROOT),
            "--graceful-timeout",
            "3",
            "--config",
            "python:scorepad.gunicorn_conf",
            app,
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        preexec_fn=_enter(group, cpus),
    )
    if group is not None:
        _QUOTA_GROUPS[server.pid] = group
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(2.0 if workers > 1 else 0)  # the other workers boot and listen
    return server, port


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop gunicorn, master and workers (its own process group), before the database goes: a
    worker left behind would outlive a throwaway PostgreSQL server and complain about it."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:  # open streams hold the graceful stop
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
    deadline = time.monotonic() + 10
    try:
        while time.monotonic() < deadline:  # the workers, gone with their master or just after it
            try:
                os.killpg(server.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        os.killpg(server.pid, signal.SIGKILL)
    finally:
        group = _QUOTA_GROUPS.pop(server.pid, None)
        if group is not None:
            _remove_group(group)


def _remove_group(group: Path) -> None:
    """Remove a quota's group once its processes are gone (a group with processes cannot be)."""
    for _ in range(50):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.1)
    print(f"(the cgroup {group} is left behind: remove it with rmdir)", file=sys.stderr)


@contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    """A SQLite file in a fresh folder, or (`--postgresql`, or several `--workers`, which need one
    database and LISTEN/NOTIFY between them) a database on a throwaway PostgreSQL server."""
    if not (args.postgresql or args.workers > 1):
        yield f"sqlite:///{Path(tempfile.mkdtemp(prefix='scorepad-bench-')) / 'bench.db'}"
        return
    sys.path.insert(0, str(ROOT))
    from tests.postgres import Cluster, find_binaries

    binaries = find_binaries()
    if binaries is None:
        sys.exit("PostgreSQL is not installed (apt-get install postgresql)")
    cluster = Cluster(binaries)
    mine = os.sched_getaffinity(0)
    if args.server_cpus:  # the database server runs beside the app's, not the load generator's
        os.sched_setaffinity(0, args.server_cpus)
    try:
        cluster.start()
    finally:
        os.sched_setaffinity(0, mine)
    try:
        yield cluster.url(cluster.create_database())
    finally:
        cluster.stop()


def board_stream(public_id: str, args: argparse.Namespace) -> str:
    """A leaderboard's stream, as the projector opens it: whole boards and patches of them."""
    return f"/b/{public_id}/events?only=" + ("board" if args.whole_boards else "board,patch")


def server_words(database: str, workers: int, cpus: set[int] | None = None, quota: float | None = None) -> str:
    kind = "PostgreSQL, LISTEN/NOTIFY" if database.startswith("postgresql") else "SQLite"
    where = (
        f"; on CPU {','.join(map(str, sorted(cpus)))}, the load generator on CPU "
        f"{','.join(map(str, sorted(os.sched_getaffinity(0))))}"
        if cpus
        else ""
    )
    limit = (
        f"; limited to {quota:g} of one core in all (cgroup v1 cpu quota, a slow box such as a Raspberry Pi; "
        f"the database server{' is not' if database.startswith('postgresql') else ' is SQLite, in it'})"
        if quota
        else ""
    )
    return f"gunicorn (gevent, {workers} worker{'s' if workers > 1 else ''}, {kind}{where}{limit})"


# --- the server's CPU ---------------------------------------------------------------------------


TICK = os.sysconf("SC_CLK_TCK")


def stat_fields(path: str | Path) -> list[str]:
    """The fields of a /proc/<pid>/stat (or task stat) file after the command's name, which may hold
    spaces and parentheses: [0] is the state, [2] the process group, [11:15] utime, stime and the
    same of the children waited for, in ticks. OSError when the process is gone."""
    return Path(path).read_text().rsplit(")", 1)[1].split()


def group_pids(group: int) -> list[int]:
    """The processes of process group `group`, found by a scan of /proc (about 10 ms with a hundred
    processes: too slow to repeat between requests, see `ServerCpu`)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat_fields(stat)[2]) == group:  # pgrp
                pids.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return pids


def server_cpu(group: int, pids: list[int] | None = None) -> tuple[float, float]:
    """(all, off the loop): CPU seconds (user + system) of every process in the server's process
    group (or of `pids`, found by `group_pids` before), and the part of it not on a worker's main
    thread (its other threads, other processes than gunicorn's master and workers). Threads that
    ended are counted in their process, and processes that ended in the process that waited for
    them: a worker killed (WORKER TIMEOUT) in gunicorn's master, counted as the loop's."""
    total = off = 0.0
    for pid in group_pids(group) if pids is None else pids:
        try:
            fields = stat_fields(f"/proc/{pid}/stat")
            if int(fields[2]) != group:  # pgrp: the pid was reused
                continue
            cpu = (int(fields[11]) + int(fields[12])) / TICK
            waited = (int(fields[13]) + int(fields[14])) / TICK  # its children that ended
            main = stat_fields(f"/proc/{pid}/task/{pid}/stat")
            main_cpu = (int(main[11]) + int(main[12])) / TICK
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        master = pid == group
        total += cpu + waited
        off += (cpu - main_cpu if b"gunicorn" in cmdline else cpu) + (0 if master else waited)
    return total, off


class ServerCpu:
    """The server group's CPU read often: between one request and the next of a sequence. A whole
    scan of /proc (`server_cpu(group)`, about 10 ms) after each request leaves the server idle that
    long, and a server woken from idle spends more CPU on its next request than one kept busy: an
    empty POST cost 1.1-1.5 ms back to back, 2.6-3.2 ms with a scan after each, 1.8-2.8 ms with a
    1.5 ms sleep instead (2026-11-28, bench/floor.py's route). A bare request measured back to back
    was being compared with work measured with gaps. So the group's processes are found once, and
    again by `rescan` (at the end of a block: a process started meanwhile is counted from then on),
    and the bare requests are read after each request as the work is."""

    def __init__(self, group: int) -> None:
        self.group = group
        self.pids = group_pids(group)

    def read(self) -> float:
        """`server_cpu`'s first figure, from each process's stat alone (a tenth of a millisecond)."""
        total = 0
        for pid in self.pids:
            try:
                fields = stat_fields(f"/proc/{pid}/stat")
            except (OSError, IndexError):
                continue
            if int(fields[2]) == self.group:  # pgrp: the pid was not reused
                total += sum(int(f) for f in fields[11:15])  # utime, stime, and of the children waited for
        return total / TICK

    def rescan(self) -> float:
        self.pids = group_pids(self.group)
        return self.read()


# --- arguments ----------------------------------------------------------------------------------


def arguments(
    description: str, defaults: dict[str, Any], quick: dict[str, Any], extra: Callable[[argparse.ArgumentParser], None]
) -> argparse.Namespace:
    """The flags both benchmarks take, with each one's full-size `defaults`; `--quick` swaps in the
    smoke-run sizes `quick` (flags given still win), for a run of under a minute."""
    parser = argparse.ArgumentParser(description=description)
    extra(parser)
    parser.add_argument("--streams", type=int, help="leaderboard streams (server-sent events)")
    parser.add_argument(
        "--hand-seconds", type=float, help="the period of a hand: each table acts at a random moment within each period"
    )
    parser.add_argument("--burst-hands", type=int, help="the last hands, played as a burst")
    parser.add_argument(
        "--burst-window",
        type=float,
        help="in a burst hand every table posts within this many seconds (0: at the same instant)",
    )
    parser.add_argument("--workers", type=int, help="gunicorn workers (several: on PostgreSQL)")
    parser.add_argument("--postgresql", action="store_true", help="a throwaway PostgreSQL server, not SQLite")
    parser.add_argument("--seed", type=int, help="of the random moments and results")
    parser.add_argument(
        "--whole-boards",
        action="store_true",
        help="the streams ask for whole boards only, as pages did before patches (for comparison)",
    )
    parser.add_argument(
        "--server-cpus",
        type=lambda text: {int(n) for n in text.split(",")},
        help="the server runs on these CPUs (e.g. 0) and this load generator and its streams' "
        "reader on the others, so that they do not compete for the server's cores",
    )
    parser.add_argument(
        "--cpu-quota",
        type=float,
        help="the server's processes together get this share of one core (e.g. 0.25, a Raspberry-Pi-class "
        "core), through a cgroup v1 cpu quota (root); the latency targets become the slow box's",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: " + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in quick.items()),
    )
    parser.set_defaults(**{"burst_window": 0.0, "workers": 1, "seed": 7, **defaults})
    if parser.parse_args().quick:
        parser.set_defaults(**quick)
    args = parser.parse_args()
    if args.server_cpus:
        others = os.sched_getaffinity(0) - args.server_cpus
        if not others or not args.server_cpus <= os.sched_getaffinity(0):
            parser.error(
                f"--server-cpus: this machine's CPUs are {sorted(os.sched_getaffinity(0))}; give some, not all"
            )
        os.sched_setaffinity(0, others)  # this process and what it starts (the streams' reader)
    if args.cpu_quota is not None:
        if not 0.01 <= args.cpu_quota <= (os.cpu_count() or 1):
            parser.error(f"--cpu-quota: a share of one core, from 0.01 to this machine's cores, not {args.cpu_quota:g}")
        if not os.access(CGROUP_CPU, os.W_OK):
            parser.error(
                f"--cpu-quota needs cgroup v1's cpu controller at {CGROUP_CPU}, writable (run as root); "
                "this machine has none that this user may write"
            )
    return args


# --- the schedule -------------------------------------------------------------------------------


def wait_until(moment: float) -> None:
    delay = moment - time.perf_counter()
    if delay > 0:
        time.sleep(delay)


def moments(rng: random.Random, start: float, window: float, count: int) -> list[float]:
    """`count` moments in order at random within [start, start + window)."""
    return sorted(start + rng.random() * window for _ in range(count))


def together(window: float) -> str:
    """How a burst releases its posts, in words."""
    return f"within {window:g} s" if window else "at once"


class Clock:
    """Periods of `seconds` back to back: the next starts when the last one's time is up, or at once
    when the server kept the tables past it (the achieved rate then falls short of the intended)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.next: float | None = None

    def period(self) -> float:
        """Wait for the next period; its start."""
        start = time.perf_counter() if self.next is None else max(time.perf_counter(), self.next)
        wait_until(start)
        self.next = start + self.seconds
        return start


# --- what a run records, and the report ---------------------------------------------------------


@dataclass
class Phase:
    """One phase of a run (steady, burst, signing): its posts' latencies by kind ("entry" is the one
    the targets are about), when each entry that should reach the screens was sent, and how long
    the phase lasted (its periods end to end) and what rate it intended."""

    name: str
    intended: float  # entries per second
    latency: dict[str, list[float]] = field(default_factory=dict)
    sent: dict[Any, float] = field(default_factory=dict)
    seconds: float = 0.0
    note: str = ""  # how the phase paces its entries

    def entries(self) -> list[float]:
        return self.latency.get("entry", [])


class Run:
    """The record of one benchmark run, shared by the tables' threads."""

    def __init__(self) -> None:
        self.phases: dict[str, Phase] = {}
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def phase(self, name: str, intended: float, note: str = "") -> Phase:
        with self.lock:
            return self.phases.setdefault(name, Phase(name, intended, note=note))

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def timed(self, phase: Phase, kind: str, action: Callable[[], int], what: str, key: Any = None) -> bool:
        """Time `action` (a request; its HTTP status) as a `kind` of `phase` ("entry", the posts the
        targets are about, or a label such as "preview POST" printed apart); `key` names the entry
        the screens should show. False (an error noted) when it was not a 200."""
        start = time.perf_counter()
        try:
            status = action()
        except (OSError, http.client.HTTPException) as e:
            self.error(f"{what}: {e}")
            return False
        took = time.perf_counter() - start
        with self.lock:
            phase.latency.setdefault(kind, []).append(took)
            if key is not None:
                phase.sent[key] = start
        if status != 200:
            self.error(f"{what}: HTTP {status}")
            return False
        return True

    def period(self, phase: Phase, start: float, clock: Clock) -> None:
        """Count a period just played into its phase's duration (to its scheduled end, or later)."""
        phase.seconds += max(time.perf_counter(), start + clock.seconds) - start


def report(
    title: str,
    run: Run,
    baseline: list[float],
    seen_by_stream: list[dict[Any, float]],
    connected: int,
    streams: int,
    traffic: dict[str, int] | None = None,
    notes: dict[str, list[str]] | None = None,
    quota: float | None = None,
    hand_of: Callable[[Any], Any] = lambda key: key[0],
) -> bool:
    """Print the run's figures, phase by phase, and each target as PASS or MISS; True when all pass.
    `notes`: more lines a benchmark prints under a phase's own (by its name), after its latencies.
    `quota`: the run's --cpu-quota, whose slow box has targets of its own (issue 28), the burst's
    measured from each hand's last post (`hand_of` an entry's key)."""
    ms = 1000.0
    entry_p99_ms, screen_p99_ms = (QUOTA_ENTRY_P99_MS, QUOTA_SCREEN_P99_MS) if quota else (ENTRY_P99_MS, SCREEN_P99_MS)
    errors = list(run.errors)
    if connected < streams:
        errors.append(f"only {connected} of {streams} streams connected")
    base50, base99 = percentile(baseline, 50) * ms, percentile(baseline, 99) * ms
    print(title)
    print(
        f"baseline GET /healthz    p50 {base50:7.1f} ms  p99 {base99:7.1f} ms  ({len(baseline)} requests, "
        f"the whole run)"
    )
    targets: list[tuple[bool, str]] = []
    expected = {key: at for phase in run.phases.values() for key, at in phase.sent.items()}
    for phase in run.phases.values():
        entries = phase.entries()
        rate = len(entries) / phase.seconds if phase.seconds else float("nan")
        print(
            f"{phase.name}: {len(entries)} entries in {phase.seconds:.1f} s, {rate:.1f} entries/s "
            f"(intended {phase.intended:.1f}/s{': ' + phase.note if phase.note else ''})"
        )
        for kind, values in phase.latency.items():
            p50, p99 = percentile(values, 50) * ms, percentile(values, 99) * ms
            scale = f"  (x{p50 / base50:.1f} / x{p99 / base99:.1f} the baseline)" if kind == "entry" else ""
            print(
                f"  {'entry POST' if kind == 'entry' else kind:22} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
                f"  ({len(values)}){scale}"
            )
        delays = [max(0.0, seen[key] - at) for seen in seen_by_stream for key, at in phase.sent.items() if key in seen]
        s50, s99 = percentile(delays, 50) * ms, percentile(delays, 99) * ms
        if phase.sent:
            print(f"  {'entry to screen':22} p50 {s50:7.1f} ms  p99 {s99:7.1f} ms  ({len(delays)} arrivals)")
        for line in (notes or {}).get(phase.name, []):
            print(f"  {line}")
        slow_burst = bool(quota) and phase.name == "burst"  # its target is the screens' lag behind the hand
        if entries and not slow_burst:
            e99 = percentile(entries, 99) * ms
            targets.append((e99 < entry_p99_ms, f"{phase.name}: entry p99 {e99:.1f} ms < {entry_p99_ms:.0f} ms"))
            if not quota:
                targets.append(
                    (
                        e99 <= ENTRY_BASELINE_RATIO * base99,
                        f"{phase.name}: entry p99 {e99:.1f} ms <= {ENTRY_BASELINE_RATIO:.0f} x the baseline's "
                        f"p99 ({ENTRY_BASELINE_RATIO * base99:.1f} ms)",
                    )
                )
        if phase.sent and not slow_burst:
            targets.append(
                (s99 < screen_p99_ms, f"{phase.name}: entry-to-screen p99 {s99:.1f} ms < {screen_p99_ms:.0f} ms")
            )
        if slow_burst and phase.sent:
            last: dict[Any, float] = {}
            for key, at in phase.sent.items():
                last[hand_of(key)] = max(at, last.get(hand_of(key), at))
            late = max(
                (seen[key] - last[hand_of(key)] for seen in seen_by_stream for key in phase.sent if key in seen),
                default=float("nan"),
            )
            print(f"  {'on every screen':22} {late * ms:7.1f} ms after its hand's last post, at the latest")
            targets.append(
                (
                    late <= QUOTA_BURST_SCREEN_S,
                    f"burst: every entry on every screen {late:.2f} s after its hand's last post "
                    f"<= {QUOTA_BURST_SCREEN_S:g} s",
                )
            )
    counts = [sum(1 for key in expected if key in seen) for seen in seen_by_stream]
    spread = Counter(counts)
    short = [i for i, n in enumerate(counts) if n < len(expected)]
    print(
        f"streams: {connected} of {streams} connected; boards seen per stream: "
        + ", ".join(f"{n} of {len(expected)} on {spread[n]}" for n in sorted(spread, reverse=True))
        + (f" (short: {', '.join(map(str, short[:10]))}{'...' if len(short) > 10 else ''})" if short else "")
    )
    if traffic and streams:
        pushes = traffic.get("board", 0) + traffic.get("patch", 0)
        print(
            f"streams: {traffic.get('bytes', 0) / streams / 1024:.0f} KB read per stream; {pushes / streams:.0f} pushes "
            f"each ({traffic.get('board', 0) / streams:.0f} whole boards, {traffic.get('patch', 0) / streams:.0f} "
            f"patches), {traffic.get('bytes', 0) / max(pushes, 1) / 1024:.1f} KB a push on average (uncompressed)"
        )
    print(f"errors: {len(errors)}" + "".join(f"\n  {e}" for e in errors[:10]))
    targets.insert(0, (not errors, f"{len(errors)} errors"))
    targets.append(
        (
            connected == streams and not short and bool(expected),
            f"every stream received every board ({len(counts) - len(short)} of {streams} streams "
            f"saw all {len(expected)})",
        )
    )
    print("targets:")
    for ok, words in targets:
        print(f"  {'PASS' if ok else 'MISS'} {words}")
    return all(ok for ok, _ in targets)
