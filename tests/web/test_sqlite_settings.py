"""SQLite's journal and fsync settings (docs/operations.md, docs/benchmarks.md): WAL with synchronous=NORMAL by
default, the choice bench/durability.py and bench/two_phones.py support; the benchmarks compare
others through SCOREPAD_SQLITE_JOURNAL and SCOREPAD_SQLITE_SYNCHRONOUS, and a wrong value is said."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from scorepad import extensions  # noqa: F401  (registers the connect hook)

NUMBERS = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}


def pragmas(tmp_path: Path) -> tuple[str, int]:
    engine = create_engine(f"sqlite:///{tmp_path / 'settings.sqlite3'}")
    try:
        with engine.connect() as conn:
            return conn.execute(text("PRAGMA journal_mode")).scalar(), conn.execute(text("PRAGMA synchronous")).scalar()
    finally:
        engine.dispose()


def test_wal_and_normal_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREPAD_SQLITE_JOURNAL", raising=False)
    monkeypatch.delenv("SCOREPAD_SQLITE_SYNCHRONOUS", raising=False)
    assert pragmas(tmp_path) == ("wal", NUMBERS["NORMAL"])


def test_the_benchmarks_can_set_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_SQLITE_JOURNAL", "delete")
    monkeypatch.setenv("SCOREPAD_SQLITE_SYNCHRONOUS", "full")
    assert pragmas(tmp_path) == ("delete", NUMBERS["FULL"])


def test_a_wrong_value_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_SQLITE_SYNCHRONOUS", "sometimes")
    with pytest.raises(ValueError, match="SCOREPAD_SQLITE_SYNCHRONOUS must be one of NORMAL, FULL, EXTRA, OFF"):
        pragmas(tmp_path)
