"""A group's statistics, derived from its games' score sheets every time (issue 15): nothing stored.

The caller hands in the group's games as `PlayedGame`s: the variant, when the game finished, the
set-up and hands as entered, the `ScoreSheet` the variant derived from them, and for each sheet
column the ids of the group's players who sat in it (one for an individual game, the partners for
a partnership game, none for a column of people outside the group). The public functions:

- `player_stats(games)` -> {player id: {variant key: PlayerStats}}: games played, won, drawn, win
  rate, average and best final score (over the games that end on a score: `scored_games`), and
  the variant's own facts (`PlayerStats.facts()` lists the
  ones that variant has, each a `Fact` with a count and what it is out of).
- `head_to_head(games, a, b)` -> HeadToHead: the games a and b both played in different columns,
  how often each finished ahead of the other, and the ties.
- `results_over_time(games, player)` -> {variant key: (ResultPoint, ...)}: each finished game's
  date, final score and rank, in the order played, for a chart (the games that end on a score).
- `variant_records(games, min_bid_hands)` -> {variant key: VariantRecords}: the highest score,
  the longest run of wins and (a variant that counts `hands_bid` and `exact_bids`: Nomination,
  Australian) the best exact-bid rate, each a `Record`.
- `season_table(games)` -> (SeasonRow, ...): players ranked by wins, then win rate, over the games
  given (the caller picks the season's games).
- `final_scores(game)` and `column_stats(game, column)`: one game's figures, which the above add up.

What a variant counts of its own, and how its final score is read, is the variant's: its
`Variant.stats` (a `base.StatsFacts`) names its facts, counts them from a column of a finished
sheet and gives the final scores. Nothing here knows a particular variant.

Everything is worked out again from the games on each call: with 300 games already scored, each
function takes under 0.15 s on the development machine.

What counts, as players count it:
- Only finished sheets count. A game left unfinished has no winner yet and its hands may still be
  corrected, so it is left out of every figure, its hands' facts too.
- A win is a first place, shared or not: when the sheet names several winners ("Tie: Ann and Bob
  with 112 each") each of them won, as a family says both won. But when every column is first (a
  dead heat between two sides, or everyone level) nobody beat anybody: that game is `drawn`, not won.
- The final score is the column's running total on the sheet's last line, the number at the foot
  of a paper sheet: points (Nomination, Australian, Bid Whist, a whist drive) or flags (Military,
  the days added up). Whist played to game starts again at 0 after each game, so there it is the
  points scored over the whole game or rubber (odd tricks and honours): the variant's
  `stats.final_scores` says so. Such a total is no score players compare (a rubber's winners may
  have scored fewer points): the variant's `stats.scored` says which games end on a score, and
  only those count in averages, best scores, the highest-score record and the results chart.
- Ranks are the sheet's standings (equal results share a rank): Whist by games won, Bid Whist by
  rounds won then points, Military by flags then the playoff.
- A partnership's facts (contracts, Bostons, flags, odd tricks) count for each of its players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from fractions import Fraction
from typing import TYPE_CHECKING

from scorepad.rules import VARIANT_MODULES, get_variant
from scorepad.rules.base import RawHand, ScoreSheet, Setup
from scorepad.rules.errors import Message

PlayerId = int
MIN_BID_HANDS = 40  # hands bid before a player's exact-bid rate can be a record (two Australian games)


# --------------------------------------------------------------------------- the input


@dataclass(frozen=True)
class PlayedGame:
    """One game of the group: `seats[c]` holds the ids of the group's players in sheet column c."""

    variant: str
    finished: date  # a date or a datetime (all naive or all aware): orders the games
    setup: Setup
    hands: tuple[RawHand, ...]
    sheet: ScoreSheet
    seats: tuple[tuple[PlayerId, ...], ...]

    def __post_init__(self) -> None:
        if not self.variant == self.setup.variant == self.sheet.variant:
            raise ValueError(f"the game is {self.variant!r} but its set-up or sheet is another variant")
        if len(self.seats) != len(self.sheet.columns):
            raise ValueError(f"seats name {len(self.seats)} columns; the sheet has {len(self.sheet.columns)}")
        ids = [p for column in self.seats for p in column]
        if len(ids) != len(set(ids)):
            raise ValueError("a player sits in one column of a game, once")

    @classmethod
    def scored(
        cls, setup: Setup, hands: Sequence[RawHand], finished: date, seats: Sequence[Sequence[PlayerId]]
    ) -> PlayedGame:
        """A game with its sheet derived by its variant (RuleErrors if the hands do not score)."""
        hands = tuple(hands)
        sheet = get_variant(setup.variant).score(setup, hands)
        return cls(setup.variant, finished, setup, hands, sheet, tuple(tuple(c) for c in seats))


