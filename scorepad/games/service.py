"""Home games: every write to a game goes through here, and every read is derived by the rules.

The functions take rows and raw entries (JSON mappings exactly as the rules engine reads them),
check them with the variant's rules before anything is stored, and commit once per action. Each
write announces itself once committed (`_announce`): the game's spectators, and the screens of the
event it is played at, follow it whichever page made the change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import instance_state, set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from scorepad import idempotency, live
from scorepad.extensions import db
from scorepad.games import undo as undo_log
from scorepad.games.derived import Derived, appended, derived, forget, outline, stamp
from scorepad.games.records import record_of
from scorepad.models import (
    GAME_CODE_LENGTH,
    SCORER_LINKS_MAX,
    Game,
    GameScorer,
    Group,
    Hand,
    KeptGame,
    new_short_code,
    typed_code,
    utcnow,
)
from scorepad.models import (
    SCORERS_MAX as SCORERS_MAX,
)
from scorepad.rules import get_variant
from scorepad.rules.base import GameState, M, Message, RawHand, RuleError, RuleErrors, ScoreSheet, Setup, Variant
from scorepad.rules.record import HANDS_MAX, Outline, parse_record


class AlreadyRecorded(Exception):
    """A hand was submitted again (double tap, resent form): it is refused, never counted twice."""

    def __init__(self, number: int, entry: Mapping[str, object]) -> None:
        super().__init__(f"Hand {number} is already recorded.")
        self.number = number
        self.entry = entry


class StaleForm(Exception):
    """A form made from an earlier state of the hand (a double tap, a resent bid): refused, not applied."""


LOCKED = M("This sheet is signed and final: only the director can reopen it.")

# Told of each change to the recorded hands of an event's game, before it is committed, with words
# for it ("Hand 5 was corrected", a message said in the reader's language): a format whose teams
# sign the sheet withdraws signatures given to the sheet as it was (events/bid_whist/matches.py
# adds itself). Games do not import the events.
SHEET_CHANGING: list[Callable[[Game, str], None]] = []


@dataclass(frozen=True)
class Change:
    """A committed change to a game, as its screens hear of it."""

    sheet: bool  # the recorded hands changed (what spectators see); False: only the hand in hand (a bid)
    orders: bool  # hands already recorded changed (an undo, a correction): an event's sheet may be affected
    view: GameView | None  # the game as it stands now, when the writer derived it (saves a replay)


@dataclass(frozen=True)
class Editor:
    """Who corrects a recorded hand, as the page that sent the correction knows: the event's
    director (this browser holds the event's director's link) or else the game's scorer (at an
    event, the table's phone), and the device's short name."""

    director: bool = False
    device: str = ""


# Told of each correction of a recorded hand of an event's game, before it is committed: the hand's
# number, its entry before and after, and who corrected it. The event writes it in its audit trail
# (events/registry.py adds itself), as Military Whist writes its own corrections.
HAND_CORRECTED: list[Callable[[Game, int, RawHand, RawHand, Editor], None]] = []

# Told of each recorded hand of an event's game that Undo takes back, before it is committed (its
# number and entry, who took it back): a change to the record as much as a correction, audited so.
HAND_TAKEN_BACK: list[Callable[[Game, int, RawHand, Editor], None]] = []


# Told of each committed change to an event's game: the event's format says which of its screens
# follow it (events/registry.py adds itself). Games do not import the events.
GAME_CHANGED: list[Callable[[Game, Change], None]] = []


def _announce(game: Game, sheet: bool = True, orders: bool = False, view: GameView | None = None) -> None:
    """Tell the screens of a change just committed: the game's spectators (a change to its hands),
    and its event's, when it is played at one."""
    if sheet:
        live.announce("game", game.public_id, {}, view=view)
    if game.event_id is not None:
        for hook in GAME_CHANGED:
            hook(game, Change(sheet, orders, view))


