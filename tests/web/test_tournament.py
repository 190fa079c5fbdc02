"""A Bid Whist tournament played through the Flask test client, from registration to the medals.

Nine teams (an odd number: one plays the ghost team each round), three preliminary rounds of 4
hands, a bracket of 8 (the director's choice for a small field), a tie at the cut settled by a
playoff, signing by both teams, a dispute, a sheet made final by the director, a swap, medals.
Every match is played so that the lower-numbered team wins all four hands, 4 points each
(16-0); against the ghost the real team wins. The draw is reproducible from the event's seed,
fixed here ("s1"), and the expected standings are counted by hand from the matches as drawn.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events.bid_whist import matches
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event
from tests.web.test_events import HX, text
from tests.web.test_tournament_registration import create


def hand(number: int, winner: int) -> dict[str, object]:
    """Hand `number` of a match: the first bidder bids 4 (plain, spades) and the others pass; the
    bidders make 10 books (4 points) when they are `winner`'s side, else take 5 and are set (the
    opponents score the bid, 4). Seats 0 and 2 are the N/S team; the deal moves left every hand."""
    bidder = number % 4  # first dealer 0: hand n is dealt by seat n - 1, the bidding starts at its left
    side = bidder % 2
    return {
        "auction": [{"bid": 4, "kind": "plain"}, None, None, None],
        "bidder": bidder,
        "bid": 4,
        "kind": "plain",
        "trump": "S",
        "books": 10 if side == winner else 5,
    }


def event_row(app: Flask, token: str) -> Event:
    event = db.session.query(Event).filter_by(director_token=token).one()
    return event


def current_matches(app: Flask, token: str) -> list[dict[str, Any]]:
    """The event's matches as plain values, with each side's team code (printed on its team card)."""
    with app.app_context():
        event = event_row(app, token)
        codes = {e.number: matches.team_code(e) for e in event.entrants}
        return [
            {
                "id": m.id,
                "stage": m.stage,
                "number": m.number,
                "table": m.table,
                "home": m.home,
                "away": m.away,
                "scorer": m.game.scorer_token if m.game else None,
                "final": bool(m.closed_by or (m.game and m.game.locked_at)),
                "codes": (codes.get(m.home, ""), codes.get(m.away, "")),
            }
            for m in event.matches
        ]


def play(app: Flask, scorer: str, winner: int) -> None:
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None
        for n in range(1, 5):
            games.enter_hand(game, n, hand(n, winner))


def lower_wins(m: dict[str, Any]) -> int:
    """The side that wins: the real team against the ghost (0), else the lower number."""
    if 0 in (m["home"], m["away"]):
        return 0 if m["away"] == 0 else 1
    return 0 if m["home"] < m["away"] else 1


def sign_both(client: FlaskClient, m: dict[str, Any]) -> None:
    """Both teams sign (the ghost team of a bye does not: its side counts as signed)."""
    for side, team in (("0", m["home"]), ("1", m["away"])):
        if team == 0:
            continue
        response = client.post(f"/g/{m['scorer']}/sign", data={"side": side, "code": m["codes"][int(side)]}, headers=HX)
        assert response.status_code == 200, text(response)


def start_nine(client: FlaskClient, app: Flask) -> str:
    token = create(client, bracket="8")
    for n in range(1, 10):
        response = client.post(
            f"/d/{token}/register", data={"team": f"T{n}", "player1": f"P{n}a", "player2": f"P{n}b"}, headers=HX
        )
        assert response.status_code == 200
    with app.app_context():
        event = event_row(app, token)
        event.options = {**event.options, "seed": "s1"}  # a fixed draw (the seed is random otherwise)
        db.session.commit()
    response = client.post(f"/d/{token}/start", headers=HX)
    assert response.status_code == 200, text(response)
    return token


def test_nine_teams_from_registration_to_medals(client: FlaskClient, app: Flask) -> None:
    token = start_nine(client, app)
    room = text(client.get(f"/d/{token}"))
    assert "Round 1 of 3" in room and "drawn in this order" in room
    assert (
        client.post(
            f"/d/{token}/register", data={"team": "Late", "player1": "a", "player2": "b"}, headers=HX
        ).status_code
        == 422
    )
    # the QR sheet has a card per table and per team; a table's card opens its match, a team's its orders
    with app.app_context():
        event = event_row(app, token)
        table_token = event.tables[0].token
        team = next(e for e in event.entrants if e.number == 1)
        team_token, match = team.token, next(m for m in event.matches if 1 in (m.home, m.away))
        where = (match.table, "N/S" if match.home == 1 else "E/W", match.game.scorer_token if match.game else "")
    qr = text(client.get(f"/d/{token}/qr", follow_redirects=True))
    assert qr.count('class="qr-card"') == 5 + 9
    opened = client.get(f"/t/{table_token}")
    assert opened.status_code == 303 and opened.headers["Location"].startswith("/g/")
    page = text(client.get(f"/team/{team_token}"))
    assert f"Table {where[0]}, sit {where[1]}, against" in page
    assert "Round 1 of 3 · table" in text(client.get(f"/g/{where[2]}"))
    assert client.get("/team/nope").status_code == 404
    results: list[tuple[int, int, int]] = []  # (winner, loser, round)
    met: set[frozenset[int]] = set()
    for rnd in (1, 2, 3):
        now = [m for m in current_matches(app, token) if m["stage"] == "round" and m["number"] == rnd]
        assert len(now) == 5 and sorted(m["table"] for m in now) == [1, 2, 3, 4, 5]
        assert sum(1 for m in now if 0 in (m["home"], m["away"])) == 1  # one bye, against the ghost
        teams = [n for m in now for n in (m["home"], m["away"]) if n]
        assert sorted(teams) == list(range(1, 10))  # every team plays every round
        for m in now:
            pair = frozenset((m["home"], m["away"]))
            assert pair not in met  # no repeat opponents
            met.add(pair)
            if rnd == 1 and m is now[0]:  # signing before the end is refused
                response = client.post(f"/g/{m['scorer']}/sign", data={"side": "0"}, headers=HX)
                assert response.status_code == 422 and "The round is not over yet: 0 hands entered" in text(response)
            play(app, m["scorer"], lower_wins(m))
            winner = (m["home"], m["away"])[lower_wins(m)]
            loser = (m["home"], m["away"])[1 - lower_wins(m)]
            results.append((winner, loser, rnd))
        # the director cannot draw the next round before every sheet is final
        response = client.post(f"/d/{token}/next-round", data={"stage": str(rnd)}, headers=HX)
        assert (
            response.status_code == 422 and "wait for every sheet of this round to be final" in text(response).lower()
        )
        for m in now:
            if rnd == 2 and m is now[0]:  # a dispute, then the director makes the sheet final
                response = client.post(
                    f"/g/{m['scorer']}/sign",
                    data={"action": "dispute", "side": "1", "reason": "hand 3 books"},
                    headers=HX,
                )
                assert "The director has been told" in text(response)
                room = text(client.get(f"/d/{token}"))  # the disputing team by its name: Bid Whist has no home team
                assert f"T{m['away']}: hand 3 books" in room and "visiting team" not in room
                response = client.post(f"/d/{token}/matches/{m['id']}/close", headers=HX)
                assert response.status_code == 200 and "sheet made final" in text(response)
                continue
            sign_both(client, m)
        # a signed sheet is locked
        locked = client.post(f"/g/{now[1]['scorer']}/undo", headers=HX)
        assert locked.status_code == 422 and "This sheet is signed and final" in text(locked)
        if rnd < 3:
            response = client.post(f"/d/{token}/next-round", data={"stage": str(rnd)}, headers=HX)
            assert response.status_code == 200 and f"Round {rnd + 1} is drawn" in text(response)
            assert client.post(f"/d/{token}/next-round", data={"stage": str(rnd)}, headers=HX).status_code == 409
    # the standings, counted by hand: rounds won, then points (16 a win); the ghost is not ranked
    wins = Counter(w for w, _, _ in results if w)
    board = text(client.get(f"/b/{events_public(app, token)}/standings"))
    rows = re.findall(
        r'<td class="num rank">(\d+=?)</td> <th scope="row" class="team"><span class="table-no">No\. (\d)</span>'
        r' T\d[^<]*(?:<small class="detail">[^<]*</small>)?</th> <td class="num total">(\d)</td> <td class="num">(\d+)</td>',
        board,
    )

    # a tie in the order of the rounds the tied teams won against each other, then of a lot drawn from the seed
    def between(n: int) -> int:
        tied = {m for m in range(1, 10) if wins[m] == wins[n]}
        return sum(1 for w, lost, _ in results if w == n and lost in tied)

    def lot(n: int) -> str:
        return hashlib.sha256(f"s1:tie:{n}".encode()).hexdigest()

    by_hand = sorted(
        [(n, wins[n], 16 * wins[n]) for n in range(1, 10)], key=lambda r: (-r[1], -r[2], -between(r[0]), lot(r[0]))
    )
    assert [(int(n), int(w), int(p)) for _, n, w, p in rows] == by_hand
    # teams 8 and 9 tie for the last place in the bracket of 8: a one-game playoff first
    room = text(client.get(f"/d/{token}"))
    assert "(8) T8, (9) T9 are tied on rounds won and points for the last 1 place in the bracket" in room
    assert client.post(f"/d/{token}/next-round", data={"stage": "3"}, headers=HX).status_code == 422
    assert client.post(f"/d/{token}/cut", data={"winner": "7"}, headers=HX).status_code == 422
    assert client.post(f"/d/{token}/cut", data={"winner": "9"}, headers=HX).status_code == 200
    response = client.post(f"/d/{token}/next-round", data={"stage": "3"}, headers=HX)
    assert response.status_code == 200 and "The bracket is set" in text(response)
    first = sorted((m for m in current_matches(app, token) if m["stage"] == "bracket"), key=lambda m: m["number"])
    # seeds 1-8, 4-5, 2-7, 3-6 in bracket order (1 v 8, 4 v 5 in the top half)
    seeds = [n for n, _, _ in by_hand if n != 8]
    assert [(m["home"], m["away"]) for m in first] == [
        (seeds[0], seeds[7]),
        (seeds[3], seeds[4]),
        (seeds[1], seeds[6]),
        (seeds[2], seeds[5]),
    ]
    # a no-show: team 8 (out at the cut) takes the place of seed 8 before that match is played
    out = seeds[7]
    response = client.post(
        f"/d/{token}/swap", data={"match": "1", "out": str(out), "in": "8", "reason": "no-show"}, headers=HX
    )
    assert response.status_code == 200, text(response)
    assert (
        client.post(
            f"/d/{token}/swap", data={"match": "1", "out": "8", "in": str(seeds[2]), "reason": "x"}, headers=HX
        ).status_code
        == 422
    )  # already in the bracket
    # play the bracket: the lower number wins every match
    while True:
        ready = [m for m in current_matches(app, token) if m["stage"] == "bracket" and not m["final"]]
        if not ready:
            break
        for m in ready:
            play(app, m["scorer"], lower_wins(m))
            sign_both(client, m)
    board = text(client.get(f"/b/{events_public(app, token)}"))
    assert len([m for m in current_matches(app, token) if m["stage"] == "bracket"]) == 8  # 4 + 2 + final + 3rd
    # worked out from the bracket: the lower number wins each quarter, semi-final and final
    quarters = [(seeds[0], 8), (seeds[3], seeds[4]), (seeds[1], seeds[6]), (seeds[2], seeds[5])]
    semis = [(min(quarters[0]), min(quarters[1])), (min(quarters[2]), min(quarters[3]))]
    gold, silver = sorted((min(semis[0]), min(semis[1])))
    bronze = min(max(semis[0]), max(semis[1]))
    assert f"Gold: ({gold}) T{gold}" in board and f"Silver: ({silver}) T{silver}" in board
    assert f"Bronze: ({bronze}) T{bronze}" in board and "Final results" in board


def events_public(app: Flask, token: str) -> str:
    with app.app_context():
        return str(event_row(app, token).public_id)


def test_a_team_signs_from_its_own_link_and_early_signing_is_refused(client: FlaskClient, app: Flask) -> None:
    token = start_nine(client, app)
    with app.app_context():
        event = event_row(app, token)
        match = next(m for m in event.matches if m.home and m.away)
        home = next(e for e in event.entrants if e.number == match.home)
        away = next(e for e in event.entrants if e.number == match.away)
        home_token, away_token, scorer = home.token, away.token, match.game.scorer_token
    response = client.post(f"/team/{home_token}/sign")
    assert response.status_code == 422 and "The round is not over yet: 0 hands entered" in text(response)
    play(app, scorer, 0)
    assert client.post(f"/team/{home_token}/sign").status_code == 303
    assert "Your team has signed this round" in text(client.get(f"/team/{home_token}"))
    assert "Sign our sheet" in text(client.get(f"/team/{away_token}"))
    assert client.post(f"/team/{away_token}/sign").status_code == 303
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None and game.locked_at is not None  # both signed: the sheet is final


def test_the_board_follows_an_undone_and_re_entered_hand(client: FlaskClient, app: Flask) -> None:
    """Match outcomes are cached per game and last change: an undo and a different hand in its
    place (same number of hands as before) must show the new points, never the cached ones."""
    token = start_nine(client, app)
    public = events_public(app, token)
    with app.app_context():
        event = event_row(app, token)
        match = next(m for m in event.matches if m.home and m.away)
        table, scorer = match.table, match.game.scorer_token

    def row() -> str:
        page = text(client.get(f"/b/{public}"))
        found = re.search(rf"Table {table}: [^·]*", page)
        assert found is not None, page
        return found.group(0)

    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None
        games.enter_hand(game, 1, hand(1, 0))
    first = row()
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None
        games.undo(game)
        games.enter_hand(game, 1, hand(1, 1))  # the other side wins it this time
    again = row()
    assert first != again
    assert re.search(r" 4 – 0 ", first) and re.search(r" 0 – 4 ", again), (first, again)
