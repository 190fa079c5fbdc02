"""Every change to a Bid Whist tournament: its creation, the director's actions (start, the next
round, the cut's playoff, published standings, a bracket swap or walkover, a sheet closed or
reopened) and a team's signature. Each checks what it is asked against the derived view
(`derived.view`) before anything changes, and commits once.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorepad.events import core
from scorepad.events.bid_whist import derived, matches, registration, tournament
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.models import Event, EventDecision, EventMatch, EventTable
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M, joined


def create(
    name: str,
    *,
    rounds: int = 3,
    bracket: str = "auto",
    made_scores: str = "books",
    hidden: bool = False,
    pin: str = "",
    time_zone: str | None = None,
) -> Event:
    """A Bid Whist tournament open for registration (its times shown in `time_zone`)."""
    errors: list[RuleError] = []
    if not 1 <= rounds <= 8:
        errors.append(RuleError("rounds", M("play 1 to 8 preliminary rounds (the document plays 3)")))
    if bracket not in dict(tournament.BRACKETS):
        errors.append(RuleError("bracket", M("choose one of the bracket sizes offered")))
    if made_scores not in ("books", "bid"):
        errors.append(RuleError("made_scores", M("a made bid scores its books or its bid")))
    try:
        event = registration.create(
            name,
            tournament.KEY,
            {
                "rounds": rounds,
                "bracket": bracket,
                "made_scores": made_scores,
                "hidden": hidden,
                "seed": secrets.token_hex(8),
            },
            pin,
            time_zone=time_zone,
        )
    except RuleErrors as e:
        raise RuleErrors(errors + list(e.errors)) from None
    if errors:
        db.session.delete(event)
        db.session.commit()
        raise RuleErrors(errors)
    return event


# --------------------------------------------------------------------------- the director's actions

CHANGED = core.Signals(orders=True)  # a director's action: every page of the event asks again


def _atomic(action: Any) -> Any:
    """Run a director's action as one transaction: a refusal half-way leaves nothing applied."""
    try:
        return action()
    except RuleErrors:
        db.session.rollback()
        raise


