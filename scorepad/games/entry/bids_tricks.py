"""Nomination and Australian Whist: a trump if the table turns one up, bids in turn, then tricks.

Bids are tapped one player at a time in bidding order and kept as the pending part of the hand,
so a refresh or a second phone shows exactly where the bidding stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from scorepad.form_input import whole_number
from scorepad.games.entry.base import Complete, Pending, form_int, form_ints, whose
from scorepad.games.service import StaleForm
from scorepad.rules import nomination
from scorepad.rules.base import M, RawHand, RoundKind, RuleError, RuleErrors, Setup
from scorepad.rules.cards import Trump

if TYPE_CHECKING:
    from scorepad.games.service import GameView

TRUMP_CHOICES = (Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS, Trump.SPADES, Trump.NO_TRUMPS)


def _remote(view: GameView) -> bool:
    return bool(view.setup.options.values.get("remote", False))


class BidsAndTricks:
    """`trump_override`: the schedule's trump of a round may be changed by the scorer (Australian
    Whist, RULES-NOTES: a round played in another trump), on the hand and on the correction page.
    `hook`: whether the hook rule binds the last bidder of a round of so many cards (the phone's
    offline entry of a hand needs it to grey out the one bid refused, static/js/outbox.js)."""

    template = "games/entry/_bids_tricks.html"
    edit_template = "games/entry/_bids_tricks_edit.html"
    home_defaults: Mapping[str, str] = {}

    def __init__(self, hook: Callable[[Setup, int], bool], trump_override: bool = False) -> None:
        self.trump_override = trump_override
        self.hook = hook

    def context(self, view: GameView) -> dict[str, object]:
        """The bids so far in bidding order, and why a value is refused to the last bidder."""
        state, spec = view.state, view.state.next_round
        players = view.setup.players
        bids = list((view.game.pending or {}).get("bids") or [])
        reason: str = ""
        if state.forbidden_bid is not None and state.to_act is not None and spec is not None:
            reason = M(
                "%(name)s bids last and may not bid %(bid)s: the bids would add up to %(cards)s, the number of tricks.",
                name=players[state.to_act],
                bid=state.forbidden_bid,
                cards=spec.cards,
            )
        order: list[int] = []
        if spec is not None and spec.first_bidder is not None:
            order = [(spec.first_bidder + i) % len(players) for i in range(len(players))]
        made = [(players[s], bids[s]) for s in order if s < len(bids) and bids[s] is not None]
        tricks = _tricks_so_far(view.game.pending, len(players))
        order = order or list(range(len(players)))
        to_tap = next((s for s in order if tricks[s] is None), None)
        left = (spec.cards if spec else 0) - sum(t for t in tricks if t is not None)
        return {
            "trumps": TRUMP_CHOICES,
            "trump_override": self.trump_override,
            "scheduled_trump": _scheduled(view, spec.number) if self.trump_override and spec is not None else None,
            "bids_made": made,
            "forbidden_reason": reason,
            "remote": _remote(view),
            "pending_trump": (view.game.pending or {}).get("trump"),
            "tricks": tricks,
            "tricks_made": [(s, tricks[s]) for s in order if tricks[s] is not None],
            "tricks_to": to_tap,
            "tricks_left": left,
            "bidding_order": order,
            "hook": spec is not None and self.hook(view.setup, spec.cards),
        }

    def apply(self, view: GameView, action: str, form: Mapping[str, str]) -> Pending | Complete:
        pending = dict(view.game.pending or {})
        spec = view.state.next_round
        if spec is None:
            raise RuleErrors([RuleError("hand", M("The game is over: no more hands can be entered."))])
        players = view.setup.players
        if action == "trump":
            trump = pending["trump"] = _trump(form.get("trump"))
            if self.trump_override and trump == _scheduled(view, spec.number):
                del pending["trump"]  # back to the schedule: nothing changed to record
            return Pending(pending or None, what=M("the trump, %(trump)s", trump=Trump(trump).label))
        if action == "bid":
            seat = view.state.to_act
            if seat is None:
                raise RuleErrors([RuleError("bids", M("all the bids are in: enter the tricks"))])
            if "seat" in form and whole_number(form["seat"]) != seat:
                # a bid meant for another player (one tapped offline, after a bid that was refused or
                # made meanwhile on another phone): never recorded as this player's
                raise StaleForm()
            bid = form_int(form, "bid", f"bids.{seat}", whose(players[seat], "bid"), 0, spec.cards)
            bids = list(pending.get("bids") or [])
            bids += [None] * (len(players) - len(bids))
            bids[seat] = bid
            pending["bids"] = bids
            return Pending(pending, what=M("%(name)s's bid of %(bid)s", name=players[seat], bid=bid))
        if action == "unbid":
            rest, seat = _without_last_bid(pending, spec.first_bidder, len(players))
            return Pending(rest, what=M("taking back %(name)s's bid", name=players[seat]))
        if action == "tricks":
            return self._tricks_tap(view, pending, form)
        if action == "result":
            entry: dict[str, object] = {"tricks": form_ints(form, "tricks", players, "tricks", spec.cards)}
            if _remote(view):
                entry["shared"] = form_ints(form, "shared", players, "shared tricks", spec.cards)
            return Complete(entry)
        raise RuleErrors([RuleError("action", M("this screen cannot do that: reload the page and try again"))])

    def _tricks_tap(self, view: GameView, pending: dict[str, object], form: Mapping[str, str]) -> Pending:
        """One player's tricks, tapped as a number in bidding order; once only one player is left, or no
        tricks are, the rest is theirs and filled in (a 4-player hand takes at most 3 taps and Save)."""
        spec, players = view.state.next_round, view.setup.players
        assert spec is not None
        if view.state.step != "result" or _remote(view):
            raise RuleErrors([RuleError("tricks", M("this screen cannot do that now: reload the page"))])
        tricks = _tricks_so_far(pending, len(players))
        seat = whole_number(form.get("seat") or "")
        if seat is None or seat >= len(players):
            raise RuleErrors([RuleError("tricks", M("this screen is out of date: reload the page"))])
        if tricks[seat] is not None:  # entered meanwhile: said as what is recorded (`refused`)
            raise StaleForm()
        left = spec.cards - sum(t for t in tricks if t is not None)
        tricks[seat] = form_int(form, "tricks", f"tricks.{seat}", whose(players[seat], "tricks"), 0, left)
        what = M("%(name)s's tricks: %(tricks)s", name=players[seat], tricks=tricks[seat])
        missing = [s for s, t in enumerate(tricks) if t is None]
        rest = left - tricks[seat]
        if len(missing) == 1 or (missing and rest == 0):  # the rest of the tricks can only be theirs
            for s in missing:
                tricks[s] = rest if len(missing) == 1 else 0
            names: str = players[missing[0]]
            for s in missing[1:]:
                names = M("%(names)s and %(last)s", names=names, last=players[s])
            what = M(
                "%(what)s (so %(names)s took %(tricks)s)",
                what=what,
                names=names,
                tricks=rest if len(missing) == 1 else 0,
            )
        return Pending({**pending, "tricks": tricks}, what=what)

    def refused(self, view: GameView, action: str, form: Mapping[str, str]) -> str:
        """A stale bid or trump: the value the screen sent beside the one recorded now.

        The bid form names the seat it asked for (`seat`), so a bid meant for Cat is never told as
        someone else's, and a different bid is never called a repeat of the recorded one."""
        pending = view.game.pending or {}
        if action == "trump" and form.get("trump") in {t.value for t in TRUMP_CHOICES}:
            sent, kept = Trump(form["trump"]).label, pending.get("trump")
            if kept is None:
                return M("Your choice of %(trump)s as trump was not applied.", trump=sent)
            if kept == form["trump"]:
                return M("The trump, %(trump)s, was already recorded; it was not applied twice.", trump=sent)
            return M(
                "The trump is recorded as %(kept)s; your choice of %(trump)s was not applied.",
                kept=Trump(str(kept)).label,
                trump=sent,
            )
        players = view.setup.players
        if action == "tricks":
            seat, sent = whole_number(form.get("seat") or ""), whole_number(form.get("tricks") or "")
            if seat is None or sent is None or seat >= len(players):
                return ""
            kept = _tricks_so_far(pending, len(players))[seat]
            name = players[seat]
            if kept is None:
                return M("Your %(sent)s tricks for %(name)s were not applied.", sent=sent, name=name)
            if kept == sent:
                return M(
                    "%(name)s's %(kept)s tricks were already recorded; they were not applied twice.",
                    name=name,
                    kept=kept,
                )
            return M(
                "%(name)s's tricks are recorded as %(kept)s; your %(sent)s for %(name)s was not applied.",
                name=name,
                kept=kept,
                sent=sent,
            )
        if action != "bid":
            return ""
        seat, bid = whole_number(form.get("seat") or ""), whole_number(form.get("bid") or "")
        if seat is None or bid is None or seat >= len(players):
            return ""
        bids = list(pending.get("bids") or [])
        kept = bids[seat] if seat < len(bids) else None
        name = players[seat]
        if kept is None:
            return M("Your bid of %(bid)s for %(name)s was not applied.", bid=bid, name=name)
        if kept == bid:
            return M("%(name)s's bid of %(kept)s was already recorded; it was not applied twice.", name=name, kept=kept)
        return M(
            "%(name)s's bid of %(kept)s is recorded; your bid of %(bid)s for %(name)s was not applied.",
            name=name,
            kept=kept,
            bid=bid,
        )

    def parse_edit(self, view: GameView, number: int, form: Mapping[str, str]) -> RawHand:
        spec = view.sheet.lines[number - 1].spec
        players = view.setup.players
        entry: dict[str, object] = {}
        if form.get("trump"):
            entry["trump"] = _trump(form.get("trump"))
            if self.trump_override and entry["trump"] == _scheduled(view, number):
                del entry["trump"]  # as scheduled
        if spec.kind is not RoundKind.MISERE:
            entry["bids"] = form_ints(form, "bids", players, "bid", spec.cards)
        entry["tricks"] = form_ints(form, "tricks", players, "tricks", spec.cards)
        if _remote(view):
            entry["shared"] = form_ints(form, "shared", players, "shared tricks", spec.cards)
        return entry


