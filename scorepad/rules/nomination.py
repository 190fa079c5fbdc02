"""Nomination Whist: each round every player nominates the tricks they will win, then plays.

The schedule (cards per round, dealer, first bidder, and the trump when trumps rotate) follows
from the set-up alone, so a hand only carries what happened at the table: the trump turned up
(when trumps are entered), the bids and the tricks, both in seat order. A trick won scores 1 and
an exact nomination 10 more. The deal is capped at 52 // players cards, so a sequence written
for four players still deals with five, six or seven.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from scorepad.rules.base import (
    Cell,
    Choice,
    ErrorCollector,
    GameState,
    Line,
    M,
    Message,
    OptionSpec,
    RawHand,
    RoundKind,
    RoundSpec,
    RuleError,
    RuleErrors,
    ScoreSheet,
    Setup,
    StatsFacts,
    Variant,
    derived_once,
    joined,
    key_field,
    leaders,
    per_setup,
    quoted,
    rank,
    resolve_options,
)
from scorepad.rules.bidding import (
    EXACT_BIDS,
    bidding_order,
    check_bids,
    check_trick_total,
    count_bids,
    hook_forbidden,
    legal_bids,
    parse_counts,
)
from scorepad.rules.cards import SUITS, Trump, parse_trump

NAME = "Nomination Whist"
MIN_PLAYERS, MAX_PLAYERS = 3, 7
DECK = 52
HOOK_FROM = 4  # the document: "in rounds where each hand contains four or more cards"
EXACT_BONUS = 10
HAND_KEYS = ("trump", "bids", "tricks")
HAND_TRUMPS: tuple[Trump, ...] = SUITS + (Trump.NO_TRUMPS,)
ROTATION: tuple[Trump, ...] = (Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS, Trump.SPADES, Trump.NO_TRUMPS)
PRESETS: dict[str, tuple[int, ...]] = {
    "up": tuple(range(1, 14)),
    "down": tuple(range(13, 0, -1)),
    "seven": tuple(range(7, 0, -1)) + tuple(range(2, 8)),
    "ten": tuple(range(10, 0, -1)) + tuple(range(2, 11)),
}
CUSTOM_DEFAULT = PRESETS["up"]
# A custom list's most rounds: one per card of the pack, well past any list played (the presets
# have 13 to 19 rounds). Played 4 times it is 208 hands, inside the 1,000 a game record holds, and
# derived in a moment: a form can carry a list of 15,000 rounds, which would make every page that
# derives the game take seconds.
CUSTOM_MAX = 52

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "sequence",
        M("Cards per round"),
        "up",
        help=M(
            "How many cards each player is dealt, round by round. With more than four players no "
            "round deals more than 52 ÷ players cards (10 for five, 8 for six, 7 for seven)."
        ),
        choices=(
            Choice("up", M("1 up to 13")),
            Choice("down", M("13 down to 1")),
            Choice("seven", M("7 down to 1 and back up to 7")),
            Choice("ten", M("10 down to 1 and back up to 10")),
            Choice("custom", M("My own list")),
        ),
    ),
    OptionSpec(
        "custom_sequence",
        M("Custom list of cards per round"),
        CUSTOM_DEFAULT,
        matters=lambda o: o.get_str("sequence") == "custom",
        help=M(
            "Only used when 'Cards per round' is 'My own list': the cards dealt in each round, "
            "in order, each from 1 to 13."
        ),
        minimum=1,
        maximum=13,
        max_items=CUSTOM_MAX,
        too_many=lambda count: M(
            "%(option)s: at most %(most)s rounds, not %(count)s",
            option=M("Custom list of cards per round"),
            most=CUSTOM_MAX,
            count=count,
        ),
    ),
    OptionSpec(
        "cycles",
        M("Times through the sequence"),
        1,
        help=M(
            "After the last round the sequence starts again from its beginning (the document's "
            "'moves back to one'); 1 plays it once."
        ),
        minimum=1,
        maximum=4,
    ),
    OptionSpec(
        "hook",
        M("Hook rule"),
        "four_plus",
        help=M(
            "The last bidder may not make the nominations add up to the number of tricks, so at "
            "least one player must miss. The document applies this only when each hand has 4 or "
            "more cards."
        ),
        choices=(Choice("four_plus", M("Rounds of 4 or more cards")), Choice("every", M("Every round"))),
    ),
    OptionSpec(
        "trumps",
        M("Trumps"),
        "entered",
        help=M(
            "Either the scorer enters the suit turned up each round, or trumps rotate round by "
            "round: hearts, diamonds, clubs, spades, no trumps, and again."
        ),
        choices=(
            Choice("entered", M("Entered each round (turned-up card)")),
            Choice("rotate", M("Rotate: hearts, diamonds, clubs, spades, no trumps")),
        ),
    ),
)


def _and(words: Sequence[str]) -> Message:
    if len(words) == 1:
        return joined(words)
    return M("%(names)s and %(last)s", names=joined(words[:-1]), last=words[-1])


# --------------------------------------------------------------------------- the schedule


@dataclass(frozen=True)
class Plan:
    """The set-up read once: who plays, the cards asked for each round, and the rule options."""

    names: tuple[str, ...]
    first_dealer: int
    wanted: tuple[int, ...]  # cards the sequence asks for, round by round over every cycle
    hook_every: bool
    rotate: bool

    @property
    def cap(self) -> int:
        """The most cards each player can be dealt from one pack."""
        return DECK // len(self.names)

    def hook(self, cards: int) -> bool:
        """Whether the hook rule binds the last bidder in a round of `cards` cards."""
        return self.hook_every or cards >= HOOK_FROM

    def spec(self, number: int) -> RoundSpec:
        """Round `number` (1-based): cards, trump, dealer and first bidder."""
        if not 1 <= number <= len(self.wanted):
            raise RuleError(
                "round",
                M(
                    "there is no round %(number)s: the game has %(rounds)s rounds",
                    number=number,
                    rounds=len(self.wanted),
                ),
            )
        seats, wanted = len(self.names), self.wanted[number - 1]
        cards = min(wanted, self.cap)
        dealer = (self.first_dealer + number - 1) % seats
        note = (
            M(
                "%(wanted)s cards asked for, capped at %(cards)s: one pack deals at most %(cards)s each to "
                "%(seats)s players",
                wanted=wanted,
                cards=cards,
                seats=seats,
            )
            if cards < wanted
            else ""
        )
        trump = ROTATION[(number - 1) % len(ROTATION)] if self.rotate else None
        return RoundSpec(number, cards, trump, dealer, (dealer + 1) % seats, _kind(trump), note)


def _kind(trump: Trump | None) -> RoundKind:
    return RoundKind.NO_TRUMPS if trump is Trump.NO_TRUMPS else RoundKind.NORMAL


def _first_bidder(spec: RoundSpec) -> int:
    """The player left of the dealer: every round of this variant has bidding."""
    assert spec.first_bidder is not None
    return spec.first_bidder


@per_setup
def make_plan(setup: Setup) -> Plan:
    """Check the set-up (options included, re-checked here) and read it; RuleErrors otherwise."""
    errors = ErrorCollector()
    plan: Plan | None = None
    try:
        options = resolve_options(OPTION_SPECS, setup.options.values)
        sequence = options.get_str("sequence")
        custom = options.get_ints("custom_sequence")
        if sequence != "custom" and custom != CUSTOM_DEFAULT:
            errors.add(
                RuleError(
                    "options.custom_sequence",
                    M(
                        "the custom list of cards per round is only used when the cards per round "
                        'are "My own list": choose that, or leave the list out'
                    ),
                )
            )
        wanted = (custom if sequence == "custom" else PRESETS[sequence]) * options.get_int("cycles")
        plan = Plan(
            setup.players,
            setup.first_dealer,
            wanted,
            options.get_str("hook") == "every",
            options.get_str("trumps") == "rotate",
        )
    except RuleErrors as e:
        errors.add(e)
    if setup.teams:
        errors.add(RuleError("teams", M("%(game)s is played individually: give players, not teams", game=NAME)))
    count = len(setup.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        errors.add(
            RuleError(
                "players",
                M(
                    "%(game)s needs %(least)s to %(most)s players, not %(count)s",
                    game=NAME,
                    least=MIN_PLAYERS,
                    most=MAX_PLAYERS,
                    count=count,
                ),
            )
        )
    seen: set[str] = set()
    for seat, player in enumerate(setup.players):
        if not player.strip():
            errors.add(RuleError(f"players.{seat}", M("player %(number)s needs a name", number=seat + 1)))
        elif player.casefold() in seen:
            errors.add(
                RuleError(
                    f"players.{seat}", M("two players are called '%(name)s'; give each their own name", name=player)
                )
            )
        seen.add(player.casefold())
    if count and not 0 <= setup.first_dealer < count:
        errors.add(
            RuleError(
                "first_dealer",
                M(
                    "the first dealer is a player number from 0 to %(last)s, not %(given)s",
                    last=count - 1,
                    given=setup.first_dealer,
                ),
            )
        )
    errors.raise_if_any()
    assert plan is not None  # every failure above raised
    return plan


# --------------------------------------------------------------------------- hands


@dataclass(frozen=True)
class Hand:
    """One round as entered and checked: its trump, and bids and tricks in seat order."""

    trump: Trump
    bids: tuple[int, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True)
class Entry:
    """A hand read so far; None marks what is not entered yet (state() works on these)."""

    trump: Trump | None
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...]


def _trump(spec: RoundSpec, raw: object, partial: bool) -> Trump | None:
    """The round's trump: entered by the scorer, or fixed by the rotation (then optional, must match)."""
    if spec.trump is not None:
        if raw is not None and parse_trump(raw, "trump", HAND_TRUMPS) is not spec.trump:
            raise RuleError(
                "trump",
                M(
                    "trumps rotate, so round %(number)s is %(trump)s: give %(code)s or leave the trump out",
                    number=spec.number,
                    trump=spec.trump.label,
                    code=spec.trump.value,
                ),
            )
        return spec.trump
    if raw is None:
        if partial:
            return None
        raise RuleError(
            "trump", M("the trump is missing: give the suit turned up as H, D, C or S, or NT for no trumps")
        )
    return parse_trump(raw, "trump", HAND_TRUMPS)


