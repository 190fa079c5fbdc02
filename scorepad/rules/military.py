"""Military Whist: teams of four defend the flags of their home table and raid other tables.

Each team owns a home table (team i at table i + 1) that starts every day with 12 flags. Each hand
one pair of every team visits another table and the other pair stays home, so every table hosts the
home pair of its own team and the visiting pair of another. Only visitors win flags: 7-9 tricks take
1 flag from the table they visit, 10-13 take 2; in NT Low (giveaway) the visitors count the home
pair's tricks. The flags go to the visitors' home table.

The schedule is data: the document's sample 30-hand rotation (who goes out, trump, dealer) repeats
every 30 hands, and the movement is a shift that changes every hand, so every table hosts exactly one
visiting pair and nobody visits their own table. A hand holds one result per host table; the director
may change the hand's destinations and lend flags. Flags are a ledger replayed from the hands, so a
correction to any hand re-scores everything after it. A tie for first after the last hand is settled by
playoff hands entered after the schedule.

Indices in this module's Python values count from 0 (team i, table i); hand entries and messages
number teams and tables from 1, as they are numbered in the hall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from scorepad.rules.base import (
    Cell,
    Choice,
    ErrorCollector,
    FactSpec,
    GameState,
    Line,
    OptionSpec,
    RawHand,
    RoundKind,
    RoundSpec,
    RuleError,
    RuleErrors,
    ScoreSheet,
    Setup,
    Standing,
    StatsFacts,
    Team,
    Variant,
    derived_once,
    key_field,
    quoted,
    rank,
    resolve_options,
)
from scorepad.rules.cards import Trump
from scorepad.rules.errors import M, Message, joined

NAME = "Military Whist"
LETTERS = "ABXY"
START_FLAGS = 12
CARDS = 13
ONE_FLAG_FROM, TWO_FLAGS_FROM = 7, 10
MIN_TABLES, MAX_TABLES = 2, 64
MAX_DAYS = 5
MAX_LOAN = 12
HAND_KEYS = ("results", "moves", "loans", "returns", "playoff")
RESULT_KEYS = ("tricks", "revoke")
LOAN_KEYS = ("table", "flags")
PLAYOFF_KEYS = ("teams", "winner", "bye")
REVOKERS = ("visitors", "home")
GIVEAWAY_NOTE = M("giveaway: count the opponents' tricks")
PLAYOFF_NOTE = M(
    "playoff hand for the A and B players of the tied teams: the director cuts for trumps and the highest cut deals"
)

# The document's SAMPLE 30-HAND ROTATION, row by row: WHO goes out, TRUMP, DEALER.
SAMPLE_ROTATION: tuple[tuple[str, str, str], ...] = (
    ("A&B", "H", "B"),
    ("X&Y", "S", "X"),
    ("A&X", "D", "A"),
    ("B&Y", "C", "Y"),
    ("A&Y", "NT Low", "A"),
    ("B&X", "H", "X"),
    ("A&B", "S", "B"),
    ("X&Y", "D", "Y"),
    ("A&X", "C", "A"),
    ("B&Y", "NT High", "B"),
    ("A&Y", "H", "Y"),
    ("B&X", "S", "X"),
    ("A&B", "D", "B"),
    ("X&Y", "C", "X"),
    ("A&X", "NT Low", "A"),
    ("B&Y", "H", "Y"),
    ("A&Y", "S", "A"),
    ("B&X", "D", "X"),
    ("A&B", "C", "B"),
    ("X&Y", "NT High", "Y"),
    ("A&X", "H", "A"),
    ("B&Y", "S", "B"),
    ("A&Y", "D", "Y"),
    ("B&X", "C", "X"),
    ("A&B", "NT Low", "B"),
    ("X&Y", "H", "X"),
    ("A&X", "S", "A"),
    ("B&Y", "D", "Y"),
    ("A&Y", "C", "A"),
    ("B&X", "NT High", "X"),
)
_TRUMPS = {
    "H": Trump.HEARTS,
    "S": Trump.SPADES,
    "D": Trump.DIAMONDS,
    "C": Trump.CLUBS,
    "NT Low": Trump.NT_LOW,
    "NT High": Trump.NT_HIGH,
}


# --------------------------------------------------------------------------- words


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else M("%(names)s and %(last)s", names=joined(words[:-1]), last=words[-1])


def _flags(count: int) -> Message:
    return M("1 flag") if count == 1 else M("%(count)s flags", count=count)


def _team(setup: Setup, team: int) -> str:
    return setup.teams[team].name


def flag_words(flags: int) -> str:
    """A table's result in words, as the table would say it ("visitors take 1 flag")."""
    return M("home pair keeps its flags") if flags == 0 else M("visitors take %(flags)s", flags=_flags(flags))


# --------------------------------------------------------------------------- the schedule


@dataclass(frozen=True)
class MilitaryRound(RoundSpec):
    """One hand of the schedule as the hall sees it.

    `out_pair` goes visiting ("A&B"), `home_pair` stays ("X&Y"). `moves[t]` is the table the
    visiting pair of table t goes to; `arrivals[t]` is the team whose pair arrives at table t (the
    inverse). `dealer` is the index in "ABXY" of the dealer's letter; in the rotation the dealer is
    always one of the visitors. `day` and `day_hand` place the hand in the event; `closes_day` marks
    the day's last hand. Playoff hands have kind PLAYOFF, no moves, and `playoff_teams` naming the
    teams that may play it (the dealer is decided by a cut, so `dealer` means nothing there).
    """

    out_pair: str = ""
    home_pair: str = ""
    moves: tuple[int, ...] = ()
    arrivals: tuple[int, ...] = ()
    day: int = 1
    day_hand: int = 0
    closes_day: bool = False
    playoff_teams: tuple[int, ...] = ()

    @property
    def dealer_letter(self) -> str:
        return LETTERS[self.dealer]


def rotation_row(number: int) -> tuple[str, Trump, str]:
    """(pair going out, trump, dealer letter) of hand `number`: the sample rotation, period 30."""
    who, trump, dealer = SAMPLE_ROTATION[(number - 1) % len(SAMPLE_ROTATION)]
    return who, _TRUMPS[trump], dealer


def home_pair_of(out_pair: str) -> str:
    """The two letters that stay at home when `out_pair` goes out."""
    return "&".join(letter for letter in LETTERS if letter not in out_pair)


def shift(tables: int, number: int) -> int:
    """How many tables on the visiting pairs move in hand `number`: 1, 2, .., tables-1, 1, ..."""
    return (number - 1) % (tables - 1) + 1


def default_moves(tables: int, number: int) -> tuple[int, ...]:
    """Destination table of each table's visiting pair: table t goes to t + shift (round the room)."""
    step = shift(tables, number)
    return tuple((table + step) % tables for table in range(tables))


