"""Australian Whist: score-sheet rows, validation, options, schedule, state and properties.

Quotes in ids and comments come from rules/australian-whist.txt ("doc") and the Australian
section of RULES-NOTES.md ("notes"). Expected values are worked out by hand.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.australian import VARIANT, check_remote_tricks
from scorepad.rules.base import (
    Options,
    RawHand,
    RoundKind,
    RoundSpec,
    RuleError,
    RuleErrors,
    Setup,
    Team,
    resolve_options,
)
from scorepad.rules.cards import Trump
from scorepad.rules.record import score_record

FOUR = ("Ann", "Bob", "Cat", "Dan")
THREE = ("Ann", "Bob", "Cat")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
H, C, D, S, NT = Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS, Trump.SPADES, Trump.NO_TRUMPS


def make_setup(players: Sequence[str] = FOUR, first_dealer: int = 0, **options: object) -> Setup:
    return Setup(
        "australian", resolve_options(VARIANT.option_specs, options), tuple(players), first_dealer=first_dealer
    )


def rounds(setup: Setup) -> int:
    count = VARIANT.round_count(setup)
    assert count is not None  # Australian Whist always has a fixed schedule
    return count


def filler(setup: Setup, count: int) -> list[RawHand]:
    """Valid hands for rounds 1..count: nobody bids, the first bidder (or seat 0) takes every trick."""
    hands: list[RawHand] = []
    for number in range(1, count + 1):
        spec = VARIANT.round_spec(setup, number)
        tricks = [0] * len(setup.players)
        tricks[spec.first_bidder or 0] = spec.cards
        if spec.kind is RoundKind.MISERE:
            hands.append({"tricks": tricks})
        else:
            hands.append({"bids": [0] * len(setup.players), "tricks": tricks})
    return hands


def points(setup: Setup, number: int, hand: RawHand) -> list[int]:
    """The points of each seat in round `number` when `hand` is entered for it."""
    sheet = VARIANT.score(setup, filler(setup, number - 1) + [hand])
    return [cell.points for cell in sheet.lines[-1].cells]


def errors_of(setup: Setup, number: int, hand: object) -> list[tuple[str, str]]:
    """(field, message) of every error check_hand raises for `hand` entered as round `number`."""
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(setup, filler(setup, number - 1), hand)  # type: ignore[arg-type]
    return [(e.field, e.message) for e in caught.value.errors]


def assert_error(errors: list[tuple[str, str]], field: str, *words: str) -> None:
    matching = [m for f, m in errors if f == field]
    assert matching, f"no error on {field}: {errors}"
    assert any(all(w in m for w in words) for m in matching), errors


# --------------------------------------------------------------------------- the registry and examples


def test_registered_under_its_key() -> None:
    variant = get_variant("australian")
    assert variant.key == "australian" and variant.name == "Australian Whist"
    assert "10 plus 2 per trick" in variant.summary and "misère" in variant.summary


RECORDS = sorted(p for p in EXAMPLES.glob("australian-*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_examples_match_their_sidecars(path: Path) -> None:
    expected = json.loads(path.with_name(path.name.replace(".json", ".expected.json")).read_text())
    sheet = score_record(json.loads(path.read_text()))
    assert sheet.finished is expected["finished"]
    assert [sheet.columns[w] for w in sheet.winners] == expected["winners"]
    assert {s.name: s.total for s in sheet.standings} == expected["totals"]


def test_examples_cover_the_brief() -> None:
    records = {p.name: json.loads(p.read_text()) for p in RECORDS}
    shapes = {(len(r["players"]), r["options"].get("remote", False), len(r["hands"])) for r in records.values()}
    assert (4, False, 23) in shapes and (7, False, 17) in shapes and (3, True, 23) in shapes
    ties = [p for p in EXAMPLES.glob("australian-*.expected.json") if len(json.loads(p.read_text())["winners"]) > 1]
    assert ties


# --------------------------------------------------------------------------- scoring rows


@pytest.mark.parametrize(
    ("number", "hand", "expected"),
    [
        # round 1, Ann deals, Bob bids first; 1 card
        pytest.param(
            1,
            {"bids": [1, 1, 0, 0], "tricks": [0, 1, 0, 0]},
            [0, 12, 10, 10],
            id="doc: 'exact number ... 10 points plus 2 points for each trick won'; bid 0 made = 10",
        ),
        # round 4, Dan deals, Ann bids first; 4 cards
        pytest.param(
            4,
            {"bids": [1, 1, 0, 3], "tricks": [1, 0, 0, 3]},
            [12, 0, 10, 16],
            id="doc: 'won more or less tricks than they bid is awarded zero points'",
        ),
        # round 10 (first special round, normal), Bob deals; 10 cards
        pytest.param(
            10,
            {"bids": [4, 3, 2, 0], "tricks": [4, 3, 3, 0]},
            [18, 16, 0, 10],
            id="doc: 'The first special round is played as normal'",
        ),
        pytest.param(
            11,
            {"bids": [5, 2, 1, 1], "tricks": [5, 2, 1, 2]},
            [20, 14, 12, 0],
            id="doc: 'second special round is played with no trump suit' - scored as normal",
        ),
        pytest.param(
            12,
            {"bids": [2, 3, 3, 3], "tricks": [2, 3, 3, 2]},
            [14, 16, 16, 0],
            id="doc: 'third special round is bid unseen' - scored as normal",
        ),
        pytest.param(
            13,
            {"tricks": [0, 3, 5, 2]},
            [10, -6, -10, -4],
            id="doc: 'Misère ... 2 points are deducted for each trick won ... no tricks they score 10'",
        ),
        pytest.param(13, {"tricks": [0, 0, 0, 10]}, [10, 10, 10, -20], id="misère: three clean, one takes all"),
        pytest.param(
            23,
            {"bids": [0, 0, 1, 1], "tricks": [0, 0, 0, 1]},
            [10, 10, 0, 12],
            id="last round, 1 card: Cat deals and bids last",
        ),
    ],
)
def test_score_rows(number: int, hand: RawHand, expected: list[int]) -> None:
    assert points(make_setup(), number, hand) == expected


def test_running_totals_and_details() -> None:
    setup = make_setup()
    hands: list[RawHand] = [
        {"bids": [1, 1, 0, 0], "tricks": [0, 1, 0, 0]},  # 0 12 10 10
        {"bids": [1, 0, 0, 0], "tricks": [1, 0, 1, 0]},  # Bob deals, Cat first: 12 10 0 10
    ]
    sheet = VARIANT.score(setup, hands)
    assert [c.total for c in sheet.lines[-1].cells] == [12, 22, 10, 20]
    first = sheet.lines[0].cells[1]
    assert (first.detail, first.bid, first.tricks, first.made) == ("bid 1 · took 1", 1, 1, True)
    assert sheet.lines[1].cells[2].detail == "bid 0 · took 1" and sheet.lines[1].cells[2].made is False
    assert [(s.name, s.total, s.rank) for s in sheet.standings] == [
        ("Bob", 22, 1),
        ("Dan", 20, 2),
        ("Ann", 12, 3),
        ("Cat", 10, 4),
    ]
    assert sheet.standings[0].detail == "2 bids made" and sheet.standings[3].detail == "1 bid made"
    assert not sheet.finished and sheet.winners == ()
    assert sheet.summary == "After 2 of 23 rounds: Bob leads with 22"


def test_misere_cells_have_no_bid() -> None:
    sheet = VARIANT.score(make_setup(), filler(make_setup(), 12) + [{"tricks": [0, 4, 6, 0]}])
    cells = sheet.lines[-1].cells
    assert [(c.bid, c.detail, c.made) for c in cells] == [
        (None, "took 0", True),
        (None, "took 4", False),
        (None, "took 6", False),
        (None, "took 0", True),
    ]


def test_finished_game_has_a_winner() -> None:
    setup = make_setup(("Ann", "Bob"))
    sheet = VARIANT.score(setup, filler(setup, 23))
    # filler: everyone bids 0 and the first bidder takes every trick, so the other player scores 10.
    # Ann deals odd rounds (Bob bids first), Bob even ones: Ann scores 10 in the 11 odd rounds other than
    # 13, Bob in the 11 even rounds. Misère (round 13): seat 0 (Ann) takes all 10: Ann -20, Bob +10.
    assert sheet.finished and len(sheet.lines) == 23
    assert {s.name: s.total for s in sheet.standings} == {"Ann": 110 - 20, "Bob": 110 + 10}
    assert [sheet.columns[w] for w in sheet.winners] == ["Bob"]
    assert sheet.summary == "Bob wins with 120" and "Bob wins with 120" in sheet.lines[-1].note


def test_tie_is_reported_with_both_winners() -> None:
    setup = make_setup(("Ann", "Bob"))
    hands = filler(setup, 23)
    hands[12] = {"tricks": [5, 5]}  # misère: -10 each, so 110 - 10 = 100 each
    sheet = VARIANT.score(setup, hands)
    assert {s.name: (s.total, s.rank) for s in sheet.standings} == {"Ann": (100, 1), "Bob": (100, 1)}
    assert sheet.winners == (0, 1) and sheet.summary == "Tie: Ann and Bob with 100 each"


# --------------------------------------------------------------------------- validation

# Round 4 of a four-player game: 4 cards, Dan deals, Ann bids first and Dan last.
GOOD4: dict[str, Any] = {"bids": [1, 1, 0, 3], "tricks": [1, 0, 0, 3]}


def test_the_round_4_reference_hand_is_valid() -> None:
    VARIANT.check_hand(make_setup(), filler(make_setup(), 3), GOOD4)


@pytest.mark.parametrize(
    ("number", "hand", "field", "words"),
    [
        (4, {**GOOD4, "notes": "x"}, "notes", ("'notes' is not part of an Australian Whist hand",)),
        (4, [1, 2], "hand", ("a hand is an object",)),
        (4, "bids", "hand", ("a hand is an object",)),
        (4, {"tricks": [1, 0, 0, 3]}, "bids", ("the bids are missing",)),
        (4, {**GOOD4, "bids": None}, "bids", ("the bids are missing",)),
        (4, {**GOOD4, "bids": "1,1,0,3"}, "bids", ("give the bids as a list",)),
        (4, {**GOOD4, "bids": {"Ann": 1}}, "bids", ("give the bids as a list",)),
        (4, {**GOOD4, "bids": [1, 1, 0]}, "bids", ("give bids for all 4 players, not 3",)),
        (4, {**GOOD4, "bids": [1, 1, 0, 3, 0]}, "bids", ("give bids for all 4 players, not 5",)),
        (4, {**GOOD4, "bids": [1, "1", 0, 3]}, "bids.1", ("Bob's bid must be a whole number",)),
        (4, {**GOOD4, "bids": [True, 1, 0, 3]}, "bids.0", ("Ann's bid must be a whole number",)),
        (4, {**GOOD4, "bids": [1.0, 1, 0, 3]}, "bids.0", ("Ann's bid must be a whole number",)),
        (4, {**GOOD4, "bids": [-1, 1, 0, 3]}, "bids.0", ("Ann's bid must be between 0 and 4",)),
        (4, {**GOOD4, "bids": [1, 1, 0, 5]}, "bids.3", ("Dan's bid must be between 0 and 4",)),
        (4, {**GOOD4, "bids": [1, None, 0, 3]}, "bids.1", ("no bid entered for Bob",)),
        # doc: "Player 1 bids 1 trick, Player 2 bids 1 trick and Player 3 bids 0 tricks ... preventing
        # the fourth player bidding 2 tricks"
        (4, {"bids": [1, 1, 0, 2], "tricks": [1, 1, 0, 2]}, "bids.3", ("Dan bids last and may not bid 2", "total 4")),
        (4, {"bids": [1, 1, 0, 3]}, "tricks", ("the tricks are missing",)),
        (4, {**GOOD4, "tricks": {"Ann": 1}}, "tricks", ("give the tricks as a list",)),
        (4, {**GOOD4, "tricks": [1, 0, 3]}, "tricks", ("give tricks for all 4 players, not 3",)),
        (4, {**GOOD4, "tricks": [1, 0, 0, "3"]}, "tricks.3", ("Dan's tricks must be a whole number",)),
        (4, {**GOOD4, "tricks": [5, 0, 0, 0]}, "tricks.0", ("Ann's tricks must be between 0 and 4",)),
        (4, {**GOOD4, "tricks": [1, 0, None, 3]}, "tricks.2", ("no tricks entered for Cat",)),
        (4, {**GOOD4, "tricks": [1, 0, 0, 2]}, "tricks", ("add up to 3 but there are 4 tricks",)),
        (4, {**GOOD4, "tricks": [2, 0, 0, 3]}, "tricks", ("add up to 5 but there are 4 tricks",)),
        (4, {**GOOD4, "shared": [0, 0, 0, 0]}, "shared", ("remote play", "give no shared tricks")),
        (4, {**GOOD4, "trump": "X"}, "trump", ("'X' is not a trump", "H, D, C, S, NT")),
        (4, {**GOOD4, "trump": "NTL"}, "trump", ("is not allowed here",)),
        (4, {**GOOD4, "trump": 3}, "trump", ("the trump must be one of H, D, C, S, NT",)),
        # doc: "Misère ... There is no bidding"
        (13, {"bids": [0, 0, 0, 0], "tricks": [10, 0, 0, 0]}, "bids", ("no bidding in the misère round",)),
        (13, {"tricks": [9, 0, 0, 0]}, "tricks", ("add up to 9 but there are 10 tricks",)),
        (23, {"bids": [0, 0, 1, 0], "tricks": [0, 0, 0, 1]}, "bids.2", ("Cat bids last and may not bid 1", "total 1")),
    ],
)
def test_bad_hands_are_refused(number: int, hand: object, field: str, words: tuple[str, ...]) -> None:
    assert_error(errors_of(make_setup(), number, hand), field, *words)


@pytest.mark.parametrize("last_bid", [0, 1, 3, 4])
def test_hook_rule_document_example_allows_the_other_bids(last_bid: int) -> None:
    # doc: "they could bid 0, 1, 3 or 4 tricks"
    tricks = [1, 1, 0, 2] if last_bid != 4 else [0, 0, 0, 4]
    VARIANT.check_hand(make_setup(), filler(make_setup(), 3), {"bids": [1, 1, 0, last_bid], "tricks": tricks})


def test_several_errors_are_reported_together() -> None:
    errors = errors_of(make_setup(), 4, {"bids": "x", "tricks": [9, 0, 0, 0], "foo": 1, "trump": "Q"})
    assert {f for f, _ in errors} == {"foo", "bids", "tricks.0", "trump"}


def test_score_names_the_hand_of_every_error() -> None:
    setup = make_setup()
    hands = filler(setup, 4)
    hands[0] = {"bids": [0, 0, 0, 0], "tricks": [0, 0, 0, 0]}
    hands[2] = {"bids": [0, 0, 0, 0], "tricks": [0, 0, 0, 3], "colour": "red"}
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(setup, hands)
    assert [(e.hand, e.field) for e in caught.value.errors] == [(1, "tricks"), (3, "colour")]
    assert str(caught.value.errors[0]).startswith("hand 1, tricks: the tricks add up to 0 but there")


def test_no_hand_after_the_last_round() -> None:
    setup = make_setup()
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(setup, filler(setup, 23), {"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]})
    assert caught.value.errors[0].field == "hand"
    assert "all 23 rounds have been played" in caught.value.errors[0].message
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(setup, filler(setup, 23) + [{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]}])
    assert caught.value.errors[0].hand == 24


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("players", "first_dealer", "field", "words"),
    [
        (("Ann",), 0, "players", ("2 to 7 players, not 1",)),
        (NAMES + ("Hal",), 0, "players", ("2 to 7 players, not 8",)),
        (FOUR, 4, "first_dealer", ("from 0 to 3, not 4",)),
        (FOUR, -1, "first_dealer", ("from 0 to 3, not -1",)),
        (("Ann", "Bob", "ann"), 0, "players.2", ("two players are called 'ann'",)),
        (("Ann", "", "Cat"), 0, "players.1", ("player 2 needs a name",)),
        (("Ann", "Bob", "  "), 0, "players.2", ("player 3 needs a name",)),
    ],
)
def test_bad_setups_are_refused(
    players: tuple[str, ...], first_dealer: int, field: str, words: tuple[str, ...]
) -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_setup(make_setup(players, first_dealer))
    assert_error([(e.field, e.message) for e in caught.value.errors], field, *words)


def test_teams_are_refused() -> None:
    setup = Setup("australian", make_setup().options, (), (Team("Us"), Team("Them")))
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_setup(setup)
    assert {e.field for e in caught.value.errors} == {"teams", "players"}


def test_bad_option_values_in_a_setup_are_refused() -> None:
    setup = Setup("australian", Options({"trump_cycle": "sometimes", "remote": "yes"}), FOUR)
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_setup(setup)
    assert {e.field for e in caught.value.errors} == {"options.trump_cycle", "options.remote"}


def test_record_with_a_bad_first_dealer_is_refused() -> None:
    record = {"scorepad": 1, "variant": "australian", "players": list(THREE), "first_dealer": 3, "hands": []}
    with pytest.raises(RuleErrors) as caught:
        score_record(record)
    assert caught.value.errors[0].field == "first_dealer"


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_players_are_stored_as_given(first_dealer: int) -> None:
    # notes: "clockwise order starting with the first dealer" - we store any rotation plus first_dealer
    spec = VARIANT.round_spec(make_setup(first_dealer=first_dealer), 1)
    assert (spec.dealer, spec.first_bidder) == (first_dealer, (first_dealer + 1) % 4)


# --------------------------------------------------------------------------- options


def test_option_defaults_follow_the_notes() -> None:
    specs = {s.key: s for s in VARIANT.option_specs}
    assert set(specs) == {"trump_cycle", "remote"}
    assert specs["trump_cycle"].default == "skip" and specs["remote"].default is False
    assert [c.value for c in specs["trump_cycle"].choices] == ["skip", "pause"]
    assert all(s.label and s.help for s in specs.values())


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"trump_cycle": "delay"}, "options.trump_cycle"),
        ({"remote": "yes"}, "options.remote"),
        ({"hook": True}, "options.hook"),
    ],
)
def test_bad_options_are_refused(raw: dict[str, object], field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(VARIANT.option_specs, raw)
    assert caught.value.errors[0].field == field


def trumps(setup: Setup) -> str:
    return " ".join(
        VARIANT.round_spec(setup, n).trump.value  # type: ignore[union-attr]
        for n in range(1, rounds(setup) + 1)
    )


@pytest.mark.parametrize(
    ("players", "cycle", "expected"),
    [
        # notes: "their turn in the cycle is skipped over, not delayed": round 11 would be D, 13 H
        (4, "skip", "H C D S H C D S H C NT S NT C D S H C D S H C D"),
        # notes: "option: the cycle pauses on them": D goes to round 12, S to 14, and so on
        (4, "pause", "H C D S H C D S H C NT D NT S H C D S H C D S H"),
        (7, "skip", "H C D S H C D NT H NT D S H C D S H"),
        (7, "pause", "H C D S H C D NT S NT H C D S H C D"),
    ],
)
def test_trump_cycle(players: int, cycle: str, expected: str) -> None:
    assert trumps(make_setup(NAMES[:players], trump_cycle=cycle)) == expected


def test_remote_option_allows_shared_tricks() -> None:
    hand = {"bids": [1, 1, 0, 3], "tricks": [1, 0, 1, 3], "shared": [0, 0, 1, 1]}
    VARIANT.check_hand(make_setup(remote=True), filler(make_setup(remote=True), 3), hand)
    assert_error(errors_of(make_setup(), 4, hand), "shared", "remote")


# --------------------------------------------------------------------------- remote play


# Round 3 of a three-player game: 3 cards, Cat deals, Ann bids first; bids of 0 are always legal here.
@pytest.mark.parametrize(
    ("tricks", "shared", "field", "words"),
    [
        ([2, 1, 1], [0, 0, 0], "tricks", ("won alone add up to 4 but there are only 3 tricks",)),
        ([2, 1, 1], None, "tricks", ("won alone add up to 4", "enter tricks won jointly as shared")),
        ([1, 1, 0], [0, 0, 0], "tricks", ("the tricks add up to 2 but there are 3 tricks",)),
        ([1, 0, 0], [0, 0, 1], "shared.2", ("Cat won 0 tricks, so cannot have shared 1",)),
        ([2, 1, 1], [2, 0, 0], "shared.0", ("Ann shared 2 tricks, but only 1 of the 3 tricks was not won alone",)),
        ([1, 1, 1], [0, 0, 1], "shared", ("1 of the 3 tricks was not won alone", "at least 2, not 1")),
        ([2, 2, 0], [2, 2, 0], "shared", ("3 of the 3 tricks were not won alone", "at least 6, not 4")),
        ([1, 1, 1], [0, 0, 4], "shared.2", ("Cat's shared tricks must be between 0 and 3",)),
    ],
)
def test_impossible_shared_tricks_are_refused(
    tricks: list[int], shared: list[int] | None, field: str, words: tuple[str, ...]
) -> None:
    setup = make_setup(THREE, remote=True)
    hand: dict[str, object] = {"bids": [0, 0, 0], "tricks": tricks}
    if shared is not None:
        hand["shared"] = shared
    assert_error(errors_of(setup, 3, hand), field, *words)


@pytest.mark.parametrize(
    ("number", "hand", "expected"),
    [
        # doc: "if the trick is won by a player from each household during any other round then both
        # players receive one point instead of the normal two"; 3 cards, Cat deals, Ann bids first
        pytest.param(
            3,
            {"bids": [2, 1, 1], "tricks": [2, 1, 1], "shared": [1, 0, 1]},
            [13, 12, 11],
            id="Ann makes 2 with one shared: 10 + 2 + 1; Cat makes 1, shared: 10 + 1",
        ),
        pytest.param(
            3,
            {"bids": [1, 1, 2], "tricks": [1, 1, 2], "shared": [0, 1, 1]},
            [12, 11, 13],
            id="doc: 'possible for all players in a round to win'",
        ),
        pytest.param(
            3,
            {"bids": [3, 3, 0], "tricks": [3, 3, 3], "shared": [3, 3, 3]},
            [13, 13, 0],
            id="every trick won by all three: 10 + 3 x 1",
        ),
        # doc: "if a trick is won by a player from each household during the Misère round then both
        # players lose two points"; round 13, 10 cards: 9 tricks alone + 1 shared by Bob and Cat
        pytest.param(13, {"tricks": [0, 6, 5], "shared": [0, 1, 1]}, [10, -12, -10], id="misère shared costs 2"),
        pytest.param(13, {"tricks": [0, 4, 6]}, [10, -8, -12], id="remote game, nothing shared"),
    ],
)
def test_remote_score_rows(number: int, hand: RawHand, expected: list[int]) -> None:
    assert points(make_setup(THREE, remote=True), number, hand) == expected


def test_remote_detail_shows_shared_tricks() -> None:
    setup = make_setup(THREE, remote=True)
    hands = filler(setup, 2) + [{"bids": [2, 1, 1], "tricks": [2, 1, 1], "shared": [1, 0, 1]}]
    cells = VARIANT.score(setup, hands).lines[-1].cells
    assert [c.detail for c in cells] == ["bid 2 · took 2 (1 shared)", "bid 1 · took 1", "bid 1 · took 1 (1 shared)"]


def test_game_record_doc_example_hand() -> None:
    setup = make_setup(FOUR, 2, remote=True)
    hand = {"bids": [3, 0, 1, 2], "tricks": [3, 0, 1, 2], "shared": [1, 0, 0, 1]}
    assert VARIANT.round_spec(setup, 5).dealer == 2
    assert points(setup, 5, hand) == [15, 10, 12, 13]


def feasible_counts(players: int, cards: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (tricks, shared) a table can produce: each trick won by a non-empty set of players."""
    winner_sets = [w for r in range(1, players + 1) for w in itertools.combinations(range(players), r)]
    found = set()
    for deal in itertools.product(winner_sets, repeat=cards):
        tricks, shared = [0] * players, [0] * players
        for winners in deal:
            for p in winners:
                tricks[p] += 1
                shared[p] += len(winners) > 1
        found.add((tuple(tricks), tuple(shared)))
    return found


