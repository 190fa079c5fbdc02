"""The shared vocabulary: options, ranking with ties, the hook rule helpers, record parsing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules.base import Choice, OptionSpec, RuleError, RuleErrors, rank, resolve_options
from scorepad.rules.bidding import check_bids, check_trick_total, hook_forbidden, legal_bids, parse_counts
from scorepad.rules.cards import SUITS, Trump, parse_trump
from scorepad.rules.record import parse_record, to_json

SPECS = (
    OptionSpec("target", "Points for game", 5, minimum=1, maximum=99),
    OptionSpec("honours", "Score honours", False),
    OptionSpec("hook", "Hook rule", "four_plus", choices=(Choice("four_plus", "4+ cards"), Choice("every", "Every round"))),
    OptionSpec("custom", "Card sequence", (1, 2, 3), minimum=1, maximum=13),
)


def test_defaults_fill_missing_options() -> None:
    options = resolve_options(SPECS, {"target": 7})
    assert options.get_int("target") == 7
    assert options.get_bool("honours") is False
    assert options.get_ints("custom") == (1, 2, 3)
    assert options.as_json()["custom"] == [1, 2, 3]


@pytest.mark.parametrize("raw, field, words", [
    ({"target": 0}, "options.target", "at least 1"),
    ({"target": "5"}, "options.target", "whole number"),
    ({"target": True}, "options.target", "whole number"),
    ({"honours": "yes"}, "options.honours", "true or false"),
    ({"hook": "sometimes"}, "options.hook", "four_plus, every"),
    ({"custom": []}, "options.custom", "non-empty list"),
    ({"custom": [1, 14]}, "options.custom", "at most 13"),
    ({"colour": "red"}, "options.colour", "not an option"),
])
def test_bad_options_are_refused_with_the_field(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(SPECS, raw)
    [error] = caught.value.errors
    assert error.field == field and words in error.message


def test_all_bad_options_are_reported_together() -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(SPECS, {"target": 0, "honours": 1})
    assert [e.field for e in caught.value.errors] == ["options.target", "options.honours"]


def test_option_values_in_words() -> None:
    assert SPECS[1].describe(True) == "yes"
    assert SPECS[2].describe("every") == "Every round"
    assert SPECS[3].describe((7, 6)) == "7, 6"


def test_equal_totals_share_a_rank() -> None:
    standings = rank([10, 30, 10, 5], ["A", "B", "C", "D"])
    assert [(s.name, s.rank) for s in standings] == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]


def test_rank_lower_is_better() -> None:
    assert [s.name for s in rank([3, 1, 2], ["A", "B", "C"], higher_is_better=False)] == ["B", "C", "A"]


# Australian Whist document: "Player 1 bids 1 trick, Player 2 bids 1 trick and Player 3 bids 0 tricks.
# The total number of tricks bid so far is 2 thus preventing the fourth player bidding 2 tricks -
# but they could bid 0, 1, 3 or 4 tricks."
def test_hook_rule_worked_example_from_the_australian_document() -> None:
    assert hook_forbidden(4, [1, 1, 0]) == 2
    assert legal_bids(4, [1, 1, 0], seats=4, hook=True) == (0, 1, 3, 4)
    assert legal_bids(4, [1, 1], seats=4, hook=True) == (0, 1, 2, 3, 4)  # not the last bidder


def test_hook_rule_forbids_nothing_once_the_total_is_passed() -> None:
    assert hook_forbidden(3, [2, 2]) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 13), st.lists(st.integers(0, 13), min_size=1, max_size=6))
def test_hook_rule_always_leaves_a_legal_bid(cards: int, earlier: list[int]) -> None:
    earlier = [min(b, cards) for b in earlier]
    bids = legal_bids(cards, earlier, seats=len(earlier) + 1, hook=True)
    assert bids and all(sum(earlier) + b != cards for b in bids)


def test_check_bids_names_the_last_bidder() -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    # first bidder Bob (seat 1): Bob 1, Cat 1, Dan 0, Ann last may not bid 2
    with pytest.raises(RuleError) as caught:
        check_bids([2, 1, 1, 0], names, cards=4, first_bidder=1, hook=True)
    assert caught.value.field == "bids.0"
    assert "Ann bids last and may not bid 2" in caught.value.message
    check_bids([3, 1, 1, 0], names, cards=4, first_bidder=1, hook=True)


def test_check_bids_refuses_a_bid_out_of_turn() -> None:
    with pytest.raises(RuleError, match="Cat cannot bid before Bob"):
        check_bids([None, None, 1, None], ["Ann", "Bob", "Cat", "Dan"], cards=4, first_bidder=1, hook=True)


def test_trick_counts_must_add_up() -> None:
    with pytest.raises(RuleError, match="add up to 3 but there are 4 tricks"):
        check_trick_total([1, 1, 1, 0], 4)


@pytest.mark.parametrize("raw, words", [
    ("3", "as a list"), ([1, 2], "for all 3 players"), ([1, "x", 0], "Bob's tricks must be a whole number"),
    ([1, 9, 0], "Bob's tricks must be between 0 and 5"),
])
def test_parse_counts_messages(raw: object, words: str) -> None:
    with pytest.raises((RuleError, RuleErrors), match=words):
        parse_counts(raw, "tricks", ["Ann", "Bob", "Cat"], maximum=5)


def test_trumps_parse_only_allowed_kinds() -> None:
    assert parse_trump("h", "trump") is Trump.HEARTS
    with pytest.raises(RuleError, match="not allowed"):
        parse_trump("NT", "trump", SUITS)
    with pytest.raises(RuleError, match="not a trump"):
        parse_trump("Z", "trump")


RECORD = {"scorepad": 1, "variant": "nomination", "title": "Sunday", "players": [" Ann ", "Bob", "Cat"],
          "first_dealer": 2, "hands": []}


def test_record_round_trips_through_json() -> None:
    record = parse_record(RECORD)
    assert record.setup.players == ("Ann", "Bob", "Cat")
    again = parse_record(to_json(record))
    assert again.setup == record.setup and again.title == "Sunday"


@pytest.mark.parametrize("change, field", [
    ({"scorepad": 2}, "scorepad"),
    ({"players": ["Ann", "ann", "Cat"]}, "players.1"),
    ({"players": ["Ann", "", "Cat"]}, "players.1"),
    ({"players": ["Ann", "x" * 41, "Cat"]}, "players.1"),
    ({"first_dealer": "Ann"}, "first_dealer"),
    ({"hands": {}}, "hands"),
    ({"colour": 1}, "colour"),
    ({"options": []}, "options"),
])
def test_record_problems_name_their_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        parse_record({**RECORD, **change})
    assert field in [e.field for e in caught.value.errors]


def test_unknown_variant_is_named() -> None:
    with pytest.raises(RuleErrors, match="'bridge' is not a known variant"):
        parse_record({**RECORD, "variant": "bridge"})
