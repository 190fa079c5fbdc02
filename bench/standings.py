"""Standings derivation and board pushes of the two big events (not a test): issue 17's figures.

Builds, in a temporary SQLite database and through the app's own services only,

- a 64-table x 50-hand Military Whist event (two days, 30 + 20 hands; every table reports every
  hand, the director opens each next one), and
- a 128-team Bid Whist tournament (three preliminary rounds of 64 matches, each match's four hands
  entered through the home-game entry adapter as the table's phone taps them: four calls and the
  result; the director makes each sheet final and draws the next round),

then times the derivation of each event's standings directly, `get_format(event.format).board(event)`
(the format's one view of the event, which the boards, the control room and the export are drawn
from), median of `--repeat` runs:

- cold: every cache the formats keep per app cleared first (military.py's set-up, extras and
  derived hands by event id; bid_whist/boards.py's kept boards; bid_whist/matches.py's match
  outcomes; games/derived.py's sheets) and a fresh database session
  (the event row reloaded inside the timing): a server's first board after a restart;
- warm: the caches kept, a fresh session per run, the event row reloaded inside the timing: what
  each request after an entry elsewhere pays (nothing changed since the last derivation).
- Bid Whist, kept board dropped: as any change to the event's rows drops it (a hand entered, a
  signature), the other caches kept: about what the first board after a hand costs (that hand's
  match replayed besides, about 1 ms). Not a target: printed for scale.

Beside them, measured in the same run for scale: reading the event row alone in a fresh session.
Target (issue 17): under 10 ms each.

Then one board push of each event: the `_board.html` fragment rendered the way pushes/boards.py
pushes it (`board_context(event)`, `render_template(f"{folder}/_board.html", **context)`), its size
raw and gzipped (level 6, what Flask-Compress sends to a browser that asks for gzip) and in
brotli, and the time to derive and render it (median of `--repeat`, warm).

    .venv/bin/python bench/standings.py [--tables 64 --hands 50 --teams 128 --repeat 20]
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import brotli
from flask import Flask, render_template
from flask_migrate import upgrade

from scorepad import create_app
from scorepad.events import core, military
from scorepad.events.bid_whist import matches, registration, writes
from scorepad.events.registry import get_format
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.games.entry import tap
from scorepad.models import Event
from scorepad.pushes.boards import board_context

TARGET_MS = 10.0
CACHES = ("scorepad.kept",)  # what a worker keeps (scorepad/kept.py): every kind


def build_military(tables: int, hands: int) -> str:
    """The Military event, every hand reported by every table: its public id."""
    rng = random.Random(17)
    days = [min(hands, 30)] + ([hands - 30] if hands > 30 else [])
    event = military.create_event("Bench military", [f"Team {i + 1}" for i in range(tables)], days)
    for hand in range(1, hands + 1):
        for table in range(1, tables + 1):
            military.enter_result(event, table, hand, rng.randint(3, 11), None, f"table {table}")
        military.advance(event, actor="director", hand=hand)  # the last one closes the second day
    return event.public_id


def build_bid_whist(teams: int, rounds: int) -> str:
    """The Bid Whist tournament, its preliminary rounds all played and made final: its public id."""
    event = writes.create("Bench bid whist", rounds=rounds)
    for n in range(teams):
        registration.register_team(event, f"Team {n + 1}", [f"P{n + 1}a", f"P{n + 1}b"])
    writes.start(event)
    rng = random.Random(17)
    for number in range(1, rounds + 1):
        for match in matches.of_stage(event, "round", number):
            game = match.game
            assert game is not None
            hand = 0
            while not games.view(game).state.over:  # four hands, more if the round ends level
                hand += 1
                for call in ("4-plain", "pass", "pass", "pass"):
                    tap(game, "call", {"number": str(hand), "call": call})
                books = rng.choice((5, 10, 11))
                tap(game, "result", {"number": str(hand), "trump": "S", "books": str(books), "renege": "none"})
            writes.close_match(event, match)
        if number < rounds:
            writes.advance(event)
    return event.public_id


def timed(fn: Callable[[], object], repeat: int, before: Callable[[], None]) -> list[float]:
    samples = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def clear_caches(app: Flask) -> None:
    for name in CACHES:
        app.extensions.get(name, {}).clear()
    db.session.remove()


def fresh_session(app: Flask) -> None:
    db.session.remove()


def line(label: str, samples: list[float], target: float | None = TARGET_MS) -> str:
    median = statistics.median(samples)
    verdict = "" if target is None else ("  PASS" if median < target else "  MISS") + f" (target < {target:.0f} ms)"
    return f"  {label:34} median {median:8.2f} ms  min {min(samples):8.2f}  max {max(samples):8.2f}{verdict}"


def measure(app: Flask, title: str, public_id: str, repeat: int) -> None:
    def load() -> Event:
        event = core.by_public_id(public_id)
        assert event is not None
        return event

    def derive() -> object:
        event = load()
        return get_format(event.format).board(event)

    print(title)
    event_format = load().format
    derive()  # the first derivation of the process (imports, template-free): not counted
    print(line("event row alone (baseline)", timed(load, repeat, lambda: fresh_session(app)), None))
    print(line("standings, cold (caches cleared)", timed(derive, repeat, lambda: clear_caches(app))))
    print(line("standings, warm (caches kept)", timed(derive, repeat, lambda: fresh_session(app))))
    if event_format == "bid_whist":

        def one_changed() -> None:
            app.extensions.get("scorepad.kept", {}).pop("Bid Whist board views", None)
            fresh_session(app)

        print(line("standings, kept board dropped", timed(derive, repeat, one_changed), None))

    def push() -> str:
        folder, context = board_context(load())
        return render_template(f"{folder}/_board.html", **context)

    html = push().encode()
    print(line("board push: derive + render, warm", timed(push, repeat, lambda: fresh_session(app)), None))
    print(
        f"  one board push: {len(html) / 1024:.1f} KB raw, {len(gzip.compress(html, 6)) / 1024:.1f} KB gzip, "
        f"{len(brotli.compress(html, quality=4)) / 1024:.1f} KB brotli (q4)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--teams", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=3, help="Bid Whist preliminary rounds, all played")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorepad-standings-"))
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SCOREPAD_DEMO": False,
            "SERVER_NAME": "bench.local",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'standings.db'}",
        }
    )
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        start = time.perf_counter()
        mil = build_military(args.tables, args.hands)
        built_mil = time.perf_counter() - start
        start = time.perf_counter()
        bw = build_bid_whist(args.teams, args.rounds)
        built_bw = time.perf_counter() - start
    print(
        f"built in {built_mil:.0f} s and {built_bw:.0f} s (SQLite file, through the services); "
        f"median of {args.repeat} runs each"
    )
    with app.test_request_context("/"):
        measure(app, f"Military Whist, {args.tables} tables x {args.hands} hands", mil, args.repeat)
        measure(
            app,
            f"Bid Whist, {args.teams} teams, {args.rounds} preliminary rounds played ({args.teams // 2} matches each)",
            bw,
            args.repeat,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
