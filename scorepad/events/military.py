"""Military Whist events: every write goes through here, every total is derived by the rules.

The rows hold what tables reported and what the director did (results, loans, moves, playoff
hands, days closed); `raw_hands` turns them into the rules' hand entries, so a correction to any
hand re-scores everything after it. Each action is one transaction: it is checked by the rules
with the change applied before anything is committed, so the flag ledger can never go wrong.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from flask import g
from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError

from scorepad.events import core, roster
from scorepad.extensions import db
from scorepad.form_input import valid_pin, whole_number
from scorepad.formats import military as fmt
from scorepad.games import results
from scorepad.kept import Kept
from scorepad.models import (
    DayClose,
    Event,
    EventDecision,
    EventPlayoff,
    EventTable,
    FlagLoan,
    OpenedHand,
    ReportedResult,
    utcnow,
)
from scorepad.rules import military
from scorepad.rules.base import RawHand, RuleError, RuleErrors, ScoreSheet, Setup, forget_derived
from scorepad.rules.errors import M, Message, joined
from scorepad.rules.military import MilitaryRound
from scorepad.rules.record import NAME_MAX, parse_record

KEY = "military"
DAY_END = "day_end"  # the one decision a Military event keeps: a day ended early (`end_day`)
REVOKES = ("visitors", "home")
MAX_NAME = NAME_MAX  # the game record's limit: every name must survive the export
MAX_EVENT_NAME = core.MAX_EVENT_NAME
MAX_LOSS = military.flags_for(military.CARDS)  # the most flags a table can lose in one hand


# --------------------------------------------------------------------------- reading an event


def setup_of(event: Event) -> Setup:
    """The event's set-up as the rules read it (kept per revision: it is read on every request). A
    set-up equal to the one kept before is that very object: the rules' derivations are kept by
    identity."""

    def derive(before: Setup | None) -> Setup:
        setup = parse_record(_record(event, [])).setup
        return before if before is not None and before == setup else setup

    return _SETUPS.get(event.id, event.revision, derive)


def _record(event: Event, hands: Sequence[RawHand]) -> dict[str, object]:
    return {
        "variant": military.VARIANT.key,
        "title": event.name,
        "options": event.options,
        "teams": [{"name": t.team, "players": list(t.players)} for t in event.tables],
        "hands": list(hands),
    }


ResultFact = tuple[int, int, int, str | None]  # (hand, table, tricks, revoke)
_FACTS = select(ReportedResult.hand, ReportedResult.table, ReportedResult.tricks, ReportedResult.revoke).where(
    ReportedResult.event_id == bindparam("event")
)
_HAND_FACTS = _FACTS.where(ReportedResult.hand == bindparam("hand"))  # built once: every phone's request reads it


def _result_facts(event: Event, hand: int | None = None) -> list[ResultFact]:
    """(hand, table, tricks, revoke) of the event's results (of one hand), straight from the database."""
    if hand is None:
        return [(h, t, k, r) for h, t, k, r in db.session.execute(_FACTS, {"event": event.id})]
    return [(h, t, k, r) for h, t, k, r in db.session.execute(_HAND_FACTS, {"event": event.id, "hand": hand})]


Extras = tuple[dict[int, list[int]], dict[int, list[tuple[int, int]]]]


def _hand_extras(event: Event, hand: int | None = None) -> Extras:
    """The director's moves and the loans by hand (of one hand), in two small queries: the entry path
    runs this on every result, where loading the event's whole relationships cost more than the rest.

    A loan row holds (table, flags): negative flags are flags the table gave back."""
    moves_query = select(OpenedHand.number, OpenedHand.moves).where(OpenedHand.event_id == event.id)
    loans_query = (
        select(FlagLoan.hand, FlagLoan.table, FlagLoan.flags).where(FlagLoan.event_id == event.id).order_by(FlagLoan.id)
    )
    if hand is not None:
        moves_query = moves_query.where(OpenedHand.number == hand)
        loans_query = loans_query.where(FlagLoan.hand == hand)
    moves = {n: list(m) for n, m in db.session.execute(moves_query) if m is not None}
    loans: dict[int, list[tuple[int, int]]] = {}
    for n, table, flags in db.session.execute(loans_query):
        loans.setdefault(n, []).append((table, flags))
    return moves, loans


def _hand_entry(
    tables: int,
    number: int,
    facts: Sequence[tuple[int, int, int, str | None]],
    moves: dict[int, list[int]],
    loans: dict[int, list[tuple[int, int]]],
) -> RawHand:
    results: list[dict[str, object] | None] = [None] * tables
    for _, table, tricks, revoke in facts:
        results[table - 1] = {"tricks": tricks, "revoke": revoke}
    hand: dict[str, object] = {"results": results}
    if number in moves:
        hand["moves"] = moves[number]
    lent = [{"table": t, "flags": f} for t, f in loans.get(number, []) if f > 0]
    back = [{"table": t, "flags": -f} for t, f in loans.get(number, []) if f < 0]
    if lent:
        hand["loans"] = lent
    if back:
        hand["returns"] = back
    return hand


def _committed_extras(event: Event) -> Extras:
    """Every hand's moves and loans, kept per event revision (each change to them bumps it).

    Only for the committed state: a write checking its own pending change reads the database.
    """
    return _EXTRAS.get(event.id, event.revision, lambda _: _hand_extras(event))


def raw_hand(event: Event, number: int, pending_change: bool = False) -> RawHand:
    """Scheduled hand `number` as the rules read it: one result per table (None if not in), moves, loans.

    `pending_change`: the session holds an uncommitted change to the moves or loans (read them afresh).
    """
    extras = _hand_extras(event, number) if pending_change else _committed_extras(event)
    return _hand_entry(len(setup_of(event).teams), number, _result_facts(event, number), *extras)


def _playoff_hand(p: EventPlayoff) -> RawHand:
    body: dict[str, object] = {"teams": list(p.teams), "winner": p.winner}
    if p.bye:
        body["bye"] = list(p.bye)
    return {"playoff": body}


def raw_hands(event: Event) -> list[RawHand]:
    """The complete hands: every hand before the one in play, then the playoff hands."""
    by_hand: dict[int, list[tuple[int, int, int, str | None]]] = {}
    for fact in _result_facts(event):
        by_hand.setdefault(fact[0], []).append(fact)
    tables, (moves, loans) = len(setup_of(event).teams), _hand_extras(event)
    hands = [_hand_entry(tables, n, by_hand.get(n, []), moves, loans) for n in range(1, event.current_hand)]
    return hands + [_playoff_hand(p) for p in event.playoffs]


@dataclass(frozen=True)
class _Derived:
    """What the complete hands give, kept per event revision: entries to the hand in play reuse it."""

    setup: Setup
    hands: tuple[RawHand, ...]
    rows: tuple[military.LedgerRow, ...]
    sheet: ScoreSheet


# What a worker keeps of its events (scorepad/kept.py), by event id at the event's revision, which
# every change to the event moves (a result, a loan, a name, a new hand)
_SETUPS: Kept[Setup] = Kept("Military set-ups", size=64)
_EXTRAS: Kept[Extras] = Kept("Military moves and loans", size=64)
_DERIVED: Kept[_Derived] = Kept("Military complete hands", size=64)
_IN_PLAY: Kept[_InPlay] = Kept("Military hands in play", size=64)


