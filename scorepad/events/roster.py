"""A club's roster at its events (issue 30, item 2): the group is the club, its people the members.

The director links an event to a group with the group's link or code (whoever holds either keeps
the group, so it is the proof of access). A linked event's registration offers the members' names,
and a name typed there that the group does not know becomes a member in the same commit as the
registration; a name close to a member's ("Zoe" for "Zoé", "Jon" for "John") is asked about first
("Did you mean Zoé?"), so one person does not become two by a typo.

An event's players are matched to members by name (any case, merged spellings included), as the
games kept in a group are: nothing is copied into the event, so a restored backup links by the names
it holds (`link`), and a member's page finds their events from the names (`club_history`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Sequence

from sqlalchemy import select

from scorepad.events import core
from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import NAME_MAX, ClubEvent, Event, Group, GroupPlayer
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M

FIELD = "club"
LINK_MAX = 300  # a pasted group link: its token is 32 characters, the address before it short


class NearMembers(RuleErrors):
    """Names close to a member's: each field's message asks "Did you mean …?", and `near` gives the
    member's name by field, for the form to offer it."""

    def __init__(self, errors: Sequence[RuleError], near: dict[str, str]) -> None:
        super().__init__(list(errors))
        self.near = near


# --------------------------------------------------------------------------- the link


def club_of(event: Event) -> Group | None:
    """The group the event is linked to, if any."""
    return db.session.scalars(select(Group).join(ClubEvent).where(ClubEvent.event_id == event.id)).first()


def group_of_link(raw: str) -> Group:
    """The group whose link (`.../group/<token>`), token or code is given; a RuleError beside the
    field when nothing, or nothing known, is."""
    raw = raw.strip()
    if not raw:
        raise RuleErrors([RuleError(FIELD, M("Paste the club's group link, or type its code."))])
    if len(raw) > LINK_MAX:
        raise RuleErrors([RuleError(FIELD, M("That is too long for a group's link."))])
    key = raw.split("/group/", 1)[1] if "/group/" in raw else raw
    key = key.strip("/").split("/")[0].split("?")[0].split("#")[0]
    group = groups.by_token(key) or groups.by_short_code(key)
    if group is None:
        raise RuleErrors(
            [
                RuleError(
                    FIELD,
                    M(
                        "No group has this link or code. Open the club's group page and copy its link or code from there."
                    ),
                )
            ]
        )
    return group


def link(event: Event, raw: str, names: Sequence[str] = ()) -> tuple[Group, int]:
    """Link the event to the group of `raw` (see `group_of_link`), in place of any other; `names`
    the group does not know yet become members (a restored backup's players: `club_history.
    players_named`). Committed and announced: the registration offers the members. The group, and
    how many names joined it."""
    group = group_of_link(raw)
    found = db.session.get(ClubEvent, event.id)
    if found is None:
        db.session.add(ClubEvent(event_id=event.id, group_id=group.id))
    else:
        found.group_id = group.id
    added = _add_new(group, names)
    db.session.commit()
    core.announce(event)
    return group, added


def unlink(event: Event) -> Group | None:
    """Take the event off its club's roster (the members stay in the group); the group it was in."""
    found = db.session.get(ClubEvent, event.id)
    if found is None:
        return None
    group = db.session.get(Group, found.group_id)
    db.session.delete(found)
    db.session.commit()
    core.announce(event)
    return group


# --------------------------------------------------------------------------- members


def members(group: Group) -> list[str]:
    """The members' names, as the registration offers them."""
    return [p.name for p in groups.players(group)]


def folded(name: str) -> str:
    """A name with its case, accents and spacing left out: what two spellings of one person share."""
    decomposed = unicodedata.normalize("NFKD", groups.key_of(name))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _distance(a: str, b: str, most: int) -> int:
    """The edits (a letter added, dropped, changed, or two swapped) from `a` to `b`, up to most + 1."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        now = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                now[j] = min(now[j], before[j - 2] + 1)
        before, row = row, now
    return row[-1]


def near(group: Group, name: str) -> str | None:
    """The member a new name is probably a misspelling of (same letters but for case and accents,
    or one edit away; two in a name of 8 letters or more), else None. Checked against the
    members' names and their merged spellings; the member's name is given."""
    wanted = folded(name)
    most = 2 if len(wanted) >= 8 else 1 if len(wanted) >= 3 else 0
    best: tuple[int, str] | None = None
    rows = db.session.scalars(select(GroupPlayer).where(GroupPlayer.group_id == group.id)).all()
    by_id = {row.id: row for row in rows}
    for row in rows:
        person = by_id.get(row.merged_into_id, row) if row.merged_into_id else row
        distance = _distance(wanted, folded(row.name), most)
        if distance <= most and (best is None or distance < best[0]):
            best = (distance, person.name)
    return best[1] if best else None


def enrol(event: Event, named: Sequence[tuple[str, str]], confirmed: Collection[str] = ()) -> None:
    """Make the new names of `named` ((field, name) pairs, as cleaned by the registration) members of
    the event's club, in the session of the registration that commits them; nothing without a club.
    A new name close to a member's is refused with NearMembers unless its field is in `confirmed`
    (the director answered "No, a new member")."""
    group = club_of(event)
    if group is None:
        return
    errors: list[RuleError] = []
    suggested: dict[str, str] = {}
    fresh: list[str] = []
    for field, name in named:
        if not name.strip() or groups.find(group, name) is not None:
            continue
        close = None if field in confirmed else near(group, name)
        if close is not None:
            suggested[field] = close
            errors.append(
                RuleError(
                    field,
                    M(
                        "“%(name)s” is not a member of %(club)s. Did you mean “%(member)s”?",
                        name=name,
                        club=group.name,
                        member=close,
                    ),
                )
            )
        else:
            fresh.append(name)
    if errors:
        raise NearMembers(errors, suggested)
    _add_new(group, fresh)


def _add_new(group: Group, names: Sequence[str]) -> int:
    added = 0
    for name in names:
        if len(name) <= NAME_MAX and groups.find(group, name) is None:
            db.session.add(GroupPlayer(group_id=group.id, name=name, key=groups.key_of(name)))
            db.session.flush()
            added += 1
    return added
