"""Classic Whist: the trump turned up (unless the sequence fixes it), tricks, honours held.

The scorer taps one side's tricks; the other side's are the rest of the 13, so they cannot
disagree. Honours are one choice (who held three or four), so both sides can never claim them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from scorepad.games.entry.base import Complete, Pending, form_int
from scorepad.rules.base import RawHand, RoundSpec, RuleError, RuleErrors
from scorepad.rules.cards import SUITS
from scorepad.rules.errors import M
from scorepad.rules.whist import seat_names

if TYPE_CHECKING:
    from scorepad.games.service import GameView

TRICKS = 13


def honour_choices(teams: tuple[str, ...]) -> list[tuple[str, str]]:
    """(value, label) for the honours question: nobody, or a side with three or all four."""
    choices: list[tuple[str, str]] = [("", M("Split 2-2, or not claimed"))]
    for t, name in enumerate(teams):
        choices += [(f"{t}-4", M("%(side)s: all four", side=name)), (f"{t}-3", M("%(side)s: three", side=name))]
    return choices


class WhistEntry:
    template = "games/entry/_whist.html"
    edit_template = "games/entry/_whist_edit.html"
    home_defaults: Mapping[str, str] = {}

    def context(self, view: GameView) -> dict[str, object]:
        return {
            "honour_choices": honour_choices(view.setup.columns),
            "suits": SUITS,
            "honours_on": view.setup.options.get_bool("honours"),
        }

    def apply(self, view: GameView, action: str, form: Mapping[str, str]) -> Pending | Complete:
        spec = view.state.next_round
        if spec is None:
            raise RuleErrors([RuleError("hand", M("The game is over: no more hands can be entered."))])
        if action != "result":
            raise RuleErrors([RuleError("action", M("this screen cannot do that: reload the page and try again"))])
        return Complete(self._read(view, spec, form))

    def parse_edit(self, view: GameView, number: int, form: Mapping[str, str]) -> RawHand:
        return self._read(view, view.sheet.lines[number - 1].spec, form)

    def refused(self, view: GameView, action: str, form: Mapping[str, str]) -> str:
        return ""  # a Whist hand is one form, refused as a hand already saved (its number)

    def _read(self, view: GameView, spec: RoundSpec, form: Mapping[str, str]) -> dict[str, object]:
        teams = view.setup.columns
        errors: list[RuleError] = []
        entry: dict[str, object] = {}
        try:
            first = form_int(form, "tricks", "tricks", M("the tricks %(side)s took", side=teams[0]), 0, TRICKS)
            entry["tricks"] = [first, TRICKS - first]
        except RuleError as e:
            errors.append(e)
        trump = form.get("trump") or ""
        if not trump and spec.trump is None:  # said with the tricks, not after them, and in words
            dealer = seat_names(view.setup)[spec.dealer]
            errors.append(
                RuleError(
                    "trump",
                    M(
                        "choose the trump turned up by %(dealer)s, the dealer: hearts, diamonds, clubs or spades",
                        dealer=dealer,
                    ),
                )
            )
        if trump:
            if trump not in {s.value for s in SUITS}:
                errors.append(RuleError("trump", M("choose the trump turned up: hearts, diamonds, clubs or spades")))
            entry["trump"] = trump
        honours = form.get("honours") or ""
        if honours:
            side, _, count = honours.partition("-")
            if side not in ("0", "1") or count not in ("3", "4"):
                errors.append(RuleError("honours", M("choose who held the honours")))
            else:
                held = [0, 0]
                held[int(side)] = int(count)
                held[1 - int(side)] = 4 - int(count)
                entry["honours"] = held
        if errors:
            raise RuleErrors(errors)
        return entry


ADAPTER = WhistEntry()
