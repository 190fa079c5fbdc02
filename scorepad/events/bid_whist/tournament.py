"""A Bid Whist tournament's rows as the other modules of the package read them: its key and
settings, its teams and their names, the stage it is at, the draws its seed gives, and the
director's decisions.

The rows hold only what people entered or decided: the registrations, each match's hands (in
its game), signatures, the director's decisions (a cut playoff's winners, a bracket swap, a
walkover, standings published) and the event's draw seed. Pairings, tables, moves, standings,
the bracket and the medals are derived from them by `scorepad.formats.bid_whist_event` on every
request (`derived`). `event.current_hand` counts the stages: preliminary round 1..R, then R + 1 for the bracket.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorepad.events.bid_whist import matches
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.models import Event, EventEntrant, EventMatch, EventTable
from scorepad.rules.errors import M

KEY = "bid_whist"
NO_SHOW = "no-show"  # the reason of a swap or walkover when the director typed none
BRACKETS = (
    ("auto", M("The document's: top 16 (32 from 64 teams, 64 from 128), fewer when fewer teams")),
    ("8", M("Top %(count)s", count=8)),
    ("4", M("Top %(count)s", count=4)),
)


# --------------------------------------------------------------------------- settings and teams


def game_options(event: Event) -> dict[str, object]:
    """The options of every match's game: one 4-hand round, scored as the event says."""
    return {"play_to": "rounds", "rounds": 1, "made_scores": event.options.get("made_scores", "books")}


def rounds(event: Event) -> int:
    return int(event.options.get("rounds", 3))


def teams(event: Event) -> list[EventEntrant]:
    return [e for e in event.entrants if len(e.players) == 2]


def team_numbers(event: Event) -> list[int]:
    return [e.number for e in teams(event)]


def names(event: Event) -> dict[int, str]:
    """ "(3) Aces" by team number, and the ghost team's name."""
    found = {e.number: f"({e.number}) {e.name}" for e in event.entrants}
    found[matches.GHOST] = matches.GHOST_NAME
    return found


def table_and_names(event: Event, match: EventMatch) -> tuple[EventTable | None, dict[int, str]]:
    """The match's table and its two teams' names, by targeted queries (not the whole event)."""
    table = db.session.scalars(
        select(EventTable).where(EventTable.event_id == event.id, EventTable.number == match.table)
    ).first()
    rows = db.session.scalars(
        select(EventEntrant).where(EventEntrant.event_id == event.id, EventEntrant.number.in_((match.home, match.away)))
    )
    found = {e.number: f"({e.number}) {e.name}" for e in rows}
    found[matches.GHOST] = matches.GHOST_NAME
    return table, found


def stage_of(event: Event) -> str:
    if event.started_at is None:
        return "registration"
    if event.current_hand <= rounds(event):
        return "round"
    return "bracket"


def draws(event: Event, upto: int) -> tuple[fmt.Draw, ...]:
    """The draws of rounds 1 to `upto`, made again from the teams and the seed (RuleErrors when the
    teams cannot play that many rounds)."""
    return fmt.draws(team_numbers(event), str(event.options["seed"]), upto)


# --------------------------------------------------------------------------- the director's decisions


def reason(data: dict[str, Any]) -> str:
    """A decision's reason as the director typed it; the one given when none was typed is ours, said
    in the reader's language (it equals the stored English)."""
    typed = str(data.get("reason", ""))
    return M(NO_SHOW) if typed == NO_SHOW else typed


def swaps(event: Event) -> list[fmt.Swap]:
    return [
        fmt.Swap(int(d.data["match"]), int(d.data["out"]), int(d.data["in"]), reason(d.data))
        for d in event.decisions
        if d.kind == "swap"
    ]


def cut_winners(event: Event) -> list[int]:
    found = next((d for d in event.decisions if d.kind == "cut"), None)
    return [int(n) for n in found.data.get("winners", [])] if found else []


def walkovers(event: Event) -> dict[int, tuple[int, str]]:
    """Bracket match number -> (the team sent through, the reason)."""
    return {
        int(d.data["match"]): (int(d.data["winner"]), reason(d.data)) for d in event.decisions if d.kind == "walkover"
    }


def walkover_of(event: Event, match: EventMatch) -> tuple[int, str] | None:
    """The walkover that decided `match` (the team sent through, the reason), if any."""
    if match.stage != "bracket" or match.closed_by != matches.WALKOVER:
        return None
    return walkovers(event).get(match.number)


def published(event: Event) -> int:
    """The last preliminary round whose standings the director published (hidden standings)."""
    return max((int(d.key) for d in event.decisions if d.kind == "publish"), default=0)
