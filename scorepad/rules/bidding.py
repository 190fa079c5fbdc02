"""Bidding and trick-count checks shared by the bid-exactly variants (Nomination, Australian).

Bids and tricks are stored in seat order (the order of `Setup.players`); bidding itself goes
clockwise from the first bidder, so the last bidder is the seat before the first bidder.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.rules.base import ErrorCollector, RuleError


def bidding_order(seats: int, first_bidder: int) -> tuple[int, ...]:
    """Seat indices in the order they bid."""
    return tuple((first_bidder + i) % seats for i in range(seats))


def hook_forbidden(cards: int, earlier_bids: Sequence[int]) -> int | None:
    """The one bid the last bidder may not make: the one that makes the total equal `cards`.

    None when no legal bid could reach the total (the earlier bids already exceed it).
    """
    value = cards - sum(earlier_bids)
    return value if 0 <= value <= cards else None


def legal_bids(cards: int, earlier_bids: Sequence[int], seats: int, hook: bool) -> tuple[int, ...]:
    """The bids open to the next bidder, given the bids already made in bidding order."""
    forbidden = hook_forbidden(cards, earlier_bids) if hook and len(earlier_bids) == seats - 1 else None
    return tuple(b for b in range(cards + 1) if b != forbidden)


def parse_counts(raw: object, field: str, names: Sequence[str], maximum: int,
                 what: str = "tricks", allow_missing: bool = False) -> list[int | None]:
    """Read a list with one whole number 0..maximum per seat, naming the seat in each error.

    With `allow_missing`, a shorter list or None items stand for values not entered yet.
    """
    if not isinstance(raw, list):
        raise RuleError(field, f"give the {what} as a list with one number per player")
    if len(raw) > len(names) or (len(raw) < len(names) and not allow_missing):
        raise RuleError(field, f"give {what} for all {len(names)} players, not {len(raw)}")
    errors = ErrorCollector()
    values: list[int | None] = []
    for i, name in enumerate(names):
        item = raw[i] if i < len(raw) else None
        if item is None and allow_missing:
            values.append(None)
            continue
        if isinstance(item, bool) or not isinstance(item, int):
            errors.add(RuleError(f"{field}.{i}", f"{name}'s {what} must be a whole number"))
        elif not 0 <= item <= maximum:
            errors.add(RuleError(f"{field}.{i}", f"{name}'s {what} must be between 0 and {maximum}"))
        values.append(item if isinstance(item, int) and not isinstance(item, bool) else None)
    errors.raise_if_any()
    return values


def check_bids(bids: Sequence[int | None], names: Sequence[str], cards: int, first_bidder: int,
               hook: bool, field: str = "bids") -> None:
    """Apply the hook rule to bids in seat order; bids must be made in bidding order."""
    order = bidding_order(len(names), first_bidder)
    made: list[int] = []
    for position, seat in enumerate(order):
        bid = bids[seat]
        if bid is None:
            later = [s for s in order[position + 1:] if bids[s] is not None]
            if later:
                raise RuleError(f"{field}.{later[0]}",
                                f"{names[later[0]]} cannot bid before {names[seat]}")
            return
        if hook and position == len(order) - 1:
            forbidden = hook_forbidden(cards, made)
            if bid == forbidden:
                raise RuleError(
                    f"{field}.{seat}",
                    f"{names[seat]} bids last and may not bid {bid}: the bids would total {cards}, "
                    f"the number of tricks",
                )
        made.append(bid)


def check_trick_total(tricks: Sequence[int], cards: int, field: str = "tricks") -> None:
    """Every trick is won by exactly one player: the counts add up to the cards dealt."""
    total = sum(tricks)
    if total != cards:
        there = "there is 1 trick" if cards == 1 else f"there are {cards} tricks"
        raise RuleError(field, f"the tricks add up to {total} but {there} in this hand")
