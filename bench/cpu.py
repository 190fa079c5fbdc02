"""The server's CPU per unit of work (not a test), each as a ratio to a bare `GET /healthz`: issue 28's item 1.

Serves this checkout as `scorepad run` does (gunicorn, one gevent worker, a SQLite file:
bench/loadkit.py's `serve`, in a process group of its own) and reads its CPU time from /proc:
utime + stime of every process of that group, with the children it waited for (loadkit's
`server_cpu`). One client sends the requests one after another; the CPU is read before and after
each block of work and between its requests, to split it by kind (the reads telescope, so the
kinds add up to the block), the bare requests' blocks read the same way (loadkit's `ServerCpu`:
the group's processes found once a block, so that a reading is short; a server left idle longer
between requests spends more CPU on each), and each figure is CPU milliseconds per unit of work
beside the same for a bare `GET /healthz`. A block ends with a short pause, so that what its requests set off
(a leaderboard push drawn off the request) is counted in it.

On a shared machine CPU time holds better than latency, but not perfectly: other processes on the
cores delay the server without adding to its CPU, yet they do add some (cold caches after each
switch), and the load moves from one minute to the next. So what is compared is measured in turn,
in small blocks, within one section: a healthz block between any two blocks of work, the kinds of
work in one order and then the other (hand 1 and hand 25, Scorepad and the peer; early and late,
with and without streams), each section's units divided by the median of its own healthz blocks.
/proc counts in ticks of 10 ms: a figure is the sum of many requests' readings (about half a
second of CPU or more), good to a few per cent.

The units:

- a home tap: one htmx POST of a Nomination Whist round, 4 players (bench/home_round.py's
  `scorepad_play`: the trump, 4 bids, the tricks tapped, Save; 9 POSTs): the round's CPU over its
  POSTs, and apart a bid tap alone; and the round beside bench/peer_scorer.py's (4 bids and the
  tricks: 5 POSTs, the peer's own process group), at hand 1 (a new game) and hand 25 (a game
  holding 24 hands); Scorepad and the peer in turn, hand 1 then 25, then the other way round;
- opening the scoring page: the full page `GET /g/<token>` each of those rounds starts with, by a
  new phone (a fresh cookie; the first time the server sees that game: it derives it), then again
  by another (the game now kept, as when a phone reloads or a spectator opens it);
- a Military Whist entry, all its requests (bench/events_load.py's: the table's panel GET, the
  tapped result's preview POST, Confirm's result POST), 64 tables, with 0 and with 200 board
  streams open, early (hand 1) and late (hand 25): four events alike, two of them with 24 hands
  entered through the services before the server started, 200 streams open on one early and one
  late event all along (no stream is opened or closed between the blocks compared), the four
  played 16 tables at a time in turn; the director's advance apart, after each hand;
- a Bid Whist post (bench/bid_whist_load.py's: 4 calls and the result a hand, each from the form
  the last answer swapped in), 128 teams at 64 tables, with 0 and 200 streams in the same way;
  early (round 1, hand 1) and late (round 3 of 3, hand 1: two of the four tournaments had rounds 1
  and 2 played through the services, each match closed by the director);
- a board push per stream: the CPU of the blocks with 200 streams minus those with none, divided by
  the entries (or Bid Whist results) times the streams, and by the pushes the streams received
  (the board drawn once for a push is in it: with no stream open nothing is drawn).

`--hands N` plays N hands of each event (its next ones, or the match's) for steadier figures.

Targets (issue 28), printed PASS or MISS (a miss is a finding, not a failure: the script exits 0;
it exits non-zero on an error, an HTTP status other than 200 or a form missing from an answer):
a home tap at most 2.5x a bare request; a home round at most 3x the peer's round; opening the page
at most 4x; hand 25 within 10 % of hand 1; a Military entry, all its requests, at most 10x with no
screen and 15x with 200 streams; a Bid Whist post at most 4x and 8x; late in the event within 10 %
of early.

    .venv/bin/python bench/cpu.py            # about 4 minutes (one of them building the events)
    .venv/bin/python bench/cpu.py --quick    # a smoke run, about 2 minutes: fewer rounds, 16 tables
                                             # (a smaller hall: not the same figures)
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bid_whist_load
import events_load
import home_round
from loadkit import (
    Client,
    FormMissing,
    ServerCpu,
    StreamReader,
    StreamsProcess,
    board_stream,
    find_form,
    in_app,
    serve,
    server_words,
    stop,
)

MS = 1000.0
SPLIT = (
    "(with streams an entry's push is drawn while the next table's requests run: only the entry's whole is "
    "its own, not its split by request)"
)
SETTLE = 0.25  # seconds a block waits after its last request: a push set off by it is drawn by then
MILITARY_HANDS = 50  # the events' schedule (days of 30 and 20, as bench/events_load.py's)
LATE_HAND = 25  # the hand in play late in a Military event, and a home game's late round
BID_WHIST_LATE_ROUND = 3  # of make_tournament's 3 preliminary rounds

# The targets (issue 28): at most this many times a bare request's CPU, or within this change.
TAP = 2.5
ROUND_AGAINST_PEER = 3.0
PAGE = 4.0
MILITARY_QUIET, MILITARY_STREAMS = 10.0, 15.0
BID_WHIST_QUIET, BID_WHIST_STREAMS = 4.0, 8.0
DRIFT = 0.10
PASSES = 4  # a home block of each kind per pass, in one order then the other


class BenchError(Exception):
    """The server answered something other than what the next step needs: the run is not valid."""


# --- the server's CPU, charged to the work --------------------------------------------------------


@dataclass
class Charges:
    """Server CPU seconds and units of work, by label (what the requests were)."""

    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    units: Counter[str] = field(default_factory=Counter)

    def total(self, *labels: str) -> float:
        """The CPU of `labels` together (of all, without)."""
        return sum(self.cpu[label] for label in labels or tuple(self.cpu))

    def count(self, *labels: str) -> int:
        return sum(self.units[label] for label in labels)

    def per(self, *labels: str) -> float:
        """CPU seconds per unit of `labels` together."""
        return self.total(*labels) / max(1, self.count(*labels))

    def add(self, other: Charges) -> None:
        for label, cpu in other.cpu.items():
            self.cpu[label] += cpu
        self.units.update(other.units)


class Tally(Charges):
    """One block of work as it runs: the server group's CPU since the last reading is charged to a
    label (what the request just answered was) with its units; the readings telescope, so the
    labels add up to the block."""

    def __init__(self, group: int) -> None:
        super().__init__()
        self.server = ServerCpu(group)
        self.last = self.server.read()

    def charge(self, label: str, units: int = 1, now: float | None = None) -> None:
        now = self.server.read() if now is None else now
        self.cpu[label] += now - self.last
        self.units[label] += units
        self.last = now

    def settle(self, label: str) -> None:
        """End the block: what the last requests set off is charged to `label` (no more units)."""
        time.sleep(SETTLE)
        self.charge(label, 0, self.server.rescan())


def merged(tallies: list[Tally]) -> Charges:
    """The blocks of one kind of work as one (their CPU and units added)."""
    out = Charges()
    for t in tallies:
        out.add(t)
    return out


@dataclass
class Section:
    """A part of the run with its own healthz blocks: its units are ratios to their median."""

    name: str
    baselines: list[float] = field(default_factory=list)  # CPU seconds per healthz, block by block

    def bare(self) -> float:
        return statistics.median(self.baselines)


def healthz_block(port: int, group: int, requests: int, section: Section) -> None:
    """`requests` bare `GET /healthz`, one after another on a keep-alive connection, the CPU read
    after each as it is after each request of the work (`ServerCpu`: the same short gap)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    tally = Tally(group)
    for _ in range(requests):
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise BenchError(f"GET /healthz: HTTP {response.status}")
        tally.charge("healthz")
    tally.settle("healthz")
    conn.close()
    section.baselines.append(tally.total() / requests)


