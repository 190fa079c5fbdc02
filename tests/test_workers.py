"""Several workers on PostgreSQL (issue 17, item 3): `scorepad run --workers 3`, the real server, on
a database of the throwaway PostgreSQL server, with the shared broker (LISTEN/NOTIFY, live_pg.py).

Live streams are held by every worker (each stream's worker is read from /proc), entries and hands
are sent on connections of their own, and every stream must hear every update, once: a board
stream one `changed` per result and a last board with every table in, a spectator stream one
`update` per hand and a last one with the last hand. Then the race: two phones send different bids
from the same screen state at the same moment, on two workers: exactly one is told saved, the
other gets a 409 that says why; never both (the game row's revision refuses the second write).
Skipped without PostgreSQL, failed under CI (tests/postgres.py)."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest
from sqlalchemy.engine import make_url

from scorepad import create_app
from scorepad.live_pg import CHANNEL
from tests.conftest import config_for, release
from tests.postgres import PORT, Cluster
from tests.serving import SCOREPAD, ScorepadRun, read_answer
from tests.slowness import scaled
from tests.web.test_games import nomination_form

WORKERS = 3
TABLES = 10  # results of hand 1, one per table of the Military Whist event
HANDS = 8  # hands of the home game the spectators follow
TRIES = 30  # bid races
WHIST = {
    "team.0": "Us",
    "team.1": "Them",
    "name.0": "Ann",
    "name.1": "Bob",
    "name.2": "Cat",
    "name.3": "Dan",
    "first_dealer": "0",
    "action": "start",
}
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
STATE = re.compile(r'name="state" value="([^"]+)"')
TOLD_WHY = ("at the same moment", "This screen was out of date")


@dataclass
class Setup:
    url: str
    event: str = ""
    tables: list[str] = field(default_factory=list)
    watched: tuple[str, str] = ("", "")  # the whist game's scorer token and public id
    raced: str = ""  # the nomination game's scorer token


@pytest.fixture(scope="module")
def setup(postgresql: Cluster, postgresql_template: str) -> Iterator[Setup]:
    """A fresh database with a 10-table event, a whist game and a nomination game in it (one for the
    module: each test uses its own part)."""
    name = postgresql.create_database(template=postgresql_template)
    made = Setup(postgresql.url(name))
    app = create_app(config_for(made.url))
    with app.app_context():
        from scorepad.events import military

        event = military.create_event("Workers", [f"Team {i + 1}" for i in range(TABLES)], [4])
        made.event, made.tables = event.public_id, [t.token for t in event.tables]
    client = app.test_client()
    whist = client.post("/new/whist", data=WHIST).headers["Location"].rsplit("/", 1)[1]
    made.raced = client.post("/new/nomination", data=nomination_form()).headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        from scorepad.games import service as games

        game = games.by_scorer_token(whist)
        assert game is not None
        made.watched = (whist, game.public_id)
    release(app)
    yield made
    postgresql.drop_database(name)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, setup: Setup, postgresql: Cluster) -> Iterator[ScorepadRun]:
    """`scorepad run --workers 3` on that database, every worker listening (started once: a start
    takes seconds)."""
    run = ScorepadRun(
        tmp_path_factory.mktemp("workers"),
        "--workers",
        str(WORKERS),
        DATABASE_URL=setup.url,
        SCOREPAD_DEMO="0",
        SCOREPAD_MAX_STREAMS_PER_CLIENT="1000",
    )
    printed = run.start()
    assert f"{WORKERS} workers; live updates through the postgresql broker" in printed
    wait_for(
        lambda: listeners(setup, postgresql) == WORKERS, timeout=scaled(30)
    )  # each worker listens before it serves
    yield run
    run.stop()


class Stream(threading.Thread):
    """One live page: a plain HTTP connection reading text/event-stream, its messages in order."""

    def __init__(self, run: ScorepadRun, path: str) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", run.port), timeout=scaled(30))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.worker = run.worker_of(self.sock)
        self.messages: list[tuple[str, str]] = []
        self.connected = threading.Event()
        self.start()

    def run(self) -> None:
        buffer = b""
        try:
            while chunk := self.sock.recv(65536):
                buffer += chunk
                if b": connected" in buffer:
                    self.connected.set()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    lines = block.decode().splitlines()
                    name = next((ln[7:] for ln in lines if ln.startswith("event: ")), "")
                    if name:
                        self.messages.append((name, "\n".join(ln[6:] for ln in lines if ln.startswith("data: "))))
        except OSError:
            pass

    def close(self) -> None:
        self.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader (a close alone would not)
        self.sock.close()
        self.join(5)

    def named(self, event: str) -> list[str]:
        return [data for name, data in self.messages if name == event]


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    """The live pages a test opens, closed after it."""
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


def open_streams(run: ScorepadRun, path: str, least: int, streams: list[Stream]) -> list[Stream]:
    """Streams on `path`, at least `least`, and more until every worker holds one (at most 60: on a
    busy machine a worker whose turn on a core has not come accepts none of a quick run of them, so
    after the first `least` each next one waits a little)."""
    streams_before = len(streams)
    mine = streams[streams_before:]
    while len(mine) < least or len({s.worker for s in mine}) < WORKERS:
        assert len(mine) < 60, f"the streams did not spread over {WORKERS} workers: {Counter(s.worker for s in mine)}"
        if len(mine) >= least:
            time.sleep(0.1)
        mine.append(Stream(run, path))
        streams.append(mine[-1])
    for s in mine:
        assert s.connected.wait(10), "a stream never connected"
    return mine


def two_connections(phone: Phone) -> tuple[socket.socket, int, socket.socket, int]:
    """Two new connections, on two workers when it can be (each with the worker that took it). The
    first must not sit idle past gunicorn's keep-alive (2 s), or the worker closes it before its
    request is sent: on a busy machine finding the second can take that long, and then both are
    opened again."""
    for attempt in range(5):
        opened = time.monotonic()
        first, on_first = phone.connect()
        second, on_second = phone.connect()
        for _ in range(10):
            if on_second != on_first:
                break
            second.close()
            second, on_second = phone.connect()
        if time.monotonic() - opened < 1.0 or attempt == 4:
            return first, on_first, second, on_second
        first.close()
        second.close()
    raise AssertionError("unreachable")


class Phone:
    """A phone's session: its cookie and CSRF token; each request on a connection of its own."""

    def __init__(self, run: ScorepadRun, page: str) -> None:
        self.run = run
        status, headers, body = self.request("GET", page, cookie="")
        assert status == 200, body[:300]
        self.cookie = headers["set-cookie"].split(";", 1)[0]
        found = CSRF.search(body.decode())
        assert found, page
        self.csrf = found.group(1)

    def connect(self) -> tuple[socket.socket, int]:
        sock = socket.create_connection(("127.0.0.1", self.run.port), timeout=scaled(30))
        return sock, self.run.worker_of(sock)

    def bytes_of(self, method: str, path: str, form: dict[str, str] | None = None, cookie: str | None = None) -> bytes:
        body = urlencode({**form, "csrf_token": self.csrf}).encode() if form is not None else b""
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", f"Content-Length: {len(body)}"]
        if cookie if cookie is not None else self.cookie:
            head.append(f"Cookie: {cookie if cookie is not None else self.cookie}")
        if form is not None:  # as htmx sends a form
            head += ["Content-Type: application/x-www-form-urlencoded", "HX-Request: true"]
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, cookie: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        sock, _ = self.connect()
        with sock:
            sock.sendall(self.bytes_of(method, path, form, cookie))
            return answer(sock)


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    status, headers, body = read_answer(sock)
    if headers.get("transfer-encoding") == "chunked":
        body = unchunk(body)
    return status, headers, body


def unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        n = int(size, 16)
        if not n:
            break
        out, body = out + body[:n], body[n + 2 :]
    return out


def listeners(setup: Setup, postgresql: Cluster) -> int:
    database = make_url(setup.url).database
    with psycopg.connect(host=str(postgresql.root), port=PORT, user="postgres", dbname="postgres") as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND query = %s", (database, f"LISTEN {CHANNEL}")
        ).fetchone()
    return int(row[0]) if row else 0


def wait_for(check: object, timeout: float = scaled(10.0)) -> None:
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.05)


def test_every_stream_on_every_worker_hears_every_update_once(
    server: ScorepadRun, setup: Setup, postgresql: Cluster, streams: list[Stream]
) -> None:
    assert len(server.workers()) == WORKERS
    assert listeners(setup, postgresql) == WORKERS  # one LISTEN connection per worker
    started = time.monotonic()
    boards = open_streams(server, f"/b/{setup.event}/events", 6, streams)
    spectators = open_streams(server, f"/w/{setup.watched[1]}/events", 6, streams)
    tables = [Phone(server, f"/t/{token}") for token in setup.tables]
    scorer = Phone(server, f"/g/{setup.watched[0]}")

    entered_on: Counter[int] = Counter()
    for i, (table, token) in enumerate(zip(tables, setup.tables, strict=True)):
        sock, worker = table.connect()
        entered_on[worker] += 1
        with sock:
            sock.sendall(
                table.bytes_of("POST", f"/t/{token}/result", {"hand": "1", "tricks": str(5 + i % 5), "revoke": "none"})
            )
            status, _, body = answer(sock)
        assert status == 200, body[:500]
        if i < HANDS:  # whist hands, won by each side in turn: 4 points each after 8, the game not over
            sock, worker = scorer.connect()
            entered_on[worker] += 1
            with sock:
                sock.sendall(
                    scorer.bytes_of(
                        "POST",
                        f"/g/{setup.watched[0]}/entry",
                        {"action": "result", "number": str(i + 1), "trump": "S", "tricks": "7" if i % 2 else "6"},
                    )
                )
                status, _, body = answer(sock)
            assert status == 200, body[:500]
    assert len(entered_on) > 1, f"every entry landed on one worker: {entered_on}"

    def all_heard() -> bool:
        return all(
            len(s.named("changed")) >= TABLES and 'data-waiting=""' in (s.named("board") or [""])[-1] for s in boards
        ) and all(len(s.named("update")) >= HANDS and 'id="hand-8"' in s.named("update")[-1] for s in spectators)

    entered = time.monotonic()
    wait_for(all_heard)
    heard = time.monotonic()
    time.sleep(0.5)  # anything doubled would have come by now
    print(
        f"streams per worker: boards {Counter(s.worker for s in boards)}, spectators "
        f"{Counter(s.worker for s in spectators)}; entries per worker {entered_on}; streams and "
        f"{TABLES + HANDS} entries {entered - started:.2f} s, all heard {heard - entered:.2f} s later"
    )
    for s in boards:
        assert s.named("changed") == ["1"] * TABLES, f"board stream on worker {s.worker}: {s.named('changed')}"
        assert 'data-hand="1" data-waiting=""' in s.named("board")[-1]
    for s in spectators:
        updates = s.named("update")
        assert len(updates) == HANDS, f"spectator stream on worker {s.worker} heard {len(updates)} of {HANDS}"
        assert 'id="hand-8"' in updates[-1] and 'id="hand-9"' not in updates[-1]

    _, _, body = server.get(f"/w/{setup.watched[1]}/game.json")
    assert body.count(b'"tricks"') == HANDS  # no hand lost or recorded twice


