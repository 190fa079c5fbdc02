"""The route fuzzer shared by the suite (`tests/test_fuzz.py`, a short run) and the bench
(`bench/fuzz_routes.py`, 100,000 requests): a world with one of everything (a home game of each
variant, an event of each format, in play), every route of the app's URL map (none left out by
hand), and hypothesis strategies for what a stranger could send: other objects' links in every path
argument (a QR sheet's own address too, as a printed footer shows it), wrong types, huge and unicode
numbers, missing, repeated and unknown fields, long strings, names already playing, bodies past the
request limit, and bodies sent without a length (chunked).

`fingerprints` reads what each pre-existing game and event holds, grouped by event (a match's or
a table's game belongs to its event), so a check can say which groups a request changed.
"""

from __future__ import annotations

import io
import sqlite3
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import urlencode

from flask import Flask
from hypothesis import strategies as st
from sqlalchemy import func, make_url
from sqlalchemy.orm import selectinload
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule

from scorepad.events import club, core, drive, military, results
from scorepad.events.bid_whist import registration, writes
from scorepad.extensions import db
from scorepad.games import groups as kept
from scorepad.games import records
from scorepad.games import service as games
from scorepad.models import AuditEntry, Event, Game, GameSeat, GroupPlayer, KeptGame

FIELDS = (
    "action",
    "add",
    "auto_advance",
    "bid",
    "bidder",
    "books",
    "bracket",
    "bye",
    "call",
    "days",
    "deal",
    "deals",
    "direction",
    "first",
    "first_dealer",
    "flags",
    "hand",
    "hidden",
    "honours",
    "in",
    "kind",
    "late_minutes",
    "loans",
    "made_scores",
    "match",
    "minutes",
    "movement",
    "moves",
    "name",
    "nt_fifth",
    "number",
    "out",
    "per_change",
    "pin",
    "player1",
    "player2",
    "players",
    "preset",
    "reason",
    "renege",
    "renege.called_by",
    "renege.offender",
    "revoke",
    "round",
    "rounds",
    "scoring",
    "second",
    "side",
    "single",
    "stage",
    "state",
    "table",
    "tables",
    "team",
    "teams",
    "title",
    "top",
    "tricks",
    "trump",
    "variant",
    "walkover",
    "winner",
    *(f"{prefix}.{i}" for prefix in ("name", "bids", "tricks", "team", "teams.0.players") for i in range(8)),
    "player.1.A",
    "player.2.X",
    "team.1",
    "team1",
    "team2",
    "opt.target",
    "opt.rounds",
    "opt.days",
    "opt.bracket",
    "opt.sequence",
    "opt.custom_sequence",
    "opt.cycles",
    "opt.deals",
    "group",
    "into",
    "season",
    "a",
    "b",
)
WORDS = (
    "",
    " ",
    "0",
    "1",
    "2",
    "7",
    "13",
    "-1",
    "1.5",
    "²",
    "٣",
    "1e9",
    "9" * 5000,
    "on",
    "off",
    "none",
    "start",
    "add",
    "remove.0",
    "result",
    "visitors",
    "home",
    "S",
    "H",
    "NT",
    "uptown",
    "downtown",
    "pass",
    "close",
    "reopen",
    "dispute",
    "single",
    "custom",
    "area",
    "auto",
    "books",
    "4:1",
    "1:99",
    "\x00",
    "<script>x</script>",
    "=cmd|' /C calc'!A0",
    "a" * 300,
    "é" * 61,
    "Loner",
    "p0a",
    "Ghost 1",  # names already playing in the world's events (one name, one player)
    # counts past every cap a form could once set (issue 33): a list of 5,000 rounds or days, 3,000 players
    ", ".join(["13"] * 5000),
    "30 " * 5000,
    "\n".join(f"P{n}" for n in range(3000)),
)


@dataclass
class World:
    """The links of everything the fuzzer may hit, and the tokens that name each group."""

    links: list[str] = field(default_factory=list)
    groups: dict[str, set[str]] = field(default_factory=dict)  # group -> the tokens that name it
    kinds: dict[str, list[str]] = field(default_factory=dict)  # a URL's first part ("d", "t", "g"...) -> its links

    def add(self, group: str, /, **kinds: Iterable[str]) -> None:
        for kind, tokens in kinds.items():
            for token in tokens:
                self.groups.setdefault(group, set()).add(token)
                self.kinds.setdefault(kind, []).append(token)


