"""Bid Whist: the auction tapped call by call, then the declaration and the books taken.

The auction is kept as the pending part of the hand; when the fourth call is in, the winning
bid (bidder, number, kind) is written into the entry from it, so nobody types it twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from scorepad.form_input import whole_number
from scorepad.games.entry.base import Complete, Pending, form_int
from scorepad.games.service import StaleForm
from scorepad.rules.base import RawHand, RuleError, RuleErrors
from scorepad.rules.bid_whist import SEATS, Call, Kind, auction_winner, legal_calls, seat_names
from scorepad.rules.cards import SUITS
from scorepad.rules.errors import M, Message

if TYPE_CHECKING:
    from scorepad.games.service import GameView

BOOKS = 13
RULINGS = ("upheld", "overruled")  # the renege ruling chips; "none" records no renege


def _calls(raw: object) -> list[Call | None]:
    """The pending auction as calls (it was checked by the rules when it was stored)."""
    calls: list[Call | None] = []
    for item in raw if isinstance(raw, list) else []:
        calls.append(Call(int(item["bid"]), Kind(item["kind"])) if isinstance(item, dict) else None)
    return calls


def _as_json(call: Call | None) -> dict[str, object] | None:
    return None if call is None else {"bid": call.bid, "kind": call.kind.value}


def _whose_call(name: str, call: Call | None) -> Message:
    """ "Ann's bid of 5 No" or "Ann's pass", in words a reader's language can say."""
    return (
        M("%(player)s's bid of %(call)s", player=name, call=call.said())
        if call
        else M("%(player)s's pass", player=name)
    )


def _parse_call(raw: str | None) -> Call | None:
    """'pass' or '<bid>-<kind>' (e.g. '5-no') from a tapped button."""
    if raw == "pass":
        return None
    bid, _, kind = (raw or "").partition("-")
    try:
        return Call(int(bid), Kind(kind))
    except ValueError:
        raise RuleErrors([RuleError("auction", M("tap a bid or Pass"))]) from None


