"""An event's life as a whole (issue 32, item 12): archived off the home page's lists and back, or
deleted for good (a test event). Every format's events alike; each write commits, then announces, so
the event's open pages ask again (and, after a delete, find the event gone).
"""

from __future__ import annotations

import hashlib

from sqlalchemy import delete as delete_rows
from sqlalchemy import select

from scorepad.events import core, results
from scorepad.events.registry import all_formats
from scorepad.extensions import db
from scorepad.models import (
    CARD_CODE_LENGTH,
    DIRECTOR_CODE_LENGTH,
    DeletedLink,
    Event,
    EventEntrant,
    EventTable,
    Game,
    typed_code,
    utcnow,
)
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M

ARCHIVED = "archived"
UNARCHIVED = "unarchived"


def archive(event: Event, archived: bool, actor: str = "director") -> None:
    """Archive the event (it leaves the home page's lists; every page and link keeps working) or
    take it out of the archive; audited. Asking for what already is, is refused (a resent form)."""
    if (event.archived_at is not None) == archived:
        raise RuleErrors(
            [
                RuleError(
                    "archive",
                    M("the event is already archived") if archived else M("the event is not archived"),
                )
            ]
        )
    event.archived_at = utcnow() if archived else None
    core.audit(
        event,
        actor,
        ARCHIVED if archived else UNARCHIVED,
        note=M("off the home page's lists, every page kept") if archived else M("listed on the home page again"),
    )
    db.session.commit()
    core.announce(event)


def confirms(event: Event, typed: str) -> bool:
    """Whether `typed` is the event's name, as a director types it again (any case, spaces as typed
    squeezed): the confirmation of a delete."""
    return " ".join(typed.split()).casefold() == " ".join(event.name.split()).casefold()


def delete(event: Event, typed: str) -> None:
    """Delete the event and everything in it for good: its tables, results, entrants, audit trail and
    the games played at it (and so those games' places in any group). `typed` must be the event's
    name (`confirms`), else RuleErrors on `confirm` and nothing is deleted. Its links answer 410,
    "deleted by its director", from then on (`was_deleted`), its matches' game links too; the pages
    open on it hear the change and find it gone."""
    if not confirms(event, typed):
        raise RuleErrors(
            [
                RuleError(
                    "confirm",
                    M(
                        "type the event's name, %(name)s, to delete it (nothing was deleted)",
                        name=f"\u201c{event.name}\u201d",
                    ),
                )
            ]
        )
    event_id = event.id
    played = db.session.execute(
        select(Game.id, Game.scorer_token, Game.public_id, Game.short_code).where(Game.event_id == event_id)
    ).all()
    game_ids = [game.id for game in played]
    if game_ids:  # the database's ON DELETE CASCADE takes their hands and group links with them
        db.session.execute(delete_rows(Game).where(Game.id.in_(game_ids)))
    # the games' links too: a match's score page, its watchers' page, its code to type
    links = set(_links(event)) | {link for game in played for link in game[1:] if link}
    db.session.add_all(DeletedLink(digest=_digest(link)) for link in sorted(links))
    db.session.delete(event)
    db.session.commit()
    for fmt in all_formats():  # an id SQLite gives again must not find what was kept for this one
        fmt.forget(event_id, game_ids)
    core.announce(event)


def _digest(link: str) -> str:
    return hashlib.sha256(f"scorepad deleted link\x00{link}".encode()).hexdigest()


def _links(event: Event) -> list[str]:
    """Every link of the event, as its lookups compare them: the director's, the boards' (and
    their stream's), each table's and team's card, full and short, and the players' results."""
    rows: list[EventTable | EventEntrant] = [*event.tables, *event.entrants]
    return [
        event.director_token,
        event.public_id,
        *(code for code in (event.director_code, *(r.short_code for r in rows)) if code),
        *(r.token for r in rows),
        results.link_code(event),
    ]


def was_deleted(link: str) -> bool:
    """Whether `link` (a token or a short code, as typed) was a link of an event since deleted."""
    if len(link) > 100:  # no link is this long: nothing is looked up
        return False
    forms = {link, link.strip().lower()} | {typed_code(link, n) for n in (CARD_CODE_LENGTH, DIRECTOR_CODE_LENGTH)}
    digests = [_digest(form) for form in forms if form]
    return db.session.scalars(select(DeletedLink.digest).where(DeletedLink.digest.in_(digests))).first() is not None
