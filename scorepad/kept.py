"""Derived state a worker keeps between requests: one mechanism for all of it.

Scores, ledgers, standings and boards are derived from the stored rows by the rules; deriving them
on every request is what a busy hall cannot afford. A `Kept` holds one kind of derived value per
key (an event, a game, a group), with the stamp it was derived at: the revision of the rows it is
derived from, which every write to them moves (a game's `hands_revision` and set-up, an event's
`revision`, a tournament's row fingerprint). One staleness rule: a value is served only while the
stamp read now is the one it was derived at. One eviction rule: at most `size` keys, the least
recently used goes first. One check: with `SCOREPAD_CHECK_KEPT_VIEWS` (the test suite) every value
served is compared with a fresh derivation (or, for a value that carries the rows it was derived
from, those rows with the stored ones), so a stamp that misses a write fails a test. A value found
fresh is not compared again at the same stamp until the database has committed something (any
commit of this process): with no write in between, a fresh derivation would read the same rows.

A derivation may start from the value kept before (`derive(previous)`): a new entry advances the
kept state instead of replaying every stored hand; the check still compares it with one derived
from nothing. Derived from nothing means what it says: while the check derives afresh, every
`Kept` the derivation goes through (a board's match outcomes) derives afresh too, neither keeping
nor checking again what the outer check already checks; only a value checked by the rows it was
derived from (a game's sheet) is taken as kept, when those rows are the stored ones.

Each app has its own (in `app.extensions`), so tests never share state; each worker process its
own, which is why the stamp is read from the database: a write by another worker moves it too.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Generic, TypeVar

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

V = TypeVar("V")
CHECK = "SCOREPAD_CHECK_KEPT_VIEWS"
_AFRESH: ContextVar[bool] = ContextVar("scorepad.kept.afresh", default=False)  # the check deriving from nothing
_commits = 0  # every commit of this process, on any engine: what the check's "no write since" reads


@event.listens_for(Engine, "commit")
def _count_commit(connection: Connection) -> None:
    global _commits
    _commits += 1


class Kept(Generic[V]):
    """One kind of derived value, kept per key under its stamp (see the module's docstring)."""

    def __init__(self, name: str, size: int, same: Callable[[V, V], bool] = operator.eq) -> None:
        self.name, self.size, self.same = name, size, same

    def _entries(self) -> tuple[threading.Lock, OrderedDict[Hashable, tuple[object, V]]]:
        kept: dict[str, tuple[threading.Lock, OrderedDict[Hashable, tuple[object, V]]]] = (
            current_app.extensions.setdefault("scorepad.kept", {})
        )
        return kept.setdefault(self.name, (threading.Lock(), OrderedDict()))

    def get(
        self,
        key: Hashable,
        stamp: object,
        derive: Callable[[V | None], V],
        stamp_now: Callable[[], object] | None = None,
        derived_from_now: Callable[[V], bool] | None = None,
    ) -> V:
        """The value kept for `key` at `stamp`, else `derive(the value kept before, or None)`, kept.

        `stamp_now` reads the stamp again: the check forgives a kept value that differs from a fresh
        one when a write came in between (the fresh one then holds it, the stamp moved).
        `derived_from_now` is the check for a value that carries the rows it was derived from, by a
        pure function of them (the rules): whether those are the rows as stored now. It stands in
        for deriving afresh, which for a whole event's replay would cost the suite ten times its work."""
        lock, entries = self._entries()
        with lock:
            found = entries.get(key)
            if found is not None and not _AFRESH.get():
                entries.move_to_end(key)
        if _AFRESH.get():  # see the module's docstring; a value checked by its rows is as good as fresh when they hold
            if found is not None and found[0] == stamp and derived_from_now is not None and derived_from_now(found[1]):
                return found[1]
            return derive(None)
        if found is not None and found[0] == stamp:
            if current_app.config.get(CHECK) and not self._checked_since_last_commit(key, stamp, found[1]):
                commits = _commits  # read before the rows are: a commit while they are read checks again
                assert self._as_fresh(found[1], derive, derived_from_now) or (
                    stamp_now is not None and stamp_now() != stamp
                ), f"kept {self.name} for {key!r} differs from one derived afresh"
                self._checked(key, stamp, found[1], commits)
            return found[1]
        value = derive(found[1] if found is not None else None)
        if current_app.config.get(CHECK) and found is not None:  # an advanced value must be a fresh one
            assert self._as_fresh(value, derive, derived_from_now) or (
                stamp_now is not None and stamp_now() != stamp
            ), f"{self.name} for {key!r} advanced from the kept one differs from one derived afresh"
        self.put(key, stamp, value)
        return value

    def _checked_since_last_commit(self, key: Hashable, stamp: object, value: V) -> bool:
        checked = current_app.extensions.get("scorepad.kept.checked", {}).get((self.name, key))
        return checked is not None and checked[0] == stamp and checked[1] is value and checked[2] == _commits

    def _checked(self, key: Hashable, stamp: object, value: V, commits: int) -> None:
        current_app.extensions.setdefault("scorepad.kept.checked", {})[(self.name, key)] = (stamp, value, commits)

    def _as_fresh(
        self, value: V, derive: Callable[[V | None], V], derived_from_now: Callable[[V], bool] | None
    ) -> bool:
        if derived_from_now is not None:
            return derived_from_now(value)
        afresh = _AFRESH.set(True)
        try:
            return self.same(derive(None), value)
        finally:
            _AFRESH.reset(afresh)

    def peek(self, key: Hashable, stamp: object) -> V | None:
        """The value kept for `key` at `stamp`, or None (nothing is derived)."""
        if _AFRESH.get():
            return None
        lock, entries = self._entries()
        with lock:
            found = entries.get(key)
        return found[1] if found is not None and found[0] == stamp else None

    def settled(self, key: Hashable, stamp: object) -> bool:
        """Whether `get(key, stamp)` will answer with the kept value and read nothing: kept at `stamp`
        and, under the suite's check, already checked since the last commit (a caller that loads
        less for a kept value loads what the check reads, in its own batch, for the others)."""
        if _AFRESH.get():
            return False
        lock, entries = self._entries()
        with lock:
            found = entries.get(key)
        if found is None or found[0] != stamp:
            return False
        return not current_app.config.get(CHECK) or self._checked_since_last_commit(key, stamp, found[1])

    def put(self, key: Hashable, stamp: object, value: V) -> None:
        """Keep `value` for `key` at `stamp` (a write that derived it already), evicting the least
        recently used past `size`."""
        if _AFRESH.get():
            return
        lock, entries = self._entries()
        with lock:
            entries[key] = (stamp, value)
            entries.move_to_end(key)
            while len(entries) > self.size:
                entries.popitem(last=False)

    def forget(self, key: Hashable) -> V | None:
        """Drop what is kept for `key` (whatever its stamp); the value dropped, or None."""
        lock, entries = self._entries()
        with lock:
            found = entries.pop(key, None)
        return found[1] if found is not None else None

    def __len__(self) -> int:
        return len(self._entries()[1])


def drop(app: Flask, *names: str) -> None:
    """Drop what `app` keeps of these kinds (every kind when none is named): as a worker just started
    (the benchmarks' cold runs, the tests of a restart)."""
    kept: dict[str, object] = app.extensions.get("scorepad.kept", {})
    for name in names or list(kept):
        kept.pop(name, None)
