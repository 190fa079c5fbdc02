"""Bid Whist: the auction tapped call by call, then the declaration and the books taken.

The auction is kept as the pending part of the hand; when the fourth call is in, the winning
bid (bidder, number, kind) is written into the entry from it, so nobody types it twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from scorepad.entry import Complete, Pending, form_int
from scorepad.rules.base import RawHand, RuleError, RuleErrors
from scorepad.rules.bid_whist import SEATS, Call, Kind, auction_winner, legal_calls, seat_names
from scorepad.rules.cards import SUITS

if TYPE_CHECKING:
    from scorepad.games import GameView

BOOKS = 13


def _calls(raw: object) -> list[Call | None]:
    """The pending auction as calls (it was checked by the rules when it was stored)."""
    calls: list[Call | None] = []
    for item in raw if isinstance(raw, list) else []:
        calls.append(Call(int(item["bid"]), Kind(item["kind"])) if isinstance(item, dict) else None)
    return calls


def _as_json(call: Call | None) -> dict[str, object] | None:
    return None if call is None else {"bid": call.bid, "kind": call.kind.value}


def _parse_call(raw: str | None) -> Call | None:
    """'pass' or '<bid>-<kind>' (e.g. '5-no') from a tapped button."""
    if raw == "pass":
        return None
    bid, _, kind = (raw or "").partition("-")
    try:
        return Call(int(bid), Kind(kind))
    except ValueError:
        raise RuleErrors([RuleError("auction", "tap a bid or Pass")]) from None


class BidWhistEntry:
    template = "games/entry/_bid_whist.html"
    edit_template = "games/entry/_bid_whist_edit.html"
    partnerships = True
    player_range = (4, 4)

    def context(self, view: GameView) -> dict[str, object]:
        pending = view.game.pending or {}
        calls = _calls(pending.get("auction"))
        spec = view.state.next_round
        seats = seat_names(view.setup)
        highest = next((c for c in reversed(calls) if c is not None), None)
        first = spec.first_bidder if spec and spec.first_bidder is not None else 0
        said = [(seats[(first + i) % SEATS], str(c) if c else "Pass") for i, c in enumerate(calls)]
        dealer_forced = (len(calls) == SEATS - 1 and highest is None
                         and view.setup.options.get_str("all_pass") == "dealer")
        return {
            "calls": legal_calls(highest), "can_pass": not dealer_forced, "said": said, "seats": seats,
            "suits": SUITS, "won": pending.get("bidder"), "winning": self._winning(pending),
        }

    @staticmethod
    def _winning(pending: Mapping[str, object]) -> str:
        if pending.get("bid") is None:
            return ""
        return str(Call(int(str(pending["bid"])), Kind(str(pending["kind"]))))

    def apply(self, view: GameView, action: str, form: Mapping[str, str]) -> Pending | Complete:
        spec = view.state.next_round
        if spec is None:
            raise RuleErrors([RuleError("hand", "The game is over: no more hands can be entered.")])
        pending = dict(view.game.pending or {})
        calls = _calls(pending.get("auction"))
        if action == "call":
            if len(calls) >= SEATS:
                raise RuleErrors([RuleError("auction", "the bidding is over: enter the books")])
            calls.append(_parse_call(form.get("call")))
            pending = {"auction": [_as_json(c) for c in calls]}
            won = auction_winner(calls, spec.first_bidder or 0) if len(calls) == SEATS else None
            if won is not None:
                pending.update(bidder=won[0], bid=won[1].bid, kind=won[1].kind.value)
            return Pending(pending)
        if action == "uncall":
            if not calls:
                raise RuleErrors([RuleError("auction", "there is no call to take back")])
            rest = calls[:-1]
            return Pending({"auction": [_as_json(c) for c in rest]} if rest else None)
        if action == "result":
            return Complete(self._result(form, view))
        raise RuleErrors([RuleError("action", f"'{action}' is not something this screen can do")])

    def _result(self, form: Mapping[str, str], view: GameView) -> dict[str, object]:
        entry: dict[str, object] = {}
        errors: list[RuleError] = []
        for key in ("direction", "trump"):
            if form.get(key):
                entry[key] = form[key]
        try:
            entry["books"] = form_int(form, "books", "books", "the books the bidders took", 0, BOOKS)
        except RuleError as e:
            errors.append(e)
        if form.get("renege") == "on":
            try:
                entry["renege"] = {
                    "offender": form_int(form, "renege.offender", "renege.offender", "the team that reneged", 0, 1),
                    "called_by": form_int(form, "renege.called_by", "renege.called_by", "who called it", 0, 3),
                    "upheld": form.get("renege.upheld") == "on",
                }
            except RuleError as e:
                errors.append(e)
        if errors:
            raise RuleErrors(errors)
        return entry

    def parse_edit(self, view: GameView, number: int, form: Mapping[str, str]) -> RawHand:
        entry = self._result(form, view)
        errors: list[RuleError] = []
        try:
            entry["bidder"] = form_int(form, "bidder", "bidder", "who won the bid", 0, 3)
            entry["bid"] = form_int(form, "bid", "bid", "the bid", 4, 7)
        except RuleError as e:
            errors.append(e)
        entry["kind"] = form.get("kind", "")
        if errors:
            raise RuleErrors(errors)
        old = view.game.hands[number - 1].entry
        calls = _calls(old.get("auction"))
        won = auction_winner(calls, view.sheet.lines[number - 1].spec.first_bidder or 0) if calls else None
        if won and (won[0], won[1].bid, won[1].kind.value) == (entry["bidder"], entry["bid"], entry["kind"]):
            entry["auction"] = old["auction"]  # the auction still agrees with the corrected bid
        return entry


ADAPTER = BidWhistEntry()
