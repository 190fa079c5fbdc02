"""Military Whist as an event: what each table's phone, the projector and the director see.

The rules module scores the flags; this module turns a hand of the schedule into instructions for
the hall (who goes out, where to, who arrives, trump, dealer), builds the leaderboard from the live
ledger (flags move as each table reports), and says which tables are late. Pure: no Flask, no
database; the event service feeds it the hands as entered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from scorepad.rules import military
from scorepad.rules.base import RawHand, RoundKind, ScoreSheet, Setup, rank
from scorepad.rules.cards import Trump
from scorepad.rules.errors import M, Message
from scorepad.rules.military import LedgerRow, MilitaryRound

START_FLAGS = military.START_FLAGS

# Presets from the document: area and zone levels play 30 hands (15 + 15 in one day); the
# provincial games play 50 over two days (15 + 15 on the first, 20 on the second).
PRESETS: dict[str, tuple[Message, tuple[int, ...], tuple[int, ...]]] = {
    # key: (label, hands per day, sessions as the document describes them)
    "area": (M("Area or zone level: 30 hands in one day (15 morning + 15 afternoon)"), (30,), (15, 15)),
    "provincial": (M("Provincial games: 50 hands over two days (15 + 15, then 20)"), (30, 20), (15, 15, 20)),
}

_TRUMP_WORDS = {
    Trump.HEARTS: M("Hearts"),
    Trump.SPADES: M("Spades"),
    Trump.DIAMONDS: M("Diamonds"),
    Trump.CLUBS: M("Clubs"),
    Trump.NT_HIGH: M("NT High (no trumps)"),
    Trump.NT_LOW: M("NT Low"),
}


def trump_words(spec: MilitaryRound) -> str:
    """The trump as the hall calls it; NT Low carries its giveaway reminder."""
    if spec.trump is None:
        return M("cut by the director")
    words = _TRUMP_WORDS.get(spec.trump, spec.trump.label)
    if spec.kind is RoundKind.GIVEAWAY:
        return M("%(trump)s: %(note)s", trump=words, note=military.GIVEAWAY_NOTE)
    return words


def pair_words(pair: str, players: Sequence[str]) -> str:
    """A pair ("A&B") in plain words with its team's players' names (A, B, X, Y): "Ann and Bob". A
    player with no name keeps the letter ("Ann and B"); a team with no names keeps the label ("A&B")."""
    letters = pair.split("&")
    names = [
        players[military.LETTERS.index(letter)].strip() if len(players) == len(military.LETTERS) else ""
        for letter in letters
    ]
    if not any(names):
        return pair
    said = [name or letter for name, letter in zip(names, letters)]
    return said[0] if len(said) == 1 else M("%(first)s and %(second)s", first=said[0], second=said[1])


@dataclass(frozen=True)
class PlainOrders:
    """A table's orders in plain words, said with the players' names (`pair_words`) beside the hall's
    terse orders ("A&B go out"): who goes, who stays, who arrives and who deals."""

    going: str  # "Ann and Bob": this table's visitors
    staying: str  # "Cat and Dan": this table's home pair
    arriving: str  # "Eve and Fay": the visitors who come to play here
    dealer: str  # "Eve", or the letter when not named
    go_to: int  # tables from 1
    home: int
    arriving_from: int
    arriving_team: str

    @property
    def go(self) -> Message:
        return M("%(pair)s go to table %(table)s", pair=self.going, table=self.go_to)

    @property
    def stay(self) -> Message:
        return M("%(pair)s stay here at table %(table)s", pair=self.staying, table=self.home)

    @property
    def arrive(self) -> Message:
        return M(
            "%(pair)s of %(team)s come from table %(table)s",
            pair=self.arriving,
            team=self.arriving_team,
            table=self.arriving_from,
        )

    @property
    def deal(self) -> Message:
        return M("%(dealer)s deals", dealer=self.dealer)


@dataclass(frozen=True)
class TableInstructions:
    """One table's orders for one hand, in the words its phone shows in large type.

    Tables and teams count from 0 here (`go_to`, `arriving`); pages add 1. `plain` says them with
    the players' names.
    """

    hand: int
    day: int
    day_hand: int
    table: int
    team: str
    out_pair: str  # "A&B": these two go visiting
    home_pair: str  # "X&Y": these two stay and defend the flags
    go_to: int  # the table our visitors play at
    arriving: int  # the team whose visiting pair plays here
    arriving_team: str
    trump: str  # a Message, said in the reader's language
    giveaway: bool
    dealer: str  # the dealer's letter; the dealer is always one of the visitors
    plain: PlainOrders

    @property
    def dealer_words(self) -> Message:
        return M("%(dealer)s of %(team)s (a visitor)", dealer=self.dealer, team=self.arriving_team)


def instructions(setup: Setup, spec: MilitaryRound, table: int) -> TableInstructions:
    """What table `table` does in hand `spec`: who goes out and where, who arrives, trump, dealer."""
    arriving = spec.arrivals[table]
    ours, theirs = setup.teams[table], setup.teams[arriving]
    plain = PlainOrders(
        pair_words(spec.out_pair, ours.players),
        pair_words(spec.home_pair, ours.players),
        pair_words(spec.out_pair, theirs.players),
        pair_words(spec.dealer_letter, theirs.players),
        spec.moves[table] + 1,
        table + 1,
        arriving + 1,
        theirs.name,
    )
    return TableInstructions(
        spec.number,
        spec.day,
        spec.day_hand,
        table,
        ours.name,
        spec.out_pair,
        spec.home_pair,
        spec.moves[table],
        arriving,
        theirs.name,
        trump_words(spec),
        spec.kind is RoundKind.GIVEAWAY,
        spec.dealer_letter,
        plain,
    )


def hand_spec(setup: Setup, number: int, moves: Sequence[int] | None = None) -> MilitaryRound:
    """Scheduled hand `number`, with the director's moves (0-based destinations) when set."""
    raw: dict[str, object] = {"moves": [m + 1 for m in moves]} if moves is not None else {}
    spec, _ = military.read_hand(setup, number, raw, partial=True)
    return spec


