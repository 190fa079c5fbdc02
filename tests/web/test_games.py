"""Home games through the Flask test client: set-up, entry, refusals (4xx beside the field), corrections,
spectators, exports. Each refusal is checked to leave the stored game unchanged."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from scorepad.extensions import db
from scorepad.games import records
from scorepad.games import service as games
from scorepad.models import Game
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.record import score_record

HX = {"HX-Request": "true"}
FOUR = {"name.0": "Ann", "name.1": "Bob", "name.2": "Cat", "name.3": "Dan", "first_dealer": "0"}


def nomination_form(**extra: str) -> dict[str, str]:
    return {
        **FOUR,
        "opt.sequence": "custom",
        "opt.custom_sequence": "4, 1",
        "opt.cycles": "1",
        "opt.hook": "four_plus",
        "opt.trumps": "entered",
        "action": "start",
        **extra,
    }


def start(client: FlaskClient, key: str = "nomination", form: dict[str, str] | None = None) -> str:
    response = client.post(f"/new/{key}", data=form or nomination_form())
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def game_of(app: Flask, token: str) -> Game:
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        return game


def hands_of(app: Flask, token: str) -> list[dict[str, object]]:
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        return [h.entry for h in game.hands]


def post(client: FlaskClient, token: str, **data: str) -> tuple[int, str]:
    response = client.post(f"/g/{token}/entry", data=data, headers=HX)
    return response.status_code, response.get_data(as_text=True)


def errors_in(page: str) -> list[str]:
    """The error messages on a page, unescaped and lower-cased for matching."""
    return [html.unescape(e).lower() for e in re.findall(r'class="field-error"[^>]*>([^<]+)<', page)]


def bid_round_one(client: FlaskClient, token: str, bids: tuple[int, ...] = (1, 1, 0)) -> None:
    """Hand 1 has 4 cards; Ann deals so Bob, Cat, Dan, Ann bid in that order."""
    assert post(client, token, action="trump", trump="S")[0] == 200
    for bid in bids:
        assert post(client, token, action="bid", bid=str(bid))[0] == 200


# --------------------------------------------------------------------------- starting


def test_new_game_offers_the_four_home_variants(client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    for name in ("Whist", "Bid Whist", "Nomination Whist", "Australian Whist"):
        assert f"<strong>{name}</strong>" in page
    assert "/new/military" not in page


@pytest.mark.parametrize("key", ["military", "bridge"])
def test_no_home_game_for_other_keys(client: FlaskClient, key: str) -> None:
    assert client.get(f"/new/{key}").status_code == 404


def test_starting_a_game_redirects_to_the_scorer_page(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Hand 1 of 2" in page and "Which trump was turned up?" in page
    assert game_of(app, token).players == ["Ann", "Bob", "Cat", "Dan"]


def test_htmx_start_navigates_with_hx_redirect(client: FlaskClient) -> None:
    response = client.post("/new/nomination", data=nomination_form(), headers=HX)
    assert response.status_code == 200 and response.headers["HX-Redirect"].startswith("/g/")


@pytest.mark.parametrize(
    "change, field_words",
    [
        ({"name.1": "ann"}, "two players are called"),
        ({"opt.cycles": "lots"}, "must be a whole number"),
        ({"opt.cycles": "9"}, "at most 4"),
        ({"opt.custom_sequence": "4, 20"}, "at most 13"),
        ({"opt.hook": "never"}, "must be one of"),
    ],
)
def test_setup_problems_are_shown_beside_the_field(
    app: Flask, client: FlaskClient, change: dict[str, str], field_words: str
) -> None:
    response = client.post("/new/nomination", data=nomination_form(**change))
    assert response.status_code == 422
    assert any(field_words in e for e in errors_in(response.get_data(as_text=True)))
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_add_and_remove_players_keep_what_was_typed(client: FlaskClient) -> None:
    added = client.post("/new/nomination", data={**FOUR, "action": "add"}).get_data(as_text=True)
    assert 'name="name.4"' in added and 'value="Dan"' in added
    removed = client.post("/new/nomination", data={**FOUR, "action": "remove-1"}).get_data(as_text=True)
    assert 'value="Bob"' not in removed and 'value="Cat"' in removed and 'name="name.3"' not in removed


def test_three_players_is_the_least_for_nomination(client: FlaskClient) -> None:
    three = {"name.0": "A", "name.1": "B", "name.2": "C", "action": "remove-0"}
    page = client.post("/new/nomination", data=three).get_data(as_text=True)
    assert 'name="name.2"' in page  # nobody removed: three is the minimum


def test_partnership_setup_names_teams_and_seats(app: Flask, client: FlaskClient) -> None:
    token = start(
        client,
        "whist",
        {
            "team.0": "Us",
            "team.1": "Them",
            "name.0": "Ann",
            "name.1": "Bob",
            "name.2": "Cat",
            "name.3": "Dan",
            "first_dealer": "1",
            "action": "start",
        },
    )
    game = game_of(app, token)
    assert game.teams == [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}]
    assert 'Dealer</span> <span class="v">Bob' in client.get(f"/g/{token}").get_data(as_text=True)


def test_recent_names_are_offered(client: FlaskClient) -> None:
    start(client)
    page = client.get("/new/australian").get_data(as_text=True)
    assert 'data-fill-name="Ann"' in page


# --------------------------------------------------------------------------- entering hands


def test_a_hand_is_entered_by_trump_bids_then_tricks(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    status, page = post(client, token, action="bid", bid="1")  # Ann, last, may not bid 2
    assert status == 200 and "Bob</strong>’s tricks" in page  # the tricks are tapped in bidding order
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    assert status == 200 and "Hand 1 saved." in page
    assert hands_of(app, token) == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}]
    assert "Hand 2 of 2" in page


def test_hook_rule_bid_is_refused_with_its_reason(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ann bids last and may not bid 2" in page
    assert re.search(r'disabled aria-describedby="forbidden-reason" aria-label="2 \(not allowed\)"', page)
    status, page = post(client, token, action="bid", bid="2")
    assert status == 422
    assert any("may not bid 2" in e for e in errors_in(page))
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, 1, 0]}


@pytest.mark.parametrize(
    "data, words",
    [
        ({"action": "bid", "bid": "9"}, "between 0 and 4"),
        ({"action": "bid", "bid": "x"}, "whole number"),
        ({"action": "bid"}, "choose"),
        ({"action": "trump", "trump": "Z"}, "choose the trump"),
        ({"action": "fly"}, "this screen cannot do that"),
    ],
)
def test_bad_input_is_a_422_with_a_message(app: Flask, client: FlaskClient, data: dict[str, str], words: str) -> None:
    token = start(client)
    if data.get("action") == "bid":
        post(client, token, action="trump", trump="H")
    status, page = post(client, token, **data)
    assert status == 422
    assert any(words in e for e in errors_in(page)), errors_in(page)
    assert hands_of(app, token) == []


def test_tricks_that_do_not_add_up_are_refused_and_nothing_is_saved(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "1", "tricks.3": "2"},
    )
    assert status == 422
    assert any("add up to 5 but there are 4 tricks" in e for e in errors_in(page))
    assert hands_of(app, token) == []
    assert 'value="2"' in page  # what was tapped is kept for fixing


def test_out_of_range_tricks_name_the_player(client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "7", "tricks.2": "0", "tricks.3": "2"},
    )
    assert status == 422 and any("bob's tricks must be between 0 and 4" in e for e in errors_in(page))


@pytest.mark.postgresql
def test_a_second_submission_of_the_same_hand_is_not_counted_twice(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    result = {"action": "result", "number": "1", "tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"}
    assert post(client, token, **result)[0] == 200
    status, page = post(client, token, **result)
    assert status == 409 and "already saved; it was not counted twice" in page
    assert len(hands_of(app, token)) == 1


@pytest.mark.parametrize("number", ["2", "abc", ""])
def test_a_hand_number_out_of_turn_is_refused(app: Flask, client: FlaskClient, number: str) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    status, _ = post(
        client,
        token,
        action="result",
        number=number,
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    assert status == 422
    assert hands_of(app, token) == []


def test_without_javascript_an_error_renders_the_page_and_success_redirects(client: FlaskClient) -> None:
    token = start(client)
    refused = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "Z"})
    assert refused.status_code == 422 and "<html" in refused.get_data(as_text=True)
    saved = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "H"})
    assert saved.status_code == 303


def test_unknown_game_links_are_404(client: FlaskClient) -> None:
    assert client.get("/g/nope").status_code == 404
    assert client.post("/g/nope/entry", data={"action": "bid"}).status_code == 404
    assert client.get("/w/nope").status_code == 404
    assert client.get("/w/nope/game.json").status_code == 404


def test_responses_vary_on_htmx(client: FlaskClient) -> None:
    token = start(client)
    response = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "H"}, headers=HX)
    assert "HX-Request" in response.headers["Vary"]
    assert "<html" not in response.get_data(as_text=True)


# --------------------------------------------------------------------------- undo, corrections, delete


def test_a_game_from_before_the_undo_log_takes_back_the_bids_then_the_last_hand(
    app: Flask, client: FlaskClient
) -> None:
    """Games stored before taps were logged undo as they always did: the hand in hand, else the last hand."""
    token = start(client)
    assert client.post(f"/g/{token}/undo", headers=HX).status_code == 422  # nothing yet
    bid_round_one(client, token, (1, 1, 0, 1))
    post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    bid = post(client, token, action="trump", trump="H")
    assert bid[0] == 200
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None and game.undo_log
        game.undo_log = None
        db.session.commit()
    page = client.post(f"/g/{token}/undo", headers=HX).get_data(as_text=True)
    assert "bids of the current hand were cleared" in page and game_of(app, token).pending is None
    page = client.post(f"/g/{token}/undo", headers=HX).get_data(as_text=True)
    assert "Hand 1 was taken back" in page and hands_of(app, token) == []


def test_taking_back_the_last_bid(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1))
    assert post(client, token, action="unbid")[0] == 200
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}


def _play_both_hands(client: FlaskClient, token: str) -> None:
    bid_round_one(client, token, (1, 1, 0, 1))
    post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    post(client, token, action="trump", trump="D")
    for bid in (0, 0, 1, 0):  # hand 2 (1 card): Bob deals, Cat bids first
        post(client, token, action="bid", bid=str(bid))
    post(
        client,
        token,
        action="result",
        number="2",
        **{"tricks.0": "0", "tricks.1": "0", "tricks.2": "1", "tricks.3": "0"},
    )


def test_a_correction_rescores_everything_after_it(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    form = client.get(f"/g/{token}/hands/1").get_data(as_text=True)
    assert "Correct hand 1" in form and 'name="tricks.3" type="number"' in form
    # Stored in seat order: Ann 1, Bob 1, Cat 1, Dan 0 (bid Bob, Cat, Dan, Ann); Ann now took 2, Dan 1.
    corrected = {
        "trump": "S",
        "bids.0": "1",
        "bids.1": "1",
        "bids.2": "1",
        "bids.3": "0",
        "tricks.0": "2",
        "tricks.1": "1",
        "tricks.2": "0",
        "tricks.3": "1",
    }
    response = client.post(f"/g/{token}/hands/1", data=corrected)
    assert response.status_code == 303
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None and game.hands[0].corrected_at is not None
        sheet = games.view(game).sheet
    # hand 1 now: Ann 1/2 -> 2, Bob 1/1 -> 11, Cat 1/0 -> 0, Dan 0/1 -> 1
    # hand 2 (bids Ann 1, Bob 0, Cat 0, Dan 0; tricks Cat 1): Ann 0, Bob 10, Cat 1, Dan 10
    assert {s.name: s.total for s in sheet.standings} == {"Ann": 2, "Bob": 21, "Cat": 1, "Dan": 11}


def _rows(page: str) -> str:
    found = re.search(r'<tbody id="sheet-rows">(.*?)</tbody>', page, re.S)
    assert found, page
    return found.group(1)


def test_a_sheets_rows_drawn_once_follow_the_language_the_link_and_a_correction(
    app: Flask, client: FlaskClient
) -> None:
    """The rows of a kept sheet are drawn once and given again (presenters.kept_row), never across
    what changes them: the reader's language, the Edit links (a spectator has none), the hands."""
    token = start(client)
    _play_both_hands(client, token)
    first = _rows(client.get(f"/g/{token}").get_data(as_text=True))
    assert first.count(">Edit<") == 2 and "1 card" in first
    assert _rows(client.get(f"/g/{token}").get_data(as_text=True)) == first  # the same, given again
    french = _rows(client.get(f"/g/{token}", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    assert ">Éditer<" in french and "1 carte" in french and ">Edit<" not in french
    public_id = game_of(app, token).public_id
    watched = _rows(client.get(f"/w/{public_id}").get_data(as_text=True))
    assert "Edit" not in watched and token not in watched and "1 card" in watched
    assert token in first  # the scorer's rows link to its own correction pages
    corrected = {"trump": "S", "bids.0": "1", "bids.1": "1", "bids.2": "1", "bids.3": "0"}
    corrected |= {"tricks.0": "2", "tricks.1": "1", "tricks.2": "0", "tricks.3": "1"}
    assert client.post(f"/g/{token}/hands/1", data=corrected).status_code == 303
    after = _rows(client.get(f"/g/{token}").get_data(as_text=True))
    assert after != first and '<span class="total">11</span>' in after  # Bob's 11 after hand 1, as corrected


def _chart(page: str) -> str:
    found = re.search(r'<section class="chart-box".*?</section>', page, re.S)
    assert found, page
    return found.group(0)


def test_a_kept_sheet_s_rows_and_chart_are_drawn_once_per_language_and_again_after_a_change(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a page again draws none of its rows nor its chart, nor looks each row up (presenters.sheet_row,
    draw_chart, kept_rows: at hand 25 they were a third of the page), another language draws them in it, and a correction,
    which gives a new sheet, draws them afresh with the new totals: nothing stale is shown."""
    from scorepad.games import presenters

    drawn = {"rows": 0, "charts": 0, "rows looked up": 0}

    def counted(name: str, draw):  # type: ignore[no-untyped-def]
        def drawing(*args, **kwargs):  # type: ignore[no-untyped-def]
            drawn[name] += 1
            return draw(*args, **kwargs)

        return drawing

    monkeypatch.setattr(presenters, "sheet_row", counted("rows", presenters.sheet_row))
    monkeypatch.setattr(presenters, "draw_chart", counted("charts", presenters.draw_chart))
    looked_up = counted("rows looked up", presenters.kept_row)  # by the sheet, or by a template
    monkeypatch.setattr(presenters, "kept_row", looked_up)
    monkeypatch.setitem(app.jinja_env.globals, "kept_row", looked_up)
    token = start(client)
    _play_both_hands(client, token)
    first = client.get(f"/g/{token}").get_data(as_text=True)
    before = dict(drawn)
    again = client.get(f"/g/{token}").get_data(as_text=True)
    assert (_rows(again), _chart(again)) == (_rows(first), _chart(first)) and drawn == before  # given again
    french = client.get(f"/g/{token}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert drawn == {
        "rows": before["rows"] + 2,
        "charts": before["charts"] + 1,
        "rows looked up": before["rows looked up"] + 2,
    }
    assert "Totaux après 2 donnes" in _chart(french) and "1 carte" in _rows(french)
    corrected = {"trump": "S", "bids.0": "1", "bids.1": "1", "bids.2": "1", "bids.3": "0"}
    corrected |= {"tricks.0": "2", "tricks.1": "1", "tricks.2": "0", "tricks.3": "1"}
    assert client.post(f"/g/{token}/hands/1", data=corrected).status_code == 303
    after = client.get(f"/g/{token}").get_data(as_text=True)
    assert drawn["rows"] == before["rows"] + 4 and drawn["charts"] == before["charts"] + 2
    assert "Ann 11," in _chart(first) and "Ann 2," in _chart(after)  # Ann 2 as corrected


def test_a_new_sheet_s_rows_say_only_the_cell_words_not_said_before_in_that_language(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: a sheet drawn for the first time (a game the worker has not drawn) says again none
    of the cell words ("bid 1 · took 1") another sheet said in the reader's language: the rules give
    one object per bid and tricks, and the rows keep what they drew of it (presenters._detail_parts);
    another language says them in it, and the rows are the same as drawn afresh."""
    from scorepad.games import presenters

    said: list[str] = []
    say = presenters.say
    monkeypatch.setattr(presenters, "say", lambda text: said.append(getattr(text, "template", "")) or say(text))
    cell_words = "bid %(bid)s · took %(tricks)s"
    record = {"scorepad": 1, "variant": "nomination", "players": ["Ann", "Bob", "Cat", "Dan"], "first_dealer": 0}
    record["options"] = {"sequence": "custom", "custom_sequence": [4, 1], "cycles": 1}
    record["hands"] = [
        {"trump": "S", "bids": [1, 1, 0, 1], "tricks": [1, 1, 0, 2]},
        {"trump": "D", "bids": [0, 0, 1, 0], "tricks": [0, 0, 1, 0]},
    ]
    with app.app_context():  # stored, not played: no answer drew a row of them
        games_played = [records.import_record(record).scorer_token for _ in range(3)]
    first = _rows(client.get(f"/g/{games_played[0]}").get_data(as_text=True))
    assert '<span class="part">bid 1</span>' in first  # its words said now, or by a sheet before it
    said.clear()
    second = _rows(client.get(f"/g/{games_played[1]}").get_data(as_text=True))
    assert second == first.replace(games_played[0], games_played[1])
    assert cell_words not in said, said  # the row heads' words are said (the hand's cards), the cells' not
    french = _rows(client.get(f"/g/{games_played[2]}", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    assert '<span class="part">pari 1</span>' in french and "bid 1" not in french


def test_a_bad_correction_is_refused_beside_the_field(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    bad = {
        "trump": "S",
        "bids.0": "2",
        "bids.1": "1",
        "bids.2": "1",
        "bids.3": "0",
        "tricks.0": "1",
        "tricks.1": "1",
        "tricks.2": "0",
        "tricks.3": "2",
    }
    response = client.post(f"/g/{token}/hands/1", data=bad)
    assert response.status_code == 422
    assert any("may not bid 2" in e for e in errors_in(response.get_data(as_text=True)))
    assert hands_of(app, token)[0]["bids"] == [1, 1, 1, 0]
    assert client.get(f"/g/{token}/hands/9").status_code == 404


def test_delete_asks_first_then_removes_the_game(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    confirm = client.get(f"/g/{token}/delete")
    assert confirm.status_code == 200 and "This cannot be undone" in confirm.get_data(as_text=True)
    assert game_of(app, token)  # still there after asking
    assert client.post(f"/g/{token}/delete").status_code == 303
    assert client.get(f"/g/{token}").status_code == 404


def test_game_over_refuses_more_hands_and_offers_a_rematch(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Game over" in page and "Rematch" in page
    status, _ = post(client, token, action="trump", trump="H")
    assert status == 422
    rematch = client.post(f"/g/{token}/rematch")
    new = rematch.headers["Location"].rsplit("/", 1)[1]
    assert new != token and game_of(app, new).first_dealer == 1
    assert hands_of(app, new) == []


# --------------------------------------------------------------------------- spectators and exports


def test_spectators_read_but_cannot_edit(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    public_id = game_of(app, token).public_id
    page = client.get(f"/w/{public_id}").get_data(as_text=True)
    assert "Final totals" in page and 'sse-connect="/w/' in page
    assert "/entry" not in page and ">Edit<" not in page and token not in page
    assert client.post(f"/w/{public_id}", data={}).status_code == 405
    # a page that lost its stream catches up with the live fragment alone
    assert f'data-refresh-url="/w/{public_id}"' in page
    fragment = client.get(f"/w/{public_id}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Final totals" in fragment and "<html" not in fragment


def test_an_entry_is_pushed_to_the_spectators_stream(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    public_id = game_of(app, token).public_id
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    response = client.get(f"/w/{public_id}/events")
    assert response.mimetype == "text/event-stream"
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    assert next(stream) == b": connected\n\n"
    post(client, token, action="trump", trump="H")  # the hand in hand, which spectators do not see:
    for _ in range(3):  # nothing is pushed for it, only the heartbeat comes
        assert next(stream).decode().startswith(": ping")
    for bid in (1, 1, 0, 1):
        post(client, token, action="bid", bid=str(bid))
    post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    chunk = next(stream).decode()
    for _ in range(20):
        if not chunk.startswith(": ping"):
            break
        chunk = next(stream).decode()
    assert chunk.startswith("event: update\ndata: ")
    assert "Running totals" in chunk and 'id="hand-1"' in chunk
    response.close()
    with app.app_context():
        assert live.broker().count(f"game:{public_id}") == 0


def test_json_export_is_a_record_that_scores_the_same(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    public_id = game_of(app, token).public_id
    response = client.get(f"/w/{public_id}/game.json")
    assert "attachment" in response.headers["Content-Disposition"]
    record = json.loads(response.get_data(as_text=True))
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        expected = games.view(game).sheet
    assert score_record(record).standings == expected.standings


def test_csv_export_has_a_row_per_hand_and_the_standings(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    text = client.get(f"/w/{game_of(app, token).public_id}/sheet.csv").get_data(as_text=True)
    rows = text.strip().splitlines()
    assert rows[0].startswith("Hand,Round,Ann bid,Ann tricks,Ann points,Ann total")
    assert rows[1].startswith("1,") and rows[2].startswith("2,")
    assert "Place,Name,Total,Detail" in rows


def test_home_lists_games_in_progress_resumable_here(client: FlaskClient, app: Flask) -> None:
    token = start(client)
    page = client.get("/").get_data(as_text=True)
    assert "Your games in progress" in page and f"/g/{token}" in page
    other = app.test_client()  # another phone: sees the game, read-only
    elsewhere = other.get("/").get_data(as_text=True)
    assert f"/g/{token}" not in elsewhere and "/w/" in elsewhere


def test_forms_need_the_csrf_token(tmp_path: object) -> None:
    from flask_migrate import upgrade

    from scorepad import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SCOREPAD_DEMO": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/csrf.sqlite3",
        }
    )
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
    response = app.test_client().post("/new/nomination", data=nomination_form())
    assert response.status_code == 400 and "form has expired" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == 0


# --------------------------------------------------------------------------- audit: refusals, never a 500

PARTNERS = {
    "team.0": "Us",
    "team.1": "Them",
    "name.0": "Ann",
    "name.1": "Bob",
    "name.2": "Cat",
    "name.3": "Dan",
    "first_dealer": "0",
    "action": "start",
}


@pytest.mark.parametrize("key", ["whist", "bid_whist"])
def test_a_partnership_form_with_missing_seats_is_a_message_not_a_500(
    app: Flask, client: FlaskClient, key: str
) -> None:
    response = client.post(f"/new/{key}", data={"team.0": "Us", "team.1": "Them", "name.0": "Ann", "action": "start"})
    assert response.status_code == 422
    assert "us&#39;s player 2 needs a name" in response.get_data(as_text=True).lower()
    with app.app_context():
        assert db.session.query(Game).count() == 0
    assert client.post(f"/new/{key}", data={"name.0": "Ann", "action": "add"}).status_code == 200


@pytest.mark.parametrize("action", ["remove-x", "remove-", "remove--1", "remove-99"])
def test_a_tampered_remove_button_removes_nobody(client: FlaskClient, action: str) -> None:
    five = {**FOUR, "name.4": "Eve", "action": action}
    response = client.post("/new/australian", data=five)
    assert response.status_code == 200
    assert all(f'value="{name}"' in response.get_data(as_text=True) for name in ("Ann", "Bob", "Cat", "Dan", "Eve"))


@pytest.mark.parametrize("dealer, words", [("-1", "first dealer"), ("4", "first dealer"), ("x", "who deals first")])
def test_a_first_dealer_out_of_range_is_refused(app: Flask, client: FlaskClient, dealer: str, words: str) -> None:
    response = client.post("/new/nomination", data=nomination_form(first_dealer=dealer))
    assert response.status_code == 422
    assert any(words in e for e in errors_in(response.get_data(as_text=True))), errors_in(
        response.get_data(as_text=True)
    )
    with app.app_context():
        assert db.session.query(Game).count() == 0


@pytest.mark.postgresql
def test_the_same_hand_saved_at_the_same_moment_is_a_409(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two requests past the "already recorded?" check together: the database's unique (game, number)
    stops the second, which must answer like a sequential double tap."""
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    game_id = game_of(app, token).id
    real_view = games.view
    theirs = {"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}

    def view_then_other_request_saves(game: Game) -> games.GameView:
        found = real_view(game)
        with db.engine.begin() as other:  # another connection: the other request's commit, which moves the
            other.execute(
                db.text(
                    "INSERT INTO hand (game_id, number, entry, entered_at) "  # revisions as any does
                    "VALUES (:g, 1, :e, CURRENT_TIMESTAMP)"
                ),
                {"g": game_id, "e": json.dumps(theirs)},
            )
            other.execute(
                db.text("UPDATE game SET hands_revision = hands_revision + 1, revision = revision + 1 WHERE id = :g"),
                {"g": game_id},
            )
        monkeypatch.setattr(games, "view", real_view)
        return found

    monkeypatch.setattr(games, "view", view_then_other_request_saves)
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    assert status == 409 and "Hand 1 was already saved; it was not counted twice." in page
    assert hands_of(app, token) == [theirs]  # the other request's hand, alone


# --------------------------------------------------------------------------- audit: every message shown


def body_text(response_text: str) -> str:
    return html.unescape(response_text)


@pytest.mark.parametrize("key", ["whist", "bid_whist"])
@pytest.mark.parametrize(
    "change, words",
    [
        ({"team.1": "us"}, "Two teams are called"),
        ({"name.2": ""}, "Us's player 2 needs a name"),
        ({"name.1": "", "name.3": "Dan"}, "Them's player 1 needs a name"),
        ({"name.3": "ann"}, "Two players have the same name"),
    ],
)
def test_partnership_setup_messages_are_shown(
    client: FlaskClient, key: str, change: dict[str, str], words: str
) -> None:
    response = client.post(f"/new/{key}", data={**PARTNERS, **change})
    assert response.status_code == 422
    assert words in body_text(response.get_data(as_text=True)), errors_in(response.get_data(as_text=True))


def test_a_setup_error_with_no_field_of_its_own_is_listed_above_the_form(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(record: object) -> Game:
        raise RuleErrors([RuleError("teams.1.players.0.name", "a message with no field to sit beside")])

    monkeypatch.setattr(games, "create", refuse)
    response = client.post("/new/whist", data=PARTNERS)
    assert response.status_code == 422
    assert "A message with no field to sit beside" in response.get_data(as_text=True)


def whist_game(client: FlaskClient) -> str:
    return start(client, "whist", PARTNERS)


@pytest.mark.parametrize(
    "data, words",
    [
        ({"trump": "H"}, "Choose the tricks Us took"),
        ({"trump": "H", "tricks": "14"}, "must be between 0 and 13"),
        ({"trump": "Z", "tricks": "6"}, "Choose the trump turned up"),
        ({"trump": "H", "tricks": "6", "honours": "2-4"}, "Choose who held the honours"),
        ({"trump": "H", "tricks": "6", "number": "2"}, "Hand 2 cannot be entered yet"),
    ],
)
def test_whist_messages_are_shown(app: Flask, client: FlaskClient, data: dict[str, str], words: str) -> None:
    token = whist_game(client)
    status, page = post(client, token, **{"action": "result", "number": "1", **data})
    assert status == 422
    assert words in body_text(page), errors_in(page)
    assert hands_of(app, token) == []


def bid_whist_game(client: FlaskClient, **options: str) -> str:
    return start(client, "bid_whist", {**PARTNERS, **{f"opt.{k}": v for k, v in options.items()}})


@pytest.mark.parametrize(
    "calls, words",
    [
        (["9-plain"], "must be from 4 to 7"),
        (["4-plain", "4-plain"], "does not take out"),
        (["4-no", "4-special"], "a bid must outrank the one before it"),
        (["4-plain", "pass", "pass", "pass", "5-plain"], "The bidding is over"),
        (["4-zz"], "Tap a bid or Pass"),
    ],
)
def test_bid_whist_call_messages_are_shown(app: Flask, client: FlaskClient, calls: list[str], words: str) -> None:
    token = bid_whist_game(client)
    for call in calls[:-1]:
        assert post(client, token, action="call", call=call)[0] == 200
    status, page = post(client, token, action="call", call=calls[-1])
    assert status == 422
    assert words in body_text(page), errors_in(page)
    pending = game_of(app, token).pending or {}
    assert len(pending.get("auction", [])) == len(calls) - 1  # the refused call is not kept


def test_bid_whist_result_messages_are_shown(client: FlaskClient) -> None:
    token = bid_whist_game(client)
    for call in ("4-plain", "pass", "pass", "pass"):
        post(client, token, action="call", call=call)
    status, page = post(client, token, action="result", number="1", renege="upheld")
    assert status == 422
    for words in ("Choose the books the bidders took", "Choose the team that reneged", "Choose who called the renege"):
        assert words in body_text(page), errors_in(page)


# --------------------------------------------------------------------------- audit: a resent tap is refused


def state_of(page: str) -> str:
    found = re.search(r'name="state" value="([^"]+)"', page)
    assert found, "the form says which state it was made from"
    return found.group(1)


@pytest.mark.postgresql
def test_a_resent_bid_is_refused_not_given_to_the_next_bidder(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    post(client, token, action="trump", trump="S")
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="bid", bid="1", seat="1", state=state)[0] == 200  # Bob bids 1
    status, page = post(client, token, action="bid", bid="1", seat="1", state=state)  # the same tap again
    assert status == 409 and "Bob's bid of 1 was already recorded; it was not applied twice." in html.unescape(page)
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}
    assert "<strong>Cat</strong>’s bid" in page  # the refused answer shows where the bidding stands
    assert post(client, token, action="bid", bid="0", state=state_of(page))[0] == 200  # Cat, from the fresh form


def test_a_stale_bid_or_trump_says_what_is_recorded_and_what_was_refused(app: Flask, client: FlaskClient) -> None:
    """Issue 14: a second phone's out-of-date screen sent another value; it is not called a repeat."""
    token = start(client)
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="trump", trump="S", state=state)[0] == 200
    status, page = post(client, token, action="trump", trump="H", state=state)
    assert status == 409 and "The trump is recorded as Spades; your choice of Hearts was not applied." in page
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="bid", bid="1", seat="1", state=state)[0] == 200  # Bob bids 1
    status, page = post(client, token, action="bid", bid="2", seat="1", state=state)
    assert status == 409 and "Bob's bid of 1 is recorded; your bid of 2 for Bob was not applied." in html.unescape(page)
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}


@pytest.mark.postgresql
def test_a_resent_take_back_takes_back_one_bid(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1))
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="unbid", state=state)[0] == 200
    status, page = post(client, token, action="unbid", state=state)
    assert status == 409 and "That tap took nothing back." in page
    assert game_of(app, token).pending == {"trump": "S", "bids": [None, 1, None, None]}


@pytest.mark.postgresql
def test_a_resent_call_is_refused(app: Flask, client: FlaskClient) -> None:
    token = bid_whist_game(client)
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert post(client, token, action="call", call="4-plain", position="0", state=state)[0] == 200
    status, page = post(client, token, action="call", call="4-plain", position="0", state=state)
    assert status == 409 and "bid of 4 was already recorded; it was not applied twice." in html.unescape(page)
    # another phone, its screen out of date, sent a different call for the same bidder
    status, page = post(client, token, action="call", call="pass", position="0", state=state)
    assert status == 409 and "bid of 4 is recorded; your pass for" in html.unescape(page)
    assert "not applied twice" not in page
    assert game_of(app, token).pending == {"auction": [{"bid": 4, "kind": "plain"}]}


@pytest.mark.postgresql
def test_a_repeated_undo_does_not_take_back_the_saved_hand(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0, 1))
    post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )
    post(client, token, action="trump", trump="H")
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True).split('class="undo"')[1])
    first = client.post(f"/g/{token}/undo", data={"state": state}, headers=HX)
    assert first.status_code == 200 and game_of(app, token).pending is None
    again = client.post(f"/g/{token}/undo", data={"state": state}, headers=HX)
    assert again.status_code == 409 and "That tap undid nothing." in again.get_data(as_text=True)
    assert len(hands_of(app, token)) == 1


# --------------------------------------------------------------------------- audit: Bid Whist redeal


def test_four_passes_under_the_redeal_option_clear_the_auction(app: Flask, client: FlaskClient) -> None:
    token = bid_whist_game(client, all_pass="redeal")
    for _ in range(3):
        assert post(client, token, action="call", call="pass")[0] == 200
    status, page = post(client, token, action="call", call="pass")
    assert status == 200
    assert "All four passed: the cards are thrown in and Ann deals again." in page
    assert game_of(app, token).pending is None and hands_of(app, token) == []
    assert "Hand 1" in page and 'Dealer</span> <span class="v">Ann' in page
    assert post(client, token, action="call", call="4-plain")[0] == 200  # the new deal's auction


# --------------------------------------------------------------------------- audit: links and exports


def test_the_share_screen_gives_a_short_link_to_the_live_view(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    public_id = game_of(app, token).public_id
    page = client.get(f"/g/{token}/share").get_data(as_text=True)
    found = re.search(r'<figcaption><a href="(http://[^/"]+/s/([a-z0-9]{8}))">\1</a>', page)
    assert found, page
    assert "<svg" in page
    assert f"/w/{public_id}" not in page and 'aria-label="QR code for ' + found.group(1) in page
    response = client.get(f"/s/{found.group(2)}")
    assert response.status_code == 302 and response.headers["Location"] == f"/w/{public_id}"
    assert client.get(f"/s/{found.group(2).upper()}").headers["Location"] == f"/w/{public_id}"  # typed in capitals
    assert client.get("/s/nothing1").status_code == 404


@pytest.mark.postgresql
def test_a_game_made_before_short_links_gets_one_when_shared(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        game.short_code = None
        db.session.commit()
    page = client.get(f"/g/{token}/share").get_data(as_text=True)
    code = game_of(app, token).short_code
    assert code and f"/s/{code}" in page


def test_csv_export_has_bids_and_tricks_per_player(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    _play_both_hands(client, token)
    rows = client.get(f"/w/{game_of(app, token).public_id}/sheet.csv").get_data(as_text=True).splitlines()
    assert rows[0].startswith("Hand,Round,Ann bid,Ann tricks,Ann points,Ann total,Bob bid,Bob tricks")
    # hand 1: bids Ann 1, Bob 1, Cat 1, Dan 0; tricks 1, 1, 0, 2
    assert rows[1].startswith("1,4 cards ♠,1,1,11,11,1,1,11,11,1,0,0,0,0,2,2,2")


def test_csv_export_guards_against_spreadsheet_formulas(app: Flask, client: FlaskClient) -> None:
    names = {"name.0": '=HYPERLINK("http://x")', "name.1": "+Bob", "name.2": "-Cat", "name.3": "@Dan"}
    token = start(client, form=nomination_form(**names))
    text = client.get(f"/w/{game_of(app, token).public_id}/sheet.csv").get_data(as_text=True)
    header = text.splitlines()[0]
    assert header.startswith('Hand,Round,"\'=HYPERLINK(""http://x"") bid"')
    assert "'+Bob bid" in header and "'-Cat bid" in header and "'@Dan bid" in header
    assert "\n1,'=HYPERLINK" in text.replace('"', "")  # the standings' names too


def test_bid_whist_from_start_a_new_game_plays_to_seven(app: Flask, client: FlaskClient) -> None:
    """Issue 14: the home game's first form plays to 7 points; the tournament's rounds stay the
    rules' default, which events and stored records rely on."""
    page = client.get("/new/bid_whist").get_data(as_text=True)
    assert re.search(r'<input type="radio" name="opt.play_to" value="points"\s+checked>', page), page
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points"})
    assert game_of(app, token).options["play_to"] == "points"