def rename_side(game: Game, side: int, name: str) -> None:
    """Give a side of the game a new name (its event renamed the team that plays it): not
    committed, the event commits it with its own change and then calls `renamed`. Only the name:
    the hands, and so every score, stay as they are."""
    teams = [dict(t) for t in game.teams]
    teams[side]["name"] = name
    game.teams = teams


def renamed(game: Game) -> None:
    """Tell the game's spectators that its sides' names changed (committed by its event)."""
    live.announce("game", game.public_id, {})


def _sheet_changing(game: Game, what: str) -> None:
    if game.event_id is not None:
        for hook in SHEET_CHANGING:
            hook(game, what)


def _commit_tap(game: Game, row_only: bool = False) -> None:
    """Commit a change to the game, on the condition that nothing changed it since it was read (its
    revision, checked by the database): of two phones tapping from the same state at the same
    moment, whichever worker serves each, the second is refused as a stale form, never applied
    over the first.

    `row_only`: the change is to the game's row alone (the hand in hand, its undo steps), so what
    this request loaded is as committed and is not read again after the commit (a query more on
    every tap, 7 % of a tap's time profiled). Not for changes to hands, whose collection it would
    leave as loaded."""
    session = db.session()
    session.expire_on_commit = not row_only
    try:
        session.commit()
    except StaleDataError:
        session.rollback()
        raise StaleForm() from None
    finally:
        session.expire_on_commit = True
    if row_only:  # as the database keeps it (no time zone on SQLite), for what is kept under it
        session.expire(game, ["updated_at"])


def _writable(game: Game) -> None:
    """A signed event sheet (a Bid Whist round both teams confirmed) takes no more changes."""
    if game.locked_at is not None:
        raise RuleErrors([RuleError("hand", LOCKED)])


def _own_game(game: Game, what: Message) -> None:
    """An event's games belong to the event: the director, not a table, removes or replays them."""
    if game.event_id is not None:
        raise RuleErrors(
            [RuleError("game", M("This game is part of an event: %(what)s is up to the director.", what=what))]
        )


@dataclass(frozen=True)
class GameView:
    """A game with everything the pages show, derived from its rows in one go."""

    game: Game
    variant: Variant
    setup: Setup
    sheet: ScoreSheet
    state: GameState

    hands: tuple[RawHand, ...] = ()  # the recorded hands' entries, as the rules derived them: never change them


def _setup(game: Game) -> Setup:
    return derived(game).setup


def hand_count(game: Game) -> int:
    """How many hands are recorded (numbered 1 to this), without loading them when this worker
    already knows the game's hands."""
    return len(derived(game).hands)


def sheet_of(game: Game) -> ScoreSheet:
    """The game's score sheet alone: what a board needs, without the hand in progress (whose
    pending part another request may be changing at this very moment)."""
    return derived(game).sheet


@dataclass(frozen=True)
class Outlined:
    """One of this browser's games as the home page lists it: its row, its variant and its outline."""

    game: Game
    variant: Variant
    outline: Outline


def outlined(game: Game) -> Outlined:
    """The game as the home page lists it, without replaying it when its import outlined it."""
    return Outlined(game, get_variant(game.variant), outline(game))


def view(game: Game) -> GameView:
    """The game's sheet (derived once per change to its hands) and what comes next."""
    return _view_of(game, derived(game))


def drawn_stamp(game: Game) -> tuple[object, ...]:
    """What a part of the scorer's page drawn from the game alone (its row and what its hands give)
    must match to be served again: the row's revision, which every write to it moves (a tap on the
    hand in hand too), and its derivation's stamp."""
    return (game.revision, *stamp(game))


def _view_of(game: Game, kept: Derived) -> GameView:
    variant = get_variant(game.variant)
    state = variant.state(kept.setup, kept.hands, game.pending)
    return GameView(game, variant, kept.setup, kept.sheet, state, kept.hands)