@pytest.mark.parametrize(("players", "cards"), [(2, 1), (2, 3), (3, 2), (3, 3), (4, 2)])
def test_remote_checks_accept_exactly_the_possible_counts(players: int, cards: int) -> None:
    names = NAMES[:players]
    counts = list(itertools.product(range(cards + 1), repeat=players))
    accepted = set()
    for tricks in counts:
        for shared in counts:
            try:
                check_remote_tricks(names, cards, tricks, shared)
            except (RuleError, RuleErrors):
                continue
            accepted.add((tricks, shared))
    assert accepted == feasible_counts(players, cards)


# --------------------------------------------------------------------------- schedule


@pytest.mark.parametrize(("players", "count"), [(2, 23), (3, 23), (4, 23), (5, 23), (6, 19), (7, 17)])
def test_round_count(players: int, count: int) -> None:
    # notes: "With 4 players: 9 + 5 + 9 = 23 rounds"; doc: "limited to 8 cards for 6 players and 7 cards for 7"
    assert VARIANT.round_count(make_setup(NAMES[:players])) == count


@pytest.mark.parametrize(
    ("players", "cards"),
    [
        (4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        (6, [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1]),
        (7, [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 6, 5, 4, 3, 2, 1]),
    ],
)
def test_cards_per_round(players: int, cards: list[int]) -> None:
    setup = make_setup(NAMES[:players])
    assert [VARIANT.round_spec(setup, n).cards for n in range(1, len(cards) + 1)] == cards


def test_special_rounds() -> None:
    # doc: "1. played as normal 2. no trump suit 3. bid unseen 4. 'Misère' 5. played as normal"
    setup = make_setup()
    specs = [VARIANT.round_spec(setup, n) for n in range(1, 24)]
    assert [s.kind for s in specs[9:14]] == [
        RoundKind.NORMAL,
        RoundKind.NO_TRUMPS,
        RoundKind.BLIND,
        RoundKind.MISERE,
        RoundKind.NORMAL,
    ]
    assert all(s.kind is RoundKind.NORMAL for s in specs[:9] + specs[14:])
    assert [s.trump for s in specs[10:13]] == [NT, S, NT]
    assert "Special round 1 of 5" in specs[9].note and "played as normal" in specs[9].note
    assert "no trumps" in specs[10].note
    assert "before the cards are dealt" in specs[11].note
    assert "misère" in specs[12].note and "no bidding" in specs[12].note
    assert "Special round 5 of 5" in specs[13].note
    assert all(s.note == "" for s in specs[:9] + specs[14:])


def test_dealer_and_first_bidder_rotate_clockwise() -> None:
    # doc: "The dealer moves clockwise"; "The player to the left of the dealer makes a bid"
    setup = make_setup(first_dealer=2)
    seats = [(VARIANT.round_spec(setup, n).dealer, VARIANT.round_spec(setup, n).first_bidder) for n in (1, 2, 3, 13)]
    assert seats == [(2, 3), (3, 0), (0, 1), (2, None)]


@pytest.mark.parametrize("number", [0, 24, -1])
def test_no_such_round(number: int) -> None:
    with pytest.raises(RuleError) as caught:
        VARIANT.round_spec(make_setup(), number)
    assert caught.value.field == "round" and "the game has 23 rounds" in caught.value.message


# --------------------------------------------------------------------------- trump override


def test_scorer_may_override_the_trump() -> None:
    # notes: "Allow the scorer to override the trump of any round"
    setup = make_setup()
    plain = filler(setup, 2)
    changed = plain[:1] + [{**plain[1], "trump": "s"}]
    sheet, sheet2 = VARIANT.score(setup, plain), VARIANT.score(setup, changed)
    assert sheet.lines[1].spec.trump is C and sheet2.lines[1].spec.trump is S
    assert sheet2.lines[1].note == "Trump changed by the scorer: Spades (the schedule said Clubs)"
    assert [c.points for c in sheet2.lines[1].cells] == [c.points for c in sheet.lines[1].cells]
    assert VARIANT.round_spec(setup, 3).trump is D  # later rounds keep the schedule


@pytest.mark.parametrize(
    ("number", "trump", "expected", "note"),
    [
        (11, "H", H, "Trump changed by the scorer: Hearts (the schedule said No trumps)"),
        (13, "C", C, "Trump changed by the scorer: Clubs (the schedule said No trumps)"),
        (5, "NT", NT, "Trump changed by the scorer: No trumps (the schedule said Hearts)"),
        (5, "H", H, ""),  # the scheduled trump entered again: nothing to say
    ],
)
def test_override_in_any_round(number: int, trump: str, expected: Trump, note: str) -> None:
    setup = make_setup()
    hands = filler(setup, number)
    hands[-1] = {**hands[-1], "trump": trump}
    line = VARIANT.score(setup, hands).lines[-1]
    assert (line.spec.trump, line.note) == (expected, note)


# --------------------------------------------------------------------------- state


def test_state_at_the_start() -> None:
    state = VARIANT.state(make_setup(), [])
    assert (state.step, state.over, state.hands_played, state.to_act) == ("bids", False, 0, 1)
    assert state.legal_bids == (0, 1) and state.forbidden_bid is None
    assert state.next_round is not None and state.next_round.number == 1 and state.next_round.trump is H
    assert state.missing == ("bids from Bob, Cat, Dan and Ann", "tricks won by Ann, Bob, Cat and Dan")


def test_state_document_hook_example() -> None:
    # doc: round of 4 cards, bids 1, 1, 0: "preventing the fourth player bidding 2 tricks - but they
    # could bid 0, 1, 3 or 4 tricks". Round 4: Ann bids first, Dan last.
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 3), {"bids": [1, 1, 0]})
    assert (state.step, state.to_act, state.forbidden_bid, state.legal_bids) == ("bids", 3, 2, (0, 1, 3, 4))
    assert state.missing[0] == "bids from Dan"


