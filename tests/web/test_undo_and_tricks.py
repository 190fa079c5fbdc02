"""Issue 14: Undo takes back exactly the last tap and says which, Redo puts it back; a player's
tricks are one tap on a number, and the last player's are filled in."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_games import HX, bid_round_one, game_of, hands_of, post, start, state_of, whist_game


def undo(client: FlaskClient, token: str, what: str = "undo", **data: str) -> tuple[int, str]:
    response = client.post(f"/g/{token}/{what}", data=data, headers=HX)
    return response.status_code, html.unescape(response.get_data(as_text=True))


def sheet_seen(client: FlaskClient, token: str) -> str:
    """The `sheet` field of the scorer's page as drawn now (the revision of the hands it shows)."""
    found = re.search(r'name="sheet" value="(\d+)"', client.get(f"/g/{token}").get_data(as_text=True))
    assert found, "the page's forms say which hands they were drawn with"
    return found.group(1)


def test_undo_takes_back_one_bid_and_redo_puts_it_back(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))  # trump S; Bob 1, Cat 1, Dan 0
    page = html.unescape(client.get(f"/g/{token}").get_data(as_text=True))
    assert "↶ Undo last entry: Dan's bid of 0" in page
    status, page = undo(client, token)
    assert status == 200 and "Undone: Dan's bid of 0." in page
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, 1, None]}
    assert "Cat's bid of 1" in page.split('class="undo"')[1] and "↷ Redo: Dan's bid of 0" in page
    status, page = undo(client, token, "redo")
    assert status == 200 and "Redone: Dan's bid of 0." in page
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, 1, 0]}
    assert "↷ Redo" not in page


def test_each_undo_takes_one_tap_back_to_the_trump_and_a_new_tap_forgets_the_redo(
    app: Flask, client: FlaskClient
) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1))
    said = [undo(client, token)[1] for _ in range(3)]
    assert [
        "Undone: Cat's bid of 1." in said[0],
        "Undone: Bob's bid of 1." in said[1],
        "Undone: the trump, Spades." in said[2],
    ] == [True, True, True]
    assert game_of(app, token).pending is None
    assert undo(client, token)[0] == 422  # nothing more to take back
    assert undo(client, token, "redo")[0] == 200 and game_of(app, token).pending == {"trump": "S"}
    assert post(client, token, action="bid", bid="0")[0] == 200  # a new tap: the bids undone are gone
    assert game_of(app, token).redo_log is None
    status, page = undo(client, token, "redo")
    assert status == 422 and "There is nothing to redo." in page


def test_undoing_a_saved_hand_brings_back_its_bids_and_tricks_not_an_empty_hand(
    app: Flask, client: FlaskClient
) -> None:
    """The last tap of a hand is Save: Undo takes back the save only (it used to delete the whole hand)."""
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    for seat, took in ((1, 1), (2, 0), (3, 2)):
        assert post(client, token, action="tricks", seat=str(seat), tricks=str(took))[0] == 200
    assert (
        post(
            client,
            token,
            action="result",
            number="1",
            **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        )[0]
        == 200
    )
    status, page = undo(client, token)
    assert status == 200 and "Undone: saving hand 1." in page
    assert hands_of(app, token) == []
    assert game_of(app, token).pending == {"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}
    assert "Save hand 1" in page
    status, page = undo(client, token, "redo")
    assert status == 200 and "Redone: saving hand 1." in page
    assert hands_of(app, token) == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}]


def test_undo_from_an_old_screen_is_refused_and_takes_nothing(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1))
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True).split('class="undo"')[1])
    assert client.post(f"/g/{token}/undo", data={"state": state}, headers=HX).status_code == 200
    again = client.post(f"/g/{token}/undo", data={"state": state}, headers=HX)  # the double tap
    assert again.status_code == 409 and "That tap undid nothing." in again.get_data(as_text=True)
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}


def test_tricks_are_tapped_one_player_at_a_time_and_the_last_is_filled_in(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))  # 4 cards; Bob, Cat, Dan, Ann
    status, page = post(client, token, action="tricks", seat="1", tricks="3")
    assert status == 200 and "Cat</strong>’s tricks" in page
    assert 'aria-label="Cat took 1"' in page and 'aria-label="Cat took 2"' not in page  # only 1 trick is left
    page = client.get(f"/g/{token}").get_data(as_text=True)  # a reload keeps the tricks tapped
    assert "Bob <strong>3</strong>" in page
    status, page = post(client, token, action="tricks", seat="2", tricks="0")
    assert status == 200 and "Dan</strong>’s tricks" in page
    status, page = post(client, token, action="tricks", seat="3", tricks="1")
    assert status == 200 and game_of(app, token).pending["tricks"] == [0, 3, 0, 1]
    assert "Save hand 1" in page and "’s tricks" not in page
    status, page = undo(client, token)
    assert "Undone: Dan's tricks: 1 (so Ann took 0)." in page  # one tap, with the tricks it filled in
    assert game_of(app, token).pending["tricks"] == [None, 3, 0, None]