def _scheduled(view: GameView, number: int) -> str | None:
    """The trump the schedule gives round `number`, before any change by the scorer."""
    trump = view.variant.round_spec(view.setup, number).trump
    return trump.value if trump is not None else None


def _tricks_so_far(pending: Mapping[str, object] | None, seats: int) -> list[int | None]:
    """Each player's tricks tapped so far in the hand in hand (None: not yet)."""
    raw = (pending or {}).get("tricks")
    tricks = [t if isinstance(t, int) else None for t in raw] if isinstance(raw, list) else []
    return (tricks + [None] * seats)[:seats]


def _trump(raw: str | None) -> str:
    codes = {t.value for t in TRUMP_CHOICES}
    if raw not in codes:
        raise RuleErrors([RuleError("trump", M("choose the trump: hearts, diamonds, clubs, spades or no trumps"))])
    return raw


def _without_last_bid(
    pending: dict[str, object], first_bidder: int | None, seats: int
) -> tuple[dict[str, object] | None, int]:
    """Take back the latest bid in bidding order (the one tapped last); also says whose it was."""
    bids = list(pending.get("bids") or [])
    if first_bidder is None or not any(b is not None for b in bids):
        raise RuleErrors([RuleError("bids", M("there is no bid to take back"))])
    order = [(first_bidder + i) % seats for i in range(seats)]
    last = [s for s in order if s < len(bids) and bids[s] is not None][-1]
    bids[last] = None
    rest = {**pending, "bids": bids}
    if not any(b is not None for b in bids):
        del rest["bids"]
    return rest or None, last


ADAPTER = BidsAndTricks(lambda setup, cards: nomination.make_plan(setup).hook(cards))
AUSTRALIAN = BidsAndTricks(lambda setup, cards: True, trump_override=True)  # the hook binds every round