# --------------------------------------------------------------------------- the leaderboard


@dataclass(frozen=True)
class BoardRow:
    """One team on the leaderboard: score per day (held - owed), total, what it holds and owes now.

    `owed` is today's loans (a new day starts with none); `day_loans` what it owed at the end of
    each day begun (net of flags given back), `loans` their sum: day 1's loans still count on day 2.
    `flags` is what it held at each day's close (or now), summed: the flags the players count, never
    below nought, so that `total` (the score that ranks) is `flags - loans`.
    """

    rank: int
    team: int
    name: str
    days: tuple[int, ...]
    total: int
    held: int
    owed: int
    playing: bool  # its home table has not reported the current hand yet
    detail: str = ""
    day_loans: tuple[int, ...] = ()
    loans: int = 0
    flags: int = START_FLAGS

    @property
    def loans_by_day(self) -> str:
        """ "3 + 2" when loans fall on more than one day (the total alone says it otherwise)."""
        return " + ".join(str(n) for n in self.day_loans) if sum(1 for n in self.day_loans if n) > 1 else ""


@dataclass(frozen=True)
class Board:
    rows: tuple[BoardRow, ...]
    days: int  # how many day columns (days begun, at least 1)
    hand: MilitaryRound | None  # the hand in play (None once the schedule is over)
    played: int  # complete hands
    scheduled: int
    playing: tuple[int, ...]  # tables that have not reported the hand in play
    finished: bool
    summary: str
    # Once every table is in: the next hand as scheduled, so the hall can read its moves before
    # the director opens it (None while tables are playing, or after the last hand).
    next_hand: MilitaryRound | None = None


def board(
    setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None, moves: Sequence[int] | None = None
) -> Board:
    """The standings now: complete hands plus the results already in for the hand in play."""
    return board_from(setup, military.ledger(setup, hands), military.VARIANT.score(setup, hands), pending, moves)


