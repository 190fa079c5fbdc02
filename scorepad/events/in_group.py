"""An event's games kept in a group, so a club's or a family's history counts what its players
played at events too (issue 15: "events feed the same history for the players named in them").

The games an event played are those its tables play (a club night's `EventTable.game_id`: a game
the director set aside is not one) and its matches' (a Bid Whist tournament's `EventMatch.game_id`),
except a bye's (the ghost team's stand-ins are nobody, and "points are of no value") and a walkover
(decided without play). Formats whose results are the event's own (Military Whist, a whist drive:
results by table and hand, no sheet per player) have none. The event is found by its director's
link (`.../d/<token>`) or the director's short code: the board's link is public (every phone and
projector has it), and a game is kept in one group only, so whoever pasted a board link first would
have taken the evening's games from the club's own group. The director decides where they go.
"""

from __future__ import annotations

from sqlalchemy import or_, select

from scorepad.events import core
from scorepad.events.bid_whist.matches import GHOST, WALKOVER
from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import Event, EventMatch, EventTable, Game, Group
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M

LINK_MAX = 300  # a pasted board link: its id is 32 characters, the address before it short
FIELD = "event"


def event_of(raw: str) -> Event | None:
    """The event whose director's link (`.../d/<token>`, the token alone, or the director's short code
    as typed) is given; a RuleError beside the field when nothing, too much, or a board's link is."""
    raw = raw.strip()
    if not raw:
        raise RuleErrors([RuleError(FIELD, M("Paste the director's link of the event, or type the director's code."))])
    if len(raw) > LINK_MAX:
        raise RuleErrors(
            [RuleError(FIELD, M("That is too long for a director's link: at most %(most)s characters.", most=LINK_MAX))]
        )
    if "/b/" in raw:
        raise RuleErrors(
            [
                RuleError(
                    FIELD,
                    M(
                        "That is the event's board link, which every player has: only the director's link or code can add an "
                        "event's games to a group. Ask the director: their page gives it under \"Open this control room on "
                        'another device".'
                    ),
                )
            ]
        )
    if "/d/" in raw:
        raw = raw.split("/d/", 1)[1]
    key = raw.strip("/").split("/")[0].split("?")[0].split("#")[0]
    if not key or len(key) > 48:  # Event.director_token's column
        return None
    return core.by_director_token(key) or core.by_director_code(key)


def played_games(event: Event) -> list[Game]:
    """The games the event played with players' names (see the module's notes), in the order made."""
    at_tables = select(EventTable.game_id).where(EventTable.event_id == event.id, EventTable.game_id.isnot(None))
    in_matches = select(EventMatch.game_id).where(
        EventMatch.event_id == event.id,
        EventMatch.game_id.isnot(None),
        EventMatch.home != GHOST,
        EventMatch.away != GHOST,
        or_(EventMatch.closed_by.is_(None), EventMatch.closed_by != WALKOVER),
    )
    return list(
        db.session.scalars(
            select(Game).where(Game.event_id == event.id, Game.id.in_(at_tables.union(in_matches))).order_by(Game.id)
        )
    )


def keep_in_group(group: Group, event: Event) -> groups.KeptMany:
    """Keep the event's played games in `group` (idempotent: see `groups.keep_all`); refused, beside
    the field, for a demonstration event or one with no such games."""
    if event.is_demo:
        raise RuleErrors([RuleError(FIELD, M("This is a demonstration event: its games name no real players."))])
    played = played_games(event)
    if not played:
        raise RuleErrors(
            [
                RuleError(
                    FIELD,
                    M(
                        "“%(event)s” has no games with players' names to keep. A Military Whist event or a whist drive keeps "
                        "its results by table and hand, not a score sheet per player; a club night or a Bid Whist tournament "
                        "has them once its tables start playing.",
                        event=event.name,
                    ),
                )
            ]
        )
    return groups.keep_all(group, played)
