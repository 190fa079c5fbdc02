"""What every entry adapter speaks: the steps it returns (`Pending`, `Complete`), the `Adapter`
protocol, and reading whole numbers from a hand's form with messages that name the field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from scorepad.rules.base import M, Message, RawHand, RuleError, RuleErrors

if TYPE_CHECKING:
    from scorepad.games.service import GameView


@dataclass(frozen=True)
class Pending:
    """Keep this as the partly entered hand (bids so far, a trump); None clears it."""

    data: dict[str, object] | None
    notice: str = ""  # said to the scorer when the step does more than the tap (a redeal)
    what: str = ""  # the tap in words, for Undo and Redo ("Cat's bid of 2")


@dataclass(frozen=True)
class Complete:
    """Finish the hand: this is merged over the pending part and checked by the rules."""

    entry: dict[str, object]


class Adapter(Protocol):
    template: str  # the hand panel for the current hand
    edit_template: str  # the correction form of a recorded hand
    # options the home set-up form starts at where the rules' default is an event's
    home_defaults: Mapping[str, str]

    def context(self, view: GameView) -> dict[str, object]:
        """What the hand panel shows beyond the game state (choices, reasons)."""

    def apply(self, view: GameView, action: str, form: Mapping[str, str]) -> Pending | Complete:
        """Read one action on the current hand (a bid, a trump, the result)."""

    def parse_edit(self, view: GameView, number: int, form: Mapping[str, str]) -> RawHand:
        """Read a whole corrected hand from the correction form."""

    def refused(self, view: GameView, action: str, form: Mapping[str, str]) -> str:
        """A form made from an older state of the hand was refused: what it asked for and what is
        recorded now, in words ("" when there is nothing more to say than that it was refused)."""


def whose(name: str, what: str) -> Message:
    """ "Cat's bid": a player's count, said as each language says it."""
    if what == "bid":
        return M("%(name)s's bid", name=name)
    if what == "shared tricks":
        return M("%(name)s's shared tricks", name=name)
    if what == "tricks":
        return M("%(name)s's tricks", name=name)
    return M("%(name)s's %(what)s", name=name, what=what)


def form_int(form: Mapping[str, str], name: str, field: str, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number from the form, or a RuleError naming the field."""
    raw = (form.get(name) or "").strip()
    if not raw:
        raise RuleError(field, M("choose %(what)s", what=what))
    try:
        value = int(raw)
    except ValueError:
        raise RuleError(field, M("%(what)s must be a whole number", what=what)) from None
    if value < low or (high is not None and value > high):
        raise RuleError(
            field,
            M("%(what)s must be between %(low)s and %(high)s", what=what, low=low, high=high)
            if high is not None
            else M("%(what)s must be at least %(minimum)s", what=what, minimum=low),
        )
    return value


def form_ints(form: Mapping[str, str], prefix: str, names: tuple[str, ...], what: str, high: int) -> list[int]:
    """One whole number per player (`prefix.0`, `prefix.1`, ...), all errors reported together."""
    values: list[int] = []
    errors: list[RuleError] = []
    for i, name in enumerate(names):
        try:
            values.append(form_int(form, f"{prefix}.{i}", f"{prefix}.{i}", whose(name, what), 0, high))
        except RuleError as e:
            errors.append(e)
    if errors:
        raise RuleErrors(errors)
    return values
