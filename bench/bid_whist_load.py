"""Load benchmark (not a test): a 128-team Bid Whist preliminary round, 64 tables, 200 leaderboards.

Starts the app as it runs for real (gunicorn, one gevent worker, a SQLite file; this checkout's
code), registers 128 teams and starts the tournament (round 1 drawn: 64 matches), opens
`--streams` server-sent-event streams on the leaderboard, and has the 64 table phones score their
match as the home-game screen does: per hand four calls and the result, four hands, then both
teams sign with the code on their card. Every POST is the form of the fragment the previous answer
swapped in (its CSRF token, `state`, the hand-state fingerprint, `sheet`, the hands' revision the
page was drawn with, `position`, `number`), plus the button or chips tapped, with the session
cookie, as htmx posts it.

The pace is a schedule (bench/loadkit.py): each hand is a period of `--hand-seconds` (10 s) and
each table posts its five at random moments within it, in order, one thread per table: 64 tables
x 5 posts every 10 s are 32 posts a second, the rate of the Military Whist benchmark (64 results
every 2 s). The last `--burst-hands` hands (1) are a burst: every table posts its hand at the same
instant (or within `--burst-window` seconds). Then the signatures, both teams within one period.
For each phase it prints the achieved posts per second beside the intended, and with /healthz
measured in the same run as the baseline:

- entry latency p50/p99 (every POST: calls, results, signatures),
- entry-to-screen p50/p99 (a hand's result POST until the leaderboard showing that table's hand
  count arrives on each stream),
- errors (non-2xx answers, broken streams), and the boards each stream saw.

Targets (issue 17, as bench/events_load.py): zero errors, entry p99 < 50 ms and at most 3x the
baseline's p99, entry-to-screen p99 < 100 ms, every stream receiving every board.

    .venv/bin/pip install -e . && .venv/bin/python bench/bid_whist_load.py [--teams 128 --streams 200]
    .venv/bin/python bench/bid_whist_load.py --quick                 # a smoke run, under a minute
    .venv/bin/python bench/bid_whist_load.py --workers 3             # three workers on PostgreSQL
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadkit import (Baseline, Client, Clock, FormMissing, Phase, Run, StreamReader,  # noqa: E402
                     StreamsProcess, arguments, board_stream,
                     database, find_form, in_app, moments, report, serve, server_words,
                     stop, together, wait_until)

ROW = re.compile(rb'data-table="(\d+)" data-hands="(\d+)"')
HANDS = 4  # a preliminary round's match
# The first bidder bids 4 and the others pass; N/S win every hand (made with 10 books when they bid,
# set with 5 when E/W bid), so no round ends level and needs an extra hand.
CALLS = ("4-plain", "pass", "pass", "pass")


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
    public, tables = in_app(database, f"""
from scorepad.events.bid_whist import matches, registration, tournament
e = tournament.create("Bench", rounds=3)
for n in range({teams}):
    registration.register_team(e, f"Team {{n + 1}}", [f"P{{n + 1}}a", f"P{{n + 1}}b"])
tournament.start(e)
codes = {{x.number: matches.team_code(x) for x in e.entrants}}
print(json.dumps([e.public_id, [[m.table, m.game.scorer_token, codes.get(m.home, ''), codes.get(m.away, '')]
                                for m in e.matches]]))