def _derived(event: Event, setup: Setup) -> _Derived:
    """The complete hands' derivation, kept per event. Most changes to an event (every table's
    result for the hand in play) move its revision but leave the complete hands as they were:
    those are read again and compared, and the derivation is replayed only when they differ (the
    director opened the next hand, a result of an earlier hand was corrected). The hands are a
    tuple, so the rules' ledger, sheet and previews share one replay (rules.base.derived_once)."""

    def derive(before: _Derived | None) -> _Derived:
        hands = tuple(raw_hands(event))
        if before is not None and before.setup is setup and before.hands == hands:
            return before
        return _Derived(setup, hands, military.ledger(setup, hands), military.VARIANT.score(setup, hands))

    def derived_from_now(kept: _Derived) -> bool:
        return kept.setup == setup and kept.hands == tuple(raw_hands(event))

    return _DERIVED.get(event.id, event.revision, derive, derived_from_now=derived_from_now)


@dataclass(frozen=True)
class _InPlay:
    """The hand in play as far as it is in, and the board it gives, kept per view stamp (revision
    and the hand's results in): every phone's panel, preview and page reads them, and between two
    entries they are the same for the whole hall."""

    derived: _Derived  # the complete hands it was drawn on
    pending: RawHand | None
    board: fmt.Board


def _in_play(
    event: Event, stamp: str, setup: Setup, derived: _Derived, scheduled: int, facts: Sequence[ResultFact]
) -> _InPlay:
    """`facts`: the hand in play's results, read with the stamp (one query for both)."""

    def pending_now() -> RawHand | None:
        return raw_hand(event, event.current_hand) if event.current_hand <= scheduled else None

    def derive(_: _InPlay | None) -> _InPlay:
        in_play = event.current_hand <= scheduled
        pending = (
            _hand_entry(len(setup.teams), event.current_hand, facts, *_committed_extras(event)) if in_play else None
        )
        moves = pending.get("moves") if pending else None
        settled = _settled(setup, derived.rows, pending)[0] if pending and len(derived.rows) < scheduled else None
        board = fmt.board_from(
            setup,
            derived.rows,
            derived.sheet,
            pending,
            [m - 1 for m in moves] if isinstance(moves, list) else None,
            settled,
        )
        return _InPlay(derived, pending, board)

    def derived_from_now(kept: _InPlay) -> bool:  # the board is the rules' function of these
        return (kept.derived is derived or kept.derived == derived) and kept.pending == pending_now()

    def stamp_now() -> object:  # as stored now: the check forgives a value read while a result came in
        revision, hand = db.session.execute(
            select(Event.revision, Event.current_hand).where(Event.id == event.id)
        ).one()
        return (f"{revision} {_results_in(event, hand)}", hand)

    return _IN_PLAY.get(
        event.id, (stamp, event.current_hand), derive, stamp_now=stamp_now, derived_from_now=derived_from_now
    )


def record_of(event: Event) -> dict[str, object]:
    """The whole event as a game record (the export format `scorepad score` reads)."""
    return _record(event, raw_hands(event))


class Reported(NamedTuple):
    """A table's result for the hand in play, as the view holds it."""

    hand: int
    table: int
    tricks: int
    revoke: str | None


class GridCell(NamedTuple):
    """A result as the control room's grid shows it."""

    tricks: int
    revoke: str | None


@dataclass(frozen=True)
class MilitaryView:
    """A Military Whist event with everything its pages show, derived from its rows in one go."""

    event: Event
    setup: Setup
    hands: tuple[RawHand, ...]
    pending: RawHand | None  # the hand in play, as far as it is in
    spec: MilitaryRound | None  # the hand in play (None once the schedule is over)
    board: fmt.Board
    sheet: ScoreSheet
    scheduled: int
    # "revision results" (the hand in play's), read with them before anything else of the view: a live panel drops a refresh that
    # is not newer than what it shows, so the stamp must never be newer than the view's results
    # (SQLite reads each query afresh: a result committed between the two reads would give a panel
    # stamped "all in" that still says "waiting for 1 more table", and every later refresh would be
    # dropped)
    stamp: str

    @property
    def tables(self) -> int:
        return len(self.setup.teams)

    @property
    def in_play(self) -> bool:
        return self.spec is not None

    @property
    def all_in(self) -> bool:
        return self.in_play and not self.board.playing

    @property
    def waiting(self) -> tuple[int, ...]:
        """Tables (from 1) that have not reported the hand in play."""
        return tuple(t + 1 for t in self.board.playing) if self.in_play else ()

    @property
    def needs_playoff(self) -> bool:
        return not self.in_play and not self.sheet.finished

    @property
    def ended_early(self) -> tuple[Message, ...]:
        """Each day the director ended before its planned last hand, in words for the standings."""
        ends = sorted((int(d.key), d.data) for d in self.event.decisions if d.kind == DAY_END)
        return tuple(
            M(
                "Day %(day)s ended early, after hand %(hand)s, at the director's word (%(planned)s hands were planned).",
                day=day,
                hand=data["hand"],
                planned=data["planned"],
            )
            for day, data in ends
        )

    def result(self, hand: int, table: int) -> ReportedResult | None:
        """Table `table`'s (from 1) report for `hand`."""
        return _result_row(self.event, hand, table)

    def reported(self, table: int) -> Reported | None:
        """Table `table`'s (from 1) result for the hand in play, from the results the view shows:
        its panel says "recorded" and "waiting for n more tables" from the same read, and reads no
        row of its own."""
        results = (self.pending or {}).get("results")
        found = results[table - 1] if self.spec is not None and isinstance(results, list) else None
        if not isinstance(found, dict):
            return None
        return Reported(self.spec.number, table, found["tricks"], found["revoke"])  # type: ignore[union-attr]

    def grid(self) -> dict[tuple[int, int], GridCell]:
        """Every result so far by (hand, table), for the control room: its tricks and revoke, read in
        one query (a 64-table room at hand 25 holds 1,600 of them, redrawn after every entry)."""
        return {(h, t): GridCell(k, r) for h, t, k, r in _result_facts(self.event)}

    def instructions(self, table: int) -> fmt.TableInstructions | None:
        return fmt.instructions(self.setup, self.spec, table - 1) if self.spec else None

    def next_instructions(self, table: int) -> fmt.TableInstructions | None:
        """The hand after the one in play, as the schedule has it (the director may still change the moves)."""
        if self.spec is None or self.spec.number >= self.scheduled:
            return None
        return fmt.instructions(self.setup, fmt.hand_spec(self.setup, self.spec.number + 1), table - 1)

    def late(self) -> tuple[int, ...]:
        """Tables (from 1) late with the hand in play."""
        opened = _hand_row(self.event, self.event.current_hand)
        if self.spec is None or opened is None:
            return ()
        reported = {
            t - 1: core.aware(at)
            for t, at in db.session.execute(
                select(ReportedResult.table, ReportedResult.entered_at).where(
                    ReportedResult.event_id == self.event.id, ReportedResult.hand == self.spec.number
                )
            )
        }
        late = fmt.late_tables(
            core.aware(opened.opened_at), utcnow(), reported, self.tables, timedelta(minutes=self.event.late_minutes)
        )
        return tuple(t + 1 for t in late)

    def spec_of(self, hand: int) -> MilitaryRound:
        """Scheduled hand `hand` with the moves it was played with."""
        return fmt.hand_spec(self.setup, hand, _moves(self.event, hand))

    def flag_words(self, result: ReportedResult | Reported) -> str:
        """What a recorded result did, in the table's words ("visitors take 1 flag")."""
        spec = self.spec_of(result.hand)
        outcome = military.table_outcome(
            spec,
            result.table - 1,
            military.TableResult(result.tricks, result.revoke),
            self.setup.options.get_int("revoke_tricks"),
        )
        return outcome.words

    def rank_of(self, table: int) -> fmt.BoardRow:
        return next(row for row in self.board.rows if row.team == table - 1)

    def closed_days(self) -> list[ClosedDay]:
        """Each closed day as the results give it now, beside what was recorded when it closed."""
        scores = military.day_scores(_derived(self.event, self.setup).rows)
        names = tuple(t.name for t in self.setup.teams)
        days = []
        for row in self.event.days_closed:
            now = scores[row.day - 1] if row.day <= len(scores) else ()
            recorded = tuple(h - o for h, o in zip(row.held, row.owed))
            days.append(ClosedDay(row.day, core.aware(row.closed_at), names, tuple(now), recorded))
        return days


