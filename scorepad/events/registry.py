"""The event formats, as `rules.get_variant` holds the variants: `get_format(event.format)` gives a
format's entry points, so nothing else branches on an event's format.

Each format module (`military`, `drive`, `club`; Bid Whist's package, split by job, has them in
`bid_whist.writes` and `bid_whist.event_format`) offers `create(...)` with the settings of its own
set-up page, and one `EventFormat` object (the protocol is in `core`), `FORMAT`, for the rest: what
its control room, boards and table pages show, what a table's QR code opens, and its JSON export. The
views render those through the format's template folder, `pages` (`templates/<pages>/control.html`,
`_room.html`, `projector.html`, `standings.html`, `_board.html`, `table.html`, `_table.html`,
`qr.html`), and its own routes live in the blueprint of the same name (`views/<module>.py`).
"""

from __future__ import annotations

from scorepad.events import club, core, drive, military
from scorepad.events.bid_whist import event_format as bid_whist
from scorepad.events.bid_whist import matches
from scorepad.events.core import EventFormat, TablePage
from scorepad.games import service as games
from scorepad.rules.base import RawHand, RuleError
from scorepad.rules.errors import M, Message

__all__ = ["FORMATS", "EventFormat", "TablePage", "all_formats", "get_format"]


FORMATS: dict[str, EventFormat] = {f.key: f for f in (military.FORMAT, bid_whist.FORMAT, drive.FORMAT, club.FORMAT)}


def get_format(key: str) -> EventFormat:
    """The format stored as `key` in Event.format; RuleError for an unknown one."""
    try:
        return FORMATS[key]
    except KeyError:
        raise RuleError("format", M("there is no event format called %(key)s", key=repr(key))) from None


def all_formats() -> tuple[EventFormat, ...]:
    return tuple(FORMATS.values())


def _game_changed(game: games.Game, change: games.Change) -> None:
    """A change committed to a game played at an event: the event's screens hear of it, as its
    format says (a tournament's round match concerns its own table's pages). A tap on the hand in
    hand (a call, a bid, a trump: neither the recorded hands nor the orders) is on no page of the
    event: its screens are not told, and a 64-table tournament's taps do not each cost the event's
    row, a "changed" to every room and the board's fingerprint (the push found the board unchanged)."""
    if not (change.sheet or change.orders):
        return
    event = core.event_of(game)
    if event is None:
        return
    ended = change.sheet and change.view is not None and change.view.state.over
    core.announce(event, get_format(event.format).game_signals(game, change.orders, ended))


games.GAME_CHANGED.append(_game_changed)


CORRECTION = "correction"  # the action of every correction's audit entry, of every format
TAKEN_BACK = "hand taken back"  # a recorded hand of an event's game that Undo took back


def entry_change(old: RawHand, new: RawHand) -> tuple[dict[str, object], dict[str, object]]:
    """What a correction changed in a hand's entry: the keys whose values differ, before and after
    (a key one side lacks is null there). The auction is left out: it goes with the bid, and the
    bid says it."""
    keys = [k for k in dict.fromkeys([*old, *new]) if k != "auction" and old.get(k) != new.get(k)]
    return {k: old.get(k) for k in keys}, {k: new.get(k) for k in keys}


def _audit_hand(game: games.Game, number: int, old: RawHand, new: RawHand | None, editor: games.Editor) -> None:
    """A recorded hand of an event's game (a tournament's match, a club night's table) was
    corrected, or taken back by Undo (`new` None): written in the event's audit trail like a
    Military Whist correction, old and new, by the director or the table, with the device it came
    from."""
    event = core.event_of(game)
    if event is None:
        return
    match = core.match_of(game)
    table = match.table if match is not None else core.table_playing(event, game)
    actor = "director" if editor.director else f"table {table}" if table is not None else "a browser"
    if new is None:
        action, before, after = TAKEN_BACK, {k: v for k, v in old.items() if k != "auction"}, None
    else:
        action, (before, after) = CORRECTION, entry_change(old, new)
    where: str | None = matches.stage_words(match) if match is not None else None
    note: Message | str = ""
    if editor.device:
        done = (
            M("%(stage)s: corrected on device %(device)s", stage=where, device=editor.device)
            if where is not None and new is not None
            else M("%(stage)s: taken back on device %(device)s", stage=where, device=editor.device)
            if where is not None
            else M("corrected on device %(device)s", device=editor.device)
            if new is not None
            else M("taken back on device %(device)s", device=editor.device)
        )
        note = done
    elif where is not None:
        note = where
    core.audit(
        event,
        actor,
        action,
        hand=number,
        table=table,
        old={"hand": before},
        new=None if after is None else {"hand": after},
        note=note,
    )


def _hand_corrected(game: games.Game, number: int, old: RawHand, new: RawHand, editor: games.Editor) -> None:
    _audit_hand(game, number, old, new, editor)


def _hand_taken_back(game: games.Game, number: int, old: RawHand, editor: games.Editor) -> None:
    _audit_hand(game, number, old, None, editor)


games.HAND_CORRECTED.append(_hand_corrected)
games.HAND_TAKEN_BACK.append(_hand_taken_back)
