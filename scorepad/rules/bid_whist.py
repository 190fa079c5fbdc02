"""Bid Whist: two teams bid for the contract, and each hand only one side scores.

54 cards (two jokers), 12 to each player and a kitty of 6 that counts as one book for the
bidding side, so 13 books in all and a bid of N needs 6 + N books. Bids run 4-7 in three kinds:
plain (uptown), Special (downtown) and No (no trumps, doubled). Made: the bidders score the
books above six (option: their bid); set: the opponents score the bid.

The tournament plays rounds of 4 hands (more points wins the round; a tied round is settled by
one extra hand worth no points); a home game goes to a points target. A hand is entered as
{"bidder": 2, "bid": 5, "kind": "no", "direction": "downtown", "books": 11, "auction": [...]};
see docs/game-record.md (Bid Whist).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeVar

from scorepad.rules.base import (
    Cell,
    Choice,
    ErrorCollector,
    FactSpec,
    GameState,
    Line,
    Options,
    OptionSpec,
    RawHand,
    RoundKind,
    RoundSpec,
    RuleError,
    RuleErrors,
    Scoreboard,
    ScoreSheet,
    Setup,
    Standing,
    StatsFacts,
    Variant,
    derived_once,
    key_field,
    leaders,
    quoted,
    rank,
    resolve_options,
)
from scorepad.rules.cards import SUITS, Trump, parse_trump
from scorepad.rules.errors import M, Message, joined

SEATS = 4
CARDS_EACH = 12
BOOKS = 13  # twelve books played plus the kitty, which counts for the bidders
BOOK = 6  # books the bidders need before their bid starts to count
MIN_BID, MAX_BID = 4, 7
HANDS_PER_ROUND = 4
HAND_KEYS = ("bidder", "bid", "kind", "direction", "trump", "books", "renege", "auction")
RENEGE_KEYS = ("offender", "called_by", "upheld")
CALL_KEYS = ("bid", "kind")
_RANK_SPREAD = 10_000  # more than any points total: ranks by (rounds or game won, points)

T = TypeVar("T")


class Kind(str, Enum):
    """The three kinds of bid of document section VI."""

    PLAIN = "plain"  # uptown with trumps: high cards win
    SPECIAL = "special"  # downtown with trumps: low cards win
    NO = "no"  # no trumps; the winner declares uptown or downtown; doubled


class Direction(str, Enum):
    UPTOWN = "uptown"
    DOWNTOWN = "downtown"


IMPLIED_DIRECTION = {Kind.PLAIN: Direction.UPTOWN, Kind.SPECIAL: Direction.DOWNTOWN}

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "play_to",
        M("Play"),
        "rounds",
        choices=(
            Choice("rounds", M("Rounds of 4 hands (tournament)")),
            Choice("points", M("To a points target (home game)")),
        ),
        help=M(
            "Tournament: rounds of 4 hands, the side with more points wins each round and a "
            "tied round is settled by one extra hand worth no points. Home: the first side "
            "to reach the target wins."
        ),
    ),
    OptionSpec(
        "rounds",
        M("Rounds"),
        1,
        minimum=1,
        maximum=20,
        matters=lambda o: o.get_str("play_to") == "rounds",
        help=M(
            "When playing rounds: how many 4-hand rounds the game has; the winner has won "
            "more rounds, then has more points."
        ),
    ),
    OptionSpec(
        "target",
        M("Points for game"),
        7,
        minimum=1,
        maximum=99,
        matters=lambda o: o.get_str("play_to") == "points",
        help=M("When playing to a target: the first side to reach this many points wins."),
    ),
    OptionSpec(
        "made_scores",
        M("A made bid scores"),
        "books",
        choices=(
            Choice("books", M("Every book above six (may exceed the bid)")),
            Choice("bid", M("The bid only (you get what you bid)")),
        ),
        help=M(
            "What the bidders score when they make their bid: the books they actually took "
            "above six (the document's rule), or just the bid (some organisers' rule)."
        ),
    ),
    OptionSpec(
        "boston",
        M("Boston (all 13 books)"),
        "off",
        choices=(
            Choice("off", M("Nothing extra")),
            Choice("bonus", M("Scores a bonus")),
            Choice("wins", M("Wins the round or game outright")),
        ),
        help=M(
            "When the bidders take all 13 books (kitty included): nothing extra, a bonus on "
            "top of the hand's points, or the round (the game, playing to a target) at once."
        ),
    ),
    OptionSpec(
        "boston_bonus",
        M("Boston bonus"),
        7,
        minimum=1,
        maximum=99,
        matters=lambda o: o.get_str("boston") == "bonus",
        help=M(
            "With the Boston bonus: the points added (not doubled on No bids). 7, the home "
            "game, makes a Boston worth a whole game on top of its books."
        ),
    ),
    OptionSpec(
        "all_pass",
        M("When all four pass"),
        "dealer",
        choices=(Choice("dealer", M("The dealer must bid")), Choice("redeal", M("Throw the cards in and redeal"))),
        help=M(
            "The document is silent. Either the dealer, bidding last, may not pass when the "
            "other three have, or the cards are thrown in and the same dealer deals again "
            "(the thrown-in deal is not entered)."
        ),
    ),
)


# --------------------------------------------------------------------------- bids


@dataclass(frozen=True)
class Call:
    """A bid as called at the table: a number 4-7 and a kind."""

    bid: int
    kind: Kind

    @property
    def level(self) -> int:
        """Section VIII: 4 = 4 Special < 4 No < 5 = 5 Special < ... < 7 No."""
        return 2 * self.bid + (1 if self.kind is Kind.NO else 0)

    def outranks(self, other: Call | None) -> bool:
        """A bid must outrank the one before; only No takes out a trump bid of the same number."""
        return other is None or self.level > other.level

    def __str__(self) -> str:
        return str(self.said())

    def said(self) -> str:
        """The call in words a reader's language can say: "5", "5 Special", "5 No"."""
        if self.kind is Kind.SPECIAL:
            return M("%(bid)s Special", bid=self.bid)
        return M("%(bid)s No", bid=self.bid) if self.kind is Kind.NO else str(self.bid)