def arrivals_for(moves: Sequence[int]) -> tuple[int, ...]:
    """Which team's pair arrives at each table, given a permutation of destinations."""
    arrivals = [0] * len(moves)
    for home, destination in enumerate(moves):
        arrivals[destination] = home
    return tuple(arrivals)


def day_of(days: Sequence[int], number: int) -> tuple[int, int]:
    """(day, hand within that day) of hand `number`; hands past the schedule fall on the last day."""
    day, first = 1, 1
    for count in days[:-1]:
        if number < first + count:
            break
        day, first = day + 1, first + count
    return day, number - first + 1


def _round(setup: Setup, number: int) -> MilitaryRound:
    """Hand `number` of the schedule, with the default movement."""
    days = setup.options.get_ints("days")
    who, trump, dealer = rotation_row(number)
    day, day_hand = day_of(days, number)
    closes = day_hand == days[day - 1]
    kind = {Trump.NT_LOW: RoundKind.GIVEAWAY, Trump.NT_HIGH: RoundKind.NO_TRUMPS}.get(trump, RoundKind.NORMAL)
    notes: list[str] = [GIVEAWAY_NOTE] if kind is RoundKind.GIVEAWAY else []
    if closes:
        notes.append(M("last hand of day %(day)s", day=day) if len(days) > 1 else M("last hand"))
    moves = default_moves(len(setup.teams), number)
    return MilitaryRound(
        number,
        CARDS,
        trump,
        LETTERS.index(dealer),
        None,
        kind,
        joined(notes, "; "),
        out_pair=who,
        home_pair=home_pair_of(who),
        moves=moves,
        arrivals=arrivals_for(moves),
        day=day,
        day_hand=day_hand,
        closes_day=closes,
    )


def _with_moves(spec: MilitaryRound, moves: tuple[int, ...]) -> MilitaryRound:
    return replace(spec, moves=moves, arrivals=arrivals_for(moves))


def _playoff_round(setup: Setup, number: int, teams: Sequence[int]) -> MilitaryRound:
    days = setup.options.get_ints("days")
    return MilitaryRound(
        number,
        CARDS,
        None,
        0,
        None,
        RoundKind.PLAYOFF,
        PLAYOFF_NOTE,
        out_pair="A&B",
        day=len(days),
        playoff_teams=tuple(teams),
    )


# --------------------------------------------------------------------------- hand entries


@dataclass(frozen=True)
class TableResult:
    """What a host table reports: the visitors' tricks as taken, and which side revoked (if any)."""

    tricks: int
    revoke: str | None = None


@dataclass(frozen=True)
class Loan:
    """Flags the director lends a table before a hand is scored (table counts from 0)."""

    table: int
    flags: int


@dataclass(frozen=True)
class Entry:
    """A scheduled hand as read: one result per host table (None: not in yet), moves, loans, and
    the flags tables gave back to the director against their loans (`returns`)."""

    results: tuple[TableResult | None, ...]
    moves: tuple[int, ...] | None = None
    loans: tuple[Loan, ...] = ()
    returns: tuple[Loan, ...] = ()


@dataclass(frozen=True)
class PlayoffHand:
    """A playoff hand as read: the two teams, the winner, the teams that sat out (0-based)."""

    teams: tuple[int, ...]
    winner: int | None
    bye: tuple[int, ...] | None


def _whole(raw: object, field: str, what: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise RuleError(
            field, M("%(what)s must be a whole number from %(low)s to %(high)s", what=what, low=low, high=high)
        )
    return raw


def _unknown_keys(raw: Mapping[str, object], allowed: Sequence[str], field: str, what: str) -> list[RuleError]:
    prefix = f"{field}." if field else ""
    return [
        RuleError(f"{prefix}{key_field(key)}", M("%(key)s is not part of %(what)s", key=quoted(key), what=what))
        for key in raw
        if key not in allowed
    ]


def _present(raw: Mapping[str, object], key: str) -> bool:
    return raw.get(key) is not None


def _read_result(setup: Setup, spec: MilitaryRound, table: int, raw: object, partial: bool) -> TableResult | None:
    field = f"results.{table}"
    number = table + 1
    visitors = _team(setup, spec.arrivals[table])
    if raw is None:
        if partial:
            return None
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M(
                        "no result from table %(table)s yet: give the tricks taken by the visitors from %(team)s",
                        table=number,
                        team=visitors,
                    ),
                )
            ]
        )
    if not isinstance(raw, Mapping):
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M(
                        "table %(table)s's result must be an object such as %(example)s",
                        table=number,
                        example='{"tricks": 7}',
                    ),
                )
            ]
        )
    errors = ErrorCollector()
    for error in _unknown_keys(raw, RESULT_KEYS, field, M("a table's result")):
        errors.add(error)
    tricks = 0
    try:
        if not _present(raw, "tricks"):
            raise RuleError(
                f"{field}.tricks",
                M("table %(table)s: give the tricks taken by the visitors from %(team)s", table=number, team=visitors),
            )
        tricks = _whole(
            raw["tricks"], f"{field}.tricks", M("table %(table)s: the visitors' tricks", table=number), 0, CARDS
        )
    except RuleError as e:
        errors.add(e)
    revoke = raw.get("revoke")
    if revoke is not None and revoke not in REVOKERS:
        errors.add(
            RuleError(
                f"{field}.revoke",
                M(
                    'table %(table)s: revoke is null, "visitors" or "home" (the side that revoked), not %(value)s',
                    table=number,
                    value=quoted(revoke),
                ),
            )
        )
    errors.raise_if_any()
    return TableResult(tricks, revoke if isinstance(revoke, str) else None)


def _read_moves(raw: object, tables: int) -> tuple[int, ...]:
    """The director's destinations: one table number per table, a permutation with nobody at home."""
    if not isinstance(raw, list) or len(raw) != tables:
        raise RuleErrors(
            [
                RuleError(
                    "moves",
                    M(
                        "give the moves as a list of %(tables)s table numbers: where the "
                        "visiting pair of table 1, 2, .. goes",
                        tables=tables,
                    ),
                )
            ]
        )
    errors = ErrorCollector()
    moves: list[int] = []
    first_from: dict[int, int] = {}
    for home, item in enumerate(raw):
        try:
            destination = (
                _whole(
                    item, f"moves.{home}", M("the destination of table %(table)s's visitors", table=home + 1), 1, tables
                )
                - 1
            )
            if destination == home:
                raise RuleError(
                    f"moves.{home}",
                    M("the visitors from table %(table)s cannot play at their own table", table=home + 1),
                )
            if destination in first_from:
                raise RuleError(
                    f"moves.{home}",
                    M(
                        "table %(table)s would host two visiting pairs (from tables %(first)s and %(second)s)",
                        table=destination + 1,
                        first=first_from[destination] + 1,
                        second=home + 1,
                    ),
                )
            first_from[destination] = home
            moves.append(destination)
        except RuleError as e:
            errors.add(e)
    errors.raise_if_any()
    return tuple(moves)


