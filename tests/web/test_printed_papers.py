"""What a stranger can do with a printed paper of an event (issue 33, "Done means"): a table's QR
card, a team's card (with its team code), the QR sheet's own address (as a browser prints it in a
footer), the printed results. Every route of the app is sent generated requests from a browser
with no session that knows nothing but what that paper carries; afterwards each row of every event
and game is compared, and a change is allowed only where the paper's own table or team may write:

- a table's card: its own results and deals, the game played at that table (a club night's, a Bid
  Whist match's: entering hands, disputing), the audit lines written as that table; never a
  signature (that takes a team's code, printed on the team's card);
- a team's card and its code: that team's signature or dispute on its own match (and the lock of
  the sheet once both teams signed), the audit lines written as that team or its table;
- the QR sheet's address and the results: nothing at all.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import selectinload
from werkzeug.datastructures import MultiDict

from scorepad import create_app
from scorepad.events import club, core, drive, military
from scorepad.events.bid_whist import matches, registration, writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import (
    AuditEntry,
    Event,
    EventDecision,
    EventEntrant,
    EventMatch,
    EventTable,
    Game,
    ReportedResult,
)
from tests.conftest import config_for, migrate, release
from tests.fuzz import FIELDS, WORDS, Snapshots, routes, send
from tests.web.test_tournament import hand as bid_whist_hand

REQUESTS = 70  # per paper


@dataclass(frozen=True)
class Paper:
    """What is printed on one paper, and which rows its holder may change."""

    name: str
    strings: tuple[str, ...]
    may: Callable[[tuple[Any, ...], Any, Any], bool]


def build(app: Flask) -> list[Paper]:
    """An event of each format under way, and the papers printed for it."""
    with app.app_context():
        day = military.create_event("Paper day", ["Aces", "Kings", "Queens", "Jacks"], [3])
        military.enter_result(day, 2, 1, 7, None, "table 2")
        cup = writes.create("Paper cup", rounds=1)
        for n in range(4):
            registration.register_team(cup, f"Team {n + 1}", [f"P{n}a", f"P{n}b"])
        writes.start(cup)
        for m in cup.matches:
            assert m.game is not None
            for number in range(1, 5):
                games.enter_hand(m.game, number, bid_whist_hand(number, 0))
        hall = drive.create("Paper drive", [f"Player {n}" for n in range(8)], deals=4)
        night = club.create("Paper night", "whist", 2)
        club.start_game(
            night.tables[0],
            {
                "variant": "whist",
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            },
        )
        papers: list[Paper] = []
        for event in (day, cup, hall, night):
            core.give_short_codes(event)
            table = event.tables[0]
            at_table = ({m.game_id for m in event.matches if m.table == table.number} | {table.game_id}) - {None}
            scorers = tuple(_scorer(g) for g in sorted(at_table))  # the table's page links its game's scorer page
            papers.append(
                Paper(
                    f"{event.format} table 1's card",
                    (table.token, table.short_code or "", *scorers),
                    _table_may(event.id, table.number, at_table),
                )
            )
            with app.test_request_context():
                papers.append(Paper(f"{event.format} QR sheet's address", (core.print_token(event),), _nothing))
            papers.append(Paper(f"{event.format} results", (event.public_id,), _nothing))
        team = cup.entrants[0]
        match = next(m for m in cup.matches if team.number in (m.home, m.away))
        papers.append(
            Paper(
                "bid_whist team 1's card",
                (team.token, team.short_code or "", matches.team_code(team)),
                _team_may(cup.id, team.number, match.id, match.game_id, match.table),
            )
        )
        db.session.remove()
    return papers


LINK = re.compile(r"/(d|t|g|team|qr|w|s|b|group)/([\w-]{8,})")  # in a link, or printed to type
CODE = re.compile(r"Team code <strong>(\d{4})</strong>")


@dataclass(frozen=True)
class Known:
    """What a stranger learns from a paper: its strings, every link (by kind: "t", "team", "g"...)
    and team code on the pages they open, and on the pages those open (a QR sheet once listed every
    table's and team's)."""

    strings: tuple[str, ...]
    links: dict[str, set[str]]
    codes: tuple[str, ...]


def reachable(app: Flask, strings: tuple[str, ...]) -> Known:
    links: dict[str, set[str]] = {}
    codes: list[str] = []
    paths = [f"/{kind}/{s}" for s in strings for kind in ("t", "team", "qr", "b", "g")]
    seen: set[str] = set()
    for _ in range(2):
        found = []
        for path in paths:
            if path in seen:
                continue
            seen.add(path)
            page = app.test_client().get(path, follow_redirects=True).get_data(as_text=True)
            found += [f"/{kind}/{token}" for kind, token in LINK.findall(page)]
            codes += CODE.findall(page)
        for path in found:
            kind, token = path.split("/")[1:3]
            links.setdefault(kind, set()).add(token)
        paths = found
    every = tuple(dict.fromkeys([*strings, *sorted(t for tokens in links.values() for t in tokens), *codes]))
    return Known(every, links, tuple(dict.fromkeys(codes)))


def bodies(known: Known) -> list[dict[str, str]]:
    """Forms that do write when sent to the right route: a result, a deal, a hand's taps, a dispute,
    a signature with each team code learnt (for either side), a club table's game."""
    common = {
        "hand": "1",
        "deal": "1",
        "tricks": "7",
        "number": "1",
        "revoke": "",
        "side": "0",
        "reason": "no",
        "variant": "whist",
        "team.0": "Us",
        "team.1": "Them",
        "name.0": "Ann",
        "name.1": "Bob",
        "name.2": "Cat",
        "name.3": "Dan",
        "first_dealer": "0",
        "bid": "1",
        "trump": "S",
        "books": "9",
        "winner": "1",
    }
    found = [{**common, "action": action} for action in ("confirm", "result", "start", "dispute", "bid", "trump", "")]
    return found + [{**common, "side": side, "code": code} for code in known.codes for side in ("0", "1")]


