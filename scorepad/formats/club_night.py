"""A club night: several tables each play their own game of one variant; one ranking across them.

Each table's game is scored by its variant's rules (the home-game screens); this module only
puts every player (or team, in a partnership variant) of every table in one list, best total
first, with equal totals sharing a rank. Tables play at their own pace, so each row also says how
far its table has got: a leader after 5 hands is not yet a leader after 13.

The total compared across tables is the variant's standing total (games for Whist, points for
Nomination and Australian), except for a variant whose `Variant.club_ranked_by_points` says
otherwise, Bid Whist: its tournament standing counts rounds won first, which says nothing across
tables after a hand or two (8-0 after two hands would be 0-0), so Bid Whist teams are ranked by
their points, with their rounds won shown beside them.

A night where each table chooses its variant is ranked one of two ways, as the director chose:
within each variant (`by_variant`: a ranking as above per variant, since a Whist total of games
and a Nomination total of points cannot be compared), or all together by place (`by_place`).
A player's place score is the share of the other players (or teams) of their own variant that
they are ahead of, a tie counting half: first of their variant is 100%, last 0%, whatever the
variant's scale. It is how bridge clubs compare pairs who played different boards (match points),
it asks nothing of a variant's scoring, and a night of one variant ranks exactly as by totals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from scorepad.rules import get_variant
from scorepad.rules.errors import M


def ranked_totals(variant: str, standing_totals: Sequence[int], points: Sequence[int]) -> tuple[int, ...]:
    """What a table's players are ranked by across the tables (see the module's docstring)."""
    return tuple(points) if get_variant(variant).club_ranked_by_points else tuple(standing_totals)


@dataclass(frozen=True)
class TableStandings:
    """What one table's sheet says now: each player's or team's name and total, and its progress."""

    table: int  # from 1
    names: tuple[str, ...]
    totals: tuple[int, ...]
    hands: int  # hands played so far
    scheduled: int | None  # hands in the whole game, when fixed (None: played to a target)
    finished: bool
    details: tuple[str, ...] = ()  # the table's own standing in words, e.g. "1 round won, 8 points"
    variant: str = ""  # the variant's key: a night where each table chooses is ranked by it


@dataclass(frozen=True)
class Row:
    """One line of the club's ranking."""

    rank: int
    tied: bool
    name: str
    table: int
    total: int
    progress: str  # "hand 7 of 23", "finished", "7 hands"
    detail: str = ""
    variant: str = ""
    share: Fraction | None = None  # the place score (`by_place`): the share of the variant's others beaten


@dataclass(frozen=True)
class Section:
    """One variant's own ranking, on a night where each table chooses its variant."""

    variant: str
    rows: tuple[Row, ...]


def progress(t: TableStandings) -> str:
    if t.finished:
        return M("finished")
    if t.hands == 0:
        return M("not started")
    if t.scheduled:
        return M("%(hands)s of %(total)s hands", hands=t.hands, total=t.scheduled)
    return M("1 hand") if t.hands == 1 else M("%(hands)s hands", hands=t.hands)


def ranking(tables: Sequence[TableStandings]) -> tuple[Row, ...]:
    """Everyone across the tables, best total first; equal totals share a rank (1, 1, 3).

    Within a tie, the order is the table's number, then the seat, so the list does not jump about.
    """
    return tuple(
        Row(rank, tied, t.names[seat], t.table, t.totals[seat], progress(t), _detail(t, seat), t.variant)
        for rank, tied, _, t, seat in _ranked([(t.totals[i], t, i) for t in tables for i in range(len(t.names))])
    )


_Score = TypeVar("_Score", int, Fraction)


def _ranked(
    scored: Sequence[tuple[_Score, TableStandings, int]],
) -> list[tuple[int, bool, _Score, TableStandings, int]]:
    """(rank, tied, score, table, seat) for each (score, table, seat), the best score first; equal
    scores share a rank (1, 1, 3), the table's number and then the seat ordering them."""
    entries = sorted(scored, key=lambda e: (-e[0], e[1].table, e[2]))
    counts = Counter(score for score, _, _ in entries)
    ranked: list[tuple[int, bool, _Score, TableStandings, int]] = []
    for position, (score, t, seat) in enumerate(entries):
        rank = ranked[-1][0] if ranked and ranked[-1][2] == score else position + 1
        ranked.append((rank, counts[score] > 1, score, t, seat))
    return ranked


def _detail(t: TableStandings, seat: int) -> str:
    return t.details[seat] if seat < len(t.details) else ""


def by_variant(tables: Sequence[TableStandings]) -> tuple[Section, ...]:
    """A ranking per variant, the variants in the order of the first table playing each."""
    first: dict[str, int] = {}
    for t in sorted(tables, key=lambda t: t.table):
        first.setdefault(t.variant, t.table)
    return tuple(Section(v, ranking([t for t in tables if t.variant == v])) for v in first)


def place_share(total: int, field: Sequence[int]) -> Fraction:
    """The share of the others in `field` (every total of the variant, `total` among them) that
    `total` is ahead of, a tie counting half; alone in its variant, a half (ahead of no one, behind
    no one)."""
    others = len(field) - 1
    if others < 1:
        return Fraction(1, 2)
    below = sum(1 for other in field if other < total)
    level = sum(1 for other in field if other == total) - 1
    return Fraction(2 * below + level, 2 * others)


def by_place(tables: Sequence[TableStandings]) -> tuple[Row, ...]:
    """Everyone across the tables and variants, best place score first (see the module's
    docstring); equal scores share a rank, then the table's number and the seat order them."""
    fields: dict[str, list[int]] = {}
    for t in tables:
        fields.setdefault(t.variant, []).extend(t.totals[: len(t.names)])
    shares = [(place_share(t.totals[i], fields[t.variant]), t, i) for t in tables for i in range(len(t.names))]
    return tuple(
        Row(rank, tied, t.names[seat], t.table, t.totals[seat], progress(t), _detail(t, seat), t.variant, share)
        for rank, tied, share, t, seat in _ranked(shares)
    )
