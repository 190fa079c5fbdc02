"""Pure jobs for tests/web/test_offload.py, importable by scorepad.offload's helper process (which
imports a job's module by name): no test framework, no app."""

from __future__ import annotations

import os
import time

from scorepad.rules.errors import M, RuleError, RuleErrors


def twice(value: int) -> int:
    return 2 * value


def when(seconds: float) -> tuple[float, float]:
    """Its own start and end on the machine's monotonic clock (the same in every process)."""
    start = time.monotonic()
    time.sleep(seconds)
    return start, time.monotonic()


def refuse(field: str, hand: int | None) -> None:
    raise RuleError(field, M("%(count)s tricks is too many", count=14), hand)


def refuse_all() -> None:
    raise RuleErrors([RuleError("bids.1", M("no")), RuleError("tricks", M("%(n)s", n=3), 2)])


class _Local(Exception):
    def __init__(self) -> None:
        super().__init__(lambda: None)  # a lambda: its exception cannot be pickled back


def fail_unpicklably() -> None:
    raise _Local()


def die() -> None:
    os._exit(3)


def pid() -> int:
    return os.getpid()


def refuse_backup() -> None:
    """A backup with many problems, read as the restore reads one (BackupError)."""
    from scorepad.events.backup import read_file

    read_file(
        b'{"scorepad_event": 1, "kind": "backup", ' + b", ".join(b'"x%d": 1' % i for i in range(25)) + b"}", 10**6
    )
