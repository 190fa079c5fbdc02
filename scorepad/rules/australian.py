"""Australian Whist: bid exactly, with the deal rising to a maximum, five special rounds, and back.

The schedule is fixed by the player count, so every round's cards, dealer, trump and kind are
derived from the set-up alone; a hand only carries what happened at the table (bids, tricks, and
optionally a trump the scorer changed and, in remote play, the tricks won jointly).

Trumps follow hearts, clubs, diamonds, spades by round number. The no-trump special round and the
misère round have no trump. By default ("skip") their turn in the cycle is skipped over: round n
always has suit number n of the cycle, so the two suitless rounds simply lose theirs. With "pause"
the cycle stands still on them: the suit they would have had goes to the next round that has a
trump, and every later trump round moves on from there. A trump entered with a hand changes that
round only; it never shifts the cycle of later rounds (the schedule stays what was announced).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scorepad.rules.base import (
    Cell,
    Choice,
    ErrorCollector,
    FactSpec,
    GameState,
    Line,
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
    key_field,
    leaders,
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
from scorepad.rules.errors import M, Message, joined

NAME = "Australian Whist"
MIN_PLAYERS, MAX_PLAYERS = 2, 7
TRUMP_CYCLE: tuple[Trump, ...] = (Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS, Trump.SPADES)
SPECIAL_ROUNDS: tuple[RoundKind, ...] = (
    RoundKind.NORMAL,
    RoundKind.NO_TRUMPS,
    RoundKind.BLIND,
    RoundKind.MISERE,
    RoundKind.NORMAL,
)
SUITLESS = (RoundKind.NO_TRUMPS, RoundKind.MISERE)
EXACT_BONUS, PER_TRICK, PER_SHARED_TRICK = 10, 2, 1
MISERE_CLEAN, MISERE_PER_TRICK = 10, -2
HAND_KEYS = ("bids", "tricks", "trump", "shared")
OVERRIDE_TRUMPS: tuple[Trump, ...] = SUITS + (Trump.NO_TRUMPS,)


def max_cards(players: int) -> int:
    """The deal at the top of the schedule: 10 cards, fewer when 52 cards cannot stretch."""
    return {6: 8, 7: 7}.get(players, 10)


# --------------------------------------------------------------------------- the schedule


def round_kind(top: int, number: int) -> RoundKind:
    """Rounds top .. top+4 are the five special rounds; every other round is normal."""
    special = number - top
    return SPECIAL_ROUNDS[special] if 0 <= special < len(SPECIAL_ROUNDS) else RoundKind.NORMAL


def round_cards(top: int, number: int) -> int:
    """1, 2, .., top-1, then top for the five special rounds, then top-1 down to 1."""
    if number < top:
        return number
    if number < top + len(SPECIAL_ROUNDS):
        return top
    return 2 * top + len(SPECIAL_ROUNDS) - 1 - number


def scheduled_trump(top: int, number: int, cycle_mode: str) -> Trump:
    """The trump the schedule gives round `number` (see the module docstring for the two modes)."""
    if round_kind(top, number) in SUITLESS:
        return Trump.NO_TRUMPS
    if cycle_mode == "pause":
        turn = sum(1 for n in range(1, number) if round_kind(top, n) not in SUITLESS)
    else:
        turn = number - 1
    return TRUMP_CYCLE[turn % len(TRUMP_CYCLE)]


def _note(kind: RoundKind, special: int, cards: int) -> str:
    """One line for the table explaining a special round."""
    of = len(SPECIAL_ROUNDS)
    if kind is RoundKind.NO_TRUMPS:
        return M("Special round %(special)s of %(of)s: no trumps", special=special, of=of)
    if kind is RoundKind.BLIND:
        return M(
            "Special round %(special)s of %(of)s: blind bid - everyone bids before the cards are dealt; trumps "
            "as scheduled",
            special=special,
            of=of,
        )
    if kind is RoundKind.MISERE:
        return M(
            "Special round %(special)s of %(of)s: misère - no trumps, no bidding; -2 per trick won, 10 for "
            "winning none",
            special=special,
            of=of,
        )
    if special:
        return M(
            "Special round %(special)s of %(of)s: %(cards)s cards, played as normal",
            special=special,
            of=of,
            cards=cards,
        )
    return ""


# --------------------------------------------------------------------------- hands


@dataclass(frozen=True)
class Hand:
    """One round as entered and checked: bids (None in misère), tricks and shared tricks per seat.

    `shared` counts, per seat, the tricks that seat won jointly with another household (remote
    play); it is all zeros otherwise. `trump` is the scorer's override, or None.
    """

    bids: tuple[int, ...] | None
    tricks: tuple[int, ...]
    shared: tuple[int, ...]
    trump: Trump | None


@dataclass(frozen=True)
class _Entry:
    """A hand as read so far: None marks a value not entered yet (state() works on these)."""

    bids: tuple[int | None, ...] | None
    tricks: tuple[int | None, ...]
    shared: tuple[int | None, ...] | None
    trump: Trump | None


def _tricks(count: int) -> Message:
    return M("1 trick") if count == 1 else M("%(count)s tricks", count=count)


def _and(words: Sequence[str]) -> Message:
    if len(words) == 1:
        return joined(words)
    return M("%(names)s and %(last)s", names=joined(words[:-1]), last=words[-1])


def _counts(
    raw: object, field: str, names: Sequence[str], cards: int, noun: str, partial: bool
) -> tuple[int | None, ...]:
    """A list of one count 0..cards per seat; in a complete hand every seat needs one."""
    if not isinstance(raw, list):
        raise RuleError(
            field,
            M("give the bids as a list with one number per player, in seat order")
            if noun == "bid"
            else M("give the tricks as a list with one number per player, in seat order")
            if noun == "tricks"
            else M("give the shared tricks as a list with one number per player, in seat order"),
        )
    if len(raw) > len(names) or (len(raw) < len(names) and not partial):
        count, given = len(names), len(raw)
        raise RuleError(
            field,
            M("give bids for all %(count)s players, not %(given)s", count=count, given=given)
            if noun == "bid"
            else M("give tricks for all %(count)s players, not %(given)s", count=count, given=given)
            if noun == "tricks"
            else M("give shared tricks for all %(count)s players, not %(given)s", count=count, given=given),
        )
    values = parse_counts(raw, field, names, cards, what=noun, allow_missing=True)
    if not partial:
        errors = ErrorCollector()
        for seat, value in enumerate(values):
            if value is None:
                errors.add(
                    RuleError(
                        f"{field}.{seat}",
                        M("no bid entered for %(name)s", name=names[seat])
                        if noun == "bid"
                        else M("no tricks entered for %(name)s", name=names[seat])
                        if noun == "tricks"
                        else M("no shared tricks entered for %(name)s", name=names[seat]),
                    )
                )
        errors.raise_if_any()
    return tuple(values)


def _read(setup: Setup, spec: RoundSpec, raw: object, partial: bool) -> _Entry:
    """Read a hand's keys, each checked on its own; `partial` lets values be missing."""
    if not isinstance(raw, Mapping):
        raise RuleErrors([RuleError("hand", M("a hand is an object with the bids and the tricks"))])
    names, cards = setup.players, spec.cards
    remote = setup.options.get_bool("remote")
    errors = ErrorCollector()
    for key in raw:
        if key not in HAND_KEYS:
            errors.add(
                RuleError(key_field(key), M("%(key)s is not part of an %(game)s hand", key=quoted(key), game=NAME))
            )
    bids: tuple[int | None, ...] | None = None
    tricks: tuple[int | None, ...] = (None,) * len(names)
    shared: tuple[int | None, ...] | None = None
    trump: Trump | None = None
    raw_bids, raw_tricks, raw_shared = raw.get("bids"), raw.get("tricks"), raw.get("shared")
    try:
        if spec.kind is RoundKind.MISERE:
            if raw_bids is not None:
                raise RuleError("bids", M("there is no bidding in the misère round: leave the bids out"))
        elif raw_bids is None and not partial:
            raise RuleError("bids", M("the bids are missing: give one bid per player, in seat order"))
        else:
            bids = _counts([] if raw_bids is None else raw_bids, "bids", names, cards, "bid", partial)
            check_bids(bids, names, cards, spec.first_bidder or 0, hook=True)  # None only in misère
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    try:
        if raw_tricks is None and not partial:
            raise RuleError("tricks", M("the tricks are missing: give the tricks won by each player"))
        if raw_tricks is not None:
            tricks = _counts(raw_tricks, "tricks", names, cards, "tricks", partial)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    try:
        if raw_shared is not None and not remote:
            raise RuleError(
                "shared",
                M(
                    "shared tricks only happen in remote play with several packs: "
                    "turn on the remote option, or give no shared tricks"
                ),
            )
        if raw_shared is not None:
            shared = _counts(raw_shared, "shared", names, cards, "shared tricks", partial)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    try:
        if raw.get("trump") is not None:
            trump = parse_trump(raw.get("trump"), "trump", OVERRIDE_TRUMPS)
    except RuleError as e:
        errors.add(e)
    errors.raise_if_any()
    return _Entry(bids, tricks, shared, trump)