@dataclass(frozen=True)
class ClosedDay:
    """A closed day: each team's flags (held - owed) derived from the results now, and as recorded
    at closing time (a later correction of that day's results changes the first, not the second)."""

    day: int
    closed_at: datetime
    names: tuple[str, ...]
    now: tuple[int, ...]
    recorded: tuple[int, ...]

    @property
    def changed(self) -> bool:
        return self.now != self.recorded


def view(event: Event) -> MilitaryView:
    """The event derived once per request and revision: a table's page asks for it several times
    (its header, its panel, the flags held), and the board's derivation is most of the cost. Every
    write to an event moves its revision (core.audit), so a view asked for after a write is new."""
    key = (event.id, event.revision, event.current_hand)
    kept: dict[tuple[int, int, int], MilitaryView] = g.setdefault("scorepad_military_views", {})
    found = kept.get(key)
    if found is not None and found.event is event:
        return found
    kept[key] = found = _view(event)
    return found


def _results_in(event: Event, hand: int) -> int:
    """How many results hand `hand` of the event holds, as stored now."""
    return db.session.execute(_RESULTS_IN, {"event": event.id, "hand": hand}).scalar_one()


# Built once: every request of a table's phone reads the stamp
_RESULTS_IN = (
    select(func.count())
    .select_from(ReportedResult)
    .where(ReportedResult.event_id == bindparam("event"), ReportedResult.hand == bindparam("hand"))
)


def stamp(event: Event) -> str:
    """The event as a table's panel shows it: every write moves its revision (core.audit) but a
    result of the hand in play, which comes in beside it (a result of any other hand is a
    correction, which moves the revision)."""
    return f"{event.revision} {_results_in(event, event.current_hand)}"


def _view(event: Event) -> MilitaryView:
    facts = _result_facts(event, event.current_hand)  # first: see MilitaryView.stamp
    drawn = f"{event.revision} {len(facts)}"  # `stamp`, from the results the view shows
    setup = setup_of(event)
    scheduled = military.scheduled_hands(setup)
    derived = _derived(event, setup)
    in_play = _in_play(event, drawn, setup, derived, scheduled, facts)
    board = in_play.board
    return MilitaryView(
        event, setup, derived.hands, in_play.pending, board.hand, board, derived.sheet, scheduled, drawn
    )


@dataclass(frozen=True)
class Preview:
    """What a table's tapped result would do, before it is confirmed: the rules' preview of its
    result, and its team's flags held now and once the result is in (what its phone's header says
    before and after, so the two agree: both count the flags its visitors already won elsewhere)."""

    shown: military.TablePreview
    held: tuple[int, int]


def preview(military_view: MilitaryView, table: int, hand: int, tricks: int, revoke: str | None) -> Preview:
    """Table `table`'s (from 1) result for `hand`, previewed on the hand in play as far as it is in:
    the hand is settled once, for the preview and the flags held after it. core.Conflict when `hand`
    is not the hand in play, the schedule is over or the table's result is in already."""
    current = military_view.event.current_hand
    if hand < current:
        raise core.Conflict(
            M("Hand %(hand)s is over: the director has opened hand %(current)s.", hand=hand, current=current)
        )
    if military_view.spec is None:  # a page drawn before the last hand closed
        raise core.Conflict(M("The schedule is over"))
    if hand > current:
        raise core.Conflict(
            M("Hand %(hand)s is not open yet: hand %(current)s is in play.", hand=hand, current=current)
        )
    pending = dict(military_view.pending or {})
    results = list(pending.get("results") or [None] * military_view.tables)  # type: ignore[call-overload]
    if results[table - 1] is not None:
        existing = military_view.result(hand, table)
        raise core.Conflict(
            M(
                "Hand %(hand)s is already recorded: the visitors took %(tricks)s tricks.",
                hand=hand,
                tricks=existing.tricks if existing else "?",
            ),
            existing,
        )
    results[table - 1] = {"tricks": tricks, "revoke": revoke}
    row = _settled(
        military_view.setup, _derived(military_view.event, military_view.setup).rows, {**pending, "results": results}
    )[0]
    shown = military.table_previews(military_view.setup, row)[table - 1]
    assert shown is not None  # the table's result is in the row just settled
    return Preview(shown, (military_view.rank_of(table).held, row.held[table - 1]))


def _settled(
    setup: Setup, rows: tuple[military.LedgerRow, ...], pending: RawHand
) -> tuple[military.LedgerRow, list[RuleError]]:
    """`military.settle_next`, once per request for one hand as far as it is in: an entry's check
    before its commit and the board drawn after it settle the same hand on the same complete hands
    (a pure function of them: the same rows object and an equal hand give the same row)."""
    memo: dict[int, tuple[Setup, tuple[military.LedgerRow, ...], RawHand, tuple[military.LedgerRow, list[RuleError]]]]
    memo = g.setdefault("scorepad_military_settled", {})
    found = memo.get(id(rows))
    if found is not None and found[0] is setup and found[1] is rows and found[2] == pending:
        return found[3]
    settled = military.settle_next(setup, rows, pending)
    memo[id(rows)] = (setup, rows, pending, settled)
    return settled


# Built once: a table's every request reads its result, and building the statement cost more than running it
_RESULT_ROW = select(ReportedResult).where(
    ReportedResult.event_id == bindparam("event"),
    ReportedResult.hand == bindparam("hand"),
    ReportedResult.table == bindparam("table"),
)


def _result_row(event: Event, hand: int, table: int) -> ReportedResult | None:
    return db.session.scalars(_RESULT_ROW, {"event": event.id, "hand": hand, "table": table}).first()


def _moves(event: Event, number: int) -> list[int] | None:
    moves = _committed_extras(event)[0].get(number)
    return [m - 1 for m in moves] if moves is not None else None


def _hand_row(event: Event, number: int) -> OpenedHand | None:
    return db.session.scalars(
        select(OpenedHand).where(OpenedHand.event_id == event.id, OpenedHand.number == number)
    ).first()


