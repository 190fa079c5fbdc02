"""The stack's floor (not a test): what a home tap costs before any of Scorepad's own work (issue 28).

bench/cpu.py holds a home tap to 2.5x a bare `GET /healthz`. This prints how much of that the stack
itself takes: it serves the app as cpu.py does (bench/loadkit.py's `serve`: gunicorn, one gevent
worker, SQLite, the server's CPU read from /proc), with bench/floor_app.py's three routes added beside
the app's own, and measures in turn, each block between two healthz blocks:

- `empty`: an htmx POST that opens the session and passes the CSRF check, answered "ok";
- `write`: that, and a tap's least work on the database: the game's row read by its token, one
  UPDATE, the commit;
- `answer`: that, answered with a real bid tap's answer (captured from the app at the start: the
  same bytes, compressed as the app compresses them);
- `page`: a GET that reads the game's row and its hands and answers a real scoring page's bytes
  (the page at hand 1, captured the same way), beside the app's own page;
- the app's own taps: a Nomination round's 9 POSTs (bench/home_round.py's `scorepad_play`), and
  a bid tap alone, at hand 1.

    .venv/bin/python bench/floor.py            # about a minute
    .venv/bin/python bench/floor.py --posts 400 --passes 6
"""

from __future__ import annotations

import argparse
import http.client
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import home_round
from cpu import TAP, TAPS, BenchError, Line, Report, Section, Tally, healthz_line, interleaved, merged, rounds_block
from loadkit import serve, server_words, stop

KINDS = ("empty", "write", "answer", "page")


class Capturing(home_round.Phone):
    """A phone that keeps the answer to the first bid tap it sends (and the last page it opened)."""

    bid = ""
    page = ""  # the scoring page, as home_round.scorepad_round leaves it

    def send(
        self, method: str, path: str, form: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        status, answer = super().send(method, path, form, headers)
        if (form or {}).get("action") == "bid" and not self.bid:
            self.bid = answer
        return status, answer


def opened(port: int, token: str) -> home_round.Phone:
    """A phone with its session cookie and CSRF token, as the scoring page leaves it."""
    phone = home_round.Phone(port)
    home_round.scorepad_round(phone, token, 1)
    return phone


def floor_block(port: int, group: int, token: str, kind: str, posts: int) -> Tally:
    phone = opened(port, token)
    headers = {**home_round.HEADERS, "X-CSRFToken": phone.csrf}  # type: ignore[attr-defined]
    path = "/bench/floor/empty" if kind == "empty" else f"/bench/floor/{kind}/{token}"
    method, form = ("GET", None) if kind == "page" else ("POST", {"tap": "1"})
    tally = Tally(group)
    for _ in range(posts):
        status, _ = phone.send(method, path, form, headers)
        if status != 200:
            raise BenchError(f"POST {path}: HTTP {status}")
        tally.charge(kind)
    tally.settle(kind)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=200, help="POSTs a floor block (default 200)")
    parser.add_argument("--rounds", type=int, default=6, help="home rounds a block (default 6)")
    parser.add_argument("--passes", type=int, default=4, help="blocks of each kind (default 4)")
    parser.add_argument("--healthz", type=int, default=200, help="bare requests a baseline block (default 200)")
    args = parser.parse_args()
    if min(args.posts, args.rounds, args.passes, args.healthz) < 1:
        parser.error("--posts, --rounds, --passes and --healthz at least 1")

    started = time.perf_counter()
    load = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="scorepad-floor-"))
    database = f"sqlite:///{folder / 'bench.db'}"
    print(f"bench/floor.py, {time.strftime('%Y-%m-%d %H:%M')}; load average {load[0]:.2f} at the start", flush=True)
    tokens = home_round.make_games(database, 3 + len(KINDS) + args.passes * args.rounds)[1]
    server, port = serve(database, app="bench.floor_app:create()")
    group = server.pid
    print(f"{server_words(database, 1)} on port {port}, with bench/floor_app.py's routes", flush=True)
    report = Report()
    section = Section("floor")
    tallies: dict[str, list[Tally]] = {kind: [] for kind in (*KINDS, "taps")}
    try:
        capture = Capturing(port)  # a real round: the code and templates loaded, a bid tap's answer kept
        for token in tokens[:2]:
            home_round.scorepad_round(capture, token, 1)
            home_round.scorepad_play(capture, token, 1)
        keeper = opened(port, tokens[2])
        status, _ = keeper.send(
            "POST", "/bench/floor/keep", {"answer": capture.bid, "page": capture.page}, {"X-CSRFToken": keeper.csrf}
        )  # type: ignore[attr-defined]
        if status != 200 or not capture.bid or not capture.page:
            raise BenchError(f"keeping the bid tap's answer: HTTP {status}")
        floors = dict(zip(KINDS, tokens[3 : 3 + len(KINDS)], strict=True))
        games = tokens[3 + len(KINDS) :]
        for kind in KINDS:  # warm-up
            floor_block(port, group, floors[kind], kind, 20)

        def block(kind: str) -> None:
            if kind == "taps":
                mine = [games.pop() for _ in range(args.rounds)]
                tallies[kind].append(rounds_block(port, group, mine, 1, False))
            else:
                tallies[kind].append(floor_block(port, group, floors[kind], kind, args.posts))

        order = [*KINDS, "taps"]
        blocks = [
            (lambda kind=kind: block(kind))
            for n in range(args.passes)
            for kind in (order if n % 2 == 0 else order[::-1])
        ]
        interleaved(port, group, args, section, blocks)
    except (BenchError, home_round.RoundError, OSError, http.client.HTTPException) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        stop(server)

    print(
        f"the bid tap's answer: {len(capture.bid.encode())} bytes, the page {len(capture.page.encode())}, "
        "before compression; "
        f"{args.passes} blocks of each kind, in one order then the other"
    )
    healthz_line(report, section)
    bare = section.bare()
    words = {
        "empty": "an htmx POST: the session and the CSRF check, 'ok'",
        "write": "  and the game's row read, one UPDATE, the commit",
        "answer": "  and a bid tap's answer (compressed)",
        "page": "a GET: the game and its hands read, a page's bytes (compressed)",
    }
    figures = {}
    for kind in KINDS:
        charges = merged(tallies[kind])
        figures[kind] = report.figure(Line(words[kind], charges.per(kind), bare, charges.count(kind)))
    taps = merged(tallies["taps"])
    tap = report.figure(Line("the app's tap (a round's POSTs, mean)", taps.per(*TAPS), bare, taps.count(*TAPS)))
    bid = report.figure(Line("the app's bid tap", taps.per("bid"), bare, taps.count("bid")))
    report.figure(Line("the app's scoring page, hand 1, first", taps.per("page"), bare, taps.count("page")))
    report.figure(Line("  and again (the game kept)", taps.per("page again"), bare, taps.count("page again")))
    floor = figures["answer"]
    report.note(
        f"the floor leaves x{TAP - floor.ratio():.1f} of a bare request for Scorepad's own work under the target "
        f"x{TAP:g}; a tap spends x{tap.ratio() - floor.ratio():.1f} (a bid tap x{bid.ratio() - floor.ratio():.1f}) "
        f"beyond the floor: the tap is {tap.cpu / floor.cpu:.1f} floors"
    )
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} at the end; {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