ALL_CALLS = tuple(Call(b, k) for b in range(MIN_BID, MAX_BID + 1) for k in Kind)


def legal_calls(highest: Call | None) -> tuple[Call, ...]:
    """Every bid that may follow `highest` (None: nobody has bid yet); passing is apart."""
    return tuple(c for c in ALL_CALLS if c.outranks(highest))


def open_calls_words(highest: Call | None) -> str:
    """The bids open after `highest`, in words."""
    if highest is None:
        return M("%(bid)s or more (plain, Special or No)", bid=MIN_BID)
    if highest.kind is Kind.NO:
        return (
            M("%(bid)s or more", bid=highest.bid + 1)
            if highest.bid < MAX_BID
            else M("nothing: 7 No is the highest bid")
        )
    no = Call(highest.bid, Kind.NO).said()
    return M("%(no)s, or %(bid)s or more", no=no, bid=highest.bid + 1) if highest.bid < MAX_BID else no


# --------------------------------------------------------------------------- a hand


@dataclass(frozen=True)
class Renege:
    """A renege called during the hand: the offending team, who called it, the director's ruling."""

    offender: int
    called_by: int
    upheld: bool


@dataclass(frozen=True)
class BidWhistHand:
    """One hand as entered and checked."""

    bidder: int
    call: Call
    direction: Direction
    trump: Trump | None
    books: int  # the bidding side's books, the kitty included
    renege: Renege | None = None
    auction: tuple[Call | None, ...] | None = None

    @property
    def side(self) -> int:
        return self.bidder % 2

    @property
    def needed(self) -> int:
        return BOOK + self.call.bid

    def contract(self) -> str:
        """The contract as a score sheet shows it: "5 ♥", "4 Special", "5 No downtown"."""
        if self.call.kind is Kind.NO:
            return joined([self.call.said(), self.direction.value], " ")
        return joined([self.call.said(), self.trump.symbol], " ") if self.trump else self.call.said()


@dataclass(frozen=True)
class _Entry:
    """A hand's fields as far as they are entered and valid (None: not given)."""

    bidder: int | None = None
    bid: int | None = None
    kind: Kind | None = None
    direction: Direction | None = None
    trump: Trump | None = None
    books: int | None = None
    renege: Renege | None = None
    auction: tuple[Call | None, ...] | None = None


@dataclass(frozen=True)
class _Table:
    """Who sits where and what this hand's bidding looks like, for reading and messages."""

    seats: tuple[str, str, str, str]
    teams: tuple[str, str]
    dealer: int
    all_pass: str

    @property
    def first_bidder(self) -> int:
        return (self.dealer + 1) % SEATS

    def seat_in_order(self, position: int) -> int:
        """The seat making the `position`-th call (0-based) of the auction."""
        return (self.first_bidder + position) % SEATS


def seat_names(setup: Setup) -> tuple[str, str, str, str]:
    """Round the table: team 0's first, team 1's first, team 0's second, team 1's second."""
    pairs = [t.players if t.players else (f"{t.name} 1", f"{t.name} 2") for t in setup.teams]
    return pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]


def _whole(raw: object, field_name: str, low: int, high: int, what: str) -> int:
    """`what` is a Message naming the number ("the bid"), said inside the sentence."""
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(
            field_name, M("%(what)s must be a whole number from %(low)s to %(high)s", what=what, low=low, high=high)
        )
    if not low <= raw <= high:
        raise RuleError(
            field_name,
            M(
                "%(what)s must be from %(low)s to %(high)s, not %(given)s",
                what=what,
                low=low,
                high=high,
                given=quoted(raw),
            ),
        )
    return raw


def _seat(raw: object, field_name: str, table: _Table, what: str) -> int:
    seats = ", ".join(f"{i} {name}" for i, name in enumerate(table.seats))
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < SEATS:
        raise RuleError(field_name, M("%(what)s must be a seat from 0 to 3 (%(seats)s)", what=what, seats=seats))
    return raw


def _kind(raw: object, field_name: str) -> Kind:
    if isinstance(raw, str) and raw in {k.value for k in Kind}:
        return Kind(raw)
    raise RuleError(
        field_name,
        M("the kind of bid must be plain (uptown with trumps), Special (downtown with trumps) or No (no trumps)"),
    )


def _direction(raw: object) -> Direction:
    if isinstance(raw, str) and raw in {d.value for d in Direction}:
        return Direction(raw)
    raise RuleError("direction", M("the No bidder declares uptown (high cards win) or downtown (low cards win)"))


def _unknown(raw: Mapping[str, object], known: Sequence[str], prefix: str, what: str, errors: ErrorCollector) -> None:
    for key in raw:
        if key not in known:
            errors.add(
                RuleError(f"{prefix}{key_field(key)}", M("%(key)s is not part of %(what)s", key=quoted(key), what=what))
            )