def _counts(raw: object, field: str, names: Sequence[str], cards: int, partial: bool) -> tuple[int | None, ...]:
    """One count 0..cards per seat, in seat order; `partial` lets values be missing (None)."""
    bids = field == "bids"
    noun = "bid" if bids else "tricks"
    if raw is None:
        if partial:
            return (None,) * len(names)
        raise RuleError(
            field,
            M("the bids are missing: give %(count)s bids, one per player in seat order", count=len(names))
            if bids
            else M(
                "the tricks are missing: give %(count)s trick counts, one per player in seat order", count=len(names)
            ),
        )
    if not isinstance(raw, list):
        raise RuleError(
            field,
            M("give the bids as a list with one number per player, in seat order")
            if bids
            else M("give the trick counts as a list with one number per player, in seat order"),
        )
    if len(raw) > len(names) or (len(raw) < len(names) and not partial):
        raise RuleError(
            field,
            M("give %(count)s bids, one per player in seat order, not %(given)s", count=len(names), given=len(raw))
            if bids
            else M(
                "give %(count)s trick counts, one per player in seat order, not %(given)s",
                count=len(names),
                given=len(raw),
            ),
        )
    return tuple(parse_counts(raw, field, names, cards, what=noun, allow_missing=partial))


def _tricks(raw: object, names: Sequence[str], cards: int, partial: bool) -> tuple[int | None, ...]:
    """Trick counts that add up to the cards dealt (or, while partial, do not exceed them)."""
    tricks = _counts(raw, "tricks", names, cards, partial)
    known = [t for t in tricks if t is not None]
    if len(known) == len(tricks):
        check_trick_total(known, cards)
    elif sum(known) > cards:
        raise RuleError(
            "tricks",
            M(
                "the tricks entered so far add up to %(total)s but there are only %(cards)s tricks in this hand",
                total=sum(known),
                cards=cards,
            ),
        )
    return tricks