def test_state_midway_through_bidding_has_no_forbidden_bid() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 3), {"bids": [4, None, None, None]})
    assert (state.to_act, state.forbidden_bid, state.legal_bids) == (1, None, (0, 1, 2, 3, 4))


def test_state_when_earlier_bids_exceed_the_tricks() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 3), {"bids": [4, 4, 4]})
    assert (state.to_act, state.forbidden_bid, state.legal_bids) == (3, None, (0, 1, 2, 3, 4))


def test_state_after_the_bids() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 3), {"bids": [1, 1, 0, 3], "tricks": [1, None, 0]})
    assert (state.step, state.to_act, state.legal_bids) == ("result", None, ())
    assert state.missing == ("tricks won by Bob and Dan",)


def test_state_with_a_complete_hand() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 3), GOOD4)
    assert (state.step, state.missing) == ("result", ())


@pytest.mark.parametrize(
    ("pending", "field", "words"),
    [
        ({"bids": [None, None, 1, None]}, "bids.2", ("Cat cannot bid before Ann",)),
        ({"bids": [1, 1, 0, 2]}, "bids.3", ("Dan bids last and may not bid 2",)),
        ({"bids": [1, 1, 0, 3], "tricks": [1, 0, 0, 2]}, "tricks", ("add up to 3",)),
        ({"bids": [9]}, "bids.0", ("between 0 and 4",)),
        ({"bids": [1], "shared": [1]}, "shared", ("remote",)),
        ({"bid": [1]}, "bid", ("not part of an Australian Whist hand",)),
    ],
)
def test_state_refuses_illegal_partial_entries(pending: RawHand, field: str, words: tuple[str, ...]) -> None:
    setup = make_setup()
    with pytest.raises(RuleErrors) as caught:
        VARIANT.state(setup, filler(setup, 3), pending)
    assert_error([(e.field, e.message) for e in caught.value.errors], field, *words)


