"""The scorer's double-tap guard (static/js/app.js) is a setting, SCOREPAD_TAP_GUARD_MS: the page
carries it, and a wrong value is said plainly at start-up."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app
from scorepad.config import tap_guard_ms
from tests.conftest import config_for, migrate, release
from tests.web.test_games import PARTNERS

GUARD = re.compile(r'<div id="play-body" data-tap-guard-ms="(\d+)">')


def guard_on_the_scoring_page(client: FlaskClient) -> list[str]:
    started = client.post("/new/whist", data=PARTNERS)
    assert started.status_code == 303
    return GUARD.findall(client.get(started.headers["Location"]).get_data(as_text=True))


def test_the_scoring_page_carries_the_guard_600_ms_by_default(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for environment, expected in ((None, "600"), ("250", "250"), ("0", "0")):
        if environment is None:
            monkeypatch.delenv("SCOREPAD_TAP_GUARD_MS", raising=False)
        else:
            monkeypatch.setenv("SCOREPAD_TAP_GUARD_MS", environment)
        app: Flask = create_app(config_for(database))
        migrate(app)
        try:
            assert guard_on_the_scoring_page(app.test_client()) == [expected]
        finally:
            release(app)


def test_a_wrong_guard_is_said_at_start_up() -> None:
    assert tap_guard_ms("") == 600 and tap_guard_ms(" 0 ") == 0 and tap_guard_ms("5000") == 5000
    for wrong in ("soon", "-1", "5001", "0.5"):
        with pytest.raises(ValueError, match="SCOREPAD_TAP_GUARD_MS must be how long"):
            tap_guard_ms(wrong)