def build_world(app: Flask) -> World:
    """A home game of each variant (the examples), and a Military event, a Bid Whist tournament, a
    whist drive and a club night, each under way."""
    world = World()
    with app.app_context():
        records.load_demo_games()
        event = military.create_event("Fuzz day", ["Aces", "Kings", "Queens", "Jacks"], [3, 2])
        for table, tricks in enumerate((7, 5, 10, 6), start=1):
            military.enter_result(event, table, 1, tricks, None, f"table {table}")
        cup = writes.create("Fuzz cup", rounds=1)
        for n in range(4):
            registration.register_team(cup, f"Team {n + 1}", [f"P{n}a", f"P{n}b"])
        writes.start(cup)
        registration.register_single(writes.create("Fuzz open", rounds=2), "Loner")  # still registering
        drive.create("Fuzz drive", [f"Player {n}" for n in range(8)], deals=4)
        night = club.create("Fuzz night", "whist", 2)
        club.start_game(
            night.tables[0],
            {
                "variant": "whist",
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            },
        )
        for row in db.session.scalars(db.select(Event)):
            played = list(db.session.scalars(db.select(Game).where(Game.event_id == row.id)))
            # with the short links to type (`/d/<code>`, `/t/<code>`, `/team/<code>`), which name the event too
            # and the QR sheet's own address, as a printed footer shows it: it opens nothing in a fresh browser
            world.add(
                f"event {row.id}",
                d=[row.director_token, row.director_code],
                qr=[core.print_token(row)],
                b=[row.public_id],
                t=[*(t.token for t in row.tables), *(t.short_code for t in row.tables)],
                team=[*(e.token for e in row.entrants), *(e.short_code for e in row.entrants)],
                g=[g.scorer_token for g in played],
                w=[g.public_id for g in played],
                s=[games.short_code(g) for g in played],
                # each player's results: the index's short link, then each page's code
                r=[results.link_code(row), *(p.code for p in results.players(row).players)],
            )
        family = kept.create("Fuzz family")  # a group and its games: their links name the group
        played = [
            kept.start_game(family, {"variant": "nomination", "players": ["Ann", "Bob", "Gran", "Dan"]}),
            kept.start_game(
                family,
                {
                    "variant": "whist",
                    "teams": [{"name": "Boys", "players": []}, {"name": "Us", "players": ["Gran", "Cat"]}],
                },
            ),
        ]
        world.add(
            f"group {family.id}",
            group=[family.token],
            g=[g.scorer_token for g in played],
            w=[g.public_id for g in played],
            s=[games.short_code(g) for g in played],
        )
        in_groups = {g.id for g in played}
        for g in db.session.scalars(db.select(Game).where(Game.event_id.is_(None))):
            if g.id not in in_groups:
                world.add(f"game {g.id}", g=[g.scorer_token], w=[g.public_id], s=[games.short_code(g)])
    world.links = sorted(t for tokens in world.groups.values() for t in tokens)
    return world


T = TypeVar("T")


class Snapshots(Generic[T]):
    """`take(app)` again only when something was committed to the app's database since the last one.

    A whole snapshot before and after every generated request was most of a fuzz run's time, and most
    requests write nothing. SQLite's `PRAGMA data_version`, read on a connection of our own, changes
    whenever another connection (the app's) commits; on another database every call takes anew."""

    def __init__(self, app: Flask, take: Callable[[Flask], T]) -> None:
        self.app, self.take = app, take
        url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
        self.watch = sqlite3.connect(url.database) if url.get_backend_name() == "sqlite" and url.database else None
        self.version: int | None = None
        self.last: T | None = None
        self.taken = 0  # how many snapshots were really taken (a test checks the cache is not blind)

    def __call__(self) -> T:
        version = self.watch.execute("PRAGMA data_version").fetchone()[0] if self.watch is not None else None
        if self.last is None or version is None or version != self.version:
            self.last, self.version = self.take(self.app), version
            self.taken += 1
        return self.last

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()


def fingerprints(app: Flask) -> dict[str, object]:
    """What each group holds now (events and their games; home games), to compare before and after."""
    found: dict[str, object] = {}
    with app.app_context():
        db.session.expire_all()
        group_of = dict(db.session.execute(db.select(KeptGame.game_id, KeptGame.group_id)).all())
        for g in db.session.scalars(db.select(Game).options(selectinload(Game.hands))):
            key = (
                f"event {g.event_id}"
                if g.event_id is not None
                else f"group {group_of[g.id]}"
                if g.id in group_of
                else f"game {g.id}"
            )
            found.setdefault(key, []).append(  # type: ignore[union-attr]
                (g.id, g.title, [h.entry for h in g.hands], g.pending, g.locked_at, g.players, g.teams)
            )
        audits = dict(
            db.session.execute(
                db.select(AuditEntry.event_id, func.count())
                .where(AuditEntry.action != "wrong PIN")
                .group_by(AuditEntry.event_id)
            ).all()
        )
        for e in db.session.scalars(
            db.select(Event).options(
                *(selectinload(getattr(Event, r)) for r in ("tables", "entrants", "matches", "results"))
            )
        ):
            audit = audits.get(e.id, 0)
            found.setdefault(f"event {e.id}", []).append(  # type: ignore[union-attr]
                (
                    e.name,
                    e.revision,
                    e.current_hand,
                    e.director_pin,
                    e.options,
                    audit,
                    [(t.number, t.team, t.token, t.game_id) for t in e.tables],
                    [(x.number, x.name) for x in e.entrants],
                    [(m.id, m.closed_by, m.dispute) for m in e.matches],
                    [(r.hand, r.table, r.tricks) for r in e.results],
                )
            )
        for p in db.session.scalars(db.select(GroupPlayer).order_by(GroupPlayer.id)):
            found.setdefault(f"group {p.group_id}", []).append((p.id, p.name, p.merged_into_id))  # type: ignore[union-attr]
        for seat in db.session.scalars(db.select(GameSeat).order_by(GameSeat.id)):
            found.setdefault(f"group {group_of.get(seat.game_id)}", []).append(  # type: ignore[union-attr]
                (seat.game_id, seat.sheet_column, seat.player_id)
            )
        db.session.remove()
    return found