def _raise_all(errors: Sequence[RuleError]) -> None:
    if errors:
        raise RuleErrors(errors)


def check_remote_tricks(names: Sequence[str], cards: int, tricks: Sequence[int], shared: Sequence[int]) -> None:
    """Check trick counts when a trick may be won jointly by players of different households.

    Every trick has at least one winner. A trick won alone counts once, so the tricks won alone,
    `solo` = sum(tricks - shared), leave `cards - solo` tricks that were shared: `solo <= cards`.
    A player wins a given shared trick at most once, so nobody shares more than `cards - solo`;
    each shared trick has at least two winners, so the shared counts add up to at least
    2 x (cards - solo) (equivalently solo + sum(shared)/2 >= cards). These conditions are also
    enough: the shared wins can always be spread so that every shared trick gets two or more.
    """
    too_many = [
        RuleError(
            f"shared.{seat}",
            M(
                "%(name)s won %(tricks)s, so cannot have shared %(shared)s",
                name=names[seat],
                tricks=_tricks(tricks[seat]),
                shared=shared[seat],
            ),
        )
        for seat in range(len(names))
        if shared[seat] > tricks[seat]
    ]
    _raise_all(too_many)
    solo = sum(tricks) - sum(shared)
    if solo > cards:
        raise RuleError(
            "tricks",
            M(
                "the tricks won alone add up to %(solo)s but there are only %(tricks)s in this "
                "hand; enter tricks won jointly as shared",
                solo=solo,
                tricks=_tricks(cards),
            ),
        )
    if not sum(shared):
        check_trick_total(tricks, cards)  # nothing shared: plain single-winner arithmetic
    jointly = cards - solo
    not_alone = (
        M("1 of the %(tricks)s was not won alone", tricks=_tricks(cards))
        if jointly == 1
        else M("%(jointly)s of the %(tricks)s were not won alone", jointly=jointly, tricks=_tricks(cards))
    )
    _raise_all(
        [
            RuleError(
                f"shared.{seat}",
                M(
                    "%(name)s shared %(tricks)s, but only %(not_alone)s",
                    name=names[seat],
                    tricks=_tricks(shared[seat]),
                    not_alone=not_alone,
                ),
            )
            for seat in range(len(names))
            if shared[seat] > jointly
        ]
    )
    if sum(shared) < 2 * jointly:
        raise RuleError(
            "shared",
            M(
                "%(not_alone)s, so each had two or more winners: the shared tricks must add up "
                "to at least %(least)s, not %(given)s",
                not_alone=not_alone,
                least=2 * jointly,
                given=sum(shared),
            ),
        )