def check_rows(event: Event) -> None:
    """RuleErrors unless the rows are what play leaves (a restored backup, see events/backup.py):
    the hand in play within the schedule (one past it once it is over), results, loans and opened
    hands no later than it, playoff hands only after the schedule, a day closed exactly when its
    last hand was advanced, and the ledger of every hand (the one in play too) as the rules keep it."""
    setup = setup_of(event)  # the very object the derivation below is kept with
    scheduled = military.scheduled_hands(setup)
    current, tables = event.current_hand, len(event.tables)
    errors = core.unused(event, "entrants", "matches")
    errors += _day_end_errors(event, setup)
    if core.games_of(event):
        errors.append(RuleError("games", M("a Military Whist event plays no games of its own")))
    if not 1 <= current <= scheduled + 1:
        errors.append(
            RuleError(
                "current_hand",
                M("hand %(hand)s cannot be in play: the schedule has 1 hand", hand=current)
                if scheduled == 1
                else M(
                    "hand %(hand)s cannot be in play: the schedule has %(count)s hands", hand=current, count=scheduled
                ),
            )
        )
    last = min(current, scheduled)
    too_late = (
        (
            "results",
            select(ReportedResult.hand, ReportedResult.table)
            .order_by(ReportedResult.hand, ReportedResult.table)
            .where(ReportedResult.event_id == event.id, ReportedResult.hand > last),
        ),
        (
            "loans",
            select(FlagLoan.hand, FlagLoan.table)
            .order_by(FlagLoan.id)
            .where(FlagLoan.event_id == event.id, FlagLoan.hand > last),
        ),
    )
    for kind, query in too_late:  # asked for in SQL: 32,000 results as row objects cost a restore 0.8 s
        for hand, table in db.session.execute(query):
            errors.append(RuleError(kind, _row_too_late(kind, hand, table, current)))
    opened = [h.number for h in event.hands]
    if opened != list(range(1, last + 1)):
        errors.append(
            RuleError(
                "hands",
                M("hands 1 to %(last)s have been opened, not %(opened)s", last=last, opened=", ".join(map(str, opened)))
                if opened
                else M("hands 1 to %(last)s have been opened, not none", last=last),
            )
        )
    if event.playoffs and current <= scheduled:
        errors.append(RuleError("playoffs", M("playoff hands come after the last scheduled hand")))
    if [p.number for p in event.playoffs] != list(range(1, len(event.playoffs) + 1)):
        errors.append(
            RuleError("playoffs", M("the playoff hands are numbered 1 to %(count)s", count=len(event.playoffs)))
        )
    ends = [sum(setup.options.get_ints("days")[:d]) for d in range(1, len(setup.options.get_ints("days")) + 1)]
    closed = [d.day for d in event.days_closed]
    if closed != [d for d, end in enumerate(ends, start=1) if end < current]:
        errors.append(
            RuleError(
                "days_closed",
                M(
                    "days closed: %(days)s, but a day closes when its last hand is advanced (hand %(hand)s is in play)",
                    days=", ".join(map(str, closed)),
                    hand=current,
                )
                if closed
                else M(
                    "days closed: none, but a day closes when its last hand is advanced (hand %(hand)s is in play)",
                    hand=current,
                ),
            )
        )
    for d in event.days_closed:
        if len(d.held) != tables or len(d.owed) != tables:
            errors.append(
                RuleError(
                    "days_closed", M("day %(day)s's flags are counted for %(tables)s tables", day=d.day, tables=tables)
                )
            )
    if errors:
        raise RuleErrors(errors)
    # the complete hands' ledger and sheet as the pages keep them (one replay, shared by the state
    # of the hand in play, the control room and the boards: a restore used to replay three times)
    hands = _derived(event, setup).hands
    if current <= scheduled:
        military.VARIANT.state(setup, hands, raw_hand(event, current, pending_change=True))


def _row_too_late(kind: str, hand: int, table: int, current: int) -> Message:
    """A result or a loan of a hand not reached yet, in words (one sentence each: "a result", "a loan")."""
    if kind == "results":
        return M(
            "hand %(hand)s, table %(table)s has a result, but hand %(current)s is in play",
            hand=hand,
            table=table,
            current=current,
        )
    return M(
        "hand %(hand)s, table %(table)s has a loan, but hand %(current)s is in play",
        hand=hand,
        table=table,
        current=current,
    )


# --------------------------------------------------------------------------- the director's set-up


def create_event(
    name: str,
    teams: Sequence[str],
    days: Sequence[int],
    *,
    loans: str = "auto",
    auto_advance: bool = False,
    late_minutes: int = 12,
    pin: str = "",
    players: Sequence[Sequence[str]] | None = None,
    time_zone: str | None = None,
) -> Event:
    """Set up an event; RuleErrors name the bad fields (name, teams.N, options.days, pin,
    time_zone: the IANA zone its times are shown in, None for the server's)."""
    name = " ".join(name.split())
    names = [" ".join(t.split()) or f"Table {i + 1}" for i, t in enumerate(teams)]
    errors = _name_errors(name, names, players or [[]] * len(names)) + core.zone_errors(time_zone)
    if pin and not valid_pin(pin):
        errors.append(RuleError("pin", M("the PIN is 4 to 8 digits (or leave it empty)")))
    if not 1 <= late_minutes <= 120:
        errors.append(RuleError("late_minutes", M("a table counts as late after 1 to 120 minutes")))
    record = {
        "variant": military.VARIANT.key,
        "title": name,
        "options": {"days": list(days), "loans": loans},
        "teams": [{"name": n, "players": list(p)} for n, p in zip(names, players or [[]] * len(names))],
        "hands": [],
    }
    try:
        parsed = parse_record(record)
    except RuleErrors as e:
        errors.extend(_new_errors(errors, e))
    if errors:
        raise RuleErrors(errors)
    event = Event(
        name=name,
        format=KEY,
        options=parsed.setup.options.as_json(),
        auto_advance=auto_advance,
        late_minutes=late_minutes,
        time_zone=time_zone,
    )
    event.tables = [
        EventTable(number=i + 1, team=t.name, players=list(t.players)) for i, t in enumerate(parsed.setup.teams)
    ]
    event.hands = [OpenedHand(number=1)]
    core.apply_pin(event, pin)
    db.session.add(event)
    db.session.commit()
    return event


def _name_errors(name: str, teams: Sequence[str], players: Sequence[Sequence[str]]) -> list[RuleError]:
    """The event's, teams' and players' names: one limit (the game record's), one message each."""
    errors: list[RuleError] = []
    if not name:
        errors.append(RuleError("name", M("give the event a name, e.g. 'Zone 3 Military Whist'")))
    elif len(name) > MAX_EVENT_NAME:
        errors.append(
            RuleError("name", M("the event's name is too long: at most %(most)s characters", most=MAX_EVENT_NAME))
        )
    for i, team in enumerate(teams):
        if len(team) > MAX_NAME:
            errors.append(
                RuleError(
                    f"teams.{i}",
                    M("team %(team)s's name is too long: at most %(most)s characters", team=i + 1, most=MAX_NAME),
                )
            )
    for i, four in enumerate(players):
        for j, player in enumerate(four):
            if len(player) > MAX_NAME:
                errors.append(
                    RuleError(
                        f"teams.{i}.players.{j}",
                        M(
                            "player %(letter)s of team %(team)s: the name is too long: at most %(most)s characters",
                            letter=military.LETTERS[j % 4],
                            team=i + 1,
                            most=MAX_NAME,
                        ),
                    )
                )
    return errors


