"""Issue 33, item 3: every count a form, an imported record or a restored backup can set is capped
where it is read, before anything is stored or derived, so that the largest form the app accepts
costs what a real game costs (a Nomination list of 15,000 rounds played 4 times, a 30 KB form,
made every home page take seconds). The home page's own part is in test_home.py."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events.bid_whist import registration
from scorepad.extensions import db
from scorepad.models import Event, EventEntrant, EventTable, Game, Hand
from scorepad.rules.nomination import CUSTOM_MAX
from tests.web.test_games import FOUR, PARTNERS, nomination_form
from tests.web.test_groups import make_group

LONG_LIST = ", ".join(["1"] * 15_000)  # the review's form: 30 KB, under the 64 KB limit


def rows(app: Flask) -> dict[str, int]:
    """How many rows of each kind a refused form could have left behind."""
    with app.app_context():
        return {
            model.__name__: db.session.query(model).count() for model in (Game, Hand, Event, EventTable, EventEntrant)
        }


def beside(response: Any, key: str) -> str:
    """The message shown beside field `key` (`_macros.field_error`: id err-<key with dashes>)."""
    page = response.get_data(as_text=True)
    found = re.search(
        rf'<(p|div) class="field-error" id="err-{re.escape(key.replace(".", "-"))}" role="alert">(.*?)</\1>',
        page,
        re.DOTALL,
    )
    assert found, f"no message beside {key}: {page[:2000]}"
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", found.group(2))).split())


def club_table(client: FlaskClient, app: Flask) -> str:
    """A club night of Nomination: the token of its table 1's card."""
    response = client.post("/events/new/club", data={"name": "Tuesday", "variant": "nomination", "tables": "2"})
    assert response.status_code == 302
    with app.app_context():
        return db.session.query(EventTable).order_by(EventTable.number).first().token  # type: ignore[union-attr]


def tournament(client: FlaskClient, app: Flask, teams: int) -> str:
    """A Bid Whist tournament registering, with `teams` teams already in (written as registration
    writes them, in one go: the test is about the next one)."""
    response = client.post(
        "/events/new/bid-whist", data={"name": "Cup", "rounds": "3", "bracket": "auto", "made_scores": "books"}
    )
    assert response.status_code == 302
    token = response.headers["Location"].removeprefix("/d/")
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        event.entrants = [
            EventEntrant(number=n, name=f"Team {n}", players=[f"A{n}", f"B{n}"]) for n in range(1, teams + 1)
        ]
        event.options = {**event.options, registration.ISSUED: teams}
        db.session.commit()
    return token


def nomination_record(custom: list[int], cycles: int = 1) -> dict[str, object]:
    return {
        "scorepad": 1,
        "variant": "nomination",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "options": {"sequence": "custom", "custom_sequence": custom, "cycles": cycles},
        "hands": [],
    }


def club_backup(client: FlaskClient, app: Flask) -> dict[str, Any]:
    """A club night's backup whose table 1 plays a Nomination game."""
    table = club_table(client, app)
    assert client.post(f"/t/{table}/setup", data=nomination_form()).status_code == 303
    with app.app_context():
        token = db.session.query(Event).one().director_token
    response = client.get(f"/d/{token}/backup")
    assert response.status_code == 200
    return dict(json.loads(response.get_data()))


def restore(client: FlaskClient, backup: dict[str, Any]) -> Any:
    return client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(json.dumps(backup).encode()), "b.json")},
        content_type="multipart/form-data",
    )


def import_record(client: FlaskClient, record: dict[str, object]) -> Any:
    return client.post("/games/import", data={"text": json.dumps(record)})


@dataclass(frozen=True)
class Case:
    """A form sent with one count past its cap: `prepare` makes what it needs (its result is given
    to `send`), the refusal is said beside `field` and reads `words`."""

    send: Callable[[FlaskClient, Any], Any]
    field: str
    words: str
    prepare: Callable[[FlaskClient, Flask], Any] = lambda client, app: None