def _complete(setup: Setup, spec: RoundSpec, entry: _Entry) -> Hand:
    """Turn a fully entered hand into a `Hand`, checking that the tricks add up."""
    tricks = tuple(t or 0 for t in entry.tricks)
    shared = (0,) * len(tricks) if entry.shared is None else tuple(s or 0 for s in entry.shared)
    try:
        if setup.options.get_bool("remote"):
            check_remote_tricks(setup.players, spec.cards, tricks, shared)
        else:
            check_trick_total(tricks, spec.cards)
    except RuleError as e:
        raise RuleErrors([e]) from None
    bids = None if entry.bids is None else tuple(b or 0 for b in entry.bids)
    return Hand(bids, tricks, shared, entry.trump)


def parse_hand(setup: Setup, spec: RoundSpec, raw: object) -> Hand:
    """Check a complete hand for round `spec`; RuleErrors name every bad field."""
    return _complete(setup, spec, _read(setup, spec, raw, partial=False))


# --------------------------------------------------------------------------- scoring


def seat_points(kind: RoundKind, bid: int | None, tricks: int, shared: int) -> int:
    """One player's points for a round.

    Exact bid: 10 + 2 per trick won alone + 1 per shared trick; otherwise 0. Misère: 10 for
    no tricks, else -2 per trick won (shared ones too).
    """
    if kind is RoundKind.MISERE:
        return MISERE_CLEAN if tricks == 0 else MISERE_PER_TRICK * tricks
    if bid != tricks:
        return 0
    return EXACT_BONUS + PER_TRICK * (tricks - shared) + PER_SHARED_TRICK * shared