def _new_errors(found: Sequence[RuleError], more: RuleErrors) -> list[RuleError]:
    """`more`'s errors on fields not already reported (the record repeats the length checks)."""
    fields = {e.field for e in found}
    return [e for e in more.errors if e.field not in fields and e.field.rsplit(".", 1)[0] not in fields]


def rename(
    event: Event,
    name: str,
    teams: Sequence[str],
    players: Sequence[Sequence[str]],
    actor: str = "director",
    new_members: Collection[str] = (),
) -> None:
    """Change the event's name, the teams' names and their players (A, B, X, Y, or none); audited.

    Only names: the tables, the schedule and every result stay as they are, so nothing is re-scored.
    At a club's event, a player's name new to the club becomes a member (`roster.enrol`:
    `new_members`, the fields whose names close to a member's are new people).
    """
    name = " ".join(name.split())
    names = [" ".join(t.split()) for t in teams]
    fours = [[" ".join(p.split()) for p in four] for four in players]
    fours = [four if any(four) else [] for four in fours]
    if len(names) != len(event.tables) or len(fours) != len(event.tables):
        raise RuleErrors(
            [RuleError("teams", M("give a name for each of the %(count)s tables", count=len(event.tables)))]
        )
    errors = _name_errors(name, names, fours)
    for i, team in enumerate(names):
        if not team:
            errors.append(RuleError(f"teams.{i}", M("table %(table)s's team needs a name", table=i + 1)))
    for i, four in enumerate(fours):
        for j, player in enumerate(four):
            if not player:
                errors.append(
                    RuleError(
                        f"teams.{i}.players.{j}",
                        M(
                            "player %(letter)s of team %(team)s needs a name (or leave all four empty)",
                            letter=military.LETTERS[j],
                            team=i + 1,
                        ),
                    )
                )
    if not errors:
        try:
            parse_record(
                {
                    **_record(event, []),
                    "title": name,
                    "teams": [{"name": n, "players": p} for n, p in zip(names, fours)],
                }
            )
        except RuleErrors as e:
            errors.extend(_new_errors(errors, e))
    if errors:
        raise RuleErrors(errors)
    old: dict[str, object] = {
        "name": event.name,
        "teams": [t.team for t in event.tables],
        "players": [list(t.players) for t in event.tables],
    }
    new: dict[str, object] = {"name": name, "teams": names, "players": fours}
    if old == new:
        raise RuleErrors([RuleError("name", M("nothing changed: every name is as it was"))])
    roster.enrol(
        event,
        [(f"teams.{i}.players.{j}", player) for i, four in enumerate(fours) for j, player in enumerate(four)],
        new_members,
    )
    event.name = name
    for table, team, four in zip(event.tables, names, fours):
        table.team, table.players = team, four
    core.audit(event, actor, "set-up", old=old, new=new, note=M("names changed"))
    db.session.commit()
    core.announce(event, core.Signals(orders=True))


# --------------------------------------------------------------------------- results


def parse_result(tricks: object, revoke: object) -> tuple[int, str | None]:
    """A table's report from a form: tricks 0-13 and the side that revoked (or none)."""
    errors: list[RuleError] = []
    count = whole_number(tricks, 2)
    if count is None or not 0 <= count <= military.CARDS:
        errors.append(RuleError("tricks", M("tap the number of tricks the visitors took: 0 to 13")))
        count = -1
    side = None if revoke in (None, "", "none") else str(revoke)
    if side is not None and side not in REVOKES:
        errors.append(RuleError("revoke", M("a revoke is by the visitors or the home pair (or none)")))
    if errors:
        raise RuleErrors(errors)
    return count, side


def _check(event: Event) -> None:
    """Replay the whole event with the pending change: RuleErrors if the ledger would go wrong."""
    db.session.flush()
    db.session.expire(event, ["results", "loans", "hands", "playoffs"])
    setup = setup_of(event)
    hands = raw_hands(event)
    military.VARIANT.score(setup, hands)
    if event.current_hand <= military.scheduled_hands(setup):
        military.VARIANT.state(setup, hands, raw_hand(event, event.current_hand, pending_change=True))


@dataclass(frozen=True)
class Lent:
    """Flags lent to a table in one hand, as the ledger derives them: `flags` in all, `automatic`
    of them lent by the rules when the table's result came in and it had run out."""

    flags: int
    automatic: int


def loans_by_hand(event: Event, pending_change: bool = False) -> dict[tuple[int, int], Lent]:
    """Every loan of the event by (hand, table), the hand in play's too: derived from the results
    and the director's loans (an automatic loan is the rules' doing, never stored).

    `pending_change`: derived afresh from the session's uncommitted rows (a correction being checked)."""
    setup = setup_of(event)
    if pending_change:
        rows = list(military.ledger(setup, raw_hands(event)))
    else:
        rows = list(_derived(event, setup).rows)
    if event.current_hand <= military.scheduled_hands(setup):
        row, _ = military.settle_next(setup, rows, raw_hand(event, event.current_hand, pending_change))
        rows.append(row)
    return {
        (row.number, t + 1): Lent(flags, row.auto_lent[t])
        for row in rows
        for t, flags in enumerate(row.lent)
        if flags > 0
    }


def _audit_automatic_loan(event: Event, row: military.LedgerRow, table: int) -> None:
    """A result that left its table short of flags made an automatic loan: one line in the audit
    trail, in the result's commit (the loan itself stays derived). It moves no revision: the
    complete hands kept for the next entry stay as they are."""
    flags = row.auto_lent[table - 1]
    if flags:
        db.session.add(
            core.audit_entry(
                "automatic",
                "loan",
                event_id=event.id,
                hand=row.number,
                table=table,
                old={"flags": 0},
                new={"flags": flags},
                note=M(
                    "table %(table)s ran out of flags: %(flags)s lent automatically (it owes %(owes)s)",
                    table=table,
                    flags=_flags_words(flags),
                    owes=row.owed[table - 1],
                ),
            )
        )


def _audit_loans_changed(event: Event, before: dict[tuple[int, int], Lent]) -> None:
    """A correction changed what the rules lend automatically (in its hand or a later one of the day):
    each automatic loan that changed, old and new, in the audit trail."""
    after = loans_by_hand(event, pending_change=True)
    for hand, table in sorted(set(before) | set(after)):
        old = before[(hand, table)].automatic if (hand, table) in before else 0
        new = after[(hand, table)].automatic if (hand, table) in after else 0
        if old != new:
            db.session.add(
                core.audit_entry(
                    "automatic",
                    "loan",
                    event_id=event.id,
                    hand=hand,
                    table=table,
                    old={"flags": old},
                    new={"flags": new},
                    note=M("table %(table)s's automatic loan worked out again after a correction", table=table),
                )
            )