def _read_loans(raw: object, tables: int, key: str = "loans") -> tuple[Loan, ...]:
    """A hand's loans, or with key "returns" the flags tables gave back (the same shape)."""
    lent = key == "loans"
    example = '[{"table": 3, "flags": 1}]'
    if not isinstance(raw, list):
        raise RuleErrors(
            [
                RuleError(
                    key,
                    M("give the loans as a list such as %(example)s", example=example)
                    if lent
                    else M("give the returns as a list such as %(example)s", example=example),
                )
            ]
        )
    errors = ErrorCollector()
    loans: list[Loan] = []
    for i, item in enumerate(raw):
        field = f"{key}.{i}"
        if not isinstance(item, Mapping):
            errors.add(
                RuleError(
                    field,
                    M("each loan is an object such as %(example)s", example=example[1:-1])
                    if lent
                    else M("each return is an object such as %(example)s", example=example[1:-1]),
                )
            )
            continue
        for error in _unknown_keys(item, LOAN_KEYS, field, M("a loan") if lent else M("a return")):
            errors.add(error)
        try:
            table = (
                _whole(
                    item.get("table"),
                    f"{field}.table",
                    M("the table lent flags") if lent else M("the table giving flags back"),
                    1,
                    tables,
                )
                - 1
            )
            flags = _whole(
                item.get("flags"),
                f"{field}.flags",
                M("the flags lent to table %(table)s", table=table + 1)
                if lent
                else M("the flags table %(table)s gives back", table=table + 1),
                1,
                MAX_LOAN,
            )
            if any(loan.table == table for loan in loans):
                raise RuleError(
                    f"{field}.table",
                    M("table %(table)s is lent flags twice in this hand: give one loan per table", table=table + 1)
                    if lent
                    else M(
                        "table %(table)s gives flags back twice in this hand: give one return per table",
                        table=table + 1,
                    ),
                )
            loans.append(Loan(table, flags))
        except RuleError as e:
            errors.add(e)
    errors.raise_if_any()
    return tuple(loans)


def read_hand(setup: Setup, number: int, raw: object, partial: bool = False) -> tuple[MilitaryRound, Entry]:
    """Read scheduled hand `number`; return its spec (with the director's moves) and the entry.

    With `partial`, tables without a result (null, or past the end of `results`) are None.
    """
    if not isinstance(raw, Mapping):
        raise RuleErrors([RuleError("hand", M("a hand is an object with the results of every table"))])
    total = _scheduled(setup)
    tables = len(setup.teams)
    spec = _round(setup, number)
    errors = ErrorCollector()
    for error in _unknown_keys(raw, HAND_KEYS, "", M("a %(game)s hand", game=NAME)):
        errors.add(error)
    if _present(raw, "playoff"):
        errors.add(
            RuleError(
                "playoff",
                M(
                    "hand %(number)s is one of the %(total)s scheduled hands: playoff hands "
                    "come only after the last one, to settle a tie for first",
                    number=number,
                    total=total,
                ),
            )
        )
    moves: tuple[int, ...] | None = None
    loans: tuple[Loan, ...] = ()
    try:
        if _present(raw, "moves"):
            moves = _read_moves(raw["moves"], tables)
            spec = _with_moves(spec, moves)
    except RuleErrors as e:
        errors.add(e)
    try:
        if _present(raw, "loans"):
            loans = _read_loans(raw["loans"], tables)
    except RuleErrors as e:
        errors.add(e)
    returns: tuple[Loan, ...] = ()
    try:
        if _present(raw, "returns"):
            returns = _read_loans(raw["returns"], tables, "returns")
    except RuleErrors as e:
        errors.add(e)
    results: list[TableResult | None] = [None] * tables
    raw_results = raw.get("results")
    if raw_results is None and not partial:
        errors.add(
            RuleError(
                "results", M("the results are missing: give one result per table, %(tables)s in all", tables=tables)
            )
        )
    elif raw_results is not None and (
        not isinstance(raw_results, list) or len(raw_results) > tables or (len(raw_results) < tables and not partial)
    ):
        errors.add(
            RuleError(
                "results",
                M(
                    "give the results as a list with one entry per table, %(tables)s in all "
                    "(table 1 first), not %(given)s",
                    tables=tables,
                    given=len(raw_results),
                )
                if isinstance(raw_results, list)
                else M(
                    "give the results as a list with one entry per table, %(tables)s in all (table 1 first)",
                    tables=tables,
                ),
            )
        )
    elif raw_results is not None:
        for table, item in enumerate(raw_results):
            try:
                results[table] = _read_result(setup, spec, table, item, partial)
            except RuleErrors as e:
                errors.add(e)
    errors.raise_if_any()
    return spec, Entry(tuple(results), moves, loans, returns)


def _read_team(raw: object, field: str, tables: int) -> int:
    return _whole(raw, field, M("a team number (its home table)"), 1, tables) - 1


def read_playoff(setup: Setup, raw: object, partial: bool = False) -> PlayoffHand:
    """Read a playoff hand's shape (not yet whether these teams may play it: see `_check_playoff`)."""
    if not isinstance(raw, Mapping):
        raise RuleErrors(
            [
                RuleError(
                    "hand",
                    M(
                        "a playoff hand is an object: %(example)s",
                        example='{"playoff": {"teams": [1, 3], "winner": 1}}',
                    ),
                )
            ]
        )
    errors = ErrorCollector()
    for key in raw:
        if key != "playoff":
            errors.add(
                RuleError(
                    key_field(key),
                    M(
                        "%(key)s is not part of a playoff hand: the schedule is over and only %(example)s may follow",
                        key=quoted(key),
                        example='{"playoff": ...}',
                    ),
                )
            )
    body = raw.get("playoff")
    if body is None:
        if not partial:
            errors.add(
                RuleError(
                    "playoff",
                    M(
                        "all %(total)s scheduled hands have been played: only a playoff hand (%(example)s) can follow",
                        total=_scheduled(setup),
                        example='"playoff": ...',
                    ),
                )
            )
        errors.raise_if_any()
        return PlayoffHand((), None, None)
    if not isinstance(body, Mapping):
        raise RuleErrors(
            [
                *errors.errors,
                RuleError(
                    "playoff",
                    M("the playoff is an object such as %(example)s", example='{"teams": [1, 3], "winner": 1}'),
                ),
            ]
        )
    for error in _unknown_keys(body, PLAYOFF_KEYS, "playoff", M("a playoff hand")):
        errors.add(error)
    tables = len(setup.teams)
    teams: tuple[int, ...] = ()
    winner: int | None = None
    bye: tuple[int, ...] | None = None
    try:
        if _present(body, "teams"):
            raw_teams = body["teams"]
            if not isinstance(raw_teams, list) or len(raw_teams) != 2:
                raise RuleError(
                    "playoff.teams",
                    M("give the two teams that played as a list of two team numbers (their home tables), e.g. [1, 3]"),
                )
            teams = tuple(_read_team(t, f"playoff.teams.{i}", tables) for i, t in enumerate(raw_teams))
            if teams[0] == teams[1]:
                raise RuleError(
                    "playoff.teams.1", M("%(team)s cannot play against itself", team=_team(setup, teams[0]))
                )
        elif not partial:
            raise RuleError(
                "playoff.teams", M("give the two teams that played, e.g. %(example)s", example='"teams": [1, 3]')
            )
    except RuleError as e:
        errors.add(e)
    try:
        if _present(body, "winner"):
            winner = _read_team(body["winner"], "playoff.winner", tables)
        elif not partial:
            raise RuleError("playoff.winner", M("give the team that won the playoff hand"))
    except RuleError as e:
        errors.add(e)
    try:
        if _present(body, "bye"):
            raw_bye = body["bye"]
            items = raw_bye if isinstance(raw_bye, list) else [raw_bye]
            bye = tuple(_read_team(t, "playoff.bye", tables) for t in items)
    except RuleError as e:
        errors.add(e)
    errors.raise_if_any()
    return PlayoffHand(teams, winner, bye)


