"""A club's roster at its events (issue 30, item 2): an event linked to a group with the group's
link or code; its registration offers the members and makes a new name a member, asking first
about a name close to a member's; a member's page lists their events by season; a restored backup
joins a club on request."""

from __future__ import annotations

import io
from datetime import datetime
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorepad.events import club_history, roster
from scorepad.events import results as event_results
from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import ClubEvent, Event, GroupPlayer
from tests.web.test_backup import EVENTS, download, token_of
from tests.web.test_club_night import create as create_club_night
from tests.web.test_club_night import table_tokens
from tests.web.test_events import HX, field_error, text
from tests.web.test_events import create as create_military
from tests.web.test_groups import make_group
from tests.web.test_tournament_registration import create, entrants, register
from tests.web.test_whist_drive import create as create_drive


def members(app: Flask, token: str) -> list[str]:
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        return roster.members(group)


def club_event(
    client: FlaskClient, app: Flask, names: tuple[str, ...] = ("Zoé Martin", "John Smith")
) -> tuple[str, str]:
    """A tournament linked to a club whose members are `names`: (the director's token, the group's)."""
    group = make_group(client, "Tuesday Club")
    with app.app_context():
        found = groups.by_token(group)
        assert found is not None
        for name in names:
            db.session.add(GroupPlayer(group_id=found.id, name=name, key=groups.key_of(name)))
        db.session.commit()
    token = create(client)
    response = client.post(f"/d/{token}/club", data={"club": f"http://localhost/group/{group}"})
    assert response.status_code == 303
    return token, group


def test_an_event_is_linked_to_a_club_by_its_link_or_code_and_offers_its_members(
    client: FlaskClient, app: Flask
) -> None:
    token, group = club_event(client, app)
    room = text(client.get(f"/d/{token}"))
    assert "Players come from the roster of “Tuesday Club” (2 members)" in room
    assert (
        '<datalist id="club-members"><option value="John Smith"></option><option value="Zoé Martin"></option>' in room
    )
    assert 'id="rg-p1" name="player1" list="club-members"' in room
    # off the roster, then back by the group's code (any case, dashes)
    assert client.post(f"/d/{token}/club", data={"unlink": "1"}).status_code == 303
    assert "club-members" not in text(client.get(f"/d/{token}"))
    with app.app_context():
        found = groups.by_token(group)
        assert found is not None and found.short_code
        code = found.short_code.upper()
    assert client.post(f"/d/{token}/club", data={"club": f"{code[:5]}-{code[5:]}"}).status_code == 303
    assert "club-members" in text(client.get(f"/d/{token}"))


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Paste the club's group link, or type its code."),
        ("http://localhost/group/notagroup", "No group has this link or code."),
        ("x" * 301, "That is too long for a group's link."),
    ],
)
def test_a_bad_club_link_is_refused_beside_the_field(client: FlaskClient, app: Flask, typed: str, message: str) -> None:
    token = create(client)
    response = client.post(f"/d/{token}/club", data={"club": typed})
    assert response.status_code == 422
    assert field_error(text(response), "club").startswith(message)
    with app.app_context():
        assert db.session.scalars(select(ClubEvent)).all() == []


def test_a_new_name_joins_the_club_and_a_near_one_is_asked_about(client: FlaskClient, app: Flask) -> None:
    token, group = club_event(client, app, ("Zoé Martin", "John Smith", "Peter Brown"))
    # a member by another case is the member; a new name joins
    assert register(client, token, "Aces", "peter BROWN", "Ann Lee")[0] == 200
    assert members(app, group) == ["Ann Lee", "John Smith", "Peter Brown", "Zoé Martin"]
    # near names: accents left out, one letter dropped; nothing registered, nobody added
    status, page = register(client, token, "Kings", "Zoe Martin", "Jon Smith")
    assert status == 422
    assert field_error(page, "player1") == "“Zoe Martin” is not a member of Tuesday Club. Did you mean “Zoé Martin”?"
    assert field_error(page, "player2") == "“Jon Smith” is not a member of Tuesday Club. Did you mean “John Smith”?"
    assert '<button type="submit" name="pick.player1" value="Zoé Martin"' in page
    assert 'name="new_member" value="player2"' in page
    assert len(entrants(app, token)) == 1 and len(members(app, group)) == 4
    # "Yes, Zoé Martin" for the first, "No, a new member" for the second
    data = {"team": "Kings", "player1": "Zoe Martin", "player2": "Jon Smith", "pick.player1": "Zoé Martin"}
    response = client.post(f"/d/{token}/register", data={**data, "new_member": "player2"}, headers=HX)
    assert response.status_code == 200, text(response)
    assert entrants(app, token)[1] == (2, "Kings", ["Zoé Martin", "Jon Smith"])
    assert members(app, group) == ["Ann Lee", "John Smith", "Jon Smith", "Peter Brown", "Zoé Martin"]
    # a single player, near a member: asked too
    response = client.post(f"/d/{token}/register", data={"kind": "single", "single": "Ann Le"}, headers=HX)
    assert response.status_code == 422
    assert field_error(text(response), "single").endswith("Did you mean “Ann Lee”?")


