"""A Bid Whist tournament's refusals, the director's decisions and what every page shows of them.

Each test builds a small tournament through the Flask test client (the draw fixed by the seed),
plays its matches so that the lower-numbered team wins every hand (16-0; against the ghost team
the real team wins), and checks the status, the message on the page, and what was stored.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events.bid_whist import derived, matches, registration, tournament
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.games import service as games
from scorepad.models import AuditEntry, EventDecision
from tests.web.test_events import HX, text
from tests.web.test_tournament import current_matches, event_row, events_public, hand, lower_wins, play, sign_both
from tests.web.test_tournament_registration import create


def setup_teams(client: FlaskClient, app: Flask, count: int, seed: str = "s1", **form: str) -> str:
    """A tournament with `count` teams registered ("T1".."Tn") and a fixed seed, not started."""
    token = create(client, **form)
    for n in range(1, count + 1):
        response = client.post(
            f"/d/{token}/register", data={"team": f"T{n}", "player1": f"P{n}a", "player2": f"P{n}b"}, headers=HX
        )
        assert response.status_code == 200, text(response)
    with app.app_context():
        event = event_row(app, token)
        event.options = {**event.options, "seed": seed}
        db.session.commit()
    return token


def started(client: FlaskClient, app: Flask, count: int, **form: str) -> str:
    token = setup_teams(client, app, count, **form)
    response = client.post(f"/d/{token}/start", headers=HX)
    assert response.status_code == 200, text(response)
    return token


def round_matches(app: Flask, token: str, number: int) -> list[dict[str, Any]]:
    return [m for m in current_matches(app, token) if m["stage"] == "round" and m["number"] == number]


def play_round(client: FlaskClient, app: Flask, token: str, number: int) -> None:
    for m in round_matches(app, token, number):
        play(app, m["scorer"], lower_wins(m))
        sign_both(client, m)


def tv_of(app: Flask, token: str) -> derived.TournamentView:
    return derived.view(event_row(app, token))


def bracket_of_eight(client: FlaskClient, app: Flask) -> tuple[str, list[int]]:
    """Nine teams, one round, a bracket of 8: 5 winners and 4 losers at 0, so three of the four
    losers go through by the playoff; returns the director's token and the team left out."""
    token = started(client, app, 9, rounds="1", bracket="8")
    play_round(client, app, token, 1)
    with app.app_context():
        playoff = list(tv_of(app, token).cut.playoff)  # type: ignore[union-attr]
    assert len(playoff) == 4
    response = client.post(f"/d/{token}/cut", data={"winner": [str(n) for n in playoff[:3]]}, headers=HX)
    assert response.status_code == 200, text(response)
    response = client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX)
    assert response.status_code == 200 and "The bracket is set" in text(response)
    return token, [playoff[3]]


def bracket_matches(app: Flask, token: str) -> dict[int, dict[str, Any]]:
    return {m["number"]: m for m in current_matches(app, token) if m["stage"] == "bracket"}


def team_token(app: Flask, token: str, number: int) -> str:
    with app.app_context():
        return str(next(e.token for e in event_row(app, token).entrants if e.number == number))


def audit_count(app: Flask, token: str) -> int:
    with app.app_context():
        return len(event_row(app, token).audit)


# --------------------------------------------------------------------------- 1. rounds against teams


def test_more_rounds_than_the_teams_can_play_is_refused_at_the_start_with_a_way_out(
    client: FlaskClient, app: Flask
) -> None:
    token = setup_teams(client, app, 2)  # 3 rounds (the default) for 2 teams: round 2 would repeat round 1
    response = client.post(f"/d/{token}/start", headers=HX)
    page = text(response)
    assert response.status_code == 422
    assert "2 teams cannot play 3 preliminary rounds without meeting an opponent twice: at most 1 round" in page
    with app.app_context():
        event = event_row(app, token)
        assert event.started_at is None and not event.matches and not event.tables
    # the start form carries the number of rounds: the director lowers it and starts
    response = client.post(f"/d/{token}/start", data={"rounds": "1"}, headers=HX)
    assert response.status_code == 200, text(response)
    assert "Round 1 of 1" in text(response)
    response = client.post(f"/d/{token}/start", data={"rounds": "x"}, headers=HX)
    assert response.status_code == 422