def read_entry(plan: Plan, spec: RoundSpec, raw: object, partial: bool) -> Entry:
    """Check every key of a hand on its own and report all problems together."""
    if not isinstance(raw, Mapping):
        raise RuleErrors([RuleError("hand", M("a hand is an object with the trump, the bids and the tricks"))])
    errors = ErrorCollector()
    for key in raw:
        if key not in HAND_KEYS:
            errors.add(
                RuleError(key_field(key), M("%(key)s is not part of a %(game)s hand", key=quoted(key), game=NAME))
            )
    names, cards = plan.names, spec.cards
    trump: Trump | None = None
    bids: tuple[int | None, ...] = (None,) * len(names)
    tricks: tuple[int | None, ...] = (None,) * len(names)
    try:
        trump = _trump(spec, raw.get("trump"), partial)
    except RuleError as e:
        errors.add(e)
    try:
        bids = _counts(raw.get("bids"), "bids", names, cards, partial)
        check_bids(bids, names, cards, _first_bidder(spec), plan.hook(cards))
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    try:
        tricks = _tricks(raw.get("tricks"), names, cards, partial)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    errors.raise_if_any()
    return Entry(trump, bids, tricks)


def parse_hand(plan: Plan, spec: RoundSpec, raw: object) -> Hand:
    """A complete hand for round `spec`, or RuleErrors naming every bad field."""
    entry = read_entry(plan, spec, raw, partial=False)
    assert entry.trump is not None  # a complete read refuses anything missing
    return Hand(entry.trump, tuple(b or 0 for b in entry.bids), tuple(t or 0 for t in entry.tricks))


