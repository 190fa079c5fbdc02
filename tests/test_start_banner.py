"""Issue 31, item 18: `scorepad run` on a new database printed 11 migration lines before the address
to open; the address comes first."""

from __future__ import annotations

from pathlib import Path

from tests.serving import ScorepadRun


def test_the_first_thing_run_says_is_the_address_to_open(tmp_path: Path) -> None:
    run = ScorepadRun(tmp_path, SCOREPAD_DEMO="0")  # a new database: every migration runs
    try:
        printed = run.start()
    finally:
        run.stop()
    lines = [line for line in printed.splitlines() if line.strip()]
    assert lines[0] == "Scorepad is running. Open it in a browser:", printed
    assert lines[1].strip().startswith("http://127.0.0.1:"), printed
    assert "Running upgrade" not in printed and "alembic" not in printed, printed
