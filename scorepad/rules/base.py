"""The contract every variant module fulfils, and the value types it speaks in.

A game is a `Setup` (who plays, under which options) plus the hands as entered, each hand a plain
JSON-like mapping exactly as a player typed it (the database and the game-record files store those
mappings). A variant reads the mappings, refuses bad ones with `RuleError`s that name the field,
and derives everything else: the schedule of rounds, the score sheet, the standings and the state.
Nothing here knows about Flask, SQL or files.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, TypeVar

from scorepad.rules.cards import Trump
from scorepad.rules.errors import QUOTE_MAX as QUOTE_MAX
from scorepad.rules.errors import ErrorCollector as ErrorCollector
from scorepad.rules.errors import M as M
from scorepad.rules.errors import Message as Message
from scorepad.rules.errors import RuleError as RuleError
from scorepad.rules.errors import RuleErrors as RuleErrors
from scorepad.rules.errors import joined as joined
from scorepad.rules.errors import quoted as quoted

# A hand as entered: JSON values only (str, int, bool, None, lists, dicts).
RawHand = Mapping[str, object]
OptionValue = bool | int | str | tuple[int, ...]


def key_field(key: object) -> str:
    """An unknown key as an error's field: escaped like `quoted`, without the quotes."""
    text = repr(str(key))[1:-1]
    return text if len(text) <= QUOTE_MAX else f"{text[: QUOTE_MAX - 3]}..."


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Choice:
    """One allowed value of a text option, with the words shown to the scorer."""

    value: str
    label: str


@dataclass(frozen=True)
class OptionSpec:
    """An option of a variant: its key, its label, its default and what values it takes.

    The kind follows the default's type: bool, int (within minimum..maximum), str (one of
    `choices`) or a tuple of ints (a list such as a custom card sequence: each item within
    minimum..maximum, and at most `max_items` of them, counted before any item is read, so that a
    list as long as a form can carry costs no more than one a game can use).
    """

    key: str
    label: str
    default: OptionValue
    help: str = ""
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # Whether the option means anything under the others (None: always): "Custom list" only with "My
    # own list". A sheet says the options in force that matter (`describe_in_force`), not every one.
    matters: Callable[[Options], bool] | None = field(default=None, compare=False)
    max_items: int | None = None  # a list option's longest list
    # A list past `max_items` in the option's own words ("Hands per day: at most 5 days, not 6"),
    # given the count; None says "values".
    too_many: Callable[[int], Message] | None = field(default=None, compare=False)

    def parse(self, raw: object) -> OptionValue:
        """Check and normalise a value given for this option."""
        where = f"options.{self.key}"
        if isinstance(self.default, bool):
            if not isinstance(raw, bool):
                raise RuleError(where, M("%(option)s must be true or false", option=self.label))
            return raw
        if isinstance(self.default, int):
            return self._parse_int(raw, where, self.label)
        if isinstance(self.default, str):
            values = [c.value for c in self.choices]
            if raw not in values:  # said as the set-up screen says the choices, not as the record stores them
                labels = [M('"%(choice)s"', choice=c.label) for c in self.choices]
                raise RuleError(
                    where,
                    M(
                        "%(option)s must be one of: %(choices)s or %(last)s",
                        option=self.label,
                        choices=joined(labels[:-1]),
                        last=labels[-1],
                    ),
                )
            assert isinstance(raw, str)
            return raw
        if not isinstance(raw, (list, tuple)) or not raw:
            raise RuleError(where, M("%(option)s must be a non-empty list of whole numbers", option=self.label))
        if self.max_items is not None and len(raw) > self.max_items:
            raise RuleError(
                where,
                self.too_many(len(raw))
                if self.too_many is not None
                else M(
                    "%(option)s: at most %(most)s values, not %(count)s",
                    option=self.label,
                    most=self.max_items,
                    count=len(raw),
                ),
            )
        return tuple(self._parse_int(item, where, M("each value of %(option)s", option=self.label)) for item in raw)

    def _parse_int(self, raw: object, where: str, what: str) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise RuleError(where, M("%(what)s must be a whole number", what=what))
        if self.minimum is not None and raw < self.minimum:
            raise RuleError(where, M("%(what)s must be at least %(minimum)s", what=what, minimum=self.minimum))
        if self.maximum is not None and raw > self.maximum:
            raise RuleError(where, M("%(what)s must be at most %(maximum)s", what=what, maximum=self.maximum))
        return raw

    def describe(self, value: OptionValue) -> str:
        """Say a value in words, for the set-up screen and exports."""
        if isinstance(value, bool):
            return M("yes") if value else M("no")
        if isinstance(value, str):
            return next((c.label for c in self.choices if c.value == value), value)
        if isinstance(value, tuple):
            return ", ".join(str(v) for v in value)
        return str(value)


