"""Issue 15, groups: a family's games and players kept together behind a secret link. Starting a
group (home page, a game), starting games in it, moving a game in and out, renaming and merging
players (the history follows, the game's own sheet stays as typed), and every refusal: a message
beside the field and a 4xx, nothing changed."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import GameSeat, Group, GroupPlayer, Hand, KeptGame
from tests.web.test_columns import dump
from tests.web.test_games import PARTNERS, _play_both_hands, game_of, nomination_form, start


def make_group(client: FlaskClient, name: str = "Sunday at Gran's") -> str:
    response = client.post("/groups/new", data={"name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def beside(page: str, key: str) -> str:
    found = re.search(rf'id="err-{re.escape(key)}" role="alert">([^<]*)<', page)
    assert found, f"no message beside {key}"
    return found.group(1).strip()


def people(app: Flask, token: str) -> dict[str, int]:
    """The group's players: name -> id."""
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        return {p.name: p.id for p in groups.players(group)}


def seats(app: Flask, scorer: str) -> list[tuple[int, str]]:
    """(column, player's name now) for each link of a game."""
    with app.app_context():
        game = game_of(app, scorer)
        rows = db.session.execute(
            select(GameSeat.sheet_column, GroupPlayer.name)
            .join(GroupPlayer)
            .where(GameSeat.game_id == game.id)
            .order_by(GameSeat.sheet_column, GameSeat.id)
        )
        return [tuple(r) for r in rows]  # type: ignore[misc]


def group_of(app: Flask, scorer: str) -> str | None:
    with app.app_context():
        found = groups.group_of(game_of(app, scorer))
        return found.token if found else None


def in_group(token: str, names: tuple[str, ...] = ("Ann", "Bob", "Cat", "Gran")) -> dict[str, str]:
    """A Nomination game of these players, started in the group."""
    form = {k: v for k, v in nomination_form(group=token).items() if not k.startswith("name.")}
    return {**form, **{f"name.{i}": n for i, n in enumerate(names)}}


# --------------------------------------------------------------------------- starting a group


def test_a_group_started_from_the_home_page_is_listed_there_with_its_link_and_qr(
    app: Flask, client: FlaskClient
) -> None:
    home = text(client.get("/"))
    assert "Your groups" in home and "A group keeps a family's" in home
    assert 'value="Our games"' in home  # one tap: the name is filled in
    token = make_group(client)
    page = text(client.get(f"/group/{token}"))
    assert "<h1>Sunday at Gran's</h1>" in page
    assert "No players yet." in page and "No games in this group yet." in page
    assert f"/group/{token}</a>" in page and 'aria-label="QR code for http' in page
    assert f'href="/new?group={token}"' in page
    home = client.get("/")
    assert f'href="/group/{token}"' in text(home) and home.headers["Cache-Control"] == "no-store"
    assert client.get("/").headers.get("Cache-Control") == "no-store"
    other_browser = app.test_client()
    assert f"/group/{token}" not in text(other_browser.get("/"))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "The group needs a name."),
        ("   ", "The group needs a name."),
        ("x" * 61, "The group's name is too long: at most 60 characters."),
    ],
)
def test_a_group_needs_a_name_of_at_most_60_characters(
    app: Flask, client: FlaskClient, name: str, message: str
) -> None:
    before = dump(app)
    response = client.post("/groups/new", data={"name": name})
    assert response.status_code == 422
    assert beside(text(response), "name") == message
    assert dump(app) == before


def test_an_unknown_group_link_is_a_404_everywhere(client: FlaskClient) -> None:
    for url in (
        "/group/nope",
        "/group/" + "x" * 500,
        "/new?group=nope",
        "/new/nomination?group=nope",
        "/group/nope/players/1/merge",
    ):
        assert client.get(url).status_code == 404, url
    assert "There is no group at this link" in text(client.get("/group/nope"))
    for url in ("/group/nope/name", "/group/nope/players/1/name", "/group/nope/players/1/merge"):
        assert client.post(url, data={"name": "X", "into": "1"}).status_code == 404, url
    assert client.post("/new/nomination", data=in_group("nope")).status_code == 404


# --------------------------------------------------------------------------- games in the group


