"""A game's set-up, complete hands and score sheet, kept per worker between requests.

A tap on the hand in hand (a bid, a trump, one player's tricks) changes none of the recorded hands,
yet loading them all and replaying the game on each request would make every tap cost more than
the one before it. So a worker keeps, per game, what its recorded hands give, under
the game row's `hands_revision` (moved by the database flush of any change to the hands, see
models.hands_changed) and the set-up columns: a request reads the game row, finds the revision it
knows, and reuses the set-up, the hands (a tuple, the very objects the rules' `derived_once` knows)
and the sheet. Whatever another worker wrote, the row read now says whether this worker's copy is
still the game's; a copy that is not is derived again. Nothing here scores: the rules do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select

from scorepad.extensions import db
from scorepad.kept import Kept
from scorepad.models import Game, Hand
from scorepad.rules import get_variant
from scorepad.rules.base import RawHand, ScoreSheet, Setup
from scorepad.rules.record import Outline, outline_of, parse_record

KEPT = 4096  # games kept per worker (a few KB each); the least recently used goes first


@dataclass(frozen=True)
class Derived:
    """What a game's recorded hands give: read-only, shared by the requests of one worker."""

    setup: Setup
    hands: tuple[RawHand, ...]
    sheet: ScoreSheet


def setup_record(game: Game) -> dict[str, object]:
    """The game's set-up as a game record with no hands (read from the game row alone)."""
    data: dict[str, object] = {"scorepad": 1, "variant": game.variant}
    if game.title:
        data["title"] = game.title
    data["options"] = game.options
    if game.players:
        data["players"] = game.players
    if game.teams:
        data["teams"] = game.teams
    data["first_dealer"] = game.first_dealer
    data["hands"] = []
    return data


def stamp(game: Game) -> tuple[object, ...]:
    """What a kept derivation must match: the hands' revision and the set-up columns as stored (a
    renamed player or a changed option gives another set-up, hence another sheet). Compared with
    ==, which for these few small values costs less than hashing them."""
    return (game.hands_revision, game.variant, game.title, game.first_dealer, game.options, game.players, game.teams)


# By the game's public link, not its row id: a row id can be given again to another game (SQLite,
# after a rolled-back restore), a secret link cannot.
_GAMES: Kept[Derived] = Kept("game derivations", size=KEPT)
_OUTLINES: Kept[Outline] = Kept("game outlines", size=KEPT)


class _RowBehind(Exception):
    """The hands stored now are not those of the game row this request read: another request
    saved, undid or corrected a hand in between."""


def _derive(game: Game, hands: tuple[RawHand, ...] | None = None) -> Derived:
    setup = parse_record(setup_record(game)).setup
    entries = _entries(game) if hands is None else hands
    return Derived(setup, entries, get_variant(game.variant).score(setup, entries))


def _entries(game: Game) -> tuple[RawHand, ...]:
    """The game's recorded hands: as this request loaded them (a write that changed them), else
    read as one column's rows, not as objects (the ORM's loading of 24 hands only read was 5 % of
    opening a page first at hand 25, profiled)."""
    if "hands" in game.__dict__:  # loaded, perhaps changed by this request
        return tuple(h.entry for h in game.hands)
    return _stored_hands(game)


def _stored_hands(game: Game) -> tuple[RawHand, ...]:
    """The recorded hands, read in one statement with the revision they are at: hands saved since
    the request read the game row, beside that row's hand in hand (the very hand, still pending),
    would make a game that never was (issue 30's two phones saving at once: a 500, or hand 2 shown
    with hand 1's trump)."""
    rows = db.session.execute(
        select(Game.hands_revision, Hand.entry)
        .outerjoin(Hand, Hand.game_id == Game.id)
        .where(Game.id == game.id)
        .order_by(Hand.number)
    ).all()
    if rows and rows[0][0] != game.hands_revision:
        raise _RowBehind()
    return tuple(entry for _, entry in rows if entry is not None)


def _stored_entries(game: Game) -> tuple[RawHand, ...]:
    """The recorded hands as stored now, whatever the row this request read."""
    return tuple(db.session.scalars(select(Hand.entry).where(Hand.game_id == game.id).order_by(Hand.number)))


def derived(game: Game) -> Derived:
    """The game's set-up, recorded hands and sheet: this worker's copy when it is still the game's,
    else derived from the rows (and kept). When they moved on since the request read the game row,
    the row is read again, and the request goes on with the game as stored now."""
    while True:  # each turn needs another write to the game in between: it ends
        try:
            return _GAMES.get(
                game.public_id,
                stamp(game),
                lambda _: _derive(game),
                stamp_now=lambda: _stored_stamp(game),
                derived_from_now=lambda kept: _derived_from_stored(game, kept),
            )
        except _RowBehind:
            db.session.refresh(game)