def test_near_names(app: Flask) -> None:
    with app.app_context():
        group = groups.create("Club")
        for name in ("Zoé Martin", "Bob", "Christopher Jones"):
            db.session.add(GroupPlayer(group_id=group.id, name=name, key=groups.key_of(name)))
        db.session.commit()
        assert roster.near(group, "ZOE MARTIN") == "Zoé Martin"
        assert roster.near(group, "Zoé Matrin") == "Zoé Martin"  # two letters swapped
        assert roster.near(group, "Bo") is None  # too short to guess
        assert roster.near(group, "Rob") == "Bob"
        assert roster.near(group, "Rod") is None
        assert roster.near(group, "Christophe Jone") == "Christopher Jones"
        assert roster.near(group, "Ann") is None


def test_an_event_without_a_club_registers_as_before(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    assert register(client, token, "Aces", "Ann", "Bob")[0] == 200
    with app.app_context():
        assert db.session.scalars(select(GroupPlayer)).all() == []


@pytest.mark.parametrize("name", ["military-playoff", "bid-whist-bracket", "whist-drive"])
def test_a_members_page_lists_their_events_by_season_with_the_events_own_figures(
    client: FlaskClient, app: Flask, name: str
) -> None:
    token = EVENTS[name](client, app)
    group = make_group(client, "Tuesday Club")
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        event.created_at = event.started_at = datetime(2025, 3, 4, 19, 30)
        db.session.commit()
        roster.link(event, group, club_history.players_named(event))
        found = groups.by_token(group)
        assert found is not None
        page = next(p for p in event_results.players(event).players if p.members or name == "whist-drive")
        who = (page.members or (page.name,))[0]
        person = groups.find(found, who)
        assert person is not None
        wanted = (page.place, page.of, str(page.total_words), str(page.note), results_url(event, page.code))
    body = unescape(text(client.get(f"/group/{group}/player/{person.id}")))
    assert "<caption>Season 2025</caption>" in body
    row = body.split(f'<a href="{wanted[4]}">', 1)[1].split("</tr>", 1)[0]
    assert (f"{wanted[0]} of {wanted[1]}" if wanted[0] else "—") in row
    assert wanted[2] in row and wanted[3] in row
    # another member of another club's event: not listed
    other = make_group(client, "Other")
    with app.app_context():
        stranger = GroupPlayer(group_id=groups.by_token(other).id, name=who, key=groups.key_of(who))  # type: ignore[union-attr]
        db.session.add(stranger)
        db.session.commit()
        stranger_id = stranger.id
    assert "Season 2025" not in text(client.get(f"/group/{other}/player/{stranger_id}"))


def results_url(event: Event, code: str) -> str:
    return f"/r/{event_results.link_code(event)}/{code}"


def test_a_restored_backup_links_its_players_to_a_club_on_request(client: FlaskClient, app: Flask) -> None:
    token = EVENTS["military-playoff"](client, app)
    data = download(client, token)
    group = make_group(client, "Tuesday Club")
    # a club link that opens nothing restores nothing
    response = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(data), "b.json"), "club": "/group/nope"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert field_error(text(response), "club").startswith("No group has this link or code.")
    assert 'name="club" maxlength="300" value="/group/nope"' in text(response)  # kept, to correct
    with app.app_context():
        assert db.session.query(Event).count() == 1
    response = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(data), "b.json"), "club": f"http://localhost/group/{group}"},
        content_type="multipart/form-data",
    )
    restored = token_of(response)
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=restored).one()
        named = club_history.players_named(event)
        found = groups.by_token(group)
        assert named and found is not None
        assert sorted(roster.members(found)) == sorted(named)
        assert roster.club_of(event) == found
    room = text(client.get(f"/d/{restored}"))
    assert f"{len(named)} names were new and joined the club" in room