@dataclass(frozen=True)
class Options:
    """A variant's options after validation: every key present, every value checked."""

    values: Mapping[str, OptionValue]

    def get_bool(self, key: str) -> bool:
        value = self.values[key]
        assert isinstance(value, bool)
        return value

    def get_int(self, key: str) -> int:
        value = self.values[key]
        assert isinstance(value, int) and not isinstance(value, bool)
        return value

    def get_str(self, key: str) -> str:
        value = self.values[key]
        assert isinstance(value, str)
        return value

    def get_ints(self, key: str) -> tuple[int, ...]:
        value = self.values[key]
        assert isinstance(value, tuple)
        return value

    def as_json(self) -> dict[str, object]:
        """The options as JSON values (lists for tuples), for records and exports."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.values.items()}


def resolve_options(specs: Sequence[OptionSpec], raw: Mapping[str, object] | None) -> Options:
    """Fill defaults and check every given option; unknown keys are refused."""
    raw = raw or {}
    errors = ErrorCollector()
    known = {s.key for s in specs}
    for key in raw:
        if key not in known:
            errors.add(
                RuleError(f"options.{key_field(key)}", M("%(key)s is not an option of this variant", key=quoted(key)))
            )
    values: dict[str, OptionValue] = {}
    for spec in specs:
        if spec.key not in raw:
            values[spec.key] = spec.default
            continue
        try:
            values[spec.key] = spec.parse(raw[spec.key])
        except RuleError as e:
            errors.add(e)
    errors.raise_if_any()
    return Options(values)


def describe_options(specs: Sequence[OptionSpec], options: Options) -> list[tuple[str, str]]:
    """(label, value in words) for every option, in the variant's order."""
    return [(s.label, s.describe(options.values[s.key])) for s in specs]


def describe_in_force(specs: Sequence[OptionSpec], options: Options) -> list[tuple[str, str]]:
    """(label, value in words) for the options that matter under the others: the rules a sheet was
    kept by, without those the game never used (a whist drive's scoring in a rubber)."""
    return [(s.label, s.describe(options.values[s.key])) for s in specs if s.matters is None or s.matters(options)]


# --------------------------------------------------------------------------- who plays


@dataclass(frozen=True)
class Team:
    """A partnership or team: its name and, when known, its players' names in seat order."""

    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first hand: variant, options, who plays, first dealer.

    Individual variants (Nomination, Australian) use `players`, clockwise. Partnership and team
    variants (Whist, Bid Whist, Military Whist) use `teams`. `first_dealer` is a seat index: a
    player index for individual games; for four-handed partnership games the seats go round the
    table as team 0's first player, team 1's first, team 0's second, team 1's second (seat s
    belongs to team s % 2).
    """

    variant: str
    options: Options
    players: tuple[str, ...] = ()
    teams: tuple[Team, ...] = ()
    first_dealer: int = 0

    @property
    def columns(self) -> tuple[str, ...]:
        """The names heading the score sheet's columns: players, or teams."""
        return self.players if self.players else tuple(t.name for t in self.teams)


# --------------------------------------------------------------------------- rounds