def create(record: Mapping[str, object], also: Callable[[Game], None] | None = None) -> Game:
    """Start a game from a set-up (a game record with no hands); RuleErrors name bad fields.
    `also` writes what goes with the new game (its place in a group) in the same commit."""
    parsed = parse_record({**record, "hands": []})
    options = parsed.setup.options.as_json()
    game = Game(
        variant=parsed.setup.variant,
        title=parsed.title,
        options=options,
        players=list(parsed.setup.players),
        teams=[{"name": t.name, "players": list(t.players)} for t in parsed.setup.teams],
        first_dealer=parsed.setup.first_dealer,
    )
    db.session.add(game)
    if also is not None:
        db.session.flush()  # the game's id, for the rows that name it
        also(game)
    db.session.commit()
    return game


# Built once: every tap and every spectator's refresh starts with one of these, and building the
# statement each time cost about what running it did
_BY_SCORER_TOKEN = select(Game).where(Game.scorer_token == bindparam("token"))
_BY_PUBLIC_ID = select(Game).where(Game.public_id == bindparam("public_id"))


def by_scorer_token(token: str) -> Game | None:
    return db.session.scalars(_BY_SCORER_TOKEN, {"token": token}).first()


def by_public_id(public_id: str) -> Game | None:
    return db.session.scalars(_BY_PUBLIC_ID, {"public_id": public_id}).first()


def by_short_code(raw: str) -> Game | None:
    """The game whose spectator code (`/s/<code>`, the share screen's) is `raw` as typed: any case,
    spaces and dashes left out; nothing is looked up for what cannot be a code."""
    code = typed_code(raw, GAME_CODE_LENGTH)
    if code is None:
        return None
    return db.session.scalars(select(Game).where(Game.short_code == code)).first()


def short_code(game: Game) -> str:
    """The game's short spectator code, given now to a game made before short links existed."""
    while game.short_code is None:
        game.short_code = new_short_code()
        try:
            db.session.commit()
        except IntegrityError:  # another game already has this code (or got it at this moment)
            db.session.rollback()
    return game.short_code


# --------------------------------------------------------------------------- scorers' links


@dataclass(frozen=True)
class Scoring:
    """Who a scorer's page is served to: the game's own link (`scorer` None: it may also share the
    game, hand scoring over and delete it), or a scorer's link of it (enter, undo and correct)."""

    game: Game
    scorer: GameScorer | None = None

    @property
    def token(self) -> str:
        return self.scorer.link_token if self.scorer is not None else self.game.scorer_token


class HandedBack(Exception):
    """A scorer's link the game's owner took back: it answers, and never writes."""

    def __init__(self, game: Game) -> None:
        super().__init__("This scorer's link was taken back.")
        self.game = game


_BY_SCORER_LINK = select(GameScorer).where(GameScorer.link_token == bindparam("token"))


def scoring_by_token(token: str) -> Scoring | None:
    """The game a scorer's page link opens: the game's own link, else a scorer's link of it (one
    taken back raises HandedBack); None when no game has it."""
    game = by_scorer_token(token)
    if game is not None:
        return Scoring(game)
    return _by_scorer_link(token)


@dataclass(frozen=True)
class Opened:
    """A scorer's page as it is opened: who it is served to, whether the game is scored from
    several phones (a scorer's link, or the game's own while one is open), and the group it is
    kept in (None for a scorer's link, whose page does not show it)."""

    scoring: Scoring
    shared: bool
    group: Group | None


# The game, whether a scorer's link of it is open and its group, in one statement: they were three,
# each a third of the ORM's cost of opening the page again (profiled)
_OPENED = (
    select(
        Game,
        exists().where(GameScorer.game_id == Game.id, GameScorer.revoked_at.is_(None)),
        Group,
    )
    .outerjoin(KeptGame, KeptGame.game_id == Game.id)
    .outerjoin(Group, Group.id == KeptGame.group_id)
    .where(Game.scorer_token == bindparam("token"))
)


def opened_by_token(token: str) -> Opened | None:
    """`scoring_by_token`, with what the scorer's page shows around the game (`Opened`)."""
    found = db.session.execute(_OPENED, {"token": token}).first()
    if found is not None:
        return Opened(Scoring(found[0]), bool(found[1]), found[2])
    scoring = _by_scorer_link(token)
    return Opened(scoring, True, None) if scoring is not None else None