def _detail(bid: int | None, tricks: int, shared: int) -> Message:
    if bid is None:
        return (
            M("took %(tricks)s (%(shared)s shared)", tricks=tricks, shared=shared)
            if shared
            else M("took %(tricks)s", tricks=tricks)
        )
    return (
        M("bid %(bid)s · took %(tricks)s (%(shared)s shared)", bid=bid, tricks=tricks, shared=shared)
        if shared
        else M("bid %(bid)s · took %(tricks)s", bid=bid, tricks=tricks)
    )


def _winner_words(names: Sequence[str], seats: Sequence[int], total: int) -> Message:
    if len(seats) == 1:
        return M("%(name)s wins with %(total)s", name=names[seats[0]], total=total)
    return M("Tie: %(names)s with %(total)s each", names=_and([names[s] for s in seats]), total=total)


def _score_line(spec: RoundSpec, hand: Hand, totals: list[int], made: list[int]) -> Line:
    """Score one round, adding to the running `totals` and `made` counts.

    A cell's `made` is the bid made, or in misère winning no tricks (the round's aim).
    """
    cells: list[Cell] = []
    for seat, tricks in enumerate(hand.tricks):
        bid = None if hand.bids is None else hand.bids[seat]
        points = seat_points(spec.kind, bid, tricks, hand.shared[seat])
        totals[seat] += points
        success = tricks == 0 if bid is None else tricks == bid
        if bid is not None and success:
            made[seat] += 1
        cells.append(Cell(points, totals[seat], _detail(bid, tricks, hand.shared[seat]), bid, tricks, success))
    note = ""
    if hand.trump is not None and hand.trump is not spec.trump:
        scheduled = spec.trump.label if spec.trump else M("none")
        note = M(
            "Trump changed by the scorer: %(trump)s (the schedule said %(scheduled)s)",
            trump=hand.trump.label,
            scheduled=scheduled,
        )
        spec = replace(spec, trump=hand.trump)
    return Line(spec.number, spec, tuple(cells), note)


@dataclass(frozen=True)
class _Bidding:
    """Who bids next in a partly entered hand, what they may bid, and what is still missing."""

    to_act: int | None = None
    legal: tuple[int, ...] = ()
    forbidden: int | None = None
    missing: Message | str = ""


