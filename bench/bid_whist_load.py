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

The teams' own pages (`--team-pages`, all the teams by default; 0: none): as at a venue, each team
has its page `/team/<token>` open on a phone from the start (before the first hand, so the hands
are played with them open too). Each phone loads its page once, with its own cookie, and reads off
it what htmx would: the stream of `sse-connect` (today `?only=orders,team-<its number>`) and the
team panel's `hx-get` and the `sse:<name>` events of its `hx-trigger` (`team-<n>` and `orders`).
On each such event the phone GETs the panel as htmx does (HX-Request; while one GET is in flight,
one more is queued behind it, htmx's default `queue last`), and reads the next trigger off the
panel it gets. Under the signing phase it prints the panel GETs made, per signature (2 expected:
the table's two teams; before 12d544f a signature went out as `orders` and every page asked again:
up to 128, fewer as htmx merges the events that come during a GET; between 12d544f and `team-<n>`
every page was sent every table's `table-<n>` and lost its own when the hall signed at once), and
the GETs made while the hands were played (one a page: its match's last hand, which makes it offer
to sign); the GETs' latency; "to team page (event)", from a signature POST to each of its table's
two team pages receiving its event (the signatures
are made on the table phone, so both pages are other phones); and "to team page (shown)", from a
signature POST to the panel answer that shows it (the signing team's own page its tick after the
first signature, both pages "sheet final" after the second). The signing phase's entry POST line is
then measured with the pages open (compare `--team-pages 0`). A team page's failures count among
the run's errors (a page that never heard its table's event, or never showed a signature); there is
no other target. `--sign-window 2` has the hall sign within 2 s of the period. To see the
difference 12d544f made, copy this file and bench/loadkit.py into a copy of the commit before it
(`mkdir /tmp/before-12d544f && git archive 12d544f~1 | tar -x -C /tmp/before-12d544f`) and run it
there: the pages then ask for `only=orders` and refresh on every signature in the hall.

    .venv/bin/pip install -e . && .venv/bin/python bench/bid_whist_load.py [--teams 128 --streams 200]
    .venv/bin/python bench/bid_whist_load.py --quick                 # a smoke run, under a minute
    .venv/bin/python bench/bid_whist_load.py --workers 3             # three workers on PostgreSQL
    .venv/bin/python bench/bid_whist_load.py --team-pages 0          # signing with no team page open
    .venv/bin/python bench/bid_whist_load.py --sign-window 2         # the hall signs within 2 s
"""

from __future__ import annotations

import argparse
import html
import http.client
import random
import re
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

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
    moments,
    report,
    serve,
    server_words,
    stop,
    together,
    wait_until,
)

ROW = re.compile(rb'data-table="(\d+)" data-hands="(\d+)"')
HANDS = 4  # a preliminary round's match
# The first bidder bids 4 and the others pass; N/S win every hand (made with 10 books when they bid,
# set with 5 when E/W bid), so no round ends level and needs an extra hand.
CALLS = ("4-plain", "pass", "pass", "pass")
# What htmx reads off a team's page (templates/bid_whist/team.html): its stream, and the panel's GET
# and the server-sent events that trigger it.
SSE_CONNECT = re.compile(r'\bsse-connect="([^"]+)"')
PANEL = re.compile(r'<div id="team-panel"([^>]*)>')
HX_GET = re.compile(r'\bhx-get="([^"]*)"')
HX_TRIGGER = re.compile(r'\bhx-trigger="([^"]*)"')
EVENT_LINE = re.compile(rb"^event: (\S+)\r?$", re.M)


class Streams(StreamReader):
    """Each leaderboard notes when (table, hands) first shows in the round's table list."""

    def _read(self, i: int, buffer: bytes, now: float) -> None:
        if b": connected" in buffer:
            self.connected[i] = True
        for table, hands in ROW.findall(buffer):
            for h in range(1, int(hands) + 1):
                self.seen[i].setdefault((int(table), h), now)
        self.buffers[i] = buffer[-80:]


def panel_of(page: str) -> tuple[str, frozenset[str]] | None:
    """A team page's panel as htmx reads it: the URL of its `hx-get` and the server-sent events of
    its `hx-trigger` (`sse:orders, sse:table-5` -> orders, table-5); None when the page has none."""
    found = PANEL.search(page)
    url = HX_GET.search(found.group(1)) if found else None
    trigger = HX_TRIGGER.search(found.group(1)) if found else None
    if not (found and url and trigger):
        return None
    names = (t.split()[0] for t in html.unescape(trigger.group(1)).split(",") if t.strip())
    return html.unescape(url.group(1)), frozenset(n[4:] for n in names if n.startswith("sse:"))


def panel_state(page: str) -> str:
    """What a team's panel shows of its round's sheet: "final", "signed" (its own team's tick),
    "open" (its Sign button), or "playing" (none of them: the round is not over, as far as it knows)."""
    found = PANEL.search(page)
    panel = page[found.start() :] if found else ""
    if "sheet final" in panel:
        return "final"
    if 'class="signed"' in panel:
        return "signed"
    return "open" if re.search(r'action="/team/[^"]+/sign"', panel) else "playing"


class TeamPages(StreamReader):
    """Phones with their team's page open, run as htmx runs it: each loads `/team/<token>` (its
    cookie, as a phone), opens the page's `sse-connect` stream, and on each event its panel's
    `hx-trigger` names GETs the panel's `hx-get`, one at a time per page with one more queued
    behind (htmx's default `queue last`); the next trigger is read off the panel it got.

    `seen[i]` holds ("event", name, k): when the k-th event `name` of page i's triggers came (from 0,
    by name: `table-5`'s k-th is table 5's k-th signature), ("get", k): when page i's k-th
    panel GET went, ("answer", k, state): when that GET's answer came and what it showed
    (`panel_state`). `traffic["event"]` counts every named event the pages' streams carried."""

    def __init__(self, port: int, tokens: list[str]) -> None:
        self.phones = [Client(port, f"/team/{token}") for token in tokens]
        self.panels: list[tuple[str, frozenset[str]]] = []
        paths = []  # each page's own stream (`only=orders,team-<n>`)
        for token, phone in zip(tokens, self.phones):
            panel, connect = panel_of(phone.page), SSE_CONNECT.search(phone.page)
            if panel is None or connect is None:
                raise RuntimeError(f"/team/{token}: no sse-connect, or no team panel with hx-get and hx-trigger")
            self.panels.append(panel)
            paths.append(html.unescape(connect.group(1)))
        print(
            f"team pages: {len(tokens)} phones with their team's page open; the first's stream {paths[0]}; its GET "
            f"{self.panels[0][0].replace(tokens[0], '<token>')} on "
            + ", ".join(f"sse:{n}" for n in sorted(self.panels[0][1]))
            + " (the first team's)",
            flush=True,
        )
        self.guard = threading.Lock()
        self.busy = [False] * len(tokens)
        self.queued = [False] * len(tokens)
        self.events: list[Counter[str]] = [Counter() for _ in tokens]
        self.gets = [0] * len(tokens)
        self.pool = ThreadPoolExecutor(max(1, len(tokens)))  # the phones ask at once, as phones do
        super().__init__(port, paths, len(tokens))

    def run(self) -> None:
        super().run()
        self.pool.shutdown(wait=True)  # the GETs under way end before what they saw is sent

    def _read(self, i: int, buffer: bytes, now: float) -> None:
        if b": connected" in buffer:
            self.connected[i] = True
        whole = buffer.rfind(b"\n") + 1  # an event's name cut by a read waits for the rest
        for name in EVENT_LINE.findall(buffer, 0, whole):
            self.traffic["event"] += 1
            if name.decode() in self.panels[i][1]:
                self.seen[i][("event", name.decode(), self.events[i][name.decode()])] = now
                self.events[i][name.decode()] += 1
                self._trigger(i)
        self.buffers[i] = buffer[whole:][-200:]

    def _trigger(self, i: int) -> None:
        with self.guard:
            if self.busy[i]:
                self.queued[i] = True
                return
            self.busy[i] = True
        self.pool.submit(self._refresh, i)

    def _refresh(self, i: int) -> None:
        """Page i's panel GETs: this one, and again while an event came during the last."""
        while True:
            k = self.gets[i]
            self.gets[i] += 1
            start = time.perf_counter()
            self.seen[i][("get", k)] = start
            try:
                status = self.phones[i].get(self.panels[i][0])
                if status != 200:
                    self.errors.append(f"team page {i}: panel GET: HTTP {status}")
                else:
                    self.seen[i][("answer", k, panel_state(self.phones[i].page))] = time.perf_counter()
                    self.panels[i] = panel_of(self.phones[i].page) or self.panels[i]  # swapped in: its trigger
            except (OSError, http.client.HTTPException) as e:
                self.errors.append(f"team page {i}: panel GET: {e}")
            with self.guard:
                if not self.queued[i]:
                    self.busy[i] = False
                    return
                self.queued[i] = False


def team_page_figures(
    signing: Phase,
    pages: list[tuple[int, int]],
    seen: list[dict[Any, float]],
    signed_at: dict[tuple[int, int], float],
    since: float,
    events: int,
    errors: list[str],
) -> list[str]:
    """The team pages' figures under the signing phase: its latency kinds ("panel GET", "to team
    page (event)" and "(shown)"), and lines for the report; what went wrong is added to `errors`
    (the pages' own). `pages[i]`: page i's (table, side); `signed_at`: each signature POST's start
    by (table, side); `since`: the signing phase's start; `events`: the events their streams carried."""
    open_at = Counter(table for table, _ in pages)
    order: dict[int, list[tuple[float, int]]] = {}  # each table's signatures in the order they were made
    for (table, side), at in signed_at.items():
        order.setdefault(table, []).append((at, side))
    before = during = 0
    for i, (table, side) in enumerate(pages):
        answers = sorted((at, key[1], key[2]) for key, at in seen[i].items() if key[0] == "answer")
        for key, start in seen[i].items():
            if key[0] != "get":
                continue
            if start < since:
                before += 1
                continue
            during += 1
            end = next((at for at, k, _ in answers if k == key[1]), None)
            if end is not None:
                signing.latency.setdefault("panel GET", []).append(end - start)
        for k, (at, signer) in enumerate(sorted(order.get(table, []))):
            # its own team's name (`team-<n>`: it hears no other's) or its table's (a page drawn with `table-*`)
            came = min(
                (
                    t
                    for key, t in seen[i].items()
                    if key[0] == "event" and t >= at and (key[1].startswith("team-") or key[1] == f"table-{table}")
                ),
                default=None,
            )
            if came is None:  # a page that hears no table's own name (before 12d544f: `orders`): the next event
                came = min((t for key, t in seen[i].items() if key[0] == "event" and t >= at), default=None)
            if came is None:
                errors.append(f"team page {i} (table {table}): no table event for signature {k + 1}")
            else:
                signing.latency.setdefault("to team page (event)", []).append(came - at)
            # what shows it: the signing team's tick after the first signature (or "sheet final", when the
            # second came before the panel's GET was answered), "sheet final" after the second
            states = {"final"} if k else ({"signed", "final"} if signer == side else set())
            if not states:
                continue
            shown = next((end for end, _, s in answers if end >= at and s in states), None)
            if shown is None:
                errors.append(
                    f"team page {i} (table {table}): signature {k + 1} never shown ({' or '.join(sorted(states))})"
                )
            else:
                signing.latency.setdefault("to team page (shown)", []).append(shown - at)
    made = len(signed_at)
    expected = sum(open_at[table] for table, _ in signed_at)
    return [
        f"team pages: {len(pages)} open; {during} panel GETs for {made} signatures, {during / max(made, 1):.2f} "
        f"a signature ({expected / max(made, 1):.2f} expected: the signing table's own pages); {before} while the "
        f"hands were played ({len(pages)} expected: each page once, when its match's last hand is saved)",
        f"team pages: {events / max(len(pages), 1):.0f} events read on each page's stream in the run; "
        f"errors: {len(errors)}",
    ]


def make_tournament(database: str, teams: int) -> tuple[str, list[tuple[int, str, str, str, str, str]]]:
    """Register the teams and start (straight in the database): (public id, [(table, scorer token,
    the N/S team's code, the E/W team's code, the N/S team's token, the E/W team's token)])."""
    public, tables = in_app(
        database,
        f"""
from scorepad.events.bid_whist import matches, registration, writes
e = writes.create("Bench", rounds=3)
for n in range({teams}):
    registration.register_team(e, f"Team {{n + 1}}", [f"P{{n + 1}}a", f"P{{n + 1}}b"])
writes.start(e)
codes = {{x.number: matches.team_code(x) for x in e.entrants}}
tokens = {{x.number: x.token for x in e.entrants}}
print(json.dumps([e.public_id, [[m.table, m.game.scorer_token, codes.get(m.home, ''), codes.get(m.away, ''),
                                 tokens.get(m.home, ''), tokens.get(m.away, '')] for m in e.matches]]))
""",
    )
    return public, [(int(t), str(s), str(home), str(away), str(th), str(ta)) for t, s, home, away, th, ta in tables]


def main() -> int:
    def sizes(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--teams", type=int)
        parser.add_argument(
            "--team-pages",
            type=int,
            help="teams with their own page open on a phone, from the start (default: every team; 0: none)",
        )
        parser.add_argument(
            "--sign-window",
            type=float,
            help="every table signs within this many seconds of the signing period (default: "
            "all of it, --hand-seconds; 0: at once)",
        )

    args = arguments(
        __doc__.split("\n")[0],
        {"teams": 128, "streams": 200, "hand_seconds": 10.0, "burst_hands": 1},
        {"teams": 16, "streams": 20, "hand_seconds": 3.0},
        sizes,
    )
    if not 0 <= args.burst_hands <= HANDS:
        sys.exit(f"--burst-hands: 0 to {HANDS} (a match's hands)")
    if args.team_pages is None:
        args.team_pages = args.teams
    if not 0 <= args.team_pages <= args.teams:
        sys.exit(f"--team-pages: 0 to {args.teams} (the teams)")
    with database(args) as url:
        return run(args, url)


def run(args: argparse.Namespace, database: str) -> int:
    public, tables = make_tournament(database, args.teams)
    server, port = serve(database, args.workers, args.server_cpus, args.cpu_quota)
    try:
        print(
            f"{server_words(database, args.workers, args.server_cpus, args.cpu_quota)} on port {port}; "
            f"{args.teams} teams, {len(tables)} tables, "
            f"{HANDS} hands ({args.burst_hands} of them a burst) and signing, {args.streams} leaderboard streams"
        )
        streams = StreamsProcess(Streams, port, board_stream(public, args), args.streams)
        # the teams' own pages, open from the start, in the order of the tables (both teams of a table)
        pages = [
            (table, side, token) for table, _, _, _, *tokens in tables for side, token in enumerate(tokens) if token
        ][: args.team_pages]
        team_pages = StreamsProcess(TeamPages, port, [token for *_, token in pages]) if pages else None
        phones = {table: Client(port, f"/g/{scorer}") for table, scorer, *_ in tables}
        codes = {table: (home, away) for table, _, home, away, *_ in tables}  # from the teams' cards
        signed_at: dict[tuple[int, int], float] = {}  # each signature POST's start, by (table, side)
        prober = Baseline(port)
        prober.start()

        record = Run()
        n, seconds = len(tables), args.hand_seconds
        steady = record.phase(
            "steady",
            n * (len(CALLS) + 1) / seconds,
            f"{n} tables x 5 posts, each at a random moment of every {seconds:g} s",
        )
        burst = record.phase(
            "burst",
            n * (len(CALLS) + 1) / seconds,
            f"{n} tables x 5 posts every {seconds:g} s, all {together(args.burst_window)}",
        )
        sign_window = seconds if args.sign_window is None else min(args.sign_window, seconds)
        signing = record.phase(
            "signing",
            n * 2 / seconds,
            f"{n} tables x 2 signatures within {seconds:g} s"
            + (f", all {together(sign_window)}" if sign_window < seconds else ""),
        )
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
                record.timed(
                    phase,
                    "entry",
                    lambda: phone.submit(form, trump="S", books=str(books), renege="none"),
                    f"{what} result",
                    key=(table, hand),
                )
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

                def post() -> int:
                    signed_at[(table, side)] = time.perf_counter()
                    return phone.submit(form, code=codes[table][side])

                record.timed(signing, "entry", post, f"table {table} signature {side}")

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
            start = signing_started = clock.period()
            plan = {t: moments(rng, start, sign_window, 2) for t in numbers}
            list(pool.map(lambda t: sign(t, plan[t]), numbers))
            record.period(signing, start, clock)
        elapsed = time.perf_counter() - started
        time.sleep(1.5)  # let the last pushes arrive
        prober.done.set()
        seen_by_stream, stream_errors = streams.finish()
        record.errors.extend(stream_errors + prober.errors)
        notes: dict[str, list[str]] = {}
        if team_pages is not None:
            seen_by_page, page_errors = team_pages.finish()
            if team_pages.connected < len(pages):
                page_errors.append(f"team pages: only {team_pages.connected} of {len(pages)} streams connected")
            notes["signing"] = team_page_figures(
                signing,
                [(t, side) for t, side, _ in pages],
                seen_by_page,
                signed_at,
                signing_started,
                team_pages.traffic.get("event", 0),
                page_errors,
            )
            record.errors.extend(page_errors)

        posts = sum(len(p.entries()) for p in record.phases.values())
        results = sum(len(p.sent) for p in record.phases.values())
        ok = report(
            f"ran {posts} POSTs ({results} hands) in {elapsed:.1f} s",
            record,
            prober.samples,
            seen_by_stream,
            streams.connected,
            args.streams,
            streams.traffic,
            notes,
            quota=args.cpu_quota,
            hand_of=lambda key: key[1],  # (table, hand)
        )
        return 0 if ok else 1
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())