def _commit_entry(event: Event, table: int, hand: int) -> None:
    """A result for the hand in play (`table`'s): only that hand needs checking, on the cached
    complete hands; an automatic loan it makes goes to the audit trail.

    Checked against the event as stored now, not as this request read it: the director may have
    lent flags, corrected a result or opened the next hand since, perhaps on another worker, whose
    kept values this one does not hold (its own, kept at the revision read, were served). The
    event's row is held until the commit (`core.hold`), so a director's change waits for it."""
    core.hold(event, "options")
    if hand != (current := event.current_hand):  # the director opened the next hand meanwhile
        db.session.rollback()
        raise _not_in_play(hand, current)
    setup = setup_of(event)
    try:
        row, problems = _settled(setup, _derived(event, setup).rows, raw_hand(event, event.current_hand))
        if problems:
            raise RuleErrors(problems)
    except RuleErrors:
        db.session.rollback()
        raise
    _audit_automatic_loan(event, row, table)
    db.session.commit()


def _day_end_errors(event: Event, setup: Setup) -> list[RuleError]:
    """A day ended early: one decision per day, naming a day of the schedule, the hand it ended
    after (that day's last now) and more hands planned than were played."""
    days = setup.options.get_ints("days")
    seen: set[str] = set()
    for d in event.decisions:
        data = d.data if isinstance(d.data, dict) else {}
        day = int(d.key) if d.kind == DAY_END and d.key.isdigit() else 0
        planned, hand = data.get("planned"), data.get("hand")
        if (
            not 1 <= day <= len(days)
            or d.key in seen
            or not isinstance(planned, int)
            or planned <= days[day - 1]
            or hand != sum(days[:day])
        ):
            return [
                RuleError(
                    "decisions",
                    M("a decision this format never keeps, or a day ended early that does not fit the days"),
                )
            ]
        seen.add(d.key)
    return []


def _commit_checked(event: Event, loans_before: dict[tuple[int, int], Lent] | None = None) -> None:
    """Commit a director's change once the whole event still derives, and tell its screens (the
    hand's orders may have changed: a loan, moves, a correction). `loans_before`: the loans before
    a correction, whose automatic ones it may change (audited)."""
    try:
        _check(event)
        if loans_before is not None:
            _audit_loans_changed(event, loans_before)
    except RuleErrors:
        db.session.rollback()
        raise
    db.session.commit()
    core.announce(event, core.Signals(orders=True))


def _not_in_play(hand: int, current: int) -> core.Conflict:
    return core.Conflict(
        M(
            "Hand %(hand)s is not the hand in play (hand %(current)s is): ask the director to correct an earlier hand.",
            hand=hand,
            current=current,
        )
    )


def enter_result(
    event: Event, table: int, hand: int, tricks: int, revoke: str | None, actor: str, again: bool = True
) -> ReportedResult:
    """A table reports the hand in play; a second report of the same hand is refused (core.Conflict).

    The table's result is not read before it is written: the unique key refuses a second one, and
    only then is the first read, for the refusal's words. A commit refused for another reason is
    tried `again` once."""
    if hand != event.current_hand or hand > military.scheduled_hands(setup_of(event)):
        raise _not_in_play(hand, event.current_hand)
    result = ReportedResult(event_id=event.id, hand=hand, table=table, tricks=tricks, revoke=revoke, entered_by=actor)
    db.session.add(result)
    try:
        _commit_entry(event, table, hand)
    except IntegrityError:  # in already (the other phone at the table, a tap sent twice): the unique key says so
        db.session.rollback()
        existing = _result_row(event, hand, table)
        if existing is None and again:
            return enter_result(event, table, hand, tricks, revoke, actor, again=False)
        if existing is None:
            raise
        raise core.Conflict(
            M(
                "Hand %(hand)s at table %(table)s is already recorded: the visitors took %(tricks)s "
                "tricks. Ask the director if it is wrong.",
                hand=hand,
                table=table,
                tricks=existing.tricks,
            ),
            existing,
        ) from None
    if event.auto_advance:
        _auto_advance(event)
    core.announce(event)
    return result


def _auto_advance(event: Event) -> None:
    """Open the next hand after the last table's result, unless someone else already did.

    The result is committed by now: whatever happens here must not reach the table as an error."""
    v = view(event)
    if v.all_in and v.spec is not None and not v.spec.closes_day:
        try:
            advance(event, actor="automatic", hand=v.spec.number)
        except (core.Conflict, RuleErrors):  # the director (or another table's entry) advanced first
            db.session.rollback()


def correct_result(
    event: Event,
    hand: int,
    table: int,
    tricks: int,
    revoke: str | None,
    actor: str = "director",
) -> ReportedResult:
    """The director sets a table's result for any hand so far; the old and new values go to the audit trail."""
    core.table_of(event, table)
    if not 1 <= hand <= min(event.current_hand, military.scheduled_hands(setup_of(event))):
        raise RuleErrors([RuleError("hand", M("hand %(hand)s has not been played yet", hand=hand))])
    result = _result_row(event, hand, table)
    loans_before = loans_by_hand(event)
    old = None if result is None else {"tricks": result.tricks, "revoke": result.revoke}
    new = {"tricks": tricks, "revoke": revoke}
    if old == new:
        raise RuleErrors(
            [
                RuleError(
                    "tricks",
                    M("that is already the result of hand %(hand)s at table %(table)s", hand=hand, table=table),
                )
            ]
        )
    if result is None:
        result = ReportedResult(
            event_id=event.id, hand=hand, table=table, tricks=tricks, revoke=revoke, entered_by=actor
        )
        db.session.add(result)
    else:
        result.tricks, result.revoke = tricks, revoke
    core.audit(event, actor, "correction", hand=hand, table=table, old=old, new=new)
    _commit_checked(event, loans_before)
    return result


@dataclass(frozen=True)
class _Position:
    """A table's flags in the hand in play, before its result: what it holds and owes at the start,
    the director's net loan row of this hand (negative: flags given back), what its result takes."""

    start: int
    owed: int
    net: int
    row: FlagLoan | None
    paying: int | None  # flags its visitors take this hand, once its result is in

    @property
    def holds(self) -> int:
        return self.start + self.net

    @property
    def owes(self) -> int:
        return self.owed + self.net


def _position(event: Event, table: int, field: str) -> _Position:
    core.table_of(event, table)
    if event.current_hand > military.scheduled_hands(setup_of(event)):
        raise RuleErrors([RuleError(field, M("the schedule is over: no more loans"))])
    setup = setup_of(event)
    row, _ = military.settle_next(setup, _derived(event, setup).rows, raw_hand(event, event.current_hand))
    t = table - 1
    owed_start = row.owed[t] - row.lent[t] + row.returned[t]
    loan = db.session.scalars(
        select(FlagLoan).where(FlagLoan.event_id == event.id, FlagLoan.hand == row.number, FlagLoan.table == table)
    ).first()
    outcome = row.outcomes[t]
    return _Position(row.start[t], owed_start, loan.flags if loan else 0, loan, outcome.flags if outcome else None)


def _flags_words(count: int) -> Message:
    return M("1 flag") if count == 1 else M("%(count)s flags", count=count)


def _set_loan(event: Event, table: int, position: _Position, net: int) -> None:
    """Store the table's net loan for the hand in play (no row when it comes to nothing)."""
    if position.row is not None and net == 0:
        db.session.delete(position.row)
    elif position.row is not None:
        position.row.flags = net
    elif net:
        db.session.add(FlagLoan(event_id=event.id, hand=event.current_hand, table=table, flags=net))


