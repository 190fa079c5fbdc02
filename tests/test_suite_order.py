"""The suite's own schedule (tests/conftest.py): the LONG tests exist, and each process starts on its share of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import LONG, pytest_collection_modifyitems

TESTS = Path(__file__).resolve().parent


@dataclass(eq=False)
class Item:
    nodeid: str


def test_every_long_test_named_exists() -> None:
    for entry in LONG:
        file, name = entry.split("::")
        assert any(f"def {name}(" in path.read_text() for path in TESTS.rglob(file)), entry


def test_each_process_starts_on_a_long_test_longest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "4")
    short = [Item(f"tests/web/test_x.py::test_{n}") for n in range(100)]
    long = [Item(f"tests/web/{name}") for name in reversed(LONG[:6])] + [Item(f"tests/{LONG[6]}[sqlite]")]
    items: list[Item] = short[:50] + long + short[50:]
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert sorted(map(id, items)) == sorted(map(id, short + long))
    share = len(items) // 4
    heads = [items[k * share] for k in range(4)]
    assert [h.nodeid.split("/")[-1] for h in heads] == list(LONG[:4])
    assert items[1].nodeid.endswith(LONG[4]) and items[share + 1].nodeid.endswith(LONG[5])
    assert items[2 * share + 1].nodeid.endswith(f"{LONG[6]}[sqlite]")
    assert [i for i in items if i in short] == short  # the others keep their order


def test_one_process_keeps_the_collected_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    items = [Item(f"tests/web/{name}") for name in reversed(LONG)]
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [f"tests/web/{name}" for name in reversed(LONG)]
