"""An event's results for its players (issue 30, item 3): an index to find one's name in, and each
player's or team's own page, derived by the event's format (`EventFormat.players`) from the rows.

The index's short link, `/r/<event id>-<code>`, is derived from the event's row like the pages'
(`games.results.code` of its public id): stable, printed and shown as a QR code on the projector's
final screen and on the printed results, and unguessable without the public id.
"""

from __future__ import annotations

import hmac
import re

from scorepad.events.registry import get_format
from scorepad.extensions import db
from scorepad.games.results import EventResults, PlayerResults, by_name, code, find
from scorepad.models import Event

__all__ = ["EventResults", "PlayerResults", "by_link", "by_name", "link_code", "player", "players"]

_LINK = re.compile(r"([1-9][0-9]{0,9})-([a-z0-9]{10})")


def link_code(event: Event) -> str:
    """The index's short code: the event's id and a digest of its public id ("12-k3m9xq7pab")."""
    return f"{event.id}-{code(event.public_id, 'index')}"


def by_link(raw: str) -> Event | None:
    """The event whose index's short code is `raw` (any case), else None; nothing is looked up for
    what cannot be one."""
    found = _LINK.fullmatch(raw.strip().lower()) if len(raw) <= 40 else None
    if found is None:
        return None
    event = db.session.get(Event, int(found.group(1)))
    if event is None or not hmac.compare_digest(code(event.public_id, "index"), found.group(2)):
        return None
    return event


def players(event: Event) -> EventResults:
    """Every player's or team's page, as the event's format derives them."""
    return get_format(event.format).players(event)


def player(event: Event, wanted: str) -> PlayerResults | None:
    """The page whose code is `wanted`, else None."""
    return find(players(event).players, wanted)