def _renege(raw: object, table: _Table) -> Renege:
    """A renege call: the caller must sit on the other team (section XI)."""
    if not isinstance(raw, Mapping):
        raise RuleError(
            "renege",
            M('give the renege as {"offender": team 0 or 1, "called_by": a seat 0-3, "upheld": true or false}'),
        )
    errors = ErrorCollector()
    _unknown(raw, RENEGE_KEYS, "renege.", M("a renege (give offender, called_by and upheld)"), errors)
    offender = called_by = None
    offender_raw = raw.get("offender")
    if isinstance(offender_raw, bool) or offender_raw not in (0, 1):
        errors.add(
            RuleError(
                "renege.offender",
                M(
                    "the offending team must be 0 (%(first)s) or 1 (%(second)s)",
                    first=table.teams[0],
                    second=table.teams[1],
                ),
            )
        )
    else:
        assert isinstance(offender_raw, int)
        offender = offender_raw
    try:
        called_by = _seat(raw.get("called_by"), "renege.called_by", table, M("the player who called the renege"))
    except RuleError as e:
        errors.add(e)
    upheld = raw.get("upheld")
    if not isinstance(upheld, bool):
        errors.add(RuleError("renege.upheld", M("say whether the director upheld the renege: true or false")))
    errors.raise_if_any()
    assert offender is not None and called_by is not None and isinstance(upheld, bool)
    if called_by % 2 == offender:
        raise RuleError(
            "renege.called_by",
            M(
                "%(player)s plays for %(team)s: a team cannot call a renege on themselves, only the opposing team can",
                player=table.seats[called_by],
                team=table.teams[offender],
            ),
        )
    return Renege(offender, called_by, upheld)


def _call(raw: object, field_name: str, who: str) -> Call | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RuleError(
            field_name,
            M(
                '%(player)s\'s call must be null (a pass) or {"bid": 4 to 7, "kind": "plain", "special" or "no"}',
                player=who,
            ),
        )
    errors = ErrorCollector()
    _unknown(raw, CALL_KEYS, f"{field_name}.", M("a call (give bid and kind)"), errors)
    bid = kind = None
    try:
        bid = _whole(raw.get("bid"), f"{field_name}.bid", MIN_BID, MAX_BID, M("%(player)s's bid", player=who))
    except RuleError as e:
        errors.add(e)
    try:
        kind = _kind(raw.get("kind"), f"{field_name}.kind")
    except RuleError as e:
        errors.add(e)
    errors.raise_if_any()
    assert bid is not None and kind is not None
    return Call(bid, kind)


def _refusal(who: str, call: Call, highest: Call, by: str) -> str:
    """Why `call` may not follow `highest`, naming the rule the caller broke."""
    if not legal_calls(highest):
        return M(
            "%(player)s may not bid %(call)s after %(by)s's 7 No: nothing outranks 7 No, so %(player)s must pass",
            player=who,
            call=call.said(),
            by=by,
        )
    words = dict(player=who, call=call.said(), by=by, highest=highest.said(), open=open_calls_words(highest))
    if call.bid == highest.bid and Kind.NO not in (call.kind, highest.kind):
        return M(
            "%(player)s may not bid %(call)s after %(by)s's %(highest)s: a %(call)s does not take out a "
            "%(highest)s (only a No bid takes out a trump bid of the same number); %(player)s may pass or bid "
            "%(open)s",
            **words,
        )
    return M(
        "%(player)s may not bid %(call)s after %(by)s's %(highest)s: a bid must outrank the one before it; "
        "%(player)s may pass or bid %(open)s",
        **words,
    )


def _auction(raw: object, table: _Table, complete: bool) -> tuple[Call | None, ...]:
    """The calls in bidding order: one round, each bid outranking the last; all-pass by the option."""
    if not isinstance(raw, list):
        raise RuleError("auction", M("give the auction as a list of the calls in bidding order, null for a pass"))
    if len(raw) > SEATS or (complete and len(raw) < SEATS):
        raise RuleError(
            "auction",
            M(
                "the bidding goes round once: give all 4 calls (the calls in bidding order, "
                "null for a pass, starting with %(first)s), not %(count)s",
                first=table.seats[table.first_bidder],
                count=len(raw),
            ),
        )
    calls: list[Call | None] = []
    highest: Call | None = None
    highest_by = ""
    for position, item in enumerate(raw):
        who = table.seats[table.seat_in_order(position)]
        call = _call(item, f"auction.{position}", who)
        if call is not None:
            if highest is not None and not call.outranks(highest):
                raise RuleError(f"auction.{position}", _refusal(who, call, highest, highest_by))
            highest, highest_by = call, who
        calls.append(call)
    if len(calls) == SEATS and highest is None:
        dealer = table.seats[table.dealer]
        if table.all_pass == "dealer":
            raise RuleError(
                f"auction.{SEATS - 1}", M("%(dealer)s deals and must bid when the other three pass", dealer=dealer)
            )
        raise RuleError(
            "auction",
            M(
                "all four passed: the cards are thrown in and %(dealer)s deals again; "
                "enter the hand played after the redeal",
                dealer=dealer,
            ),
        )
    return tuple(calls)


def auction_winner(auction: Sequence[Call | None], first_bidder: int) -> tuple[int, Call] | None:
    """The seat and bid of the last bid made (the highest, since each outranks the one before)."""
    for position in range(len(auction) - 1, -1, -1):
        call = auction[position]
        if call is not None:
            return (first_bidder + position) % SEATS, call
    return None