def _military(**form: str) -> Callable[[FlaskClient, Any], Any]:
    data = {
        "name": "Zone 3",
        "preset": "custom",
        "days": "30",
        "tables": "4",
        "teams": "",
        "loans": "auto",
        "late_minutes": "12",
        **form,
    }
    return lambda client, _: client.post("/events/new", data=data)


def _drive(**form: str) -> Callable[[FlaskClient, Any], Any]:
    data = {
        "name": "Drive",
        "players": "\n".join(f"P{n}" for n in range(8)),
        "deals": "24",
        "per_change": "1",
        "scoring": "odd",
        "movement": "progressive",
        "top": "stay",
        **form,
    }
    return lambda client, _: client.post("/events/new/whist-drive", data=data)


def _home(key: str, form: dict[str, str]) -> Callable[[FlaskClient, Any], Any]:
    return lambda client, _: client.post(f"/new/{key}", data=form)


CASES = {
    # home games: every variant's set-up form (games/setup_form.py; the rules' OptionSpecs)
    "nomination custom list, the review's 15,000 rounds x 4": Case(
        _home("nomination", nomination_form(**{"opt.custom_sequence": LONG_LIST, "opt.cycles": "4"})),
        "options.custom_sequence",
        f"at most {CUSTOM_MAX} rounds",
    ),
    "nomination custom list, one past the cap": Case(
        _home("nomination", nomination_form(**{"opt.custom_sequence": ", ".join(["7"] * (CUSTOM_MAX + 1))})),
        "options.custom_sequence",
        f"at most {CUSTOM_MAX} rounds, not {CUSTOM_MAX + 1}",
    ),
    "nomination cycles": Case(
        _home("nomination", nomination_form(**{"opt.cycles": "5"})), "options.cycles", "at most 4"
    ),
    "nomination players": Case(
        _home("nomination", nomination_form(**{f"name.{i}": f"P{i}" for i in range(8)})), "players", "3 to 7 players"
    ),
    "australian players": Case(
        _home("australian", {**FOUR, **{f"name.{i}": f"P{i}" for i in range(900)}, "action": "start"}),
        "players",
        "2 to 7 players, not 8",
    ),
    "whist deals": Case(_home("whist", {**PARTNERS, "opt.deals": "201"}), "options.deals", "at most 200"),
    "whist target": Case(_home("whist", {**PARTNERS, "opt.target": "100"}), "options.target", "at most 99"),
    "bid whist rounds": Case(
        _home("bid_whist", {**PARTNERS, "opt.play_to": "rounds", "opt.rounds": "21"}), "options.rounds", "at most 20"
    ),
    "bid whist target": Case(
        _home("bid_whist", {**PARTNERS, "opt.play_to": "points", "opt.target": "100"}), "options.target", "at most 99"
    ),
    "bid whist boston bonus": Case(
        _home("bid_whist", {**PARTNERS, "opt.boston": "bonus", "opt.boston_bonus": "100"}),
        "options.boston_bonus",
        "at most 99",
    ),
    "group's game, nomination custom list": Case(
        lambda client, group: client.post(
            f"/new/nomination?group={group}", data=nomination_form(**{"opt.custom_sequence": LONG_LIST})
        ),
        "options.custom_sequence",
        f"at most {CUSTOM_MAX} rounds",
        lambda client, app: make_group(client),
    ),
    "club night table's game, nomination custom list": Case(
        lambda client, table: client.post(
            f"/t/{table}/setup", data=nomination_form(**{"opt.custom_sequence": LONG_LIST})
        ),
        "options.custom_sequence",
        f"at most {CUSTOM_MAX} rounds",
        club_table,
    ),
    # events: each format's set-up form, and registration
    "military days": Case(_military(days="1 " * 6), "days", "at most 5 days, not 6"),
    "military days, thousands": Case(_military(days="30 " * 10_000), "days", "at most 5 days, not 10000"),
    "military hands a day": Case(_military(days="101"), "days", "at most 100"),
    "military tables": Case(_military(tables="65"), "tables", "2 to 64 tables"),
    "military team names": Case(
        _military(tables="2", teams="\n".join(f"T{n}" for n in range(5000))), "teams", "5000 team names for 2 tables"
    ),
    "bid whist tournament rounds": Case(
        lambda client, _: client.post("/events/new/bid-whist", data={"name": "Cup", "rounds": "9"}),
        "rounds",
        "1 to 8 preliminary rounds",
    ),
    "bid whist registration, a team past the cap": Case(
        lambda client, token: client.post(
            f"/d/{token}/register", data={"team": "Late", "player1": "X", "player2": "Y"}
        ),
        "team",
        f"Registration is full: a tournament has at most {registration.MAX_TEAMS} teams",
        lambda client, app: tournament(client, app, registration.MAX_TEAMS),
    ),
    "bid whist registration, a single past the cap": Case(
        lambda client, token: client.post(f"/d/{token}/register", data={"kind": "single", "single": "Lone"}),
        "single",
        f"at most {registration.MAX_TEAMS} teams",
        lambda client, app: tournament(client, app, registration.MAX_TEAMS),
    ),
    "whist drive players": Case(
        _drive(players="\n".join(f"P{n}" for n in range(8_000))), "players", "at most 256 players (64 tables), not 8000"
    ),
    "whist drive deals": Case(_drive(deals="61"), "deals", "1 to 60 deals"),
    "club night tables": Case(
        lambda client, _: client.post(
            "/events/new/club", data={"name": "Tue", "variant": "nomination", "tables": "65"}
        ),
        "tables",
        "1 to 64 tables",
    ),
    # an imported game record, a restored backup
    "imported record, nomination custom list": Case(
        lambda client, _: import_record(client, nomination_record([1] * 15_000, cycles=4)),
        "record",
        f"at most {CUSTOM_MAX} rounds",
    ),
    "imported record, hands": Case(
        lambda client, _: import_record(
            client,
            {
                **nomination_record([1]),
                "cycles": 1,
                "hands": [{"trump": "H", "bids": [0, 0, 0, 1], "tricks": [0, 0, 0, 1]}] * 1001,
            },
        ),
        "record",
        "at most 1000 hands",
    ),
    "restored backup, a game's nomination custom list": Case(
        lambda client, backup: restore(
            client,
            {
                **backup,
                "games": [{**g, "options": {**g["options"], "custom_sequence": [1] * 15_000}} for g in backup["games"]],
            },
        ),
        "backup",
        f"at most {CUSTOM_MAX} rounds",
        club_backup,
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_an_oversized_count_is_refused_beside_its_field_and_nothing_is_stored(
    client: FlaskClient, app: Flask, case: Case
) -> None:
    prepared = case.prepare(client, app)
    before = rows(app)
    response = case.send(client, prepared)
    assert response.status_code == 422, response.get_data(as_text=True)[:2000]
    assert case.words in beside(response, case.field)
    assert rows(app) == before
    page = response.get_data(as_text=True)
    assert len(re.findall(r'name="name\.\d+"', page)) <= 8  # a form of 5,000 names is not drawn back 5,000 rows long


def test_a_hand_past_the_records_limit_is_refused_and_not_stored(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game played to a target has no schedule: its hands stop where a record's do (1,000; 2 here),
    so a game can always be exported and imported again."""
    from scorepad.games import service

    monkeypatch.setattr(service, "HANDS_MAX", 2)
    response = client.post("/new/whist", data={**PARTNERS, "opt.target": "99"})
    token = response.headers["Location"].rsplit("/", 1)[1]
    for number in (1, 2, 3):
        response = client.post(
            f"/g/{token}/entry", data={"action": "result", "number": str(number), "trump": "H", "tricks": "7"}
        )
        assert response.status_code == (303 if number < 3 else 422)
    assert "A game holds at most 2 hands, as a game record does" in html.unescape(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.query(Hand).count() == 2