def test_state_misere_goes_straight_to_the_result() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 12))
    assert (state.step, state.to_act, state.legal_bids, state.forbidden_bid) == ("result", None, (), None)
    assert state.next_round is not None and state.next_round.kind is RoundKind.MISERE
    assert state.next_round.first_bidder is None and state.missing == ("tricks won by Ann, Bob, Cat and Dan",)
    with pytest.raises(RuleErrors):
        VARIANT.state(setup, filler(setup, 12), {"bids": [0, 0, 0, 0]})


def test_state_blind_round_says_bids_come_first() -> None:
    # notes: "Blind round: bids are taken before anyone sees cards (the app asks for bids first and says so)"
    setup = make_setup()
    state = VARIANT.state(setup, filler(setup, 11), {"bids": [2]})
    assert state.next_round is not None and state.next_round.kind is RoundKind.BLIND
    assert state.step == "bids" and state.to_act == 1  # round 12: Dan deals, Ann bid first
    assert "before the cards are dealt" in state.missing[0] and state.missing[0].startswith(
        "bids from Bob, Cat and Dan"
    )
    assert "before the cards are dealt" in state.next_round.note


def test_state_shows_a_pending_trump_override() -> None:
    setup = make_setup()
    state = VARIANT.state(setup, [], {"trump": "NT"})
    assert state.next_round is not None and state.next_round.trump is NT


