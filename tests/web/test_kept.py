"""The one mechanism for derived state a worker keeps (scorepad/kept.py): served while its stamp
holds, advanced from the value kept before when a derivation can, the least recently used evicted,
and, in the test apps, every value served compared with a fresh derivation."""

from __future__ import annotations

import pytest
from flask import Flask

from scorepad.kept import Kept


def test_a_value_is_served_while_its_stamp_holds_and_derived_again_when_it_moves(app: Flask) -> None:
    calls: list[int | None] = []
    squares = Kept[int]("squares", size=8)

    def derive(previous: int | None) -> int:
        calls.append(previous)
        return 9

    with app.app_context():
        app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False
        assert squares.get("a", 1, derive) == 9 and calls == [None]
        assert squares.get("a", 1, derive) == 9 and calls == [None]  # kept: not derived again
        assert squares.get("a", 2, derive) == 9 and calls == [None, 9]  # the stamp moved: from the one before
        assert squares.peek("a", 2) == 9 and squares.peek("a", 1) is None
        squares.forget("a")
        assert squares.peek("a", 2) is None


def test_the_least_recently_used_goes_first(app: Flask) -> None:
    kept = Kept[str]("letters", size=2)
    with app.app_context():
        app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False
        for key in "abc":
            kept.get(key, 0, lambda _, key=key: key.upper())  # type: ignore[misc]
        assert len(kept) == 2 and kept.peek("a", 0) is None and kept.peek("c", 0) == "C"
        kept.get("b", 0, lambda _: "never")  # b used: c is now the oldest
        kept.put("d", 0, "D")
        assert kept.peek("c", 0) is None and kept.peek("b", 0) == "B"


def test_each_app_keeps_its_own(app: Flask) -> None:
    from scorepad import create_app
    from tests.conftest import config_for

    other = create_app(config_for("sqlite://"))
    kept = Kept[int]("numbers", size=4)
    with app.app_context():
        kept.put("x", 0, 1)
    with other.app_context():
        assert kept.peek("x", 0) is None


def test_the_check_catches_a_kept_value_a_stamp_missed(app: Flask) -> None:
    """A write the stamp does not see (here: the rows change, the stamp does not) fails a test run."""
    rows = {"total": 10}
    totals = Kept[int]("totals", size=4)
    with app.app_context():
        assert app.config["SCOREPAD_CHECK_KEPT_VIEWS"]
        assert totals.get("event", 1, lambda _: rows["total"]) == 10
        rows["total"] = 11
        with pytest.raises(AssertionError, match="kept totals for 'event' differs"):
            totals.get("event", 1, lambda _: rows["total"])
        # ... unless the stamp read again shows a write came in between
        assert totals.get("event", 1, lambda _: rows["total"], stamp_now=lambda: 2) == 10


def test_the_check_catches_an_advance_that_differs_from_a_fresh_derivation(app: Flask) -> None:
    hands = [3, 4]
    sums = Kept[int]("sums", size=4)

    def wrong_advance(previous: int | None) -> int:
        return sum(hands) if previous is None else previous + hands[-1] + 1  # one too many

    with app.app_context():
        assert sums.get("game", 1, wrong_advance) == 7
        hands.append(5)
        with pytest.raises(AssertionError, match="advanced from the kept one differs"):
            sums.get("game", 2, wrong_advance)


def test_a_value_found_fresh_is_compared_again_once_anything_is_committed(app: Flask) -> None:
    from sqlalchemy import text

    from scorepad.extensions import db

    rows = {"total": 10}
    totals = Kept[int]("totals", size=4)
    with app.app_context():
        totals.get("event", 1, lambda _: rows["total"])
        assert totals.get("event", 1, lambda _: rows["total"]) == 10  # compared, found fresh
        rows["total"] = 11  # not through the database: nothing committed, nothing compared again
        assert totals.get("event", 1, lambda _: rows["total"]) == 10
        with db.engine.begin() as connection:
            connection.execute(text("SELECT 1"))
        with pytest.raises(AssertionError, match="kept totals for 'event' differs"):
            totals.get("event", 1, lambda _: rows["total"])


def test_a_value_is_settled_once_kept_and_checked_until_the_next_commit(app: Flask) -> None:
    """`settled`: whether a get will read nothing (a Bid Whist board loads less of a game whose
    outcome is settled, and what the check reads of the others in one batch)."""
    from sqlalchemy import text

    from scorepad.extensions import db

    totals = Kept[int]("totals", size=4)
    with app.app_context():
        assert not totals.settled("event", 1)  # nothing kept
        totals.get("event", 1, lambda _: 10)
        assert not totals.settled("event", 1)  # kept, not yet compared with a fresh one
        totals.get("event", 1, lambda _: 10)
        assert totals.settled("event", 1) and not totals.settled("event", 2)
        with db.engine.begin() as connection:
            connection.execute(text("SELECT 1"))
        assert not totals.settled("event", 1)  # a commit since: the next get compares again
        app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False
        assert totals.settled("event", 1)  # no check: kept is settled


def test_the_check_derives_what_a_value_is_made_of_afresh_and_keeps_none_of_it(app: Flask) -> None:
    """A board made of match outcomes: the check derives the outcomes from nothing too, without
    reading, keeping or checking again the outcomes kept."""
    rows = {"points": 1}
    outcomes, boards = Kept[int]("outcomes", size=4), Kept[int]("boards", size=4)

    def board(_: int | None) -> int:
        return outcomes.get("match", 1, lambda _: rows["points"]) * 10

    with app.app_context():
        assert boards.get("event", 1, board) == 10
        rows["points"] = 2  # a write neither stamp sees
        from sqlalchemy import text

        from scorepad.extensions import db

        with db.engine.begin() as connection:
            connection.execute(text("SELECT 1"))
        with pytest.raises(AssertionError, match="kept boards for 'event' differs"):
            boards.get("event", 1, board)
        assert outcomes.peek("match", 1) == 1  # the outcome derived afresh by the check was not kept
