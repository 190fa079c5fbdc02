"""Load benchmark for events (not a test): 64 tables enter 50 hands while 200 leaderboards listen.

Starts the app as it runs for real (gunicorn, one gevent worker holding every live connection, a
SQLite file), opens `--streams` server-sent-event streams on the event's leaderboard, and has the 64
table phones post their results hand by hand (with their session cookie and CSRF token, as htmx
does), the director opening each next hand. It prints, with a trivial endpoint (/healthz) measured
during the same run as the baseline:

- entry latency p50/p99 (POST of a result until its answer),
- entry-to-screen p50/p99 (POST sent until the leaderboard showing it arrives on each stream),
- errors (non-2xx answers, broken streams, entries never seen on a stream).

Targets (issue 4): zero errors, entry p99 < 50 ms, entry-to-screen p99 < 250 ms on a 2-core machine.

    .venv/bin/pip install -e . && .venv/bin/python bench/events_load.py [--hands 50 --streams 200]

`--workers 3` serves with three gevent workers on a throwaway PostgreSQL server (tests/postgres.py;
`apt-get install postgresql`), the live updates going through its LISTEN/NOTIFY (live_pg.py): the
streams spread over the workers, and each must still see every entry. `--postgresql` runs one
worker on PostgreSQL, for comparison.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
CSRF = re.compile(rb'name="csrf-token" content="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Client:
    """One phone or browser: a keep-alive connection, its session cookie and CSRF token."""

    def __init__(self, port: int, page: str) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        body = self.request("GET", page, htmx=False)[1]
        found = CSRF.search(body)
        if not found:
            raise RuntimeError(f"no CSRF token on {page}")
        self.csrf = found.group(1).decode()

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                htmx: bool = True) -> tuple[int, bytes]:
        headers = {"HX-Request": "true"} if htmx else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode({**form, "csrf_token": self.csrf})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data


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


class StreamReader(threading.Thread):
    """Many leaderboards read by one thread (selectors), so the client does not starve the server.

    Each stream notes in `seen[i]` when each key (e.g. (hand, table)) first shows; `_read` is what
    a benchmark looks for in a stream's bytes.
    """

    def __init__(self, port: int, path: str, count: int) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.seen: list[dict[tuple[int, int], float]] = [{} for _ in range(count)]
        self.buffers = [b""] * count
        self.connected = [False] * count
        self.errors: list[str] = []
        self.stop = False
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
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
                self._read(i, self.buffers[i] + chunk, time.perf_counter())

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
    conn.send((reader.seen, reader.errors))


class StreamsProcess:
    """A StreamReader in a process of its own: parsing hundreds of streams in the process that
    posts the entries made the two share one GIL, so the measuring client could add to the
    latencies it measures."""

    def __init__(self, reader_class: type[StreamReader], *args: Any) -> None:
        context = multiprocessing.get_context("fork")  # forked before this process starts any thread
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_read_in_child, args=(child, reader_class, args), daemon=True)
        self.process.start()
        self.connected: int = self.conn.recv()

    def finish(self) -> tuple[list[dict[Any, float]], list[str]]:
        """Stop reading; (what each stream saw and when, errors)."""
        self.conn.send("stop")
        seen, errors = self.conn.recv()
        self.process.join(10)
        return seen, errors


class Streams(StreamReader):
    """A standings message carries the hand in play and the tables still out (`data-hand`,
    `data-waiting`); a hand opens only once the previous one is all in."""

    def __init__(self, port: int, path: str, count: int, tables: int) -> None:
        self.tables = tables
        super().__init__(port, path, count)

    def _read(self, i: int, buffer: bytes, now: float) -> None:
        if not self.connected[i] and b": connected" in buffer:
            self.connected[i] = True
        seen = self.seen[i]
        while True:
            start = buffer.find(b'data-hand="')
            waiting_at = buffer.find(b'data-waiting="', start) if start >= 0 else -1
            end = buffer.find(b'"', waiting_at + 14) if waiting_at >= 0 else -1
            if end < 0:
                break
            hand = int(buffer[start + 11:buffer.find(b'"', start + 11)])
            waiting = {int(t) for t in buffer[waiting_at + 14:end].split(b",") if t}
            for table in range(1, self.tables + 1):
                if table not in waiting and (hand, table) not in seen:
                    seen[(hand, table)] = now
                if (hand - 1, table) not in seen:
                    seen[(hand - 1, table)] = now
            buffer = buffer[end:]
        # keep an unfinished message head (the two attributes sit side by side), else only a tail
        self.buffers[i] = buffer[start:] if start >= 0 else buffer[-64:]


def serve(database: str, workers: int = 1) -> tuple[subprocess.Popen[bytes], int]:
    """The app as it runs for real: gunicorn, gevent workers, on a free port; ready when it answers
    (and, with several, once each worker listens: gunicorn_conf starts the listener before it serves)."""
    port = free_port()
    # all the streams come from this one machine: lift the per-client cap (live.py) for the bench
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench", "SCOREPAD_DEMO": "0",
           "SCOREPAD_MAX_STREAMS": "1500", "SCOREPAD_MAX_STREAMS_PER_CLIENT": "1500"}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", str(workers), "--worker-connections", "2000",
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--config", "python:scorepad.gunicorn_conf",
         "scorepad:create_app()"],
        cwd=ROOT, env=env)
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(2.0 if workers > 1 else 0)  # the other workers boot and listen
    return server, port


def report(ran: str, latency: list[float], sent: dict[Any, float], seen_by_stream: list[dict[Any, float]],
           baseline: list[float], errors: list[str], connected: int, streams: int) -> bool:
    """Print the figures and the verdict against the targets; True when they are met."""
    delays: list[float] = []
    missing = 0
    for seen in seen_by_stream:
        for key, at in sent.items():
            arrived = seen.get(key)
            if arrived is None:
                missing += 1
            else:
                delays.append(max(0.0, arrived - at))
    if missing:
        errors.append(f"{missing} (entry, stream) pairs never arrived")
    if connected < streams:
        errors.append(f"only {connected} of {streams} streams connected")
    ms = 1000.0
    base50, base99 = percentile(baseline, 50) * ms, percentile(baseline, 99) * ms
    e50, e99 = percentile(latency, 50) * ms, percentile(latency, 99) * ms
    s50, s99 = percentile(delays, 50) * ms, percentile(delays, 99) * ms
    print(f"{ran}; {len(delays)} arrivals measured")
    print(f"baseline GET /healthz  p50 {base50:7.1f} ms  p99 {base99:7.1f} ms  ({len(baseline)} requests)")
    print(f"entry POST             p50 {e50:7.1f} ms  p99 {e99:7.1f} ms  "
          f"(x{e50 / base50:.1f} / x{e99 / base99:.1f} the baseline)")
    print(f"entry to screen        p50 {s50:7.1f} ms  p99 {s99:7.1f} ms")
    print(f"errors: {len(errors)}" + "".join(f"\n  {e}" for e in errors[:10]))
    verdict = not errors and e99 < 50 and s99 < 250
    print("targets (0 errors, entry p99 < 50 ms, entry-to-screen p99 < 250 ms):", "met" if verdict else "NOT met")
    if latency:
        print(f"(statistics: mean entry {statistics.fmean(latency) * ms:.1f} ms)")
    return verdict


def make_event(database: str, tables: int, hands: int) -> tuple[str, str, list[str]]:
    """Create the event straight in the database; return (public id, director token, table tokens)."""
    code = f"""