# --------------------------------------------------------------------------- flags


@dataclass(frozen=True)
class TableOutcome:
    """The result at one host table: who played, the count that decides, and the flags taken.

    `count` is the visitors' count after any revoke: their tricks, or in NT Low the home pair's
    tricks (count the opponents'). `flags` move from `table` to the visitor's home table.
    """

    table: int
    visitor: int
    tricks: int
    revoke: str | None
    count: int
    flags: int
    words: str


def visitors_count(kind: RoundKind, tricks: int, revoke: str | None, revoke_tricks: int) -> int:
    """The count that decides the visitors' flags, from their tricks as taken at the table.

    In NT Low (giveaway) each side counts the opponents' tricks, so the visitors count the home
    pair's. A revoke moves `revoke_tricks` from the revoking side's count to the other side's at the
    end of the hand, within 0..13.

    Decision: a revoke always costs the offender, also in NT Low. The document says "penalty will be
    two tricks awarded to opponents at end of the hand" and "NT Low is giveaway, count opponent's
    tricks"; read literally together, in NT Low the tricks awarded would raise the offender's own
    count and reward the revoke. "Penalty" decides it: the tricks move between the counts, not the
    tricks taken. Documented in docs/game-record.md (Military Whist, "Revoke in NT Low").
    """
    count = CARDS - tricks if kind is RoundKind.GIVEAWAY else tricks
    if revoke == "visitors":
        count -= revoke_tricks
    elif revoke == "home":
        count += revoke_tricks
    return max(0, min(CARDS, count))


def flags_for(count: int) -> int:
    """Flags the visitors take for their count: 7-9 take 1, 10-13 take 2; the home pair takes none."""
    return 2 if count >= TWO_FLAGS_FROM else 1 if count >= ONE_FLAG_FROM else 0


def table_outcome(spec: MilitaryRound, table: int, result: TableResult, revoke_tricks: int) -> TableOutcome:
    """Score one host table's result for hand `spec` (pure: no ledger)."""
    count = visitors_count(spec.kind, result.tricks, result.revoke, revoke_tricks)
    flags = flags_for(count)
    return TableOutcome(table, spec.arrivals[table], result.tricks, result.revoke, count, flags, flag_words(flags))


@dataclass(frozen=True)
class LedgerRow:
    """The flags after one scheduled hand, per table (index = table = team).

    `start` is what each table held when the hand began (12 on a day's first hand), `held` what
    it holds after it, `owed` the flags it owes the director for the day's loans so far, `lent` the
    flags lent during this hand (`auto_lent` of them automatically), `returned` the flags it gave
    back to the director against its loans at the start of the hand. A table's day score is
    held - owed. Per day, sum(held) - sum(owed) = 12 x tables.
    """

    number: int
    day: int
    outcomes: tuple[TableOutcome | None, ...]
    start: tuple[int, ...]
    lent: tuple[int, ...]
    auto_lent: tuple[int, ...]
    held: tuple[int, ...]
    owed: tuple[int, ...]
    closes_day: bool
    returned: tuple[int, ...] = ()

    @cached_property
    def scores(self) -> tuple[int, ...]:
        return tuple(h - o for h, o in zip(self.held, self.owed))


def _settle(
    setup: Setup,
    spec: MilitaryRound,
    entry: Entry,
    previous: LedgerRow | None,
) -> tuple[LedgerRow, list[RuleError]]:
    """Play one hand on the ledger: loans first, then each host pays from what it held.

    A host hands over its flags before its own visitors come home, so it pays from its flags at
    the start of the hand (plus this hand's loans, less the flags it gave back: a table gives back
    only flags it holds and owes). A shortfall is lent automatically with the
    "auto" loans option; with "manual" it is an error, but the loan is still made so that the
    later hands can be checked too.
    """
    tables = len(setup.teams)
    if previous is None or spec.day_hand == 1:
        held, owed = [START_FLAGS] * tables, [0] * tables
    else:
        held, owed = list(previous.held), list(previous.owed)
    start = tuple(held)
    lent = [0] * tables
    auto = [0] * tables
    returned = [0] * tables
    errors: list[RuleError] = []
    for loan in entry.loans:
        lent[loan.table] += loan.flags
    for i, back in enumerate(entry.returns):  # a table gives back flags it holds against what it owes
        t = back.table
        if back.flags > min(owed[t], held[t]):
            errors.append(
                RuleError(
                    f"returns.{i}.flags",
                    M(
                        "table %(table)s (%(team)s) cannot give back %(flags)s: it holds %(held)s and "
                        "owes %(owed)s at the start of the hand",
                        table=t + 1,
                        team=_team(setup, t),
                        flags=_flags(back.flags),
                        held=held[t],
                        owed=owed[t],
                    ),
                )
            )
        returned[t] += back.flags
    revoke_tricks = setup.options.get_int("revoke_tricks")
    outcomes = tuple(
        None if r is None else table_outcome(spec, t, r, revoke_tricks) for t, r in enumerate(entry.results)
    )
    manual = setup.options.get_str("loans") == "manual"
    for outcome in outcomes:
        if outcome is None:
            continue
        t = outcome.table
        short = outcome.flags - held[t] - lent[t] + returned[t]
        if short > 0:
            if manual:
                errors.append(
                    RuleError(
                        f"results.{t}",
                        M(
                            "table %(table)s (%(team)s) holds %(held)s but the visitors from %(visitors)s take %(taken)s: "
                            "the director lends flags by hand here, so lend table %(table)s at least %(short)s first "
                            "(under loans)",
                            table=t + 1,
                            team=_team(setup, t),
                            held=_flags(held[t] + lent[t] - returned[t]),
                            visitors=_team(setup, outcome.visitor),
                            taken=outcome.flags,
                            short=_flags(short),
                        ),
                    )
                )
            auto[t] = short
            lent[t] += short
    for t in range(tables):
        held[t] += lent[t] - returned[t]
        owed[t] += lent[t] - returned[t]
    for outcome in outcomes:
        if outcome is not None:
            held[outcome.table] -= outcome.flags
            held[outcome.visitor] += outcome.flags
    row = LedgerRow(
        spec.number,
        spec.day,
        outcomes,
        start,
        tuple(lent),
        tuple(auto),
        tuple(held),
        tuple(owed),
        spec.closes_day,
        tuple(returned),
    )
    return row, errors