def _scorer(game_id: int) -> str:
    game = db.session.get(Game, game_id)
    assert game is not None
    return game.scorer_token


def _nothing(key: tuple[Any, ...], before: Any, after: Any) -> bool:
    return False


def _table_may(event_id: int, table: int, played: set[int | None]) -> Callable[[tuple[Any, ...], Any, Any], bool]:
    def may(key: tuple[Any, ...], before: Any, after: Any) -> bool:
        kind = key[0]
        if kind in ("result", "table") and key[1] == event_id and key[-1] == table:
            return True
        if kind == "game":  # the game played at this table, or one it starts (a club night's)
            return key[1] in played or (
                before is None and after is not None and after["event"] == event_id and after["table"] == table
            )
        if kind == "match" and before is not None and after is not None and before["table"] == table:
            return _same_but(before, after, "dispute", "sign_note")  # a dispute: never a signature
        return kind == "audit" and before is None and after["actor"] == f"table {table}"

    return may


def _team_may(
    event_id: int, team: int, match_id: int, game_id: int | None, table: int
) -> Callable[[tuple[Any, ...], Any, Any], bool]:
    def may(key: tuple[Any, ...], before: Any, after: Any) -> bool:
        kind = key[0]
        if kind == "match" and key[1] == match_id and before is not None and after is not None:
            side = "home" if before["home"] == team else "away"
            return _same_but(before, after, f"signed_{side}_at", f"signed_{side}_by", "dispute", "sign_note")
        if kind == "game" and key[1] == game_id and before is not None and after is not None:
            return _same_but(before, after, "locked_at")  # both teams signed: the sheet locks
        return kind == "audit" and before is None and after["actor"] in (f"team {team}", f"table {table}")

    return may


def _same_but(before: dict[str, Any], after: dict[str, Any], *fields: str) -> bool:
    return all(before[k] == after[k] for k in before if k not in fields)


def rows(app: Flask) -> dict[tuple[Any, ...], Any]:
    """Every row of the events and games, by what it is, with what a paper could change in it."""
    found: dict[tuple[Any, ...], Any] = {}
    with app.app_context():
        db.session.expire_all()
        table_of = {t.game_id: (t.event_id, t.number) for t in db.session.scalars(db.select(EventTable))}
        for e in db.session.scalars(db.select(Event)):
            found[("event", e.id)] = (
                e.name,
                e.options,
                e.current_hand,
                e.director_pin,
                e.director_token,
                e.started_at,
                e.public_id,
            )
        for t in db.session.scalars(db.select(EventTable)):
            found[("table", t.event_id, t.number)] = (t.team, t.players, t.token, t.short_code, t.game_id)
        for r in db.session.scalars(db.select(ReportedResult)):
            found[("result", r.event_id, r.hand, r.table)] = (r.tricks, r.revoke, r.entered_by)
        for x in db.session.scalars(db.select(EventEntrant)):
            found[("entrant", x.event_id, x.number)] = (x.name, x.players, x.token, x.short_code)
        for d in db.session.scalars(db.select(EventDecision)):
            found[("decision", d.event_id, d.kind, d.key)] = d.data
        for m in db.session.scalars(db.select(EventMatch)):
            found[("match", m.id)] = {
                "table": m.table,
                "home": m.home,
                "away": m.away,
                "game": m.game_id,
                "signed_home_at": m.signed_home_at,
                "signed_home_by": m.signed_home_by,
                "signed_away_at": m.signed_away_at,
                "signed_away_by": m.signed_away_by,
                "closed_by": m.closed_by,
                "dispute": m.dispute,
                "sign_note": m.sign_note,
            }
        for g in db.session.scalars(db.select(Game).options(selectinload(Game.hands))):
            event, table = table_of.get(g.id, (g.event_id, None))
            found[("game", g.id)] = {
                "event": event,
                "table": table,
                "title": g.title,
                "teams": g.teams,
                "players": g.players,
                "pending": g.pending,
                "locked_at": g.locked_at,
                "scorer": g.scorer_token,
                "hands": [h.entry for h in g.hands],
            }
        for a in db.session.scalars(db.select(AuditEntry)):
            found[("audit", a.id)] = {"actor": a.actor, "action": a.action}
        db.session.remove()
    return found