def _by_scorer_link(token: str) -> Scoring | None:
    scorer = db.session.scalars(_BY_SCORER_LINK, {"token": token}).first()
    if scorer is None:
        return None
    game = db.session.get(Game, scorer.game_id)
    if game is None:
        return None
    if scorer.revoked_at is not None:
        raise HandedBack(game)
    return Scoring(game, scorer)


def scorers(game: Game) -> list[GameScorer]:
    """The game's scorers' links still open, oldest first."""
    return list(
        db.session.scalars(
            select(GameScorer)
            .where(GameScorer.game_id == game.id, GameScorer.revoked_at.is_(None))
            .order_by(GameScorer.number)
        )
    )


def add_scorer(game: Game) -> GameScorer:
    """A new scorer's link for another phone. At most SCORERS_MAX open at once and SCORER_LINKS_MAX
    ever, counted before anything is written; two made at the same moment take the same number,
    and the unique key refuses the second."""
    _own_game(game, M("adding a scorer"))
    made = db.session.scalars(select(GameScorer).where(GameScorer.game_id == game.id)).all()
    if sum(1 for s in made if s.revoked_at is None) >= SCORERS_MAX:
        raise RuleErrors(
            [
                RuleError(
                    "scorer",
                    M(
                        "This game already has %(most)s scorers' links: take one back before adding another.",
                        most=SCORERS_MAX,
                    ),
                )
            ]
        )
    if len(made) >= SCORER_LINKS_MAX:
        raise RuleErrors(
            [
                RuleError(
                    "scorer",
                    M(
                        "This game has been given %(most)s scorers' links, as many as a game can: "
                        "share one of those still open.",
                        most=SCORER_LINKS_MAX,
                    ),
                )
            ]
        )
    scorer = GameScorer(game_id=game.id, number=max((s.number for s in made), default=0) + 1)
    db.session.add(scorer)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise RuleErrors(
            [RuleError("scorer", M("Another scorer's link was made at the same moment: look at the list below."))]
        ) from None
    return scorer


def scorer_of(game: Game, number: int) -> GameScorer | None:
    """The game's open scorer's link numbered `number`."""
    return next((s for s in scorers(game) if s.number == number), None)


def revoke_scorer(game: Game, scorer: GameScorer) -> None:
    """Take a scorer's link back: from now on it answers that scoring was handed back, and its page,
    open on the other phone, hears it at once."""
    if scorer.revoked_at is None:
        scorer.revoked_at = utcnow()
        db.session.commit()
    live.announce("game", game.public_id, {"scorers": True})


def set_pending(
    game: Game, pending: Mapping[str, object] | None, current: GameView | None = None, what: str = ""
) -> GameView:
    """Keep the part of the current hand entered so far (e.g. bids), after the rules accept it.

    `current` is the game's view as the caller already derived it (saves replaying the game);
    `what` is the tap in words, logged so that Undo takes back exactly it. A new tap forgets what
    could be redone. Returns the game's view after it: the hands did not change, so their sheet is
    reused, not scored again."""
    after = _set_pending(game, pending, current, what)
    _announce(game, sheet=False)
    return after


def _set_pending(
    game: Game,
    pending: Mapping[str, object] | None,
    current: GameView | None = None,
    what: str = "",
    redoing: bool = False,
) -> GameView:
    """`set_pending`, not announced (`redoing`: this is the redo itself, which keeps the rest)."""
    _writable(game)
    current = current or view(game)
    if current.state.over:
        raise RuleErrors([RuleError("hand", M("The game is over: no more hands can be entered."))])
    state = current.variant.state(current.setup, current.hands, pending)  # raises on an illegal bid
    before, after = (dict(game.pending) if game.pending else None), (dict(pending) if pending else None)
    undo, redo = game.undo_log, game.redo_log
    if before != after:
        undo = undo_log.pushed(undo, undo_log.Step(what or M("the last entry"), before, after))
        if not redoing:
            redo = None
    _write_tap(game, after, undo, redo)
    return replace(current, state=state)


