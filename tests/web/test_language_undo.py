"""Issue 15: Undo and Redo name the tap in the reader's language. A step keeps its English (what games
stored before read) and the message it was made from; a step stored with English only, as games saved
before this change have it, still shows its English."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.games import undo as undo_log
from scorepad.rules.errors import M
from tests.web.test_games import HX, bid_round_one, game_of, post, start


def said(client: FlaskClient, path: str, method: str = "get") -> tuple[int, str]:
    response = client.post(path, headers=HX) if method == "post" else client.get(path)
    return response.status_code, html.unescape(response.get_data(as_text=True)).replace("\u00a0", " ")


def test_undo_and_redo_name_the_tap_in_french_and_spanish(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))  # trump S; Bob 1, Cat 1, Dan 0
    stored = game_of(app, token).undo_log[-1]
    assert stored["what"] == "Dan's bid of 0"  # the English stays in the record, as before
    assert stored["said"] == {"template": "%(name)s's bid of %(bid)s", "params": {"name": "Dan", "bid": 0}}
    client.set_cookie("lang", "fr")
    page = said(client, f"/g/{token}")[1]
    assert "↶ Annuler la dernière saisie : l’annonce de Dan : 0" in page
    status, page = said(client, f"/g/{token}/undo", "post")
    assert status == 200 and "Annulé : l’annonce de Dan : 0." in page
    assert "↷ Rétablir : l’annonce de Dan : 0" in page and "Dan's" not in page
    status, page = said(client, f"/g/{token}/redo", "post")
    assert status == 200 and "Rétabli : l’annonce de Dan : 0." in page
    client.set_cookie("lang", "es")
    for _ in range(4):  # Dan, Cat, Bob, the trump
        status, page = said(client, f"/g/{token}/undo", "post")
    assert status == 200 and "Deshecho: el triunfo, Picas." in page
    status, page = said(client, f"/g/{token}/undo", "post")
    assert status == 422 and "No hay nada que deshacer todavía." in page


def test_tricks_filled_in_and_a_saved_hand_read_in_french(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    for seat, tricks in ((1, "2"), (2, "2")):  # Bob 2, Cat 2: Ann and Dan took none
        assert post(client, token, action="tricks", seat=str(seat), tricks=tricks)[0] == 200
    client.set_cookie("lang", "fr")
    page = said(client, f"/g/{token}")[1]
    assert "Annuler la dernière saisie : les plis de Cat : 2 (donc Ann et Dan en ont fait 0)" in page
    assert (
        post(
            client,
            token,
            action="result",
            number="1",
            **{"tricks.0": "0", "tricks.1": "2", "tricks.2": "2", "tricks.3": "0"},
        )[0]
        == 200
    )
    assert "Annuler la dernière saisie : l’enregistrement de la donne 1" in said(client, f"/g/{token}")[1]
    client.set_cookie("lang", "es")
    assert "Deshacer lo último: guardar la mano 1" in said(client, f"/g/{token}")[1]


def test_a_step_stored_before_with_english_only_still_shows_its_english(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1,))
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        old = dict(game.undo_log[-1])
        del old["said"]  # as a game stored before the messages were kept
        game.undo_log = [*game.undo_log[:-1], old]
        db.session.commit()
    client.set_cookie("lang", "fr")
    page = said(client, f"/g/{token}")[1]
    assert "Annuler la dernière saisie : Bob's bid of 1" in page
    status, page = said(client, f"/g/{token}/undo", "post")
    assert status == 200 and "Annulé : Bob's bid of 1." in page


def test_a_stored_message_round_trips_and_a_broken_one_falls_back_to_the_english() -> None:
    what = M(
        "%(what)s (so %(names)s took %(tricks)s)",
        what=M("%(name)s's tricks: %(tricks)s", name="Cat", tricks=2),
        names=M("%(names)s and %(last)s", names="Dan", last="Ann"),
        tricks=0,
    )
    step = undo_log.Step(what, None, {"tricks": [0, 2, 2, None]})
    back = undo_log.Step.from_json(step.as_json())
    assert back.what == "Cat's tricks: 2 (so Dan and Ann took 0)" and back.as_json() == step.as_json()
    assert back.what.template == what.template  # type: ignore[attr-defined]
    for broken in (
        {"template": "%(gone)s", "params": {}},
        {"template": 3, "params": {}},
        "text",
        None,
        {"template": "%(a)s", "params": {"a": [1]}},
    ):
        kept = undo_log.Step.from_json({**step.as_json(), "said": broken}).what
        assert kept == "Cat's tricks: 2 (so Dan and Ann took 0)" and not hasattr(kept, "template"), broken