def _moment(when: date) -> datetime:
    return when if isinstance(when, datetime) else datetime.combine(when, time.min)


def _in_order(games: Iterable[PlayedGame]) -> list[PlayedGame]:
    """The finished games, oldest first (games finished at the same moment keep their order)."""
    return sorted((g for g in games if g.sheet.finished), key=lambda g: _moment(g.finished))


def _variant_order(variant: str) -> int:
    keys = list(VARIANT_MODULES)
    return keys.index(variant) if variant in keys else len(keys)


# --------------------------------------------------------------------------- one game's columns


def final_scores(game: PlayedGame) -> tuple[int, ...]:
    """Each column's final score (see the module docstring): the variant's `stats.final_scores`."""
    if not game.sheet.lines:
        return (0,) * len(game.sheet.columns)
    return get_variant(game.variant).stats.final_scores(game.setup, game.sheet)


def _scored(game: PlayedGame) -> bool:
    """Whether the game ends on a score players compare (the variant's `stats.scored`)."""
    return get_variant(game.variant).stats.scored(game.setup)


def _ranks(sheet: ScoreSheet) -> dict[int, int]:
    return {s.seat: s.rank for s in sheet.standings}


def _drawn(sheet: ScoreSheet) -> bool:
    return len(sheet.winners) == len(sheet.columns)


# --------------------------------------------------------------------------- per player and variant


@dataclass(frozen=True)
class Fact:
    """One of a variant's own figures: `count`, out of `out_of` (None: a plain count).

    `key` names it for translation; `rate` is count / out_of (a success rate, or, when `average`,
    an average such as odd tricks per deal)."""

    key: str
    label: Message
    count: int
    out_of: int | None = None
    average: bool = False

    @property
    def rate(self) -> float | None:
        return self.count / self.out_of if self.out_of else None

    @property
    def is_average(self) -> bool:
        """Its rate is an average (odd tricks per deal), not a share out of 100%."""
        return self.average


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures in one variant. All counts, so two players' lists of games add up:
    `stats(a + b) == stats(a) + stats(b)`.

    `counts` holds the variant's own counts (its `Variant.stats.count`: exact bids, contracts, flags,
    odd tricks...) by name, sorted and without zeros, so equal figures compare equal however they
    were added up; `count(name)` reads one, 0 for a name never counted (the facts of other
    variants). A count also reads as an attribute (`figures.bostons`), as templates and tests do."""

    variant: str
    games: int = 0
    won: int = 0  # first places, shared ones included
    shared_wins: int = 0  # of `won`, the first places shared with another column
    drawn: int = 0  # every column first: nobody won
    total_score: int = 0
    best_score: int | None = None
    counts: tuple[tuple[str, int], ...] = ()
    scored_games: int = 0  # of `games`, those that end on a score (`total_score` is theirs)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", tuple(sorted((k, v) for k, v in dict(self.counts).items() if v)))

    def count(self, name: str) -> int:
        return next((v for k, v in self.counts if k == name), 0)

    if not TYPE_CHECKING:  # typed code says `count(name)`; mypy checks every other attribute

        def __getattr__(self, name: str) -> int:
            if name.startswith("_") or name in _OWN_FIELDS:
                raise AttributeError(name)
            return self.count(name)

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def average_score(self) -> float | None:
        return self.total_score / self.scored_games if self.scored_games else None

    @property
    def own_results(self) -> bool:
        """The variant's facts say what was won (`StatsFacts.own_results`), not `games` and `won`."""
        return self.variant in VARIANT_MODULES and get_variant(self.variant).stats.own_results

    def __add__(self, other: PlayerStats) -> PlayerStats:
        if other.variant != self.variant:
            raise ValueError(f"cannot add {other.variant} figures to {self.variant} figures")
        counts = dict(self.counts)
        for name, value in other.counts:
            counts[name] = counts.get(name, 0) + value
        mine, theirs = self.best_score, other.best_score
        best = theirs if mine is None else mine if theirs is None else max(mine, theirs)
        return PlayerStats(
            self.variant,
            self.games + other.games,
            self.won + other.won,
            self.shared_wins + other.shared_wins,
            self.drawn + other.drawn,
            self.total_score + other.total_score,
            best,
            tuple(counts.items()),
            self.scored_games + other.scored_games,
        )

    def facts(self) -> tuple[Fact, ...]:
        """The variant's own figures (its `Variant.stats.facts`), in the order a page shows them."""
        if self.variant not in VARIANT_MODULES:
            return ()
        return tuple(
            Fact(
                spec.key,
                spec.label,
                self.count(spec.count),
                None if spec.out_of is None else self.count(spec.out_of),
                spec.average,
            )
            for spec in get_variant(self.variant).stats.facts
        )


