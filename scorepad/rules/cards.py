"""Cards vocabulary shared by every variant: suits, trumps and their names.

Trumps are a small closed set (four suits, no-trumps, and Military Whist's NT High and NT Low),
so they are an enum whose value is the short code stored in game records.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from scorepad.rules.errors import M, RuleError, quoted


class Trump(str, Enum):
    """A hand's trump: a suit, or one of the no-trump kinds."""

    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"
    NO_TRUMPS = "NT"
    NT_HIGH = "NTH"
    NT_LOW = "NTL"

    @property
    def is_suit(self) -> bool:
        return self in SUITS

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


SUITS: tuple[Trump, ...] = (Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS, Trump.SPADES)

_LABELS = {
    Trump.HEARTS: M("Hearts"),
    Trump.DIAMONDS: M("Diamonds"),
    Trump.CLUBS: M("Clubs"),
    Trump.SPADES: M("Spades"),
    Trump.NO_TRUMPS: M("No trumps"),
    Trump.NT_HIGH: M("No trumps (High)"),
    Trump.NT_LOW: M("No trumps (Low: giveaway)"),
}
_SYMBOLS = {
    Trump.HEARTS: "♥",
    Trump.DIAMONDS: "♦",
    Trump.CLUBS: "♣",
    Trump.SPADES: "♠",
    Trump.NO_TRUMPS: "NT",
    Trump.NT_HIGH: "NT High",
    Trump.NT_LOW: "NT Low",
}


def parse_trump(raw: object, field: str, allowed: Iterable[Trump] = SUITS) -> Trump:
    """Read a trump code from a record, accepting only the kinds this hand may have."""
    allowed = tuple(allowed)
    codes = ", ".join(t.value for t in allowed)
    if not isinstance(raw, str):
        raise RuleError(field, M("the trump must be one of %(codes)s", codes=codes))
    try:
        trump = Trump(raw.strip().upper())
    except ValueError:
        raise RuleError(
            field, M("%(value)s is not a trump; use one of %(codes)s", value=quoted(raw), codes=codes)
        ) from None
    if trump not in allowed:
        raise RuleError(field, M("%(trump)s is not allowed here; use one of %(codes)s", trump=trump.label, codes=codes))
    return trump
