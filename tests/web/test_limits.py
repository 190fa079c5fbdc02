"""Issue 16, item 2: a game record is bounded before anything reads it whole or stores it: its title
(the column holds 120 characters; PostgreSQL refuses more), and its hands (at most 1,000); the
command line refuses a file over 2 MB before parsing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorepad.commands import RECORD_MAX_BYTES, score_command
from scorepad.rules.base import RuleErrors
from scorepad.rules.record import HANDS_MAX, TITLE_MAX, parse_record

pytestmark = pytest.mark.postgresql  # each test also runs on PostgreSQL (tests/conftest.py)

WHIST = {
    "variant": "whist",
    "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
}


def problems(record: dict[str, object]) -> dict[str, str]:
    with pytest.raises(RuleErrors) as raised:
        parse_record(record)
    return {e.field: e.message for e in raised.value.errors}


def test_a_title_of_the_columns_length_is_read_and_one_more_is_refused() -> None:
    assert parse_record({**WHIST, "title": "t" * TITLE_MAX}).title == "t" * TITLE_MAX
    assert problems({**WHIST, "title": "t" * (TITLE_MAX + 1)}) == {"title": "the title is longer than 120 characters"}
    assert "played" in problems({**WHIST, "played": "p" * (TITLE_MAX + 1)})


def test_a_record_holds_at_most_a_thousand_hands() -> None:
    hand = {"tricks": {"Us": 7}}
    assert HANDS_MAX == 1000
    found = problems({**WHIST, "hands": [hand] * (HANDS_MAX + 1)})
    assert found["hands"] == "a record holds at most 1000 hands; this one has 1001"


def test_the_command_line_refuses_a_huge_file_before_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps({**WHIST, "title": "x" * RECORD_MAX_BYTES}))
    result = CliRunner().invoke(score_command, [str(big)])
    assert result.exit_code == 2
    assert "too large for a game record" in result.output and "at most 2048 KB" in result.output


def test_a_home_game_with_a_long_title_is_refused_beside_the_field(client: object) -> None:
    """On the set-up page the message sits beside the title (the form's maxlength is only a hint)."""
    from tests.web.test_games import PARTNERS

    response = client.post("/new/whist", data={**PARTNERS, "title": "t" * 121})  # type: ignore[attr-defined]
    assert response.status_code == 422
    assert "The title is longer than 120 characters" in response.get_data(as_text=True)
