"""Entry adapters: turn the taps on a hand's form into the raw entry the rules engine reads.

Each variant's screen differs (bids then tricks, tricks per side, an auction then books), so each
has an adapter with its template; the games views stay variant-blind and ask `adapter_for(key)`.
An adapter only reshapes form fields into the record format: every rule is checked by the rules
engine when the service stores the result.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorepad.games import service as games
from scorepad.games.entry import bid_whist, bids_tricks, whist
from scorepad.games.entry.base import Adapter, Complete, Pending
from scorepad.models import Game

__all__ = ["HOME_VARIANTS", "Adapter", "Complete", "Pending", "adapter_for", "tap"]


def adapter_for(variant: str) -> Adapter:
    """The adapter of a variant that can be played as a home game; KeyError otherwise."""
    adapters: dict[str, Adapter] = {
        "nomination": bids_tricks.BidsAndTricks(player_range=(3, 7)),
        "australian": bids_tricks.BidsAndTricks(player_range=(2, 7)),
        "whist": whist.ADAPTER,
        "bid_whist": bid_whist.ADAPTER,
    }
    return adapters[variant]


HOME_VARIANTS = ("whist", "bid_whist", "nomination", "australian")


def tap(game: Game, action: str, form: Mapping[str, str]) -> games.GameView:
    """One tap of the scoring page applied as its entry view applies it, without a request (no form
    state to check): how the benchmarks and the tests play a hand through the adapters."""
    before = games.view(game)
    step = adapter_for(game.variant).apply(before, action, {"action": action, **form})
    if isinstance(step, Complete):
        return games.enter_hand(game, int(form["number"]), step.entry, before)
    return games.set_pending(game, step.data, before, what=step.what)