""")
    return public, [(int(t), str(s), str(home), str(away)) for t, s, home, away in tables]


def main() -> int:
    def sizes(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--teams", type=int)

    args = arguments(__doc__.split("\n")[0],
                     {"teams": 128, "streams": 200, "hand_seconds": 10.0, "burst_hands": 1},
                     {"teams": 16, "streams": 20, "hand_seconds": 3.0}, sizes)
    if not 0 <= args.burst_hands <= HANDS:
        sys.exit(f"--burst-hands: 0 to {HANDS} (a match's hands)")
    with database(args) as url:
        return run(args, url)


def run(args: argparse.Namespace, database: str) -> int:
    public, tables = make_tournament(database, args.teams)
    server, port = serve(database, args.workers)
    try:
        print(f"{server_words(database, args.workers)} on port {port}; {args.teams} teams, {len(tables)} tables, "
              f"{HANDS} hands ({args.burst_hands} of them a burst) and signing, {args.streams} leaderboard streams")
        streams = StreamsProcess(Streams, port, board_stream(public, args), args.streams)
        phones = {table: Client(port, f"/g/{scorer}") for table, scorer, _, _ in tables}
        codes = {table: (home, away) for table, _, home, away in tables}  # from the teams' cards
        prober = Baseline(port)
        prober.start()

        record = Run()
        n, seconds = len(tables), args.hand_seconds
        steady = record.phase("steady", n * (len(CALLS) + 1) / seconds,
                              f"{n} tables x 5 posts, each at a random moment of every {seconds:g} s")
        burst = record.phase("burst", n * (len(CALLS) + 1) / seconds,
                             f"{n} tables x 5 posts every {seconds:g} s, all {together(args.burst_window)}")
        signing = record.phase("signing", n * 2 / seconds, f"{n} tables x 2 signatures within {seconds:g} s")
        rng = random.Random(args.seed)

        def play(phase: Phase, hand: int, table: int, at: list[float]) -> None:
            """One table's hand: the four calls, then the result, each from the last answer's form."""
            phone, what = phones[table], f"table {table} hand {hand}"
            try:
                for i, call in enumerate(CALLS):
                    wait_until(at[i])
                    form = find_form(phone.page, "/entry", action="call")
                    if call not in form.choices("call"):
                        raise FormMissing(f"no {call} button on the call form")
                    if not record.timed(phase, "entry", lambda: phone.submit(form, call=call), f"{what} call {i + 1}"):
                        return
                wait_until(at[-1])
                form = find_form(phone.page, "/entry", action="result", number=str(hand))
                books = 10 if hand % 4 in (0, 2) else 5
                record.timed(phase, "entry", lambda: phone.submit(form, trump="S", books=str(books), renege="none"),
                             f"{what} result", key=(table, hand))
            except FormMissing as e:
                record.error(f"{what}: {e}")

        def sign(table: int, at: list[float]) -> None:
            """Each team signs on the table's phone with the code on its card, from the bar's forms."""
            phone = phones[table]
            for side in (0, 1):
                wait_until(at[side])
                try:
                    form = find_form(phone.page, "/sign", side=str(side), action="")
                except FormMissing as e:
                    record.error(f"table {table} signature {side}: {e}")
                    return
                record.timed(signing, "entry", lambda: phone.submit(form, code=codes[table][side]),
                             f"table {table} signature {side}")

        clock = Clock(seconds)
        started = time.perf_counter()
        numbers = [t for t, *_ in tables]
        with ThreadPoolExecutor(len(tables)) as pool:  # a thread per table: no table waits for another's turn
            for hand in range(1, HANDS + 1):
                phase = burst if hand > HANDS - args.burst_hands else steady
                window = args.burst_window if phase is burst else seconds
                start = clock.period()
                plan = {t: moments(rng, start, window, len(CALLS) + 1) for t in numbers}
                list(pool.map(lambda t: play(phase, hand, t, plan[t]), numbers))
                record.period(phase, start, clock)
            start = clock.period()
            plan = {t: moments(rng, start, seconds, 2) for t in numbers}
            list(pool.map(lambda t: sign(t, plan[t]), numbers))
            record.period(signing, start, clock)
        elapsed = time.perf_counter() - started
        time.sleep(1.5)  # let the last pushes arrive
        prober.done.set()
        seen_by_stream, stream_errors = streams.finish()
        record.errors.extend(stream_errors + prober.errors)

        posts = sum(len(p.entries()) for p in record.phases.values())
        results = sum(len(p.sent) for p in record.phases.values())
        ok = report(f"ran {posts} POSTs ({results} hands) in {elapsed:.1f} s", record, prober.samples,
                    seen_by_stream, streams.connected, args.streams, streams.traffic)
        return 0 if ok else 1
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())