_GAME = Game.__table__
# A tap's write: the game's row alone, on the condition of the revision it read (as the ORM's
# version counter does), built once. Through the ORM, the unit of work's flush of this one row was
# 85 % of a tap's write and an eighth of the tap's CPU (profiled).
_TAP = (
    _GAME.update()
    .where(_GAME.c.id == bindparam("b_id"), _GAME.c.revision == bindparam("b_revision"))
    .values(
        pending=bindparam("b_pending", type_=_GAME.c.pending.type),
        undo_log=bindparam("b_undo", type_=_GAME.c.undo_log.type),
        redo_log=bindparam("b_redo", type_=_GAME.c.redo_log.type),
        revision=bindparam("b_next"),
        updated_at=bindparam("b_now", type_=_GAME.c.updated_at.type),
    )
)


def _write_tap(
    game: Game,
    pending: dict[str, Any] | None,
    undo: list[dict[str, Any]] | None,
    redo: list[dict[str, Any]] | None,
) -> None:
    """Commit the hand in hand and its undo steps, refused as a stale form when another request
    changed the game since it was read (as `_commit_tap`). The loaded game is given the values
    written, as committed, so nothing is read again after the commit but `updated_at` (as the
    database keeps it: no time zone on SQLite), and only if asked for. A game already changed in
    this session (a redo's log) goes through the ORM, which writes those changes too."""
    if instance_state(game).modified:
        game.pending, game.undo_log, game.redo_log = pending, undo, redo
        _commit_tap(game, row_only=True)
        return
    session = db.session()
    revision = game.revision
    done = session.execute(
        _TAP,
        {
            "b_id": game.id,
            "b_revision": revision,
            "b_pending": pending,
            "b_undo": undo,
            "b_redo": redo,
            "b_next": revision + 1,
            "b_now": utcnow(),
        },
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise StaleForm()
    idempotency.written(game.id, revision + 1)
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    for key, value in (("pending", pending), ("undo_log", undo), ("redo_log", redo), ("revision", revision + 1)):
        set_committed_value(game, key, value)
    session.expire(game, ["updated_at"])


def fingerprint(game: Game) -> str:
    """What the scorer's page was made from: the hands entered and the pending part of the hand.

    Forms that change the hand carry it, so a resent tap (a double tap, a retried request) finds a
    different state and is refused rather than applied to the next bidder or the previous hand."""
    state = json.dumps([hand_count(game), game.pending or {}], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(state.encode()).hexdigest()[:16]


def refuse_if_stale(game: Game, seen: str) -> None:
    """Refuse a form made from another state of the game than the one stored now."""
    if seen != fingerprint(game):
        raise StaleForm()


def refuse_if_recorded(game: Game, number: int) -> None:
    """A resent hand (double tap, a form sent again) is refused before anything else is read."""
    hands = derived(game).hands
    if 1 <= number <= len(hands):
        raise AlreadyRecorded(number, hands[number - 1])


def enter_hand(game: Game, number: int, entry: Mapping[str, object], current: GameView | None = None) -> GameView:
    """Record hand `number` (pending part + `entry`); a hand already recorded is refused.

    `current` is the game's view as the caller already derived it (saves replaying the game). The
    save is logged as one tap for Undo; a new save forgets what could be redone."""
    after = _enter_hand(game, number, entry, current)
    _announce(game, view=after)
    return after


def _enter_hand(
    game: Game, number: int, entry: Mapping[str, object], current: GameView | None = None, redoing: bool = False
) -> GameView:
    """`enter_hand`, not announced (`redoing`: this is a redo, which keeps what else could be redone)."""
    refuse_if_recorded(game, number)
    _writable(game)
    kept = derived(game)
    if number != len(kept.hands) + 1:
        raise RuleErrors(
            [
                RuleError(
                    "number",
                    M(
                        "Hand %(number)s cannot be entered yet: hand %(first)s comes first.",
                        number=number,
                        first=len(kept.hands) + 1,
                    ),
                )
            ]
        )
    if number > HANDS_MAX:  # a game played to a target has no schedule: it stops where a record does
        raise RuleErrors(
            [
                RuleError(
                    "hand",
                    M(
                        "A game holds at most %(most)s hands, as a game record does: start a new game to play on.",
                        most=HANDS_MAX,
                    ),
                )
            ]
        )
    current = current or view(game)
    if current.state.over:
        raise RuleErrors([RuleError("hand", M("The game is over: no more hands can be entered."))])
    hand = {**(game.pending or {}), **entry}
    current.variant.check_hand(current.setup, current.hands, hand)
    db.session.add(Hand(game_id=game.id, number=number, entry=hand))  # the hands already recorded stay unloaded
    step = undo_log.Step(
        M("saving hand %(number)s", number=number),
        dict(game.pending) if game.pending else None,
        hand=number,
        entry=hand,
    )
    game.undo_log = undo_log.pushed(game.undo_log, step)
    if not redoing:
        game.redo_log = None
    game.pending = None
    game.updated_at = utcnow()  # every change to the hands moves it: derived outcomes are cached by it
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError) as e:  # another request changed the game at the same moment
        db.session.rollback()
        saved = db.session.scalars(select(Hand.entry).where(Hand.game_id == game.id, Hand.number == number)).first()
        if saved is not None:  # read from the database, not this worker's copy: the other request saved it
            raise AlreadyRecorded(number, saved) from None
        if isinstance(e, StaleDataError):
            raise StaleForm() from None
        raise
    return _view_of(game, appended(game, kept, hand))


def _recorded(game: Game, step: undo_log.Step) -> RawHand | None:
    """The recorded entry of the hand a correction step names, as stored now."""
    if not step.correction or step.hand is None:
        return None
    hands = derived(game).hands
    return hands[step.hand - 1] if 1 <= step.hand <= len(hands) else None


def _undo_step(game: Game) -> undo_log.Step | None:
    """The tap Undo would take back, when the log fits what is stored (None: nothing, or a game from
    before the log)."""
    step = undo_log.last(game.undo_log)
    if step is None:
        return None
    last_hand = hand_count(game) or None
    return step if undo_log.fits_undo(step, game.pending, last_hand, _recorded(game, step)) else None


def _redo_step(game: Game) -> undo_log.Step | None:
    """The tap Redo would make again (None: nothing to redo)."""
    step = undo_log.last(game.redo_log)
    if step is None:
        return None
    return step if undo_log.fits_redo(step, game.pending, hand_count(game), _recorded(game, step)) else None


def next_undo(game: Game) -> str | None:
    """What Undo would take back, in words (None: nothing, or a game from before the log)."""
    step = _undo_step(game)
    return step.what if step else None


def next_redo(game: Game) -> str | None:
    """What Redo would put back, in words (None: nothing to redo)."""
    step = _redo_step(game)
    return step.what if step else None


def _take_back_hand(game: Game, editor: Editor) -> Hand:
    last = game.hands.pop()
    db.session.delete(last)
    _sheet_changing(game, M("Hand %(hand)s was taken back", hand=last.number))
    if game.event_id is not None:
        for hook in HAND_TAKEN_BACK:
            hook(game, last.number, dict(last.entry), editor)
    game.updated_at = utcnow()
    return last


def undo(game: Game, editor: Editor = Editor()) -> str:
    """Take back exactly the last tap (a bid, a trump, one player's tricks, the save of a hand, the
    correction of a recorded hand), and offer it for Redo. A game whose log does not fit what is
    stored (a game stored without one) takes back its hand in hand, else its last hand, whole. At an
    event a recorded hand taken back goes to its audit trail (`HAND_TAKEN_BACK`), a correction
    taken back as a correction (`HAND_CORRECTED`), with `editor`."""
    revision = game.hands_revision
    done = _undo(game, editor)
    _announce_step(game, revision)
    return done


def redo(game: Game, editor: Editor = Editor()) -> str:
    """Make again the tap Undo took back last, checked by the rules as any tap."""
    revision = game.hands_revision
    done = _redo(game, editor)
    _announce_step(game, revision)
    return done


def _announce_step(game: Game, revision: int) -> None:
    """An undo or a redo: the spectators and the event's sheet hear of it when it changed a recorded
    hand (a save or a correction taken back or made again)."""
    changed = game.hands_revision != revision
    _announce(game, sheet=changed, orders=changed)


def _undo(game: Game, editor: Editor) -> str:
    _writable(game)
    step = _undo_step(game)
    if step is not None:
        if step.correction and step.hand is not None and step.old is not None:
            _correct(game, step.hand, step.old, editor)
        elif step.hand is not None:  # a hand corrected before the log kept corrections comes back as corrected
            step = replace(step, entry=dict(_take_back_hand(game, editor).entry))
        game.pending = step.before
        game.undo_log = (game.undo_log or [])[:-1] or None
        game.redo_log = undo_log.pushed(game.redo_log, step)
        _commit_tap(game)
        return M("Undone: %(what)s.", what=step.what)
    game.undo_log = game.redo_log = None
    if game.pending:
        game.pending = None
        _commit_tap(game)
        return M("The bids of the current hand were cleared.")
    if not game.hands:
        raise RuleErrors([RuleError("hand", M("There is nothing to undo yet."))])
    last = _take_back_hand(game, editor)
    _commit_tap(game)
    return M("Hand %(number)s was taken back.", number=last.number)


def _redo(game: Game, editor: Editor) -> str:
    _writable(game)
    step = _redo_step(game)
    if step is None:
        raise RuleErrors([RuleError("hand", M("There is nothing to redo."))])
    game.redo_log = (game.redo_log or [])[:-1] or None
    try:
        if step.correction and step.hand is not None:
            _correct(game, step.hand, step.entry or {}, editor)
            game.undo_log = undo_log.pushed(game.undo_log, step)
            _commit_tap(game)
        elif step.hand is not None:
            _enter_hand(game, step.hand, step.entry or {}, redoing=True)
        else:
            _set_pending(game, step.after, what=step.what, redoing=True)
    except RuleErrors as e:  # a correction since made it impossible: it is dropped, and said why
        db.session.rollback()
        game.redo_log = None
        db.session.commit()
        raise RuleErrors(
            [
                RuleError(
                    e.errors[0].field, M("%(what)s cannot be redone: %(why)s", what=step.what, why=e.errors[0].message)
                )
            ]
        ) from e
    return M("Redone: %(what)s.", what=step.what)


def correct_hand(game: Game, number: int, entry: Mapping[str, object], editor: Editor = Editor()) -> GameView:
    """Replace hand `number`; every later hand is re-scored, and must still be legal after it. At an
    event the correction goes to the event's audit trail (`HAND_CORRECTED`), with `editor`. It is
    logged as a step, so Undo takes back this correction, not the save before it."""
    _writable(game)
    old = _correct(game, number, entry, editor)
    if old != dict(entry):
        pending = dict(game.pending) if game.pending else None
        step = undo_log.Step(
            M("correcting hand %(number)s", number=number), pending, pending, hand=number, entry=dict(entry), old=old
        )
        game.undo_log = undo_log.pushed(game.undo_log, step)
        game.redo_log = None
    db.session.commit()
    _announce(game, orders=True)
    return view(game)


def _correct(game: Game, number: int, entry: Mapping[str, object], editor: Editor) -> dict[str, object]:
    """Replace hand `number`'s entry (not committed) once the rules accept it and every later hand;
    returns the entry it replaced."""
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        raise RuleErrors([RuleError("number", M("There is no hand %(number)s to correct.", number=number))])
    variant = get_variant(game.variant)
    setup = _setup(game)
    before = [h.entry for h in game.hands if h.number < number]
    variant.check_hand(setup, before, entry)
    after = [dict(entry) if h.number == number else h.entry for h in game.hands]
    try:
        variant.score(setup, after)
    except RuleErrors as e:  # the first hand it breaks, in words (its field path is not for players)
        broken = e.errors[0]
        message = (
            M("this correction makes hand %(hand)s impossible: %(problem)s", hand=broken.hand, problem=broken.message)
            if broken.hand is not None
            else M("this correction makes a later hand impossible: %(problem)s", problem=broken.message)
        )
        raise RuleErrors([RuleError(broken.field, message)]) from e
    old = dict(hand.entry)
    _sheet_changing(game, M("Hand %(hand)s was corrected", hand=number))
    if game.event_id is not None:
        for hook in HAND_CORRECTED:
            hook(game, number, old, dict(entry), editor)
    hand.entry = dict(entry)
    hand.corrected_at = utcnow()
    game.updated_at = hand.corrected_at
    return old


def delete(game: Game) -> None:
    _own_game(game, M("deleting it"))
    forget(game)
    db.session.delete(game)
    db.session.commit()


def rematch(game: Game, also: Callable[[Game], None] | None = None) -> Game:
    """A new game with the same players and options; the deal moves on to the next dealer. `also`
    as for `create`."""
    _own_game(game, M("a rematch"))
    seats = len(game.players) if game.players else 4
    record = {**record_of(game), "hands": [], "first_dealer": (game.first_dealer + 1) % seats}
    new = create(record, also)
    new.rematch_of_id = game.id
    db.session.commit()
    return new


# The home games a list shows: an event's games are its event's, the demo games the variant pages'.
_HOME = (Game.is_demo.is_(False), Game.event_id.is_(None))


def by_scorer_tokens(tokens: Sequence[str]) -> list[Game]:
    """The home games whose scorer's links are `tokens` (a browser's own, from its session), newest
    activity first; tokens of games deleted since are left out."""
    if not tokens:
        return []
    return list(
        db.session.scalars(
            select(Game)
            .where(Game.scorer_token.in_(list(tokens)), *_HOME)
            .order_by(Game.updated_at.desc(), Game.id.desc())
        )
    )


@dataclass(frozen=True)
class Listed:
    """A game as a list of other people's games shows it: read from its row and a count of its
    hands, never derived, so the list costs the same whatever the games hold."""

    public_id: str
    title: str
    variant: str  # its key
    names: tuple[str, ...]  # the players, or the teams' names
    hands: int  # recorded
    updated_at: datetime  # its last change


def recent_others(but: Sequence[str] = (), limit: int = 20) -> list[Listed]:
    """The latest home games on this server (demo games left out) but those whose scorer's links
    are `but` (this browser's own), newest activity first: a few columns of each row and one
    grouped count of their hands."""
    query = (
        select(Game.id, Game.public_id, Game.title, Game.variant, Game.players, Game.teams, Game.updated_at)
        .where(*_HOME)
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
    )
    if but:
        query = query.where(Game.scorer_token.not_in(list(but)))
    rows = db.session.execute(query).all()
    counts: dict[int, int] = {}
    if rows:
        counts = dict(
            db.session.execute(
                select(Hand.game_id, func.count(Hand.id))
                .where(Hand.game_id.in_([r.id for r in rows]))
                .group_by(Hand.game_id)
            ).all()
        )
    return [
        Listed(
            r.public_id,
            r.title,
            r.variant,
            tuple(r.players) or tuple(str(t.get("name", "")) for t in r.teams if isinstance(t, dict)),
            counts.get(r.id, 0),
            r.updated_at,
        )
        for r in rows
    ]


def recent_names(limit: int = 12) -> list[str]:
    """Names used in recent games, newest first, to offer when starting a game (their names' columns
    only: nothing else of other people's games is read)."""
    names: list[str] = []
    for players, teams in db.session.execute(
        select(Game.players, Game.teams).where(Game.is_demo.is_(False)).order_by(Game.created_at.desc()).limit(20)
    ):
        candidates = list(players) + [p for t in teams for p in t.get("players", [])]
        for name in candidates:
            if name not in names:
                names.append(name)
    return names[:limit]
