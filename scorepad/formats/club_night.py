"""A club night: several tables each play their own game of one variant; one ranking across them.

Each table's game is scored by its variant's rules (the home-game screens); this module only
puts every player (or team, in a partnership variant) of every table in one list, best total
first, with equal totals sharing a rank. Tables play at their own pace, so each row also says how
far its table has got: a leader after 5 hands is not yet a leader after 13.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableStandings:
    """What one table's sheet says now: each player's or team's name and total, and its progress."""

    table: int  # from 1
    names: tuple[str, ...]
    totals: tuple[int, ...]
    hands: int  # hands played so far
    scheduled: int | None  # hands in the whole game, when fixed (None: played to a target)
    finished: bool


@dataclass(frozen=True)
class Row:
    """One line of the club's ranking."""

    rank: int
    tied: bool
    name: str
    table: int
    total: int
    progress: str  # "hand 7 of 23", "finished", "7 hands"


def progress(t: TableStandings) -> str:
    if t.finished:
        return "finished"
    if t.hands == 0:
        return "not started"
    if t.scheduled:
        return f"{t.hands} of {t.scheduled} hands"
    return f"{t.hands} hand{'s' if t.hands != 1 else ''}"


def ranking(tables: Sequence[TableStandings]) -> tuple[Row, ...]:
    """Everyone across the tables, best total first; equal totals share a rank (1, 1, 3).

    Within a tie, the order is the table's number, then the seat, so the list does not jump about.
    """
    entries = [(t.totals[i], t.table, i, t) for t in tables for i in range(len(t.names))]
    entries.sort(key=lambda e: (-e[0], e[1], e[2]))
    counts = Counter(e[0] for e in entries)
    rows: list[Row] = []
    for position, (total, table, seat, t) in enumerate(entries):
        rank = rows[-1].rank if rows and rows[-1].total == total else position + 1
        rows.append(Row(rank, counts[total] > 1, t.names[seat], table, total, progress(t)))
    return tuple(rows)
