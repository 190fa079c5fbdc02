"""Load benchmark (not a test): a 128-team Bid Whist preliminary round, 64 tables, 200 leaderboards.

Starts the app as it runs for real (gunicorn, one gevent worker, a SQLite file), registers 128
teams and starts the tournament (round 1 drawn: 64 matches), opens `--streams` server-sent-event
streams on the leaderboard, and has the 64 table phones score their match as the home-game screen
does: per hand four calls and the result (htmx POSTs with cookie and CSRF token), four hands, then
both teams sign. It prints, with /healthz measured in the same run as the baseline:

- entry latency p50/p99 (every POST: calls, results, signatures),
- entry-to-screen p50/p99 (a hand's result POST until the leaderboard showing that table's hand
  count arrives on each stream),
- errors (non-2xx answers, broken streams, hands never seen on a stream).

Targets (as issue 4's): zero errors, entry p99 < 50 ms, entry-to-screen p99 < 250 ms.

    .venv/bin/pip install -e . && .venv/bin/python bench/bid_whist_load.py [--teams 128 --streams 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from events_load import Baseline, Client, StreamReader, StreamsProcess, report, serve  # noqa: E402

ROW = re.compile(rb'data-table="(\d+)" data-hands="(\d+)"')


class Streams(StreamReader):
    """Each leaderboard notes when (table, hands) first shows in the round's table list."""

    def _read(self, i: int, buffer: bytes, now: float) -> None:
        if b": connected" in buffer:
            self.connected[i] = True
        for table, hands in ROW.findall(buffer):
            for h in range(1, int(hands) + 1):
                self.seen[i].setdefault((int(table), h), now)
        self.buffers[i] = buffer[-80:]


def make_tournament(database: str, teams: int) -> tuple[str, list[tuple[int, str, str, str]]]:
    """Register the teams and start (straight in the database): (public id, [(table, scorer token,
    the N/S team's code, the E/W team's code)])."""
    code = f"""
import json
from flask_migrate import upgrade
from scorepad import create_app
from scorepad.events.bid_whist import matches, registration
from scorepad.events.bid_whist import tournament
app = create_app()
with app.app_context():
    upgrade(directory=app.extensions["migrate"].directory)
    e = tournament.create("Bench", rounds=3)
    for n in range({teams}):
        registration.register_team(e, f"Team {{n + 1}}", [f"P{{n + 1}}a", f"P{{n + 1}}b"])
    tournament.start(e)
    codes = {{x.number: matches.team_code(x) for x in e.entrants}}
    print(json.dumps([e.public_id, [[m.table, m.game.scorer_token, codes.get(m.home, ''), codes.get(m.away, '')] for m in e.matches]]))
"""
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    public, tables = json.loads(out.stdout.strip().splitlines()[-1])
    return public, [(int(t), str(s), str(home), str(away)) for t, s, home, away in tables]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=128)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8, help="tables posting at the same moment")
    parser.add_argument("--hand-seconds", type=float, default=10.0,
                        help="spread of the tables over a hand: 64 tables x 5 posts in 10 s is 32 posts a second, "
                             "the rate of the Military Whist benchmark (64 results every 2 s)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    database = f"sqlite:///{folder / 'bench.db'}"
    public, tables = make_tournament(database, args.teams)
    server, port = serve(database)
    try:
        print(f"gunicorn (gevent, 1 worker) on port {port}; {args.teams} teams, {len(tables)} tables, "
              f"{args.streams} leaderboard streams")
        streams = StreamsProcess(Streams, port, f"/b/{public}/events?only=board", args.streams)
        connected = streams.connected
        phones = {table: (Client(port, f"/g/{scorer}"), scorer) for table, scorer, _, _ in tables}
        codes = {table: (home, away) for table, _, home, away in tables}  # from the teams' cards

        prober = Baseline(port)
        prober.start()
        sent: dict[tuple[int, int], float] = {}
        latency: list[float] = []
        errors: list[str] = []
        rng = random.Random(7)

        def timed(table: int, path: str, form: dict[str, str]) -> float:
            client = phones[table][0]
            start = time.perf_counter()
            status, _ = client.request("POST", path, form)
            latency.append(time.perf_counter() - start)
            if status != 200:
                errors.append(f"table {table} {path.rsplit('/', 1)[1]} {form.get('action', '')}: HTTP {status}")
            return start

        def play(hand: int, table: int) -> None:
            time.sleep(rng.random() * args.hand_seconds)
            scorer = phones[table][1]
            for call in ("4-plain", "pass", "pass", "pass"):
                timed(table, f"/g/{scorer}/entry", {"number": str(hand), "action": "call", "call": call})
            # the first bidder bids 4 and the others pass; N/S win every hand (made with 10 books when they
            # bid, set with 5 when E/W bid), so no round ends level and needs an extra hand
            books = 10 if hand % 4 in (0, 2) else 5
            form = {"number": str(hand), "action": "result", "trump": "S", "books": str(books), "renege": "none"}
            sent[(table, hand)] = timed(table, f"/g/{scorer}/entry", form)

        def sign(table: int) -> None:
            # tables finish their round at different moments, as they finish their hands (a burst of
            # all 128 signatures at once from 8 threads measured the client's queue, not the server)
            time.sleep(rng.random() * args.hand_seconds)
            for side in (0, 1):  # each team signs on the table's phone with the code on its card
                timed(table, f"/g/{phones[table][1]}/sign", {"side": str(side), "code": codes[table][side]})

        started = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            for hand in range(1, 5):
                list(pool.map(lambda t, h=hand: play(h, t), [t for t, *_ in tables]))
            list(pool.map(sign, [t for t, *_ in tables]))
        elapsed = time.perf_counter() - started
        time.sleep(1.5)
        prober.done.set()
        seen_by_stream, stream_errors = streams.finish()
        errors.extend(stream_errors + prober.errors)
        verdict = report(f"ran {len(latency)} POSTs ({len(sent)} hands) in {elapsed:.1f} s", latency, sent,
                         seen_by_stream, prober.samples, errors, connected, args.streams)
        return 0 if verdict else 1
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
