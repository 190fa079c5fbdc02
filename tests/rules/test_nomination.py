"""Nomination Whist, checked like score sheets written by hand (rules/nomination-whist.txt, RULES-NOTES).

Bids and tricks are in seat order (Ann, Bob, Cat, Dan, ...); the comments give the bidding order,
which starts left of the dealer. Expected values are worked out by hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.base import Options, RawHand, RoundKind, RuleError, RuleErrors, Setup, Team, resolve_options
from scorepad.rules.cards import Trump
from scorepad.rules.nomination import VARIANT

FOUR = ("Ann", "Bob", "Cat", "Dan")
SEVEN = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")


def make_setup(players: Sequence[str] = FOUR, first_dealer: int = 0, /, **options: object) -> Setup:
    return Setup(
        "nomination", resolve_options(VARIANT.option_specs, options), tuple(players), first_dealer=first_dealer
    )


def one_round(cards: int, players: Sequence[str] = FOUR, **options: object) -> Setup:
    """A one-round game of `cards` cards, Ann dealing: bidding goes Bob, Cat, Dan, ..., Ann last."""
    return make_setup(players, 0, sequence="custom", custom_sequence=[cards], **options)


def rounds(setup: Setup) -> int:
    count = VARIANT.round_count(setup)
    assert count is not None  # the schedule is always fixed
    return count


def hand(bids: list[int], tricks: list[int], trump: str = "H") -> dict[str, object]:
    return {"trump": trump, "bids": bids, "tricks": tricks}


def errors_of(call: object, *args: object) -> list[RuleError]:
    assert callable(call)
    with pytest.raises(RuleErrors) as caught:
        call(*args)
    return list(caught.value.errors)


def test_registered_under_its_key() -> None:
    assert get_variant("nomination") is VARIANT
    assert VARIANT.name == "Nomination Whist"
    assert "10" in VARIANT.summary


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    "bids, tricks, points",
    [
        # "one point" per trick won, "ten extra points" for the exact number nominated
        pytest.param(
            [2, 0, 1, 0], [2, 0, 2, 0], [12, 10, 2, 10], id="bid-2-took-2-is-12;bid-0-took-0-is-10;bid-1-took-2-is-2"
        ),
        pytest.param([0, 3, 0, 0], [1, 0, 1, 2], [1, 0, 1, 2], id="missed-bids-keep-only-their-tricks"),
        pytest.param([1, 0, 3, 1], [1, 0, 3, 0], [11, 10, 13, 0], id="three-exact-one-short"),
    ],
)
def test_one_four_card_round(bids: list[int], tricks: list[int], points: list[int]) -> None:
    sheet = VARIANT.score(one_round(4), [hand(bids, tricks)])
    assert [c.points for c in sheet.lines[0].cells] == points
    assert [c.made for c in sheet.lines[0].cells] == [b == t for b, t in zip(bids, tricks)]


# The document's schedule from the start: 1, 2, 3, 4 cards, Ann dealing first, the dealer moving left.
OPENING = [
    # 1 card, bidding Bob, Cat, Dan, Ann: no hook under 4 cards, so the bids may total 1
    (hand([0, 1, 0, 0], [0, 1, 0, 0]), [10, 11, 10, 10], [10, 11, 10, 10], "bid 1 · took 1"),
    # 2 cards, bidding Cat, Dan, Ann, Bob
    (hand([1, 0, 1, 0], [1, 0, 0, 1], "S"), [11, 10, 0, 1], [21, 21, 10, 11], "bid 0 · took 0"),
    # 3 cards: "four or more cards" only, so Cat (last) may bring the total to 3
    (hand([1, 1, 1, 0], [1, 1, 1, 0], "D"), [11, 11, 11, 10], [32, 32, 21, 21], "bid 1 · took 1"),
    # 4 cards, bidding Ann, Bob, Cat, Dan: the bids total 3, not 4
    (hand([1, 1, 0, 1], [2, 1, 0, 1], "C"), [2, 11, 10, 11], [34, 43, 31, 32], "bid 1 · took 1"),
]


@pytest.mark.parametrize("upto", range(1, len(OPENING) + 1), ids=lambda n: f"after-round-{n}")
def test_running_totals_of_the_opening_rounds(upto: int) -> None:
    sheet = VARIANT.score(make_setup(), [row[0] for row in OPENING[:upto]])
    entered, points, totals, bob_detail = OPENING[upto - 1]
    line = sheet.lines[-1]
    assert [c.points for c in line.cells] == points
    assert [c.total for c in line.cells] == totals
    assert line.cells[1].detail == bob_detail
    assert line.spec.cards == upto and line.spec.trump is Trump(entered["trump"])
    assert [s.total for s in sheet.standings] == sorted(totals, reverse=True)
    assert not sheet.finished and sheet.winners == ()


def test_summary_while_playing_and_before_any_round() -> None:
    assert VARIANT.score(make_setup(), []).summary == "No rounds played yet"
    sheet = VARIANT.score(make_setup(), [row[0] for row in OPENING])
    assert sheet.summary == "After 4 of 13 rounds: Bob leads with 43"
    assert sheet.standings[0].detail == "4 bids made"  # Bob made every bid
    assert sheet.standings[-1].name == "Cat" and sheet.standings[-1].detail == "3 bids made"


def test_cell_records_bid_tricks_and_made() -> None:
    cell = VARIANT.score(one_round(4), [hand([2, 0, 1, 0], [2, 0, 2, 0])]).lines[0].cells[2]
    assert (cell.bid, cell.tricks, cell.made, cell.detail) == (1, 2, False, "bid 1 · took 2")


def test_game_over_when_the_schedule_is_played_and_ties_are_ties() -> None:
    # custom 1, 1 with three players: Bob takes round 1, Cat round 2, every bid exact
    setup = make_setup(("Ann", "Bob", "Cat"), 0, sequence="custom", custom_sequence=[1, 1])
    first = hand([0, 1, 0], [0, 1, 0])  # Ann 10, Bob 11, Cat 10
    sheet = VARIANT.score(setup, [first])
    assert not sheet.finished and sheet.winners == ()
    sheet = VARIANT.score(setup, [first, hand([0, 0, 1], [0, 0, 1])])  # Ann 20, Bob 21, Cat 21
    assert sheet.finished and sheet.winners == (1, 2)
    assert [(s.name, s.total, s.rank) for s in sheet.standings] == [("Bob", 21, 1), ("Cat", 21, 1), ("Ann", 20, 3)]
    assert sheet.summary == "Tie: Bob and Cat with 21 each"
    assert sheet.lines[-1].note == sheet.summary


def test_a_hand_after_the_last_round_is_refused() -> None:
    setup = one_round(4)
    [error] = errors_of(VARIANT.score, setup, [hand([2, 0, 1, 0], [2, 0, 2, 0])] * 2)
    assert (error.hand, error.field) == (2, "hand") and error.message.startswith("the game is over after 1 round:")
    [error] = errors_of(VARIANT.check_hand, setup, [hand([2, 0, 1, 0], [2, 0, 2, 0])], hand([0] * 4, [4, 0, 0, 0]))
    assert "the game is over" in error.message


# --------------------------------------------------------------------------- the hook rule


def test_four_card_round_bids_1_1_0_forbid_2_to_the_last_bidder() -> None:
    # "The final player to nominate may not choose a number that makes the total equal"
    setup = one_round(4)
    state = VARIANT.state(setup, [], {"bids": [None, 1, 1, 0]})  # Bob 1, Cat 1, Dan 0; Ann to bid
    assert state.to_act == 0 and state.forbidden_bid == 2
    assert state.legal_bids == (0, 1, 3, 4)
    [error] = errors_of(VARIANT.check_hand, setup, [], hand([2, 1, 1, 0], [1, 1, 1, 1]))
    assert error.field == "bids.0"
    assert error.message == "Ann bids last and may not bid 2: the bids would total 4, the number of tricks"
    VARIANT.check_hand(setup, [], hand([3, 1, 1, 0], [1, 1, 1, 1]))


def test_three_card_round_lets_the_last_bidder_make_the_total() -> None:
    # "In rounds where each hand contains four or more cards": none at 3 cards by default
    setup = one_round(3)
    state = VARIANT.state(setup, [], {"trump": "S", "bids": [None, 1, 1, 0]})
    assert state.to_act == 0 and state.forbidden_bid is None and state.legal_bids == (0, 1, 2, 3)
    VARIANT.check_hand(setup, [], hand([1, 1, 1, 0], [1, 1, 1, 0]))


def test_hook_every_round_option_binds_small_rounds() -> None:
    # RULES-NOTES: "in rounds of 4 or more cards (the document's rule; option: every round)"
    setup = one_round(1, ("Ann", "Bob", "Cat"), hook="every")
    state = VARIANT.state(setup, [], {"trump": "H", "bids": [None, 0, 0]})
    assert state.forbidden_bid == 1 and state.legal_bids == (0,)
    [error] = errors_of(VARIANT.check_hand, setup, [], hand([1, 0, 0], [1, 0, 0]))
    assert error.field == "bids.0" and "may not bid 1: the bids would total 1" in error.message


def test_hook_has_nothing_to_forbid_when_earlier_bids_exceed_the_cards() -> None:
    state = VARIANT.state(one_round(4), [], {"trump": "H", "bids": [None, 3, 2, 1]})
    assert state.forbidden_bid is None and state.legal_bids == (0, 1, 2, 3, 4)


# --------------------------------------------------------------------------- bad entries


FOUR_CARDS_GOOD = hand([2, 0, 1, 0], [2, 0, 2, 0])


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"honours": 4}, "honours", "'honours' is not part of a Nomination Whist hand"),
        ({"trump": None}, "trump", "the trump is missing: give the suit turned up as H, D, C or S, or NT"),
        ({"trump": "X"}, "trump", "'X' is not a trump; use one of H, D, C, S, NT"),
        ({"trump": "NTL"}, "trump", "No trumps (Low: giveaway) is not allowed here"),
        ({"trump": 5}, "trump", "the trump must be one of H, D, C, S, NT"),
        ({"bids": None}, "bids", "the bids are missing: give 4 bids, one per player in seat order"),
        ({"bids": "2010"}, "bids", "give the bids as a list with one number per player"),
        ({"bids": [2, 0, 1]}, "bids", "give 4 bids, one per player in seat order, not 3"),
        ({"bids": [2, 0, 1, 0, 0]}, "bids", "give 4 bids, one per player in seat order, not 5"),
        ({"bids": [2, 0, "1", 0]}, "bids.2", "Cat's bid must be a whole number"),
        ({"bids": [2, True, 1, 0]}, "bids.1", "Bob's bid must be a whole number"),
        ({"bids": [2, 0, 1, None]}, "bids.3", "Dan's bid must be a whole number"),
        ({"bids": [2, 5, 1, 0]}, "bids.1", "Bob's bid must be between 0 and 4"),
        ({"bids": [-1, 0, 1, 0]}, "bids.0", "Ann's bid must be between 0 and 4"),
        ({"bids": [3, 0, 1, 0]}, "bids.0", "Ann bids last and may not bid 3: the bids would total 4"),
        ({"tricks": None}, "tricks", "the tricks are missing: give 4 trick counts"),
        ({"tricks": {"Ann": 2}}, "tricks", "give the trick counts as a list"),
        ({"tricks": [2, 0, 2]}, "tricks", "give 4 trick counts, one per player in seat order, not 3"),
        ({"tricks": [2, 0, 2.0, 0]}, "tricks.2", "Cat's tricks must be a whole number"),
        ({"tricks": [2, 0, 5, 0]}, "tricks.2", "Cat's tricks must be between 0 and 4"),
        ({"tricks": [2, 0, 1, 0]}, "tricks", "the tricks add up to 3 but there are 4 tricks in this hand"),
        ({"tricks": [2, 1, 2, 0]}, "tricks", "the tricks add up to 5 but there are 4 tricks in this hand"),
    ],
)
def test_bad_entries_name_the_field(change: dict[str, object], field: str, words: str) -> None:
    entry = {k: v for k, v in {**FOUR_CARDS_GOOD, **change}.items() if v is not None}
    [error] = errors_of(VARIANT.check_hand, one_round(4), [], entry)
    assert error.field == field
    assert words in error.message


@pytest.mark.parametrize("raw", [None, [], "bids", 4], ids=repr)
def test_a_hand_that_is_not_an_object_is_refused(raw: object) -> None:
    [error] = errors_of(VARIANT.check_hand, one_round(4), [], raw)
    assert error.field == "hand" and "a hand is an object" in error.message


def test_every_problem_of_a_hand_is_reported_together() -> None:
    errors = errors_of(
        VARIANT.check_hand,
        one_round(4),
        [],
        {"trump": "Z", "bids": [2, "x", 9, 0], "tricks": [1, 1, 1, 0], "note": "?"},
    )
    assert [e.field for e in errors] == ["note", "trump", "bids.1", "bids.2", "tricks"]


def test_bidding_out_of_turn_is_refused() -> None:
    # bidding order for one_round(4): Bob, Cat, Dan, Ann
    [error] = errors_of(VARIANT.state, one_round(4), [], {"bids": [None, None, 1, None]})
    assert error.field == "bids.2" and error.message == "Cat cannot bid before Bob"


def test_score_names_the_hand_of_every_error() -> None:
    setup = make_setup()
    hands: list[RawHand] = [
        hand([0, 1, 0, 0], [0, 1, 0, 0]),
        hand([1, 0, 1, 0], [1, 0, 0, 0]),
        hand([1, 1, 1, 0], [1, 1, 1, 0], "Q"),
    ]
    errors = errors_of(VARIANT.score, setup, hands)
    assert [(e.hand, e.field) for e in errors] == [(2, "tricks"), (3, "trump")]
    assert str(errors[0]).startswith("hand 2, tricks: the tricks add up to 1 but there are 2 tricks")


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    "players, first_dealer, options, field, words",
    [
        (("Ann", "Bob"), 0, {}, "players", "needs 3 to 7 players, not 2"),
        (SEVEN + ("Hal",), 0, {}, "players", "needs 3 to 7 players, not 8"),
        (FOUR, 4, {}, "first_dealer", "a player number from 0 to 3, not 4"),
        (FOUR, -1, {}, "first_dealer", "not -1"),
        (("Ann", "Bob", "ann"), 0, {}, "players.2", "two players are called 'ann'"),
        (("Ann", " ", "Cat"), 0, {}, "players.1", "player 2 needs a name"),
        (
            FOUR,
            0,
            {"custom_sequence": [7, 6, 5]},
            "options.custom_sequence",
            'only used when the cards per round are "My own list"',
        ),
    ],
)
def test_bad_setups_are_refused(
    players: tuple[str, ...], first_dealer: int, options: dict[str, object], field: str, words: str
) -> None:
    [error] = errors_of(VARIANT.check_setup, make_setup(players, first_dealer, **options))
    assert error.field == field and words in error.message


def test_teams_are_refused() -> None:
    setup = Setup("nomination", resolve_options(VARIANT.option_specs, {}), FOUR, (Team("Us"), Team("Them")))
    [error] = errors_of(VARIANT.check_setup, setup)
    assert error.field == "teams" and "played individually" in error.message


@pytest.mark.parametrize(
    "options, field, words",
    [
        ({"sequence": "sideways"}, "options.sequence", 'one of: "1 up to 13", "13 down to 1"'),
        ({"custom_sequence": [3, 0]}, "options.custom_sequence", "at least 1"),
        ({"custom_sequence": [14]}, "options.custom_sequence", "at most 13"),
        ({"custom_sequence": []}, "options.custom_sequence", "non-empty list"),
        # a list of 52 rounds is the longest (one per card; the presets have 13 to 19 rounds)
        (
            {"custom_sequence": [7] * 53},
            "options.custom_sequence",
            "Custom list of cards per round: at most 52 rounds, not 53",
        ),
        ({"custom_sequence": [1] * 15_000, "cycles": 4}, "options.custom_sequence", "at most 52 rounds, not 15000"),
        ({"cycles": 0}, "options.cycles", "at least 1"),
        ({"cycles": 5}, "options.cycles", "at most 4"),
        ({"hook": "never"}, "options.hook", '"Rounds of 4 or more cards" or "Every round"'),
        ({"trumps": "fixed"}, "options.trumps", 'one of: "Entered each round'),
        ({"target": 100}, "options.target", "not an option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(VARIANT.option_specs, options)
    [error] = caught.value.errors
    assert error.field == field and words in error.message


def test_options_are_rechecked_when_a_setup_is_built_by_hand() -> None:
    setup = Setup("nomination", Options({"cycles": 9}), FOUR)
    [error] = errors_of(VARIANT.check_setup, setup)
    assert error.field == "options.cycles"
    # a list (as JSON gives it) is read as the custom sequence
    setup = Setup("nomination", Options(json.loads('{"sequence": "custom", "custom_sequence": [2, 1]}')), FOUR)
    assert rounds(setup) == 2


def test_option_defaults_follow_the_document() -> None:
    specs = {s.key: s for s in VARIANT.option_specs}
    assert {k: s.default for k, s in specs.items()} == {
        "sequence": "up",
        "custom_sequence": tuple(range(1, 14)),
        "cycles": 1,
        "hook": "four_plus",
        "trumps": "entered",
    }
    assert all(s.label and s.help for s in specs.values())


# --------------------------------------------------------------------------- the schedule


@pytest.mark.parametrize(
    "options, cards",
    [
        ({}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),  # "dealing one card ... thirteen"
        ({"sequence": "down"}, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        ({"sequence": "seven"}, [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]),
        ({"sequence": "ten"}, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        ({"sequence": "custom", "custom_sequence": [5, 1, 5]}, [5, 1, 5]),
        ({"sequence": "seven", "cycles": 2}, [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7] * 2),
        # "After thirteen, the cards dealt moves back to one"
        ({"cycles": 2}, list(range(1, 14)) + list(range(1, 14))),
    ],
    ids=["up", "down", "seven", "ten", "custom", "seven-twice", "up-twice"],
)
def test_sequences(options: dict[str, object], cards: list[int]) -> None:
    setup = make_setup(**options)
    assert VARIANT.round_count(setup) == len(cards)
    assert [VARIANT.round_spec(setup, n).cards for n in range(1, len(cards) + 1)] == cards


@pytest.mark.parametrize("players, top", [(3, 13), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_deal_is_capped_by_the_pack(players: int, top: int) -> None:
    setup = make_setup(SEVEN[:players])
    last = VARIANT.round_spec(setup, 13)
    assert last.cards == top
    if top < 13:
        assert (
            last.note == f"13 cards asked for, capped at {top}: one pack deals at most {top} each to {players} players"
        )
        assert VARIANT.round_spec(setup, top).note == ""
    else:
        assert last.note == ""


def test_dealer_moves_left_and_the_player_on_the_left_bids_first() -> None:
    setup = make_setup(FOUR, 2)
    specs = [VARIANT.round_spec(setup, n) for n in range(1, 6)]
    assert [s.dealer for s in specs] == [2, 3, 0, 1, 2]
    assert [s.first_bidder for s in specs] == [3, 0, 1, 2, 3]


def test_no_round_outside_the_schedule() -> None:
    with pytest.raises(RuleError) as caught:
        VARIANT.round_spec(make_setup(), 14)
    assert caught.value.field == "round" and "the game has 13 rounds" in caught.value.message


def test_entered_trumps_leave_the_schedule_open_and_show_on_the_sheet() -> None:
    setup = make_setup()
    assert VARIANT.round_spec(setup, 1).trump is None
    line = VARIANT.score(setup, [hand([0, 1, 0, 0], [0, 1, 0, 0], "nt")]).lines[0]
    assert line.spec.trump is Trump.NO_TRUMPS and line.spec.kind is RoundKind.NO_TRUMPS


def test_rotating_trumps() -> None:
    # RULES-NOTES: "a rotating sequence such as hearts, diamonds, clubs, spades, no trumps"
    setup = make_setup(trumps="rotate")
    specs = [VARIANT.round_spec(setup, n) for n in range(1, 8)]
    assert [s.trump.value if s.trump else None for s in specs] == ["H", "D", "C", "S", "NT", "H", "D"]
    assert specs[4].kind is RoundKind.NO_TRUMPS and specs[3].kind is RoundKind.NORMAL
    first = {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}
    second = {"trump": "d", "bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 1]}
    sheet = VARIANT.score(setup, [first, second])
    assert [line.spec.trump for line in sheet.lines] == [Trump.HEARTS, Trump.DIAMONDS]
    [error] = errors_of(VARIANT.check_hand, setup, [first], {**second, "trump": "S"})
    assert error.field == "trump"
    assert error.message == "trumps rotate, so round 2 is Diamonds: give D or leave the trump out"


# --------------------------------------------------------------------------- state


def test_state_before_anything_is_entered() -> None:
    state = VARIANT.state(one_round(4), [])
    assert (state.step, state.to_act, state.forbidden_bid, state.hands_played) == ("bids", 1, None, 0)
    assert state.legal_bids == (0, 1, 2, 3, 4)
    assert state.missing == ("the trump", "bid from Bob", "bid from Cat", "bid from Dan", "bid from Ann")
    assert state.next_round is not None and state.next_round.cards == 4 and state.next_round.trump is None


@pytest.mark.parametrize(
    "bids, to_act, missing",
    [
        ([None, 1], 2, ("bid from Cat", "bid from Dan", "bid from Ann")),
        ([None, 1, None, None], 2, ("bid from Cat", "bid from Dan", "bid from Ann")),
        ([None, 1, 1], 3, ("bid from Dan", "bid from Ann")),
        ([None, 1, 1, 0], 0, ("bid from Ann",)),
    ],
)
def test_state_with_some_bids_in(bids: list[int | None], to_act: int, missing: tuple[str, ...]) -> None:
    state = VARIANT.state(one_round(4), [], {"trump": "C", "bids": bids})
    assert state.step == "bids" and state.to_act == to_act and state.missing == missing
    assert state.next_round is not None and state.next_round.trump is Trump.CLUBS


def test_state_once_the_bids_are_in() -> None:
    setup = one_round(4)
    state = VARIANT.state(setup, [], {"trump": "C", "bids": [3, 1, 1, 0]})
    assert (state.step, state.to_act, state.legal_bids, state.missing) == (
        "result",
        None,
        (),
        ("tricks for every player",),
    )
    state = VARIANT.state(setup, [], {"trump": "C", "bids": [3, 1, 1, 0], "tricks": [1, 1]})
    assert state.missing == ("tricks for Cat and Dan",)
    state = VARIANT.state(setup, [], {"bids": [3, 1, 1, 0], "tricks": [1, 1, 1, 1]})
    assert state.missing == ("the trump",)


@pytest.mark.parametrize(
    "pending, field, words",
    [
        ({"bids": [2, 1, 1, 0]}, "bids.0", "Ann bids last and may not bid 2"),
        ({"bids": [None, 1, None, 2]}, "bids.3", "Dan cannot bid before Cat"),
        ({"bids": [None, 7]}, "bids.1", "Bob's bid must be between 0 and 4"),
        ({"tricks": [3, None, 2]}, "tricks", "the tricks entered so far add up to 5 but there are only 4"),
        ({"tricks": [1, 1, 1, 0]}, "tricks", "the tricks add up to 3 but there are 4 tricks"),
        ({"trump": "NTH"}, "trump", "not allowed"),
        ({"dealer": 2}, "dealer", "'dealer' is not part of a Nomination Whist hand"),
    ],
)
def test_illegal_partial_entries_are_refused(pending: dict[str, object], field: str, words: str) -> None:
    [error] = errors_of(VARIANT.state, one_round(4), [], pending)
    assert error.field == field and words in error.message


def test_state_with_rotating_trumps_never_asks_for_the_trump() -> None:
    state = VARIANT.state(make_setup(trumps="rotate"), [])
    assert state.missing[0] == "bid from Bob"
    assert state.next_round is not None and state.next_round.trump is Trump.HEARTS


def test_state_when_the_game_is_over() -> None:
    setup = one_round(4)
    played = [FOUR_CARDS_GOOD]
    state = VARIANT.state(setup, played)
    assert (state.over, state.step, state.next_round, state.winners) == (True, "over", None, (0,))
    [error] = errors_of(VARIANT.state, setup, played, {"bids": [1]})
    assert error.field == "hand" and "the game is over" in error.message


def test_state_refuses_bad_earlier_hands() -> None:
    [error] = errors_of(VARIANT.state, one_round(4), [hand([2, 0, 1, 0], [1, 1, 1, 0])])
    assert error.hand == 1 and error.field == "tricks"


# --------------------------------------------------------------------------- properties

seat_counts = st.integers(min_value=3, max_value=7)


@st.composite
def setups(draw: st.DrawFn, max_rounds: int = 13) -> Setup:
    """Any legal set-up: 3-7 players, any sequence, cycles, hook and trumps options."""
    players = draw(seat_counts)
    options: dict[str, object] = {
        "sequence": draw(st.sampled_from(["up", "down", "seven", "ten", "custom"])),
        "cycles": draw(st.integers(min_value=1, max_value=4)),
        "hook": draw(st.sampled_from(["four_plus", "every"])),
        "trumps": draw(st.sampled_from(["entered", "rotate"])),
    }
    if options["sequence"] == "custom":
        options["custom_sequence"] = draw(st.lists(st.integers(1, 13), min_size=1, max_size=max_rounds))
    return make_setup(SEVEN[:players], draw(st.integers(0, players - 1)), **options)


def legal_hand(data: st.DataObject, setup: Setup, number: int) -> tuple[dict[str, object], int]:
    """A legal hand for round `number` and how many players made their bid, worked out here."""
    players = len(setup.players)
    cards = VARIANT.round_spec(setup, number).cards
    hook = setup.options.get_str("hook") == "every" or cards >= 4
    first = (setup.first_dealer + number) % players  # left of this round's dealer
    bids = [0] * players
    so_far = 0
    for position in range(players):
        seat = (first + position) % players
        choices = [b for b in range(cards + 1) if not (hook and position == players - 1 and so_far + b == cards)]
        bids[seat] = data.draw(st.sampled_from(choices))
        so_far += bids[seat]
    winners = data.draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    tricks = [winners.count(seat) for seat in range(players)]
    entry: dict[str, object] = {"bids": bids, "tricks": tricks}
    if setup.options.get_str("trumps") == "entered":
        entry["trump"] = data.draw(st.sampled_from(["H", "D", "C", "S", "NT"]))
    return entry, sum(b == t for b, t in zip(bids, tricks))


@settings(max_examples=150, deadline=None)
@given(players=seat_counts, data=st.data())
def test_hook_always_leaves_a_legal_bid(players: int, data: st.DataObject) -> None:
    cards = data.draw(st.integers(1, min(13, 52 // players)), label="cards")
    setup = one_round(cards, SEVEN[:players], hook="every")
    earlier = data.draw(st.lists(st.integers(0, cards), min_size=players - 1, max_size=players - 1))
    # Ann deals, so bidding runs Bob, Cat, ..., and Ann bids last
    state = VARIANT.state(setup, [], {"trump": "S", "bids": [None] + earlier})
    assert state.to_act == 0 and len(state.legal_bids) >= 1
    if sum(earlier) <= cards:
        assert state.forbidden_bid == cards - sum(earlier)
        assert len(state.legal_bids) == cards
    assert state.forbidden_bid not in state.legal_bids
    for bid in state.legal_bids:
        VARIANT.state(setup, [], {"bids": [bid] + earlier})  # every offered bid is accepted


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_round_hands_out_its_tricks_plus_ten_per_exact_bid(data: st.DataObject) -> None:
    setup = data.draw(setups())
    number = data.draw(st.integers(1, min(rounds(setup), 6)), label="round")
    before = [legal_hand(data, setup, n)[0] for n in range(1, number)]
    entry, exact = legal_hand(data, setup, number)
    line = VARIANT.score(setup, before + [entry]).lines[-1]
    assert sum(c.points for c in line.cells) == line.spec.cards + 10 * exact


@settings(max_examples=150, deadline=None)
@given(setup=setups())
def test_schedule_length_and_cap(setup: Setup) -> None:
    options = setup.options
    base = {"up": 13, "down": 13, "seven": 13, "ten": 19}.get(options.get_str("sequence"))
    length = len(options.get_ints("custom_sequence")) if base is None else base
    count = rounds(setup)
    assert count == length * options.get_int("cycles")
    cap = 52 // len(setup.players)
    assert all(1 <= VARIANT.round_spec(setup, n).cards <= cap for n in range(1, count + 1))


@settings(max_examples=150, deadline=None)
@given(setup=setups())
def test_dealer_rotates_by_one(setup: Setup) -> None:
    players = len(setup.players)
    specs = [VARIANT.round_spec(setup, n) for n in range(1, rounds(setup) + 1)]
    assert specs[0].dealer == setup.first_dealer
    for earlier, later in zip(specs, specs[1:]):
        assert later.dealer == (earlier.dealer + 1) % players
    assert all(s.first_bidder == (s.dealer + 1) % players for s in specs)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_later_hands_never_change_earlier_scores(data: st.DataObject) -> None:
    setup = data.draw(setups(max_rounds=6))
    played = min(rounds(setup), 8)
    hands = [legal_hand(data, setup, n)[0] for n in range(1, played + 1)]
    full = [[(c.points, c.total) for c in line.cells] for line in VARIANT.score(setup, hands).lines]
    for k in range(played + 1):
        prefix = [[(c.points, c.total) for c in line.cells] for line in VARIANT.score(setup, hands[:k]).lines]
        assert prefix == full[:k]
    # a refused hand k is reported at k alone, and the hands before it still score the same
    k = data.draw(st.integers(0, played - 1), label="refused")
    bad = hands[:k] + [{**hands[k], "tricks": [0] * len(setup.players)}] + hands[k + 1 :]
    errors = errors_of(VARIANT.score, setup, bad)
    assert {e.hand for e in errors} == {k + 1}
    assert [[(c.points, c.total) for c in line.cells] for line in VARIANT.score(setup, bad[:k]).lines] == full[:k]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.sampled_from(["H", "nt", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.sampled_from(["trump", "bids", "tricks", "x"]), inner)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(raw=json_values, trumps=st.sampled_from(["entered", "rotate"]))
def test_any_json_entry_is_accepted_or_refused_with_rule_errors(raw: object, trumps: str) -> None:
    setup = one_round(4, trumps=trumps)
    for call in (
        lambda: VARIANT.check_hand(setup, [], raw),  # type: ignore[arg-type]
        lambda: VARIANT.state(setup, [], raw),  # type: ignore[arg-type]
        lambda: VARIANT.score(setup, [raw]),
    ):  # type: ignore[list-item]
        try:
            call()
        except RuleErrors as e:
            assert e.errors and all(err.field and err.message for err in e.errors)