def test_a_game_started_from_the_group_is_kept_in_it_with_its_players(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    assert "Sunday at Gran's" in text(client.get(f"/new?group={token}"))
    assert f"/new/whist?group={token}" in text(client.get(f"/new?group={token}"))
    form = text(client.get(f"/new/nomination?group={token}"))
    assert f'name="group" value="{token}"' in form and "data-fill-name" not in form  # nobody yet
    scorer = start(client, form=in_group(token))
    assert group_of(app, scorer) == token
    assert seats(app, scorer) == [(0, "Ann"), (1, "Bob"), (2, "Cat"), (3, "Gran")]
    form = text(client.get(f"/new/nomination?group={token}"))
    assert re.findall(r'data-fill-name="([^"]+)"', form) == ["Ann", "Bob", "Cat", "Gran"]
    assert "Same players as last time: Ann, Bob, Cat, Gran" in form
    # "Same players as last time" fills the form, then the game starts with them, linked to the same people
    filled = text(
        client.post(
            "/new/nomination", data={"group": token, "name.0": "", "name.1": "", "name.2": "", "action": "lineup"}
        )
    )
    assert [re.search(rf'name="name.{i}" value="([^"]*)"', filled).group(1) for i in range(4)] == [  # type: ignore[union-attr]
        "Ann",
        "Bob",
        "Cat",
        "Gran",
    ]
    second = start(client, form=in_group(token, ("ann", "BOB", "Cat", "Dan")))  # any case is the same person
    assert seats(app, second) == [(0, "Ann"), (1, "Bob"), (2, "Cat"), (3, "Dan")]
    assert sorted(people(app, token)) == ["Ann", "Bob", "Cat", "Dan", "Gran"]
    page = text(client.get(f"/group/{token}"))
    assert page.index("Ann, Bob, Cat, Dan") < page.index("Ann, Bob, Cat, Gran")  # newest first
    assert "In progress · 0 hands played" in page


def test_a_game_without_a_group_offers_recent_names_as_before(client: FlaskClient) -> None:
    start(client)
    form = text(client.get("/new/nomination"))
    assert "Recent names:" in form and 'name="group"' not in form and "Same players" not in form


def test_partnerships_link_the_named_players_or_a_named_team_but_not_us_and_them(
    app: Flask, client: FlaskClient
) -> None:
    token = make_group(client)
    named = start(client, "whist", {**PARTNERS, "group": token, "action": "start"})
    assert seats(app, named) == [(0, "Ann"), (0, "Cat"), (1, "Bob"), (1, "Dan")]
    sides = start(
        client, "whist", {"team.0": "Boys", "team.1": "Them", "first_dealer": "0", "group": token, "action": "start"}
    )
    assert seats(app, sides) == [(0, "Boys")]  # "Them" is the form's own word: nobody
    form = text(client.get(f"/new/whist?group={token}"))
    assert "Same players as last time: Boys" in form
    filled = text(client.post("/new/whist", data={"group": token, "action": "lineup"}))
    assert 'name="team.0" value="Boys"' in filled and 'name="team.1" value="Them"' in filled


def test_a_finished_game_is_kept_in_a_new_group_in_one_tap_and_a_second_tap_makes_no_second_group(
    app: Flask, client: FlaskClient
) -> None:
    scorer = start(client)
    _play_both_hands(client, scorer)
    page = text(client.get(f"/g/{scorer}"))
    assert "Keep this game in a group" in page
    one_tap = {"name": re.search(r'name="name" value="([^"]+)"', page).group(1)}  # type: ignore[union-attr]
    assert one_tap == {"name": "Ann, Bob, Cat & Dan"}
    first = client.post(f"/g/{scorer}/group/new", data=one_tap)
    assert first.status_code == 303
    token = first.headers["Location"].rsplit("/", 1)[1]
    again = client.post(f"/g/{scorer}/group/new", data=one_tap)
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Group.id))) == 1
    assert sorted(people(app, token)) == ["Ann", "Bob", "Cat", "Dan"]
    page = text(client.get(f"/group/{token}"))
    assert "“Ann, Bob, Cat & Dan” keeps this game and its players." in page
    assert "Ann, Bob, Cat, Dan" in page and "Won by Bob" in page  # the rules' sheet: "Bob wins with 21"
    bob = people(app, token)["Bob"]
    client.post(f"/group/{token}/players/{bob}/name", data={"name": "Robert"})
    assert "Won by Robert" in text(client.get(f"/group/{token}"))  # the winner as the group calls him now
    assert "Kept in" in text(client.get(f"/g/{scorer}"))
    assert client.post(f"/g/{scorer}/group/new", data={"name": ""}).status_code == 303  # already kept: no error