_OWN_FIELDS = frozenset(PlayerStats.__dataclass_fields__)


def column_stats(game: PlayedGame, column: int) -> PlayerStats:
    """What one column of one finished game adds to each of its players' figures."""
    sheet = game.sheet
    score = final_scores(game)[column] if _scored(game) else None
    first = column in sheet.winners and not _drawn(sheet)
    facts = get_variant(game.variant).stats.count(game.setup, game.hands, sheet, column)
    return PlayerStats(
        game.variant,
        games=1,
        won=int(first),
        shared_wins=int(first and len(sheet.winners) > 1),
        drawn=int(_drawn(sheet)),
        total_score=score or 0,
        best_score=score,
        counts=tuple(facts.items()),
        scored_games=int(score is not None),
    )


def player_stats(games: Iterable[PlayedGame]) -> dict[PlayerId, dict[str, PlayerStats]]:
    """Every player's figures per variant, over the finished games (variants in the app's order)."""
    found: dict[PlayerId, dict[str, PlayerStats]] = defaultdict(dict)
    for game in _in_order(games):
        for column, players in enumerate(game.seats):
            if not players:
                continue
            added = column_stats(game, column)
            for player in players:
                mine = found[player]
                mine[game.variant] = mine[game.variant] + added if game.variant in mine else added
    return {
        player: dict(sorted(by_variant.items(), key=lambda kv: _variant_order(kv[0])))
        for player, by_variant in found.items()
    }


# --------------------------------------------------------------------------- head to head


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished games against each other (in different columns): how often each
    finished ahead of the other (a better rank), and how often level."""

    a: PlayerId
    b: PlayerId
    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    ties: int = 0


def head_to_head(games: Iterable[PlayedGame], a: PlayerId, b: PlayerId, variant: str | None = None) -> HeadToHead:
    """Players a and b against each other, in every variant or in `variant` only."""
    played = a_ahead = b_ahead = 0
    for game in _in_order(games):
        if variant is not None and game.variant != variant:
            continue
        column = {p: c for c, players in enumerate(game.seats) for p in players}
        if a not in column or b not in column or column[a] == column[b]:
            continue
        ranks = _ranks(game.sheet)
        played += 1
        a_ahead += ranks[column[a]] < ranks[column[b]]
        b_ahead += ranks[column[b]] < ranks[column[a]]
    return HeadToHead(a, b, played, a_ahead, b_ahead, played - a_ahead - b_ahead)


# --------------------------------------------------------------------------- over time


@dataclass(frozen=True)
class ResultPoint:
    """One finished game of a player, for a chart: its final score and rank among `of` columns."""

    finished: date
    score: int
    rank: int
    of: int
    won: bool


def results_over_time(games: Iterable[PlayedGame], player: PlayerId) -> dict[str, tuple[ResultPoint, ...]]:
    """The player's finished games per variant, oldest first."""
    found: dict[str, list[ResultPoint]] = defaultdict(list)
    for game in _in_order(games):
        if not _scored(game):
            continue
        for column, players in enumerate(game.seats):
            if player in players:
                sheet = game.sheet
                found[game.variant].append(
                    ResultPoint(
                        game.finished,
                        final_scores(game)[column],
                        _ranks(sheet)[column],
                        len(sheet.columns),
                        column in sheet.winners and not _drawn(sheet),
                    )
                )
    return {v: tuple(points) for v, points in sorted(found.items(), key=lambda kv: _variant_order(kv[0]))}


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Record:
    """A variant's record: `value` (out of `out_of` for a rate), who holds it, and when it was set.

    Several holders are partners, or players who reached it together in the same game; an equal
    value reached later does not take the record (the first to reach it keeps it)."""

    value: int
    players: tuple[PlayerId, ...]
    finished: date
    out_of: int | None = None

    @property
    def rate(self) -> float | None:
        return self.value / self.out_of if self.out_of else None


@dataclass(frozen=True)
class VariantRecords:
    """The records of one variant; None where nobody has one yet."""

    variant: str
    highest_score: Record | None = None
    longest_winning_run: Record | None = None  # games won in a row, by one player in this variant
    best_exact_bid_rate: Record | None = None  # variants counting exact bids, over `min_bid_hands` or more


def _better(
    found: tuple[Record, int] | None, value: int, players: Iterable[PlayerId], when: date, game: int
) -> tuple[Record, int]:
    """The record, and the index of the game that set it, after `value` is reached by `players`
    in game number `game` (games come oldest first)."""
    if found is None or value > found[0].value:
        return Record(value, tuple(sorted(set(players))), when), game
    record, set_in = found
    if value == record.value and set_in == game:  # reached together in one game
        return Record(value, tuple(sorted({*record.players, *players})), when), game
    return found


