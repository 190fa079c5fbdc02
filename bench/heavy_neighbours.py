"""Heavy neighbours (not a test): what the heaviest requests the app accepts cost the tables (issue 33).

One gevent worker serves every request: CPU-bound Python in one request holds up all the others
until it ends. This serves this checkout exactly as `scorepad run` does (gunicorn, one gevent
worker, a SQLite file: bench/loadkit.py's `serve`) and measures, each beside a bare
`GET /healthz` in the same run,

- a table's entry: a Military Whist table's phone (8 tables, 5 days of 100 hands) playing its
  result through its forms as htmx does (the panel, the tricks tapped: a preview, then Confirm:
  the entry), table after table, the director opening each next hand;
- the home page: `GET /` as a new visitor;

(a) alone, then (b) while 4 clients loop one kind of heavy request, a phase for each kind:

- import: the largest game record the app's rules and limits accept as one piece of work, a
  Military Whist game of 64 tables and 500 hands (5 days of 100, the most the options take),
  0.5 MB, posted to "Import a game record" (`POST /games/import`, a file);
- restore: the largest event backup: a Military Whist event of 64 tables and 500 hands played,
  5.5 MB (the limit is 8 MB), posted to `POST /events/restore`;
- exports: of that event and that game, in turn: the backup download (`/d/<token>/backup`),
  the event's JSON (`/b/<id>/event.json`), the game's JSON and CSV and its result card (PNG).

Printed for each: latency p50 / p99 (and as a ratio of the healthz p50 / p99 of the same phase),
and the server's CPU time: per request, from a pass of each kind alone, one request after
another (utime + stime of every process of the server, from /proc, over the pass, divided by the
requests); under load, its CPU per second of the phase and the part of it spent off the worker's
main thread (threads or processes of its own: work taken off the loop). The heavy clients post
and do not follow the answer's redirect; what the page it leads to costs (the imported game's
scorer page, the restored event's control room) is printed in the pass alone.

The record and the backup are made here, from the rules' own ledger (days closed as the event
would have closed them), not through the app: building such an event through its services takes
a quarter of an hour.

    .venv/bin/python bench/heavy_neighbours.py --server-cpus 0 [--seconds 20 --heavy-clients 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from loadkit import Client, FormMissing, find_form, in_app, percentile, serve, server_cpu, server_words, stop

from scorepad.rules.military import ledger  # the backup's days closed, as the event would close them
from scorepad.rules.record import parse_record

BOUNDARY = "----scorepad-bench-boundary"
MS = 1000.0


# --- the heavy documents ------------------------------------------------------------------------


def largest_record(tables: int = 64, days: tuple[int, ...] = (100,) * 5, seed: int = 33) -> dict[str, object]:
    """A Military Whist game record of `tables` tables and every scheduled hand, as "Import a game
    record" takes it."""
    rng = random.Random(seed)
    teams = [
        {"name": f"Team {i + 1}", "players": [f"A{i + 1}", f"B{i + 1}", f"X{i + 1}", f"Y{i + 1}"]}
        for i in range(tables)
    ]
    hands = [{"results": [{"tricks": rng.randint(3, 11)} for _ in range(tables)]} for _ in range(sum(days))]
    return {
        "scorepad": 1,
        "variant": "military",
        "title": "The provincial final",
        "options": {"days": list(days)},
        "teams": teams,
        "first_dealer": 0,
        "hands": hands,
    }