def test_a_new_group_from_a_game_checks_its_name(app: Flask, client: FlaskClient) -> None:
    scorer = start(client)
    before = dump(app)
    response = client.post(f"/g/{scorer}/group/new", data={"name": " "})
    assert response.status_code == 422
    assert beside(text(response), "new-name") == "The group needs a name."
    assert dump(app) == before


def test_a_game_moves_into_a_group_matched_by_name_and_out_again(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    start(client, form=in_group(token))
    scorer = start(client, form=nomination_form(**{"name.0": "ANN", "name.3": "Eve"}))  # Ann, Bob, Cat, Eve
    page = text(client.get(f"/g/{scorer}/group"))
    assert "Keep it in Sunday at Gran's" in page  # this browser's group, one tap
    link = f"http://192.0.2.2:5000/group/{token}"  # the link as sent: its token is found in it
    response = client.post(f"/g/{scorer}/group/keep", data={"group": link})
    assert response.status_code == 303 and response.headers["Location"] == f"/group/{token}"
    assert seats(app, scorer) == [(0, "Ann"), (1, "Bob"), (2, "Cat"), (3, "Eve")]
    assert client.post(f"/g/{scorer}/group/keep", data={"group": token}).status_code == 303  # sent twice: no change
    assert len(seats(app, scorer)) == 4
    assert "In the group Sunday at Gran's" in text(client.get(f"/g/{scorer}"))
    out = client.post(f"/g/{scorer}/group/out")
    assert out.status_code == 303
    assert group_of(app, scorer) is None and seats(app, scorer) == []
    assert "Eve" in people(app, token)  # the players stay
    assert "is no longer in" in text(client.get(out.headers["Location"]))
    assert client.post(f"/g/{scorer}/group/out").status_code == 303  # again: nothing to do, said
    assert client.post(f"/g/{scorer}/group/keep", data={"group": token}).status_code == 303  # and in again
    assert group_of(app, scorer) == token


@pytest.mark.parametrize(
    ("sent", "status", "message"),
    [
        ("", 422, "Paste the group's link (or choose one of your groups)."),
        ("http://192.0.2.2:5000/group/not-a-group", 404, "There is no group at this link."),
    ],
)
def test_a_bad_group_link_is_said_beside_the_field(
    app: Flask, client: FlaskClient, sent: str, status: int, message: str
) -> None:
    scorer = start(client)
    before = dump(app)
    response = client.post(f"/g/{scorer}/group/keep", data={"group": sent})
    assert response.status_code == status
    assert beside(text(response), "group-link").startswith(message)
    assert dump(app) == before


def test_a_game_of_another_group_must_leave_it_first(app: Flask, client: FlaskClient) -> None:
    first, second = make_group(client, "Family"), make_group(client, "Club")
    scorer = start(client, form=in_group(first))
    before = dump(app)
    response = client.post(f"/g/{scorer}/group/keep", data={"group": second})
    assert response.status_code == 409
    assert beside(text(response), "group") == "This game is already kept in “Family”. Take it out of that group first."
    assert dump(app) == before
    with app.app_context():
        with pytest.raises(Exception, match="already kept"):
            groups.create("Another", game_of(app, scorer))


def test_an_events_game_stays_with_the_event(app: Flask, client: FlaskClient) -> None:
    from tests.web.test_columns import _playing_match

    scorer = _playing_match(client, app)["scorer"]
    token = make_group(client)
    assert "it stays with the event" in text(client.get(f"/g/{scorer}/group"))
    response = client.post(f"/g/{scorer}/group/keep", data={"group": token})
    assert response.status_code == 409 and "part of an event" in text(response)
    assert client.post(f"/g/{scorer}/group/new", data={"name": "X"}).status_code == 422
    assert group_of(app, scorer) is None


def test_a_rematch_stays_in_the_group(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    scorer = start(client, form=in_group(token))
    _play_both_hands(client, scorer)
    new = client.post(f"/g/{scorer}/rematch").headers["Location"].rsplit("/", 1)[1]
    assert group_of(app, new) == token and seats(app, new) == seats(app, scorer)


def test_deleting_a_game_takes_it_out_of_the_group(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    scorer = start(client, form=in_group(token))
    assert client.post(f"/g/{scorer}/delete").status_code == 303
    with app.app_context():
        assert db.session.scalars(select(KeptGame)).all() == [] and db.session.scalars(select(GameSeat)).all() == []
    assert "No games in this group yet." in text(client.get(f"/group/{token}"))


# --------------------------------------------------------------------------- renaming and merging


def test_renaming_a_player_renames_them_in_the_groups_history_not_in_the_games_sheet(
    app: Flask, client: FlaskClient
) -> None:
    token = make_group(client)
    scorer = start(client, form=in_group(token))
    gran = people(app, token)["Gran"]
    response = client.post(f"/group/{token}/players/{gran}/name", data={"name": "  Grandma  "})
    assert response.status_code == 303
    page = text(client.get(f"/group/{token}"))
    assert "Gran is now called Grandma in all the group's games." in page
    assert "Ann, Bob, Cat, Grandma" in page
    assert game_of(app, scorer).players == ["Ann", "Bob", "Cat", "Gran"]  # the sheet as typed
    assert "Same players as last time: Ann, Bob, Cat, Grandma" in text(client.get(f"/new/nomination?group={token}"))
    assert client.post(f"/group/{token}/players/{gran}/name", data={"name": "grandma"}).status_code == 303  # its case


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "The player needs a name."),
        ("x" * 41, "The player's name is too long: at most 40 characters."),
        ("ann", "“Ann” is already a player of this group. To make them one person, merge them."),
    ],
)
def test_a_player_name_is_checked_beside_the_field(app: Flask, client: FlaskClient, name: str, message: str) -> None:
    token = make_group(client)
    start(client, form=in_group(token))
    gran = people(app, token)["Gran"]
    before = dump(app)
    response = client.post(f"/group/{token}/players/{gran}/name", data={"name": name})
    assert response.status_code == 422
    assert beside(text(response), f"players-{gran}") == message
    assert dump(app) == before