def test_two_phones_bidding_from_one_state_on_two_workers_are_never_both_saved(
    server: ScorepadRun, setup: Setup
) -> None:
    token = setup.raced
    phone = Phone(server, f"/g/{token}")
    status, _, body = phone.request("POST", f"/g/{token}/entry", {"action": "trump", "trump": "S"})
    assert status == 200, body[:300]
    outcomes: Counter[object] = Counter()
    crossed = 0
    for _ in range(TRIES):
        status, _, page = phone.request("GET", f"/g/{token}")
        found = STATE.search(page.decode())
        assert status == 200 and found, page[:300]
        first, on_first, second, on_second = two_connections(phone)  # the second phone's on another worker
        crossed += on_first != on_second
        requests = [
            phone.bytes_of(
                "POST", f"/g/{token}/entry", {"action": "bid", "bid": bid, "seat": "1", "state": found.group(1)}
            )
            for bid in ("1", "2")
        ]
        first.sendall(requests[0][:-1])
        second.sendall(requests[1][:-1])
        time.sleep(0.02)
        first.sendall(requests[0][-1:])  # the same moment: the last byte of each, back to back
        second.sendall(requests[1][-1:])
        answers = [answer(first), answer(second)]
        first.close()
        second.close()
        statuses = tuple(sorted(a[0] for a in answers))
        outcomes[statuses] += 1
        assert statuses == (200, 409), f"answers {statuses}: {[a[2][:300] for a in answers]}"
        refused = next(a[2].decode() for a in answers if a[0] == 409)
        said = [why for why in TOLD_WHY if why in refused]
        assert said, refused[:500]
        outcomes[said[0]] += 1
        status, _, body = phone.request("POST", f"/g/{token}/entry", {"action": "unbid"})  # ready for the next try
        assert status == 200, body[:300]
    print(f"{TRIES} races, {crossed} across two workers: {dict(outcomes)}")
    assert crossed >= TRIES // 2


