"""Two phones, one hand (not a test; issue 13, item 6): two phones on the same scorer link send the
same hand at the same moment, 1,000 times, against the real server (`scorepad run`: gunicorn and its
gevent worker on a SQLite file). Each phone has its own session and form token and makes its own
`Idempotency-Key`, as two phones would; on even rounds both send the same result, on odd rounds
different ones (one phone says Robins took 7 tricks, the other 6). Prints how often exactly one was
recorded (must be every time), what the other phone was answered (409 in words, never a 5xx), the
latency of each write, and the SQLite settings used.

    .venv/bin/pip install -q -e . && .venv/bin/python bench/two_phones.py [--rounds 1000]
    .venv/bin/python bench/two_phones.py --journal delete --synchronous full   # another SQLite setting

The hands are classic Whist, entered whole (tricks and trump in one form), in whist-drive games of
100 deals (a new game after each hundredth: each write replays the game so far, as at a real drive). At the end the database is read directly:
every hand number of every game must be there exactly once.
"""

from __future__ import annotations

import argparse
import http.client
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serving import ScorepadRun

GAME = {
    "team.0": "Robins",
    "team.1": "Wrens",
    "name.0": "Ann",
    "name.1": "Bea",
    "name.2": "Cal",
    "name.3": "Dan",
    "first_dealer": "0",
    "opt.deals": "100",
    "action": "start",
}
HANDS_PER_GAME = 100  # a whist drive of 100 deals: no game or rubber ends it early
TRUMPS = "HDCS"


class Phone:
    """One phone: a kept-alive connection, its session cookie and form token."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = self.csrf = ""
        status, headers, page = self.send("GET", "/new/whist")
        assert status == 200, page[:500]
        self.cookie = (headers.get("set-cookie") or "").split(";")[0]
        found = re.search(r'name="csrf-token" content="([^"]+)"', page)
        assert found and self.cookie, "no session or form token"
        self.csrf = found.group(1)

    def send(
        self, method: str, path: str, form: dict[str, str] | None = None, **extra: str
    ) -> tuple[int, dict[str, str], str]:
        headers = {"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{self.port}", **extra}
        body = None
        if form is not None:
            body = urlencode({**form, "csrf_token": self.csrf})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode("utf-8", "replace")
                return response.status, {k.lower(): v for k, v in response.getheaders()}, text
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def new_game(self) -> str:
        status, headers, page = self.send("POST", "/new/whist", GAME)
        assert status == 303, (status, page[:500])
        return headers["location"].rstrip("/").rsplit("/", 1)[1]


def commit_cost(folder: Path, journal: str, synchronous: str, commits: int = 500) -> float:
    """The median time of one small commit with these settings, on the disk the server writes to (ms):
    what synchronous=FULL adds is an fsync per commit, and a write to Scorepad makes several commits
    (its Idempotency-Key taken, the entry, the answer stored)."""
    conn = sqlite3.connect(folder / f"commits-{journal}-{synchronous}.db", isolation_level=None)
    conn.execute(f"PRAGMA journal_mode={journal}")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    times = []
    for _ in range(commits):
        t0 = time.perf_counter()
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 200,))
        conn.execute("COMMIT")
        times.append(time.perf_counter() - t0)
    conn.close()
    return statistics.median(times) * 1000


def words(page: str) -> str:
    """What a refusal says: the notice of the swapped body, or an error page's message."""
    found = re.search(r'class="notice"[^>]*>([^<]+)<', page) or re.search(r"<main[^>]*>.*?<p>([^<]+)</p>", page, re.S)
    return re.sub(r"\s+", " ", found.group(1)).strip() if found else page.strip()[:120]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--journal", default="wal", help="SQLite journal_mode (SCOREPAD_SQLITE_JOURNAL)")
    parser.add_argument("--synchronous", default="normal", help="SQLite synchronous (SCOREPAD_SQLITE_SYNCHRONOUS)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorepad-two-phones-"))
    server = ScorepadRun(
        folder,
        database="two.db",
        SECRET_KEY="two-phones",
        SCOREPAD_DEMO="0",
        SCOREPAD_SQLITE_JOURNAL=args.journal,
        SCOREPAD_SQLITE_SYNCHRONOUS=args.synchronous,
    )
    server.start()
    phones = [Phone(server.port), Phone(server.port)]
    start_line = threading.Barrier(2)
    statuses: Counter[int] = Counter()
    refusals: Counter[str] = Counter()
    latencies: list[float] = []
    winners_per_round: Counter[int] = Counter()
    games: list[str] = []
    sent: dict[tuple[str, int], list[int]] = {}  # (game, hand) -> the tricks each phone sent
    started = time.monotonic()

    for n in range(args.rounds):
        number = n % HANDS_PER_GAME + 1
        if number == 1:
            games.append(phones[0].new_game())
        token = games[-1]
        robins = [7, 7] if n % 2 == 0 else [7, 6]  # the same hand, or two phones that disagree
        sent[(token, number)] = robins
        answers: list[tuple[int, str, float]] = [(0, "", 0.0), (0, "", 0.0)]

        def send(i: int) -> None:
            form = {
                "action": "result",
                "number": str(number),
                "trump": TRUMPS[n % 4],
                "tricks": str(robins[i]),
                "honours": "",
            }
            start_line.wait()
            t0 = time.perf_counter()
            status, _, page = phones[i].send(
                "POST",
                f"/g/{token}/entry",
                form,
                **{"HX-Request": "true", "Idempotency-Key": f"phone{i}-{uuid.uuid4().hex}"},
            )
            answers[i] = (status, page, time.perf_counter() - t0)

        threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for status, page, seconds in answers:
            statuses[status] += 1
            latencies.append(seconds)
            if status != 200:
                refusals[f"{status} {re.sub(r'[0-9]+', 'N', words(page))}"] += 1
        winners_per_round[sum(1 for status, _, _ in answers if status == 200)] += 1
    elapsed = time.monotonic() - started
    server.stop()

    with sqlite3.connect(folder / "two.db") as db:
        rows = db.execute(
            "SELECT g.scorer_token, h.number, h.entry FROM hand h JOIN game g ON g.id = h.game_id"
        ).fetchall()
    stored: Counter[tuple[str, int]] = Counter((token, number) for token, number, _ in rows)
    doubled = [k for k, count in stored.items() if count > 1]
    missing = [k for k in sent if stored[k] == 0]
    server_errors = sum(count for status, count in statuses.items() if status >= 500)
    ms = sorted(x * 1000 for x in latencies)

    print(
        f"{args.rounds} rounds of two phones sending the same hand at once, in {elapsed:.0f} s "
        f"({len(games)} games of up to {HANDS_PER_GAME} hands); SQLite journal_mode={args.journal}, "
        f"synchronous={args.synchronous}"
    )
    print(
        f"rounds with exactly one recorded: {winners_per_round[1]}; with none: {winners_per_round[0]}; "
        f"with both: {winners_per_round[2]}"
    )
    print(f"hands in the database: {len(rows)} (twice: {len(doubled)}, missing: {len(missing)})")
    print("answers: " + ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items())))
    for what, count in refusals.most_common(5):
        print(f"  {count} x {what}")
    print(f"5xx answers: {server_errors}")
    print(
        f"write latency: p50 {statistics.median(ms):.1f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )
    costs = ", ".join(
        f"{j}/{y} {commit_cost(folder, j, y):.2f} ms"
        for j, y in (("wal", "normal"), ("wal", "full"), ("delete", "full"))
    )
    print(f"one small commit on this disk (median of 500): {costs}")
    ok = winners_per_round[1] == args.rounds and not doubled and not missing and not server_errors
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
