"""Whist drives on the event core: players four to a table, the N-S tricks entered per deal, the
app moving everyone after each change point.

Rows: the players (entrants, numbered in the order given), the tables with their QR tokens, one
ReportedResult per deal and table (`tricks` = the tricks N-S took), and each seating once it has
been announced (an EventDecision "seating" keyed by the deal it starts): the players have moved
by then, so a later correction re-scores the deal without moving anybody again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from scorepad.events import core, roster
from scorepad.events.core import OneView
from scorepad.extensions import db
from scorepad.formats import drive as fmt
from scorepad.games import results
from scorepad.models import Event, EventDecision, EventEntrant, EventTable, ReportedResult, utcnow
from scorepad.rules.base import RuleError, RuleErrors, quoted
from scorepad.rules.errors import M, Message, joined

KEY = "whist_drive"
MAX_PLAYER = 40  # a player's name (an entrant's column holds 60, a Bid Whist team's name)


def create(
    name: str,
    players: list[str],
    *,
    deals: int = 24,
    per_change: int = 1,
    scoring: str = "odd",
    nt_fifth: bool = False,
    movement: str = "progressive",
    top: str = "stay",
    pin: str = "",
    time_zone: str | None = None,
) -> Event:
    """A whist drive ready to play: tables for the players, four to a table, deal 1 in play; its
    times shown in `time_zone` (an IANA name; None: the server's)."""
    name = name.strip()
    errors = core.setup_errors(name, pin, M("give the drive a name, e.g. 'Village hall whist drive'"), time_zone)
    names = [" ".join(p.split()) for p in players if p.strip()]
    if any(len(n) > MAX_PLAYER for n in names):
        errors.append(
            RuleError("players", M("a player's name is too long: at most %(most)s characters", most=MAX_PLAYER))
        )
    setup = fmt.Drive(tuple(names), deals, per_change, scoring, nt_fifth, movement, top)
    try:
        fmt.check(setup)
    except RuleErrors as e:
        errors.extend(e.errors)
    if errors:
        raise RuleErrors(errors)
    event = Event(
        name=name,
        format=KEY,
        time_zone=time_zone,
        started_at=utcnow(),
        current_hand=1,
        options={
            "deals": deals,
            "per_change": per_change,
            "scoring": scoring,
            "nt_fifth": nt_fifth,
            "movement": movement,
            "top": top,
        },
    )
    event.entrants = [EventEntrant(number=i + 1, name=n, players=[n]) for i, n in enumerate(names)]
    event.tables = [EventTable(number=t + 1, team="") for t in range(setup.tables)]
    core.apply_pin(event, pin)
    db.session.add(event)
    db.session.commit()
    return event


def drive_of(event: Event) -> fmt.Drive:
    o = event.options
    return fmt.Drive(
        tuple(e.name for e in event.entrants),
        int(o["deals"]),
        int(o["per_change"]),
        str(o["scoring"]),
        bool(o["nt_fifth"]),
        str(o["movement"]),
        str(o["top"]),
    )


def _results(event: Event) -> dict[tuple[int, int], int]:
    return {(r.hand, r.table): r.tricks for r in event.results}


def _announced(event: Event) -> dict[int, fmt.Seating]:
    return {int(d.key): tuple(tuple(t) for t in d.data["tables"]) for d in event.decisions if d.kind == "seating"}


@dataclass(frozen=True)
class DriveView:
    event: Event
    drive: fmt.Drive
    state: fmt.State
    results: dict[tuple[int, int], int]
    board: tuple[fmt.Place, ...]

    @property
    def tables(self) -> int:
        return self.drive.tables

    @property
    def deal(self) -> int:
        return self.state.deal

    @property
    def seating(self) -> fmt.Seating | None:
        return None if self.state.over else self.state.seating(self.state.deal)

    def names(self, four: tuple[int, int, int, int]) -> list[tuple[str, str]]:
        return [(fmt.SEATS[i], self.drive.players[p - 1]) for i, p in enumerate(four)]

    def trump_words(self, deal: int) -> str:
        return fmt.trump_words(self.drive, deal)

    def moved(self) -> tuple[str, ...]:
        """Who moved where at the last change of places (for the phones and the projector)."""
        deal = self.state.deal if not self.state.over else self.drive.deals + 1
        if deal <= 1 or deal > self.drive.deals or (deal - 1) % self.drive.per_change:
            return ()
        return fmt.where_words(self.drive, self.state.seating(deal - 1), self.state.seating(deal))

    def moved_from(self, table: int) -> tuple[str, ...]:
        """The words for the players who sat at `table` in the last deal."""
        deal = self.state.deal
        if not self.moved():
            return ()
        was = {self.drive.players[p - 1] for p in self.state.seating(deal - 1)[table - 1]}
        return tuple(line for line in self.moved() if line.split(":")[0] in was)

    @property
    def prizes(self) -> tuple[tuple[str, tuple[fmt.Place, ...]], ...]:
        return fmt.prizes(self.board) if self.state.over else ()


def view(event: Event) -> DriveView:
    setup = drive_of(event)
    results = _results(event)
    current = fmt.state(setup, results, _announced(event))
    return DriveView(event, setup, current, results, fmt.leaderboard(setup, current.scores))


def check_entry(event: Event, table: int, deal: int, ns: int) -> fmt.Drive:
    """What `enter` refuses, checked before the table's preview (which records nothing): a deal
    already recorded there, one not in play, a count of tricks out of range."""
    existing = next((r for r in event.results if r.hand == deal and r.table == table), None)
    if existing is not None:
        raise core.Conflict(
            M(
                "Deal %(deal)s at table %(table)s is already recorded: North-South took %(tricks)s.",
                deal=deal,
                table=table,
                tricks=existing.tricks,
            )
        )
    setup = drive_of(event)
    fmt.check_result(setup, _results(event), deal, table, ns)
    return setup


def enter(event: Event, table: int, deal: int, ns: int, actor: str) -> None:
    """A table's N-S tricks for the deal in play; a second entry is refused with the value recorded."""
    setup = check_entry(event, table, deal, ns)
    event.results.append(ReportedResult(hand=deal, table=table, tricks=ns, entered_by=actor))
    try:
        db.session.flush()
    except IntegrityError:  # the other phone at the table was faster
        db.session.rollback()
        raise core.Conflict(
            M("Deal %(deal)s at table %(table)s was just recorded from the other phone.", deal=deal, table=table)
        ) from None
    _seat_next(event, setup)
    db.session.commit()
    # the phones fetch their panel again only when the deal in play moved on (and with it, the places)
    core.announce(event, core.Signals(orders=event.current_hand != deal))


def _seat_next(event: Event, setup: fmt.Drive) -> None:
    """When a change point's last result is in, record the new seating: it is what players are told.

    Judged from the results as stored now, not as this request read them: another table's result
    saved since counts (two tables finishing a deal at once each saw the other's missing, and the
    phones waited). The event's row is held until the commit (`core.hold`), so two such saves take
    turns."""
    core.hold(event)
    db.session.expire(event, ["results", "decisions"])
    current = fmt.state(setup, _results(event), _announced(event))
    deal = current.deal
    if current.over:
        event.current_hand = setup.deals + 1  # every phone moves on to "the drive is over"
        return
    if current.playing != tuple(range(1, setup.tables + 1)) or deal == 1:
        return
    if (deal - 1) % setup.per_change == 0 and deal not in _announced(event):
        event.decisions.append(
            EventDecision(kind="seating", key=str(deal), data={"tables": [list(t) for t in current.seating(deal)]})
        )
        event.current_hand = deal
        event.revision += 1
    elif deal != event.current_hand:
        event.current_hand = deal


def correct(event: Event, deal: int, table: int, ns: int, actor: str = "director") -> None:
    """Correct (or enter for a table) a deal already reached; the scores are derived again."""
    setup = drive_of(event)
    current = view(event).state
    if not 1 <= table <= setup.tables or not 1 <= deal <= min(current.deal, setup.deals):
        raise RuleErrors(
            [
                RuleError(
                    "deal",
                    M("there is no result to correct for deal %(deal)s at table %(table)s", deal=deal, table=table),
                )
            ]
        )
    if not 0 <= ns <= fmt.TRICKS:
        raise RuleErrors([RuleError("tricks", M("North-South took 0 to 13 tricks"))])
    row = next((r for r in event.results if r.hand == deal and r.table == table), None)
    old = row.tricks if row else None
    if row is None:
        fmt.check_result(setup, _results(event), deal, table, ns)
        event.results.append(ReportedResult(hand=deal, table=table, tricks=ns, entered_by=actor))
    else:
        row.tricks = ns
    event.audit.append(
        core.audit_entry(
            actor,
            "correction",
            hand=deal,
            table=table,
            old={"tricks": old} if old is not None else None,
            new={"tricks": ns},
        )
    )
    db.session.flush()
    _seat_next(event, setup)
    db.session.commit()
    core.announce(event, core.Signals(orders=True))


RENAMED = "renamed"


def rename(
    event: Event, number: int, name: str, actor: str = "director", new_members: Collection[str] = ()
) -> EventEntrant:
    """Give player `number` a new name, at any stage: the seats, the results and every score stay
    as they are (they are kept by number), every page shows the new name; audited "old → new".
    At a club's drive a name new to the club becomes a member (`roster.enrol`: `new_members` holds
    "rename" once the director said a name close to a member's is a new person)."""
    player = next((e for e in event.entrants if e.number == number), None)
    if player is None:
        raise RuleErrors([RuleError("rename", M("choose the player to rename"))])
    new = " ".join(name.split())
    if not new:
        raise RuleErrors([RuleError("rename", M("give the player's new name"))])
    if len(new) > MAX_PLAYER:
        raise RuleErrors(
            [RuleError("rename", M("a player's name is too long: at most %(most)s characters", most=MAX_PLAYER))]
        )
    old = player.name
    if new == old:
        raise RuleErrors([RuleError("rename", M("that is already their name: type the new one"))])
    other = next((e for e in event.entrants if e is not player and e.name.casefold() == new.casefold()), None)
    if other is not None:
        raise RuleErrors(
            [
                RuleError(
                    "rename",
                    M(
                        "%(name)s is already player %(number)s's name: give each their own, e.g. with an "
                        "initial (%(name)s B.)",
                        name=other.name,
                        number=other.number,
                    ),
                )
            ]
        )
    roster.enrol(event, [("rename", new)], new_members)
    player.name, player.players = new, [new]
    core.audit(event, actor, RENAMED, old={"name": old}, new={"name": new}, note=M("player %(number)s", number=number))
    db.session.commit()
    core.announce(event, core.Signals(orders=True))  # the table phones name the players at each seat
    return player


_OPTIONS = {"deals": int, "per_change": int, "scoring": str, "nt_fifth": bool, "movement": str, "top": str}
_MUST_BE: dict[type, Callable[[str], Message]] = {  # an option of the wrong kind, in words
    int: lambda option: M("%(option)s must be a whole number", option=option),
    str: lambda option: M("%(option)s must be text", option=option),
    bool: lambda option: M("%(option)s must be true or false", option=option),
}


def check_rows(event: Event) -> None:
    """RuleErrors unless the rows are what the drive's play leaves (a restored backup, see
    events/backup.py): its set-up, the players numbered 1 to n, a table per four, N-S tricks of
    deals reached, seatings announced as the players moved, and the deal in play where they say."""
    o = event.options
    errors = [
        RuleError(f"options.{k}", M("%(option)s is not a whist drive option", option=k)) for k in o if k not in _OPTIONS
    ]
    errors += [
        RuleError(f"options.{k}", _MUST_BE[kind](k)) for k, kind in _OPTIONS.items() if type(o.get(k)) is not kind
    ]
    errors += core.unused(event, "hands", "loans", "playoffs", "days_closed", "matches")
    if core.games_of(event):
        errors.append(RuleError("games", M("a whist drive plays no games of its own")))
    if errors:
        raise RuleErrors(errors)
    setup = drive_of(event)
    fmt.check(setup)
    if [e.number for e in event.entrants] != list(range(1, len(event.entrants) + 1)) or any(
        e.players != [e.name] or len(e.name) > MAX_PLAYER for e in event.entrants
    ):
        errors.append(
            RuleError(
                "entrants",
                M(
                    "the players are numbered 1 to n, each entrant one player whose name "
                    "is at most %(most)s characters",
                    most=MAX_PLAYER,
                ),
            )
        )
    if len(event.tables) != setup.tables:
        errors.append(
            RuleError(
                "tables",
                M(
                    "%(players)s players sit at %(tables)s tables, not %(count)s",
                    players=len(setup.players),
                    tables=setup.tables,
                    count=len(event.tables),
                ),
            )
        )
    for r in event.results:
        if r.hand > setup.deals or r.revoke is not None:
            errors.append(
                RuleError(
                    "results",
                    M(
                        "deal %(deal)s at table %(table)s: a drive of 1 deal records N-S tricks only",
                        deal=r.hand,
                        table=r.table,
                    )
                    if setup.deals == 1
                    else M(
                        "deal %(deal)s at table %(table)s: a drive of %(deals)s deals records N-S tricks only",
                        deal=r.hand,
                        table=r.table,
                        deals=setup.deals,
                    ),
                )
            )
    for d in event.decisions:
        seating = d.data.get("tables") if d.kind == "seating" and set(d.data) == {"tables"} else None
        fours = seating if isinstance(seating, list) and len(seating) == setup.tables else []
        seated = sorted(p for four in fours if isinstance(four, list) and len(four) == 4 for p in four)
        if (
            not d.key.isdigit()
            or not 2 <= int(d.key) <= setup.deals
            or seated != list(range(1, len(setup.players) + 1))
        ):
            errors.append(
                RuleError(
                    "decisions",
                    M(
                        "decision %(kind)s %(key)s: a drive records the seating announced "
                        "for a deal, every player at one seat",
                        kind=quoted(d.kind),
                        key=quoted(d.key),
                    ),
                )
            )
    if errors:
        raise RuleErrors(errors)
    state = view(event).state
    if any(not state.over and deal > state.deal for deal, _ in _results(event)):
        errors.append(
            RuleError("results", M("results of a deal not reached yet (deal %(deal)s is in play)", deal=state.deal))
        )
    if any(not state.over and deal > state.deal for deal in _announced(event)):
        errors.append(
            RuleError(
                "decisions", M("a seating announced for a deal not reached (deal %(deal)s is in play)", deal=state.deal)
            )
        )
    expected = setup.deals + 1 if state.over else state.deal
    if event.current_hand != expected:
        errors.append(
            RuleError(
                "current_hand",
                M("deal %(deal)s cannot be in play: the results say the drive is over", deal=event.current_hand)
                if state.over
                else M(
                    "deal %(deal)s cannot be in play: the results say deal %(expected)s",
                    deal=event.current_hand,
                    expected=expected,
                ),
            )
        )
    if errors:
        raise RuleErrors(errors)


def export(event: Event) -> dict[str, object]:
    """The whole drive as JSON: the players, every table's N-S tricks per deal (as entered, with who
    entered them), the seatings announced, the corrections, and the scores and prizes they give."""
    drive_view = view(event)
    return {
        "scorepad_event": 1,
        "format": KEY,
        "name": event.name,
        "options": dict(event.options),
        "players": [{"number": e.number, "name": e.name} for e in event.entrants],
        "deal_in_play": None if drive_view.state.over else drive_view.deal,
        "results": [
            {
                "deal": r.hand,
                "table": r.table,
                "ns_tricks": r.tricks,
                "entered_by": r.entered_by,
                "entered_at": r.entered_at.isoformat(),
            }
            for r in sorted(event.results, key=lambda r: (r.hand, r.table))
        ],
        "seatings": [
            {"deal": n, "tables": [list(four) for four in drive_view.state.seating(n)]}
            for n in range(1, len(drive_view.state.seatings) + 1)
        ],
        "decisions": [
            {"kind": d.kind, "key": d.key, "data": d.data, "actor": d.actor, "at": d.at.isoformat()}
            for d in event.decisions
        ],
        "corrections": [
            {"deal": a.hand, "table": a.table, "old": a.old, "new": a.new, "actor": a.actor, "at": a.at.isoformat()}
            for a in event.audit
            if a.action == "correction"
        ],
        "leaderboard": [
            {"rank": p.rank, "tied": p.tied, "number": p.number, "name": p.name, "score": p.score}
            for p in drive_view.board
        ],
        "prizes": [{"prize": prize, "players": [p.number for p in places]} for prize, places in drive_view.prizes],
    }


def players(event: Event) -> results.EventResults:
    """Each player's own page: every deal whose tables are all in (as the scores count them), the
    table and seat, partner and opponents, the tricks and score, the running score and the place."""
    drive_view = view(event)
    setup, state = drive_view.drive, drive_view.state
    complete = setup.deals if state.over else state.deal - 1
    hands: dict[int, list[results.Played]] = {n: [] for n in range(1, len(setup.players) + 1)}
    totals = dict.fromkeys(hands, 0)
    for deal in range(1, complete + 1):
        for t, four in enumerate(state.seating(deal)):
            ns = drive_view.results[(deal, t + 1)]
            for seat, player in enumerate(four):
                took = ns if seat % 2 == 0 else fmt.TRICKS - ns
                points = took if setup.scoring == "all" else max(0, took - 6)
                totals[player] += points
                name = setup.players
                hands[player].append(
                    results.Played(
                        M("Deal %(deal)s · %(trump)s", deal=deal, trump=fmt.trump_words(setup, deal)),
                        M("Table %(table)s, %(seat)s", table=t + 1, seat=fmt.SEATS[seat]),
                        joined([name[four[(seat + 1) % 4] - 1], name[four[(seat + 3) % 4] - 1]]),
                        points,
                        M("1 trick taken") if took == 1 else M("%(count)s tricks taken", count=took),
                        totals[player],
                        name[four[(seat + 2) % 4] - 1],
                    )
                )
    places = {p.number: p for p in drive_view.board}
    prized = {p.number: prize for prize, winners in drive_view.prizes for p in winners}
    return results.EventResults(
        state.over,
        tuple(
            results.PlayerResults(
                results.code(event.public_id, f"player-{number}"),
                setup.players[number - 1],
                (),
                places[number].rank,
                places[number].tied,
                len(places),
                places[number].score,
                "",
                tuple(played),
                state.over,
                prized.get(number, ""),
            )
            for number, played in hands.items()
        ),
    )


class _Drive(OneView):
    """Whist drives behind the registry (see `events.registry`)."""

    key, title, pages, view_name = KEY, "Whist drive", "drive", "drive_view"

    def view(self, event: Event) -> DriveView:
        return view(event)

    def export(self, event: Event) -> dict[str, object]:
        return export(event)

    def check(self, event: Event) -> None:
        check_rows(event)
        super().check(event)

    def players(self, event: Event) -> results.EventResults:
        return players(event)

    def status(self, event: Event) -> str:
        drive_view = view(event)
        return (
            M("Finished")
            if drive_view.state.over
            else M("Deal %(deal)s of %(deals)s", deal=drive_view.deal, deals=drive_view.drive.deals)
        )


FORMAT = _Drive()
