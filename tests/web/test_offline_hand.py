"""Issue 31, item 3: a whole hand entered on a phone with no connection. The page carries the rest of
the hand as the phone can enter it alone (its plan); the taps it queues carry the player and the hand
they are for, not the page's state, so one made after a tap the server refused, or after another
phone entered the same step, is refused and said, never recorded as another player's."""

from __future__ import annotations

import html
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_games import bid_round_one, bid_whist_game, game_of, hands_of, post, start


def plan_of(client: FlaskClient, token: str) -> dict[str, object]:
    page = client.get(f"/g/{token}").get_data(as_text=True)
    found = re.search(r"data-offline-hand='([^']*)'", page)
    assert found, "no plan for the offline hand on the page"
    plan: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return plan


def test_the_page_carries_the_rest_of_the_hand_for_the_phone(client: FlaskClient) -> None:
    token = start(client)  # hand 1: 4 cards, Ann deals, Bob bids first; the trump is entered
    plan = plan_of(client, token)
    assert plan["no"] == 1 and plan["c"] == 4 and plan["hk"] is True  # number, cards, the hook binds
    assert plan["o"] == [1, 2, 3, 0] and plan["bd"] == [None, None, None, None]  # bidding order, bids
    assert [t[0] for t in plan["tr"]] == ["H", "D", "C", "S", "NT"]  # type: ignore[index, union-attr]
    seats = plan["s"]
    assert isinstance(seats, list) and seats[1]["b"] == "Bob bids {n}" and seats[1]["t"] == "Bob took {n}"
    client.set_cookie("lang", "fr")
    plan = plan_of(client, token)
    assert plan["w"]["sv"] == "Enregistrer la donne 1"  # type: ignore[index]
    client.set_cookie("lang", "en")
    bid_round_one(client, token, (1, 1, 0))
    plan = plan_of(client, token)
    assert plan["bd"] == [None, 1, 1, 0] and plan["tr"] == []


def test_a_queued_bid_for_another_player_is_refused_not_given_to_the_next(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    assert post(client, token, action="trump", trump="S")[0] == 200
    assert post(client, token, action="bid", seat="1", bid="1")[0] == 200  # Bob: from this phone, or another
    # the phone's next tap, made offline, was Bob's bid of 2: now Cat is to bid, and it is not hers
    status, answer = post(client, token, action="bid", seat="1", bid="2", number="1")
    assert status == 409
    assert "Bob&#39;s bid of 1 is recorded; your bid of 2 for Bob was not applied." in answer
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}


def test_queued_tricks_already_entered_meanwhile_are_said_as_recorded(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    assert post(client, token, action="bid", seat="0", bid="1")[0] == 200
    assert post(client, token, action="tricks", seat="1", tricks="2")[0] == 200
    status, answer = post(client, token, action="tricks", seat="1", tricks="1", number="1")
    assert status == 409
    assert "Bob&#39;s tricks are recorded as 2; your 1 for Bob was not applied." in answer
    assert game_of(app, token).pending["tricks"] == [None, 2, None, None]  # type: ignore[index]


def test_a_queued_bid_for_a_hand_saved_meanwhile_is_refused(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    assert post(client, token, action="bid", seat="0", bid="1")[0] == 200
    assert post(client, token, action="result", number="1", **{f"tricks.{i}": "1" for i in range(4)})[0] == 200
    status, answer = post(client, token, action="bid", seat="2", bid="0", number="1")  # hand 1's, saved meanwhile
    assert status == 409 and "Hand 1 was already saved" in answer
    assert len(hands_of(app, token)) == 1 and game_of(app, token).pending is None


def test_a_queued_bid_whist_call_no_longer_in_turn_is_refused(app: Flask, client: FlaskClient) -> None:
    """A call queued offline names its place in the auction and its hand, not the page's state: made
    meanwhile on another phone, Bob's call is not given to Cat."""
    token = bid_whist_game(client)  # Ann deals: Bob, Cat, Dan, Ann call in that order
    assert post(client, token, action="call", call="4-plain", position="0")[0] == 200  # from another phone
    status, answer = post(client, token, action="call", call="5-no", position="0", number="1")
    assert status == 409
    assert "Bob&#39;s bid of 4 is recorded; your bid of 5 No for Bob was not applied." in answer
    assert game_of(app, token).pending == {"auction": [{"bid": 4, "kind": "plain"}]}
    assert post(client, token, action="call", call="pass", position="1", number="1")[0] == 200  # Cat's, in turn
    assert game_of(app, token).pending == {"auction": [{"bid": 4, "kind": "plain"}, None]}


def test_the_phones_words_are_text_where_it_shows_text_and_markup_where_it_shows_markup(client: FlaskClient) -> None:
    """A name with an ampersand or an apostrophe reads as typed on the chips and hints the phone draws
    offline (it sets them as text), and escaped in the legends (it sets those as markup)."""
    from tests.web.test_games import nomination_form

    token = start(client, form=nomination_form(**{"name.1": "Bo & Jo's"}))
    seat = plan_of(client, token)["s"][1]  # type: ignore[index]
    assert seat["n"] == "Bo & Jo's" and seat["b"] == "Bo & Jo's bids {n}" and seat["t"] == "Bo & Jo's took {n}"
    assert seat["f"].startswith("Bo & Jo's bids last")
    assert seat["bl"] == "<strong>Bo &amp; Jo&#39;s</strong>’s bid"