def test_state_remote_waits_for_shared_tricks() -> None:
    setup = make_setup(THREE, remote=True)
    pending = {"bids": [0, 0, 0], "tricks": [2, 1, 1]}  # 4 for 3 tricks: fine once one is shared
    assert VARIANT.state(setup, filler(setup, 2), pending).missing == ()
    with pytest.raises(RuleErrors):
        VARIANT.state(setup, filler(setup, 2), {**pending, "shared": [0, 0, 0]})
    state = VARIANT.state(setup, filler(setup, 2), {**pending, "shared": [1, None]})
    assert state.missing == ("shared tricks of Bob and Cat",)


def test_state_when_over() -> None:
    setup = make_setup(("Ann", "Bob"))
    state = VARIANT.state(setup, filler(setup, 23))
    assert (state.over, state.step, state.next_round, state.winners, state.hands_played) == (
        True,
        "over",
        None,
        (1,),
        23,
    )
    with pytest.raises(RuleErrors) as caught:
        VARIANT.state(setup, filler(setup, 23), {"bids": [0, 0]})
    assert caught.value.errors[0].field == "hand"


def test_state_rejects_bad_earlier_hands() -> None:
    setup = make_setup()
    with pytest.raises(RuleErrors) as caught:
        VARIANT.state(setup, [{"bids": [0, 0, 0, 0], "tricks": [0, 0, 0, 0]}])
    assert caught.value.errors[0].hand == 1