class RoundKind(str, Enum):
    """What is special about a round, if anything."""

    NORMAL = "normal"
    NO_TRUMPS = "no_trumps"
    BLIND = "blind"  # bids taken before the cards are seen
    MISERE = "misere"  # no bids; every trick won costs points
    GIVEAWAY = "giveaway"  # Military Whist's NT Low: count the opponents' tricks
    PLAYOFF = "playoff"  # an extra hand to settle a tie


@dataclass(frozen=True)
class RoundSpec:
    """What one hand is, before it is played: read from the schedule, shown at the table.

    `trump` is None when it is decided at the table (a turned-up card) and entered with the
    hand. `dealer` and `first_bidder` are seat indices (see `Setup`); `first_bidder` is None
    when the hand has no bidding. `note` is one line explaining anything unusual.
    Variants may subclass this to add their own fields (Military Whist's pairs and moves).
    """

    number: int
    cards: int
    trump: Trump | None
    dealer: int
    first_bidder: int | None = None
    kind: RoundKind = RoundKind.NORMAL
    note: str = ""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Cell:
    """One column of one line of the score sheet: what that seat scored this hand."""

    points: int
    total: int
    detail: str = ""  # e.g. "bid 2, took 2", "3 odd tricks", "took 1 flag"
    bid: int | None = None
    tricks: int | None = None
    made: bool | None = None


@dataclass(frozen=True)
class Line:
    """One hand on the score sheet: its spec, one cell per column, and a note."""

    number: int
    spec: RoundSpec
    cells: tuple[Cell, ...]
    note: str = ""  # e.g. "Game to Us, 5-3", "Set: They score 10 (no trumps, doubled)"


@dataclass(frozen=True)
class Standing:
    """A column's place: equal results share a rank (1, 1, 3)."""

    seat: int
    name: str
    total: int
    rank: int
    detail: str = ""  # e.g. "2 games to 1", "3 rounds won, 41 points"


@dataclass(frozen=True)
class Scoreboard:
    """Two sides' score as it is called across the table: the points toward game (or in the round)
    shown big, the games or rounds already won beside them. Whist's standings count games, so 4-4
    in the game in play read "0 v 0" without it."""

    heading: str  # "Game 2: 5 points win it", "Round 1 of 3", "First to 7 points"
    points: tuple[int, int]
    won: tuple[int, int] = (0, 0)
    unit: str = ""  # "game" or "round": what `won` counts; "" when there is nothing to count


@dataclass(frozen=True)
class ScoreSheet:
    """The whole game as derived from the hands: lines, standings, and whether it is over."""

    variant: str
    columns: tuple[str, ...]
    lines: tuple[Line, ...]
    standings: tuple[Standing, ...]  # best first
    finished: bool
    winners: tuple[int, ...] = ()  # column indices; more than one is a tie; empty until finished
    summary: str = ""  # one line: "Ann wins with 112", "Tie: Us and Them 5-5"
    scoreboard: Scoreboard | None = None  # two sides playing to game (Whist, Bid Whist)
    # what the standings' totals count when it is not points ("Games won"): Whist's totals count games
    # while its scoreboard shows the points of the game in play, and the two must not read as one score
    standings_label: str = ""


@dataclass(frozen=True)
class GameState:
    """Where the game stands: what the table must do next.

    `step` is "bids" (waiting for `to_act`'s bid), "result" (waiting for tricks, books or
    flags), or "over". `forbidden_bid` is the single value the hook rule denies `to_act`, so
    a screen can disable it. `missing` lists, in words, what the current hand still needs.
    """

    hands_played: int
    over: bool
    step: str
    next_round: RoundSpec | None
    to_act: int | None = None
    legal_bids: tuple[int, ...] = ()
    forbidden_bid: int | None = None
    missing: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()


