"""Issue 15: the events' audit trail reads in the reader's language: who (a fixed key: "director",
"table 2"), what (a fixed key: "advance", "correction"), the values and the note, said from the
message it was made from (`said`). An entry written before (English only), or whose message no
longer fits, still shows its English."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import AuditEntry, Event
from tests.web.test_backup import download, military_playoff, token_of, upload
from tests.web.test_events import create, play, text
from tests.web.test_tournament_director import bracket_of_eight


def trail(page: str, title: str) -> str:
    """The audit trail's list, after its heading; French's no-break spaces read as spaces."""
    found = re.search(re.escape(title) + r"</h2>.*?<ol[^>]*>(.*?)</ol>", page, re.S)
    assert found, title
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).replace("\u00a0", " ")


def add_old_entries(app: Flask, token: str) -> None:
    """One entry as they were written before (English only) and one whose message does not fit."""
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        event.audit.append(AuditEntry(actor="director", action="pin", note="an old English note"))
        event.audit.append(
            AuditEntry(
                actor="director",
                action="pin",
                note="a note said wrongly",
                said={"template": "hand %(hand)s opened", "params": {"other": 2}},
            )
        )
        db.session.commit()


def test_a_military_control_room_s_audit_trail_in_french(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, [7, 6, 8, 5])
    assert client.post(f"/d/{token}/results/1/1", data={"tricks": "9", "revoke": "none"}).status_code in (200, 302)
    assert client.post(f"/d/{token}/tables/2/token").status_code in (200, 302)
    add_old_entries(app, token)

    client.set_cookie("lang", "en")
    english = trail(text(client.get(f"/d/{token}")), "Audit trail")
    assert "director · advance · hand 2 · hand 2 opened" in english
    assert "correction · hand 1 · table 1: 7 tricks → 9 tricks" in english
    assert "table 2's QR code replaced" in english

    client.set_cookie("lang", "fr")
    french = trail(text(client.get(f"/d/{token}")), "Journal des modifications")
    assert "directeur · donne suivante · donne 2 · donne 2 ouverte" in french
    assert "directeur · correction · donne 1 · table 1: 7 plis → 9 plis" in french
    assert "code QR de la table 2 remplacé" in french
    for english_words in ("advance", "hand 2 opened", "QR code replaced", "tricks", "director"):
        assert english_words not in french, english_words
    # written before, or said wrongly: the English as stored
    assert "directeur · code PIN · an old English note" in french
    assert "a note said wrongly" in french


def test_a_bid_whist_tournament_s_audit_trail_in_french(client: FlaskClient, app: Flask) -> None:
    token, _out = bracket_of_eight(client, app)
    client.set_cookie("lang", "en")
    english = trail(text(client.get(f"/d/{token}")), "What happened")
    assert "director: advanced · the bracket is set" in english
    assert "director: playoff · won the playoff for the bracket: " in english
    assert "round 1: sheet signed by " in english

    client.set_cookie("lang", "es")
    spanish = trail(text(client.get(f"/d/{token}")), "Lo que ha pasado")
    assert "director: ronda siguiente · el cuadro final está fijado" in spanish

    client.set_cookie("lang", "fr")
    french = trail(text(client.get(f"/d/{token}")), "Ce qui s’est passé")
    assert "directeur : tour suivant · le tableau final est établi" in french
    assert "directeur : barrage · barrage pour le tableau final gagné : " in french
    assert "tour 1 : feuille signée par " in french
    for english_words in ("advanced", "bracket is set", "won the playoff", "sheet signed", "director:"):
        assert english_words not in french, english_words
    add_old_entries(app, token)
    assert "directeur : code PIN · an old English note" in trail(text(client.get(f"/d/{token}")), "Ce qui s’est passé")


def test_a_restored_event_s_audit_trail_still_reads_in_french_and_an_older_backup_in_its_english(
    client: FlaskClient, app: Flask
) -> None:
    exported = json.loads(download(client, military_playoff(client, app)))
    assert any(entry["said"] for entry in exported["audit"])
    older = json.loads(json.dumps(exported))
    for entry in older["audit"]:  # a backup made before the audit trail kept its messages
        del entry["said"]
    for data, said in ((exported, True), (older, False)):
        token = token_of(upload(client, json.dumps(data).encode()))
        client.set_cookie("lang", "fr")
        french = trail(text(client.get(f"/d/{token}")), "Journal des modifications")
        assert ("donne 2 ouverte" in french) is said and ("hand 2 opened" in french) is not said
        assert "équipes 1, 2, gagnante" in french  # the playoff's values are data: said either way