def _derived_from_stored(game: Game, kept: Derived) -> bool:
    """The suite's check of a kept derivation: its set-up and hands are the game's as stored now.
    Its sheet is the rules' pure function of them, so they stand for replaying the game afresh."""
    return kept.hands == _stored_entries(game) and kept.setup == parse_record(setup_record(game)).setup


def _stored_stamp(game: Game) -> tuple[object, ...]:
    """The stamp as the database holds it now (the row this request read may be older): the suite's
    check forgives a kept copy that differs from a fresh one when another request wrote between."""
    columns = (Game.hands_revision, Game.variant, Game.title, Game.first_dealer, Game.options, Game.players, Game.teams)
    found = db.session.execute(select(*columns).where(Game.id == game.id)).first()
    return tuple(found) if found is not None else ()


def derived_all(games: Sequence[Game]) -> list[Derived]:
    """`derived(game)` for each of the games (a group's page), the recorded hands of those this
    worker has no copy of read in one query per 500 games rather than one per game, with the
    revision they are at: a game whose hands moved on since its row was read is left to `derived`,
    never kept under the older row's stamp (as `_stored_hands`, for one game)."""
    stale = [g for g in games if _GAMES.peek(g.public_id, stamp(g)) is None]
    made: dict[str, Derived] = {}
    for start in range(0, len(stale), 500):
        some = stale[start : start + 500]
        hands: dict[int, list[RawHand]] = {g.id: [] for g in some}
        revisions: dict[int, int] = {}
        for game_id, revision, entry in db.session.execute(
            select(Game.id, Game.hands_revision, Hand.entry)
            .outerjoin(Hand, Hand.game_id == Game.id)
            .where(Game.id.in_(list(hands)))
            .order_by(Game.id, Hand.number)
        ):
            revisions[game_id] = revision
            if entry is not None:
                hands[game_id].append(entry)
        for game in some:
            if revisions.get(game.id) == game.hands_revision:
                made[game.public_id] = _derive(game, tuple(hands[game.id]))
                _GAMES.put(game.public_id, stamp(game), made[game.public_id])
    return [made.get(g.public_id) or derived(g) for g in games]


def appended(game: Game, before: Derived, entry: RawHand) -> Derived:
    """The game's derivation after `entry` was saved as its next hand (committed): `before` plus that
    hand, the hands already recorded not loaded again. Only when what is kept is `before`, at the
    row's revision one hand earlier (this save alone moved it); else derived from the rows."""
    now = stamp(game)
    if _GAMES.peek(game.public_id, (now[0] - 1, *now[1:])) is not before:  # type: ignore[operator]
        return derived(game)

    def advance(previous: Derived | None) -> Derived:
        if previous is not before:  # from nothing (the suite's check compares the two)
            return _derive(game)
        hands = (*before.hands, entry)
        return Derived(before.setup, hands, get_variant(game.variant).score(before.setup, hands))

    try:
        return _GAMES.get(game.public_id, now, advance, derived_from_now=lambda kept: _derived_from_stored(game, kept))
    except _RowBehind:
        return derived(game)


def outline(game: Game) -> Outline:
    """What the home page lists of the game: from this worker's copy of its derivation when it has
    one, else from the outline kept when it was imported (its check, made off the loop, gave it:
    valid while the row is as then, nothing in hand), else derived. An imported 64-table Military
    game of 500 hands made every home page after it replay it on the worker's loop (2.3 s) and keep
    its 450,000 objects (issue 33)."""
    now = stamp(game)
    if (
        game.pending is None
        and _GAMES.peek(game.public_id, now) is None
        and _OUTLINES.peek(game.public_id, now) is not None
    ):
        return _OUTLINES.get(game.public_id, now, lambda _: _outline_now(game))
    return _outline_now(game)


def _outline_now(game: Game) -> Outline:
    kept = derived(game)
    return outline_of(kept.setup, kept.hands, kept.sheet, game.pending)


def keep_outline(game: Game, made: Outline) -> None:
    """Keep the outline of a game just stored with no hand in hand (its import's), under its row
    as now."""
    _OUTLINES.put(game.public_id, stamp(game), made)


def forget(game: Game) -> None:
    """Drop this worker's copy (a deleted game)."""
    _GAMES.forget(game.public_id)
    _OUTLINES.forget(game.public_id)