# --------------------------------------------------------------------------- the playoff


def _winner(hand: PlayoffHand) -> int:
    """The winner of a played playoff hand (complete hands always name one)."""
    assert hand.winner is not None
    return hand.winner


def _playoff_candidates(group: Sequence[int], done: Sequence[PlayoffHand]) -> tuple[tuple[int, ...], int | None]:
    """(teams that may play the next playoff hand, the team that must play it).

    The playoff is a ladder, as the document's three-way tie: the first hand is between two of the
    tied teams (the others have a bye), then each winner plays a team that has not played yet.
    """
    if not done:
        return tuple(group), None
    played = {t for hand in done for t in hand.teams}
    winner = _winner(done[-1])
    return (winner,) + tuple(t for t in group if t not in played), winner


def playoff_places(group: Sequence[int], done: Sequence[PlayoffHand]) -> tuple[tuple[int, ...], ...]:
    """The tied teams in playoff order: the teams still in contention share the first place, then
    the losers, the last one eliminated first."""
    losers = [next(t for t in hand.teams if t != hand.winner) for hand in done]
    remaining = tuple(t for t in group if t not in losers)
    return (remaining,) + tuple((t,) for t in reversed(losers))


def _check_playoff(
    setup: Setup, group: Sequence[int], done: Sequence[PlayoffHand], hand: PlayoffHand, partial: bool
) -> None:
    """Refuse a playoff hand these teams may not play (see `_playoff_candidates`)."""
    names = [_team(setup, t) for t in group]
    if len(group) < 2:
        raise RuleErrors([RuleError("playoff", M("there is no tie for first place, so there is no playoff hand"))])
    if len(done) == len(group) - 1:
        raise RuleErrors(
            [RuleError("playoff", M("the playoff is over: %(team)s won it", team=_team(setup, _winner(done[-1]))))]
        )
    candidates, must = _playoff_candidates(group, done)
    errors = ErrorCollector()
    for i, team in enumerate(hand.teams):
        if team not in group:
            errors.add(
                RuleError(
                    f"playoff.teams.{i}",
                    M(
                        "%(team)s (team %(number)s) is not tied for first: the playoff is between %(names)s",
                        team=_team(setup, team),
                        number=team + 1,
                        names=_and(names),
                    ),
                )
            )
        elif team not in candidates:
            errors.add(
                RuleError(f"playoff.teams.{i}", M("%(team)s already lost a playoff hand", team=_team(setup, team)))
            )
    if must is not None and hand.teams and must not in hand.teams:
        errors.add(
            RuleError(
                "playoff.teams", M("%(team)s won the last playoff hand and plays this one", team=_team(setup, must))
            )
        )
    if hand.winner is not None and hand.teams and hand.winner not in hand.teams:
        errors.add(
            RuleError(
                "playoff.winner",
                M(
                    "the winner must be one of the two teams that played: %(names)s",
                    names=_and([_team(setup, t) for t in hand.teams]),
                ),
            )
        )
    first_of_many = not done and len(group) > 2
    if hand.bye is not None and not first_of_many:
        errors.add(
            RuleError("playoff.bye", M("only the first playoff hand of a tie between three or more teams has a bye"))
        )
    elif first_of_many and hand.teams and (hand.bye is not None or not partial):
        sitting = sorted(set(group) - set(hand.teams))
        if hand.bye is None or sorted(hand.bye) != sitting:
            errors.add(
                RuleError(
                    "playoff.bye",
                    M(
                        "the bye goes to the tied team that does not play this hand: %(names)s (team %(numbers)s)",
                        names=_and([_team(setup, t) for t in sitting]),
                        numbers=_and([str(t + 1) for t in sitting]),
                    ),
                )
            )
    errors.raise_if_any()


def _playoff_missing(
    setup: Setup,
    group: Sequence[int],
    done: Sequence[PlayoffHand],
    hand: PlayoffHand,
) -> tuple[str, ...]:
    """What the next playoff hand still needs, in words."""
    candidates, must = _playoff_candidates(group, done)
    if not hand.teams:
        names = [_team(setup, t) for t in candidates]
        if must is None and len(candidates) > 2:
            return (
                M(
                    "playoff hand between two of %(names)s (the A player drawing the lowest card has a bye)",
                    names=_and(names),
                ),
            )
        if must is not None and len(candidates) > 2:
            return (M("playoff hand between %(team)s and one of %(names)s", team=names[0], names=_and(names[1:])),)
        return (M("playoff hand between %(first)s and %(second)s", first=names[0], second=names[1]),)
    missing: list[str] = []
    if hand.winner is None:
        missing.append(
            M("winner of the playoff hand between %(names)s", names=_and([_team(setup, t) for t in hand.teams]))
        )
    if not done and len(group) > 2 and hand.bye is None:
        missing.append(M("the team that had the bye"))
    return tuple(missing)


# --------------------------------------------------------------------------- replaying the hands


@dataclass(frozen=True)
class _Replay:
    """Everything derived from the hands: the scheduled hands and their ledger, the playoff."""

    specs: tuple[MilitaryRound, ...]
    entries: tuple[Entry, ...]
    rows: tuple[LedgerRow, ...]
    group: tuple[int, ...]  # the teams tied for first after the schedule; () if not over or no tie
    playoff: tuple[PlayoffHand, ...]


def _scheduled(setup: Setup) -> int:
    return sum(setup.options.get_ints("days"))


scheduled_hands = _scheduled  # public: the number of hands in the schedule (the sum of the days)


def _located(error: RuleErrors, number: int) -> RuleErrors:
    return RuleErrors([e.at_hand(number) for e in error.errors])


def day_scores(rows: Sequence[LedgerRow]) -> tuple[tuple[int, ...], ...]:
    """Each begun day's score per table (held - owed at its close, or now for the open day)."""
    days: list[tuple[int, ...]] = []
    for row in rows:
        if row.day > len(days):
            days.append(row.scores)
        days[-1] = row.scores
    return tuple(days)


def _totals(setup: Setup, rows: Sequence[LedgerRow]) -> list[int]:
    totals = [0] * len(setup.teams)
    for scores in day_scores(rows):
        totals = [a + b for a, b in zip(totals, scores)]
    return totals


