"""Entry adapters: turn the taps on a hand's form into the raw entry the rules engine reads.

Each variant's screen differs (bids then tricks, tricks per side, an auction then books), so each
has an adapter with its template; the games views stay variant-blind and ask `adapter_for(key)`.
An adapter only reshapes form fields into the record format: every rule is checked by the rules
engine when the service stores the result. What the variant itself says (who plays, how many) is
read from its `Variant` (`rules.get_variant`), never copied here.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorepad.games import service as games
from scorepad.games.entry import bid_whist, bids_tricks, whist
from scorepad.games.entry.base import Adapter, Complete, Pending
from scorepad.models import Game

__all__ = ["HOME_VARIANTS", "Adapter", "Complete", "Pending", "adapter_for", "tap"]


# The registry of the variants played as home games, in the order they are offered.
_ADAPTERS: dict[str, Adapter] = {
    "whist": whist.ADAPTER,
    "bid_whist": bid_whist.ADAPTER,
    "nomination": bids_tricks.ADAPTER,
    "australian": bids_tricks.AUSTRALIAN,
}

HOME_VARIANTS = tuple(_ADAPTERS)


def adapter_for(variant: str) -> Adapter:
    """The adapter of a variant that can be played as a home game; KeyError otherwise."""
    return _ADAPTERS[variant]


def tap(game: Game, action: str, form: Mapping[str, str]) -> games.GameView:
    """One tap of the scoring page applied as its entry view applies it, without a request (no form
    state to check): how the benchmarks and the tests play a hand through the adapters."""
    before = games.view(game)
    step = adapter_for(game.variant).apply(before, action, {"action": action, **form})
    if isinstance(step, Complete):
        return games.enter_hand(game, int(form["number"]), step.entry, before)
    return games.set_pending(game, step.data, before, what=step.what)