def test_merging_two_spellings_asks_first_then_keeps_the_old_one_as_an_alias(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    first = start(client, form=in_group(token))  # Ann, Bob, Cat, Gran
    second = start(client, form=in_group(token, ("Ann", "Bob", "Granny")))
    ids = people(app, token)
    choose = text(client.get(f"/group/{token}/players/{ids['Granny']}/merge"))
    assert "Granny is the same person as…" in choose and f'value="{ids["Gran"]}"' in choose
    confirm = client.get(f"/group/{token}/players/{ids['Granny']}/merge?into={ids['Gran']}")
    assert confirm.status_code == 200
    page = text(confirm)
    assert "Merge Granny into Gran?" in page and "Granny's 1 game counts for Gran (who has 1 now)" in page
    assert "Granny" in people(app, token)  # asking changed nothing
    response = client.post(f"/group/{token}/players/{ids['Granny']}/merge", data={"into": str(ids["Gran"])})
    assert response.status_code == 303
    assert sorted(people(app, token)) == ["Ann", "Bob", "Cat", "Gran"]
    assert seats(app, second) == [(0, "Ann"), (1, "Bob"), (2, "Gran")]
    assert seats(app, first)[3] == (3, "Gran")
    page = text(client.get(f"/group/{token}"))
    assert "Granny and Gran are one player now: Gran." in page and "Also typed as: Granny" in page
    assert "Ann, Bob, Gran" in page
    again = client.post(f"/group/{token}/players/{ids['Granny']}/merge", data={"into": str(ids["Gran"])})
    assert again.status_code == 303  # a second tap on the confirmation
    assert "already merged" in text(client.get(again.headers["Location"]))
    third = start(client, form=in_group(token, ("GRANNY", "Ann", "Bob")))  # the alias links to Gran
    assert seats(app, third) == [(0, "Gran"), (1, "Ann"), (2, "Bob")]
    assert "Granny" not in people(app, token)
    assert client.get(f"/group/{token}/players/{ids['Granny']}/merge").status_code == 404  # merged away


def test_a_merged_spelling_can_become_the_name_but_not_another_players(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    start(client, form=in_group(token))
    start(client, form=in_group(token, ("Ann", "Bob", "Granny")))
    ids = people(app, token)
    client.post(f"/group/{token}/players/{ids['Granny']}/merge", data={"into": str(ids["Gran"])})
    refused = client.post(f"/group/{token}/players/{ids['Ann']}/name", data={"name": "granny"})
    assert refused.status_code == 422
    assert beside(text(refused), f"players-{ids['Ann']}") == (
        "“Granny” is another name of Gran in this group. To make them one person, merge them."
    )
    assert client.post(f"/group/{token}/players/{ids['Gran']}/name", data={"name": "Granny"}).status_code == 303
    assert "Granny" in people(app, token) and "Also typed as" not in text(client.get(f"/group/{token}"))


def test_a_player_is_not_merged_into_themselves_nor_with_someone_they_played_against(
    app: Flask, client: FlaskClient
) -> None:
    token = make_group(client)
    start(client, form=in_group(token))
    ids = people(app, token)
    url = f"/group/{token}/players/{ids['Gran']}/merge"
    before = dump(app)
    nothing_chosen = client.get(f"{url}?chosen=1")  # the choice sent with no player ticked
    assert nothing_chosen.status_code == 422
    assert beside(text(nothing_chosen), "into") == "Choose the player Gran is the same person as."
    for into, message in (
        (ids["Gran"], "Choose another player: Gran cannot be merged into themselves."),
        ("", "Choose the player Gran is the same person as."),
        ("99999999999", "Choose the player Gran is the same person as."),
    ):
        for response in (client.get(f"{url}?into={into}"), client.post(url, data={"into": str(into)})):
            assert response.status_code == 422
            assert beside(text(response), "into") == message
    for response in (client.get(f"{url}?into={ids['Ann']}"), client.post(url, data={"into": str(ids["Ann"])})):
        assert response.status_code == 422
        assert "Gran and Ann played in the same game" in beside(text(response), "into")
    assert dump(app) == before


def test_a_player_of_another_group_is_not_found_in_this_one(app: Flask, client: FlaskClient) -> None:
    family, club = make_group(client, "Family"), make_group(client, "Club")
    start(client, form=in_group(family))
    start(client, form=in_group(club, ("Zed", "Yan", "Xia")))
    ann, zed = people(app, family)["Ann"], people(app, club)["Zed"]
    before = dump(app)
    assert client.post(f"/group/{club}/players/{ann}/name", data={"name": "Annie"}).status_code == 404
    assert client.get(f"/group/{club}/players/{ann}/merge").status_code == 404
    response = client.post(f"/group/{club}/players/{zed}/merge", data={"into": str(ann)})
    assert response.status_code == 422 and "Choose the player Zed" in text(response)
    assert client.post(f"/group/{club}/players/{2**40}/name", data={"name": "X"}).status_code == 404
    assert dump(app) == before


def test_renaming_the_group(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    assert client.post(f"/group/{token}/name", data={"name": "The Tuesday club"}).status_code == 303
    assert "<h1>The Tuesday club</h1>" in text(client.get(f"/group/{token}"))
    response = client.post(f"/group/{token}/name", data={"name": ""})
    assert response.status_code == 422 and beside(text(response), "group-name") == "The group needs a name."


# --------------------------------------------------------------------------- what statistics read


def test_games_of_gives_each_game_as_statistics_read_it(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    done = start(client, form=in_group(token, ("Ann", "Bob", "Cat", "Player 4")))
    _play_both_hands(client, done)
    playing = start(client, form=in_group(token))
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        ids = {p.name: p.id for p in groups.players(group)}
        newest, oldest = groups.games_of(group)
        assert newest.game.scorer_token == playing and newest.finished_at is None and newest.hands == ()
        assert oldest.variant == "nomination" and oldest.sheet.finished and len(oldest.hands) == 2
        assert oldest.setup.players == ("Ann", "Bob", "Cat", "Player 4")
        assert oldest.players == ((ids["Ann"],), (ids["Bob"],), (ids["Cat"],), ())  # "Player 4" is nobody
        last = db.session.scalars(select(Hand.entered_at).where(Hand.game_id == oldest.game.id, Hand.number == 2)).one()
        assert oldest.finished_at == last
        assert oldest.sheet == groups.games.sheet_of(oldest.game)  # the rules' own derivation
        assert groups.labels(oldest, {v: k for k, v in ids.items()}) == ("Ann", "Bob", "Cat", "Player 4")


# --------------------------------------------------------------------------- the database holds it


@pytest.mark.postgresql
def test_a_name_is_one_player_per_group_whatever_its_case_and_a_game_is_in_one_group(
    app: Flask, client: FlaskClient
) -> None:
    token, other = make_group(client), make_group(client, "Club")
    scorer = start(client, form=in_group(token))
    start(client, form=in_group(other))  # the same names in another group: other people
    with app.app_context():
        group, club = groups.by_token(token), groups.by_token(other)
        assert group is not None and club is not None
        assert len(groups.players(club)) == 4
        db.session.add(GroupPlayer(group_id=group.id, name="ANN", key=groups.key_of("ANN")))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
        db.session.add(KeptGame(group_id=club.id, game_id=game_of(app, scorer).id))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
    client.post(f"/group/{token}/players/{people(app, token)['Ann']}/name", data={"name": "Ännchen"})
    assert "Ännchen" in people(app, token)