def _tie_group(totals: Sequence[int]) -> tuple[int, ...]:
    best = max(totals)
    group = tuple(t for t, total in enumerate(totals) if total == best)
    return group if len(group) > 1 else ()


@derived_once
def _replay(setup: Setup, hands: Sequence[RawHand]) -> _Replay:
    """Check the set-up and every hand and derive the ledger; RuleErrors carry the hand numbers.

    Every public entry point (score, state, check_hand, ledger, preview) comes through here, so a
    caller handing in an unchecked set-up (one team, two teams both "A") gets RuleErrors, not a
    ZeroDivisionError or a sheet.
    """
    VARIANT.check_setup(setup)
    total = _scheduled(setup)
    errors = ErrorCollector()
    entries: list[tuple[MilitaryRound, Entry]] = []
    playoff_raw: list[PlayoffHand] = []
    for number, raw in enumerate(hands, start=1):
        try:
            if number <= total:
                entries.append(read_hand(setup, number, raw))
            else:
                playoff_raw.append(read_playoff(setup, raw))
        except RuleErrors as e:
            errors.add(_located(e, number))
    errors.raise_if_any()
    rows: list[LedgerRow] = []
    for spec, entry in entries:
        row, problems = _settle(setup, spec, entry, rows[-1] if rows else None)
        errors.add(_located(RuleErrors(problems), spec.number))
        rows.append(row)
    errors.raise_if_any()
    group = _tie_group(_totals(setup, rows)) if len(rows) == total else ()
    playoff: list[PlayoffHand] = []
    for number, hand in enumerate(playoff_raw, start=total + 1):
        try:
            _check_playoff(setup, group, playoff, hand, partial=False)
        except RuleErrors as e:
            errors.add(_located(e, number))
        playoff.append(hand)
    errors.raise_if_any()
    return _Replay(
        tuple(spec for spec, _ in entries), tuple(entry for _, entry in entries), tuple(rows), group, tuple(playoff)
    )


def ledger(setup: Setup, hands: Sequence[RawHand]) -> tuple[LedgerRow, ...]:
    """The flags held and owed per table after each scheduled hand (for the director's screens)."""
    return _replay(setup, hands).rows


def settle_next(setup: Setup, rows: Sequence[LedgerRow], pending: RawHand) -> tuple[LedgerRow, list[RuleError]]:
    """Settle the partly entered next scheduled hand on the ledger `rows` of the complete hands.

    For live pages, which move flags as each table reports: returns the hand's row and the problems
    a complete entry would have (a missing manual loan). Malformed input raises RuleErrors.
    """
    VARIANT.check_setup(setup)
    spec, entry = read_hand(setup, len(rows) + 1, pending, partial=True)
    return _settle(setup, spec, entry, rows[-1] if rows else None)


@dataclass(frozen=True)
class TablePreview:
    """What confirming one table's result would do, before it is confirmed.

    `held` is the host table's flags at the start of the hand, with this hand's explicit loans.
    `loan` is the shortfall: lent automatically with "auto" loans; with "manual" loans the entry is
    `refused` until the director lends at least that many.
    """

    outcome: TableOutcome
    held: int
    loan: int
    refused: bool


def preview(setup: Setup, hands: Sequence[RawHand], pending: RawHand) -> tuple[TablePreview | None, ...]:
    """One preview per host table of the partly entered next hand (None where no result is in).

    Malformed input raises RuleErrors; a missing manual loan does not (it shows as `refused`).
    Empty when the schedule is over (a playoff hand moves no flags).
    """
    replay = _replay(setup, hands)
    if len(replay.rows) == _scheduled(setup):
        return ()
    spec, entry = read_hand(setup, len(hands) + 1, pending, partial=True)
    return table_previews(setup, _settle(setup, spec, entry, replay.rows[-1] if replay.rows else None)[0])


def table_previews(setup: Setup, row: LedgerRow) -> tuple[TablePreview | None, ...]:
    """`preview` from the partly entered hand's row as `settle_next` gave it: a caller that settled
    the hand already (for the flags held after it) does not settle it again."""
    manual = setup.options.get_str("loans") == "manual"
    previews: list[TablePreview | None] = []
    for t, outcome in enumerate(row.outcomes):
        if outcome is None:
            previews.append(None)
            continue
        held = row.start[t] + row.lent[t] - row.auto_lent[t] - (row.returned[t] if row.returned else 0)
        previews.append(TablePreview(outcome, held, row.auto_lent[t], manual and row.auto_lent[t] > 0))
    return tuple(previews)


# --------------------------------------------------------------------------- the score sheet


def _flags_at(row: LedgerRow, table: int) -> int:
    outcome = row.outcomes[table]
    return 0 if outcome is None else outcome.flags


def _holding(held: int, owed: int) -> Message:
    return M("holds %(held)s, owes %(owed)s", held=held, owed=owed) if owed else M("holds %(held)s", held=held)


def _cell_detail(spec: MilitaryRound, row: LedgerRow, team: int) -> tuple[int, str]:
    """(net flags won this hand, the sheet's words) for one team."""
    away = spec.moves[team]
    won, lost = _flags_at(row, away), _flags_at(row, team)
    return won - lost, M(
        "+%(won)s at table %(table)s · -%(lost)s at home · %(holding)s",
        won=won,
        table=away + 1,
        lost=lost,
        holding=_holding(row.held[team], row.owed[team]),
    )


def _hand_notes(setup: Setup, spec: MilitaryRound, entry: Entry, row: LedgerRow) -> list[str]:
    revoke_tricks = setup.options.get_int("revoke_tricks")
    notes: list[str] = []
    if spec.day_hand == 1 and spec.day > 1:
        notes.append(M("Day %(day)s: every table restarts with %(flags)s flags", day=spec.day, flags=START_FLAGS))
    if entry.moves is not None:
        notes.append(
            M(
                "Moves set by the director: %(moves)s",
                moves=", ".join(f"{t + 1}→{d + 1}" for t, d in enumerate(spec.moves)),
            )
        )
    for outcome in row.outcomes:
        if outcome is not None and outcome.revoke:
            where, count = outcome.table + 1, revoke_tricks
            if outcome.revoke == "visitors":
                notes.append(
                    M("Revoke by the visitors at table %(table)s: 1 trick to the home pair", table=where)
                    if count == 1
                    else M(
                        "Revoke by the visitors at table %(table)s: %(count)s tricks to the home pair",
                        table=where,
                        count=count,
                    )
                )
            else:
                notes.append(
                    M("Revoke by the home pair at table %(table)s: 1 trick to the visitors", table=where)
                    if count == 1
                    else M(
                        "Revoke by the home pair at table %(table)s: %(count)s tricks to the visitors",
                        table=where,
                        count=count,
                    )
                )
    for t in range(len(setup.teams)):
        if row.lent[t]:
            flags = _flags(row.lent[t])
            if row.auto_lent[t] == row.lent[t]:
                notes.append(M("Loan: table %(table)s borrows %(flags)s (automatic)", table=t + 1, flags=flags))
            elif row.auto_lent[t]:
                notes.append(
                    M(
                        "Loan: table %(table)s borrows %(flags)s (%(auto)s automatic)",
                        table=t + 1,
                        flags=flags,
                        auto=row.auto_lent[t],
                    )
                )
            else:
                notes.append(M("Loan: table %(table)s borrows %(flags)s", table=t + 1, flags=flags))
        if row.returned and row.returned[t]:
            notes.append(
                M(
                    "Return: table %(table)s gives %(flags)s back to the director",
                    table=t + 1,
                    flags=_flags(row.returned[t]),
                )
            )
    if spec.closes_day:
        scores = ", ".join(f"{team.name} {score}" for team, score in zip(setup.teams, row.scores))
        notes.append(
            M("Day %(day)s closes: %(scores)s", day=spec.day, scores=scores)
            if len(setup.options.get_ints("days")) > 1
            else M("Final flags: %(scores)s", scores=scores)
        )
    return notes