def interleaved(
    port: int, group: int, args: argparse.Namespace, section: Section, blocks: list[Callable[[], None]]
) -> None:
    """healthz, block, healthz, block, ..., healthz."""
    healthz_block(port, group, args.healthz, section)
    for block in blocks:
        block()
        healthz_block(port, group, args.healthz, section)


# --- a home game's round ------------------------------------------------------------------------


class MeteredPhone(home_round.Phone):
    """bench/home_round.py's phone, each request charged to `tally` under what it was: a GET (the
    full page) to `page`, a POST to the posted form's `action` (trump, bid, tricks, result), or the
    peer's route."""

    tally: Tally | None = None
    page_label = "page"

    def send(
        self, method: str, path: str, form: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        answer = super().send(method, path, form, headers)
        if self.tally is not None:
            label = (
                self.page_label if method == "GET" else (form or {}).get("action", "peer " + path.rsplit("/", 1)[-1])
            )
            self.tally.charge(label)
        return answer


TAPS = ("trump", "bid", "tricks", "result")


def rounds_block(port: int, group: int, games: list[str], hand: int, peer: bool) -> Tally:
    """Round `hand` of each game in turn: the page opened by a new phone (the first time the server
    sees the game: "page"), opened again by another ("page again": the game now kept), then the
    taps; the peer's rounds when `peer`."""
    phone = MeteredPhone(port)
    tally = phone.tally = Tally(group)
    try:
        for game in games:
            if peer:
                home_round.peer_play(phone, game, hand)
            else:
                phone.page_label = "page"
                home_round.scorepad_round(phone, game, hand)
                phone.page_label = "page again"
                home_round.scorepad_round(phone, game, hand)
                home_round.scorepad_play(phone, game, hand)
            tally.units["round"] += 1
    except (home_round.RoundError, OSError, http.client.HTTPException) as e:
        raise BenchError(f"{'the peer' if peer else 'Scorepad'}, round {hand}: {e}") from None
    tally.settle("peer tricks" if peer else "result")
    return tally


# --- the events ---------------------------------------------------------------------------------


def expect(status: int, what: str) -> None:
    if status != 200:
        raise BenchError(f"{what}: HTTP {status}")


@dataclass
class Military:
    """One Military Whist event's phones and director, as bench/events_load.py plays them."""

    public: str
    director: Client
    phones: list[Client]
    tokens: list[str]
    hand: int
    rng: random.Random = field(default_factory=lambda: random.Random(28))

    @classmethod
    def open(cls, port: int, made: tuple[str, str, list[str]], hand: int) -> Military:
        public, director, tokens = made
        return cls(public, Client(port, f"/d/{director}"), [Client(port, f"/t/{t}") for t in tokens], tokens, hand)

    def play(self, group: int, tables: range) -> Tally:
        """These tables' entries for the hand in play (the panel, the result tapped, Confirm); after the
        last table's, the director opens the next hand."""
        tally = Tally(group)
        hand = self.hand
        for i in tables:
            phone, what = self.phones[i], f"Military hand {hand} table {i + 1}"
            expect(phone.get(f"/t/{self.tokens[i]}/panel"), what + " panel")
            tally.charge("panel")
            tapped = find_form(phone.page, "/preview", hand=str(hand))
            tricks = str(self.rng.randint(3, 11))
            if tricks not in tapped.choices("tricks"):
                raise FormMissing(f"{what}: no {tricks} on the tricks pad")
            expect(phone.submit(tapped, tricks=tricks, revoke="none"), what + " preview")
            tally.charge("preview")
            expect(phone.submit(find_form(phone.page, "/result", hand=str(hand))), what + " result")
            tally.charge("result")
        tally.settle("result")
        if tables.stop == len(self.phones):
            opens = find_form(self.director.page, "/advance", hand=str(hand))
            expect(self.director.submit(opens), f"advance after hand {hand}")
            tally.charge("advance")
            tally.settle("advance")
            self.hand += 1
        return tally


def play_military(database: str, publics: list[str], hands: int) -> None:
    """Enter `hands` hands of each event through the services (every table, then the advance)."""
    in_app(
        database,
        f"""
import random
from scorepad.events import military
from scorepad.extensions import db
from scorepad.models import Event
rng = random.Random(28)
for public in {publics!r}:
    event = db.session.query(Event).filter_by(public_id=public).one()
    for hand in range(1, {hands} + 1):
        for table in range(1, len(event.tables) + 1):
            military.enter_result(event, table, hand, rng.randint(3, 11), None, f"table {{table}}")
        military.advance(event, hand=hand)
print(json.dumps(None))
""",
    )


@dataclass
class BidWhist:
    """One Bid Whist tournament's table phones, each on its match's scoring page."""

    public: str
    phones: list[tuple[int, Client]]
    hand: int = 1

    @classmethod
    def open(cls, port: int, public: str, tables: list[tuple[int, str]]) -> BidWhist:
        return cls(public, [(table, Client(port, f"/g/{scorer}")) for table, scorer in tables])

    def play(self, group: int, tables: range) -> Tally:
        """These tables' hand: the four calls, then the result (bench/bid_whist_load.py's); after the
        last table's, the next hand."""
        tally = Tally(group)
        hand = self.hand
        for i in tables:
            table, phone = self.phones[i]
            what = f"Bid Whist table {table} hand {hand}"
            for call in bid_whist_load.CALLS:
                form = find_form(phone.page, "/entry", action="call")
                if call not in form.choices("call"):
                    raise FormMissing(f"{what}: no {call} button on the call form")
                expect(phone.submit(form, call=call), f"{what} call")
                tally.charge("call")
            form = find_form(phone.page, "/entry", action="result", number=str(hand))
            books = "10" if hand % 4 in (0, 2) else "5"  # the N/S team wins every hand
            expect(phone.submit(form, trump="S", books=books, renege="none"), f"{what} result")
            tally.charge("result")
        tally.settle("result")
        if tables.stop == len(self.phones):
            self.hand += 1
        return tally


def play_bid_whist(database: str, publics: list[str], rounds: int) -> list[list[tuple[int, str]]]:
    """Play `rounds` preliminary rounds of each tournament through the services (four hands a match,
    the N/S team winning each, the match closed by the director), then draw the next; each
    tournament's next round's (table, scorer token)."""
    found = in_app(
        database,
        f"""
from scorepad.events.bid_whist import writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event
def hand(number):
    bidder = number % 4  # the first dealer 0: the bidding starts at seat 1 in hand 1
    return {{"auction": [{{"bid": 4, "kind": "plain"}}, None, None, None], "bidder": bidder, "bid": 4,
            "kind": "plain", "trump": "S", "books": 10 if bidder % 2 == 0 else 5}}
found = []
for public in {publics!r}:
    event = db.session.query(Event).filter_by(public_id=public).one()
    for number in range(1, {rounds} + 1):
        for match in sorted(event.matches, key=lambda m: m.table):
            if match.stage == "round" and match.number == number and match.game is not None:
                for n in range(1, 5):
                    games.enter_hand(match.game, n, hand(n))
                writes.close_match(event, match)
        writes.advance(event)
    found.append(sorted([m.table, m.game.scorer_token] for m in event.matches
                        if m.stage == "round" and m.number == {rounds} + 1 and m.game is not None))
print(json.dumps(found))
""",
    )
    return [[(int(table), str(token)) for table, token in tables] for tables in found]


class Played(Protocol):
    public: str

    def play(self, group: int, tables: range) -> Tally: ...


Config = tuple[str, int]  # ("early" or "late", the streams open on the event)


@dataclass
class Streamed:
    """What a streams' reader counted: the pushes and bytes all its streams received together."""

    streams: int
    pushes: int = 0
    bytes: int = 0


def events_section(
    name: str, port: int, group: int, args: argparse.Namespace, events: dict[Config, Played], tables: int
) -> tuple[Section, dict[Config, Charges]]:
    """Each event's hands in chunks of `args.chunk` tables, the events in turn (one order, then the
    other), a healthz block between any two chunks."""
    section = Section(name)
    charges = {config: Charges() for config in events}
    chunks = [range(first, min(first + args.chunk, tables)) for first in range(0, tables, args.chunk)]
    order = list(events)

    def block(config: Config, chunk: range) -> Callable[[], None]:
        return lambda: charges[config].add(events[config].play(group, chunk))

    passes = [chunk for _ in range(args.hands) for chunk in chunks]
    blocks = [block(c, chunk) for n, chunk in enumerate(passes) for c in (order if n % 2 == 0 else order[::-1])]
    interleaved(port, group, args, section, blocks)
    return section, charges


def open_streams(port: int, reader: type[StreamReader], path: str, count: int, *more: object) -> StreamsProcess:
    streams = StreamsProcess(reader, port, path, count, *more)
    if streams.connected < count:
        raise BenchError(f"only {streams.connected} of {count} streams connected to {path}")
    return streams


def counted(name: str, reader: StreamsProcess, streams: int) -> Streamed:
    _, errors = reader.finish()
    if errors:
        raise BenchError(f"{name}: the streams: {'; '.join(errors[:3])}")
    pushes = reader.traffic.get("board", 0) + reader.traffic.get("patch", 0)
    return Streamed(streams, pushes, reader.traffic.get("bytes", 0))


def push_line(report: Report, when: str, quiet: Charges, watched: Charges, units: int, seen: Streamed) -> None:
    """The streams' cost: the blocks with them minus the blocks without, per unit and stream, per push
    and stream."""
    extra = watched.total() - quiet.total()
    report.note(
        f"{when}: a board push per stream: {extra / (units * seen.streams) * 1e6:.0f} us an entry and stream "
        f"({extra * MS:.0f} ms more with {seen.streams} streams over {units} entries); "
        f"{extra / max(1, seen.pushes) * 1e6:.0f} us a push and stream ({seen.pushes / seen.streams:.0f} pushes "
        f"each, {seen.bytes / max(1, seen.pushes) / 1024:.1f} KB a push on average)"
    )


def hands_words(first: int, count: int) -> str:
    return f"hand {first}" if count == 1 else f"hands {first} to {first + count - 1}"


def military_section(
    port: int, group: int, made: dict[str, tuple[str, str, list[str]]], args: argparse.Namespace, report: Report
) -> None:
    events: dict[Config, Played] = {}
    readers: dict[str, StreamsProcess] = {}
    for when, hand in (("early", 1), ("late", LATE_HAND)):
        events[(when, 0)] = Military.open(port, made[f"{when} quiet"], hand)
        watched = events[(when, args.streams)] = Military.open(port, made[f"{when} watched"], hand)
        path = board_stream(watched.public, args)
        readers[when] = open_streams(port, events_load.Streams, path, args.streams, args.tables)
    section, charges = events_section("Military", port, group, args, events, args.tables)
    seen = {when: counted(f"Military, {when}", reader, args.streams) for when, reader in readers.items()}

    print(
        f"Military Whist, {args.tables} tables: early ({hands_words(1, args.hands)}) and late "
        f"({hands_words(LATE_HAND, args.hands)}), each with no stream and with {args.streams} on an event alike, "
        f"{args.chunk} tables at a time in turn"
    )
    healthz_line(report, section)
    bare = section.bare()
    entries: dict[Config, Line] = {}
    for (when, streams), t in charges.items():
        n, label = t.units["result"], f"{when}, {streams} streams"
        entry = entries[(when, streams)] = report.figure(
            Line(f"{label}: an entry (panel, preview, result)", t.total("panel", "preview", "result") / n, bare, n)
        )
        for kind in ("panel", "preview", "result") if not streams else ():  # with streams: see SPLIT
            report.figure(Line(f"{label}:   its {kind}", t.per(kind), bare, t.count(kind)))
        report.figure(Line(f"{label}: the director's advance (a hand)", t.per("advance"), bare, t.count("advance")))
        report.at_most(entry, MILITARY_STREAMS if streams else MILITARY_QUIET, prefix="Military ")
    report.note(SPLIT)
    for when in ("early", "late"):
        watched_charges = charges[(when, args.streams)]
        push_line(report, when, charges[(when, 0)], watched_charges, watched_charges.units["result"], seen[when])
    for streams in (0, args.streams):
        report.within(
            f"Military entry, {streams} streams, hand {LATE_HAND} against hand 1",
            entries[("early", streams)],
            entries[("late", streams)],
        )


def bid_whist_section(
    port: int, group: int, made: dict[str, tuple[str, list[tuple[int, str]]]], args: argparse.Namespace, report: Report
) -> None:
    events: dict[Config, Played] = {}
    readers: dict[str, StreamsProcess] = {}
    for when in ("early", "late"):
        events[(when, 0)] = BidWhist.open(port, *made[f"{when} quiet"])
        watched = events[(when, args.streams)] = BidWhist.open(port, *made[f"{when} watched"])
        readers[when] = open_streams(port, bid_whist_load.Streams, board_stream(watched.public, args), args.streams)
    section, charges = events_section("Bid Whist", port, group, args, events, args.tables)
    seen = {when: counted(f"Bid Whist, {when}", reader, args.streams) for when, reader in readers.items()}

    print(
        f"Bid Whist, {2 * args.tables} teams at {args.tables} tables: early (round 1, {hands_words(1, args.hands)}) "
        f"and late (round {BID_WHIST_LATE_ROUND}, {hands_words(1, args.hands)}), each with no stream and with "
        f"{args.streams} on a tournament alike, {args.chunk} tables at a time in turn"
    )
    healthz_line(report, section)
    bare = section.bare()
    posts: dict[Config, Line] = {}
    for (when, streams), t in charges.items():
        label = f"{when}, {streams} streams"
        post = posts[(when, streams)] = report.figure(
            Line(
                f"{label}: a post (4 calls and the result a hand, mean)",
                t.per("call", "result"),
                bare,
                t.count("call", "result"),
            )
        )
        if not streams:  # with streams: see SPLIT
            report.figure(Line(f"{label}:   a call", t.per("call"), bare, t.count("call")))
            report.figure(Line(f"{label}:   a result", t.per("result"), bare, t.count("result")))
        report.at_most(post, BID_WHIST_STREAMS if streams else BID_WHIST_QUIET, prefix="Bid Whist ")
    report.note(SPLIT)
    for when in ("early", "late"):
        watched_charges = charges[(when, args.streams)]
        push_line(report, when, charges[(when, 0)], watched_charges, watched_charges.units["result"], seen[when])
    for streams in (0, args.streams):
        report.within(
            f"Bid Whist post, {streams} streams, round {BID_WHIST_LATE_ROUND} against round 1",
            posts[("early", streams)],
            posts[("late", streams)],
        )


# --- the run ------------------------------------------------------------------------------------


@dataclass
class Line:
    """A figure printed: CPU ms per unit, as a ratio of its section's bare request."""

    what: str
    cpu: float  # seconds per unit
    bare: float
    units: int

    def ratio(self) -> float:
        return self.cpu / self.bare


@dataclass
class Report:
    """The figures as they come, and the targets, printed at the end."""

    targets: list[tuple[bool, str]] = field(default_factory=list)

    def figure(self, line: Line) -> Line:
        print(f"  {line.what:60} {line.cpu * MS:8.2f} ms  x{line.ratio():5.1f}  ({line.units})", flush=True)
        return line

    def note(self, words: str) -> None:
        print(f"  {words}", flush=True)

    def at_most(
        self, line: Line, most: float, against: float = 0.0, of: str = "a bare request", prefix: str = "home "
    ) -> None:
        ratio = line.cpu / against if against else line.ratio()
        self.targets.append((ratio <= most, f"{prefix}{line.what}: x{ratio:.2f} {of} (at most x{most:g})"))

    def within(self, what: str, early: Line, late: Line) -> None:
        """Late against early (measured in turn in one section: against the same bare request)."""
        change = late.cpu / early.cpu - 1
        self.targets.append(
            (
                abs(change) <= DRIFT,
                f"{what}: {change:+.1%} ({early.cpu * MS:.2f} -> {late.cpu * MS:.2f} ms, x{early.ratio():.1f} "
                f"-> x{late.ratio():.1f}) (within 10 %)",
            )
        )


def healthz_line(report: Report, section: Section) -> None:
    spread = ", ".join(f"{b * MS:.2f}" for b in section.baselines)
    report.note(
        f"bare GET /healthz: {section.bare() * MS:.2f} ms (median of {len(section.baselines)} blocks: {spread})",
    )


def home_section(
    port: int,
    group: int,
    peer_port: int,
    peer_group: int,
    games: dict[str, dict[int, list[str]]],
    args: argparse.Namespace,
    report: Report,
) -> None:
    section = Section("home")
    rounds: dict[tuple[str, int], list[Tally]] = defaultdict(list)

    def block(kind: str, hand: int) -> Callable[[], None]:
        def run() -> None:
            mine, games[kind][hand] = games[kind][hand][: args.rounds], games[kind][hand][args.rounds :]
            peer = kind == "peer"
            rounds[(kind, hand)].append(
                rounds_block(peer_port if peer else port, peer_group if peer else group, mine, hand, peer)
            )

        return run

    for kind in ("scorepad", "peer"):  # warm-up: the first requests load the code and the templates
        for hand in (1, LATE_HAND):
            warm, games[kind][hand] = games[kind][hand][:2], games[kind][hand][2:]
            rounds_block(
                peer_port if kind == "peer" else port,
                peer_group if kind == "peer" else group,
                warm,
                hand,
                kind == "peer",
            )
    # hand 1 then 25, the peer beside each, then the other way round, PASSES times
    order = [("scorepad", 1), ("peer", 1), ("scorepad", LATE_HAND), ("peer", LATE_HAND)]
    blocks = [block(*o) for n in range(PASSES) for o in (order if n % 2 == 0 else order[::-1])]
    interleaved(port, group, args, section, blocks)

    print(
        f"A home game: Nomination Whist, 4 players; {PASSES * args.rounds} rounds at each hand, {args.rounds} a "
        "block, Scorepad's and the peer's in turn; each game opened by a new phone (the first time the server "
        "sees it) and again by another, then played"
    )
    healthz_line(report, section)
    bare = section.bare()
    figures: dict[tuple[str, int], Line] = {}
    for hand in (1, LATE_HAND):
        mine, peers = merged(rounds[("scorepad", hand)]), merged(rounds[("peer", hand)])
        n, posts = mine.units["round"], mine.count(*TAPS)

        def line(what: str, *labels: str, per: int = 0) -> Line:
            cpu = mine.total(*labels) / per if per else mine.per(*labels)
            return report.figure(Line(f"hand {hand}: {what}", cpu, bare, per or mine.count(*labels)))

        tap = line(f"a tap (a round's {posts // n} POSTs, mean)", *TAPS)
        bid = line("a bid tap", "bid")
        for label, what in (("trump", "a trump tap"), ("tricks", "a tricks tap"), ("result", "Save")):
            line(f"  {what}", label)
        whole = line(f"a round ({posts // n} POSTs)", *TAPS, per=n)
        peer = report.figure(
            Line(
                f"hand {hand}: the peer's round (5 POSTs; its own server)",
                peers.total() / peers.units["round"],
                bare,
                peers.units["round"],
            )
        )
        report.note(f"hand {hand}: a round is x{whole.cpu / peer.cpu:.2f} the peer's")
        page = line("opening the scoring page (GET /g/<token>), first", "page")
        again = line("opening it again (the game kept)", "page again")
        report.at_most(tap, TAP)
        report.at_most(bid, TAP)
        report.at_most(whole, ROUND_AGAINST_PEER, peer.cpu, "the peer's round")
        report.at_most(page, PAGE)
        report.at_most(again, PAGE)
        figures.update({("tap", hand): tap, ("round", hand): whole, ("page", hand): page, ("page again", hand): again})
    for what in ("tap", "round", "page", "page again"):
        report.within(f"home {what}, hand {LATE_HAND} against hand 1", figures[(what, 1)], figures[(what, LATE_HAND)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: --rounds 4 --healthz 200 --tables 16 --chunk 8"
    )
    parser.add_argument("--rounds", type=int, help=f"home rounds a block ({PASSES} blocks at each hand; default 6)")
    parser.add_argument("--hands", type=int, help="hands of each event (default 1)")
    parser.add_argument("--chunk", type=int, help="tables an event plays before the next event's turn (default 16)")
    parser.add_argument("--healthz", type=int, help="bare requests a baseline block (default 300)")
    parser.add_argument("--streams", type=int, default=200, help="board streams open on the watched event")
    parser.add_argument(
        "--tables", type=int, help="Military tables, and Bid Whist tables (twice as many teams; default 64)"
    )
    parser.set_defaults(whole_boards=False)  # loadkit.board_stream: patches, as the projector asks
    args = parser.parse_args()
    quick = {"rounds": 4, "hands": 1, "healthz": 200, "tables": 16, "chunk": 8}
    full = {"rounds": 6, "hands": 1, "healthz": 300, "tables": 64, "chunk": 16}
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if min(args.rounds, args.hands, args.healthz, args.streams, args.chunk) < 1 or args.tables < 2:
        parser.error("--rounds, --hands, --chunk, --healthz and --streams at least 1, --tables at least 2")
    if args.hands > bid_whist_load.HANDS:
        parser.error(f"--hands: at most {bid_whist_load.HANDS} (a Bid Whist match's hands)")

    started = time.perf_counter()
    load = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="scorepad-cpu-"))
    database = f"sqlite:///{folder / 'bench.db'}"
    print(f"bench/cpu.py{' --quick' if args.quick else ''}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    print(
        f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start",
        flush=True,
    )
    print(
        "figures: CPU time (utime + stime, with the children it waited for) of the server's whole process group "
        "(gunicorn's master, its worker and their helpers), read from /proc around sequential requests from one "
        "client; per unit of work, and as a ratio (x) to a bare GET /healthz measured in blocks interleaved "
        "with the work (the median of the section's blocks)",
        flush=True,
    )

    # --- everything stored before the server starts (not measured)
    per_hand = 2 + PASSES * args.rounds  # 2 to warm up, then a block each pass
    games = {"scorepad": home_round.make_games(database, per_hand)}
    peer_data = folder / "peer"
    peer_data.mkdir()
    games["peer"] = {hand: home_round.make_peer_games(peer_data, per_hand, hand - 1) for hand in (1, LATE_HAND)}
    military = {
        name: events_load.make_event(database, 2 if name == "warm" else args.tables, MILITARY_HANDS)
        for name in ("warm", "early quiet", "early watched", "late quiet", "late watched")
    }
    play_military(database, [military["late quiet"][0], military["late watched"][0]], LATE_HAND - 1)
    tournaments = {
        name: bid_whist_load.make_tournament(database, 4 if name == "warm" else 2 * args.tables)
        for name in ("warm", "early quiet", "early watched", "late quiet", "late watched")
    }
    late = play_bid_whist(
        database, [tournaments["late quiet"][0], tournaments["late watched"][0]], BID_WHIST_LATE_ROUND - 1
    )
    bid_whist: dict[str, tuple[str, list[tuple[int, str]]]] = {
        name: (public, [(table, scorer) for table, scorer, *_ in tables])
        for name, (public, tables) in tournaments.items()
    }
    bid_whist["late quiet"] = (bid_whist["late quiet"][0], late[0])
    bid_whist["late watched"] = (bid_whist["late watched"][0], late[1])
    print(f"built in {time.perf_counter() - started:.0f} s", flush=True)

    server, port = serve(database)
    peer, peer_port = home_round.serve_peer(folder, peer_data)
    report = Report()
    try:
        group = server.pid
        print(
            f"{server_words(database, 1)} on port {port}; the peer (gunicorn, gevent, 1 worker) on port {peer_port}",
            flush=True,
        )
        home_section(port, group, peer_port, peer.pid, games, args, report)
        warm = Military.open(port, military["warm"], 1)  # the code and templates of the tables' pages loaded
        warm.play(group, range(len(warm.phones)))
        military_section(port, group, military, args, report)
        warm_too = BidWhist.open(port, *bid_whist["warm"])
        warm_too.play(group, range(len(warm_too.phones)))
        bid_whist_section(port, group, bid_whist, args, report)
    except (BenchError, FormMissing, OSError, http.client.HTTPException) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        stop(server)
        stop(peer)

    load = os.getloadavg()
    print("targets:")
    for ok, words in report.targets:
        print(f"  {'PASS' if ok else 'MISS'} {words}")
    print(
        f"{sum(ok for ok, _ in report.targets)} of {len(report.targets)} targets met; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end; {time.perf_counter() - started:.0f} s in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