def test_a_round_that_cannot_be_drawn_is_refused_and_nothing_is_half_applied(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 2, rounds="1")
    with app.app_context():  # an event started before the rounds were checked at the start
        event = event_row(app, token)
        event.options = {**event.options, "rounds": 3}
        db.session.commit()
    play_round(client, app, token, 1)
    response = client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX)
    assert response.status_code == 422
    assert "Round 2 cannot be drawn without a repeat opponent" in text(response)
    with app.app_context():
        event = event_row(app, token)
        assert event.current_hand == 1 and [m.number for m in event.matches] == [1]
    assert client.get(f"/d/{token}").status_code == 200
    assert client.get(f"/b/{events_public(app, token)}").status_code == 200


# --------------------------------------------------------------------------- 3. the teams' own pages


def test_a_teams_page_says_who_won_who_is_out_and_who_never_made_the_bracket(client: FlaskClient, app: Flask) -> None:
    token, left_out = bracket_of_eight(client, app)
    first = bracket_matches(app, token)[1]
    play(app, first["scorer"], lower_wins(first))
    sign_both(client, first)
    winner = min(first["home"], first["away"])
    loser = max(first["home"], first["away"])
    assert "Wait for your next match" in text(client.get(f"/team/{team_token(app, token, winner)}"))
    page = text(client.get(f"/team/{team_token(app, token, loser)}"))
    assert "Your team is out of the bracket" in page and "Wait for your next match" not in page
    page = text(client.get(f"/team/{team_token(app, token, left_out[0])}"))
    assert "Your team did not reach the bracket" in page and "Wait for your next match" not in page


# --------------------------------------------------------------------------- 4, 5. signing and disputes


def test_a_sheet_is_signed_once_per_team_and_a_bad_side_is_refused(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 9, rounds="1")
    m = next(m for m in round_matches(app, token, 1) if 0 not in (m["home"], m["away"]))
    play(app, m["scorer"], lower_wins(m))
    response = client.post(f"/g/{m['scorer']}/sign", data={"side": "7"}, headers=HX)
    assert response.status_code == 422 and "Choose the team: N/S or E/W." in text(response)
    signed = {"side": "0", "code": m["codes"][0]}
    assert client.post(f"/g/{m['scorer']}/sign", data=signed, headers=HX).status_code == 200
    before = audit_count(app, token)
    response = client.post(f"/g/{m['scorer']}/sign", data=signed, headers=HX)
    assert response.status_code == 422 and "This team has already signed the sheet" in text(response)
    assert audit_count(app, token) == before
    with app.app_context():
        row = next(x for x in event_row(app, token).matches if x.id == m["id"])
        assert row.signed_away_at is None and row.game is not None and row.game.locked_at is None


def test_a_team_cannot_sign_again_a_locked_sheet_against_the_ghost(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 9, rounds="1")
    bye = next(m for m in round_matches(app, token, 1) if 0 in (m["home"], m["away"]))
    team = bye["home"] or bye["away"]
    play(app, bye["scorer"], lower_wins(bye))
    assert client.post(f"/team/{team_token(app, token, team)}/sign").status_code == 303
    before = audit_count(app, token)
    response = client.post(f"/team/{team_token(app, token, team)}/sign")
    assert response.status_code == 422 and "This sheet is already final" in text(response)
    ghost_side = "1" if bye["away"] == 0 else "0"
    response = client.post(f"/g/{bye['scorer']}/sign", data={"side": ghost_side}, headers=HX)
    assert response.status_code == 422
    assert audit_count(app, token) == before


def test_a_dispute_of_a_sheet_both_teams_signed_is_refused(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 4, rounds="1")
    m = round_matches(app, token, 1)[0]
    play(app, m["scorer"], lower_wins(m))
    sign_both(client, m)
    response = client.post(
        f"/g/{m['scorer']}/sign", data={"action": "dispute", "side": "1", "reason": "hand 2"}, headers=HX
    )
    assert response.status_code == 422
    assert "The sheet is final: ask the director to reopen it" in text(response)
    with app.app_context():
        row = next(x for x in event_row(app, token).matches if x.id == m["id"])
        assert row.dispute == ""


# --------------------------------------------------------------------------- 6. every error on the page


def test_every_refusal_in_the_control_room_shows_its_message(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 4, rounds="2")
    cases = [
        ("swap", {"match": "1", "out": "1", "in": "2"}, "The bracket is not set yet"),
        ("swap", {"match": "x", "out": "1", "in": "2"}, "Choose the match, the team that leaves"),
        ("cut", {"winner": "1"}, "No playoff is needed now"),
        ("cut", {"winner": "one"}, "Choose the playoff's winner among the tied teams"),
        ("walkover", {"walkover": "1:2"}, "The bracket is not set yet"),
        ("next-round", {"stage": "one"}, "The form did not say which stage it was sent from"),
    ]
    for path, form, words in cases:
        response = client.post(f"/d/{token}/{path}", data=form, headers=HX)
        assert response.status_code == 422, (path, form)
        assert words in text(response), (path, form, words)
    assert client.post(f"/d/{token}/next-round", data={"stage": "3"}, headers=HX).status_code == 409