def _standing_detail(setup: Setup, rows: Sequence[LedgerRow], team: int) -> str:
    closing: dict[int, LedgerRow] = {}
    for row in rows:
        closing[row.day] = row
    parts: list[str] = []
    multi = len(setup.options.get_ints("days")) > 1
    for day, row in sorted(closing.items()):
        held, owed = row.held[team], row.owed[team]
        if multi:
            parts.append(
                M(
                    "day %(day)s: %(flags)s (holds %(held)s, owes %(owed)s)",
                    day=day,
                    flags=held - owed,
                    held=held,
                    owed=owed,
                )
                if owed
                else M("day %(day)s: %(flags)s", day=day, flags=held - owed)
            )
        else:
            parts.append(_holding(held, owed))
    return joined(parts, " · ")


_PLACE_WORDS = {1: M("won the playoff"), 2: M("2nd in the playoff"), 3: M("3rd in the playoff")}


def _standings(setup: Setup, replay: _Replay) -> tuple[Standing, ...]:
    """Flags summed over the days; a playoff orders the tied leaders without changing flags."""
    names = [t.name for t in setup.teams]
    totals = _totals(setup, replay.rows)
    details = [_standing_detail(setup, replay.rows, t) for t in range(len(names))]
    standings = list(rank(totals, names, details))
    if not replay.group or not replay.playoff:
        return tuple(standings)
    by_team = {s.seat: s for s in standings}
    ordered: list[Standing] = []
    for place_teams in playoff_places(replay.group, replay.playoff):
        place = len(ordered) + 1
        for team in place_teams:
            detail = by_team[team].detail
            if len(place_teams) == 1:
                detail = joined([detail, _PLACE_WORDS.get(place, M("%(place)sth in the playoff", place=place))], " · ")
            ordered.append(replace(by_team[team], rank=place, detail=detail))
    return tuple(ordered) + tuple(standings[len(ordered) :])


def _playoff_line(setup: Setup, replay: _Replay, index: int, totals: Sequence[int]) -> Line:
    hand = replay.playoff[index]
    number = _scheduled(setup) + index + 1
    bye = hand.bye or ()
    cells = []
    for team, total in enumerate(totals):
        detail: str
        if team == hand.winner:
            detail = M("won the playoff hand")
        elif team in hand.teams:
            detail = M("lost the playoff hand")
        else:
            detail = M("bye") if team in bye else ""
        cells.append(Cell(0, total, detail))
    loser = next(t for t in hand.teams if t != hand.winner)
    note = M("Playoff: %(winner)s beat %(loser)s", winner=_team(setup, _winner(hand)), loser=_team(setup, loser))
    if bye:
        note = M(
            "Playoff: %(winner)s beat %(loser)s (%(bye)s had the bye)",
            winner=_team(setup, _winner(hand)),
            loser=_team(setup, loser),
            bye=_and([_team(setup, t) for t in bye]),
        )
    return Line(number, _playoff_round(setup, number, hand.teams), tuple(cells), note)


def _summary(setup: Setup, replay: _Replay, standings: Sequence[Standing], finished: bool) -> str:
    total = _scheduled(setup)
    top = [s for s in standings if s.rank == 1]
    best = _flags(standings[0].total)
    if finished:
        if replay.group:
            return M("%(team)s wins with %(flags)s after a playoff", team=top[0].name, flags=best)
        return M("%(team)s wins with %(flags)s", team=top[0].name, flags=best)
    if len(replay.rows) == total:
        return M(
            "Tie for first between %(names)s with %(flags)s: playoff to come",
            names=_and([s.name for s in top]),
            flags=best,
        )
    if not replay.rows:
        return M("No hands played yet")
    if len(top) == 1:
        return M(
            "After %(played)s of %(total)s hands: %(team)s leads with %(flags)s",
            played=len(replay.rows),
            total=total,
            team=top[0].name,
            flags=best,
        )
    return M(
        "After %(played)s of %(total)s hands: %(names)s lead with %(flags)s",
        played=len(replay.rows),
        total=total,
        names=_and([s.name for s in top]),
        flags=best,
    )


def _finished(setup: Setup, replay: _Replay) -> bool:
    if len(replay.rows) < _scheduled(setup):
        return False
    return not replay.group or len(replay.playoff) == len(replay.group) - 1


def _game_over(setup: Setup, replay: _Replay) -> RuleErrors:
    summary = _summary(setup, replay, _standings(setup, replay), True)
    return RuleErrors([RuleError("hand", M("the game is over: %(summary)s", summary=summary))])


def _team_errors(teams: Sequence[Team]) -> list[RuleError]:
    """One team per table, 2 to 64; each lists its four players A, B, X, Y or none; nobody twice."""
    errors: list[RuleError] = []
    if not MIN_TABLES <= len(teams) <= MAX_TABLES:
        errors.append(
            RuleError(
                "teams",
                M(
                    "%(game)s needs %(least)s to %(most)s teams (one per table), not %(count)s",
                    game=NAME,
                    least=MIN_TABLES,
                    most=MAX_TABLES,
                    count=len(teams),
                ),
            )
        )
    seen_teams: set[str] = set()
    seen_players: dict[str, str] = {}
    for i, team in enumerate(teams):
        if team.name.casefold() in seen_teams:
            errors.append(RuleError(f"teams.{i}", M("two teams are called '%(name)s'", name=team.name)))
        seen_teams.add(team.name.casefold())
        if len(team.players) not in (0, 4):
            errors.append(
                RuleError(
                    f"teams.{i}.players",
                    M(
                        "%(team)s lists %(count)s players: give all four in the order A, B, X, Y, or none",
                        team=team.name,
                        count=len(team.players),
                    ),
                )
            )
        for j, player in enumerate(team.players):
            other = seen_players.get(player.casefold())
            if other is not None:
                errors.append(
                    RuleError(
                        f"teams.{i}.players.{j}",
                        M(
                            "%(player)s is listed in both %(first)s and %(second)s",
                            player=player,
                            first=other,
                            second=team.name,
                        ),
                    )
                )
            seen_players[player.casefold()] = team.name
    return errors


