"""Bidding and trick-count checks shared by the bid-exactly variants (Nomination, Australian).

Bids and tricks are stored in seat order (the order of `Setup.players`); bidding itself goes
clockwise from the first bidder, so the last bidder is the seat before the first bidder.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from scorepad.rules.base import ErrorCollector, FactSpec, M, Message, RawHand, RoundKind, RuleError, ScoreSheet, Setup


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


def parse_counts(
    raw: object, field: str, names: Sequence[str], maximum: int, what: str = "tricks", allow_missing: bool = False
) -> list[int | None]:
    """Read a list with one whole number 0..maximum per seat, naming the seat in each error.

    With `allow_missing`, a shorter list or None items stand for values not entered yet.
    """
    if not isinstance(raw, list):
        raise RuleError(
            field,
            M("give the bids as a list with one number per player")
            if what == "bid"
            else M("give the tricks as a list with one number per player"),
        )
    if len(raw) > len(names) or (len(raw) < len(names) and not allow_missing):
        raise RuleError(
            field,
            (
                M("give bids for all %(count)s players, not %(given)s", count=len(names), given=len(raw))
                if what == "bid"
                else M("give tricks for all %(count)s players, not %(given)s", count=len(names), given=len(raw))
            ),
        )
    errors = ErrorCollector()
    values: list[int | None] = []
    for i, name in enumerate(names):
        item = raw[i] if i < len(raw) else None
        if item is None and allow_missing:
            values.append(None)
            continue
        if isinstance(item, bool) or not isinstance(item, int):
            errors.add(RuleError(f"{field}.{i}", _not_whole(name, what)))
        elif not 0 <= item <= maximum:
            errors.add(RuleError(f"{field}.{i}", _between(name, what, maximum)))
        values.append(item if isinstance(item, int) and not isinstance(item, bool) else None)
    errors.raise_if_any()
    return values


# One message per count read (`what`): each language says "Ann's bid" its own way.
def _not_whole(name: str, what: str) -> Message:
    if what == "bid":
        return M("%(name)s's bid must be a whole number", name=name)
    if what == "shared tricks":
        return M("%(name)s's shared tricks must be a whole number", name=name)
    return M("%(name)s's tricks must be a whole number", name=name)


def _between(name: str, what: str, maximum: int) -> Message:
    if what == "bid":
        return M("%(name)s's bid must be between 0 and %(maximum)s", name=name, maximum=maximum)
    if what == "shared tricks":
        return M("%(name)s's shared tricks must be between 0 and %(maximum)s", name=name, maximum=maximum)
    return M("%(name)s's tricks must be between 0 and %(maximum)s", name=name, maximum=maximum)


def check_bids(
    bids: Sequence[int | None], names: Sequence[str], cards: int, first_bidder: int, hook: bool, field: str = "bids"
) -> None:
    """Apply the hook rule to bids in seat order; bids must be made in bidding order."""
    order = bidding_order(len(names), first_bidder)
    made: list[int] = []
    for position, seat in enumerate(order):
        bid = bids[seat]
        if bid is None:
            later = [s for s in order[position + 1 :] if bids[s] is not None]
            if later:
                raise RuleError(
                    f"{field}.{later[0]}",
                    M("%(later)s cannot bid before %(earlier)s", later=names[later[0]], earlier=names[seat]),
                )
            return
        if hook and position == len(order) - 1:
            forbidden = hook_forbidden(cards, made)
            if bid == forbidden:
                raise RuleError(
                    f"{field}.{seat}",
                    M(
                        "%(name)s bids last and may not bid %(bid)s: the bids would total %(cards)s, the number of tricks",
                        name=names[seat],
                        bid=bid,
                        cards=cards,
                    ),
                )
        made.append(bid)


def check_trick_total(tricks: Sequence[int], cards: int, field: str = "tricks") -> None:
    """Every trick is won by exactly one player: the counts add up to the cards dealt."""
    total = sum(tricks)
    if total != cards:
        raise RuleError(
            field,
            M("the tricks add up to %(total)s but there is 1 trick in this hand", total=total)
            if cards == 1
            else M(
                "the tricks add up to %(total)s but there are %(cards)s tricks in this hand", total=total, cards=cards
            ),
        )


# --------------------------------------------------------------------------- a group's statistics

EXACT_BIDS = (FactSpec("exact_bids", M("Exact bids"), "exact_bids", "hands_bid"),)


def count_bids(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, column: int) -> Mapping[str, int]:
    """Nomination and Australian: a cell with a bid is a hand bid; `made` is the exact bid. In
    Australian's misère round nobody bids and `made` means no trick won; its blind round is bid
    before the cards are seen (rules/australian-whist.txt, "The special rounds" 3 and 4)."""
    counts: defaultdict[str, int] = defaultdict(int)
    for line in sheet.lines:
        cell = line.cells[column]
        if line.spec.kind is RoundKind.MISERE:
            counts["misere_played"] += 1
            counts["misere_made"] += bool(cell.made)
            continue
        if cell.bid is None:
            continue
        counts["hands_bid"] += 1
        counts["exact_bids"] += cell.bid == cell.tricks
        if line.spec.kind is RoundKind.BLIND:
            counts["blind_played"] += 1
            counts["blind_made"] += cell.bid == cell.tricks
    return counts