def rank(
    totals: Sequence[int], names: Sequence[str], details: Sequence[str] | None = None, higher_is_better: bool = True
) -> tuple[Standing, ...]:
    """Standings by total, best first; equal totals share a rank (competition ranking)."""
    order = sorted(range(len(totals)), key=lambda i: (-totals[i] if higher_is_better else totals[i], i))
    standings: list[Standing] = []
    for pos, seat in enumerate(order):
        if pos and totals[seat] == totals[order[pos - 1]]:
            place = standings[-1].rank
        else:
            place = pos + 1
        detail = details[seat] if details else ""
        standings.append(Standing(seat, names[seat], totals[seat], place, detail))
    return tuple(standings)


def leaders(standings: Sequence[Standing]) -> tuple[int, ...]:
    """The seats ranked first (several when tied)."""
    return tuple(s.seat for s in standings if s.rank == 1)


# --------------------------------------------------------------------------- a group's statistics


@dataclass(frozen=True)
class FactSpec:
    """One of a variant's own figures on a player's statistics page (`rules.stats`): the count named
    `count` (one its `StatsFacts.count` gives), out of the one named `out_of` (None: a plain count).
    `key` names it for translation and tests; `average`: count / out_of is an average (odd tricks per
    deal), not a share out of 100%."""

    key: str
    label: Message
    count: str
    out_of: str | None = None
    average: bool = False


# What one column of one finished game adds to each of its players' counts, by name (a count not
# given is 0): the game's set-up, its hands as entered, its derived sheet, and the column.
FactCounter = Callable[[Setup, Sequence[RawHand], ScoreSheet, int], Mapping[str, int]]
# Each column's final score: the number at the foot of the sheet, as players add up the games.
FinalScores = Callable[[Setup, ScoreSheet], tuple[int, ...]]


def no_counts(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, column: int) -> Mapping[str, int]:
    """A variant with no facts of its own counts nothing."""
    return {}


def foot_of_sheet(setup: Setup, sheet: ScoreSheet) -> tuple[int, ...]:
    """Each column's running total on the sheet's last line (0 before the first hand)."""
    return tuple(cell.total for cell in sheet.lines[-1].cells) if sheet.lines else (0,) * len(sheet.columns)


def always_scored(setup: Setup) -> bool:
    """Every game of the variant ends on a score worth comparing."""
    return True


@dataclass(frozen=True)
class StatsFacts:
    """How a group's statistics (`rules.stats`) read a variant's finished sheets: the facts a player's
    page lists (`facts`, in its order), what each column counts for them (`count`: a hand's cells,
    the entries, the variant's own ledger), and the final score (`final_scores`: the foot of the
    sheet unless the variant's totals restart, as Whist's do after each game of a rubber).

    `scored(setup)`: whether a game so set up ends on a score players add up and compare (not
    Whist played to game, whose points restart each game: a rubber's points added up mean
    nothing); the averages, best scores and the highest-score record count only those games.
    `own_results`: the variant's facts count what was won in its own units (Whist: drives, games
    and rubbers apart), so a player's page lists them instead of one count of sheets.

    A variant that counts `hands_bid` and `exact_bids` also has a best exact-bid-rate record."""

    facts: tuple[FactSpec, ...] = ()
    count: FactCounter = no_counts
    final_scores: FinalScores = foot_of_sheet
    scored: Callable[[Setup], bool] = always_scored
    own_results: bool = False


# --------------------------------------------------------------------------- derived once


_Derivation = TypeVar("_Derivation")
DERIVED_KEPT = 2048  # derivations kept per derive function (a sheet of 25 hands is a few KB)
_KEPT_DERIVATIONS: list[dict[tuple[int, int], object]] = []  # each derive function's, for forget_derivations


def forget_derivations() -> None:
    """Drop every derivation kept by `derived_once` (a process that checks one record after another,
    scorepad/offload.py's helper, never asks for the same hands twice)."""
    for kept in _KEPT_DERIVATIONS:
        kept.clear()