def lend(event: Event, table: int, flags: int, actor: str = "director") -> None:
    """Lend table `table` flags during the hand in play, only as many as it may need.

    The rules: a table that has no flags left and loses more is lent flags. A hand takes at most
    MAX_LOSS flags from a table (its result's flags once it is in), so a table holding that many
    is refused: the loan would only inflate what it owes. Automatic loans (the "auto" option) lend
    exactly the shortfall when the result comes in; this is the same measure, in advance.
    """
    if not 1 <= flags <= military.MAX_LOAN:
        raise RuleErrors([RuleError("flags", M("lend 1 to %(most)s flags", most=military.MAX_LOAN))])
    position = _position(event, table, "flags")
    loses = position.paying if position.paying is not None else MAX_LOSS
    need = loses - position.holds
    if need <= 0:
        holds = _flags_words(position.holds)
        raise RuleErrors(
            [
                RuleError(
                    "flags",
                    M(
                        "table %(table)s still holds %(holds)s, enough to pay the %(taken)s its visitors took: flags are lent "
                        "only to a table that runs out",
                        table=table,
                        holds=holds,
                        taken=_flags_words(loses),
                    )
                    if position.paying is not None
                    else M(
                        "table %(table)s still holds %(holds)s, and a table loses at most %(most)s flags in a hand: flags are "
                        "lent only to a table that runs out",
                        table=table,
                        holds=holds,
                        most=MAX_LOSS,
                    ),
                )
            ]
        )
    if flags > need:
        raise RuleErrors(
            [
                RuleError(
                    "flags",
                    M(
                        "table %(table)s holds %(holds)s and loses at most %(loses)s this hand: "
                        "lend it at most %(need)s",
                        table=table,
                        holds=_flags_words(position.holds),
                        loses=loses,
                        need=_flags_words(need),
                    ),
                )
            ]
        )
    _set_loan(event, table, position, position.net + flags)
    core.audit(
        event,
        actor,
        "loan",
        hand=event.current_hand,
        table=table,
        new={"flags": flags},
        note=M("table %(table)s lent %(flags)s", table=table, flags=_flags_words(flags)),
    )
    _commit_checked(event)


def return_flags(event: Event, table: int, flags: int, actor: str = "director") -> None:
    """Table `table` gives flags back to the director against what it owes (recorded like a loan).

    It gives back flags it holds at the start of the hand in play, at most what it owes, and not
    the flags its result in this hand still has to pay. Held and owed fall together, so the
    ledger stays balanced: flags held - loans = 12 x tables on every day.
    """
    if not 1 <= flags <= military.MAX_LOAN:
        raise RuleErrors([RuleError("back", M("give back 1 to %(most)s flags", most=military.MAX_LOAN))])
    position = _position(event, table, "back")
    if position.owes <= 0:
        raise RuleErrors(
            [RuleError("back", M("table %(table)s owes no flags: there is nothing to give back", table=table))]
        )
    most = min(position.owes, position.holds - (position.paying or 0))
    if most <= 0:
        raise RuleErrors(
            [
                RuleError(
                    "back",
                    M(
                        "table %(table)s cannot give flags back now: it needs its %(holds)s to pay this hand",
                        table=table,
                        holds=_flags_words(position.holds),
                    )
                    if position.paying
                    else M("table %(table)s cannot give flags back now: it holds no flags", table=table),
                )
            ]
        )
    if flags > most:
        raise RuleErrors(
            [
                RuleError(
                    "back",
                    M(
                        "table %(table)s holds %(holds)s and owes %(owes)s: it can give back at most %(most)s now",
                        table=table,
                        holds=_flags_words(position.holds),
                        owes=position.owes,
                        most=_flags_words(most),
                    ),
                )
            ]
        )
    _set_loan(event, table, position, position.net - flags)
    core.audit(
        event,
        actor,
        "return",
        hand=event.current_hand,
        table=table,
        new={"flags": flags},
        note=M("table %(table)s gave %(flags)s back to the director", table=table, flags=_flags_words(flags)),
    )
    _commit_checked(event)


def set_moves(event: Event, moves: Sequence[int] | None, actor: str = "director") -> None:
    """Replace the destinations (table numbers from 1) of the hand in play, before any result is in."""
    hand = event.current_hand
    row = _hand_row(event, hand)
    if row is None:
        raise RuleErrors([RuleError("moves", M("the schedule is over: there is no hand to move"))])
    if _result_facts(event, hand):
        raise RuleErrors(
            [
                RuleError(
                    "moves",
                    M(
                        "results of hand %(hand)s are already in: correct them first, "
                        "the moves cannot change under them",
                        hand=hand,
                    ),
                )
            ]
        )
    old = row.moves
    row.moves = list(moves) if moves is not None else None
    core.audit(event, actor, "moves", hand=hand, old={"moves": old}, new={"moves": row.moves})
    _commit_checked(event)


def end_day(event: Event, hand: int, actor: str = "director") -> None:
    """End the day after hand `hand`, the hand in play, at the leader's direction ("play ends at the
    conclusion of the pre-set pattern or at the direction of the leader"): the day's hands become
    those played so far, so this hand closes it (its flags recorded, every table back on 12 the next
    day) or, on the last day, ends the schedule. The hands planned are kept to say so."""
    v = view(event)
    if v.spec is None or hand != v.spec.number:
        raise core.Conflict(
            M("Hand %(hand)s is not the hand in play: reload the page.", hand=hand)
            if v.spec is not None
            else M("the schedule is over")
        )
    days = list(v.setup.options.get_ints("days"))
    planned = days[v.spec.day - 1]
    if v.spec.closes_day:
        raise RuleErrors([RuleError("end_day", M("hand %(hand)s is already the day's last hand", hand=hand))])
    days[v.spec.day - 1] = v.spec.day_hand
    event.options = {**event.options, "days": days}
    event.decisions.append(
        EventDecision(kind=DAY_END, key=str(v.spec.day), data={"hand": hand, "planned": planned}, actor=actor)
    )
    core.audit(
        event,
        actor,
        "day ended early",
        hand=hand,
        old={"hands": planned},
        new={"hands": v.spec.day_hand},
        note=M("day %(day)s ends after hand %(hand)s", day=v.spec.day, hand=hand),
    )
    _commit_checked(event)


def _already_advanced(event: Event, hand: int) -> core.Conflict:
    db.session.rollback()
    db.session.refresh(event)
    return core.Conflict(
        M("Hand %(hand)s was already advanced: hand %(current)s is in play now.", hand=hand, current=event.current_hand)
    )


