"""Each player's own results (issue 30, item 3): every hand a player or a team played, where, against
whom, what it scored, the running total and the place, derived from the rows on every read as the
sheets and standings are (nothing of it is stored).

A home game's column gets a page of its own, and each event format gives its entrants theirs
(`events/results.py`) in the same shapes, so one template shows them all. A page's address is a
code derived from the game's or the event's public id and the player's place in it (`code`): the
same on every render and after a restart, unguessable without the public id, and with no row or
secret of its own.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from scorepad.models import SHORT_ALPHABET
from scorepad.rules.base import ScoreSheet
from scorepad.rules.errors import M, joined

CODE_LENGTH = 10  # about 49.5 bits, as a table's or a team's card


def code(public_id: str, key: str, length: int = CODE_LENGTH) -> str:
    """The code of a results page: a digest of the public id it belongs to and the player's key
    ("seat-2", "team-5"), said in SHORT_ALPHABET."""
    digest = int.from_bytes(hashlib.sha256(f"scorepad results\x00{public_id}\x00{key}".encode()).digest(), "big")
    letters = []
    for _ in range(length):
        digest, index = divmod(digest, len(SHORT_ALPHABET))
        letters.append(SHORT_ALPHABET[index])
    return "".join(letters)


@dataclass(frozen=True)
class Played:
    """One hand as a player's page lists it."""

    label: str  # "Hand 3", "Round 2 · hand 4"
    where: str  # "Table 3", "Table 3 · home pair X&Y", "" at a home game
    against: str  # the opponents' names
    points: int | None  # what the hand scored for this player (None: nothing scored, e.g. a bye)
    detail: str  # the hand in words, as the sheet says it ("bid 2, took 2", "took 1 flag")
    total: int | None  # the running total after it
    partner: str = ""  # whom they played with, where partners change (a whist drive)


@dataclass(frozen=True)
class PlayerResults:
    """One player's or team's page."""

    code: str
    name: str
    members: tuple[str, ...]  # a team's players, when known
    rank: int | None  # None while nothing is ranked
    tied: bool
    of: int  # how many players or teams are ranked
    total: int
    total_words: str  # the standing in words: "3 rounds won, 41 points", "12 flags"
    hands: tuple[Played, ...]
    finished: bool
    note: str = ""  # more about the place: a medal, a prize

    @property
    def place(self) -> str:
        """The place as players write it: "3", or "3=" when it is shared."""
        if self.rank is None:
            return ""
        return f"{self.rank}=" if self.tied else str(self.rank)


def game_players(
    sheet: ScoreSheet, public_id: str, key: str = "seat", where: str = "", label_prefix: str = ""
) -> list[PlayerResults]:
    """A game's columns as players' pages: each hand's cell, against the other columns. `key` names
    the game among an event's (`game-7`), `where` its table, `label_prefix` its match."""
    ranks = {s.seat: s for s in sheet.standings}
    pages: list[PlayerResults] = []
    for seat, name in enumerate(sheet.columns):
        others = joined([n for i, n in enumerate(sheet.columns) if i != seat])
        hands = tuple(
            Played(
                M("%(prefix)s · hand %(number)s", prefix=label_prefix, number=line.number)
                if label_prefix
                else M("Hand %(number)s", number=line.number),
                where,
                others,
                line.cells[seat].points,
                line.cells[seat].detail,
                line.cells[seat].total,
            )
            for line in sheet.lines
            if seat < len(line.cells)
        )
        standing = ranks.get(seat)
        pages.append(
            PlayerResults(
                code(public_id, f"{key}-{seat}"),
                name,
                (),
                standing.rank if standing is not None else None,
                standing is not None and sum(1 for s in sheet.standings if s.rank == standing.rank) > 1,
                len(sheet.standings),
                standing.total if standing is not None else 0,
                standing.detail if standing is not None else "",
                hands,
                sheet.finished,
            )
        )
    return pages


def game_player(sheet: ScoreSheet, public_id: str, wanted: str) -> PlayerResults | None:
    """The page of the column whose code is `wanted`, else None."""
    return find(game_players(sheet, public_id), wanted)


def find(pages: Sequence[PlayerResults], wanted: str) -> PlayerResults | None:
    """The page whose code is `wanted` (as typed: any case), else None."""
    wanted = wanted.lower()
    if len(wanted) != CODE_LENGTH or not wanted.isascii():
        return None
    return next((p for p in pages if hmac.compare_digest(p.code, wanted)), None)


def by_name(pages: Sequence[PlayerResults]) -> list[PlayerResults]:
    """An index to find one's name in: alphabetical, any case."""
    return sorted(pages, key=lambda p: (p.name.casefold(), p.code))


@dataclass(frozen=True)
class EventResults:
    """Every entrant's page of an event, and whether the event is over (its final places)."""

    finished: bool
    players: tuple[PlayerResults, ...]