import json
from flask_migrate import upgrade
from scorepad import create_app
from scorepad.events import military
app = create_app()
with app.app_context():
    upgrade(directory=app.extensions["migrate"].directory)
    days = [min({hands}, 30)] + ([{hands} - 30] if {hands} > 30 else [])
    e = military.create_event("Bench", [f"Team {{i + 1}}" for i in range({tables})], days)
    print(json.dumps([e.public_id, e.director_token, [t.token for t in e.tables]]))
"""
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    import json

    public, director, tokens = json.loads(out.stdout.strip().splitlines()[-1])
    return public, director, tokens


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8, help="tables posting at the same moment")
    parser.add_argument("--hand-seconds", type=float, default=2.0, help="how long the tables take to report a hand")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers (several: on PostgreSQL)")
    parser.add_argument("--postgresql", action="store_true", help="a throwaway PostgreSQL server, not SQLite")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    cluster = None
    if args.postgresql or args.workers > 1:
        sys.path.insert(0, str(ROOT))
        from tests.postgres import Cluster, find_binaries

        binaries = find_binaries()
        if binaries is None:
            sys.exit("PostgreSQL is not installed (apt-get install postgresql)")
        cluster = Cluster(binaries)
        cluster.start()
        database = cluster.url(cluster.create_database())
    else:
        database = f"sqlite:///{folder / 'bench.db'}"
    try:
        return run(args, database)
    finally:
        if cluster is not None:
            cluster.stop()


def run(args: argparse.Namespace, database: str) -> int:
    public, director_token, tokens = make_event(database, args.tables, args.hands)
    server, port = serve(database, args.workers)
    try:
        kind = "PostgreSQL, LISTEN/NOTIFY" if database.startswith("postgresql") else "SQLite"
        print(f"gunicorn (gevent, {args.workers} worker{'s' if args.workers > 1 else ''}, {kind}) on port {port}; "
              f"{args.tables} tables, {args.hands} hands, {args.streams} leaderboard streams")
        streams = StreamsProcess(Streams, port, f"/b/{public}/events?only=board", args.streams, args.tables)
        connected = streams.connected
        phones = [Client(port, f"/t/{t}") for t in tokens]
        director = Client(port, f"/d/{director_token}")

        prober = Baseline(port)
        prober.start()

        sent: dict[tuple[int, int], float] = {}
        latency: list[float] = []
        errors: list[str] = []
        rng = random.Random(7)

        def post(hand: int, table: int) -> None:
            time.sleep(rng.random() * args.hand_seconds)
            form = {"hand": str(hand), "tricks": str(rng.randint(3, 11)), "revoke": "none"}
            start = time.perf_counter()
            sent[(hand, table)] = start
            status, _ = phones[table - 1].request("POST", f"/t/{tokens[table - 1]}/result", form)
            latency.append(time.perf_counter() - start)
            if status != 200:
                errors.append(f"hand {hand} table {table}: HTTP {status}")

        started = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            for hand in range(1, args.hands + 1):
                list(pool.map(lambda t, h=hand: post(h, t), range(1, args.tables + 1)))
                status, _ = director.request("POST", f"/d/{director_token}/advance", {"hand": str(hand)})
                if status != 200:
                    errors.append(f"advance after hand {hand}: HTTP {status}")
        elapsed = time.perf_counter() - started
        time.sleep(1.0)  # let the last pushes arrive
        prober.done.set()
        seen_by_stream, stream_errors = streams.finish()
        errors.extend(stream_errors + prober.errors)

        verdict = report(f"ran {len(latency)} entries in {elapsed:.1f} s", latency, sent, seen_by_stream,
                         prober.samples, errors, connected, args.streams)
        return 0 if verdict else 1
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # open streams hold the graceful stop
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