def advance(event: Event, actor: str = "director", hand: int | None = None) -> None:
    """Open the next hand once every table has reported; the day's last hand closes the day.

    `hand` is the hand the caller saw in play. Two advances at once (two director devices, or the
    automatic advance racing the director) must open one hand: the first claims the hand with a
    conditional update of the event row (a write lock on SQLite, a row lock on PostgreSQL) and the
    other finds the hand moved on: core.Conflict, never a duplicate row.
    """
    number = event.current_hand if hand is None else hand
    claimed = db.session.execute(
        update(Event)
        .where(Event.id == event.id, Event.current_hand == number)
        .values(current_hand=number)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise _already_advanced(event, number)
    db.session.expire(event)  # read what the other writers committed before the claim
    v = view(event)
    if v.spec is None:
        db.session.rollback()
        raise RuleErrors(
            [
                RuleError(
                    "hand",
                    M("the schedule is over: record the playoff hands")
                    if v.needs_playoff
                    else M("the schedule is over"),
                )
            ]
        )
    if v.board.playing:
        db.session.rollback()
        waiting = ", ".join(str(t + 1) for t in v.board.playing)
        raise RuleErrors(
            [
                RuleError(
                    "hand",
                    M(
                        "hand %(hand)s is not complete: waiting for tables %(tables)s",
                        hand=v.spec.number,
                        tables=waiting,
                    )
                    if len(v.board.playing) > 1
                    else M(
                        "hand %(hand)s is not complete: waiting for table %(tables)s",
                        hand=v.spec.number,
                        tables=waiting,
                    ),
                )
            ]
        )
    if v.spec.closes_day:
        rows = military.ledger(v.setup, [*v.hands, raw_hand(event, v.spec.number)])
        last = rows[-1]
        db.session.add(DayClose(event_id=event.id, day=v.spec.day, held=list(last.held), owed=list(last.owed)))
        core.audit(
            event,
            actor,
            "day closed",
            hand=v.spec.number,
            new={"held": list(last.held), "owed": list(last.owed)},
            note=M("day %(day)s closed", day=v.spec.day),
        )
    event.current_hand += 1
    if event.current_hand <= v.scheduled:
        db.session.add(OpenedHand(event_id=event.id, number=event.current_hand))
    core.audit(
        event,
        actor,
        "advance",
        hand=event.current_hand,
        note=M("hand %(hand)s opened", hand=event.current_hand)
        if event.current_hand <= v.scheduled
        else M("schedule complete"),
    )
    try:
        db.session.commit()
    except IntegrityError:  # a writer the claim did not hold back (it should not happen): still one hand
        raise _already_advanced(event, number) from None
    core.announce(event, core.Signals(orders=True))


def record_playoff(event: Event, teams: Sequence[int], winner: int, bye: Sequence[int] | None) -> EventPlayoff:
    """Record a tie-break hand (teams from 1); the rules check who may play it."""
    if event.current_hand <= military.scheduled_hands(setup_of(event)):
        raise RuleErrors([RuleError("playoff", M("playoff hands come after the last scheduled hand"))])
    number = len(event.playoffs) + 1
    row = EventPlayoff(
        event_id=event.id, number=number, teams=list(teams), winner=winner, bye=list(bye) if bye else None
    )
    db.session.add(row)
    core.audit(event, "director", "playoff", new={"teams": list(teams), "winner": winner, "bye": list(bye or [])})
    _commit_checked(event)
    return row


# --------------------------------------------------------------------------- the demo


DEMO_TEAMS = ("Red Deer Rovers", "Calgary Aces", "Lethbridge Kings", "Medicine Hat Jacks")
DEMO_TRICKS = ((7, 5, 10, 6), (8, 6, 7, 4), (6, 9, 5, 7), (5, 7, 8, 10), (4, 3, 7, 6))  # hand 5 is NT Low


def demo_event() -> Event | None:
    return db.session.scalars(select(Event).where(Event.is_demo.is_(True))).first()


def load_demo_event() -> Event | None:
    """A 4-table event five hands in (an NT Low among them), with its director's link unlocked by nobody."""
    if demo_event() is not None:
        return None
    event = create_event("Demo: Military Whist, area level", DEMO_TEAMS, [30])
    event.is_demo = True
    for number, hand in enumerate(DEMO_TRICKS, start=1):
        for table, tricks in enumerate(hand, start=1):
            enter_result(event, table, number, tricks, None, f"table {table}")
        advance(event, actor="demo")
    db.session.commit()
    return event


def players(event: Event) -> results.EventResults:
    """Each team's own page: every complete hand (and the hand in play once every table is in, as
    the leaderboard counts it), where its two pairs sat (the home pair at its own table) and
    against whom, the flags it won or lost, its flags after it, and its place on the leaderboard."""
    military_view = view(event)
    setup = military_view.setup
    names = [t.name for t in setup.teams]
    rows = {row.team: row for row in military_view.board.rows}
    sheet = military_view.sheet
    if military_view.all_in and military_view.pending is not None:  # as the board: every table is in
        sheet = military.VARIANT.score(setup, [*military_view.hands, military_view.pending])
    pages = []
    for team, named in enumerate(setup.teams):
        hands = []
        for line in sheet.lines:
            spec = line.spec
            cell = line.cells[team]
            if isinstance(spec, MilitaryRound) and spec.moves:
                where = M(
                    "%(home)s home · %(out)s at table %(away)s",
                    home=spec.home_pair,
                    out=spec.out_pair,
                    away=spec.moves[team] + 1,
                )
                against = M(
                    "%(visitors)s visiting · %(hosts)s hosting",
                    visitors=names[spec.arrivals[team]],
                    hosts=names[spec.moves[team]],
                )
                label = M("Hand %(number)s", number=line.number)
            else:
                playing = spec.playoff_teams if isinstance(spec, MilitaryRound) else ()
                where, against = "", joined([names[t] for t in playing if t != team])
                label = M("Playoff hand %(number)s", number=line.number)
            hands.append(results.Played(label, where, against, cell.points, cell.detail, cell.total))
        row = rows.get(team)
        pages.append(
            results.PlayerResults(
                results.code(event.public_id, f"team-{team + 1}"),
                named.name,
                tuple(named.players),
                row.rank if row is not None else None,
                row is not None and sum(1 for r in rows.values() if r.rank == row.rank) > 1,
                len(rows),
                row.total if row is not None else 0,
                _flags_total(row.total) if row is not None else "",
                tuple(hands),
                military_view.board.finished,
            )
        )
    return results.EventResults(military_view.board.finished, tuple(pages))


def _flags_total(total: int) -> str:
    return M("1 flag") if total == 1 else M("%(count)s flags", count=total)


class _Military(core.OneView):
    """Military Whist events behind the registry (see `events.registry`)."""

    key, title, pages, view_name = KEY, "Military Whist", "military", "military_view"
    timer_per = "hand"  # the round timer times each hand

    def view(self, event: Event) -> MilitaryView:
        return view(event)

    def room(self, event: Event) -> dict[str, object]:
        military_view = view(event)
        return {"military_view": military_view, "late": military_view.late(), "lent": loans_by_hand(event)}

    def export(self, event: Event) -> dict[str, object]:
        return record_of(event)

    def check(self, event: Event) -> None:
        check_rows(event)
        super().check(event)

    def forget(self, event_id: int, game_ids: Sequence[int]) -> None:
        """The event's set-up, extras and derived hands, kept by event id, with what the rules'
        derived_once keeps for those hands."""
        _SETUPS.forget(event_id)
        _EXTRAS.forget(event_id)
        _IN_PLAY.forget(event_id)
        found = _DERIVED.forget(event_id)
        if found is not None:
            forget_derived(found.setup, found.hands)

    def players(self, event: Event) -> results.EventResults:
        return players(event)

    def table_stamp(self, table: EventTable) -> str | None:
        return stamp(table.event)

    def status(self, event: Event) -> str:
        military_view = view(event)
        if military_view.spec is not None:
            return M("Hand %(hand)s of %(total)s", hand=military_view.spec.number, total=military_view.scheduled)
        return M("Schedule over: a playoff is needed") if military_view.needs_playoff else M("Finished")


FORMAT = _Military()
