"""Load benchmark for events (not a test): 64 tables enter 50 hands while 200 leaderboards listen.

Starts the app as it runs for real (gunicorn, one gevent worker holding every live connection, a
SQLite file; this checkout's code), opens `--streams` server-sent-event streams on the event's
leaderboard, and has the table phones play each hand as the browser does: the phone's panel
(refetched when the orders come), the result tapped (POST preview: the form's hidden fields, the
tricks button, the revoke chip), then Confirm (POST result: the confirm form's hidden fields), with
the session cookie and CSRF token, as htmx does. The director opens each next hand from the form
in the control room's last answer.

The pace is a schedule (bench/loadkit.py): each hand is a period of `--hand-seconds` (2 s) and
each table confirms its result at a random moment within it, one thread per table: 64 tables
every 2 s are 32 entries a second, the load a hall of 64 tables puts on the server at a brisk
pace. The last `--burst-hands` hands (5) are a burst: every table posts at the same instant (or
within `--burst-window` seconds), as when the hall finishes a hand together. For each phase it
prints the achieved entries per second beside the intended, and with a trivial endpoint (/healthz)
measured during the same run as the baseline:

- entry latency p50/p99 (POST of the confirmed result until its answer; the preview POST, the
  panel GET and the director's advance apart),
- entry-to-screen p50/p99 (the result POST sent until the leaderboard showing it arrives on each
  stream),
- errors (non-2xx answers, broken streams), and the boards each stream saw.

Targets (issue 17): zero errors, entry p99 < 50 ms and at most 3x the baseline's p99,
entry-to-screen p99 < 100 ms, every stream receiving every board.

    .venv/bin/pip install -e . && .venv/bin/python bench/events_load.py [--hands 50 --streams 200]
    .venv/bin/python bench/events_load.py --quick          # a smoke run, under a minute

`--workers 3` serves with three gevent workers on a throwaway PostgreSQL server (tests/postgres.py;
`apt-get install postgresql`), the live updates going through its LISTEN/NOTIFY (live_pg.py): the
streams spread over the workers, and each must still see every entry. `--postgresql` runs one
worker on PostgreSQL, for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadkit import (
    Baseline,
    Client,
    Clock,
    FormMissing,
    Phase,
    Run,
    StreamReader,
    StreamsProcess,
    arguments,
    board_stream,
    database,
    find_form,
    in_app,
    report,
    serve,
    server_words,
    stop,
    together,
    wait_until,
)


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
            hand = int(buffer[start + 11 : buffer.find(b'"', start + 11)])
            waiting = {int(t) for t in buffer[waiting_at + 14 : end].split(b",") if t}
            for table in range(1, self.tables + 1):
                if table not in waiting and (hand, table) not in seen:
                    seen[(hand, table)] = now
                if (hand - 1, table) not in seen:
                    seen[(hand - 1, table)] = now
            buffer = buffer[end:]
        # keep an unfinished message head (the two attributes sit side by side), else only a tail
        self.buffers[i] = buffer[start:] if start >= 0 else buffer[-64:]


def make_event(database: str, tables: int, hands: int) -> tuple[str, str, list[str]]:
    """Create the event straight in the database; return (public id, director token, table tokens)."""
    public, director, tokens = in_app(
        database,
        f"""
from scorepad.events import military
days = [min({hands}, 30)] + ([{hands} - 30] if {hands} > 30 else [])
e = military.create_event("Bench", [f"Team {{i + 1}}" for i in range({tables})], days)
print(json.dumps([e.public_id, e.director_token, [t.token for t in e.tables]]))
""",
    )
    return public, director, tokens


def main() -> int:
    def sizes(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--tables", type=int)
        parser.add_argument("--hands", type=int)

    args = arguments(
        __doc__.split("\n")[0],
        {"tables": 64, "hands": 50, "streams": 200, "hand_seconds": 2.0, "burst_hands": 5},
        {"tables": 8, "hands": 3, "streams": 20, "burst_hands": 1},
        sizes,
    )
    with database(args) as url:
        return run(args, url)


def run(args: argparse.Namespace, database: str) -> int:
    public, director_token, tokens = make_event(database, args.tables, args.hands)
    server, port = serve(database, args.workers, args.server_cpus, args.cpu_quota)
    try:
        print(
            f"{server_words(database, args.workers, args.server_cpus, args.cpu_quota)} on port {port}; "
            f"{args.tables} tables, {args.hands} hands "
            f"({args.burst_hands} of them a burst), {args.streams} leaderboard streams"
        )
        streams = StreamsProcess(Streams, port, board_stream(public, args), args.streams, args.tables)
        phones = [Client(port, f"/t/{t}") for t in tokens]
        director = Client(port, f"/d/{director_token}")
        prober = Baseline(port)
        prober.start()

        record = Run()
        rate = args.tables / args.hand_seconds
        steady = record.phase(
            "steady", rate, f"{args.tables} tables, each at a random moment of every {args.hand_seconds:g} s"
        )
        burst = record.phase(
            "burst", rate, f"{args.tables} tables every {args.hand_seconds:g} s, all {together(args.burst_window)}"
        )
        rng = random.Random(args.seed)

        def play(phase: Phase, hand: int, table: int, at: float, tricks: int) -> None:
            """One table's hand: the panel with the orders, the result tapped, then confirmed."""
            phone, token, what = phones[table - 1], tokens[table - 1], f"hand {hand} table {table}"
            wait_until(at)
            try:
                if not record.timed(phase, "panel GET", lambda: phone.get(f"/t/{token}/panel"), f"{what} panel"):
                    return
                tapped = find_form(phone.page, "/preview", hand=str(hand))
                if str(tricks) not in tapped.choices("tricks"):
                    raise FormMissing(f"no {tricks} on the tricks pad")
                if not record.timed(
                    phase,
                    "preview POST",
                    lambda: phone.submit(tapped, tricks=str(tricks), revoke="none"),
                    f"{what} preview",
                ):
                    return
                confirm = find_form(phone.page, "/result", hand=str(hand))
                record.timed(phase, "entry", lambda: phone.submit(confirm), f"{what} result", key=(hand, table))
            except FormMissing as e:
                record.error(f"{what}: {e}")

        clock = Clock(args.hand_seconds)
        started = time.perf_counter()
        with ThreadPoolExecutor(args.tables) as pool:  # a thread per table: no table waits for another's turn
            for hand in range(1, args.hands + 1):
                phase = burst if hand > args.hands - args.burst_hands else steady
                window = args.burst_window if phase is burst else args.hand_seconds
                start = clock.period()
                plan = [(start + rng.random() * window, rng.randint(3, 11)) for _ in tokens]
                list(pool.map(lambda t: play(phase, hand, t, *plan[t - 1]), range(1, args.tables + 1)))
                try:
                    opens = find_form(director.page, "/advance", hand=str(hand))
                    record.timed(phase, "advance POST", lambda: director.submit(opens), f"advance after hand {hand}")
                except FormMissing as e:
                    record.error(f"advance after hand {hand}: {e}")
                record.period(phase, start, clock)
        elapsed = time.perf_counter() - started
        time.sleep(1.0)  # let the last pushes arrive
        prober.done.set()
        seen_by_stream, stream_errors = streams.finish()
        record.errors.extend(stream_errors + prober.errors)

        entries = sum(len(p.entries()) for p in record.phases.values())
        ok = report(
            f"ran {entries} entries in {elapsed:.1f} s",
            record,
            prober.samples,
            seen_by_stream,
            streams.connected,
            args.streams,
            streams.traffic,
            quota=args.cpu_quota,
        )
        return 0 if ok else 1
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())