def board_from(
    setup: Setup,
    rows: Sequence[LedgerRow],
    sheet: ScoreSheet,
    pending: RawHand | None = None,
    moves: Sequence[int] | None = None,
    settled: LedgerRow | None = None,
) -> Board:
    """`board` from the complete hands' ledger and sheet (which the event service keeps between entries).

    Flags are summed over the days (held minus owed at each day's close, or now). Once the
    schedule is over the rules' standings decide the order, so a playoff places the tied leaders.
    `settled`: `pending` as `military.settle_next` settles it on `rows`, when the caller has it
    already (an entry's check settled it before its commit).
    """
    scheduled = military.scheduled_hands(setup)
    teams = len(setup.teams)
    in_play = len(rows) < scheduled
    live = list(rows)
    if in_play and pending:
        live.append(settled if settled is not None else military.settle_next(setup, rows, pending)[0])
    day_scores = military.day_scores(live)
    totals = [sum(day[t] for day in day_scores) for t in range(teams)]
    last: LedgerRow | None = live[-1] if live else None
    # A new day: every table back on 12, no loans. Only when the last *complete* hand closed a day: the
    # hand in play (settled as far as it is in) may itself be a day's last hand, and shows what it holds.
    if last is None or (in_play and len(live) == len(rows) and last.closes_day):
        held, owed = (START_FLAGS,) * teams, (0,) * teams
    else:
        held, owed = last.held, last.owed
    spec = hand_spec(setup, len(rows) + 1, moves) if in_play else None
    reported = _reported(pending, teams) if in_play else set(range(teams))
    playing = tuple(t for t in range(teams) if t not in reported)
    names = [t.name for t in setup.teams]
    if not day_scores:  # nothing in yet: everyone level on 12
        board_rows = tuple(
            BoardRow(1, t, names[t], (START_FLAGS,), START_FLAGS, START_FLAGS, 0, True) for t in range(teams)
        )
    else:
        order = rank(totals, names) if in_play else sheet.standings
        day_owed = _day_last(live, "owed")
        day_held = _day_last(live, "held")
        board_rows = tuple(
            BoardRow(
                s.rank,
                s.seat,
                s.name,
                tuple(day[s.seat] for day in day_scores),
                totals[s.seat],
                held[s.seat],
                owed[s.seat],
                s.seat in playing,
                "" if in_play else s.detail,
                tuple(day[s.seat] for day in day_owed),
                sum(day[s.seat] for day in day_owed),
                sum(day[s.seat] for day in day_held),
            )
            for s in order
        )
    next_hand = (
        hand_spec(setup, len(rows) + 2) if spec is not None and not playing and spec.number < scheduled else None
    )
    return Board(
        board_rows,
        max(1, len(day_scores)),
        spec,
        len(rows),
        scheduled,
        playing,
        sheet.finished,
        sheet.summary,
        next_hand,
    )


def _day_last(rows: Sequence[LedgerRow], field: str) -> tuple[tuple[int, ...], ...]:
    """Each begun day's `field` ("held" or "owed") per table: at the day's close (or now)."""
    days: list[tuple[int, ...]] = []
    for row in rows:
        value: tuple[int, ...] = getattr(row, field)
        if row.day > len(days):
            days.append(value)
        days[-1] = value
    return tuple(days)


def _reported(pending: RawHand | None, teams: int) -> set[int]:
    results = (pending or {}).get("results")
    if not isinstance(results, list):
        return set()
    return {t for t, r in enumerate(results[:teams]) if r is not None}


# --------------------------------------------------------------------------- the control room


def late_tables(
    opened_at: datetime, now: datetime, reported: Mapping[int, datetime], tables: int, late_after: timedelta
) -> tuple[int, ...]:
    """Tables still to report once the hand has been open longer than `late_after`.

    Also late, sooner: the last quarter of the room once three quarters have reported and
    `late_after` / 2 has passed since the hand opened (the hall is waiting for them).
    """
    missing = tuple(t for t in range(tables) if t not in reported)
    waited = now - opened_at
    if waited >= late_after:
        return missing
    if missing and len(reported) * 4 >= tables * 3 and waited >= late_after / 2:
        return missing
    return ()
