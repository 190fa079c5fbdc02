"""Durability (not a test): 10,000 entries from retrying clients against the real server (`scorepad
run`: gunicorn and its gevent worker on a SQLite file), which is killed with `kill -9` every 20 to 30
seconds and started again. Prints the entries acknowledged but missing (must be 0) and the entries
recorded twice (must be 0).

    .venv/bin/pip install -q -e . && .venv/bin/python bench/durability.py [--entries 10000] [--clients 4]

An entry is a new home game (`POST /new/whist`, a form as the browser sends it, with its CSRF token
and an `Idempotency-Key`), each with a title of its own. A client sends it until it gets its answer:
on a refused connection, a connection cut by the kill, a 5xx or a 409 "still being recorded", it
sends the same request with the same key again. A game created but whose answer was lost is then
answered from the stored answer instead of being created twice; `--without-keys` runs the same
without the header, to show what the key prevents (expect doubles there).

SQLite runs in WAL mode with `synchronous=NORMAL` (extensions.py): a commit survives the process
being killed at any moment (only a power cut may lose the last commits), which is what this script
checks; FULL would add an fsync to every commit for the power-cut case only.
"""

from __future__ import annotations

import argparse
import http.client
import random
import re
import sqlite3
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

FORM = {
    "team.0": "Us",
    "team.1": "Them",
    "name.0": "Ann",
    "name.1": "Bob",
    "name.2": "Cat",
    "name.3": "Dan",
    "first_dealer": "0",
    "action": "start",
}


class Client(threading.Thread):
    """One phone: its session and CSRF token, then its share of the entries, each sent until answered."""

    def __init__(self, port: int, titles: list[str], use_keys: bool) -> None:
        super().__init__(daemon=True)
        self.port, self.titles, self.use_keys = port, titles, use_keys
        self.acknowledged: list[str] = []
        self.retries = 0
        self.cookie = self.csrf = ""

    def _session(self) -> None:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", "/new/whist")
                response = conn.getresponse()
                page = response.read().decode()
                self.cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
                found = re.search(r'name="csrf-token" content="([^"]+)"', page)
                if response.status == 200 and found and self.cookie:
                    self.csrf = found.group(1)
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.2)

    def run(self) -> None:
        self._session()
        for title in self.titles:
            key = "durable-" + uuid.uuid4().hex
            body = urlencode({**FORM, "title": title, "csrf_token": self.csrf})
            while True:
                headers = {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Cookie": self.cookie,
                    "Origin": f"http://127.0.0.1:{self.port}",
                }
                if self.use_keys:
                    headers["Idempotency-Key"] = key
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                    conn.request("POST", "/new/whist", body=body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    status = response.status
                    replayed = response.getheader("Idempotent-Replayed") == "true"
                except (OSError, http.client.HTTPException):  # refused while down, or cut by the kill
                    status, replayed = 0, False
                # 303: created (or the stored answer to it); 200 replayed: created by a run that was
                # killed before its answer was stored
                if status == 303 or (status == 200 and replayed):
                    self.acknowledged.append(title)
                    break
                if status in (400, 403):  # the session went with a restart: a fresh one, the same key
                    self._session()
                    body = urlencode({**FORM, "title": title, "csrf_token": self.csrf})
                self.retries += 1
                time.sleep(0.05 if status else 0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument(
        "--kill-every",
        type=float,
        nargs=2,
        default=(20.0, 30.0),
        metavar=("MIN", "MAX"),
        help="seconds between two kills (random in this range)",
    )
    parser.add_argument("--without-keys", action="store_true", help="send no Idempotency-Key (expect doubles)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorepad-durability-"))
    server = ScorepadRun(folder, database="durability.db", SECRET_KEY="durability", SCOREPAD_DEMO="0")
    server.start()
    titles = [f"D{n:05d}" for n in range(args.entries)]
    clients = [Client(server.port, titles[i :: args.clients], not args.without_keys) for i in range(args.clients)]
    started = time.monotonic()
    for client in clients:
        client.start()
    rng = random.Random(1)
    while any(c.is_alive() for c in clients):
        deadline = time.monotonic() + rng.uniform(*args.kill_every)
        while time.monotonic() < deadline and any(c.is_alive() for c in clients):
            time.sleep(0.2)
        if any(c.is_alive() for c in clients):
            server.kill()
            server.start()
    elapsed = time.monotonic() - started
    server.kill()

    with sqlite3.connect(folder / "durability.db") as db:
        stored = Counter(title for (title,) in db.execute("SELECT title FROM game"))
    acknowledged = [t for c in clients for t in c.acknowledged]
    lost = [t for t in acknowledged if stored[t] == 0]
    doubled = [t for t, n in stored.items() if n > 1]
    print(
        f"{len(acknowledged)} entries acknowledged in {elapsed:.0f} s by {args.clients} retrying clients "
        f"({sum(c.retries for c in clients)} retries); the server killed with kill -9 {server.kills} times"
    )
    print(f"Idempotency-Key: {'no' if args.without_keys else 'yes'}; SQLite WAL, synchronous=NORMAL")
    print(f"acknowledged but missing: {len(lost)}")
    print(f"recorded twice: {len(doubled)}")
    return 0 if not lost and not doubled else 1


if __name__ == "__main__":
    raise SystemExit(main())
