"""Classic Whist, read like score sheets: each row cites the rule of rules/whist.txt or RULES-NOTES it checks.

Teams are Us (Ann, Cat) and Them (Bob, Dan), so the seats round the table are Ann, Bob, Cat, Dan.
Expected scores are worked out by hand in the rows, never by calling the code under test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.base import RoundKind, RuleError, RuleErrors, ScoreSheet, Setup, Team, resolve_options
from scorepad.rules.cards import Trump
from scorepad.rules.record import score_record
from scorepad.rules.whist import VARIANT

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
US_THEM = (Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan")))

Hand = dict[str, object]


def make_setup(
    options: Mapping[str, object] | None = None,
    teams: tuple[Team, ...] = US_THEM,
    first_dealer: int = 0,
    players: tuple[str, ...] = (),
) -> Setup:
    return Setup("whist", resolve_options(VARIANT.option_specs, options), players, teams, first_dealer)


def deal(us: int, them: int, trump: str = "H", honours: list[int] | None = None) -> Hand:
    hand: Hand = {"tricks": [us, them], "trump": trump}
    if honours is not None:
        hand["honours"] = honours
    return hand


def points_and_totals(sheet: ScoreSheet) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [
        ((line.cells[0].points, line.cells[1].points), (line.cells[0].total, line.cells[1].total))
        for line in sheet.lines
    ]


def errors_of(caught: pytest.ExceptionInfo[RuleErrors]) -> list[tuple[str, str]]:
    return [(e.field, e.message) for e in caught.value.errors]


# --------------------------------------------------------------------------- the variant itself


def test_registered_under_its_key() -> None:
    assert get_variant("whist") is VARIANT
    assert VARIANT.key == "whist" and VARIANT.name == "Whist"
    assert "trick above six" in VARIANT.summary


def test_option_defaults_follow_rules_notes() -> None:
    # RULES-NOTES: "game target 5 (default, British)", "honours on/off (off by default)"; trumps turned up
    # is the document's deal; the drive scores "the sum over deals of their side's odd tricks".
    defaults = {s.key: s.default for s in VARIANT.option_specs}
    assert defaults == {
        "target": 5,
        "honours": False,
        "rubber": True,
        "trumps": "turned",
        "no_trump_fifth": False,
        "deals": 0,
        "drive_scoring": "odd",
    }
    assert all(s.label and s.help for s in VARIANT.option_specs)


@pytest.mark.parametrize(
    "raw, field, words",
    [
        ({"target": 0}, "options.target", "at least 1"),
        ({"target": 100}, "options.target", "at most 99"),
        ({"trumps": "cut"}, "options.trumps", 'one of: "Turned up'),
        ({"drive_scoring": "honours"}, "options.drive_scoring", 'one of: "Odd tricks'),
        ({"deals": -1}, "options.deals", "at least 0"),
    ],
)
def test_option_values_are_bounded(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(VARIANT.option_specs, raw)
    [(got_field, message)] = errors_of(caught)
    assert got_field == field and words in message


# --------------------------------------------------------------------------- set-up


def test_seats_alternate_between_the_teams() -> None:
    # "Partners sit facing each other": seat s belongs to team s % 2, so Ann, Bob, Cat, Dan.
    setup = make_setup(first_dealer=1)
    assert VARIANT.round_spec(setup, 1).note.startswith("Bob deals, Cat leads")
    assert VARIANT.round_spec(setup, 2).note.startswith("Cat deals, Dan leads")
    assert VARIANT.round_spec(setup, 4).note.startswith("Ann deals, Bob leads")


def test_teams_without_player_names_get_numbered_seats() -> None:
    setup = make_setup(teams=(Team("Us"), Team("Them")))
    VARIANT.check_setup(setup)
    notes = [VARIANT.round_spec(setup, n).note for n in (1, 2, 3, 4)]
    assert [n.split(",")[0] for n in notes] == ["Us 1 deals", "Them 1 deals", "Us 2 deals", "Them 2 deals"]


@pytest.mark.parametrize(
    "setup, field, words",
    [
        (make_setup(players=("Ann", "Bob", "Cat", "Dan")), "players", "two teams, not players"),
        (make_setup(teams=(Team("Us"),)), "teams", "exactly two teams"),
        (make_setup(teams=(Team("A"), Team("B"), Team("C"))), "teams", "not 3"),
        (make_setup(teams=(Team("Us", ("Ann",)), Team("Them"))), "teams.0.players", "Us needs two player names"),
        (make_setup(teams=(Team("Us"), Team("Them", ("B", "C", "D")))), "teams.1.players", "not 3"),
        (make_setup(teams=(Team("Us", ("Ann", "Bob")), Team("Them", ("bob", "Dan")))), "teams", "same name"),
        (make_setup(teams=(Team("Us"), Team("us"))), "teams", "both teams have the same name"),
        (make_setup(first_dealer=4), "first_dealer", "0 to 3, not 4"),
        (make_setup(first_dealer=-1), "first_dealer", "0 to 3, not -1"),
        (make_setup({"drive_scoring": "all"}), "options.drive_scoring", "set a fixed number of deals"),
        (make_setup({"no_trump_fifth": True}), "options.no_trump_fifth", "needs the fixed trump sequence"),
        (make_setup({"honours": True, "deals": 12}), "options.honours", "not scored at a whist drive"),
    ],
)
def test_bad_setups_are_refused(setup: Setup, field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_setup(setup)
    assert any(f == field and words in m for f, m in errors_of(caught)), errors_of(caught)


def test_a_drive_ignores_the_game_target_and_rubber() -> None:
    VARIANT.check_setup(make_setup({"deals": 8, "target": 7, "rubber": True}))


# --------------------------------------------------------------------------- one deal


@pytest.mark.parametrize(
    "tricks, points",
    [
        pytest.param((8, 5), (2, 0), id="8 tricks: 2 points"),
        pytest.param((7, 6), (1, 0), id="7 tricks: 1 point"),
        pytest.param((6, 7), (0, 1), id="6-7: the side with 7 scores 1"),
        pytest.param((13, 0), (7, 0), id="all 13 tricks: 7 points"),
        pytest.param((0, 13), (0, 7), id="they take all 13"),
        pytest.param((4, 9), (0, 3), id="9 tricks: 3 points"),
    ],
)
def test_one_point_per_odd_trick(tricks: tuple[int, int], points: tuple[int, int]) -> None:
    # "the side which won more tricks scores 1 point for each trick they won in excess of 6"
    sheet = VARIANT.score(make_setup(), [deal(*tricks)])
    assert (sheet.lines[0].cells[0].points, sheet.lines[0].cells[1].points) == points
    assert (sheet.lines[0].cells[0].tricks, sheet.lines[0].cells[1].tricks) == tricks


def test_cells_read_like_a_paper_sheet() -> None:
    sheet = VARIANT.score(make_setup({"honours": True}), [deal(5, 8, "S", [3, 1])])
    assert [c.detail for c in sheet.lines[0].cells] == ["took 5 · 3 honours +2", "took 8 · 2 odd"]
    assert sheet.lines[0].spec.trump is Trump.SPADES  # the turned-up trump is shown on its line


# --------------------------------------------------------------------------- score sheets of games

# Each row: options, the deals, then per deal ((points Us, Them), (game score Us, Them)), and the notes.
SHEETS = [
    pytest.param(
        {"rubber": False},
        [deal(8, 5), deal(9, 4)],
        [((2, 0), (2, 0)), ((3, 0), (5, 0))],
        ["", "Game to Us, 5-0"],
        id="the partnership which first reaches 5 points wins the game",
    ),
    pytest.param(
        {},
        [deal(9, 4), deal(10, 3), deal(7, 6)],
        [((3, 0), (3, 0)), ((4, 0), (7, 0)), ((1, 0), (1, 0))],
        ["", "Game to Us, 7-0 (games Us 1, Them 0)", ""],
        id="a won game shows its total, then both sides start the next game at 0",
    ),
    pytest.param(
        {"honours": True},
        [deal(6, 7, "C", [4, 0])],
        [((4, 1), (4, 1))],
        [""],
        id="honours: held all four score an extra 4 points",
    ),
    pytest.param(
        {"honours": True},
        [deal(8, 5, "D", [3, 1])],
        [((4, 0), (4, 0))],
        [""],
        id="honours: held three of the four can claim 2 points",
    ),
    pytest.param(
        {"honours": True},
        [deal(8, 5, "D", [2, 2]), deal(5, 8, "D", [1, 3])],
        [((2, 0), (2, 0)), ((0, 4), (2, 4))],
        ["", ""],
        id="honours: one side held three, the other one",
    ),
    pytest.param(
        {"honours": True},
        [deal(7, 6), deal(9, 4), deal(6, 7, "S", [4, 0])],
        [((1, 0), (1, 0)), ((3, 0), (4, 0)), ((0, 1), (4, 1))],
        ["", "", "Us stood at 4: honours not scored"],
        id="honours blocked at 4: already has 4 points towards the 5 cannot score honours",
    ),
    pytest.param(
        {"honours": True},
        [deal(7, 6), deal(9, 4), deal(8, 5, "S", [4, 0])],
        [((1, 0), (1, 0)), ((3, 0), (4, 0)), ((2, 0), (6, 0))],
        ["", "", "Us stood at 4: honours not scored; Game to Us, 6-0 (games Us 1, Them 0)"],
        id="at 4 the side still scores its tricks, just not its honours",
    ),
    pytest.param(
        {"honours": True},
        [deal(9, 4), deal(4, 9), deal(6, 7), deal(5, 8, "S", [4, 0])],
        [((3, 0), (3, 0)), ((0, 3), (3, 3)), ((0, 1), (3, 4)), ((0, 2), (3, 6))],
        [
            "",
            "",
            "",
            "tricks are scored first: honours held by Us come too late; Game to Them, 6-3 (games Us 0, Them 1)",
        ],
        id="both sides would have reached 5: it is the side scoring for tricks that wins",
    ),
    pytest.param(
        {"honours": True},
        [deal(9, 4), deal(6, 7, "H", [4, 0])],
        [((3, 0), (3, 0)), ((4, 1), (7, 1))],
        ["", "Game to Us, 7-1 (games Us 1, Them 0)"],
        id="honours alone win a game for a side not standing at 4",
    ),
    pytest.param(
        {"honours": True, "target": 7},
        [deal(9, 4), deal(9, 4), deal(5, 8, "H", [0, 4]), deal(6, 7, "H", [3, 1])],
        [((3, 0), (3, 0)), ((3, 0), (6, 0)), ((0, 6), (6, 6)), ((0, 1), (6, 7))],
        ["", "", "", "Us stood at 6: honours not scored; Game to Them, 7-6 (games Us 0, Them 1)"],
        id="American game: the bar on honours is at game minus one, 6 of 7",
    ),
    pytest.param(
        {"target": 7, "rubber": False},
        [deal(9, 4), deal(9, 4), deal(7, 6)],
        [((3, 0), (3, 0)), ((3, 0), (6, 0)), ((1, 0), (7, 0))],
        ["", "", "Game to Us, 7-0"],
        id="in America a target of 7 was customary",
    ),
    pytest.param(
        {"target": 9, "rubber": False},
        [deal(10, 3), deal(11, 2)],
        [((4, 0), (4, 0)), ((5, 0), (9, 0))],
        ["", "Game to Us, 9-0"],
        id="Long Whist, in which game was 9 points",
    ),
    pytest.param(
        {"honours": False},
        [deal(6, 7, "H")],
        [((0, 1), (0, 1))],
        [""],
        id="without the honours option no honours are entered or scored",
    ),
]


@pytest.mark.parametrize("options, hands, expected, notes", SHEETS)
def test_game_score_sheets(
    options: dict[str, object],
    hands: list[Hand],
    expected: list[tuple[tuple[int, int], tuple[int, int]]],
    notes: list[str],
) -> None:
    sheet = VARIANT.score(make_setup(options), hands)
    assert points_and_totals(sheet) == expected
    assert [line.note for line in sheet.lines] == notes


def test_a_single_game_ends_the_record() -> None:
    sheet = VARIANT.score(make_setup({"rubber": False}), [deal(8, 5), deal(4, 9), deal(10, 3)])
    assert sheet.finished and sheet.winners == (0,)
    assert [(s.name, s.total, s.rank, s.detail) for s in sheet.standings] == [
        ("Us", 1, 1, "1 game to 0"),
        ("Them", 0, 2, "0 games to 1"),
    ]
    assert sheet.summary == "Us win the game, 6-3"


RUBBER_2_0 = [deal(10, 3), deal(8, 5), deal(3, 10), deal(9, 4), deal(11, 2)]  # 4+2 | 0-4, 3, 5
RUBBER_2_1 = [deal(2, 11), deal(11, 2), deal(9, 4), deal(10, 3)]  # Them 5-0 | Us 5-0 | Us 3, 7


def test_a_rubber_is_won_two_games_to_none() -> None:
    # "a rubber, which was the best of three games - the winners were the first side to win two games"
    sheet = VARIANT.score(make_setup(), RUBBER_2_0)
    assert [line.note for line in sheet.lines] == [
        "",
        "Game to Us, 6-0 (games Us 1, Them 0)",
        "",
        "",
        "Game and rubber to Us, 8-4 (2 games to 0)",
    ]
    assert sheet.finished and sheet.winners == (0,)
    assert [(s.name, s.total, s.detail) for s in sheet.standings] == [
        ("Us", 2, "2 games to 0"),
        ("Them", 0, "0 games to 2"),
    ]
    assert sheet.summary == "Us win the rubber, 2 games to 0"


def test_a_rubber_goes_to_a_third_game() -> None:
    sheet = VARIANT.score(make_setup(), RUBBER_2_1[:2])
    assert not sheet.finished and sheet.winners == ()
    assert [(s.name, s.total, s.rank, s.detail) for s in sheet.standings] == [
        ("Us", 1, 1, "1 game to 1"),
        ("Them", 1, 1, "1 game to 1"),
    ]
    sheet = VARIANT.score(make_setup(), RUBBER_2_1)
    assert sheet.finished and sheet.winners == (0,)
    assert sheet.lines[-1].note == "Game and rubber to Us, 7-0 (2 games to 1)"
    assert [s.detail for s in sheet.standings] == ["2 games to 1", "1 game to 2"]


def test_standings_show_the_game_in_progress() -> None:
    sheet = VARIANT.score(make_setup(), [deal(10, 3), deal(8, 5), deal(6, 7)])
    assert [s.detail for s in sheet.standings] == ["1 game to 0; 0 in this game", "0 games to 1; 1 in this game"]
    assert sheet.summary == "Game 2: Us 0, Them 1 (games 1-0)"


def test_no_deal_after_the_rubber() -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(make_setup(), RUBBER_2_0 + [deal(7, 6), deal(8, 5)])
    assert [(e.hand, e.field) for e in caught.value.errors] == [(6, "hand"), (7, "hand")]
    assert "Us win the rubber, 2 games to 0: no more deals" in caught.value.errors[0].message
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(make_setup(), RUBBER_2_0, deal(7, 6))
    assert errors_of(caught)[0][0] == "hand"


# --------------------------------------------------------------------------- whist drive


@pytest.mark.parametrize(
    "scoring, hands, totals",
    [
        pytest.param(
            "odd",
            [deal(8, 5), deal(6, 7), deal(13, 0)],
            (9, 1),
            id="each player's score is the total number of odd tricks",
        ),
        pytest.param(
            "all", [deal(8, 5), deal(6, 7), deal(13, 0)], (27, 12), id="option: all tricks taken, 13 a deal shared"
        ),
    ],
)
def test_drive_totals(scoring: str, hands: list[Hand], totals: tuple[int, int]) -> None:
    setup = make_setup({"deals": 3, "drive_scoring": scoring, "trumps": "sequence"})
    for h in hands:
        del h["trump"]
    sheet = VARIANT.score(setup, hands)
    assert (sheet.lines[-1].cells[0].total, sheet.lines[-1].cells[1].total) == totals
    assert [s.total for s in sorted(sheet.standings, key=lambda s: s.seat)] == list(totals)
    assert sheet.finished and sheet.winners == (0,)


def test_drive_ends_after_its_deals_and_reports_a_tie() -> None:
    setup = make_setup({"deals": 2})
    half = VARIANT.score(setup, [deal(8, 5)])
    assert not half.finished and half.winners == () and half.summary == "Us lead, 2-0"
    sheet = VARIANT.score(setup, [deal(8, 5), deal(5, 8)])
    assert sheet.finished and sheet.winners == (0, 1)
    assert [s.rank for s in sheet.standings] == [1, 1]
    assert sheet.summary == "Tie: Us and Them 2-2"
    assert all(line.note == "" for line in sheet.lines)  # no game target: no "Game to" notes
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(setup, [deal(8, 5), deal(5, 8), deal(7, 6)])
    [(field, message)] = errors_of(caught)
    assert field == "hand" and "2 deals" in message and caught.value.errors[0].hand == 3


def test_drive_counts_no_game_even_past_the_target() -> None:
    sheet = VARIANT.score(make_setup({"deals": 3}), [deal(13, 0), deal(12, 1), deal(7, 6)])
    assert [line.cells[0].total for line in sheet.lines] == [7, 13, 14]


# --------------------------------------------------------------------------- the schedule


def test_turned_trumps_and_rotating_deal() -> None:
    # "The final card, which will belong to the dealer, is turned face up to indicate which suit is trump."
    setup = make_setup(first_dealer=2)
    assert VARIANT.round_count(setup) is None
    specs = [VARIANT.round_spec(setup, n) for n in range(1, 6)]
    assert [s.dealer for s in specs] == [2, 3, 0, 1, 2]
    assert all(s.trump is None and s.first_bidder is None and s.cards == 13 for s in specs)
    assert specs[0].note == "Cat deals, Dan leads; the dealer's last card is turned up for trumps"


def test_fixed_trump_sequence() -> None:
    # "for the first deal hearts are trumps, for the second deal diamonds, then spades, then clubs"
    setup = make_setup({"trumps": "sequence"})
    trumps = [VARIANT.round_spec(setup, n).trump for n in range(1, 10)]
    H, D, S, C = Trump.HEARTS, Trump.DIAMONDS, Trump.SPADES, Trump.CLUBS
    assert trumps == [H, D, S, C, H, D, S, C, H]
    assert VARIANT.round_spec(setup, 3).note == "Cat deals, Dan leads; spades are trumps"


def test_no_trumps_every_fifth_hand() -> None:
    # "It is also possible to introduce no trumps into the sequence - so that every fifth hand is played
    # without trumps."
    setup = make_setup({"trumps": "sequence", "no_trump_fifth": True, "deals": 10})
    specs = [VARIANT.round_spec(setup, n) for n in range(1, 11)]
    assert [s.trump.value if s.trump else None for s in specs] == ["H", "D", "S", "C", "NT"] * 2
    assert [s.number for s in specs if s.kind is RoundKind.NO_TRUMPS] == [5, 10]
    assert VARIANT.round_count(setup) == 10


@pytest.mark.parametrize(
    "options, number, words",
    [
        ({}, 0, "numbered from 1"),
        ({"deals": 4}, 5, "4 deals"),
    ],
)
def test_round_spec_out_of_range(options: dict[str, object], number: int, words: str) -> None:
    with pytest.raises(RuleError) as caught:
        VARIANT.round_spec(make_setup(options), number)
    assert caught.value.field == "hand" and words in caught.value.message


def test_sequence_trump_may_be_omitted_or_repeated() -> None:
    setup = make_setup({"trumps": "sequence"})
    sheet = VARIANT.score(setup, [{"tricks": [8, 5]}, {"tricks": [8, 5], "trump": "d"}])
    assert [line.spec.trump for line in sheet.lines] == [Trump.HEARTS, Trump.DIAMONDS]


# --------------------------------------------------------------------------- bad entries

HONOURS = {"honours": True}
SEQ_NT = {"trumps": "sequence", "no_trump_fifth": True, "honours": True}

BAD_HANDS = [
    pytest.param({}, [], {"trump": "H"}, "tricks", "enter the tricks taken by each side (Us, Them)", id="no tricks"),
    pytest.param({}, [], {"tricks": None, "trump": "H"}, "tricks", "enter the tricks", id="null tricks"),
    pytest.param({}, [], deal(8, 4), "tricks", "add up to 12 but every deal has 13", id="12 tricks"),
    pytest.param({}, [], deal(8, 6), "tricks", "add up to 14", id="14 tricks"),
    pytest.param({}, [], deal(14, -1), "tricks.0", "tricks taken by Us must be between 0 and 13", id="14 and -1"),
    pytest.param(
        {},
        [],
        {"tricks": "8-5", "trump": "H"},
        "tricks",
        "list of two numbers: Us first, then Them",
        id="tricks as text",
    ),
    pytest.param(
        {},
        [],
        {"tricks": [8, "5"], "trump": "H"},
        "tricks.1",
        "tricks taken by Them must be a whole number",
        id="a number as text",
    ),
    pytest.param({}, [], {"tricks": [8.0, 5], "trump": "H"}, "tricks.0", "whole number", id="a float"),
    pytest.param({}, [], {"tricks": [True, 12], "trump": "H"}, "tricks.0", "whole number", id="a boolean"),
    pytest.param({}, [], {"tricks": [8, 5, 0], "trump": "H"}, "tricks", "not 3 numbers", id="three numbers"),
    pytest.param({}, [], {"tricks": [13], "trump": "H"}, "tricks", "not 1 number", id="one number"),
    pytest.param({}, [], {"tricks": [8, 5]}, "trump", "turned up by Ann, the dealer", id="no turned trump"),
    pytest.param({}, [deal(7, 6)], {"tricks": [8, 5]}, "trump", "turned up by Bob", id="the second dealer"),
    pytest.param({}, [], deal(8, 5, "X"), "trump", "'X' is not a trump", id="unknown trump"),
    pytest.param({}, [], deal(8, 5, "NT"), "trump", "No trumps is not allowed here", id="a turned card is a suit"),
    pytest.param({}, [], {"tricks": [8, 5], "trump": 4}, "trump", "must be one of H, D, C, S", id="trump a number"),
    pytest.param(
        {"trumps": "sequence"},
        [],
        deal(8, 5, "S"),
        "trump",
        "deal 1 has hearts as trumps by the fixed sequence, not spades as trumps",
        id="against the sequence",
    ),
    pytest.param(
        SEQ_NT,
        [{"tricks": [8, 5]}] * 4,
        deal(8, 5, "C"),
        "trump",
        "deal 5 has no trumps by the fixed sequence",
        id="a suit on the no-trumps deal",
    ),
    pytest.param({}, [], deal(8, 5, "H", [4, 0]), "honours", "honours option is off", id="honours when off"),
    pytest.param(
        HONOURS,
        [],
        deal(8, 5, "H", [3, 3]),
        "honours",
        "add up to 6, but there are exactly four",
        id="both sides cannot hold three",
    ),
    pytest.param(HONOURS, [], deal(8, 5, "H", [4, 1]), "honours", "add up to 5", id="four and one"),
    pytest.param(HONOURS, [], deal(8, 5, "H", [1, 1]), "honours", "add up to 2", id="honours missing"),
    pytest.param(
        HONOURS,
        [],
        deal(8, 5, "H", [5, -1]),
        "honours.0",
        "honours held by Us must be between 0 and 4",
        id="five honours",
    ),
    pytest.param(
        HONOURS,
        [],
        {"tricks": [8, 5], "trump": "H", "honours": 4},
        "honours",
        "list of two numbers",
        id="honours a number",
    ),
    pytest.param(
        HONOURS,
        [],
        {"tricks": [8, 5], "trump": "H", "honours": [4]},
        "honours",
        "not 1 number",
        id="one side's honours",
    ),
    pytest.param(
        HONOURS,
        [],
        {"tricks": [8, 5], "trump": "H", "honours": ["A", 0]},
        "honours.0",
        "whole number",
        id="honours as a card",
    ),
    pytest.param(
        SEQ_NT,
        [deal(8, 5, t) for t in "HDSC"],
        {"tricks": [8, 5], "honours": [2, 2]},
        "honours",
        "deal 5 is played without trumps, so there are no honours",
        id="honours at no trumps",
    ),
    pytest.param(
        {},
        [],
        {"tricks": [8, 5], "trump": "H", "revoke": 1},
        "revoke",
        "'revoke' is not part of a Whist hand",
        id="unknown key",
    ),
]


@pytest.mark.parametrize("options, before, hand, field, words", BAD_HANDS)
def test_bad_entries_are_refused(
    options: dict[str, object], before: list[Hand], hand: Hand, field: str, words: str
) -> None:
    setup = make_setup(options)
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(setup, before, hand)
    assert any(f == field and words in m for f, m in errors_of(caught)), errors_of(caught)
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(setup, [*before, hand])
    assert {e.hand for e in caught.value.errors} == {len(before) + 1}


def test_a_hand_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(make_setup(), [], [8, 5])  # type: ignore[arg-type]
    assert errors_of(caught)[0][0] == "hand"


def test_every_bad_field_of_every_hand_is_reported() -> None:
    hands: list[Hand] = [deal(8, 5), {"tricks": [9, 9], "trump": "Z"}, deal(7, 6), {"tricks": [8, 5], "x": 0}]
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(make_setup(), hands)
    assert [(e.hand, e.field) for e in caught.value.errors] == [(2, "tricks"), (2, "trump"), (4, "x"), (4, "trump")]


def test_good_entries_pass() -> None:
    VARIANT.check_hand(make_setup({"honours": True}), [], deal(8, 5, "c", [1, 3]))
    VARIANT.check_hand(make_setup({"honours": True}), [], {"tricks": [8, 5], "trump": "C", "honours": None})


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["tricks", "trump", "honours", "odd"]),
        st.recursive(
            st.none() | st.booleans() | st.integers(-3, 16) | st.text(max_size=3),
            lambda inner: st.lists(inner, max_size=3),
            max_leaves=4,
        ),
    )
)
def test_any_json_entry_is_accepted_or_refused_with_rule_errors(hand: Hand) -> None:
    for options in ({"honours": True}, {"trumps": "sequence", "no_trump_fifth": True}):
        setup = make_setup(options)
        for check in (
            lambda setup=setup: VARIANT.check_hand(setup, [], hand),
            lambda setup=setup: VARIANT.state(setup, [], hand),
        ):
            try:
                check()
            except RuleErrors as e:
                assert e.errors and all(isinstance(x, RuleError) and x.message for x in e.errors)


# --------------------------------------------------------------------------- state


def test_state_before_anything_is_entered() -> None:
    state = VARIANT.state(make_setup(first_dealer=3), [])
    assert (state.hands_played, state.over, state.step, state.to_act) == (0, False, "result", None)
    assert state.missing == ("tricks for each side", "the trump turned up")
    assert state.next_round is not None and state.next_round.dealer == 3 and state.next_round.trump is None


@pytest.mark.parametrize(
    "pending, missing",
    [
        ({"tricks": [8]}, ("tricks for Them", "the trump turned up")),
        ({"tricks": [None, 5], "trump": "H"}, ("tricks for Us",)),
        ({"tricks": [None, None]}, ("tricks for each side", "the trump turned up")),
        ({"trump": "S"}, ("tricks for each side",)),
        ({"tricks": [8, 5], "trump": "S", "honours": [3, None]}, ()),
    ],
)
def test_state_of_a_partly_entered_hand(pending: Hand, missing: tuple[str, ...]) -> None:
    state = VARIANT.state(make_setup({"honours": True}), [deal(7, 6)], pending)
    assert state.step == "result" and state.missing == missing and state.hands_played == 1


def test_state_with_sequence_trumps_only_needs_tricks() -> None:
    state = VARIANT.state(make_setup({"trumps": "sequence"}), [{"tricks": [7, 6]}] * 2)
    assert state.missing == ("tricks for each side",)
    assert state.next_round is not None and state.next_round.trump is Trump.SPADES


@pytest.mark.parametrize(
    "pending, field",
    [
        ({"tricks": [8, 8]}, "tricks"),
        ({"tricks": [14]}, "tricks.0"),
        ({"trump": "NT"}, "trump"),
        ({"honours": [3, 3]}, "honours"),
        ({"honours": [5]}, "honours.0"),
        ({"bids": [1]}, "bids"),
    ],
)
def test_illegal_partial_entries_are_refused(pending: Hand, field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.state(make_setup({"honours": True}), [], pending)
    assert field in [f for f, _ in errors_of(caught)]


def test_state_when_the_rubber_is_over() -> None:
    state = VARIANT.state(make_setup(), RUBBER_2_0)
    assert (state.over, state.step, state.next_round, state.winners) == (True, "over", None, (0,))
    with pytest.raises(RuleErrors):
        VARIANT.state(make_setup(), RUBBER_2_0, {"tricks": [7, 6]})


def test_state_when_the_drive_is_over() -> None:
    setup = make_setup({"deals": 2})
    assert VARIANT.state(setup, [deal(8, 5)]).next_round is not None
    state = VARIANT.state(setup, [deal(8, 5), deal(5, 8)])
    assert state.over and state.winners == (0, 1)


# --------------------------------------------------------------------------- properties

tricks_for_us = st.integers(0, 13)
honours_split = st.sampled_from([None, [4, 0], [3, 1], [2, 2], [1, 3], [0, 4]])


@settings(max_examples=150, deadline=None)
@given(st.lists(tricks_for_us, min_size=1, max_size=25))
def test_exactly_one_side_scores_its_odd_tricks(us_tricks: list[int]) -> None:
    hands = [deal(t, 13 - t) for t in us_tricks]
    sheet = _play_until_over(make_setup(), hands)
    for line, t in zip(sheet.lines, us_tricks):
        points = [c.points for c in line.cells]
        winner = 0 if t > 6 else 1
        assert points[winner] == max(t, 13 - t) - 6 and points[1 - winner] == 0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(tricks_for_us, honours_split), min_size=1, max_size=25), st.sampled_from([5, 7, 9]))
def test_honours_properties(deals: list[tuple[int, list[int] | None]], target: int) -> None:
    hands = [deal(t, 13 - t, "S", h) for t, h in deals]
    sheet = _play_until_over(make_setup({"honours": True, "target": target}), hands)
    before = [0, 0]
    for line, (t, _) in zip(sheet.lines, deals):
        odd = [max(t - 6, 0), max(7 - t, 0)]
        points = [c.points for c in line.cells]
        assert sum(points) <= 7 + 4
        for s in (0, 1):
            honours_points = points[s] - odd[s]
            assert honours_points in (0, 2, 4)
            if before[s] == target - 1:
                assert honours_points == 0, "a side at game minus one never scores honours"
        totals = [c.total for c in line.cells]
        assert totals == [before[0] + points[0], before[1] + points[1]]
        game_won = max(totals) >= target
        assert ("Game" in line.note) == game_won, "a game ends exactly when a side reaches the target"
        if game_won and max(odd[0] + before[0], odd[1] + before[1]) >= target:
            trick_side = 0 if t > 6 else 1
            assert f"to {('Us', 'Them')[trick_side]}," in line.note, "tricks are scored first"
        before = [0, 0] if game_won else totals


@settings(max_examples=150, deadline=None)
@given(st.lists(tricks_for_us, min_size=40, max_size=40), st.booleans(), st.sampled_from([1, 5, 7]))
def test_a_rubber_ends_after_two_or_three_games(us_tricks: list[int], rubber: bool, target: int) -> None:
    sheet = _play_until_over(make_setup({"rubber": rubber, "target": target}), [deal(t, 13 - t) for t in us_tricks])
    games = [line.note for line in sheet.lines if "Game" in line.note]
    assert sheet.finished
    assert len(games) in ((2, 3) if rubber else (1,))
    winner = ("Us", "Them")[sheet.winners[0]]
    assert [g.split(",")[0].endswith(winner) for g in games].count(True) == (2 if rubber else 1)


@settings(max_examples=150, deadline=None)
@given(st.lists(tricks_for_us, min_size=1, max_size=30), st.booleans())
def test_drive_totals_are_sums_of_tricks(us_tricks: list[int], all_tricks: bool) -> None:
    setup = make_setup({"deals": len(us_tricks), "drive_scoring": "all" if all_tricks else "odd"})
    sheet = VARIANT.score(setup, [deal(t, 13 - t) for t in us_tricks])
    if all_tricks:
        expected = [sum(us_tricks), sum(13 - t for t in us_tricks)]
    else:
        expected = [sum(max(t - 6, 0) for t in us_tricks), sum(max(7 - t, 0) for t in us_tricks)]
    assert [s.total for s in sorted(sheet.standings, key=lambda s: s.seat)] == expected
    assert sheet.finished
    assert len(sheet.winners) == (2 if expected[0] == expected[1] else 1)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 200), st.booleans(), st.integers(0, 3))
def test_sequence_cycle(number: int, nt_fifth: bool, first_dealer: int) -> None:
    setup = make_setup({"trumps": "sequence", "no_trump_fifth": nt_fifth}, first_dealer=first_dealer)
    cycle = ["H", "D", "S", "C", "NT"] if nt_fifth else ["H", "D", "S", "C"]
    spec = VARIANT.round_spec(setup, number)
    assert spec.trump is not None and spec.trump.value == cycle[(number - 1) % len(cycle)]
    assert spec.dealer == (first_dealer + number - 1) % 4


def _play_until_over(setup: Setup, hands: Sequence[Hand]) -> ScoreSheet:
    """Enter deals one at a time, as at the table, stopping when the game or rubber is over."""
    played: list[Hand] = []
    sheet = VARIANT.score(setup, played)
    for hand in hands:
        if sheet.finished:
            break
        played.append(hand)
        sheet = VARIANT.score(setup, played)
    return sheet


# --------------------------------------------------------------------------- example records


@pytest.mark.parametrize(
    "path", sorted(p for p in EXAMPLES.glob("whist-*.json") if ".expected" not in p.name), ids=lambda p: p.stem
)
def test_example_records_match_their_sidecars(path: Path) -> None:
    sheet = score_record(json.loads(path.read_text()))
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    assert sheet.finished == expected["finished"]
    assert [sheet.columns[i] for i in sheet.winners] == expected["winners"]
    assert {s.name: s.total for s in sheet.standings} == expected["totals"]