def forbidden(paper: Paper, before: dict[tuple[Any, ...], Any], after: dict[tuple[Any, ...], Any]) -> list[Any]:
    return [
        (key, before.get(key), after.get(key))
        for key in before.keys() | after.keys()
        if before.get(key) != after.get(key) and not paper.may(key, before.get(key), after.get(key))
    ]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, list[Paper]]]:
    folder: Path = tmp_path_factory.mktemp("papers")
    app = create_app(config_for(f"sqlite:///{folder / 'papers.sqlite3'}", SECRET_KEY="papers"))
    migrate(app)
    yield app, build(app)
    release(app)


def test_every_paper_of_every_format_is_tried(world: tuple[Flask, list[Paper]]) -> None:
    _, papers = world
    assert len(papers) == 4 * 3 + 1
    assert all(all(p.strings) for p in papers)


@pytest.mark.parametrize("index", range(13))
def test_a_stranger_with_a_printed_paper_writes_only_what_its_table_or_team_may(
    world: tuple[Flask, list[Paper]], index: int
) -> None:
    app, papers = world
    paper = papers[index]
    words = st.sampled_from(reachable(app, paper.strings).strings)
    junk = st.one_of(st.sampled_from(WORDS), st.text(alphabet=string.ascii_letters + string.digits, max_size=12))
    snapshot = Snapshots(app, rows)

    @settings(
        max_examples=REQUESTS,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def one_request(data: st.DataObject) -> None:
        rule, method = data.draw(st.sampled_from(routes(app)), label="route")
        values = {
            arg: data.draw(
                st.integers(0, 12)
                if type(rule._converters[arg]).__name__ == "IntegerConverter"
                else st.one_of(words, words, words, junk),
                label=arg,
            )
            for arg in sorted(rule.arguments)
        }
        path = rule.build(values, append_unknown=False)[1]  # type: ignore[index]
        names = data.draw(st.lists(st.sampled_from(FIELDS), max_size=8), label="fields")
        body = MultiDict([(n, data.draw(st.one_of(words, junk, st.integers(0, 13).map(str)), label=n)) for n in names])
        headers = data.draw(st.sampled_from(({}, {"HX-Request": "true"})), label="headers")
        before = snapshot()
        response = send(app.test_client(), {"method": method, "path": path, "body": body, "headers": headers})
        assert response.status_code < 500  # type: ignore[attr-defined]
        response.close()  # type: ignore[attr-defined]
        wrong = forbidden(paper, before, snapshot())
        assert not wrong, (paper.name, method, path, dict(body), wrong)

    one_request()
    snapshot.close()


@pytest.mark.parametrize("index", range(13))
def test_every_write_route_with_every_link_a_paper_leads_to_writes_only_its_own(
    world: tuple[Flask, list[Paper]], index: int
) -> None:
    """The matrix: each write route, with each link the paper (and the pages it opens) gives of the
    route's kind, and forms that do write there (a tap, a result, a signature with every team code
    learnt): what changes afterwards is the paper's own table's or team's, or nothing."""
    app, papers = world
    paper = papers[index]
    known = reachable(app, paper.strings)
    forms = bodies(known)
    snapshot = Snapshots(app, rows)
    for rule, method in routes(app):
        if method != "POST":
            continue
        kind = rule.rule.split("/")[1]
        for token in sorted(known.links.get(kind, set()) | set(paper.strings)):
            if not {"token", "public_id", "code"} & set(rule.arguments):
                continue
            arg = next(a for a in ("token", "public_id", "code") if a in rule.arguments)
            path = rule.build(dict.fromkeys(rule.arguments, 1) | {arg: token}, append_unknown=False)[1]  # type: ignore[index]
            before = snapshot()
            for form in forms:
                response = app.test_client().post(path, data=form, headers={"HX-Request": "true"})
                assert response.status_code < 500, (path, form)
            wrong = forbidden(paper, before, snapshot())
            assert not wrong, (paper.name, path, wrong)
    snapshot.close()


def test_the_check_itself_catches_a_write_the_paper_may_not_make(world: tuple[Flask, list[Paper]]) -> None:
    """The comparison is not blind: another table's result, or a signature by a table's card, is caught."""
    app, papers = world
    card = next(p for p in papers if p.name == "military table 1's card")
    before = rows(app)
    after = {**before, ("result", 999, 1, 3): (7, None, "table 3")}
    assert forbidden(card, before, after) == [(("result", 999, 1, 3), None, (7, None, "table 3"))]
    table = next(p for p in papers if p.name == "bid_whist table 1's card")
    key = next(k for k, v in before.items() if k[0] == "match" and v["table"] == 1)
    signed = {**before, key: {**before[key], "signed_home_by": "table phone"}}
    assert forbidden(table, before, signed) != []