# --------------------------------------------------------------------------- properties

TOP = {2: 10, 3: 10, 4: 10, 5: 10, 6: 8, 7: 7}  # doc: "10 ... 8 cards for 6 players and 7 cards for 7"


@st.composite
def tables(draw: st.DrawFn) -> Setup:
    n = draw(st.integers(2, 7))
    return make_setup(
        NAMES[:n],
        draw(st.integers(0, n - 1)),
        trump_cycle=draw(st.sampled_from(["skip", "pause"])),
        remote=draw(st.booleans()),
    )


def draw_hand(data: st.DataObject, spec: RoundSpec, players: int, remote: bool) -> dict[str, Any]:
    """A legal hand: each trick gets its winners (several only in remote play), then bids obeying the hook."""
    cards = spec.cards
    winner = st.sets(st.integers(0, players - 1), min_size=1, max_size=players if remote else 1)
    tricks, shared = [0] * players, [0] * players
    for winners in data.draw(st.lists(winner, min_size=cards, max_size=cards)):
        for p in winners:
            tricks[p] += 1
            shared[p] += len(winners) > 1
    hand: dict[str, Any] = {"tricks": tricks}
    if remote and data.draw(st.booleans()):
        hand["shared"] = shared
    elif any(shared):
        hand["shared"] = shared
    if spec.kind is RoundKind.MISERE:
        return hand
    assert spec.first_bidder is not None
    bids = [0] * players
    total = 0
    for position in range(players):
        seat = (spec.first_bidder + position) % players
        allowed = [b for b in range(cards + 1) if not (position == players - 1 and total + b == cards)]
        bid = (
            tricks[seat]
            if tricks[seat] in allowed and data.draw(st.booleans())
            else data.draw(st.sampled_from(allowed))
        )
        bids[seat] = bid
        total += bid
    hand["bids"] = bids
    return hand


