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

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import select

from scorepad.extensions import db
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


def _key(game: Game) -> tuple[object, ...]:
    """What the copy must match: the hands' revision and the set-up columns as stored (a renamed
    player or a changed option gives another set-up, hence another sheet). Compared with ==, which
    for these few small values costs less than hashing them."""
    return (game.hands_revision, game.variant, game.title, game.first_dealer, game.options, game.players,
            game.teams)


def _kept() -> OrderedDict[str, tuple[tuple[object, ...], Derived]]:
    kept: OrderedDict[str, tuple[tuple[object, ...], Derived]] = current_app.extensions.setdefault(
        "scorepad.derived_games", OrderedDict())
    return kept


def derived(game: Game) -> Derived:
    """The game's set-up, recorded hands and sheet: this worker's copy when it is still the game's,
    else derived from the rows (and kept). Keyed by the public link, not the row id: a row id can be
    given again to another game (SQLite, after a rolled-back restore), a secret link cannot."""
    kept = _kept()
    key = _key(game)
    found = kept.get(game.public_id)
    if found is not None and found[0] == key:
        kept.move_to_end(game.public_id)
        return found[1]
    setup = parse_record(setup_record(game)).setup
    hands = tuple(h.entry for h in game.hands)
    return _keep(game, key, Derived(setup, hands, get_variant(game.variant).score(setup, hands)))


def derived_all(games: Sequence[Game]) -> list[Derived]:
    """`derived(game)` for each of the games (a group's page), the recorded hands of those this
    worker has no copy of read in one query per 500 games rather than one per game."""
    kept = _kept()
    stale = [g for g in games if (found := kept.get(g.public_id)) is None or found[0] != _key(g)]
    for start in range(0, len(stale), 500):
        some = stale[start:start + 500]
        hands: dict[int, list[RawHand]] = {g.id: [] for g in some}
        for game_id, entry in db.session.execute(select(Hand.game_id, Hand.entry).where(
                Hand.game_id.in_(list(hands))).order_by(Hand.game_id, Hand.number)):
            hands[game_id].append(entry)
        for game in some:
            setup = parse_record(setup_record(game)).setup
            entries = tuple(hands[game.id])
            _keep(game, _key(game), Derived(setup, entries, get_variant(game.variant).score(setup, entries)))
    return [derived(g) for g in games]


def _keep(game: Game, key: tuple[object, ...], result: Derived) -> Derived:
    """Keep `result` as this worker's copy of the game (the most recently used), dropping the least
    recently used copies past KEPT."""
    kept = _kept()
    kept[game.public_id] = (key, result)
    kept.move_to_end(game.public_id)
    while len(kept) > KEPT:
        kept.popitem(last=False)
    return result


def appended(game: Game, before: Derived, entry: RawHand) -> Derived:
    """The game's derivation after `entry` was saved as its next hand (committed): `before` plus that
    hand, the hands already recorded not loaded again. Only when the row read now is `before`'s game
    one hand later (this save alone moved it); else derived from the rows."""
    kept = _kept()
    found = kept.get(game.public_id)
    key = _key(game)
    if found is None or found[1] is not before or key != (found[0][0] + 1, *found[0][1:]):
        return derived(game)
    hands = (*before.hands, entry)
    return _keep(game, key, Derived(before.setup, hands, get_variant(game.variant).score(before.setup, hands)))


def _outlines() -> OrderedDict[str, tuple[tuple[object, ...], Outline]]:
    outlines: OrderedDict[str, tuple[tuple[object, ...], Outline]] = current_app.extensions.setdefault(
        "scorepad.game_outlines", OrderedDict())
    return outlines


def outline(game: Game) -> Outline:
    """What the home page lists of the game: from this worker's copy of its derivation when it has
    one, else from the outline kept when it was imported (its check, made off the loop, gave it:
    valid while the row is as then, nothing in hand), else derived. An imported 64-table Military
    game of 500 hands made every home page after it replay it on the worker's loop (2.3 s) and keep
    its 450,000 objects (issue 33)."""
    key = _key(game)
    found = _kept().get(game.public_id)
    if found is None or found[0] != key:
        noted = _outlines().get(game.public_id)
        if noted is not None and noted[0] == key and game.pending is None:
            _outlines().move_to_end(game.public_id)
            return noted[1]
    kept = derived(game)
    return outline_of(kept.setup, kept.hands, kept.sheet, game.pending)


def keep_outline(game: Game, made: Outline) -> None:
    """Keep the outline of a game just stored with no hand in hand (its import's), under its row
    as now; the least recently used go first past KEPT, as the copies above."""
    outlines = _outlines()
    outlines[game.public_id] = (_key(game), made)
    outlines.move_to_end(game.public_id)
    while len(outlines) > KEPT:
        outlines.popitem(last=False)


def forget(game: Game) -> None:
    """Drop this worker's copy (a deleted game)."""
    _kept().pop(game.public_id, None)
    _outlines().pop(game.public_id, None)