def start(event: Event, rounds_wanted: int | None = None) -> None:
    """Close registration, set the tables (one per two teams) and draw round 1.

    Every preliminary round is drawn here first (the draws depend only on the teams and the seed),
    so a number of rounds the teams cannot play is refused now, not half-way through the event."""
    if event.started_at is not None:
        raise RuleErrors([RuleError("start", M("the tournament has already started"))])
    waiting = registration.singles(event)
    if waiting:
        who = ", ".join(e.name for e in waiting)
        raise RuleErrors(
            [
                RuleError(
                    "start",
                    M("pair the single players first: %(players)s", players=who)
                    if len(waiting) > 1
                    else M("pair the single player first: %(players)s", players=who),
                )
            ]
        )
    count = len(tournament.teams(event))
    if count < 2:
        raise RuleErrors([RuleError("start", M("register at least two teams first"))])
    planned = tournament.rounds(event) if rounds_wanted is None else rounds_wanted
    if not 1 <= planned <= 8:
        raise RuleErrors([RuleError("rounds", M("play 1 to 8 preliminary rounds (the document plays 3)"))])
    fmt.check_rounds(tournament.team_numbers(event), str(event.options["seed"]), planned)

    def apply() -> None:
        if planned != tournament.rounds(event):
            event.options = {**event.options, "rounds": planned}
        registration.close(event)
        event.tables = [EventTable(number=n, team="") for n in range(1, (count + 1) // 2 + 1)]
        event.current_hand = 1
        db.session.flush()
        _open_round(event, 1)
        seed = event.options["seed"]
        event.audit.append(
            core.audit_entry(
                "director",
                "started",
                note=M(
                    "registration closed with %(count)s teams, %(rounds)s rounds; round 1 drawn from seed %(seed)s (the "
                    "control room shows the order drawn)",
                    count=count,
                    rounds=planned,
                    seed=seed,
                )
                if planned > 1
                else M(
                    "registration closed with %(count)s teams, 1 round; round 1 drawn from seed %(seed)s (the control room "
                    "shows the order drawn)",
                    count=count,
                    seed=seed,
                ),
            )
        )
        db.session.commit()

    _atomic(apply)
    core.announce(event, CHANGED)


def _open_round(event: Event, number: int) -> None:
    draw = tournament.draws(event, number)[-1]
    for seat in draw.seats:
        matches.open_match(event, "round", number, seat.table, seat.home, seat.away, tournament.game_options(event))


def advance(event: Event) -> None:
    """Draw the next preliminary round, or, after the last, set the bracket and open its first matches."""
    tournament_view = derived.view(event)
    if tournament_view.stage != "round":
        raise RuleErrors([RuleError("advance", M("the preliminary rounds are over"))])
    if not all(m.final for m in tournament_view.current):
        raise _not_all_final(tournament_view.waiting)
    if (
        tournament_view.round == tournament_view.rounds
        and tournament_view.cut is not None
        and tournament_view.cut.playoff
    ):
        raise RuleErrors([RuleError("advance", M("record the playoff for the last place in the bracket first"))])
    nxt = event.current_hand + 1
    if nxt <= tournament.rounds(event):
        try:
            tournament.draws(event, nxt)  # refused before anything changes
        except RuleErrors as e:
            raise RuleErrors([RuleError("advance", e.errors[0].message)]) from None

    def apply() -> None:
        done = event.current_hand
        event.current_hand = nxt
        event.revision += 1
        waiting = _not_final_now(event, done)  # a sheet reopened from another device since the check
        if waiting:
            raise _not_all_final(waiting)
        if nxt <= tournament.rounds(event):
            _open_round(event, nxt)
            words = M(
                "round %(number)s drawn from seed %(seed)s (the control room shows the order drawn)",
                number=nxt,
                seed=event.options["seed"],
            )
        else:
            db.session.flush()
            _open_ready(event)
            words = M("the bracket is set")
        event.audit.append(core.audit_entry("director", "advanced", note=words))
        db.session.commit()

    _atomic(apply)
    core.announce(event, CHANGED)


def _not_all_final(tables: list[int]) -> RuleErrors:
    listed = ", ".join(str(t) for t in tables)
    return RuleErrors(
        [
            RuleError(
                "advance",
                M(
                    "wait for every sheet of this round to be final (signed by both "
                    "teams, or made final by you): tables %(tables)s",
                    tables=listed,
                )
                if len(tables) > 1
                else M(
                    "wait for every sheet of this round to be final (signed by both teams, or "
                    "made final by you): table %(tables)s",
                    tables=listed,
                ),
            )
        ]
    )


def _not_final_now(event: Event, number: int) -> list[int]:
    """The tables of round `number` whose sheets are not final as stored now (the event held)."""
    core.hold(event)
    stored = db.session.scalars(
        select(EventMatch)
        .where(EventMatch.event_id == event.id, EventMatch.stage == "round", EventMatch.number == number)
        .options(selectinload(EventMatch.game))
        .execution_options(populate_existing=True)
    )
    return sorted(m.table for m in stored if not matches.is_final(m))


def _open_ready(event: Event) -> None:
    """Open every bracket match whose two teams are known and that has no game yet, from the
    sheets as stored now, the event held (`core.hold`: a reopen waits, and checks again)."""
    core.hold(event)
    db.session.expire(event, ["matches"])
    state = derived.view(event).bracket_state
    if state is None:
        return
    opened = {m.number for m in event.matches if m.stage == "bracket"}
    for m in state.matches:
        if m.ready and m.number not in opened:
            home, away = m.teams
            assert home is not None and away is not None
            matches.open_match(event, "bracket", m.number, m.table, home, away, tournament.game_options(event))


def record_cut(event: Event, winners: list[int]) -> None:
    """The one-game playoff at the cut: its winner(s) go into the bracket."""
    tournament_view = derived.view(event)
    if tournament_view.cut is None or tournament_view.cut_playoff is None:
        raise RuleErrors([RuleError("cut", M("no playoff is needed now"))])
    fmt.check_playoff(tournament_view.cut, winners)
    event.decisions.append(EventDecision(kind="cut", key="1", data={"winners": sorted(winners)}))
    event.audit.append(
        core.audit_entry(
            "director",
            "playoff",
            note=M(
                "won the playoff for the bracket: %(teams)s", teams=joined([tournament_view.names[n] for n in winners])
            ),
        )
    )
    db.session.commit()
    core.announce(event, CHANGED)


def publish_standings(event: Event, round_no: int) -> None:
    """Hidden standings: show the players the standings as they are after round `round_no`."""
    tournament_view = derived.view(event)
    if not tournament_view.hidden:
        raise RuleErrors([RuleError("publish", M("the standings are not hidden: the players see them already"))])
    if tournament_view.stage != "round":
        raise RuleErrors([RuleError("publish", M("the preliminary rounds are over: the standings are public now"))])
    if round_no <= tournament_view.published:
        raise RuleErrors(
            [RuleError("publish", M("the standings after round %(number)s are already published", number=round_no))]
        )
    if round_no != tournament_view.round:
        raise RuleErrors(
            [
                RuleError(
                    "publish",
                    M(
                        "round %(number)s is not the round in play (round %(current)s is)",
                        number=round_no,
                        current=tournament_view.round,
                    ),
                )
            ]
        )
    if not all(m.final for m in tournament_view.current):
        tables = ", ".join(str(t) for t in tournament_view.waiting)
        raise RuleErrors(
            [
                RuleError(
                    "publish",
                    M(
                        "wait for every sheet of round %(number)s to be final: tables %(tables)s",
                        number=round_no,
                        tables=tables,
                    )
                    if len(tournament_view.waiting) > 1
                    else M(
                        "wait for every sheet of round %(number)s to be final: table %(tables)s",
                        number=round_no,
                        tables=tables,
                    ),
                )
            ]
        )
    event.decisions.append(EventDecision(kind="publish", key=str(round_no), data={"round": round_no}))
    event.audit.append(
        core.audit_entry(
            "director",
            "published",
            note=M("the standings after round %(number)s are shown to the players", number=round_no),
        )
    )
    db.session.commit()
    core.announce(event, CHANGED)


def walkover(event: Event, match_no: int, winner: int, reason: str) -> None:
    """A no-show with no team to swap in: the team present goes through, no hands played."""
    tournament_view = derived.view(event)
    if tournament_view.bracket_state is None:
        raise RuleErrors([RuleError("walkover", M("the bracket is not set yet"))])
    fmt.check_walkover(tournament_view.bracket_state, match_no, winner)
    if tournament_view.bracket_match_started(match_no):
        raise RuleErrors(
            [
                RuleError(
                    "walkover", M("match %(number)s has started: finish it, or make its sheet final", number=match_no)
                )
            ]
        )
    played = next((m for m in event.matches if m.stage == "bracket" and m.number == match_no), None)
    if played is None:
        raise RuleErrors([RuleError("walkover", M("match %(number)s is not at its table yet", number=match_no))])
    reason = " ".join(reason.split())[:200] or tournament.NO_SHOW

    def apply() -> None:
        event.decisions.append(
            EventDecision(
                kind="walkover", key=str(match_no), data={"match": match_no, "winner": winner, "reason": reason}
            )
        )
        matches.walkover(played)
        event.audit.append(
            core.audit_entry(
                "director",
                "walkover",
                table=played.table,
                note=M(
                    "%(match)s: %(team)s go through by a walkover (%(reason)s)",
                    match=tournament_view.match_label(match_no),
                    team=tournament_view.names[winner],
                    reason=tournament.reason({"reason": reason}),
                ),
            )
        )
        _open_ready(event)
        db.session.commit()

    _atomic(apply)
    core.announce(event, CHANGED)


def swap(event: Event, match_no: int, out: int, into: int, reason: str) -> None:
    """A team takes a no-show's place in a bracket match not yet played; kept in the bracket's history."""
    tournament_view = derived.view(event)
    if tournament_view.bracket_state is None:
        raise RuleErrors([RuleError("swap", M("the bracket is not set yet"))])
    if into not in tournament_view.names or into == matches.GHOST:
        raise RuleErrors([RuleError("swap", M("there is no team number %(number)s", number=into))])
    reason = " ".join(reason.split())[:200] or tournament.NO_SHOW
    change = fmt.Swap(match_no, out, into, reason)
    fmt.check_swap(tournament_view.bracket_state, change)
    if tournament_view.bracket_match_started(match_no):
        raise RuleErrors(
            [RuleError("swap", M("match %(number)s has started: its teams cannot change", number=match_no))]
        )
    count = sum(1 for d in event.decisions if d.kind == "swap")
    event.decisions.append(
        EventDecision(
            kind="swap", key=str(count + 1), data={"match": match_no, "out": out, "in": into, "reason": reason}
        )
    )
    played = next((m for m in event.matches if m.stage == "bracket" and m.number == match_no), None)
    if played is not None:  # its game was opened with the old team: swap the side's name and players
        entrant = next(e for e in event.entrants if e.number == into)
        side = 0 if played.home == out else 1
        if side == 0:
            played.home = into
        else:
            played.away = into
        if played.game is not None:
            sides = list(played.game.teams)
            sides[side] = matches.team_record(entrant, into)
            played.game.teams = sides
    event.audit.append(
        core.audit_entry(
            "director",
            "swap",
            note=M(
                "%(match)s: %(team)s in for %(out)s (%(reason)s)",
                match=tournament_view.match_label(match_no),
                team=tournament_view.names[into],
                out=tournament_view.names.get(out, out),
                reason=tournament.reason({"reason": reason}),
            ),
        )
    )
    db.session.commit()
    core.announce(event, CHANGED)


# --------------------------------------------------------------------------- signing and sheets


def sign(event: Event, match: EventMatch, side: int, actor: str, by: str = "", code: str | None = None) -> None:
    """A team signs (see `matches.sign`); a bracket match that becomes final may open the next level's match."""
    matches.sign(match, side, actor, by, code)
    if match.stage == "bracket":
        _open_ready(event)
        db.session.commit()
    core.announce(event, _signing(match))


def dispute(event: Event, match: EventMatch, side: int, reason: str, actor: str) -> None:
    """A team does not sign (see `matches.dispute`): the director sees why."""
    matches.dispute(match, side, reason, actor)
    core.announce(event, _signing(match))


def _signing(match: EventMatch) -> core.Signals:
    """A signature or a dispute changes its own table's pages (its bar, its two teams' pages), the
    control room and the boards; in the bracket it may open the next level's match: every page."""
    return core.Signals(orders=match.stage == "bracket", table=match.table, teams=(match.home, match.away))


def close_match(event: Event, match: EventMatch) -> None:
    matches.close(match)
    if match.stage == "bracket":
        _open_ready(event)
        db.session.commit()
    core.announce(event, CHANGED)


def _too_late_to_reopen() -> RuleErrors:
    return RuleErrors(
        [
            RuleError(
                "reopen",
                M(
                    "this sheet can no longer be reopened: the next round is drawn "
                    "from it. Correct the standings with the next sheets instead."
                ),
            )
        ]
    )


def reopen_match(event: Event, match: EventMatch) -> None:
    """Reopen a final sheet; refused once a later stage depends on it (the next round is drawn)."""
    if not derived.view(event).can_reopen(match):
        raise _too_late_to_reopen()
    if match.closed_by == matches.WALKOVER:  # the walkover is undone with it: the match is played after all
        for d in [d for d in event.decisions if d.kind == "walkover" and d.key == str(match.number)]:
            event.decisions.remove(d)
    matches.reopen(match)
    core.hold(event)
    db.session.expire(event, ["matches"])  # as stored now: the next round, or a match this one feeds,
    if not derived.view(event).can_reopen(match):  # may have been drawn or opened meanwhile
        db.session.rollback()
        raise _too_late_to_reopen()
    db.session.commit()
    core.announce(event, CHANGED)