def test_a_hand_sent_twice_at_once_on_two_workers_is_recorded_once(server: ScorepadRun) -> None:
    """The double tap (and a retry with its Idempotency-Key): each hand sent twice at the same moment
    from two connections on two workers; one answer says saved, none records it twice."""
    starter = Phone(server, "/new/whist")
    status, headers, _ = starter.request("POST", "/new/whist", WHIST)
    assert status == 200 and "hx-redirect" in headers, status
    token = headers["hx-redirect"].rsplit("/", 1)[1]
    phone = Phone(server, f"/g/{token}")
    answers: Counter[tuple[int, ...]] = Counter()
    for number in range(1, 9):
        form = {"action": "result", "number": str(number), "trump": "H", "tricks": "7" if number % 2 else "6"}
        request = phone.bytes_of("POST", f"/g/{token}/entry", form)
        if number > 4:  # the phone's outbox resends with the same key
            request = request.replace(
                b"\r\n\r\n", f"\r\nIdempotency-Key: hand-{number}-{token[:8]}\r\n\r\n".encode(), 1
            )
        first, on_first, second, on_second = two_connections(phone)
        first.sendall(request[:-1])
        second.sendall(request[:-1])
        time.sleep(0.02)
        first.sendall(request[-1:])
        second.sendall(request[-1:])
        statuses = tuple(sorted(answer(s)[0] for s in (first, second)))
        first.close()
        second.close()
        answers[statuses] += 1
        assert 200 in statuses and set(statuses) <= {200, 409}, statuses
    print(f"hands sent twice at once on two workers: {dict(answers)}")
    _, _, body = server.get(f"/w/{phone_public_id(server, token)}/game.json")
    assert body.count(b'"tricks"') == 8  # each hand once


def phone_public_id(server: ScorepadRun, token: str) -> str:
    _, _, page = server.get(f"/g/{token}")
    found = re.search(r"/w/([\w-]+)", page.decode())
    assert found
    return found.group(1)


def test_several_workers_on_sqlite_are_refused_with_the_reason(tmp_path: Path) -> None:
    run = ScorepadRun(tmp_path)
    import subprocess

    done = subprocess.run(
        [str(SCOREPAD), "run", "--port", str(run.port), "--workers", "3"],
        env=run.env,
        capture_output=True,
        text=True,
        timeout=scaled(60),
        cwd=tmp_path,
    )
    assert done.returncode != 0
    assert "--workers 3 needs a shared broker for live updates" in done.stderr
    assert "PostgreSQL" in done.stderr and "Traceback" not in done.stderr