def largest_backup(tables: int = 64, days: tuple[int, ...] = (100,) * 5, seed: int = 34) -> dict[str, object]:
    """A backup (docs/event-backup.md) of a Military Whist event with every scheduled hand played by
    every table, each day closed with the flags the rules' ledger gives: what the control room's
    "Download backup" makes of such an event."""
    record = largest_record(tables, days, seed)
    setup = parse_record(record).setup
    rows = ledger(setup, tuple(record["hands"]))  # type: ignore[arg-type]
    ends = [sum(days[:d]) for d in range(1, len(days) + 1)]
    at = "2026-06-07T09:00:00+00:00"
    total = sum(days)
    results = [
        {
            "hand": n,
            "table": t + 1,
            "tricks": result["tricks"],
            "revoke": None,
            "entered_by": f"table {t + 1}",
            "entered_at": at,
        }
        for n, hand in enumerate(record["hands"], start=1)  # type: ignore[arg-type]
        for t, result in enumerate(hand["results"])
    ]
    return {
        "scorepad_event": 1,
        "kind": "backup",
        "exported_at": at,
        "event": {
            "name": "The provincial final",
            "format": "military",
            "options": {"days": list(days), "revoke_tricks": 2, "loans": "auto"},
            "auto_advance": False,
            "late_minutes": 12,
            "current_hand": total + 1,
            "started_at": at,
            "created_at": at,
            "updated_at": at,
        },
        "tables": [{"number": t + 1, "team": f"Team {t + 1}", "players": [], "game": None} for t in range(tables)],
        "hands": [{"number": n, "moves": None, "opened_at": at} for n in range(1, total + 1)],
        "results": results,
        "loans": [],
        "playoffs": [],
        "days_closed": [
            {"day": d, "held": list(rows[end - 1].held), "owed": list(rows[end - 1].owed), "closed_at": at}
            for d, end in enumerate(ends, start=1)
        ],
        "entrants": [],
        "matches": [],
        "decisions": [],
        "audit": [
            {
                "at": at,
                "actor": "director",
                "action": "advance",
                "hand": n,
                "table": None,
                "old": None,
                "new": None,
                "note": f"hand {n} opened",
                "said": {"template": "hand %(hand)s opened", "params": {"hand": n}},
            }
            for n in range(2, total + 2)
        ],
        "games": [],
    }