class BidWhistEntry:
    template = "games/entry/_bid_whist.html"
    edit_template = "games/entry/_bid_whist_edit.html"
    # the rules default to the tournament's 4-hand rounds (events and stored records rely on it);
    # a game from "Start a new game" plays to 7 points, as a kitchen table expects
    home_defaults: Mapping[str, str] = {"play_to": "points"}

    def context(self, view: GameView) -> dict[str, object]:
        pending = view.game.pending or {}
        calls = _calls(pending.get("auction"))
        spec = view.state.next_round
        seats = seat_names(view.setup)
        highest = next((c for c in reversed(calls) if c is not None), None)
        first = spec.first_bidder if spec and spec.first_bidder is not None else 0
        said = [(seats[(first + i) % SEATS], c.said() if c else M("Pass")) for i, c in enumerate(calls)]
        dealer_forced = (
            len(calls) == SEATS - 1 and highest is None and view.setup.options.get_str("all_pass") == "dealer"
        )
        return {
            "calls": legal_calls(highest),
            "can_pass": not dealer_forced,
            "said": said,
            "seats": seats,
            "suits": SUITS,
            "won": pending.get("bidder"),
            "winning": self._winning(pending),
            "trump_words": M("named by the winning bidder"),
        }

    @staticmethod
    def _winning(pending: Mapping[str, object]) -> str:
        if pending.get("bid") is None:
            return ""
        return Call(int(str(pending["bid"])), Kind(str(pending["kind"]))).said()

    def apply(self, view: GameView, action: str, form: Mapping[str, str]) -> Pending | Complete:
        spec = view.state.next_round
        if spec is None:
            raise RuleErrors([RuleError("hand", M("The game is over: no more hands can be entered."))])
        pending = dict(view.game.pending or {})
        calls = _calls(pending.get("auction"))
        if action == "call":
            if "position" in form and whole_number(form["position"]) != len(calls):
                # a call meant for another place in the auction (one tapped offline, after a call that was
                # refused or made meanwhile on another phone): never recorded as the next bidder's
                raise StaleForm()
            if len(calls) >= SEATS:
                raise RuleErrors([RuleError("auction", M("the bidding is over: enter the books"))])
            calls.append(_parse_call(form.get("call")))
            seats = seat_names(view.setup)
            what = _whose_call(seats[((spec.first_bidder or 0) + len(calls) - 1) % SEATS], calls[-1])
            if len(calls) == SEATS and not any(calls) and view.setup.options.get_str("all_pass") == "redeal":
                dealer = seats[spec.dealer]
                return Pending(
                    None,
                    notice=M(
                        "All four passed: the cards are thrown in and %(dealer)s deals "
                        "again. Enter the calls of the new deal.",
                        dealer=dealer,
                    ),
                    what=M("%(call)s (the fourth pass: a new deal)", call=what),
                )
            pending = {"auction": [_as_json(c) for c in calls]}
            won = auction_winner(calls, spec.first_bidder or 0) if len(calls) == SEATS else None
            if won is not None:
                pending.update(bidder=won[0], bid=won[1].bid, kind=won[1].kind.value)
            return Pending(pending, what=what)
        if action == "uncall":
            if not calls:
                raise RuleErrors([RuleError("auction", M("there is no call to take back"))])
            rest = calls[:-1]
            whose = seat_names(view.setup)[((spec.first_bidder or 0) + len(rest)) % SEATS]
            return Pending(
                {"auction": [_as_json(c) for c in rest]} if rest else None,
                what=M("taking back %(call)s", call=_whose_call(whose, calls[-1])),
            )
        if action == "result":
            return Complete(self._result(form, view))
        raise RuleErrors([RuleError("action", M("this screen cannot do that: reload the page and try again"))])

    def refused(self, view: GameView, action: str, form: Mapping[str, str]) -> str:
        """A stale call: the call the screen sent beside the one recorded in its place now.

        The call form says where in the auction it was made (`position`: the calls before it)."""
        position = whole_number(form.get("position") or "")
        spec = view.state.next_round
        if action != "call" or position is None or position >= SEATS or spec is None:
            return ""
        try:
            sent = _parse_call(form.get("call"))
        except RuleErrors:
            return ""
        calls = _calls((view.game.pending or {}).get("auction"))
        if position >= len(calls):
            return (
                M("Your bid of %(call)s was not applied.", call=sent.said())
                if sent
                else M("Your pass was not applied.")
            )
        name = seat_names(view.setup)[((spec.first_bidder or 0) + position) % SEATS]
        kept = calls[position]
        if kept == sent:
            return M("%(call)s was already recorded; it was not applied twice.", call=_whose_call(name, kept))
        if sent is None:
            return M(
                "%(call)s is recorded; your pass for %(player)s was not applied.",
                call=_whose_call(name, kept),
                player=name,
            )
        return M(
            "%(call)s is recorded; your bid of %(sent)s for %(player)s was not applied.",
            call=_whose_call(name, kept),
            sent=sent.said(),
            player=name,
        )

    def _result(self, form: Mapping[str, str], view: GameView) -> dict[str, object]:
        entry: dict[str, object] = {}
        errors: list[RuleError] = []
        for key in ("direction", "trump"):
            if form.get(key):
                entry[key] = form[key]
        try:
            entry["books"] = form_int(form, "books", "books", M("the books the bidders took"), 0, BOOKS)
        except RuleError as e:
            errors.append(e)
        try:
            renege = self._renege(form)
        except RuleErrors as e:
            errors.extend(e.errors)
        else:
            if renege is not None:
                entry["renege"] = renege
        if errors:
            raise RuleErrors(errors)
        return entry

    @staticmethod
    def _renege(form: Mapping[str, str]) -> dict[str, object] | None:
        """The ruling chosen is what records a renege: upheld, not upheld, or none (left out or cleared).

        Choosing the team or the caller without a ruling is an error rather than a renege quietly
        dropped; choosing "No renege" clears one (the team and caller chips cannot be unticked).
        """
        ruling = form.get("renege") or ""
        if ruling == "none" or (not ruling and not form.get("renege.offender") and not form.get("renege.called_by")):
            return None
        if ruling not in RULINGS:
            raise RuleErrors([RuleError("renege", M("say whether the renege was upheld or not (or choose No renege)"))])
        errors: list[RuleError] = []
        renege: dict[str, object] = {"upheld": ruling == "upheld"}
        for key, what, high in (
            ("offender", M("the team that reneged"), 1),
            ("called_by", M("who called the renege"), 3),
        ):
            try:
                renege[key] = form_int(form, f"renege.{key}", f"renege.{key}", what, 0, high)
            except RuleError as e:
                errors.append(e)
        if errors:
            raise RuleErrors(errors)
        return {"offender": renege["offender"], "called_by": renege["called_by"], "upheld": renege["upheld"]}

    def parse_edit(self, view: GameView, number: int, form: Mapping[str, str]) -> RawHand:
        entry = self._result(form, view)
        errors: list[RuleError] = []
        try:
            entry["bidder"] = form_int(form, "bidder", "bidder", M("who won the bid"), 0, 3)
            entry["bid"] = form_int(form, "bid", "bid", M("the bid"), 4, 7)
        except RuleError as e:
            errors.append(e)
        entry["kind"] = form.get("kind", "")
        # the form offers both trumps and a No bid's direction: keep the one the kind of bid uses
        entry.pop("trump" if entry["kind"] == "no" else "direction", None)
        if errors:
            raise RuleErrors(errors)
        old = view.hands[number - 1]
        calls = _calls(old.get("auction"))
        won = auction_winner(calls, view.sheet.lines[number - 1].spec.first_bidder or 0) if calls else None
        if won and (won[0], won[1].bid, won[1].kind.value) == (entry["bidder"], entry["bid"], entry["kind"]):
            entry["auction"] = old["auction"]  # the auction still agrees with the corrected bid
        return entry


ADAPTER = BidWhistEntry()
