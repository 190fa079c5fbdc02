"""The events' audit trail in the reader's words (issue 15).

An entry stores keys written in the code ("director", "table 3"; "correction", "day closed"), its
old and new values as data, and its note in English with the message it was made from (`said`).
The control rooms show each in the reader's language: a known key through its label (the stored
key unchanged), a value in words, the note through its message; a note with its English alone (no
`said`) or a key this list does not know shows as stored.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext, lazy_gettext, ngettext

from scorepad.events.bid_whist.matches import by_words
from scorepad.i18n import say
from scorepad.rules.errors import M, Message, from_said

ACTORS = {
    "director": lazy_gettext("director"),
    "command line": lazy_gettext("command line"),
    "automatic": lazy_gettext("automatic"),
    "demo": lazy_gettext("demo"),
    "a browser": lazy_gettext("a browser"),
}
_NUMBERED = re.compile(r"(table|team) (\d+)")

ACTIONS = {  # every action the services write (events/*.py); English reads the key itself
    "recovery code": lazy_gettext("recovery code"),
    "pin": lazy_gettext("pin"),
    "wrong PIN": lazy_gettext("wrong PIN"),
    "new QR code": lazy_gettext("new QR code"),
    "restored": lazy_gettext("restored"),
    "set-up": lazy_gettext("set-up"),
    "correction": lazy_gettext("correction"),
    "loan": lazy_gettext("loan"),
    "return": lazy_gettext("return"),
    "moves": lazy_gettext("moves"),
    "day closed": lazy_gettext("day closed"),
    "day ended early": lazy_gettext("day ended early"),
    "advance": lazy_gettext("advance"),
    "playoff": lazy_gettext("playoff"),
    "registered": lazy_gettext("registered"),
    "paired": lazy_gettext("paired"),
    "withdrawn": lazy_gettext("withdrawn"),
    "started": lazy_gettext("started"),
    "advanced": lazy_gettext("advanced"),
    "published": lazy_gettext("published"),
    "walkover": lazy_gettext("walkover"),
    "swap": lazy_gettext("swap"),
    "wrong team code": lazy_gettext("wrong team code"),
    "signed": lazy_gettext("signed"),
    "signature withdrawn": lazy_gettext("signature withdrawn"),
    "dispute": lazy_gettext("dispute"),
    "closed": lazy_gettext("closed"),
    "reopened": lazy_gettext("reopened"),
    "game started": lazy_gettext("game started"),
    "table cleared": lazy_gettext("table cleared"),
    "renamed": lazy_gettext("renamed"),
    "archived": lazy_gettext("archived"),
    "unarchived": lazy_gettext("taken out of the archive"),
    "team code unlocked": lazy_gettext("team code unlocked"),
    "hand taken back": lazy_gettext("hand taken back"),
}


def audit_actor(actor: str) -> str:
    """Who: "director" → "directeur", "table 3" → "table 3" in the reader's words."""
    if actor in ACTORS:
        return str(ACTORS[actor])
    numbered = _NUMBERED.fullmatch(actor)
    if numbered is not None:
        number = int(numbered[2])
        return (
            gettext("table %(table)s", table=number)
            if numbered[1] == "table"
            else gettext("team %(number)s", number=number)
        )
    return actor


def audit_action(action: str) -> str:
    return str(ACTIONS[action]) if action in ACTIONS else action


def audit_note(entry: Any) -> str:
    """The note in the reader's language when its message was kept (and still fits), else its English."""
    message = from_said(entry.said) if entry.said else None
    return say(message) if isinstance(message, Message) else entry.note


def _tricks_words(tricks: object, revoke: object) -> str:
    """A Military Whist result in words, the side that revoked (military.REVOKES) in the sentence."""
    if revoke == "visitors":
        return gettext("%(tricks)s tricks, revoke by the visitors", tricks=tricks)
    if revoke == "home":
        return gettext("%(tricks)s tricks, revoke by the home", tricks=tricks)
    return gettext("%(tricks)s tricks", tricks=tricks)


def _numbers(values: Any) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)