def _take(
    raw: Mapping[str, object], key: str, parse: Callable[[object], T], errors: ErrorCollector, missing: str | None
) -> T | None:
    """Read one field; a null value counts as absent, which is an error only when `missing` says why."""
    value = raw.get(key)
    if value is None:
        if missing is not None:
            errors.add(RuleError(key, missing))
        return None
    try:
        return parse(value)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
        return None


def _read(raw: object, table: _Table, complete: bool) -> _Entry:
    """Check every field of an entry (complete, or partly entered), reporting all problems together."""
    if not isinstance(raw, Mapping):
        raise RuleErrors(
            [
                RuleError(
                    "hand",
                    M('a Bid Whist hand is an object such as {"bidder": 1, "bid": 5, "kind": "plain", "books": 11}'),
                )
            ]
        )
    errors = ErrorCollector()
    _unknown(raw, HAND_KEYS, "", M("a Bid Whist hand"), errors)

    def need(words: str) -> str | None:
        return words if complete else None

    bidder = _take(
        raw,
        "bidder",
        lambda v: _seat(v, "bidder", table, M("the bidder")),
        errors,
        need(M("say who won the bid: a seat from 0 to 3")),
    )
    bid = _take(
        raw,
        "bid",
        lambda v: _whole(v, "bid", MIN_BID, MAX_BID, M("the bid")),
        errors,
        need(M("give the winning bid, 4 to 7")),
    )
    kind = _take(
        raw,
        "kind",
        lambda v: _kind(v, "kind"),
        errors,
        need(M('give the kind of the winning bid: "plain", "special" or "no"')),
    )
    direction = _take(raw, "direction", _direction, errors, None)
    trump = None
    if kind is Kind.NO and raw.get("trump") is not None:
        errors.add(RuleError("trump", M("a No bid is played without trumps: name no trump suit")))
    else:
        trump = _take(raw, "trump", lambda v: parse_trump(v, "trump", SUITS), errors, None)
    books = _take(
        raw,
        "books",
        lambda v: _whole(v, "books", 1, BOOKS, M("the bidding side's books (kitty included)")),
        errors,
        need(M("give the books taken by the bidding side, the kitty counting as one (1 to 13)")),
    )
    renege = _take(raw, "renege", lambda v: _renege(v, table), errors, None)
    auction = _take(raw, "auction", lambda v: _auction(v, table, complete), errors, None)
    if kind is not None:
        _check_direction(kind, direction, raw.get("direction") is None and complete, errors)
    if auction is not None and len(auction) == SEATS:
        _check_agreement(auction, table, bidder, bid, kind, errors)
    errors.raise_if_any()
    return _Entry(bidder, bid, kind, direction, trump, books, renege, auction)


def _check_direction(kind: Kind, direction: Direction | None, missing: bool, errors: ErrorCollector) -> None:
    """Plain and Special imply their direction; the winner of a No bid must declare one."""
    implied = IMPLIED_DIRECTION.get(kind)
    if implied is not None and direction is not None and direction is not implied:
        errors.add(
            RuleError(
                "direction",
                M("a plain bid is played uptown; downtown with trumps is a Special bid")
                if kind is Kind.PLAIN
                else M("a special bid is played downtown; uptown with trumps is a plain bid"),
            )
        )
    elif kind is Kind.NO and missing:
        errors.add(
            RuleError(
                "direction",
                M("the winner of a No bid declares uptown (high cards win) or downtown (low cards win): choose which"),
            )
        )


def _check_agreement(
    auction: Sequence[Call | None],
    table: _Table,
    bidder: int | None,
    bid: int | None,
    kind: Kind | None,
    errors: ErrorCollector,
) -> None:
    """A complete auction's last bid is the contract: it must be the hand's bidder, bid and kind."""
    won = auction_winner(auction, table.first_bidder)
    if won is None:
        return
    seat, call = won
    if bidder is not None and bidder != seat:
        errors.add(
            RuleError(
                "bidder",
                M(
                    "the auction was won by %(player)s (seat %(seat)s), not %(other)s",
                    player=table.seats[seat],
                    seat=seat,
                    other=table.seats[bidder],
                ),
            )
        )
    if bid is not None and bid != call.bid:
        errors.add(
            RuleError(
                "bid",
                M(
                    "%(player)s won the auction with %(call)s, not a bid of %(bid)s",
                    player=table.seats[seat],
                    call=call.said(),
                    bid=bid,
                ),
            )
        )
    elif kind is not None and kind is not call.kind:
        errors.add(
            RuleError(
                "kind",
                M(
                    "%(player)s won the auction with %(call)s, not %(other)s",
                    player=table.seats[seat],
                    call=call.said(),
                    other=Call(call.bid, kind).said(),
                ),
            )
        )


def _complete(entry: _Entry) -> BidWhistHand:
    """A hand read with `complete` (so every required field is present)."""
    assert entry.bidder is not None and entry.bid is not None and entry.kind is not None
    assert entry.books is not None
    direction = IMPLIED_DIRECTION.get(entry.kind, entry.direction)
    assert direction is not None
    return BidWhistHand(
        entry.bidder, Call(entry.bid, entry.kind), direction, entry.trump, entry.books, entry.renege, entry.auction
    )


# --------------------------------------------------------------------------- scoring one hand


@dataclass(frozen=True)
class Outcome:
    """What one hand gives: the side that scores (or wins an extra hand) and its points."""

    side: int
    points: int
    made: bool  # the bidders kept their contract
    boston: bool  # the bidders took all 13 books and kept the contract
    doubled: bool


