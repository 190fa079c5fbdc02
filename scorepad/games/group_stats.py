"""A group's statistics for its pages (issue 15): the group's finished games handed to the rules'
statistics (`rules.stats`), from the stored hands.

Nothing is stored: each game's sheet comes from games' kept derivation (`games_of`, one copy per
game and worker under its hands revision), and the figures are added up from those sheets. Adding
up a group of 300 games costs 65-100 ms a page (the rules' functions read
every sheet again for each figure), so a worker keeps each group's figures (`Figures`) while its
games are the same: the same derived sheet objects (a new hand, a correction, an undo or a changed
set-up gives a game a new one), the same finish dates and the same links to the group's players (a
merge, a game kept or taken out change them). A write elsewhere shows on the next request, whichever
worker serves it: the games are read from the database on every request, only the adding up is kept.
Unfinished games count for nothing (their hands may still change and they have no winner).

The season is a choice of the group's page: this calendar year, the last twelve months, or all
time, by the date a game finished (its last hand's entry, in the server's UTC clock).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TypeVar

from flask_babel import lazy_gettext

from scorepad.games import derived
from scorepad.games.groups import Group, GroupGame
from scorepad.kept import Kept
from scorepad.models import utcnow
from scorepad.rules import VARIANT_MODULES, stats
from scorepad.rules.stats import HeadToHead, PlayedGame, PlayerStats, ResultPoint, SeasonRow, VariantRecords

SEASONS = {"year": lazy_gettext("This year"), "12m": lazy_gettext("Last 12 months"), "all": lazy_gettext("All time")}
DEFAULT_SEASON = "year"
KEPT = 256  # groups whose figures a worker keeps; the least recently used goes first

T = TypeVar("T")


def played(games: Iterable[GroupGame]) -> list[PlayedGame]:
    """The finished games, as the rules' statistics read them (the unfinished left out)."""
    return [
        PlayedGame(g.variant, _utc(g.finished_at), g.setup, g.hands, g.sheet, g.players)
        for g in games
        if g.finished_at is not None and g.sheet.finished
    ]


def _utc(moment: datetime) -> datetime:
    """A moment as the database gives it back (naive, UTC), also when it was just written (aware)."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def now() -> datetime:
    return _utc(utcnow())


# --------------------------------------------------------------------------- seasons


def season_start(season: str, now: datetime) -> datetime | None:
    """When the season began (None: all time): 1 January, or the same day a year ago (from its
    midnight, so the figures change once a day). `season` is one of SEASONS' keys."""
    if season == "year":
        return datetime(now.year, 1, 1)
    if season == "12m":
        day = now.date()
        year_ago = day.replace(year=day.year - 1) if (day.month, day.day) != (2, 29) else date(day.year - 1, 2, 28)
        return datetime(year_ago.year, year_ago.month, year_ago.day)
    if season == "all":
        return None
    raise ValueError(f"no such season: {season!r}")


def _moment(when: date) -> datetime:
    return when if isinstance(when, datetime) else datetime(when.year, when.month, when.day)


def since(games: Sequence[PlayedGame], start: datetime | None) -> list[PlayedGame]:
    """The games finished at `start` or later (all of them for None)."""
    return [g for g in games if start is None or _moment(g.finished) >= start]


# --------------------------------------------------------------------------- what the pages show


@dataclass(frozen=True)
class Overview:
    """What the group's page shows of its statistics."""

    finished: int  # finished games, all time
    in_season: int  # of those, finished in the season
    table: tuple[SeasonRow, ...]  # the season's table
    records: tuple[VariantRecords, ...]  # all time, one per variant played


@dataclass(frozen=True)
class PlayerPage:
    """One player's figures per variant (all time) and their results over time."""

    by_variant: dict[str, PlayerStats]
    results: dict[str, tuple[ResultPoint, ...]]

    @property
    def games(self) -> int:
        return sum(s.games for s in self.by_variant.values())


@dataclass(frozen=True)
class Versus:
    """Two players against each other: in all variants, then in each variant they met in."""

    total: HeadToHead
    by_variant: dict[str, HeadToHead]


@dataclass
class Figures:
    """A group's finished games and the figures worked out from them so far (kept per worker while
    the games are the same: see the module's notes)."""

    games: list[PlayedGame]
    _done: dict[tuple[object, ...], object] = field(default_factory=dict)

    def _once(self, key: tuple[object, ...], work: Callable[[], T]) -> T:
        if key not in self._done:
            self._done[key] = work()
        return self._done[key]  # type: ignore[return-value]

    def overview(self, season: str, at: datetime | None = None) -> Overview:
        """The season's table (season: one of SEASONS' keys, as it stands at `at`, default now) and
        the all-time records."""
        start = season_start(season, at or now())

        def work() -> Overview:
            season_games = since(self.games, start)
            return Overview(
                len(self.games),
                len(season_games),
                stats.season_table(season_games),
                tuple(stats.variant_records(self.games).values()),
            )

        return self._once(("overview", start), work)

    def player(self, player: int) -> PlayerPage:
        def work() -> PlayerPage:
            return PlayerPage(
                stats.player_stats(self.games).get(player, {}), stats.results_over_time(self.games, player)
            )

        return self._once(("player", player), work)

    def versus(self, a: int, b: int) -> Versus:
        def work() -> Versus:
            each = {
                v: stats.head_to_head(self.games, a, b, v)
                for v in VARIANT_MODULES
                if any(g.variant == v for g in self.games)
            }
            return Versus(stats.head_to_head(self.games, a, b), {v: h for v, h in each.items() if h.games})

        return self._once(("versus", a, b), work)


def _stamp(rows: Sequence[GroupGame]) -> tuple[tuple[object, ...], ...]:
    """What kept figures must match: each finished game's link, its derivation's stamp (its hands'
    revision and set-up: `derived.stamp`), its finish date and its players."""
    return tuple(
        (r.game.public_id, derived.stamp(r.game), r.finished_at, r.players)
        for r in rows
        if r.finished_at is not None and r.sheet.finished
    )


# By the group's secret link; the same games give the same figures (compared by their played games)
_FIGURES: Kept[Figures] = Kept("group figures", size=KEPT, same=lambda a, b: a.games == b.games)


def figures(group: Group, rows: Sequence[GroupGame]) -> Figures:
    """The group's figures for its games `rows` (as `games_of` read them in this request): this
    worker's when its games are the same, else new ones (kept)."""
    return _FIGURES.get(group.token, _stamp(rows), lambda _: Figures(played(rows)))