def routes(app: Flask) -> list[tuple[Rule, str]]:
    """Every (rule, method) of the URL map but static files: nothing left out by hand."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule, method))
    return sorted(found, key=lambda r: (r[0].rule, r[1]))


def junk() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(WORDS),
        st.text(max_size=40),
        st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=30, max_size=48),
        st.integers(-(10**6), 10**12).map(str),
    )


def path_value(world: World, converter: str, kind: str) -> st.SearchStrategy[object]:
    """An argument of a URL: mostly a link of the kind the URL takes (of any event or game), else
    any other link, a word the routes know, or junk."""
    if converter == "IntegerConverter":
        return st.one_of(st.integers(0, 12), st.integers(0, 12), st.integers(0, 10**9))
    right = world.kinds.get(kind) or world.links
    return st.one_of(
        *[st.sampled_from(right)] * 6,
        st.sampled_from(world.links),
        junk(),
        st.sampled_from(("whist", "bid_whist", "military", "nomination", "australian", "close", "reopen")),
    )


@st.composite
def request_for(draw: st.DrawFn, world: World, rule: Rule, method: str) -> dict[str, object]:
    """A URL for `rule` (every argument from another object's links, or junk), a body of known and
    unknown fields (repeated, missing, of every type), and sometimes htmx's headers."""
    kind = rule.rule.strip("/").split("/")[0]
    values = {
        arg: draw(path_value(world, type(rule._converters[arg]).__name__, kind)) for arg in sorted(rule.arguments)
    }
    path = rule.build(values, append_unknown=False)[1]  # type: ignore[index]
    names = draw(st.lists(st.one_of(st.sampled_from(FIELDS), st.text(max_size=12)), max_size=12))
    body = MultiDict([(n, draw(st.one_of(junk(), st.sampled_from(world.links)))) for n in names])
    if draw(st.integers(0, 19)) == 0:  # now and then a body past the request limit (64 KB): a 413, nothing stored
        body.add(draw(st.sampled_from(FIELDS)), "9" * (70 * 1024))
    headers = draw(
        st.sampled_from(({}, {"HX-Request": "true"}, {"HX-Request": "true", "HX-History-Restore-Request": "true"}))
    )
    chunked = method != "GET" and draw(st.integers(0, 4)) == 0  # sent without a length, as Transfer-Encoding: chunked
    return {"method": method, "path": path, "body": body, "headers": headers, "chunked": chunked}


def named_groups(world: World, request: dict[str, object]) -> set[str]:
    """The groups whose links the request carries (in its path or body): the only ones it may change."""
    text = str(request["path"]) + " " + " ".join(str(v) for v in request["body"].values())  # type: ignore[attr-defined]
    return {group for group, tokens in world.groups.items() if any(t in text for t in tokens)}


def send(client: object, request: dict[str, object]) -> object:
    body = request["body"]
    if request["method"] == "GET":
        return client.get(request["path"], query_string=body, headers=request["headers"])  # type: ignore[attr-defined]
    if request.get("chunked"):  # the server dechunks it and says the input ends (`wsgi.input_terminated`)
        return client.open(
            request["path"],
            method=request["method"],  # type: ignore[attr-defined]
            input_stream=io.BytesIO(urlencode(list(body.items(multi=True))).encode()),  # type: ignore[attr-defined]
            content_type="application/x-www-form-urlencoded",
            headers={**request["headers"], "Transfer-Encoding": "chunked"},  # type: ignore[dict-item]
            environ_overrides={"wsgi.input_terminated": True},
        )
    return client.open(
        request["path"],
        method=request["method"],
        data=body,  # type: ignore[attr-defined]
        headers=request["headers"],
    )


def changed(before: dict[str, object], after: dict[str, object]) -> set[str]:
    return {key for key in before if before[key] != after.get(key)}


def summary(statuses: Iterable[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return dict(sorted(counts.items()))
