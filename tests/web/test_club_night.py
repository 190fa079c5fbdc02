"""Club nights: each table sets up and scores its own game from its QR code; one ranking across tables.

Scores are worked out by hand with Nomination Whist's rule (/work/shared/RULES-NOTES.md: tricks
won, plus 10 for an exact bid): table 1 plays a 4-card hand then a 1-card hand (the custom
sequence "4, 1"), table 2 a single 4-card hand.
"""

from __future__ import annotations

import re
import time

from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from scorepad.extensions import db
from scorepad.formats.club_night import TableStandings, ranking
from scorepad.games import service as games
from scorepad.models import Event
from tests.slowness import scaled
from tests.web.test_events import HX, field_error, text
from tests.web.test_games import nomination_form


def create(client: FlaskClient, **form: str) -> str:
    data = {"name": "Tuesday Nomination", "variant": "nomination", "tables": "3", **form}
    response = client.post("/events/new/club", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/d/")


def table_tokens(app: Flask, token: str) -> dict[int, str]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        return {t.number: t.token for t in event.tables}


def public_id(app: Flask, token: str) -> str:
    with app.app_context():
        return str(db.session.query(Event).filter_by(director_token=token).one().public_id)


def start_table(client: FlaskClient, table_token: str, names: tuple[str, ...]) -> str:
    """Scan the table's card, fill in the home-game set-up, start: returns the game's scorer token."""
    first = client.get(f"/t/{table_token}")
    assert first.status_code == 303 and first.headers["Location"] == f"/t/{table_token}/setup"
    page = text(client.get(f"/t/{table_token}/setup"))
    assert "Who is playing Nomination Whist at this table?" in page
    form = {**nomination_form(), **{f"name.{i}": n for i, n in enumerate(names)}}
    response = client.post(f"/t/{table_token}/setup", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def enter(app: Flask, scorer: str, hand: dict[str, object]) -> None:
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None
        games.enter_hand(game, len(game.hands) + 1, hand)


def test_bad_set_up_is_refused_beside_each_field(client: FlaskClient, app: Flask) -> None:
    response = client.post("/events/new/club", data={"name": "", "variant": "military", "tables": "0"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_error(page, "name").startswith("Give the evening a name")
    assert field_error(page, "variant").startswith("Choose the game the tables play: Whist, Bid Whist")
    assert field_error(page, "tables") == "A club night has 1 to 64 tables"
    with app.app_context():
        assert db.session.query(Event).count() == 0


def test_tables_set_up_their_own_games_and_the_ranking_spans_them(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    room = text(client.get(f"/d/{token}"))
    assert "Tables · 0 playing" in room and "No game has started yet" in room
    one = start_table(app.test_client(), tokens[1], ("Ann", "Bob", "Cat", "Dan"))
    two = start_table(app.test_client(), tokens[2], ("Eve", "Fay", "Gus", "Hal"))
    # the card now opens the game itself; the game page carries no delete or rematch of its own
    again = client.get(f"/t/{tokens[1]}")
    assert again.status_code == 303 and again.headers["Location"] == f"/g/{one}"
    assert client.post(f"/g/{one}/delete").status_code == 409
    assert client.post(f"/t/{tokens[1]}/setup", data=nomination_form()).status_code == 303  # back to its game

    # table 1, hand 1 (4 cards): bids 1, 2, 0, 0 (3 bid in all: the hook rule only forbids 4),
    # tricks 1, 2, 1, 0 -> Ann 1 + 10, Bob 2 + 10, Cat 1, Dan 0 + 10
    enter(app, one, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
    # table 2, hand 1: bids 2, 1, 0, 0; tricks 2, 1, 0, 1 -> Eve 12, Fay 11, Gus 10, Hal 1
    enter(app, two, {"trump": "S", "bids": [2, 1, 0, 0], "tricks": [2, 1, 0, 1]})
    page = text(client.get(f"/b/{public_id(app, token)}"))
    found = re.findall(
        r'<td class="num rank">(\d+=?)</td><th scope="row" class="team">(\w+)</th> '
        r'<td class="num">(\d)</td><td class="num total">(\d+)</td>',
        page,
    )
    assert found == [
        ("1=", "Bob", "1", "12"),
        ("1=", "Eve", "2", "12"),
        ("3=", "Ann", "1", "11"),
        ("3=", "Fay", "2", "11"),
        ("5=", "Dan", "1", "10"),
        ("5=", "Gus", "2", "10"),
        ("7=", "Cat", "1", "1"),
        ("7=", "Hal", "2", "1"),
    ]
    assert "2 tables playing" in page and "1 of 2 hands" in page

    # the director frees table 2 (confirmed in the page); its game leaves the ranking
    response = client.post(f"/d/{token}/tables/2/clear", headers=HX)
    assert response.status_code == 200 and "Table 2 is free for a new game." in text(response)
    assert client.post(f"/d/{token}/tables/2/clear", headers=HX).status_code == 422
    assert ">Eve<" not in client.get(f"/b/{public_id(app, token)}/standings").get_data(as_text=True)
    assert client.get(f"/t/{tokens[2]}").headers["Location"] == f"/t/{tokens[2]}/setup"


def test_an_entry_at_a_table_reaches_the_club_board_live(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    scorer = start_table(client, tokens[1], ("Ann", "Bob", "Cat", "Dan"))
    with app.app_context():
        channel = f"event:{public_id(app, token)}"
        subscription = live.broker().subscribe(channel, frozenset({"board"}))
    try:
        enter(app, scorer, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
        message = subscription.queue.get(timeout=scaled(3))
        assert message.event == "board" and "Ann" in message.data
    finally:
        with app.app_context():
            live.broker().unsubscribe(subscription)


def test_a_table_link_of_another_event_kind_or_unknown_is_refused(client: FlaskClient, app: Flask) -> None:
    assert client.get("/t/nope/setup").status_code == 404
    token = create(client)
    assert client.get(f"/d/{token}/qr", follow_redirects=True).status_code == 200
    assert client.post(f"/t/{table_tokens(app, token)[1]}/result", data={"hand": "1", "tricks": "7"}).status_code == 404


def test_the_ranking_puts_equal_totals_on_one_rank() -> None:
    rows = ranking(
        [
            TableStandings(2, ("Eve", "Fay"), (12, 30), 3, 13, False),
            TableStandings(1, ("Ann", "Bob"), (30, 5), 13, 13, True),
        ]
    )
    assert [(r.rank, r.tied, r.name, r.total, r.progress) for r in rows] == [
        (1, True, "Ann", 30, "finished"),
        (1, True, "Fay", 30, "3 of 13 hands"),
        (3, False, "Eve", 12, "3 of 13 hands"),
        (4, False, "Bob", 5, "finished"),
    ]


def test_bid_whist_tables_are_ranked_by_points_with_their_rounds_won_beside(client: FlaskClient, app: Flask) -> None:
    """A round of Bid Whist is 4 hands: after two, 8-0 is a lead in points with no round won yet."""
    from tests.web.test_tournament import hand

    token = create(client, variant="bid_whist")
    tokens = table_tokens(app, token)
    form = {
        "team.0": "Us",
        "team.1": "Them",
        "name.0": "Ann",
        "name.1": "Bob",
        "name.2": "Cat",
        "name.3": "Dan",
        "first_dealer": "0",
        "action": "start",
    }
    response = client.post(f"/t/{tokens[1]}/setup", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    scorer = response.headers["Location"].rsplit("/", 1)[1]
    # hand 1: E/W bid 4 and take 5 books, set: N/S (Us) score 4; hand 2: N/S bid 4 and make 10 books: 4 more
    enter(app, scorer, hand(1, 0))
    enter(app, scorer, hand(2, 0))
    page = text(client.get(f"/b/{public_id(app, token)}"))
    found = re.findall(
        r'<td class="num rank">(\d+=?)</td><th scope="row" class="team">(\w+)</th> '
        r'<td class="num">1</td><td class="num total">(\d+)</td><td class="state">[^<]*</td>'
        r'<td class="detail">([^<]*)</td>',
        page,
    )
    assert found == [("1", "Us", "8", "0 rounds won"), ("2", "Them", "0", "0 rounds won")]
    assert "Everyone across the tables, most points first" in page


def test_a_club_nights_ranking_names_no_other_variant(client: FlaskClient, app: Flask) -> None:
    """Issue 32, item 14: a Nomination club night's board once said "(Bid Whist: most points)"."""
    token = create(client)
    start_table(app.test_client(), table_tokens(app, token)[1], ("Ann", "Bob", "Cat", "Dan"))
    for page in (text(client.get(f"/b/{public_id(app, token)}")), text(client.get(f"/d/{token}"))):
        assert "Everyone across the tables, best total first" in page
        assert "Bid Whist: most points" not in page


def test_the_club_night_exports_each_tables_game_record(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    one = start_table(client, tokens[1], ("Ann", "Bob", "Cat", "Dan"))
    enter(app, one, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
    response = client.get(f"/b/{public_id(app, token)}/event.json")
    assert response.status_code == 200
    data = response.get_json()
    assert data["format"] == "club" and data["variant"] == "nomination"
    assert [t["number"] for t in data["tables"]] == [1, 2, 3]
    assert data["tables"][0]["game"]["players"] == ["Ann", "Bob", "Cat", "Dan"]
    assert data["tables"][0]["game"]["hands"] == [{"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]}]
    assert data["tables"][1]["game"] is None
    assert [(r["name"], r["total"]) for r in data["ranking"]][:2] == [("Bob", 12), ("Ann", 11)]
    # a freed table's game stays in the export, set aside
    assert client.post(f"/d/{token}/tables/1/clear", headers=HX).status_code == 200
    data = client.get(f"/b/{public_id(app, token)}/event.json").get_json()
    assert data["tables"][0]["game"] is None and len(data["set_aside"]) == 1


def test_a_bid_whist_club_ranking_counts_points_not_rounds() -> None:
    from scorepad.formats.club_night import ranked_totals

    assert ranked_totals("bid_whist", (0, 0), (8, 0)) == (8, 0)
    assert ranked_totals("nomination", (12, 11), (12, 11)) == (12, 11)
    assert ranked_totals("whist", (1, 0), (3, 5)) == (1, 0)  # Whist: games won, not the points of the game in play


def test_a_tap_that_changes_nothing_on_the_board_wakes_no_board(client: FlaskClient, app: Flask) -> None:
    """Issue 17, item 5: a trump or a bid changes no total, so the boards' screens are not sent the same
    board again; nor are the event's other pages (the rooms, the tables) told of it (issue 28)."""
    token = create(client)
    scorer = start_table(client, table_tokens(app, token)[1], ("Ann", "Bob", "Cat", "Dan"))
    with app.app_context():
        subscription = live.broker().subscribe(f"event:{public_id(app, token)}", frozenset({"board", "changed"}))
    try:
        enter(app, scorer, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})  # a saved hand: told
        heard = {subscription.queue.get(timeout=scaled(3)).event for _ in range(2)}
        assert heard == {"changed", "board"}
        assert client.post(f"/g/{scorer}/entry", data={"action": "trump", "trump": "S"}, headers=HX).status_code == 200
        assert client.post(f"/g/{scorer}/entry", data={"action": "bid", "bid": "0"}, headers=HX).status_code == 200
        time.sleep(0.5)  # past the push window
        assert subscription.queue.empty(), "a tap on the hand in hand was pushed"
    finally:
        with app.app_context():
            live.broker().unsubscribe(subscription)


def whist_form(**extra: str) -> dict[str, str]:
    """Whist in partnerships, one game to 5 points (no rubber): one deal of 13 tricks to 0 ends it."""
    names = {f"name.{i}": n for i, n in enumerate(("Ivy", "Jo", "Kim", "Lou"))}
    return {"team.0": "Aces", "team.1": "Kings", **names, "opt.target": "5", "opt.trumps": "turned", "action": "start"}


def choose_night(client: FlaskClient, ranking: str, variants: tuple[str, ...] = ("nomination", "whist")) -> str:
    return create(client, name="Mixed Tuesday", variant="choose", tables="2", ranking=ranking, variants=list(variants))  # type: ignore[arg-type]


def test_a_night_where_tables_choose_needs_two_games_and_a_ranking(client: FlaskClient, app: Flask) -> None:
    data = {"name": "Mixed", "variant": "choose", "tables": "2", "variants": ["whist"], "ranking": "best"}
    response = client.post("/events/new/club", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_error(page, "variants") == "Tick two games or more for the tables to choose from"
    assert field_error(page, "ranking") == "Choose how the tables of different games are ranked"
    with app.app_context():
        assert db.session.query(Event).count() == 0


def test_each_table_chooses_its_game_and_the_ranking_is_within_each_variant(client: FlaskClient, app: Flask) -> None:
    token = choose_night(client, "variant")
    tokens = table_tokens(app, token)
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert event.options == {"variants": ["whist", "nomination"], "ranking": "variant"}
    chooser = text(client.get(f"/t/{tokens[1]}/setup"))
    assert "Which game does this table play?" in chooser and "Who is playing" not in chooser
    assert f'href="/t/{tokens[1]}/setup?variant=whist"' in chooser and "variant=bid_whist" not in chooser
    refused = client.get(f"/t/{tokens[1]}/setup?variant=bid_whist")
    assert refused.status_code == 422 and "That game is not one of this evening's" in refused.get_data(as_text=True)
    # a game the evening does not offer is refused even when posted straight to the set-up
    assert client.post(f"/t/{tokens[1]}/setup?variant=military", data=nomination_form()).status_code == 422

    form = {**nomination_form(), **{f"name.{i}": n for i, n in enumerate(("Ann", "Bob", "Cat", "Dan"))}}
    assert "Who is playing Nomination Whist" in text(client.get(f"/t/{tokens[1]}/setup?variant=nomination"))
    one = client.post(f"/t/{tokens[1]}/setup?variant=nomination", data=form).headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/t/{tokens[2]}/setup?variant=whist"))
    assert "Who is playing Whist at this table?" in page and "Points for game" in page  # Whist's own options
    two = client.post(f"/t/{tokens[2]}/setup?variant=whist", data=whist_form())
    assert two.status_code == 303, two.get_data(as_text=True)
    two_token = two.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        assert [g.variant for g in (games.by_scorer_token(one), games.by_scorer_token(two_token))] == [
            "nomination",
            "whist",
        ]

    # Nomination (RULES-NOTES: tricks, plus 10 for a bid made): Ann 1+10, Bob 2+10, Cat 1, Dan 0+10
    enter(app, one, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
    # Whist: the Aces take all 13 tricks, 7 odd tricks: game (5 points) and the game is over
    enter(app, two_token, {"tricks": [13, 0], "trump": "H"})
    board = text(client.get(f"/b/{public_id(app, token)}"))
    assert "Ranked within each variant" in board
    sections = re.findall(r'<caption class="ranking-variant">([^<]+)</caption>', board)
    assert sections == ["Nomination Whist", "Whist"]
    found = re.findall(r'<td class="num rank">(\d+=?)</td><th scope="row" class="team">(\w+)</th>', board)
    assert found == [("1", "Bob"), ("2", "Ann"), ("3", "Dan"), ("4", "Cat"), ("1", "Aces"), ("2", "Kings")]
    with app.app_context():
        from scorepad.events import club

        event = db.session.query(Event).filter_by(director_token=token).one()
        club.FORMAT.check(event)  # a backup of it restores: its rows are what such a night leaves
        exported = club.export(event)
        assert exported["variants"] == ["whist", "nomination"] and exported["ranked_by"] == "variant"


def test_a_mixed_nights_titles_list_its_games_as_each_language_does(client: FlaskClient, app: Flask) -> None:
    token = choose_night(client, "variant", variants=("whist", "nomination", "bid_whist"))
    board = f"/b/{public_id(app, token)}"
    for language, title, status in (
        (
            "en",
            "club night: Whist, Bid Whist, and Nomination Whist · control room",
            "Whist, Bid Whist, and Nomination Whist",
        ),
        (
            "fr",
            "soirée de club : Whist, Bid Whist et Nomination Whist · salle de contrôle",
            "Whist, Bid Whist et Nomination Whist",
        ),
        (
            "es",
            "noche de club: Whist, Bid Whist y Nomination Whist · sala de control",
            "Whist, Bid Whist y Nomination Whist",
        ),
    ):
        client.set_cookie("lang", language)
        assert f'Mixed Tuesday <span class="muted">{title}</span></h1>' in text(client.get(f"/d/{token}"))
        assert f'<p class="board-status" role="status">{status} · ' in text(client.get(board))
    single = create(client, name="Plain Tuesday")
    client.set_cookie("lang", "fr")  # one game: its name before the words, as before
    assert '<span class="muted">soirée de club Nomination Whist · salle de contrôle</span>' in text(
        client.get(f"/d/{single}")
    )


def test_a_night_ranked_by_place_score_puts_every_variant_in_one_list(client: FlaskClient, app: Flask) -> None:
    token = choose_night(client, "place")
    tokens = table_tokens(app, token)
    form = {**nomination_form(), **{f"name.{i}": n for i, n in enumerate(("Ann", "Bob", "Cat", "Dan"))}}
    one = client.post(f"/t/{tokens[1]}/setup?variant=nomination", data=form).headers["Location"].rsplit("/", 1)[1]
    two = client.post(f"/t/{tokens[2]}/setup?variant=whist", data=whist_form()).headers["Location"].rsplit("/", 1)[1]
    enter(app, one, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
    with app.app_context():
        subscription = live.broker().subscribe(f"event:{public_id(app, token)}", frozenset({"board"}))
    try:
        enter(app, two, {"tricks": [13, 0], "trump": "H"})
        pushed = subscription.queue.get(timeout=scaled(3))  # the screens get the place scores live
        assert "Ranked by place score across variants" in pushed.data and "66.7%" in pushed.data
    finally:
        with app.app_context():
            live.broker().unsubscribe(subscription)
    standings = text(client.get(f"/b/{public_id(app, token)}/standings"))
    assert "Ranked by place score across variants" in standings
    # Nomination's 4 players: Bob beats 3 of 3 (100%), Ann 2 (66.7%), Dan 1 (33.3%), Cat 0;
    # Whist's 2 teams: the Aces beat the Kings (100%)
    found = re.findall(
        r'<td class="num rank">(\d+=?)</td><th scope="row" class="team">(\w+)</th> '
        r'<td class="num">\d</td><td class="num total">([\d.]+%)</td><td>([\w ]+)</td>',
        standings,
    )
    assert found == [
        ("1=", "Bob", "100%", "Nomination Whist"),
        ("1=", "Aces", "100%", "Whist"),
        ("3", "Ann", "66.7%", "Nomination Whist"),
        ("4", "Dan", "33.3%", "Nomination Whist"),
        ("5=", "Cat", "0%", "Nomination Whist"),
        ("5=", "Kings", "0%", "Whist"),
    ]
    french = text(client.get(f"/b/{public_id(app, token)}/standings", headers={"Accept-Language": "fr"}))
    assert "66,7" in french and "Ranked by" not in french