def _bidding(spec: RoundSpec, names: Sequence[str], bids: Sequence[int | None]) -> _Bidding:
    """The next bidder is the first in bidding order without a bid; the hook binds the last one."""
    order = bidding_order(len(names), spec.first_bidder or 0)
    waiting = [s for s in order if bids[s] is None]
    if not waiting:
        return _Bidding()
    to_act = waiting[0]
    earlier = [bids[s] or 0 for s in order[: order.index(to_act)]]
    forbidden = hook_forbidden(spec.cards, earlier) if len(earlier) == len(names) - 1 else None
    who = _and([names[s] for s in waiting])
    missing = (
        M("bids from %(names)s (blind round: bids are taken before the cards are dealt)", names=who)
        if spec.kind is RoundKind.BLIND
        else M("bids from %(names)s", names=who)
    )
    return _Bidding(to_act, legal_bids(spec.cards, earlier, len(names), hook=True), forbidden, missing)


class AustralianWhist:
    """The Australian Whist variant (see the module docstring)."""

    key = "australian"
    name = NAME
    summary: str = M(
        "The deal rises from 1 card to 10 (8 with six players, 7 with seven), five special rounds are "
        "played at the top (normal, no trumps, blind bid, misère, normal), then it falls back to 1. "
        "Bid the exact number of tricks you will win: making it scores 10 plus 2 per trick, missing it "
        "scores nothing, and the last bidder may never make the bids add up to the tricks. In the misère "
        "round every trick won costs 2 points and winning none scores 10."
    )
    option_specs: tuple[OptionSpec, ...] = (
        OptionSpec(
            "trump_cycle",
            M("Trumps after the suitless rounds"),
            "skip",
            help=M(
                "Trumps go hearts, clubs, diamonds, spades by round number. 'Skip': the no-trump and "
                "misère rounds lose their suit, so round n always has suit n of the cycle. 'Pause': "
                "the cycle stands still on those two rounds, so their suit goes to the next round "
                "that has trumps."
            ),
            choices=(
                Choice("skip", M("Skip the suitless rounds' suits (by round number)")),
                Choice("pause", M("Pause the cycle on the suitless rounds")),
            ),
        ),
        OptionSpec(
            "remote",
            M("Remote play with several packs"),
            False,
            help=M(
                "Households each use their own pack, so a trick can be won jointly by players of "
                "different households: it counts as won for each of them but scores 1 point instead "
                "of 2 (in misère each still loses 2). Enter such tricks as 'shared'."
            ),
        ),
    )
    partnerships = False
    players = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    club_ranked_by_points = False
    stats = StatsFacts(
        EXACT_BIDS
        + (
            FactSpec("misere", M("Misère rounds won clean"), "misere_made", "misere_played"),
            FactSpec("blind", M("Blind bids made"), "blind_made", "blind_played"),
        ),
        count_bids,
    )

    def check_setup(self, setup: Setup) -> None:
        errors = ErrorCollector()
        try:
            resolve_options(self.option_specs, setup.options.values)
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
                errors.add(RuleError(f"players.{seat}", M("two players are called '%(name)s'", name=player)))
            seen.add(player.casefold())
        if count and not 0 <= setup.first_dealer < count:
            errors.add(
                RuleError(
                    "first_dealer",
                    M(
                        "the first dealer must be a player number from 0 to %(last)s, not %(given)s",
                        last=count - 1,
                        given=setup.first_dealer,
                    ),
                )
            )
        errors.raise_if_any()

    def round_count(self, setup: Setup) -> int:
        return 2 * max_cards(len(setup.players)) + len(SPECIAL_ROUNDS) - 2

    def round_spec(self, setup: Setup, number: int) -> RoundSpec:
        total = self.round_count(setup)
        if not 1 <= number <= total:
            raise RuleError(
                "round", M("there is no round %(number)s: the game has %(rounds)s rounds", number=number, rounds=total)
            )
        seats, top = len(setup.players), max_cards(len(setup.players))
        kind = round_kind(top, number)
        cards = round_cards(top, number)
        trump = scheduled_trump(top, number, setup.options.get_str("trump_cycle"))
        dealer = (setup.first_dealer + number - 1) % seats
        first_bidder = None if kind is RoundKind.MISERE else (dealer + 1) % seats
        special = number - top + 1 if top <= number < top + len(SPECIAL_ROUNDS) else 0
        return RoundSpec(number, cards, trump, dealer, first_bidder, kind, _note(kind, special, cards))

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        self.check_setup(setup)
        parse_hand(setup, self._next_spec(setup, len(before)), hand)

    def _next_spec(self, setup: Setup, played: int) -> RoundSpec:
        total = self.round_count(setup)
        if played >= total:
            raise RuleErrors(
                [RuleError("hand", M("the game is over: all %(rounds)s rounds have been played", rounds=total))]
            )
        return self.round_spec(setup, played + 1)

    @derived_once
    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        self.check_setup(setup)
        names, total_rounds = setup.players, self.round_count(setup)
        errors = ErrorCollector()
        parsed: list[tuple[RoundSpec, Hand]] = []
        for number, raw in enumerate(hands, start=1):
            try:
                spec = self._next_spec(setup, number - 1)
                parsed.append((spec, parse_hand(setup, spec, raw)))
            except (RuleError, RuleErrors) as e:
                found = e.errors if isinstance(e, RuleErrors) else (e,)
                errors.add(RuleErrors([err.at_hand(number) for err in found]))
        errors.raise_if_any()
        totals = [0] * len(names)
        made = [0] * len(names)
        lines: list[Line] = []
        finished = len(hands) == total_rounds
        for spec, hand in parsed:
            lines.append(_score_line(spec, hand, totals, made))
        standings = rank(
            totals, names, [M("1 bid made") if m == 1 else M("%(count)s bids made", count=m) for m in made]
        )
        winners = leaders(standings) if finished else ()
        if finished:
            summary = _winner_words(names, winners, standings[0].total)
            lines[-1] = replace(lines[-1], note=joined([n for n in (lines[-1].note, summary) if n], "; "))
        elif lines:
            top = leaders(standings)
            leading = dict(
                played=len(lines), rounds=total_rounds, names=_and([names[s] for s in top]), total=standings[0].total
            )
            summary = (
                M("After %(played)s of %(rounds)s rounds: %(names)s leads with %(total)s", **leading)
                if len(top) == 1
                else M("After %(played)s of %(rounds)s rounds: %(names)s lead with %(total)s", **leading)
            )
        else:
            summary = M("No rounds played yet")
        return ScoreSheet(self.key, names, tuple(lines), standings, finished, winners, summary)

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        sheet = self.score(setup, hands)
        if sheet.finished:
            if pending:
                raise RuleErrors([RuleError("hand", M("the game is over after %(rounds)s rounds", rounds=len(hands)))])
            return GameState(len(hands), True, "over", None, winners=sheet.winners)
        spec = self.round_spec(setup, len(hands) + 1)
        entry = _read(setup, spec, pending or {}, partial=True)
        if entry.trump is not None:
            spec = replace(spec, trump=entry.trump)
        names = setup.players
        bidding = _Bidding() if entry.bids is None else _bidding(spec, names, entry.bids)
        missing = [bidding.missing] if bidding.missing else []
        no_tricks = [names[s] for s, t in enumerate(entry.tricks) if t is None]
        if no_tricks:
            missing.append(M("tricks won by %(names)s", names=_and(no_tricks)))
        no_shared = [names[s] for s, v in enumerate(entry.shared or ()) if v is None]
        if no_shared:
            missing.append(M("shared tricks of %(names)s", names=_and(no_shared)))
        # Once everything is in, the hand must add up; in remote play only once the shared tricks are in too.
        shared_in = entry.shared is not None or not setup.options.get_bool("remote")
        if not missing and shared_in:
            _complete(setup, spec, entry)
        return GameState(
            len(hands),
            False,
            "bids" if bidding.to_act is not None else "result",
            spec,
            bidding.to_act,
            bidding.legal,
            bidding.forbidden,
            tuple(missing),
        )


VARIANT: Variant = AustralianWhist()
