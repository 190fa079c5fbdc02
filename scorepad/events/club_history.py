"""A club member's events (issue 30, item 2): the club's events they played in, found by name as
`roster` says, with their place and figures from each event's own results pages (`results.players`,
the format's derivation: flags, points, rounds won, a medal), so nothing of it is stored."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from scorepad.events import core, results
from scorepad.events.registry import get_format
from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import ClubEvent, Event, Group, GroupPlayer

MADE_UP = re.compile(r"(table|team) \d+")  # what an event calls a team or a table with no name typed


def players_named(event: Event) -> list[str]:
    """The players' names the event holds (a team's members, else its name: a whist drive's player),
    in order, once each; not the names an event makes up ("Table 3")."""
    names: dict[str, str] = {}
    for page in results.players(event).players:
        for name in page.members or (page.name,):
            if name.strip() and not MADE_UP.fullmatch(groups.key_of(name)):
                names.setdefault(groups.key_of(name), " ".join(name.split()))
    return list(names.values())


@dataclass(frozen=True)
class MemberEvent:
    """One event a member played, as their page lists it."""

    event: Event
    when: datetime
    page: results.PlayerResults  # their team's (or their own) results page
    index_code: str  # the event's results index (`/r/<code>`)

    @property
    def format_title(self) -> str:
        """The event's format's name, in English (`views.common.format_name` says it)."""
        return get_format(self.event.format).title


def events_of(group: Group) -> list[Event]:
    """The group's events, newest first."""
    return list(
        db.session.scalars(
            select(Event)
            .join(ClubEvent, ClubEvent.event_id == Event.id)
            .where(ClubEvent.group_id == group.id)
            .order_by(Event.created_at.desc(), Event.id.desc())
        )
    )


def member_events(group: Group, person: GroupPlayer) -> list[MemberEvent]:
    """The club's events the member played in (a team's member, or the team named after them), newest
    first, each with their place and figures from the event's own results pages."""
    keys = {person.key} | {
        p.key for p in db.session.scalars(select(GroupPlayer).where(GroupPlayer.merged_into_id == person.id))
    }
    found: list[MemberEvent] = []
    for event in events_of(group):
        for page in results.players(event).players:
            if keys & {groups.key_of(n) for n in (page.members or (page.name,))}:
                when = core.aware(event.started_at or event.created_at)
                found.append(MemberEvent(event, when, page, results.link_code(event)))
                break
    return found