def score_hand(hand: BidWhistHand, options: Options) -> Outcome:
    """Section IX: made, the bidders score books above six (or the bid); set, the opponents score
    the bid; No bids double. An upheld renege loses the hand for the side that reneged."""
    bidders, defenders = hand.side, 1 - hand.side
    double = 2 if hand.call.kind is Kind.NO else 1
    bid = hand.call.bid
    made_value = hand.books - BOOK if options.get_str("made_scores") == "books" else bid
    renege = hand.renege if hand.renege is not None and hand.renege.upheld else None
    if renege is not None and renege.offender == bidders:
        return Outcome(defenders, bid * double, False, False, double == 2)
    if renege is not None:
        points = max(bid, made_value)
    elif hand.books >= hand.needed:
        points = made_value
    else:
        return Outcome(defenders, bid * double, False, False, double == 2)
    boston = hand.books == BOOKS
    bonus = options.get_int("boston_bonus") if boston and options.get_str("boston") == "bonus" else 0
    return Outcome(bidders, points * double + bonus, True, boston, double == 2)


def _hand_note(hand: BidWhistHand, out: Outcome, teams: Sequence[str], seats: Sequence[str], options: Options) -> str:
    """The sheet's words for a hand: made or set, renege rulings, doubling and Boston."""
    bidders, defenders = teams[hand.side], teams[1 - hand.side]
    r = hand.renege
    parts: list[str] = []  # said one after another, with no space between (each piece carries its own)
    if r is not None and r.upheld:
        parts.append(
            M(
                "Renege by %(offender)s, called by %(caller)s and upheld: %(side)s score %(points)s on %(contract)s",
                offender=teams[r.offender],
                caller=seats[r.called_by],
                side=teams[out.side],
                points=out.points,
                contract=hand.contract(),
            )
        )
    else:
        if r is not None:
            parts.append(
                M(
                    "Renege called by %(caller)s on %(offender)s, not upheld: scored as played. ",
                    caller=seats[r.called_by],
                    offender=teams[r.offender],
                )
            )
        if out.made:
            parts.append(
                M(
                    "%(side)s made %(contract)s with %(books)s books: %(side)s score %(points)s",
                    side=bidders,
                    contract=hand.contract(),
                    books=hand.books,
                    points=out.points,
                )
            )
        else:
            parts.append(
                M(
                    "Set: %(side)s took %(books)s of the %(needed)s books %(contract)s needs; %(other)s score "
                    "%(points)s",
                    side=bidders,
                    books=hand.books,
                    needed=hand.needed,
                    contract=hand.contract(),
                    other=defenders,
                    points=out.points,
                )
            )
    if out.doubled:
        parts.append(M(" (No bid, doubled)"))
    boston = options.get_str("boston")
    if out.boston and boston == "off":
        parts.append(M("; a Boston (all 13 books)"))
    elif out.boston and boston == "bonus":
        parts.append(M("; a Boston: +%(bonus)s included", bonus=options.get_int("boston_bonus")))
    return joined(parts, "")


def _extra_hand_note(hand: BidWhistHand, out: Outcome, teams: Sequence[str]) -> str:
    """The words for a tied round's extra hand: only made or set matters."""
    words = dict(side=teams[hand.side], contract=hand.contract(), books=hand.books)
    if out.made:
        return M("Extra hand, worth no points: %(side)s made %(contract)s (%(books)s books)", **words)
    return M("Extra hand, worth no points: %(side)s lost %(contract)s (%(books)s books)", **words)


# --------------------------------------------------------------------------- a game