def draw_game(data: st.DataObject, setup: Setup, count: int) -> list[RawHand]:
    remote = setup.options.get_bool("remote")
    return [draw_hand(data, VARIANT.round_spec(setup, n), len(setup.players), remote) for n in range(1, count + 1)]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.sampled_from(["skip", "pause"]))
def test_property_schedule_and_trump_cycle(players: int, cycle: str) -> None:
    setup = make_setup(NAMES[:players], trump_cycle=cycle)
    top = TOP[players]
    specs = [VARIANT.round_spec(setup, n) for n in range(1, rounds(setup) + 1)]
    assert len(specs) == 2 * top - 1 + 4  # 1..top-1, five at top, top-1..1
    assert [s.cards for s in specs] == list(range(1, top)) + [top] * 5 + list(range(top - 1, 0, -1))
    suitless = [s.number for s in specs if s.kind in (RoundKind.NO_TRUMPS, RoundKind.MISERE)]
    assert suitless == [top + 1, top + 3] and all(specs[n - 1].trump is NT for n in suitless)
    suits = [s.trump for s in specs if s.number not in suitless]
    if cycle == "skip":  # by round number
        assert all(s.trump is (H, C, D, S)[(s.number - 1) % 4] for s in specs if s.number not in suitless)
    else:  # the suits run on without a gap
        assert suits == [(H, C, D, S)[i % 4] for i in range(len(suits))]


