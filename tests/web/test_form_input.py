"""Numbers typed into forms: only plain digits count; anything else is bad input (4xx), never a 500."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorepad.form_input import signed_number, valid_pin, whole_number

STRANGE = ["²", "٧", "1_0", " 7", "7 ", "+7", "1e3", "", "x", "9" * 5000]


@pytest.mark.parametrize("raw", STRANGE)
def test_only_plain_short_digits_are_numbers(raw: str) -> None:
    assert whole_number(raw) is None
    assert signed_number(raw) is None


def test_numbers_and_pins() -> None:
    assert whole_number("007") == 7 and whole_number("1234") is None and whole_number("1234", 4) == 1234
    assert signed_number("-3") == -3 and whole_number("-3") is None
    assert valid_pin("1234") and valid_pin("12345678")
    assert not valid_pin("123") and not valid_pin("123456789") and not valid_pin("١٢٣٤")


@pytest.mark.parametrize("raw", ["²", "9" * 5000])
def test_strange_numbers_in_the_new_game_form_are_refused(client: FlaskClient, raw: str) -> None:
    form = {
        "name.0": "Ann",
        "name.1": "Bob",
        "name.2": "Cat",
        "name.3": "Dan",
        "first_dealer": raw,
        "opt.sequence": "custom",
        "opt.custom_sequence": "4, 1",
        "opt.cycles": "1",
        "action": "start",
    }
    response = client.post("/new/nomination", data=form)
    assert response.status_code == 422
    assert "deals first" in response.get_data(as_text=True)
    for option in ("opt.custom_sequence", "opt.cycles"):
        assert client.post("/new/nomination", data={**form, "first_dealer": "0", option: raw}).status_code == 422


@pytest.mark.parametrize("raw", ["²", "9" * 5000])
def test_strange_numbers_of_tables_for_a_club_night_are_refused(client: FlaskClient, raw: str) -> None:
    response = client.post("/events/new/club", data={"name": "Club", "variant": "nomination", "tables": raw})
    assert response.status_code == 422