# --------------------------------------------------------------------------- a group's statistics


def _count_facts(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, column: int) -> Mapping[str, int]:
    """Flags the team's visiting pairs took from the tables they visited, read from the flag ledger
    (rules/military-whist.txt: only visitors win flags; the home pair can only keep its own)."""
    won = sum(
        outcome.flags
        for row in ledger(setup, hands)
        for outcome in row.outcomes
        if outcome is not None and outcome.visitor == column
    )
    return {"flags_won": won}


STATS = StatsFacts(facts=(FactSpec("flags_won", M("Flags won"), "flags_won"),), count=_count_facts)


# --------------------------------------------------------------------------- the variant


class MilitaryWhist:
    """The Military Whist variant (see the module docstring)."""

    key = "military"
    name = NAME
    summary: str = M(
        "Teams of four each defend a home table that starts the day with 12 flags; every hand two of "
        "each team visit another table while two stay home. Visitors who take 7-9 tricks win 1 flag from "
        "the table they visit and 10 or more win 2 (in the NT Low giveaway hands they count the home "
        "pair's tricks instead); the home pair can only keep its flags. The most flags, summed over the "
        "days, wins, and a tie for first is settled by playoff hands."
    )
    option_specs: tuple[OptionSpec, ...] = (
        OptionSpec(
            "days",
            M("Hands per day"),
            (30,),
            minimum=1,
            maximum=100,
            max_items=MAX_DAYS,
            too_many=lambda count: M("Hands per day: at most %(most)s days, not %(count)s", most=MAX_DAYS, count=count),
            help=M(
                "One number per day of play, at most 5 days: 30 for an area or zone day, 30, 20 for the "
                "provincial games. Every table restarts each day with 12 flags; the days' flags are added."
            ),
        ),
        OptionSpec(
            "revoke_tricks",
            M("Tricks for a revoke"),
            2,
            minimum=0,
            maximum=4,
            help=M("Tricks moved from the side that revoked to its opponents at the end of the hand."),
        ),
        OptionSpec(
            "loans",
            M("Flag loans"),
            "auto",
            help=M(
                "When a table must give up more flags than it holds, the director lends the difference. "
                "'Lent automatically' records the loan by itself; 'lent by hand' refuses the result until "
                "the director has entered the loan."
            ),
            choices=(Choice("auto", M("Lent automatically")), Choice("manual", M("Lent by hand by the director"))),
        ),
    )
    partnerships = True
    players = range(len(LETTERS) * MIN_TABLES, len(LETTERS) * MAX_TABLES + 1)  # a team of four (A, B, X, Y) a table
    club_ranked_by_points = False
    stats = STATS

    def check_setup(self, setup: Setup) -> None:
        errors = ErrorCollector()
        try:
            resolve_options(self.option_specs, setup.options.values)  # at most MAX_DAYS days: the option's own cap
        except RuleErrors as e:
            errors.add(e)
        if setup.players:
            errors.add(
                RuleError("players", M("%(game)s is played by teams of four: give teams, not players", game=NAME))
            )
        for error in _team_errors(setup.teams):
            errors.add(error)
        if setup.first_dealer != 0:
            errors.add(
                RuleError(
                    "first_dealer",
                    M(
                        "in %(game)s the dealer comes from the rotation (the DEALER "
                        "column): leave the first dealer at 0",
                        game=NAME,
                    ),
                )
            )
        errors.raise_if_any()

    def round_count(self, setup: Setup) -> int:
        return _scheduled(setup)

    def round_spec(self, setup: Setup, number: int) -> MilitaryRound:
        self.check_setup(setup)
        total = _scheduled(setup)
        if not 1 <= number <= total:
            raise RuleError(
                "round",
                M(
                    "there is no hand %(number)s in the schedule: it has %(total)s hands "
                    "(playoff hands follow only a tie)",
                    number=number,
                    total=total,
                ),
            )
        return _round(setup, number)

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        replay = _replay(setup, before)
        self._check_next(setup, replay, len(before) + 1, hand, partial=False)

    def _check_next(
        self, setup: Setup, replay: _Replay, number: int, raw: RawHand, partial: bool
    ) -> tuple[MilitaryRound, Entry | PlayoffHand]:
        """Check the hand after `replay`; errors carry no hand number (it is the one being entered)."""
        if number <= _scheduled(setup):
            spec, entry = read_hand(setup, number, raw, partial)
            _, problems = _settle(setup, spec, entry, replay.rows[-1] if replay.rows else None)
            if problems:
                raise RuleErrors(problems)
            return spec, entry
        if _finished(setup, replay):
            raise _game_over(setup, replay)
        hand = read_playoff(setup, raw, partial)
        _check_playoff(setup, replay.group, replay.playoff, hand, partial)
        teams = hand.teams or _playoff_candidates(replay.group, replay.playoff)[0]
        return _playoff_round(setup, number, teams), hand

    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        replay = _replay(setup, hands)
        names = tuple(t.name for t in setup.teams)
        lines: list[Line] = []
        closed = [0] * len(names)
        for spec, entry, row in zip(replay.specs, replay.entries, replay.rows):
            cells = []
            scores = row.scores
            for team in range(len(names)):
                points, detail = _cell_detail(spec, row, team)
                cells.append(Cell(points, closed[team] + scores[team], detail))
            lines.append(Line(spec.number, spec, tuple(cells), joined(_hand_notes(setup, spec, entry, row), "; ")))
            if row.closes_day:
                closed = [c + s for c, s in zip(closed, row.scores)]
        for index in range(len(replay.playoff)):
            lines.append(_playoff_line(setup, replay, index, closed))
        standings = _standings(setup, replay)
        finished = _finished(setup, replay)
        summary = _summary(setup, replay, standings, finished)
        winners = (standings[0].seat,) if finished else ()
        if finished:
            lines[-1] = replace(lines[-1], note=joined([n for n in (lines[-1].note, summary) if n], "; "))
        return ScoreSheet(self.key, names, tuple(lines), standings, finished, winners, summary)

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        replay = _replay(setup, hands)
        played = len(hands)
        if _finished(setup, replay):
            if pending:
                raise _game_over(setup, replay)
            return GameState(played, True, "over", None, winners=(_standings(setup, replay)[0].seat,))
        spec, entry = self._check_next(setup, replay, played + 1, pending or {}, partial=True)
        if isinstance(entry, Entry):
            missing: tuple[str, ...] = tuple(
                M("table %(table)s", table=t + 1) for t, r in enumerate(entry.results) if r is None
            )
        else:
            missing = _playoff_missing(setup, replay.group, replay.playoff, entry)
        return GameState(played, False, "result", spec, missing=missing)


VARIANT: Variant = MilitaryWhist()
