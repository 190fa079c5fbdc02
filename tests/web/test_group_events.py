"""An event's games kept in a group (issue 15: events feed the same history): a club night's
tables' games and a Bid Whist tournament's matches (not a bye's), matched to the group's players
by name; the event's own rows untouched; bad links said beside the field."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorepad.events import in_group
from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import Event, EventMatch, Game, GameSeat, GroupPlayer, KeptGame
from tests.web import test_club_night as club
from tests.web import test_events as military
from tests.web.test_columns import dump
from tests.web.test_groups import beside, make_group, people, text
from tests.web.test_tournament import play, start_nine


def club_night(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    """A club night of three tables, two playing: (the director's token, the games' scorer tokens)."""
    token = club.create(client)
    tables = club.table_tokens(app, token)
    scorers = [
        club.start_table(client, tables[1], ("Ann", "Bob", "Cat", "Dan")),
        club.start_table(client, tables[2], ("ann", "Eve", "Player 3", "Fay")),
    ]
    return token, scorers


def kept(app: Flask, token: str) -> int:
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        return int(db.session.scalar(select(func.count()).select_from(KeptGame).where(KeptGame.group_id == group.id)))


def add(client: FlaskClient, token: str, link: str) -> str:
    response = client.post(f"/group/{token}/event", data={"event": link})
    assert response.status_code == 303, text(response)
    return text(client.get(response.headers["Location"]))


def without_groups(rows: dict[str, list[str]]) -> dict[str, list[str]]:
    return {t: r for t, r in rows.items() if t not in ("group_game", "game_seat", "group_player", "player_group")}


@pytest.mark.postgresql
def test_a_club_nights_games_join_the_group_once_and_the_event_is_unchanged(app: Flask, client: FlaskClient) -> None:
    director, scorers = club_night(client, app)
    token = make_group(client)
    page = text(client.get(f"/group/{token}"))
    assert f'href="/group/{token}/event">Add an event\'s games</a>' in page
    before = dump(app)
    page = add(client, token, f"https://scorepad.example/d/{director}")
    assert "2 games of “Tuesday Nomination” kept." in page
    assert without_groups(dump(app)) == without_groups(before)  # the event and its games as they were
    assert sorted(people(app, token)) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]  # "ann" is Ann; "Player 3" nobody
    assert kept(app, token) == 2
    with app.app_context():
        ann = db.session.scalars(select(GroupPlayer).where(GroupPlayer.name == "Ann")).one()
        assert db.session.scalar(select(func.count()).select_from(GameSeat).where(GameSeat.player_id == ann.id)) == 2
    # Keeping again adds nothing; another group leaves them where they are and says so.
    again = dump(app)
    assert "0 games of “Tuesday Nomination” kept, 2 games already in this group." in add(client, token, director)
    assert dump(app) == again
    other = make_group(client, "Tuesday club")
    with app.app_context():  # the director's short code, as typed from their card
        code = db.session.scalars(select(Event.director_code).where(Event.director_token == director)).one()
    page = add(client, other, f" {code.upper()} ")
    assert (
        "0 games of “Tuesday Nomination” kept, 2 games already in another group (“Sunday at Gran's”), left there."
        in page
    )
    assert kept(app, other) == 0 and people(app, other) == {}


def test_a_new_tables_game_comes_in_later_and_a_set_aside_one_does_not(app: Flask, client: FlaskClient) -> None:
    token = club.create(client)
    tables = club.table_tokens(app, token)
    club.start_table(client, tables[1], ("Ann", "Bob", "Cat", "Dan"))
    group = make_group(client)
    add(client, group, token)
    club.start_table(client, tables[2], ("Gran", "Eve", "Fay", "Gus"))
    assert "1 game of “Tuesday Nomination” kept, 1 game already in this group." in add(client, group, f"/d/{token}")
    with app.app_context():  # a game the director set aside is not one the evening played
        event = db.session.scalars(select(Event).where(Event.director_token == token)).one()
        event.tables[0].game_id = None
        db.session.commit()
        assert len(in_group.played_games(event)) == 1


def test_a_bid_whist_tournaments_matches_come_in_but_not_a_bye(app: Flask, client: FlaskClient) -> None:
    token = start_nine(client, app)
    with app.app_context():
        event = db.session.scalars(select(Event).where(Event.director_token == token)).one()
        matches = db.session.scalars(select(EventMatch).where(EventMatch.event_id == event.id)).all()
        played = [m for m in matches if m.game_id and 0 not in (m.home, m.away)]
        assert played and len(played) < len(matches)  # nine teams: one has a bye
        first = played[0].game
        assert first is not None
        scorer, winners = first.scorer_token, first.teams[0]["players"]
    play(app, scorer, 0)  # one match played to its end: the group's season counts it for its winners
    group = make_group(client)
    page = add(client, group, token)
    assert f"{len(played)} games of “Senior Olympics Bid Whist” kept." in page
    assert "1 finished game." in page
    season = page.split('id="season-h"', 1)[1].split("</section>", 1)[0]
    assert all(name in season for name in winners)
    names = people(app, group)
    assert {"P1a", "P1b", "P8a"} <= set(names) and not [n for n in names if "Ghost" in n or "Stand-in" in n]
    with app.app_context():  # each team's two players, one column each side
        one = db.session.get(Game, played[0].game_id)
        assert one is not None
        assert [
            c
            for (c,) in db.session.execute(
                select(GameSeat.sheet_column).where(GameSeat.game_id == one.id).order_by(GameSeat.sheet_column)
            )
        ] == [0, 0, 1, 1]


@pytest.mark.parametrize(
    ("sent", "status", "message"),
    [
        ("", 422, "Paste the director's link of the event"),
        ("  ", 422, "Paste the director's link of the event"),
        ("x" * 301, 422, "That is too long for a director's link: at most 300 characters."),
        ("https://scorepad.example/d/not-an-event", 404, "There is no event with this director's link or code."),
        ("https://scorepad.example/d/" + "y" * 49, 404, "There is no event with this director's link or code."),
    ],
)
def test_a_bad_board_link_is_said_beside_the_field(
    app: Flask, client: FlaskClient, sent: str, status: int, message: str
) -> None:
    token = make_group(client)
    before = dump(app)
    response = client.post(f"/group/{token}/event", data={"event": sent})
    assert response.status_code == status
    assert beside(text(response), "event").startswith(message)
    assert dump(app) == before


def test_a_military_event_has_no_games_to_keep(app: Flask, client: FlaskClient) -> None:
    director = military.create(client)
    token = make_group(client)
    response = client.post(f"/group/{token}/event", data={"event": director})
    assert response.status_code == 422
    assert "keeps its results by table and hand, not a score sheet per player" in beside(text(response), "event")


def test_a_board_link_is_refused_only_the_director_decides(app: Flask, client: FlaskClient) -> None:
    """The board's link is public: anyone could otherwise take an evening's games into a group of
    theirs, where they would stay (a game is kept in one group)."""
    director, _ = club_night(client, app)
    with app.app_context():
        public = db.session.scalars(select(Event.public_id).where(Event.director_token == director)).one()
    token = make_group(client)
    before = dump(app)
    response = client.post(f"/group/{token}/event", data={"event": f"https://scorepad.example/b/{public}"})
    assert response.status_code == 422
    assert beside(text(response), "event").startswith("That is the event's board link, which every player has")
    response = client.post(f"/group/{token}/event", data={"event": public})  # the board's id alone is no key either
    assert response.status_code == 404
    assert dump(app) == before


def test_the_page_is_the_groups_own(client: FlaskClient) -> None:
    token = make_group(client)
    page = text(client.get(f"/group/{token}/event"))
    assert "<h1>Add an event's games</h1>" in page and 'name="event"' in page
    assert client.get("/group/nope/event").status_code == 404
    assert client.post("/group/nope/event", data={"event": "x"}).status_code == 404


@pytest.mark.postgresql
def test_another_group_keeping_a_game_at_the_same_moment_is_a_409_and_nothing_half_kept(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two groups adding the same evening at once: the game's unique key keeps the first; the second
    request writes nothing (one commit) and is told to look again."""
    director, _ = club_night(client, app)
    token, other = make_group(client), make_group(client, "Tuesday club")
    with app.app_context():
        other_id = groups.by_token(other).id  # type: ignore[union-attr]
    original = groups._keep_rows

    def raced(group: object, game: Game) -> None:  # another worker keeps the first game just before this one
        with db.engine.begin() as connection:
            connection.execute(KeptGame.__table__.insert().values(group_id=other_id, game_id=game.id))
        monkeypatch.setattr(groups, "_keep_rows", original)
        original(group, game)  # type: ignore[arg-type]

    monkeypatch.setattr(groups, "_keep_rows", raced)
    response = client.post(f"/group/{token}/event", data={"event": director})
    assert response.status_code == 409
    assert kept(app, token) == 0 and people(app, token) == {} and kept(app, other) == 1
    assert "1 game of “Tuesday Nomination” kept, 1 game already in another group (“Tuesday club”), left there." in add(
        client, token, director
    )
