"""Undo and redo of one tap at a time, kept on the game's row.

A tap either changes the hand in hand (a trump, a bid, a call, one player's tricks: the game's
`pending` part) or saves the hand; a correction of a recorded hand is a step too, so Undo never
skips over it to take back an older save. Each is logged as a step with the state before and after it and
the words for it ("Cat's bid of 2"), so Undo takes back exactly that tap, says which, and Redo puts
it back. A new tap forgets what could be redone, as in any editor. The logs are checked against
the stored state before use: a step that no longer fits (a game changed by another path) is never
applied; the undo then falls back to taking back the hand in hand, or the last hand, whole.

The words are a `Message` (rules/errors.py) where the adapter made one: a step keeps its English
(`what`) and beside it the message's template and params (`said`), so the Undo button reads in the
reader's language; a step stored with English only (`what` alone) still shows it.

Pure functions over plain JSON values: the service stores and commits them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorepad.rules.errors import M, Message, as_said, from_said

LOG_MAX = 40  # steps kept for undo (and for redo): a hand's taps several times over


@dataclass(frozen=True)
class Step:
    """One tap: what it did in words, the hand-in-hand part before and after it, and for a saved
    hand its number and entry (`after` is then empty: saving clears the hand in hand). A correction
    names its hand, its entry after and, in `old`, the entry it replaced (the hand in hand stays as
    it was: `before` and `after` alike)."""

    what: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None = None
    hand: int | None = None
    entry: dict[str, Any] | None = None
    old: dict[str, Any] | None = None

    @property
    def correction(self) -> bool:
        return self.old is not None

    def as_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "what": str(self.what),
            "before": self.before,
            "after": self.after,
            "hand": self.hand,
            "entry": self.entry,
        }
        if self.old is not None:
            stored["old"] = self.old
        if isinstance(self.what, Message):
            stored["said"] = as_said(self.what)
        return stored

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Step:
        english: str = str(raw["what"]) if raw.get("what") else M("the last entry")
        what = from_said(raw.get("said")) if "said" in raw else None
        return cls(
            what if isinstance(what, Message) else english,
            _part(raw.get("before")),
            _part(raw.get("after")),
            raw.get("hand") if isinstance(raw.get("hand"), int) else None,
            _part(raw.get("entry")),
            _part(raw.get("old")),
        )


def _part(value: object) -> dict[str, Any] | None:
    return dict(value) if isinstance(value, Mapping) and value else None


def last(log: list[dict[str, Any]] | None) -> Step | None:
    """The newest step of a log, read alone: the Undo button asks for it on every tap, and reading
    the whole log (up to LOG_MAX steps, each with its words) for it was 7 % of a tap's drawing."""
    for raw in reversed(log or []):
        if isinstance(raw, Mapping):
            return Step.from_json(raw)
    return None


def pushed(log: list[dict[str, Any]] | None, step: Step) -> list[dict[str, Any]]:
    """The log with `step` added last, the oldest steps dropped past LOG_MAX."""
    return [*(log or []), step.as_json()][-LOG_MAX:]


def fits_undo(
    step: Step, pending: Mapping[str, Any] | None, last_hand: int | None, entry: Mapping[str, Any] | None = None
) -> bool:
    """Whether the game stands where `step` left it, so undoing it restores exactly the state before
    (`entry`: the recorded entry of the hand a correction names, as stored now)."""
    if step.correction:
        return _part(pending) == step.after and entry is not None and dict(entry) == step.entry
    if step.hand is not None:
        return not pending and last_hand == step.hand
    return _part(pending) == step.after


def fits_redo(
    step: Step, pending: Mapping[str, Any] | None, hands: int, entry: Mapping[str, Any] | None = None
) -> bool:
    """Whether the game stands where `step` started from, so it can be made again (`entry` as for
    `fits_undo`)."""
    if _part(pending) != step.before:
        return False
    if step.correction:
        return entry is not None and dict(entry) == step.old
    return step.hand is None or step.hand == hands + 1