@dataclass
class _Game:
    """The running state while the hands are walked through in order."""

    setup: Setup
    options: Options
    seats: tuple[str, str, str, str]
    teams: tuple[str, str]
    totals: list[int] = field(default_factory=lambda: [0, 0])
    rounds_won: list[int] = field(default_factory=lambda: [0, 0])
    round_points: list[int] = field(default_factory=lambda: [0, 0])
    round_no: int = 1
    in_round: int = 0  # hands of the current round played (the extra hand apart)
    tie_hand: bool = False  # the next hand settles a tied round
    boston_winner: int | None = None  # playing to a target: the side that won by a Boston
    over: bool = False
    hands: int = 0
    lines: list[Line] = field(default_factory=list)

    @property
    def by_rounds(self) -> bool:
        return self.options.get_str("play_to") == "rounds"

    @property
    def the_round(self) -> str:
        """The round in play, as the notes name it: "round 2", or "the round" when the game is one
        round (a tournament's match is one round of the event: "round 1" would contradict it)."""
        return M("the round") if self.options.get_int("rounds") == 1 else M("round %(number)s", number=self.round_no)

    def table(self, number: int) -> _Table:
        return _Table(
            self.seats, self.teams, (self.setup.first_dealer + number - 1) % SEATS, self.options.get_str("all_pass")
        )

    def next_spec(self) -> RoundSpec:
        number = self.hands + 1
        spec = _plain_spec(self.setup, number)
        if not self.by_rounds:
            return spec
        if self.tie_hand:
            a, b = self.round_points
            words = dict(score=f"{a}-{b}", number=self.round_no)
            note = (
                M(
                    "The round is tied %(score)s: one extra hand, worth no points, settles it (made: the bidders "
                    "win the round; set: their opponents).",
                    **words,
                )
                if self.options.get_int("rounds") == 1
                else M(
                    "Round %(number)s is tied %(score)s: one extra hand, worth no points, settles it (made: the "
                    "bidders win the round; set: their opponents).",
                    **words,
                )
            )
            return replace(spec, kind=RoundKind.PLAYOFF, note=note)
        if self.options.get_int("rounds") == 1:
            return spec  # the hand's heading says "Hand 2 of 4" already
        return replace(
            spec,
            note=M(
                "Round %(number)s, hand %(hand)s of %(hands)s.",
                number=self.round_no,
                hand=self.in_round + 1,
                hands=HANDS_PER_ROUND,
            ),
        )

    def play(self, hand: BidWhistHand) -> None:
        spec = self.next_spec()
        out = score_hand(hand, self.options)
        playoff = spec.kind is RoundKind.PLAYOFF
        points = [0, 0]
        if not playoff:
            points[out.side] = out.points
        self.totals = [self.totals[i] + points[i] for i in (0, 1)]
        self.round_points = [self.round_points[i] + points[i] for i in (0, 1)]
        self.hands += 1
        if playoff:
            note = _extra_hand_note(hand, out, self.teams)
        else:
            note = _hand_note(hand, out, self.teams, self.seats, self.options)
        more = self._advance(out, playoff)
        if more:
            note = joined([note, more], "")
        trump = Trump.NO_TRUMPS if hand.call.kind is Kind.NO else hand.trump
        self.lines.append(Line(spec.number, replace(spec, trump=trump), self._cells(hand, out, points, playoff), note))

    def _advance(self, out: Outcome, playoff: bool) -> str:
        """Move the game on after a hand; return the words to add to its note."""
        boston_wins = out.boston and self.options.get_str("boston") == "wins"
        if not self.by_rounds:
            if boston_wins:
                self.boston_winner, self.over = out.side, True
                return M("; the Boston wins the game for %(side)s", side=self.teams[out.side])
            if self.totals[out.side] >= self.options.get_int("target"):
                self.over = True
                return M("; game to %(side)s, %(score)s", side=self.teams[out.side], score=self._score(out.side))
            return ""
        if playoff:
            return self._end_round(out.side, False)
        self.in_round += 1
        if boston_wins:
            return self._end_round(out.side, True)
        if self.in_round < HANDS_PER_ROUND:
            return ""
        a, b = self.round_points
        if a == b:
            self.tie_hand = True
            return M("; %(round)s tied %(score)s: one extra hand settles it", round=self.the_round, score=f"{a}-{b}")
        return self._end_round(0 if a > b else 1, False)

    def _end_round(self, side: int, boston: bool) -> str:
        words = dict(
            round=self.the_round,
            side=self.teams[side],
            score=f"{self.round_points[side]}-{self.round_points[1 - side]}",
        )
        if self.tie_hand:
            said = (
                M("; %(round)s to %(side)s by a Boston", **words) if boston else M("; %(round)s to %(side)s", **words)
            )
        else:
            said = (
                M("; %(round)s to %(side)s by a Boston, %(score)s", **words)
                if boston
                else M("; %(round)s to %(side)s, %(score)s", **words)
            )
        self.rounds_won[side] += 1
        self.round_no += 1
        self.in_round, self.round_points, self.tie_hand = 0, [0, 0], False
        self.over = self.round_no > self.options.get_int("rounds")
        return said

    def _score(self, side: int) -> str:
        return f"{self.totals[side]}-{self.totals[1 - side]}"

    def _cells(self, hand: BidWhistHand, out: Outcome, points: Sequence[int], playoff: bool) -> tuple[Cell, Cell]:
        parts = [M("bid %(contract)s", contract=hand.contract()), M("took %(tricks)s", tricks=hand.books)]
        if playoff:
            parts.insert(0, M("extra hand"))
        detail = joined(parts, " · ")
        cells: list[Cell] = []
        for side in (0, 1):
            if side == hand.side:
                cells.append(Cell(points[side], self.totals[side], detail, hand.call.bid, hand.books, out.made))
            else:
                words = M("set") if not out.made and not playoff else ""
                cells.append(Cell(points[side], self.totals[side], words, None, BOOKS - hand.books))
        return cells[0], cells[1]

    @property
    def one_round(self) -> bool:
        """A game of one round (a tournament's match): its points decide it, as they decide a round."""
        return self.by_rounds and self.options.get_int("rounds") == 1

    def standings(self) -> tuple[Standing, ...]:
        """Rounds won, then points (tournament); the game's winner, then points (home game).

        Each shows big what decides its ranking: rounds won over several rounds (points beside); the
        points in a game of one round, where rounds won (beside) is 0-0 until the round ends, and then
        differs from the points' order only for a tie's extra hand or a Boston that wins outright."""
        first = self.rounds_won if self.by_rounds else [1 if s == self.boston_winner else 0 for s in (0, 1)]
        details: list[str]
        if self.one_round:
            details = [self._rounds_won(self.rounds_won[s]) for s in (0, 1)]
        elif self.by_rounds:
            details = [
                joined([self._rounds_won(self.rounds_won[s]), self._points(self.totals[s])], ", ") for s in (0, 1)
            ]
        else:
            details = [M("won by a Boston") if s == self.boston_winner else "" for s in (0, 1)]
        keys = [first[s] * _RANK_SPREAD + self.totals[s] for s in (0, 1)]
        shown = self.rounds_won if self.by_rounds and not self.one_round else self.totals
        return tuple(replace(s, total=shown[s.seat]) for s in rank(keys, self.teams, details))

    def scoreboard(self) -> Scoreboard:
        """Playing rounds: the round in play's points, big, rounds won beside (the match's points once
        it is over); playing to a target: the points toward it."""
        totals = (self.totals[0], self.totals[1])
        if not self.by_rounds:
            return Scoreboard(M("First to %(target)s points", target=self.options.get_int("target")), totals)
        won = (self.rounds_won[0], self.rounds_won[1])
        rounds = self.options.get_int("rounds")
        if self.over:
            return Scoreboard(
                M("Points over the match") if rounds > 1 else M("Final score"),
                totals,
                won,
                "round" if rounds > 1 else "",
            )
        heading = (
            M("Round %(number)s of %(rounds)s", number=self.round_no, rounds=rounds) if rounds > 1 else M("This round")
        )
        return Scoreboard(heading, (self.round_points[0], self.round_points[1]), won, "round" if rounds > 1 else "")

    @staticmethod
    def _rounds_won(n: int) -> Message:
        return M("1 round won") if n == 1 else M("%(count)s rounds won", count=n)

    @staticmethod
    def _points(n: int) -> Message:
        return M("1 point") if n == 1 else M("%(count)s points", count=n)

    def summary(self, standings: Sequence[Standing]) -> str:
        first = leaders(standings)
        points = f"{self.totals[0]}-{self.totals[1]}"
        score: str = (
            M(
                "%(rounds)s in rounds, %(points)s in points",
                rounds=f"{self.rounds_won[0]}-{self.rounds_won[1]}",
                points=points,
            )
            if self.by_rounds
            else points
        )
        teams = dict(first=self.teams[0], second=self.teams[1], score=score)
        if not self.over:
            if self.hands == 1:
                return M("In play after 1 hand: %(first)s v %(second)s %(score)s", **teams)
            return M("In play after %(hands)s hands: %(first)s v %(second)s %(score)s", hands=self.hands, **teams)
        if len(first) > 1:
            return M("Tie: %(first)s and %(second)s, %(score)s", **teams)
        return M("%(side)s win (%(first)s v %(second)s %(score)s)", side=self.teams[first[0]], **teams)