def test_a_tricks_tap_beyond_the_tricks_left_or_from_an_old_screen_is_refused(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    status, page = post(client, token, action="tricks", seat="1", tricks="5")
    assert status == 422 and "Bob's tricks must be between 0 and 4" in html.unescape(page)
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="tricks", seat="1", tricks="2", state=state)[0] == 200
    status, page = post(client, token, action="tricks", seat="1", tricks="3", state=state)
    assert status == 409 and "Bob's tricks are recorded as 2; your 3 for Bob was not applied." in html.unescape(page)
    assert game_of(app, token).pending["tricks"] == [None, 2, None, None]


def test_a_hand_takes_at_most_four_bid_taps_four_trick_taps_and_the_trump(app: Flask, client: FlaskClient) -> None:
    """Counted in posts, one per tap: trump, 4 bids, 3 players' tricks, Save."""
    token = start(client)
    taps = 0

    def tap(**form: str) -> str:
        nonlocal taps
        taps += 1
        status, page = post(client, token, **form)
        assert status == 200, page
        return page

    tap(action="trump", trump="H")
    for bid in (1, 1, 0, 1):
        tap(action="bid", bid=str(bid))
    for seat, took in ((1, 2), (2, 1), (3, 0)):
        tap(action="tricks", seat=str(seat), tricks=str(took))
    page = tap(action="result", number="1", **{"tricks.0": "1", "tricks.1": "2", "tricks.2": "1", "tricks.3": "0"})
    assert "Hand 1 saved." in page and len(hands_of(app, token)) == 1
    assert taps <= 4 + 4 + 1


def test_a_tap_on_the_hand_in_hand_answers_without_the_sheet_and_a_save_with_it(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 17, item 4: a bid's answer was the whole play area, sheet and chart included, growing with
    the game; the page keeps its own (hx-preserve) when only the hand in hand changed."""
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    shows = {"sheet": sheet_seen(client, token)}  # the hands' revision the page was drawn with
    status, page = post(client, token, action="tricks", seat="1", tricks="1", **shows)
    assert status == 200 and '<div id="live" hx-preserve="true"></div>' in page and "Score sheet" not in page
    status, page = post(client, token, action="tricks", seat="2", tricks="0")  # a page that does not say
    assert status == 200 and "hx-preserve" not in page and "Score sheet" in page  # gets the whole sheet
    post(client, token, action="tricks", seat="3", tricks="2", **shows)
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        **shows,
    )
    assert status == 200 and "hx-preserve" not in page and "Score sheet" in page  # the first row: all of it
    status, page = undo(client, token, **shows)  # the save taken back: the sheet changes
    assert "Score sheet" in page
    status, page = undo(client, token, sheet=sheet_seen(client, token))  # one player's tricks: it does not
    assert "hx-preserve" in page and "Score sheet" not in page
    status, page = post(client, token, action="bid", bid="9")  # refused: the whole body, to be sure
    assert status == 422 and "Score sheet" in page


def test_undo_after_a_correction_takes_back_the_correction_not_the_last_save(app: Flask, client: FlaskClient) -> None:
    """Issue 31, item 5: hand 2 corrected after hand 3, Undo took back saving hand 3 and the correction
    could not be undone. The correction is a step of its own: Undo says it and takes it back, Redo
    makes it again, and the next Undo takes back the save."""
    token = whist_game(client)
    for number, took in ((1, "7"), (2, "6"), (3, "7")):
        assert post(client, token, action="result", number=str(number), trump="H", tricks=took)[0] == 200
    assert client.post(f"/g/{token}/hands/2", data={"trump": "H", "tricks": "8"}).status_code == 303
    assert [h["tricks"] for h in hands_of(app, token)] == [[7, 6], [8, 5], [7, 6]]
    page = html.unescape(client.get(f"/g/{token}").get_data(as_text=True))
    assert "↶ Undo last entry: correcting hand 2" in page
    status, page = undo(client, token, sheet=sheet_seen(client, token))
    assert status == 200 and "Undone: correcting hand 2." in page
    assert "Score sheet" in page  # the sheet changed: the answer brings it
    assert [h["tricks"] for h in hands_of(app, token)] == [[7, 6], [6, 7], [7, 6]]
    assert "↷ Redo: correcting hand 2" in page and "Undo last entry: saving hand 3" in page
    status, page = undo(client, token, "redo")
    assert status == 200 and "Redone: correcting hand 2." in page
    assert [h["tricks"] for h in hands_of(app, token)] == [[7, 6], [8, 5], [7, 6]]
    assert undo(client, token)[0] == 200 and undo(client, token)[0] == 200  # the correction, then hand 3
    assert [h["tricks"] for h in hands_of(app, token)] == [[7, 6], [6, 7]]