def multipart(fields: dict[str, str], name: str, filename: str, data: bytes) -> bytes:
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    ]
    parts.append(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        f"Content-Type: application/json\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


# --- what one phase records ---------------------------------------------------------------------


@dataclass
class Samples:
    latency: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(seconds)

    def error(self, words: str) -> None:
        with self.lock:
            self.errors.append(words)


class Connection:
    """A keep-alive connection to the server, opened again when the server closed it while idle
    (gunicorn keeps an idle one 2 s): a request is sent at most twice, never after an answer."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def send(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
                if attempt:
                    raise
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def get(self, path: str) -> int:
        return self.send("GET", path)[0]


class Phone(Client):
    timeout = 600.0  # an answer held up by a heavy request is late, not lost


class Tables:
    """The event's phones, one table after another, and the director opening each next hand from the
    form in the control room's last answer (as bench/events_load.py plays them)."""

    def __init__(self, port: int, director: str, tokens: list[str]) -> None:
        self.phones = [Phone(port, f"/t/{t}") for t in tokens]
        self.tokens = tokens
        self.director = Phone(port, f"/d/{director}")
        self.hand, self.table = 1, 0
        self.rng = random.Random(7)

    def step(self, samples: Samples) -> None:
        """One table's result for the hand in play (the entry: Confirm); the next hand once all are in."""
        phone, token = self.phones[self.table], self.tokens[self.table]
        what = f"hand {self.hand} table {self.table + 1}"
        try:
            timed(samples, "table panel GET", lambda: phone.get(f"/t/{token}/panel"), what)
            tapped = find_form(phone.page, "/preview", hand=str(self.hand))
            timed(
                samples,
                "table preview POST",
                lambda: phone.submit(tapped, tricks=str(self.rng.randint(3, 11)), revoke="none"),
                what,
            )
            confirm = find_form(phone.page, "/result", hand=str(self.hand))
            timed(samples, ENTRY, lambda: phone.submit(confirm), what)
            self.table += 1
            if self.table == len(self.phones):
                opens = find_form(self.director.page, "/advance", hand=str(self.hand))
                timed(samples, "director advance POST", lambda: self.director.submit(opens), what)
                self.hand, self.table = self.hand + 1, 0
        except (FormMissing, OSError, http.client.HTTPException) as e:
            samples.error(f"{what}: {e}")
            self.table = (self.table + 1) % len(self.phones)


def timed(samples: Samples, kind: str, action: Callable[[], int], what: str) -> int:
    start = time.perf_counter()
    status = action()
    samples.add(kind, time.perf_counter() - start)
    if status not in (200, 303):
        samples.error(f"{what}: {kind} HTTP {status}")
    return status


ENTRY = "table entry POST"
HOME = "home page GET"
HEALTHZ = "GET /healthz"


class Probes:
    """The light requests, each in a loop of its own while a phase lasts: /healthz every 20 ms, the
    home page every 100 ms (no cookie: a new visitor), a table's result every 100 ms."""

    def __init__(self, port: int, tables: Tables) -> None:
        self.port, self.tables = port, tables

    def run(self, seconds: float, samples: Samples) -> None:
        done = threading.Event()

        def loop(pause: float, action: Callable[[], None]) -> None:
            while not done.is_set():
                action()
                time.sleep(pause)

        def getting(kind: str, path: str) -> Callable[[], None]:
            conn = Connection(self.port)
            return lambda: self._get(conn, samples, kind, path)

        threads = [
            threading.Thread(target=loop, args=(0.02, getting(HEALTHZ, "/healthz"))),
            threading.Thread(target=loop, args=(0.1, getting(HOME, "/"))),
            threading.Thread(target=loop, args=(0.1, lambda: self.tables.step(samples))),
        ]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        done.set()
        for thread in threads:
            thread.join()

    def _get(self, conn: Connection, samples: Samples, kind: str, path: str) -> None:
        try:
            timed(samples, kind, lambda: conn.get(path), kind)
        except (OSError, http.client.HTTPException) as e:
            samples.error(f"{kind}: {e}")


# --- the heavy requests -------------------------------------------------------------------------


@dataclass
class Heavy:
    """The heavy requests of one kind: each call sends one (a client's own connection and cookie)."""

    name: str
    requests: list[Callable[[Client], int]]


class Visitor(Phone):
    """A browser on the home page: its session cookie and CSRF token, for the forms that post files."""

    def __init__(self, port: int, page: str) -> None:
        super().__init__(port, page)
        self.keep = Connection(port)

    def post_file(self, path: str, fields: dict[str, str], name: str, data: bytes) -> tuple[int, dict[str, str]]:
        body = multipart({"csrf_token": self.csrf, **fields}, name, "heavy.json", data)
        status, headers, _ = self.keep.send(
            "POST", path, body, {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "Cookie": self.cookie}
        )
        return status, headers

    def fetch(self, path: str) -> int:
        return self.keep.send("GET", path, None, {"Cookie": self.cookie})[0]

    def page_of(self, path: str) -> str:
        return self.keep.send("GET", path, None, {"Cookie": self.cookie})[2].decode()


def heavy_kinds(record: bytes, backup: bytes, director: str, public_event: str, public_game: str) -> list[Heavy]:
    def imported(client: Client) -> int:
        return client.post_file("/games/import", {"text": ""}, "file", record)[0]  # type: ignore[attr-defined]

    def restored(client: Client) -> int:
        return client.post_file("/events/restore", {"pin": ""}, "backup", backup)[0]  # type: ignore[attr-defined]

    exports = [
        f"/d/{director}/backup",
        f"/b/{public_event}/event.json",
        f"/w/{public_game}/game.json",
        f"/w/{public_game}/sheet.csv",
        f"/w/{public_game}/result.png",
    ]
    return [
        Heavy("import", [imported]),
        Heavy("restore", [restored]),
        Heavy("exports", [lambda client, path=path: client.fetch(path) for path in exports]),
    ]  # type: ignore[attr-defined]


def loop_heavy(port: int, kind: Heavy, clients: int, done: threading.Event, samples: Samples) -> list[threading.Thread]:
    """`clients` visitors, each sending `kind`'s requests in turn until `done` (the one in flight ends)."""

    def visitor(index: int) -> None:
        client: Visitor | None = None
        turn = index
        while not done.is_set():
            request = kind.requests[turn % len(kind.requests)]
            turn += 1
            start = time.perf_counter()
            try:
                client = client or Visitor(port, "/")
                status = request(client)
            except (OSError, http.client.HTTPException) as e:  # the worker killed (its timeout), restarted
                samples.error(f"{kind.name}: {e}")
                client = None
                time.sleep(1)
                continue
            samples.add(kind.name, time.perf_counter() - start)
            if status not in (200, 303):
                samples.error(f"{kind.name}: HTTP {status}")

    threads = [threading.Thread(target=visitor, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    return threads


# --- the report ---------------------------------------------------------------------------------


def latency_lines(samples: Samples) -> list[str]:
    base = samples.latency.get(HEALTHZ, [])
    b50, b99 = percentile(base, 50) * MS, percentile(base, 99) * MS
    lines = []
    for kind, values in sorted(samples.latency.items(), key=lambda kv: (kv[0] != HEALTHZ, kv[0])):
        p50, p99 = percentile(values, 50) * MS, percentile(values, 99) * MS
        scale = "" if kind == HEALTHZ else f"  (x{p50 / b50:.1f} / x{p99 / b99:.1f} healthz)"
        lines.append(f"  {kind:24} p50 {p50:8.1f} ms  p99 {p99:8.1f} ms  ({len(values)}){scale}")
    if samples.errors:
        lines.append(f"  errors: {len(samples.errors)}: " + "; ".join(samples.errors[:5]))
    return lines


def cost_pass(group: int, label: str, count: int, action: Callable[[], int], base_cpu: float | None) -> float:
    """`count` requests one after another: latency p50 and the server's CPU per request."""
    took: list[float] = []
    statuses: list[int] = []
    before = server_cpu(group)
    for _ in range(count):
        start = time.perf_counter()
        statuses.append(action())
        took.append(time.perf_counter() - start)
    after = server_cpu(group)
    cpu = (after[0] - before[0]) / count
    off = (after[1] - before[1]) / count
    ratio = f"  (x{cpu / base_cpu:.0f} healthz)" if base_cpu else ""
    bad = [s for s in statuses if s not in (200, 303)]
    print(
        f"  {label:24} p50 {percentile(took, 50) * MS:8.1f} ms  CPU {cpu * MS:8.2f} ms a request"
        f" ({off * MS:.1f} of it off the loop){ratio}  ({count}){f'  HTTP {bad[:3]}' if bad else ''}",
        flush=True,
    )
    return cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--heavy-clients", type=int, default=4)
    parser.add_argument("--kinds", default="import,restore,exports", help="the heavy kinds, a phase each")
    parser.add_argument("--tables", type=int, default=64, help="tables of the heavy record and backup")
    parser.add_argument(
        "--server-cpus",
        type=lambda text: {int(n) for n in text.split(",")},
        help="the server runs on these CPUs (e.g. 0), this load generator on the others",
    )
    args = parser.parse_args()
    if args.server_cpus:
        others = os.sched_getaffinity(0) - args.server_cpus
        if not others:
            parser.error("--server-cpus: leave a CPU for the load generator")
        os.sched_setaffinity(0, others)
    record = json.dumps(largest_record(args.tables)).encode()
    backup = (json.dumps(largest_backup(args.tables), ensure_ascii=False, indent=1) + "\n").encode()
    database = f"sqlite:///{Path(tempfile.mkdtemp(prefix='scorepad-heavy-')) / 'bench.db'}"
    _, director, tokens = in_app(
        database,
        """
from scorepad.events import military
e = military.create_event("Tables", [f"Team {i + 1}" for i in range(8)], [100] * 5)
print(json.dumps([e.public_id, e.director_token, [t.token for t in e.tables]]))
""",
    )
    server, port = serve(database, 1, args.server_cpus)
    try:
        group = server.pid
        print(
            f"{server_words(database, 1, args.server_cpus)} on port {port}; the record {len(record) // 1024} KB, "
            f"the backup {len(backup) // 1024} KB; heavy clients: {args.heavy_clients}; load average "
            f"{os.getloadavg()[0]:.1f}",
            flush=True,
        )
        tables = Tables(port, director, tokens)
        home = Connection(port)
        visitor = Visitor(port, "/")

        print("cost of each request alone, one after another (CPU: every server process, from /proc):")
        base = cost_pass(group, HEALTHZ, 200, lambda: home.get("/healthz"), None)
        cost_pass(group, HOME, 50, lambda: home.get("/"), base)
        solo = Samples()
        cost_pass(
            group,
            "table (panel, preview, entry)",
            24,
            lambda: (tables.step(solo), 200 if not solo.errors else 500)[1],
            base,
        )
        status, headers = visitor.post_file("/games/import", {"text": ""}, "file", record)
        game_page = headers.get("location", "")
        cost_pass(group, "import", 1, lambda: visitor.post_file("/games/import", {"text": ""}, "file", record)[0], base)
        status, headers = visitor.post_file("/events/restore", {"pin": ""}, "backup", backup)
        control = headers.get("location", "")
        if status != 303 or not game_page:
            print(f"  the heavy set-up failed: restore HTTP {status}, import to {game_page!r}")
            return 1
        cost_pass(
            group, "restore", 1, lambda: visitor.post_file("/events/restore", {"pin": ""}, "backup", backup)[0], base
        )
        director_token = control.rsplit("/", 1)[-1]
        cost_pass(group, "its control room", 1, lambda: visitor.fetch(control), base)  # the restore's redirect
        cost_pass(group, "the game's page", 1, lambda: visitor.fetch(game_page), base)  # the import's redirect
        page = visitor.page_of(control)
        public_event = re.search(r"/b/([A-Za-z0-9_-]+)", page).group(1)  # type: ignore[union-attr]
        page = visitor.page_of(game_page)
        public_game = re.search(r"/w/([A-Za-z0-9_-]+)", page).group(1)  # type: ignore[union-attr]
        kinds = heavy_kinds(record, backup, director_token, public_event, public_game)
        for path in (
            f"/d/{director_token}/backup",
            f"/b/{public_event}/event.json",
            f"/w/{public_game}/game.json",
            f"/w/{public_game}/sheet.csv",
            f"/w/{public_game}/result.png",
        ):
            cost_pass(group, path.split("/")[-1] + " export", 2, lambda p=path: visitor.fetch(p), base)

        phases = [("alone", None)] + [
            (f"while {args.heavy_clients} clients loop {k.name}", k) for k in kinds if k.name in args.kinds.split(",")
        ]
        for title, kind in phases:
            samples = Samples()
            done = threading.Event()
            before, start = server_cpu(group), time.perf_counter()
            heavy = loop_heavy(port, kind, args.heavy_clients, done, samples) if kind else []
            Probes(port, tables).run(args.seconds, samples)
            done.set()
            for thread in heavy:
                thread.join()
            after, wall = server_cpu(group), time.perf_counter() - start
            print(
                f"{title} ({wall:.0f} s; the server's CPU {(after[0] - before[0]) / wall:.2f} s a second, "
                f"{(after[1] - before[1]) / wall:.2f} of it off the loop):",
                flush=True,
            )
            for line in latency_lines(samples):
                print(line, flush=True)
        print(f"load average {os.getloadavg()[0]:.1f}")
        return 0
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())