def _plain_spec(setup: Setup, number: int) -> RoundSpec:
    """Hand `number` before anything is known of the scores: the deal passes left every hand."""
    dealer = (setup.first_dealer + number - 1) % SEATS
    first = (dealer + 1) % SEATS
    return RoundSpec(number, CARDS_EACH, None, dealer, first)


# --------------------------------------------------------------------------- a group's statistics


def _count_facts(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, column: int) -> Mapping[str, int]:
    """Only the bidding side's cell holds the bid, and `made` whether the contract was kept (an
    upheld renege by the other side counts as made: rules/bid-whist.txt XI, "Loss of Bid"). A tied
    round's extra hand is a contract too: made or lost, it settles the round. A Boston is all 13
    books, the kitty's included, with the contract kept. Reneges are read from the entries: one
    upheld against the column's team is a renege of that side."""
    counts = {"contracts_bid": 0, "contracts_made": 0, "contracts_set": 0, "bostons": 0, "reneges": 0}
    for line, raw in zip(sheet.lines, hands):
        cell = line.cells[column]
        if cell.bid is not None:
            counts["contracts_bid"] += 1
            counts["contracts_made"] += bool(cell.made)
            counts["contracts_set"] += not cell.made
            counts["bostons"] += bool(cell.made) and cell.tricks == BOOKS
        renege = raw.get("renege")
        if isinstance(renege, Mapping) and renege.get("upheld") is True and renege.get("offender") == column:
            counts["reneges"] += 1
    return counts


STATS = StatsFacts(
    facts=(
        FactSpec("contracts_made", M("Contracts made"), "contracts_made", "contracts_bid"),
        FactSpec("contracts_set", M("Contracts set"), "contracts_set", "contracts_bid"),
        FactSpec("bostons", M("Bostons"), "bostons"),
        FactSpec("reneges", M("Reneges (upheld)"), "reneges"),
    ),
    count=_count_facts,
)


# --------------------------------------------------------------------------- the variant