# --------------------------------------------------------------------------- 7. numbers


def test_a_retired_number_is_never_given_again(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    for n in range(1, 8):
        client.post(
            f"/d/{token}/register", data={"team": f"T{n}", "player1": f"P{n}a", "player2": f"P{n}b"}, headers=HX
        )
    for name in ("Gus", "Hal"):
        client.post(f"/d/{token}/register", data={"kind": "single", "single": name}, headers=HX)
    assert client.post(f"/d/{token}/pair", data={"first": "8", "second": "9"}, headers=HX).status_code == 200
    client.post(f"/d/{token}/register", data={"team": "Late", "player1": "La", "player2": "Lb"}, headers=HX)
    with app.app_context():
        assert [e.number for e in event_row(app, token).entrants] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert client.post(f"/d/{token}/withdraw/10", headers=HX).status_code == 200
    client.post(f"/d/{token}/register", data={"team": "Later", "player1": "Ma", "player2": "Mb"}, headers=HX)
    with app.app_context():
        assert [e.number for e in event_row(app, token).entrants][-1] == 11


# --------------------------------------------------------------------------- 8. the draw, shown and checkable


def test_the_control_room_shows_the_seed_and_each_rounds_draw_as_derived_from_it(
    client: FlaskClient, app: Flask
) -> None:
    token = started(client, app, 9)
    play_round(client, app, token, 1)
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    room = text(client.get(f"/d/{token}"))
    again = fmt.draws(list(range(1, 10)), "s1", 2)
    assert 'Seed <code class="seed">s1</code>' in room
    shown = re.findall(r'<li data-round="(\d)">Round \d drawn in this order: ([\d, ]+)</li>', room)
    assert [(int(r), [int(n) for n in order.split(", ")]) for r, order in shown] == [
        (d.round, list(d.order)) for d in again
    ]
    board = text(client.get(f"/b/{events_public(app, token)}"))
    assert f"Round 2 {again[1].words()} · seed s1" in board
    # the control room tells every team where to sit, as the projector does
    assert "Who sits where in round 2" in room
    assert all(line in room for line in fmt.moves(again[0], again[1], tv_names(app, token)))


def tv_names(app: Flask, token: str) -> dict[int, str]:
    with app.app_context():
        return tournament.names(event_row(app, token))


def test_no_audit_note_is_longer_than_its_column_for_128_teams(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    with app.app_context():
        event = event_row(app, token)
        for n in range(1, 129):
            registration.register_team(event, f"Team number {n} with a long name", [f"Player {n}a", f"Player {n}b"])
        event.options = {**event.options, "seed": "big"}
        db.session.commit()
    assert client.post(f"/d/{token}/start", headers=HX).status_code == 200
    with app.app_context():
        event = event_row(app, token)
        for m in [m for m in event.matches if m.stage == "round"]:
            assert m.game is not None
            for n in range(1, 5):
                games.enter_hand(m.game, n, hand(n, 0))
            matches.close(m)
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    with app.app_context():
        notes = [a.note for a in db.session.query(AuditEntry).all()]
        assert max(len(n) for n in notes) <= 300
        assert len("round 2 " + fmt.draws(list(range(1, 129)), "big", 2)[1].words()) > 300  # the old note's length
    room = text(client.get(f"/d/{token}"))
    assert "Round 2 " + fmt.draws(list(range(1, 129)), "big", 2)[1].words() in room


# --------------------------------------------------------------------------- 9. the playoff at the cut


def test_ties_at_the_cut_are_flagged_only_once_the_preliminary_rounds_are_complete(
    client: FlaskClient, app: Flask
) -> None:
    token = started(client, app, 9, rounds="2", bracket="8")
    play_round(client, app, token, 1)
    with app.app_context():
        assert tv_of(app, token).cut.playoff  # type: ignore[union-attr]  # teams are tied at the cut now
    assert "playoff for the bracket" not in text(client.get(f"/b/{events_public(app, token)}"))
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    play_round(client, app, token, 2)
    with app.app_context():
        tied = tv_of(app, token).cut.playoff  # type: ignore[union-attr]
    board = text(client.get(f"/b/{events_public(app, token)}"))
    assert board.count("playoff for the bracket") == len(tied) > 0


def test_set_the_bracket_says_it_waits_for_the_playoff_at_the_cut_not_for_no_table(
    client: FlaskClient, app: Flask
) -> None:
    """Issue 32, item 9: every sheet final, the tie at the cut not yet played off."""
    token = started(client, app, 9, rounds="1", bracket="8")
    play_round(client, app, token, 1)
    room = client.get(f"/d/{token}")
    assert room.status_code == 200
    page = text(room)
    assert "Set the bracket" in page
    assert "Waiting for the sheets" not in page
    assert "Waiting for the playoff for the last 3 places in the bracket: record its winners below." in page
    assert re.search(r'<button type="submit" class="primary" disabled aria-describedby="advance-wait">', room.text)
    with app.app_context():
        playoff = list(tv_of(app, token).cut.playoff)  # type: ignore[union-attr]
    assert client.post(f"/d/{token}/cut", data={"winner": [str(n) for n in playoff[:3]]}, headers=HX).status_code == 200
    assert "Waiting for" not in text(client.get(f"/d/{token}"))


def test_seeds_tied_on_rounds_won_and_points_say_how_the_tie_was_broken(client: FlaskClient, app: Flask) -> None:
    """Issue 32, item 10: four teams, one round, everyone in a bracket of 4; the two winners (16-0)
    and the two losers are tied pairs that never met, so each pair is put in order by lot."""
    token = started(client, app, 4, rounds="1", bracket="4")
    play_round(client, app, token, 1)
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    with app.app_context():
        tv = tv_of(app, token)
        seeds = list(tv.cut.seeds)  # type: ignore[union-attr]
        by_lot = [r.number for r in fmt.standings([1, 2, 3, 4], [], tv.seed)]
    winners = sorted(seeds[:2])
    assert seeds[:2] == [n for n in by_lot if n in winners]
    for page in (text(client.get(f"/d/{token}")), text(client.get(f"/b/{events_public(app, token)}/standings"))):
        words = re.sub(r"<[^>]+>", "", page)
        assert "seed 1 · tie broken by lot" in words and "seed 4 · tie broken by lot" in words
        assert (
            "Teams tied on rounds won and points are listed, and seeded, by the rounds they won against each "
            f"other, then by lot drawn from the seed {tv.seed}" in page
        )


# --------------------------------------------------------------------------- 11. hidden standings


def test_hidden_standings_are_published_by_the_director_round_by_round(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 4, rounds="2", hidden="on")
    public = events_public(app, token)
    first, second = round_matches(app, token, 1)
    play(app, first["scorer"], lower_wins(first))
    sign_both(client, first)
    board = text(client.get(f"/b/{public}"))
    assert "The standings are published by the director after each round" in board
    assert " 16 – 0 " not in board and " 0 – 16 " not in board  # no match's score while hidden
    response = client.post(f"/d/{token}/publish", data={"round": "1"}, headers=HX)
    assert response.status_code == 422 and "Wait for every sheet of round 1 to be final: table" in text(response)
    exported = json.loads(client.get(f"/b/{public}/event.json").get_data(as_text=True))
    assert exported["standings"] == [] and all(m.get("hidden") and "game" not in m for m in exported["matches"])
    play(app, second["scorer"], lower_wins(second))
    sign_both(client, second)
    response = client.post(f"/d/{token}/publish", data={"round": "1"}, headers=HX)
    assert response.status_code == 200, text(response)
    board = text(client.get(f"/b/{public}"))
    assert "Standings after round 1, as published by the director" in board
    assert re.search(r'<td class="num total">1</td> <td class="num">16</td>', board)
    assert client.post(f"/d/{token}/publish", data={"round": "1"}, headers=HX).status_code == 422
    with app.app_context():
        found = db.session.query(EventDecision).filter_by(kind="publish").all()
        assert [(d.key, d.data) for d in found] == [("1", {"round": 1})]
    # round 2's results stay hidden until published in turn
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    m = round_matches(app, token, 2)[0]
    play(app, m["scorer"], lower_wins(m))
    sign_both(client, m)
    board = text(client.get(f"/b/{public}"))
    assert "Standings after round 1" in board and '<td class="num total">2</td>' not in board


# --------------------------------------------------------------------------- 12. walkovers


def test_a_walkover_sends_the_team_present_through_without_a_hand(client: FlaskClient, app: Flask) -> None:
    token, _ = bracket_of_eight(client, app)
    first = bracket_matches(app, token)
    one, two = first[1], first[2]
    present = one["home"]
    response = client.post(
        f"/d/{token}/walkover", data={"walkover": f"1:{present}", "reason": "team 8 did not come"}, headers=HX
    )
    assert response.status_code == 200, text(response)
    with app.app_context():
        found = db.session.query(EventDecision).filter_by(kind="walkover").one()
        assert found.data == {"match": 1, "winner": present, "reason": "team 8 did not come"}
        row = next(x for x in event_row(app, token).matches if x.id == one["id"])
        assert row.game is not None and row.game.locked_at is not None and not row.game.hands
        state = tv_of(app, token).bracket_state
        assert state is not None and state.match(1).winner == present
    board = text(client.get(f"/b/{events_public(app, token)}"))
    assert "walkover (team 8 did not come)" in board
    page = text(client.get(f"/team/{team_token(app, token, one['away'])}"))
    assert "lost by a walkover" in page and "Your team is out of the bracket" in page
    assert "Walkover:" in text(client.get(f"/g/{one['scorer']}"))
    # a walkover cannot be given twice, nor once a match has started
    assert client.post(f"/d/{token}/walkover", data={"walkover": f"1:{one['away']}"}, headers=HX).status_code == 422
    play(app, two["scorer"], 0)
    response = client.post(f"/d/{token}/walkover", data={"walkover": f"2:{two['home']}"}, headers=HX)
    assert response.status_code == 422 and "Match 2 has started" in text(response)
    sign_both(client, two)
    # both feeders decided: the next match is at its table
    nxt = [m for n, m in bracket_matches(app, token).items() if n > 4]
    assert len(nxt) == 1 and {nxt[0]["home"], nxt[0]["away"]} == {present, two["home"]}


# --------------------------------------------------------------------------- 2. the export


def test_the_tournament_exports_its_entrants_draws_matches_and_decisions(client: FlaskClient, app: Flask) -> None:
    token, _ = bracket_of_eight(client, app)
    response = client.get(f"/b/{events_public(app, token)}/event.json")
    assert response.status_code == 200
    data = json.loads(response.get_data(as_text=True))
    assert data["format"] == "bid_whist" and data["seed"] == "s1"
    assert [e["number"] for e in data["entrants"]] == list(range(1, 10))
    assert [d["order"] for d in data["draws"]] == [list(d.order) for d in fmt.draws(list(range(1, 10)), "s1", 1)]
    prelim = [m for m in data["matches"] if m["stage"] == "round"]
    assert len(prelim) == 5 and all(m["final"] and len(m["game"]["hands"]) == 4 for m in prelim)
    assert all(m["winner"] == (m["home"], m["away"])[lower_wins(m)] for m in prelim)
    assert [d["kind"] for d in data["decisions"]] == ["cut"]
    assert len(list(data["bracket"])) == 8 and len(data["standings"]) == 9


def test_a_finished_rounds_sheets_fold_away_and_the_round_in_play_stays_open(client: FlaskClient, app: Flask) -> None:
    """The control room stays short on a phone: once every sheet of a round is final, its match list
    folds into a closed <details> (the button that draws the next round stays outside it); the next
    round's list is open. The seats and the draw are folded too, a tap away."""

    def tables_of(room: str) -> tuple[str | None, str, str]:
        section = re.search(r'<section aria-labelledby="tables-title">.*?</section>', room)
        assert section is not None
        fold = re.search(
            r'<details class="fold matches" data-fold id="[\w-]+"\s*(open)?[^>]*> <summary>([^<]*)</summary>',
            section[0],
        )
        assert fold is not None, section[0]
        return fold[1], fold[2], section[0]

    token = started(client, app, 8)
    play_round(client, app, token, 1)
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    play_round(client, app, token, 2)
    room = text(client.get(f"/d/{token}"))
    opened, summary, section = tables_of(room)
    assert (opened, summary) == (None, "Round 2: all sheets final")
    assert section.count("</tr>") == 1 + 4 and section.count(">final</span>") == 4  # every match still there
    status = re.search(r'<section class="room-status".*?</section>', room)
    assert status is not None and "Draw round 3" in status[0] and "<details" not in status[0]
    for fold, title in (("seats-2", "seats-title"), ("draw", "draw-title")):
        assert f'<details class="fold" data-fold id="fold-{fold}"> <summary><h2 id="{title}">' in room

    assert client.post(f"/d/{token}/next-round", data={"stage": "2"}, headers=HX).status_code == 200
    opened, summary, _ = tables_of(text(client.get(f"/d/{token}")))
    assert (opened, summary) == ("open", "Round 3: 4 sheets open")
    client.set_cookie("lang", "fr")
    opened, summary, _ = tables_of(text(client.get(f"/d/{token}")))
    assert (opened, summary) == ("open", "Tour 3 : 4 feuilles ouvertes")