def test_a_military_events_names_page_offers_the_members_and_asks_about_a_near_name(
    client: FlaskClient, app: Flask
) -> None:
    group = make_group(client, "Tuesday Club")
    with app.app_context():
        found = groups.by_token(group)
        assert found is not None
        db.session.add(GroupPlayer(group_id=found.id, name="John Smith", key=groups.key_of("John Smith")))
        db.session.commit()
    token = create_military(client, preset="custom", days="2", tables="2", teams="Aces\nKings")
    assert client.post(f"/d/{token}/club", data={"club": group}).status_code == 303
    page = text(client.get(f"/d/{token}/setup"))
    assert 'id="player-1-A" name="player.1.A" value="" autocomplete="off" list="club-members"' in page
    assert '<datalist id="club-members"><option value="John Smith"></option></datalist>' in page
    form = {"name": "Zone 3", "team.1": "Aces", "team.2": "Kings"}
    form |= {f"player.1.{letter}": name for letter, name in zip("ABXY", ("Jon Smith", "Ann", "Bob", "Cat"))}
    response = client.post(f"/d/{token}/setup", data=form)
    assert response.status_code == 422
    assert field_error(text(response), "teams-0-players-0").endswith("Did you mean “John Smith”?")
    assert members(app, group) == ["John Smith"]
    response = client.post(f"/d/{token}/setup", data={**form, "pick.teams.0.players.0": "John Smith"})
    assert response.status_code == 302, text(response)
    assert members(app, group) == ["Ann", "Bob", "Cat", "John Smith"]
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert event.tables[0].players == ["John Smith", "Ann", "Bob", "Cat"]


def test_a_drives_rename_offers_the_members_and_asks_about_a_near_name(client: FlaskClient, app: Flask) -> None:
    group = make_group(client, "Tuesday Club")
    with app.app_context():
        found = groups.by_token(group)
        assert found is not None
        db.session.add(GroupPlayer(group_id=found.id, name="John Smith", key=groups.key_of("John Smith")))
        db.session.commit()
    token = create_drive(client)
    assert client.post(f"/d/{token}/club", data={"club": group}).status_code == 303
    room = text(client.get(f"/d/{token}"))
    assert 'id="rn-name" name="name" list="club-members"' in room
    assert '<datalist id="club-members"><option value="John Smith"></option></datalist>' in room

    def rename(**form: str) -> tuple[int, str]:
        response = client.post(f"/d/{token}/players/rename", data=form, headers=HX)
        return response.status_code, text(response)

    status, page = rename(number="1", name="Jon Smith")
    assert status == 422
    assert field_error(page, "rename") == "“Jon Smith” is not a member of Tuesday Club. Did you mean “John Smith”?"
    assert '<button type="submit" name="pick.rename" value="John Smith"' in page
    assert '<button type="submit" name="new_member" value="rename"' in page
    assert members(app, group) == ["John Smith"]
    assert rename(number="1", name="Jon Smith", **{"pick.rename": "John Smith"})[0] == 200  # "Yes, John Smith"
    assert rename(number="2", name="Jon Smith", new_member="rename")[0] == 200  # "No, a new member"
    assert rename(number="3", name="Ann Lee")[0] == 200  # a new name, near nobody: joins
    assert members(app, group) == ["Ann Lee", "John Smith", "Jon Smith"]
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert [e.name for e in event.entrants][:4] == ["John Smith", "Jon Smith", "Ann Lee", "D"]


def test_a_club_nights_table_set_up_offers_the_members(client: FlaskClient, app: Flask) -> None:
    group = make_group(client, "Tuesday Club")
    with app.app_context():
        found = groups.by_token(group)
        assert found is not None
        for name in ("Zoé Martin", "John Smith"):
            db.session.add(GroupPlayer(group_id=found.id, name=name, key=groups.key_of(name)))
        db.session.commit()
    token = create_club_night(client)
    table = table_tokens(app, token)[1]
    assert "<datalist" not in text(client.get(f"/t/{table}/setup"))
    assert client.post(f"/d/{token}/club", data={"club": group}).status_code == 303
    page = text(client.get(f"/t/{table}/setup"))
    assert page.count('list="recent-names"') == 4  # each player's field, by the datalist below
    assert '<datalist id="recent-names"><option value="John Smith"><option value="Zoé Martin"></datalist>' in page
    assert "Tuesday Club:</span>" in page
    assert group not in page  # the table's phone is no way into the group