def forget_derived(setup: Setup, hands: Sequence[RawHand]) -> None:
    """Drop what `derived_once` keeps for these very set-up and hands objects (a derivation made to
    check rows that nobody asks for again: a restored event's, kept, was 450,000 objects for the
    garbage collector to walk on every full pass)."""
    for kept in _KEPT_DERIVATIONS:
        found = kept.get((id(setup), id(hands)))
        if found is not None and found[0] is setup and found[1] is hands:  # type: ignore[index]
            del kept[(id(setup), id(hands))]


def derived_once(derive: Callable[..., _Derivation]) -> Callable[..., _Derivation]:
    """Keep what `derive(..., setup, hands)` gave for the very same setup and hands objects.

    A game is derived from its complete hands more than once per request (its state, a tap's check
    and the sheet all start from it) and again on the next tap: a caller that passes the same
    objects again (hands as a tuple; games/derived.py keeps them per game) gets the derivation
    without replaying the game. Only tuples are kept, and their hands must not be changed in place:
    a list is derived anew every time. Errors are not kept (they are raised again)."""
    kept: dict[tuple[int, int], tuple[Setup, tuple[RawHand, ...], _Derivation]] = {}
    _KEPT_DERIVATIONS.append(kept)  # type: ignore[arg-type]

    @functools.wraps(derive)
    def once(*args: Any) -> _Derivation:
        setup, hands = args[-2], args[-1]
        if not isinstance(hands, tuple):
            return derive(*args)
        key = (id(setup), id(hands))
        found = kept.get(key)
        if found is not None and found[0] is setup and found[1] is hands:
            return found[2]
        result = derive(*args)
        if len(kept) >= DERIVED_KEPT:
            kept.clear()
        kept[key] = (setup, hands, result)
        return result

    return once


_Read = TypeVar("_Read")


def per_setup(read: Callable[[Setup], _Read]) -> Callable[[Setup], _Read]:
    """Keep what `read(setup)` gave for the very same set-up object, as `derived_once` keeps a
    derivation: a game's set-up is read (its options checked, its schedule built) several times a
    tap, from the one `Setup` games/derived.py keeps per game. Errors are not kept."""
    kept: dict[int, tuple[Setup, _Read]] = {}
    _KEPT_DERIVATIONS.append(kept)  # type: ignore[arg-type]

    @functools.wraps(read)
    def once(setup: Setup) -> _Read:
        found = kept.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        result = read(setup)
        if len(kept) >= DERIVED_KEPT:
            kept.clear()
        kept[id(setup)] = (setup, result)
        return result

    return once


# --------------------------------------------------------------------------- the protocol


class Variant(Protocol):
    """What every variant module provides (each module exposes one instance, `VARIANT`)."""

    key: str  # stored in the database and in records: "whist", "nomination", ...
    name: str  # "Nomination Whist"
    summary: str  # two or three sentences on how it is scored, for the home page
    option_specs: tuple[OptionSpec, ...]
    partnerships: bool  # played by teams (`Setup.teams`), not by players each on their own (`Setup.players`)
    players: range  # how many people one game seats (a team game: all its teams' players); `check_setup` agrees
    # Across a club night's tables, rank by the sheet's points (the last line's totals) rather than by
    # the standings' totals: true when those count something that says nothing across tables after a
    # hand or two (Bid Whist's rounds won).
    club_ranked_by_points: bool
    stats: StatsFacts  # what a group's statistics read from its finished sheets (its own facts, final scores)

    def check_setup(self, setup: Setup) -> None:
        """Refuse a set-up this variant cannot play (player count, team shape, dealer)."""

    def round_count(self, setup: Setup) -> int | None:
        """How many hands the schedule has, or None when play goes on until a target."""

    def round_spec(self, setup: Setup, number: int) -> RoundSpec:
        """The spec of hand `number` (1-based) of the schedule."""

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        """Refuse an entry for the hand after `before`, with RuleErrors naming each field."""

    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        """Check every hand in order and derive the score sheet (RuleErrors name the hand)."""

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        """What the table must do next, given the complete hands and a partly entered one."""