# --------------------------------------------------------------------------- scoring


def points(bid: int, tricks: int) -> int:
    """One point per trick won, and ten more for making the exact nomination."""
    return tricks + (EXACT_BONUS if bid == tricks else 0)


def _result_words(names: Sequence[str], seats: Sequence[int], total: int) -> Message:
    if len(seats) == 1:
        return M("%(name)s wins with %(total)s", name=names[seats[0]], total=total)
    return M("Tie: %(names)s with %(total)s each", names=_and([names[s] for s in seats]), total=total)


@lru_cache(maxsize=1024)
def _detail(bid: int, tricks: int) -> Message:
    """A cell's words, one object per bid and tricks for every sheet: a sheet at hand 25 made a
    hundred, a sixth of scoring it (profiled), and the web layer keeps what it draws of each by
    object (games/presenters.py)."""
    return M("bid %(bid)s · took %(tricks)s", bid=bid, tricks=tricks)


def _line(spec: RoundSpec, hand: Hand, totals: list[int], made: list[int]) -> Line:
    """Score one round, adding to the running `totals` and counts of bids `made`."""
    cells: list[Cell] = []
    for seat, (bid, tricks) in enumerate(zip(hand.bids, hand.tricks)):
        totals[seat] += points(bid, tricks)
        made[seat] += bid == tricks
        cells.append(
            Cell(
                points(bid, tricks),
                totals[seat],
                _detail(bid, tricks),
                bid,
                tricks,
                bid == tricks,
            )
        )
    played = replace(spec, trump=hand.trump, kind=_kind(hand.trump))
    return Line(spec.number, played, tuple(cells))


def _game_over(rounds: int) -> RuleErrors:
    return RuleErrors(
        [
            RuleError(
                "hand",
                M("the game is over after 1 round: no more hands can be entered")
                if rounds == 1
                else M("the game is over after %(rounds)s rounds: no more hands can be entered", rounds=rounds),
            )
        ]
    )


def _next_spec(plan: Plan, played: int) -> RoundSpec:
    if played >= len(plan.wanted):
        raise _game_over(len(plan.wanted))
    return plan.spec(played + 1)