_HAND_KEYS = {  # a game's hand's keys (the rules' entries), as a corrected hand's audit value names them
    "books": lazy_gettext("books"),
    "tricks": lazy_gettext("tricks"),
    "bids": lazy_gettext("bids"),
    "shared": lazy_gettext("shared tricks"),
    "bid": lazy_gettext("bid"),
    "kind": lazy_gettext("kind of bid"),
    "direction": lazy_gettext("direction"),
    "trump": lazy_gettext("trump"),
    "honours": lazy_gettext("honours"),
    "bidder": lazy_gettext("bidder"),
    "renege": lazy_gettext("renege"),
}


def _hand_part_words(part: dict[str, Any]) -> str:
    """What a correction changed in a game's hand, in words: "10 books", "bid 5, bidder: seat 3"."""
    words: list[str] = []
    for key, value in part.items():
        what = str(_HAND_KEYS.get(key, key))
        if value is None:
            words.append(gettext("no %(what)s", what=what))
        elif key == "books" and isinstance(value, int):
            words.append(gettext("1 book") if value == 1 else gettext("%(count)s books", count=value))
        elif key == "tricks" and isinstance(value, int):
            words.append(_tricks_words(value, None))
        elif key == "bidder" and isinstance(value, int):
            words.append(gettext("bidder: seat %(seat)s", seat=value + 1))
        elif key == "renege" and isinstance(value, dict):
            words.append(gettext("renege upheld") if value.get("upheld") else gettext("renege not upheld"))
        else:
            words.append(gettext("%(what)s %(value)s", what=what, value=_numbers(value)))
    return ", ".join(words) or gettext("none")


def audit_words(value: dict[str, Any] | None) -> str:
    """An audit trail value in words: "8 tricks, revoke by the visitors", "none"."""
    if not value:
        return gettext("none")
    if set(value) == {"hand"} and isinstance(value["hand"], dict):  # a game's hand corrected
        return _hand_part_words(value["hand"])
    if "tricks" in value:
        return _tricks_words(value["tricks"], value.get("revoke"))
    if "held" in value and "owed" in value:  # a day closed: the flags as counted then
        tables = [
            gettext("table %(table)s: %(flags)s", table=t + 1, flags=h - o)
            for t, (h, o) in enumerate(zip(value["held"], value["owed"]))
        ]
        return gettext("flags at closing %(tables)s", tables=", ".join(tables))
    if "teams" in value and "name" in value:  # names changed
        players = value.get("players") or []
        return f"“{value.get('name', '')}”; " + "; ".join(
            team + (f" ({', '.join(players[i])})" if i < len(players) and players[i] else "")
            for i, team in enumerate(value["teams"])
        )
    if "teams" in value and "winner" in value:  # a Military Whist playoff hand
        if value.get("bye"):
            return gettext(
                "teams %(teams)s, winner %(winner)s, bye %(bye)s",
                teams=_numbers(value["teams"]),
                winner=value["winner"],
                bye=_numbers(value["bye"]),
            )
        return gettext("teams %(teams)s, winner %(winner)s", teams=_numbers(value["teams"]), winner=value["winner"])
    if set(value) == {"name"}:  # a team or a player renamed
        return f"“{value['name']}”"
    if set(value) == {"flags"}:  # a loan, or flags given back
        return say(M("1 flag") if value["flags"] == 1 else M("%(count)s flags", count=value["flags"]))
    if set(value) == {"hands"}:  # a day's hands, the director having ended it early
        return ngettext("%(num)s hand in the day", "%(num)s hands in the day", value["hands"])
    if set(value) == {"moves"}:  # the director's moves: each table's destination
        if not value["moves"]:
            return gettext("no moves")
        return gettext("moves to tables %(tables)s", tables=_numbers(value["moves"]))
    return ", ".join(f"{k} {v}" for k, v in value.items())


def audit_change(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str:
    """An audit entry's old → new in words. A value where there was none is said alone ("flags at closing …",
    not "none → flags at closing …"); one taken away says what it was ("before: 10 books")."""
    if not old:
        return audit_words(new)
    if not new:
        return gettext("before: %(old)s", old=audit_words(old))
    return f"{audit_words(old)} → {audit_words(new)}"


def signed_by(by: str) -> str:
    """How a Bid Whist sheet was signed ("table phone, team code · device 7fc27cb1") in the reader's words."""
    return say(by_words(by))