def variant_records(games: Iterable[PlayedGame], min_bid_hands: int = MIN_BID_HANDS) -> dict[str, VariantRecords]:
    """Each played variant's records over the finished games."""
    ordered = _in_order(games)
    highest: dict[str, tuple[Record, int]] = {}
    runs: dict[str, tuple[Record, int]] = {}
    run_now: dict[tuple[str, PlayerId], int] = defaultdict(int)
    for index, game in enumerate(ordered):
        scores, won = final_scores(game), set(game.sheet.winners) if not _drawn(game.sheet) else set()
        best = max((scores[c] for c, players in enumerate(game.seats) if players), default=None)
        if not _scored(game):
            best = None  # no score to hold a record with
        for column, players in enumerate(game.seats):
            if players and scores[column] == best:
                highest[game.variant] = _better(
                    highest.get(game.variant), scores[column], players, game.finished, index
                )
        run_players: list[PlayerId] = []
        for column, players in enumerate(game.seats):
            for player in players:
                key = (game.variant, player)
                run_now[key] = run_now[key] + 1 if column in won else 0
                if run_now[key]:
                    run_players.append(player)
        longest = max((run_now[(game.variant, p)] for p in run_players), default=0)
        if longest:
            holders = [p for p in run_players if run_now[(game.variant, p)] == longest]
            runs[game.variant] = _better(runs.get(game.variant), longest, holders, game.finished, index)
    rates = _best_rates(ordered, min_bid_hands)
    variants = sorted({g.variant for g in ordered if any(g.seats)}, key=_variant_order)
    return {
        v: VariantRecords(v, highest[v][0] if v in highest else None, runs[v][0] if v in runs else None, rates.get(v))
        for v in variants
    }


def _best_rates(ordered: Sequence[PlayedGame], min_bid_hands: int) -> dict[str, Record]:
    """The best exact-bid rate per variant among players with `min_bid_hands` hands bid or more; an
    equal rate over more hands is better; players equal in both share it (dated by their last game)."""
    last: dict[tuple[str, PlayerId], date] = {}
    for game in ordered:
        for players in game.seats:
            for player in players:
                last[(game.variant, player)] = game.finished
    best: dict[str, Record] = {}
    for player, by_variant in player_stats(ordered).items():
        for variant, stats in by_variant.items():
            hands_bid, exact_bids = stats.count("hands_bid"), stats.count("exact_bids")
            if hands_bid < max(1, min_bid_hands):
                continue
            found = best.get(variant)
            key = (Fraction(exact_bids, hands_bid), hands_bid)
            when = last[(variant, player)]
            if found is None or key > (Fraction(found.value, found.out_of or 1), found.out_of):
                best[variant] = Record(exact_bids, (player,), when, hands_bid)
            elif key == (Fraction(found.value, found.out_of or 1), found.out_of):
                best[variant] = Record(
                    found.value,
                    tuple(sorted((*found.players, player))),
                    max(found.finished, when, key=_moment),
                    found.out_of,
                )
    return best


# --------------------------------------------------------------------------- the season


@dataclass(frozen=True)
class SeasonRow:
    """A player's line in the season's table: equal wins and win rate share a rank."""

    player: PlayerId
    games: int
    won: int
    rank: int

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0


def season_table(games: Iterable[PlayedGame]) -> tuple[SeasonRow, ...]:
    """Every player of the finished games, all variants together, by wins and then win rate (then
    fewer games, then id, to order rows that share a rank)."""
    by_player = player_stats(games)
    played = {p: sum(s.games for s in stats.values()) for p, stats in by_player.items()}
    won = {p: sum(s.won for s in stats.values()) for p, stats in by_player.items()}

    def standing(p: PlayerId) -> tuple[int, Fraction]:
        return won[p], Fraction(won[p], played[p])

    order = sorted(played, key=lambda p: (-won[p], -standing(p)[1], played[p], p))
    rows: list[SeasonRow] = []
    for position, player in enumerate(order):
        same = rows and standing(rows[-1].player) == standing(player)
        rows.append(SeasonRow(player, played[player], won[player], rows[-1].rank if same else position + 1))
    return tuple(rows)


__all__ = [
    "MIN_BID_HANDS",
    "Fact",
    "HeadToHead",
    "PlayedGame",
    "PlayerId",
    "PlayerStats",
    "Record",
    "ResultPoint",
    "SeasonRow",
    "VariantRecords",
    "column_stats",
    "final_scores",
    "head_to_head",
    "player_stats",
    "results_over_time",
    "season_table",
    "variant_records",
]