@settings(max_examples=150, deadline=None)
@given(st.data(), tables())
def test_property_hook_rule_always_leaves_a_legal_bid(data: st.DataObject, setup: Setup) -> None:
    number = data.draw(
        st.sampled_from(
            [n for n in range(1, rounds(setup) + 1) if VARIANT.round_spec(setup, n).kind is not RoundKind.MISERE]
        )
    )
    spec = VARIANT.round_spec(setup, number)
    players = len(setup.players)
    assert spec.first_bidder is not None
    earlier = data.draw(st.lists(st.integers(0, spec.cards), min_size=players - 1, max_size=players - 1))
    bids: list[int | None] = [None] * players
    for position, bid in enumerate(earlier):
        bids[(spec.first_bidder + position) % players] = bid
    state = VARIANT.state(setup, filler(setup, number - 1), {"bids": bids})
    assert state.to_act == spec.dealer  # the dealer bids last
    assert state.legal_bids and all(sum(earlier) + b != spec.cards for b in state.legal_bids)
    assert len(state.legal_bids) == spec.cards + (0 if sum(earlier) <= spec.cards else 1)
    assert state.forbidden_bid == (spec.cards - sum(earlier) if sum(earlier) <= spec.cards else None)


@settings(max_examples=150, deadline=None)
@given(st.data(), tables())
def test_property_scores_of_one_round(data: st.DataObject, setup: Setup) -> None:
    number = data.draw(st.integers(1, rounds(setup)))
    spec = VARIANT.round_spec(setup, number)
    hand = draw_hand(data, spec, len(setup.players), setup.options.get_bool("remote"))
    cells = VARIANT.score(setup, filler(setup, number - 1) + [hand]).lines[-1].cells
    tricks = hand["tricks"]
    shared = hand.get("shared", [0] * len(tricks))
    if spec.kind is RoundKind.MISERE:
        # -2 per trick won, 10 for none: with one pack the tricks add up to the cards
        clean = sum(1 for t in tricks if t == 0)
        assert sum(c.points for c in cells) == -2 * sum(tricks) + 10 * clean
        if not any(shared):
            assert sum(c.points for c in cells) == -2 * spec.cards + 10 * clean
        return
    for cell, t, sh, bid in zip(cells, tricks, shared, hand["bids"]):
        # exact bid = 10 + 2 per trick (1 per shared trick); otherwise 0
        assert cell.points == (10 + 2 * t - sh if bid == t else 0)
        assert cell.made is (bid == t)
    if not any(shared):  # one pack: the bids never total the tricks, so somebody fails
        assert not all(c.made for c in cells)


@settings(max_examples=40, deadline=None)
@given(st.data(), tables())
def test_property_appending_hands_keeps_earlier_lines(data: st.DataObject, setup: Setup) -> None:
    total = rounds(setup)
    hands = draw_game(data, setup, total)
    cut = data.draw(st.integers(0, total - 1))
    early, full = VARIANT.score(setup, hands[:cut]), VARIANT.score(setup, hands)
    assert full.lines[:cut] == early.lines
    assert full.finished and not early.finished and early.winners == ()
    best = max(s.total for s in full.standings)
    assert full.winners == tuple(i for i, s in sorted((s.seat, s) for s in full.standings) if s.total == best)
    assert [s.total for s in sorted(full.standings, key=lambda s: s.seat)] == [
        sum(line.cells[seat].points for line in full.lines) for seat in range(len(setup.players))
    ]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)
HAND_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "bids": JSON | st.lists(st.none() | st.integers(-1, 11), max_size=5),
        "tricks": JSON | st.lists(st.none() | st.integers(-1, 11), max_size=5),
        "shared": JSON | st.lists(st.none() | st.integers(-1, 3), max_size=5),
        "trump": JSON | st.sampled_from(["H", "nt", "NTH", "X"]),
        "extra": JSON,
    },
)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 23), st.booleans(), HAND_VALUES | JSON)
def test_property_any_json_is_refused_with_rule_errors_only(number: int, remote: bool, hand: object) -> None:
    setup = make_setup(remote=remote)
    before = filler(setup, number - 1)
    for call in (
        lambda: VARIANT.check_hand(setup, before, hand),  # type: ignore[arg-type]
        lambda: VARIANT.state(setup, before, hand),  # type: ignore[arg-type]
        lambda: VARIANT.score(setup, before + [hand]),
    ):  # type: ignore[list-item]
        try:
            call()
        except RuleErrors as e:
            assert e.errors and all(isinstance(err, RuleError) and err.message for err in e.errors)
