"""Issue 31, item 4: an Australian round played in another trump than the schedule's (RULES-NOTES:
the scorer may override the trump of any round) is recorded so from the hand and from the
correction page, not only by an import."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_games import FOUR, game_of, hands_of, post, start


def australian(client: FlaskClient) -> str:
    return start(client, "australian", {**FOUR, "opt.trump_cycle": "skip", "action": "start"})


def page_of(client: FlaskClient, path: str) -> str:
    return html.unescape(client.get(path).get_data(as_text=True)).replace("\u00a0", " ")


def facts(page: str) -> str:
    found = re.search(r'<ul class="facts" id="hand-facts".*?</ul>', page, re.S)
    assert found, "the hand's facts are on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


def test_a_round_played_in_another_trump_is_recorded_from_the_hand(app: Flask, client: FlaskClient) -> None:
    token = australian(client)
    page = page_of(client, f"/g/{token}")
    assert "Played in another trump?" in page and "The schedule says ♥ Hearts." in page
    assert "Trump ♥ Hearts" in facts(page)
    status, page = post(client, token, action="trump", trump="C")
    assert status == 200 and game_of(app, token).pending == {"trump": "C"}
    assert "Trump ♣ Clubs" in facts(html.unescape(page))
    for bid in ("0", "0", "0", "0"):  # Bob, Cat, Dan, then Ann (who may not make it 1)
        assert post(client, token, action="bid", bid=bid)[0] == 200
    fields = {"tricks.0": "1", "tricks.1": "0", "tricks.2": "0", "tricks.3": "0"}
    assert post(client, token, action="result", number="1", **fields)[0] == 200
    assert hands_of(app, token)[0]["trump"] == "C"
    assert "Trump changed by the scorer: Clubs (the schedule said Hearts)" in page_of(client, f"/g/{token}")


def test_tapping_the_schedules_trump_again_takes_the_change_back(app: Flask, client: FlaskClient) -> None:
    token = australian(client)
    assert post(client, token, action="trump", trump="NT")[0] == 200
    assert game_of(app, token).pending == {"trump": "NT"}
    assert post(client, token, action="trump", trump="H")[0] == 200
    assert game_of(app, token).pending is None


def test_the_correction_page_changes_a_rounds_trump_and_back(app: Flask, client: FlaskClient) -> None:
    token = australian(client)
    for bid in ("0", "0", "0", "0"):
        assert post(client, token, action="bid", bid=bid)[0] == 200
    fields = {"tricks.0": "1", "tricks.1": "0", "tricks.2": "0", "tricks.3": "0"}
    assert post(client, token, action="result", number="1", **fields)[0] == 200
    form = page_of(client, f"/g/{token}/hands/1")
    assert "Trump played (the schedule says ♥ Hearts)" in form
    assert re.search(r'value="H"\s+checked', form)  # as scheduled
    bids = {f"bids.{s}": "0" for s in range(4)}
    response = client.post(f"/g/{token}/hands/1", data={**bids, **fields, "trump": "S"})
    assert response.status_code == 303
    assert hands_of(app, token)[0]["trump"] == "S"
    assert re.search(r'value="S"\s+checked', page_of(client, f"/g/{token}/hands/1"))
    assert client.post(f"/g/{token}/hands/1", data={**bids, **fields, "trump": "H"}).status_code == 303
    assert "trump" not in hands_of(app, token)[0]  # back to the schedule: nothing changed is stored
