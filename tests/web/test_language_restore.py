"""Issue 15: a restored backup that play could not have left is refused in the reader's language.
Each format's `check_rows` says its refusals through `M` (rules/errors.py), so the restore page
reads them in French or Spanish; the English reads as before (tests/web/test_backup.py). The home
games' service refusals (a hand out of turn, a merge with no player chosen) too."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import club, core, drive, military
from scorepad.events.bid_whist import restore_checks
from scorepad.extensions import db
from scorepad.models import Event
from scorepad.rules.base import RuleErrors
from scorepad.rules.errors import Message
from tests.web.test_backup import club_night, download, tournament_registration, whist_drive
from tests.web.test_events import create as create_military
from tests.web.test_events import field_error
from tests.web.test_games import HX, PARTNERS, errors_in, start
from tests.web.test_groups import beside, in_group, make_group, people

FR = {"Accept-Language": "fr"}
ES = {"Accept-Language": "es"}


def restore(client: FlaskClient, data: dict[str, Any], headers: dict[str, str] | None = None) -> str:
    """The refusal beside the upload field (the restore is refused: 422)."""
    response = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(json.dumps(data).encode()), "b.json")},
        headers=headers or {},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422, response.get_data(as_text=True)
    return field_error(response.get_data(as_text=True), "backup")


def test_a_drive_that_play_could_not_leave_is_refused_in_french(client: FlaskClient, app: Flask) -> None:
    data = json.loads(download(client, whist_drive(client, app)))
    data["event"]["current_hand"] = 2
    said = restore(app.test_client(), data, FR)
    assert said == (
        "Cette sauvegarde ne peut pas être restaurée : les enregistrements ne concordent pas : "
        "current_hand : la donne 2 ne peut pas être en jeu\xa0: d’après les résultats, c’est la donne 4. "
        "Rien n’a été enregistré."
    )
    english = restore(app.test_client(), data)
    assert "current_hand: deal 2 cannot be in play: the results say deal 4" in english


def test_a_tournament_s_options_and_decisions_are_refused_in_spanish(client: FlaskClient, app: Flask) -> None:
    data = json.loads(download(client, tournament_registration(client, app)))
    data["event"]["options"].update(rounds=9, colour="red")
    del data["event"]["options"]["made_scores"]
    said = restore(app.test_client(), data, ES)
    for problem in (
        "options.rounds: rounds debe ser de 1 a 8 rondas",
        "options.colour: 'colour' no es una opción de un torneo de Bid Whist",
        "options.made_scores: falta la opción made_scores",
    ):
        assert problem in said, said
    english = restore(app.test_client(), data)
    for problem in (
        "rounds must be 1 to 8 rounds",
        "'colour' is not a Bid Whist tournament option",
        "the option made_scores is missing",
    ):
        assert problem in english, english
    assert not re.search(r"\b(must|missing|tournament)\b", said), said


def test_a_club_night_s_variant_refused_in_french(client: FlaskClient, app: Flask) -> None:
    data = json.loads(download(client, club_night(client, app)))
    data["event"]["options"]["variant"] = "military"
    said = restore(app.test_client(), data, FR)
    assert "la seule option d’une soirée de club est son jeu, parmi " in said, said
    assert "only option" not in said


# --------------------------------------------------------------------------- the rules' words


def _broken(app: Flask, token: str, check: Callable[[Event], None], spoil: Callable[[Event], None]) -> list[str]:
    """Spoil the event's rows in a session never committed; every refusal check_rows gives, each a Message."""
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        spoil(event)
        with pytest.raises(RuleErrors) as refused:
            check(event)
        errors = refused.value.errors
        assert errors and all(isinstance(e.message, Message) for e in errors), [e.message for e in errors]
        db.session.rollback()
        db.session.remove()
        return [str(e.message) for e in errors]


def _options(**changes: object) -> Callable[[Event], None]:
    def spoil(event: Event) -> None:
        event.options = {**event.options, **changes}

    return spoil


def test_every_format_s_refusals_of_its_rows_are_messages(client: FlaskClient, app: Flask) -> None:
    military_token = create_military(client)

    def military_rows(event: Event) -> None:
        event.current_hand = 99
        event.playoffs = []

    said = _broken(app, military_token, military.check_rows, military_rows)
    assert any(s.startswith("hand 99 cannot be in play: the schedule has ") for s in said), said

    drive_token = whist_drive(client, app)
    said = _broken(app, drive_token, drive.check_rows, _options(colour="red", deals="six"))
    assert said == ["colour is not a whist drive option", "deals must be a whole number"]
    said = _broken(app, drive_token, drive.check_rows, lambda event: setattr(event, "current_hand", 6))
    assert said == ["deal 6 cannot be in play: the results say deal 4"]

    said = _broken(app, club_night(client, app), club.check_rows, _options(variant="bridge"))
    assert said[0].startswith("a club night's only option is its variant, one of ")

    bid_whist = tournament_registration(client, app)
    said = _broken(app, bid_whist, restore_checks.check_rows, _options(hidden="no", seed=""))
    assert said == ["hidden must be true or false", "seed must be text of 1 to 64 characters"]
    said = _broken(app, bid_whist, restore_checks.check_rows, lambda event: setattr(event, "current_hand", 1))
    assert said == ["a tournament still registering has no tables, rounds or decisions"]


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """One row, one round, one table: the singular, its own message (as PinLocked's minutes)."""
    assert restore_checks._stage_beyond(3, 1) == "stage 3: a tournament of 1 round is at round 1, or 2 (the bracket)"
    assert (
        restore_checks._stage_beyond(5, 3) == "stage 5: a tournament of 3 rounds is at round 1 to 3, or 4 (the bracket)"
    )


# --------------------------------------------------------------------------- the home games' services


def test_a_hand_out_of_turn_and_a_merge_with_no_choice_in_french(app: Flask, client: FlaskClient) -> None:
    token = start(client, "whist", PARTNERS)
    response = client.post(
        f"/g/{token}/entry", data={"action": "result", "number": "2", "trump": "H", "tricks": "6"}, headers={**HX, **FR}
    )
    assert response.status_code == 422
    assert "la donne 2 ne peut pas encore être saisie\xa0: la donne 1 vient avant." in errors_in(
        response.get_data(as_text=True)
    )
    group = make_group(client)
    start(client, form=in_group(group))
    ids = people(app, group)
    refused = client.get(f"/group/{group}/players/{ids['Gran']}/merge?chosen=1", headers=FR)
    assert refused.status_code == 422
    assert (
        html.unescape(beside(refused.get_data(as_text=True), "into"))
        == "Choisissez le joueur qui est la même personne que Gran."
    )