class BidWhist:
    """The Bid Whist variant (see the module docstring)."""

    key = "bid_whist"
    name = "Bid Whist"
    summary: str = M(
        "Two teams bid 4 to 7 (plain uptown, Special downtown, or No trumps); the kitty counts as "
        "a book for the bidders, who need six books plus their bid. Made: they score every book "
        "above six; set: the opponents score the bid; No-trump hands count double. Tournament play "
        "is by rounds of 4 hands, home play to 7 points."
    )
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    partnerships = True
    players = range(SEATS, SEATS + 1)  # two teams of two
    # its standings count rounds won first: 8-0 after two hands would be 0-0 across a club's tables
    club_ranked_by_points = True
    stats = STATS

    def _options(self, setup: Setup) -> Options:
        return resolve_options(OPTION_SPECS, setup.options.values)

    def check_setup(self, setup: Setup) -> None:
        errors = ErrorCollector()
        try:
            self._options(setup)
        except RuleErrors as e:
            errors.add(e)
        if setup.players:
            errors.add(RuleError("players", M("Bid Whist is played by two teams of two: give two teams, not players")))
        if len(setup.teams) != 2:
            errors.add(
                RuleError("teams", M("Bid Whist needs exactly two teams, not %(count)s", count=len(setup.teams)))
            )
        else:
            for i, team in enumerate(setup.teams):
                if len(team.players) not in (0, 2):
                    errors.add(
                        RuleError(
                            f"teams.{i}.players",
                            M(
                                "%(team)s needs two player names (or none), not %(count)s",
                                team=team.name,
                                count=len(team.players),
                            ),
                        )
                    )
        if isinstance(setup.first_dealer, bool) or not 0 <= setup.first_dealer < SEATS:
            errors.add(
                RuleError(
                    "first_dealer",
                    M(
                        "the first dealer is a seat from 0 to 3 (0 and 2 are the first "
                        "team's players, 1 and 3 the second team's)"
                    ),
                )
            )
        errors.raise_if_any()
        seats = [n.casefold() for n in seat_names(setup)]
        if len(set(seats)) < SEATS:
            raise RuleErrors([RuleError("teams", M("two players have the same name; give each their own"))])

    def round_count(self, setup: Setup) -> int | None:
        """The tournament's 4 hands a round (a tied round adds one extra hand); None to a target."""
        options = self._options(setup)
        if options.get_str("play_to") == "points":
            return None
        return HANDS_PER_ROUND * options.get_int("rounds")

    def round_spec(self, setup: Setup, number: int) -> RoundSpec:
        """The dealer and first bidder of hand `number`. Whether it is a tied round's extra hand
        depends on the scores: `state().next_round` and the sheet's lines say so."""
        self.check_setup(setup)
        if number < 1:
            raise RuleError("hand", M("hands are numbered from 1"))
        return _plain_spec(setup, number)

    def _game(self, setup: Setup) -> _Game:
        self.check_setup(setup)
        teams = (setup.teams[0].name, setup.teams[1].name)
        return _Game(setup, self._options(setup), seat_names(setup), teams)

    @derived_once
    def _replay(self, setup: Setup, hands: Sequence[RawHand]) -> _Game:
        """Read and play every hand in order; errors of every hand are reported together."""
        game = self._game(setup)
        errors = ErrorCollector()
        for number, raw in enumerate(hands, start=1):
            if not errors.errors and game.over:
                errors.add(
                    RuleError(
                        "hand", M("the game is over after hand %(number)s; no more hands are played", number=game.hands)
                    ).at_hand(number)
                )
                break
            try:
                hand = _complete(_read(raw, game.table(number), complete=True))
            except RuleErrors as e:
                errors.errors.extend(err.at_hand(number) for err in e.errors)
                continue
            if not errors.errors:
                game.play(hand)
        errors.raise_if_any()
        return game

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        game = self._replay(setup, before)
        if game.over:
            raise RuleErrors([RuleError("hand", M("the game is over; no more hands are played"))])
        _read(hand, game.table(game.hands + 1), complete=True)

    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        game = self._replay(setup, hands)
        standings = game.standings()
        return ScoreSheet(
            self.key,
            game.teams,
            tuple(game.lines),
            standings,
            game.over,
            leaders(standings) if game.over else (),
            game.summary(standings),
            game.scoreboard(),
            M("Rounds won") if game.by_rounds and not game.one_round else "",
        )

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        """Bids while the auction is entered (or before anything is), then the result.

        `legal_bids` holds the bid numbers (4-7) open to `to_act` in at least one kind;
        `missing` says in words which kinds, and whether they may pass.
        """
        game = self._replay(setup, hands)
        if game.over:
            return GameState(len(hands), True, "over", None, winners=leaders(game.standings()))
        spec = game.next_spec()
        table = game.table(spec.number)
        entry = _read(pending or {}, table, complete=False)
        result_missing = _result_missing(entry)
        auction = entry.auction
        if auction is not None and len(auction) < SEATS:
            return self._bidding_state(game, spec, table, auction, result_missing)
        if auction is None and None in (entry.bidder, entry.bid, entry.kind):
            return self._bidding_state(game, spec, table, (), result_missing)
        return GameState(len(hands), False, "result", spec, missing=tuple(result_missing))

    def _bidding_state(
        self, game: _Game, spec: RoundSpec, table: _Table, auction: Sequence[Call | None], later: list[str]
    ) -> GameState:
        won = auction_winner(auction, table.first_bidder)
        highest = won[1] if won else None
        seat = table.seat_in_order(len(auction))
        name = table.seats[seat]
        forced = seat == table.dealer and highest is None and table.all_pass == "dealer"
        opened = open_calls_words(highest)
        if forced:
            words = M(
                "%(player)s's call: the other three passed, so %(player)s (dealer) must bid %(open)s",
                player=name,
                open=opened,
            )
        elif legal_calls(highest):
            words = M("%(player)s's call: pass, or bid %(open)s", player=name, open=opened)
        else:
            words = M("%(player)s's call: pass (nothing outranks 7 No)", player=name)
        rest = [table.seats[table.seat_in_order(p)] for p in range(len(auction) + 1, SEATS)]
        missing = [words] + ([M("the calls of %(players)s", players=", ".join(rest))] if rest else []) + later
        numbers = tuple(sorted({c.bid for c in legal_calls(highest)}))
        return GameState(game.hands, False, "bids", spec, to_act=seat, legal_bids=numbers, missing=tuple(missing))


def _result_missing(entry: _Entry) -> list[str]:
    """What a partly entered hand still needs once the bidding is over, in words."""
    missing: list[str] = []
    if entry.bidder is None:
        missing.append(M("who won the bid"))
    if entry.bid is None or entry.kind is None:
        missing.append(M("the winning bid and its kind (plain, Special or No)"))
    if entry.kind is Kind.NO and entry.direction is None:
        missing.append(M("the direction the No bidder declares (uptown or downtown)"))
    if entry.books is None:
        missing.append(M("the books taken by the bidding side, the kitty counting as one"))
    return missing


VARIANT: Variant = BidWhist()