class NominationWhist:
    """The Nomination Whist variant (see the module docstring)."""

    key = "nomination"
    name = NAME
    summary: str = M(
        "Each round every player nominates how many tricks they will win, and the deal grows from 1 "
        "card to 13 (other sequences are options). Every trick won scores 1 point and making your "
        "nomination exactly scores 10 more. In rounds of 4 or more cards the last to nominate may not "
        "make the nominations add up to the number of tricks."
    )
    option_specs = OPTION_SPECS
    partnerships = False
    players = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    club_ranked_by_points = False
    stats = StatsFacts(EXACT_BIDS, count_bids)

    def check_setup(self, setup: Setup) -> None:
        make_plan(setup)

    def round_count(self, setup: Setup) -> int:
        return len(make_plan(setup).wanted)

    def round_spec(self, setup: Setup, number: int) -> RoundSpec:
        return make_plan(setup).spec(number)

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        plan = make_plan(setup)
        parse_hand(plan, _next_spec(plan, len(before)), hand)

    @derived_once
    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        plan = make_plan(setup)
        names, rounds = plan.names, len(plan.wanted)
        errors = ErrorCollector()
        parsed: list[tuple[RoundSpec, Hand]] = []
        for number, raw in enumerate(hands, start=1):
            try:
                spec = _next_spec(plan, number - 1)
                parsed.append((spec, parse_hand(plan, spec, raw)))
            except RuleErrors as e:
                errors.add(RuleErrors([err.at_hand(number) for err in e.errors]))
        errors.raise_if_any()
        totals, made = [0] * len(names), [0] * len(names)
        lines = [_line(spec, hand, totals, made) for spec, hand in parsed]
        standings = rank(
            totals, names, [M("1 bid made") if m == 1 else M("%(count)s bids made", count=m) for m in made]
        )
        finished = len(lines) == rounds
        winners = leaders(standings) if finished else ()
        if finished:
            summary = _result_words(names, winners, standings[0].total)
            lines[-1] = replace(lines[-1], note=summary)
        elif lines:
            ahead = leaders(standings)
            leading = dict(
                played=len(lines), rounds=rounds, names=_and([names[s] for s in ahead]), total=standings[0].total
            )
            summary = (
                M("After %(played)s of %(rounds)s rounds: %(names)s leads with %(total)s", **leading)
                if len(ahead) == 1
                else M("After %(played)s of %(rounds)s rounds: %(names)s lead with %(total)s", **leading)
            )
        else:
            summary = M("No rounds played yet")
        return ScoreSheet(self.key, names, tuple(lines), standings, finished, winners, summary)

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        """The next step of the current round; `missing` lists what that step still needs.

        While bids are awaited: the trump (if it is entered and not yet given) and one "bid from X"
        per player still to bid, in bidding order. Once every bid is in: the trump if still
        missing, and the tricks.
        """
        sheet = self.score(setup, hands)
        if sheet.finished:
            if pending:
                raise _game_over(len(hands))
            return GameState(len(hands), True, "over", None, winners=sheet.winners)
        plan = make_plan(setup)
        spec = plan.spec(len(hands) + 1)
        entry = read_entry(plan, spec, pending or {}, partial=True)
        names, cards = plan.names, spec.cards
        if entry.trump is not None:
            spec = replace(spec, trump=entry.trump, kind=_kind(entry.trump))
        missing = [] if entry.trump is not None else ["the trump"]
        order = bidding_order(len(names), _first_bidder(spec))
        waiting = [s for s in order if entry.bids[s] is None]
        if waiting:
            earlier = [b for b in (entry.bids[s] for s in order) if b is not None]
            hook = plan.hook(cards)
            last = len(earlier) == len(names) - 1
            forbidden = hook_forbidden(cards, earlier) if hook and last else None
            missing += [f"bid from {names[s]}" for s in waiting]
            return GameState(
                len(hands),
                False,
                "bids",
                spec,
                waiting[0],
                legal_bids(cards, earlier, len(names), hook),
                forbidden,
                tuple(missing),
            )
        no_tricks = [names[s] for s, t in enumerate(entry.tricks) if t is None]
        if len(no_tricks) == len(names):
            missing.append("tricks for every player")
        elif no_tricks:
            missing.append(f"tricks for {_and(no_tricks)}")
        return GameState(len(hands), False, "result", spec, missing=tuple(missing))


VARIANT: Variant = NominationWhist()
