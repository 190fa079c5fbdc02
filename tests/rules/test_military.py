"""Military Whist: the rotation, the movement, flags per table, the ledger, loans, days, playoffs.

Expected values are worked out by hand from the document (rules/military-whist.txt) and
RULES-NOTES.md; the quoted words say which rule a row checks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.base import RoundKind, RuleError, RuleErrors, Setup, Team, resolve_options
from scorepad.rules.cards import Trump
from scorepad.rules.military import (
    VARIANT,
    MilitaryRound,
    TableResult,
    flag_words,
    ledger,
    preview,
    settle_next,
    table_outcome,
    visitors_count,
)
from scorepad.rules.record import parse_record, score_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("military-*.expected.json"))
NAMES = ["Maple", "Birch", "Cedar", "Spruce", "Aspen", "Larch", "Rowan", "Hazel"]

# "SAMPLE 30-HAND ROTATION" copied from the document: HAND, WHO, MOVE TO (blank), TRUMP, DEALER.
DOCUMENT_ROTATION = """
1   A&B   _____   H         B
2   X&Y   _____   S         X
3   A&X   _____   D         A
4   B&Y   _____   C         Y
5   A&Y   _____   NT Low    A
6   B&X   _____   H         X
7   A&B   _____   S         B
8   X&Y   _____   D         Y
9   A&X   _____   C         A
10  B&Y   _____   NT High   B
11  A&Y   _____   H         Y
12  B&X   _____   S         X
13  A&B   _____   D         B
14  X&Y   _____   C         X
15  A&X   _____   NT Low    A
16  B&Y   _____   H         Y
17  A&Y   _____   S         A
18  B&X   _____   D         X
19  A&B   _____   C         B
20  X&Y   _____   NT High   Y
21  A&X   _____   H         A
22  B&Y   _____   S         B
23  A&Y   _____   D         Y
24  B&X   _____   C         X
25  A&B   _____   NT Low    B
26  X&Y   _____   H         X
27  A&X   _____   S         A
28  B&Y   _____   D         Y
29  A&Y   _____   C         A
30  B&X   _____   NT High   X
"""
DOC_TRUMPS = {
    "H": Trump.HEARTS,
    "S": Trump.SPADES,
    "D": Trump.DIAMONDS,
    "C": Trump.CLUBS,
    "NT Low": Trump.NT_LOW,
    "NT High": Trump.NT_HIGH,
}
DOC_ROWS = [re.split(r"\s{2,}", line.strip()) for line in DOCUMENT_ROTATION.strip().splitlines()]

# "7 or more tricks" win 1 marker, "10 or more tricks, they take away 2".
FLAGS_FOR_COUNT = {**dict.fromkeys(range(7), 0), 7: 1, 8: 1, 9: 1, 10: 2, 11: 2, 12: 2, 13: 2}


def make_setup(tables: int = 4, days: Sequence[int] = (10,), **options: object) -> Setup:
    opts = resolve_options(VARIANT.option_specs, {"days": list(days), **options})
    teams = tuple(Team(NAMES[i] if i < len(NAMES) else f"Team {i + 1}") for i in range(tables))
    setup = Setup("military", opts, teams=teams)
    VARIANT.check_setup(setup)
    return setup


def hand(*tricks: int | dict[str, object] | None, **extra: object) -> dict[str, object]:
    """A scheduled hand: one entry per host table (a number is the visitors' tricks)."""
    results = [t if t is None or isinstance(t, dict) else {"tricks": t} for t in tricks]
    return {"results": results, **extra}


def flags_hand(number: int, *flags: int, **extra: object) -> dict[str, object]:
    """Hand `number` in which the visitors at each table take the given flags (NT Low counted right)."""
    tricks = {0: 8, 1: 5, 2: 2} if number % 10 == 5 else {0: 5, 1: 8, 2: 11}
    return hand(*(tricks[f] for f in flags), **extra)


def quiet(number: int, tables: int) -> dict[str, object]:
    """A hand in which no flags move."""
    return flags_hand(number, *([0] * tables))


def quiet_hands(count: int, tables: int) -> list[dict[str, object]]:
    return [quiet(n, tables) for n in range(1, count + 1)]


def errors_of(call: object) -> list[RuleError]:
    assert callable(call)
    with pytest.raises(RuleErrors) as caught:
        call()
    return list(caught.value.errors)


def totals(setup: Setup, hands: Sequence[dict[str, object]]) -> dict[str, int]:
    return {s.name: s.total for s in VARIANT.score(setup, hands).standings}


# --------------------------------------------------------------------------- the rotation


def test_the_document_table_has_thirty_rows() -> None:
    assert [int(row[0]) for row in DOC_ROWS] == list(range(1, 31))


@pytest.mark.parametrize("row", DOC_ROWS, ids=lambda row: f"hand {row[0]}")
def test_each_row_of_the_sample_rotation_is_the_schedule(row: list[str]) -> None:
    number, who, _, trump, dealer = row
    setup = make_setup(days=(30, 20))
    for n in (int(number), int(number) + 30):  # "repeated" for the 50 provincial hands
        if n > 50:
            continue
        spec = VARIANT.round_spec(setup, n)
        assert isinstance(spec, MilitaryRound)
        assert (spec.out_pair, spec.trump, spec.dealer_letter) == (who, DOC_TRUMPS[trump], dealer)
        assert spec.dealer == "ABXY".index(dealer)
        assert spec.cards == 13 and spec.first_bidder is None


def test_rotation_has_period_thirty() -> None:
    setup = make_setup(days=(100, 100))
    for n in range(1, 171):
        a, b = VARIANT.round_spec(setup, n), VARIANT.round_spec(setup, n + 30)
        assert isinstance(a, MilitaryRound) and isinstance(b, MilitaryRound)
        assert (a.out_pair, a.home_pair, a.trump, a.dealer, a.kind) == (
            b.out_pair,
            b.home_pair,
            b.trump,
            b.dealer,
            b.kind,
        )


def test_pairs_repeat_every_six_hands_and_the_other_two_stay_home() -> None:
    setup = make_setup(days=(30,))
    pairs = ["A&B", "X&Y", "A&X", "B&Y", "A&Y", "B&X"]
    homes = ["X&Y", "A&B", "B&Y", "A&X", "B&X", "A&Y"]
    for n in range(1, 31):
        spec = VARIANT.round_spec(setup, n)
        assert isinstance(spec, MilitaryRound)
        assert (spec.out_pair, spec.home_pair) == (pairs[(n - 1) % 6], homes[(n - 1) % 6])
        assert spec.dealer_letter in spec.out_pair  # the dealer is always a visitor


@pytest.mark.parametrize(
    "number, trump, kind",
    [
        (5, Trump.NT_LOW, RoundKind.GIVEAWAY),
        (15, Trump.NT_LOW, RoundKind.GIVEAWAY),
        (25, Trump.NT_LOW, RoundKind.GIVEAWAY),
        (35, Trump.NT_LOW, RoundKind.GIVEAWAY),
        (45, Trump.NT_LOW, RoundKind.GIVEAWAY),
        (10, Trump.NT_HIGH, RoundKind.NO_TRUMPS),
        (20, Trump.NT_HIGH, RoundKind.NO_TRUMPS),
        (30, Trump.NT_HIGH, RoundKind.NO_TRUMPS),
        (40, Trump.NT_HIGH, RoundKind.NO_TRUMPS),
        (50, Trump.NT_HIGH, RoundKind.NO_TRUMPS),
        (1, Trump.HEARTS, RoundKind.NORMAL),
        (2, Trump.SPADES, RoundKind.NORMAL),
        (3, Trump.DIAMONDS, RoundKind.NORMAL),
        (4, Trump.CLUBS, RoundKind.NORMAL),
        (31, Trump.HEARTS, RoundKind.NORMAL),
        (49, Trump.CLUBS, RoundKind.NORMAL),
    ],
    ids=lambda v: str(getattr(v, "value", v)),
)
def test_no_trump_hands(number: int, trump: Trump, kind: RoundKind) -> None:
    # "NT Low is giveaway, count opponent's tricks"; NT High on 10, 20, 30
    spec = VARIANT.round_spec(make_setup(days=(30, 20)), number)
    assert (spec.trump, spec.kind) == (trump, kind)
    assert ("count the opponents' tricks" in spec.note) == (kind is RoundKind.GIVEAWAY)


def test_the_provincial_schedule_has_two_days() -> None:
    setup = make_setup(days=(30, 20))
    assert VARIANT.round_count(setup) == 50
    last, first = VARIANT.round_spec(setup, 30), VARIANT.round_spec(setup, 31)
    assert isinstance(last, MilitaryRound) and isinstance(first, MilitaryRound)
    assert (last.day, last.day_hand, last.closes_day) == (1, 30, True)
    assert (first.day, first.day_hand, first.closes_day) == (2, 1, False)
    assert "last hand of day 1" in last.note
    with pytest.raises(RuleError) as caught:
        VARIANT.round_spec(setup, 51)
    assert caught.value.field == "round" and "50 hands" in caught.value.message


# --------------------------------------------------------------------------- the movement


@pytest.mark.parametrize(
    "number, moves",
    [
        (1, (1, 2, 3, 0)),  # shift 1: table 1 -> 2, 2 -> 3, 3 -> 4, 4 -> 1
        (2, (2, 3, 0, 1)),  # shift 2
        (3, (3, 0, 1, 2)),  # shift 3
        (4, (1, 2, 3, 0)),  # "the shift s changing each hand through 1..N-1": back to 1
    ],
)
def test_four_table_movement(number: int, moves: tuple[int, ...]) -> None:
    spec = VARIANT.round_spec(make_setup(4), number)
    assert isinstance(spec, MilitaryRound)
    assert spec.moves == moves
    assert all(spec.arrivals[moves[t]] == t for t in range(4))


def test_every_table_hosts_one_visiting_pair_for_every_size_and_hand() -> None:
    # "every table hosts exactly one visiting pair each hand" and nobody visits its own table
    for tables in range(2, 65):
        setup = make_setup(tables, days=(50,))
        for number in range(1, 51):
            spec = VARIANT.round_spec(setup, number)
            assert isinstance(spec, MilitaryRound)
            assert sorted(spec.moves) == list(range(tables))
            assert all(spec.moves[t] != t for t in range(tables))
            assert sorted(spec.arrivals) == list(range(tables))
            assert all(spec.moves[spec.arrivals[t]] == t for t in range(tables))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 64), st.integers(1, 36))
def test_a_team_visits_every_other_table_once_in_tables_minus_one_hands(tables: int, first: int) -> None:
    # "pairs meet new tables": N-1 consecutive hands take each team to every other table
    setup = make_setup(tables, days=(100,))  # the longest day: hands first .. first + 62 <= 98
    for team in (0, tables // 2, tables - 1):
        visited = set()
        for number in range(first, first + tables - 1):
            spec = VARIANT.round_spec(setup, number)
            assert isinstance(spec, MilitaryRound)
            visited.add(spec.moves[team])
        assert visited == set(range(tables)) - {team}


# --------------------------------------------------------------------------- flags at one table


def one_hand_flags(number: int, result: dict[str, object], **options: object) -> tuple[int, int]:
    """(flags the visitors at table 1 take, net for the host) in hand `number` of a 2-table game."""
    setup = make_setup(2, days=(number,), **options)
    hands = quiet_hands(number - 1, 2) + [{"results": [result, {"tricks": 8 if number % 10 == 5 else 5}]}]
    line = VARIANT.score(setup, hands).lines[-1]
    return line.cells[1].points, line.cells[0].points


@pytest.mark.parametrize(
    "number, result, flags",
    [
        pytest.param(1, {"tricks": 0}, 0, id="0 tricks: home keeps"),
        pytest.param(1, {"tricks": 6}, 0, id="defenders must win 7 or more: 6 keeps"),
        pytest.param(1, {"tricks": 7}, 1, id="visiting team can win a marker by taking 7"),
        pytest.param(1, {"tricks": 9}, 1, id="9 still one"),
        pytest.param(1, {"tricks": 10}, 2, id="10 or more tricks take away 2"),
        pytest.param(1, {"tricks": 13}, 2, id="13 take 2"),
        pytest.param(10, {"tricks": 7}, 1, id="NT High is ordinary no trumps"),
        pytest.param(5, {"tricks": 7}, 0, id="NT Low: home 6, visitors win nothing"),
        pytest.param(5, {"tricks": 6}, 1, id="NT Low: home takes 7 -> 1 flag"),
        pytest.param(5, {"tricks": 4}, 1, id="NT Low: home takes 9 -> 1 flag"),
        pytest.param(5, {"tricks": 3}, 2, id="NT Low: home takes 10 -> 2 flags"),
        pytest.param(5, {"tricks": 0}, 2, id="NT Low: home takes 13 -> 2 flags"),
        pytest.param(5, {"tricks": 13}, 0, id="NT Low: visitors took all 13"),
        pytest.param(1, {"tricks": 8, "revoke": "visitors"}, 0, id="revoke: two tricks to opponents, 8 -> 6"),
        pytest.param(1, {"tricks": 5, "revoke": "home"}, 1, id="home revoke: 5 -> 7"),
        pytest.param(1, {"tricks": 9, "revoke": "home"}, 2, id="home revoke: 9 -> 11"),
        pytest.param(1, {"tricks": 12, "revoke": "home"}, 2, id="home revoke clamps at 13"),
        pytest.param(1, {"tricks": 1, "revoke": "visitors"}, 0, id="visitors revoke clamps at 0"),
        pytest.param(1, {"tricks": 7, "revoke": None}, 1, id="revoke null is no revoke"),
        pytest.param(5, {"tricks": 5, "revoke": "visitors"}, 0, id="NT Low visitors revoke: count 8 -> 6"),
        pytest.param(5, {"tricks": 7, "revoke": "home"}, 1, id="NT Low home revoke: count 6 -> 8"),
        pytest.param(15, {"tricks": 2, "revoke": "home"}, 2, id="NT Low home revoke: count 11 -> 13"),
    ],
)
def test_flags_taken_at_a_table(number: int, result: dict[str, object], flags: int) -> None:
    assert one_hand_flags(number, result) == (flags, -flags)


@pytest.mark.parametrize(
    "revoke_tricks, result, flags",
    [
        (3, {"tricks": 4, "revoke": "home"}, 1),  # 4 + 3 = 7
        (3, {"tricks": 9, "revoke": "visitors"}, 0),  # 9 - 3 = 6
        (1, {"tricks": 9, "revoke": "home"}, 2),  # 9 + 1 = 10
        (0, {"tricks": 8, "revoke": "visitors"}, 1),  # a revoke noted, no tricks moved
        (4, {"tricks": 6, "revoke": "home"}, 2),  # 6 + 4 = 10
    ],
)
def test_revoke_tricks_option(revoke_tricks: int, result: dict[str, object], flags: int) -> None:
    assert one_hand_flags(1, result, revoke_tricks=revoke_tricks)[0] == flags


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 13), st.sampled_from([1, 5, 10]), st.sampled_from(["visitors", "home"]))
def test_a_revoke_moves_two_tricks_to_the_opponents(tricks: int, number: int, side: str) -> None:
    # "penalty will be two tricks awarded to opponents at end of the hand"; in NT Low each side
    # counts the opponents' tricks, so the penalty moves the counts
    count = 13 - tricks if number == 5 else tricks
    count = count - 2 if side == "visitors" else count + 2
    expected = FLAGS_FOR_COUNT[max(0, min(13, count))]
    assert one_hand_flags(number, {"tricks": tricks, "revoke": side})[0] == expected
    plain = one_hand_flags(number, {"tricks": tricks})[0]
    assert (expected <= plain) if side == "visitors" else (expected >= plain)


def test_table_outcome_and_flag_words() -> None:
    setup = make_setup(4)
    spec = VARIANT.round_spec(setup, 5)
    assert isinstance(spec, MilitaryRound)
    outcome = table_outcome(spec, 0, TableResult(3), revoke_tricks=2)
    # hand 5 moves by 2: the visitors at table 1 come from table 3; they took 3, home 10
    assert (outcome.visitor, outcome.count, outcome.flags, outcome.words) == (2, 10, 2, "visitors take 2 flags")
    assert flag_words(0) == "home pair keeps its flags"
    assert flag_words(1) == "visitors take 1 flag"


# --------------------------------------------------------------------------- worked games


CLUB_DAY = json.loads((ROOT / "docs" / "examples" / "military-club-day.json").read_text())
TWO_DAYS = json.loads((ROOT / "docs" / "examples" / "military-two-days.json").read_text())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_match_their_hand_worked_sidecars(path: Path) -> None:
    expected = json.loads(path.read_text())
    sheet = score_record(json.loads(path.with_name(path.name.replace(".expected", "")).read_text()))
    assert sheet.finished == expected["finished"]
    assert [sheet.columns[w] for w in sheet.winners] == expected["winners"]
    assert {s.name: s.total for s in sheet.standings} == expected["totals"]


# Worked by hand (see docs/examples/military-club-day.json): Maple, Birch, Cedar, Spruce after each hand.
CLUB_DAY_TOTALS = [
    [13, 11, 14, 10],
    [13, 13, 14, 8],
    [15, 12, 15, 6],
    [15, 14, 14, 5],
    [14, 16, 15, 3],
    [15, 17, 15, 1],
    [15, 16, 17, 0],
    [16, 17, 16, -1],
    [15, 17, 15, 1],
    [16, 17, 15, 0],
]


def test_club_day_line_by_line() -> None:
    sheet = score_record(CLUB_DAY)
    assert [[c.total for c in line.cells] for line in sheet.lines] == CLUB_DAY_TOTALS
    # hand 4: Spruce's visitors took 7 at Maple but revoked: 5, no flag
    assert "Revoke by the visitors at table 1: 2 tricks to the home pair" in sheet.lines[3].note
    # hand 7: Spruce holds 1 and must give Cedar's visitors 2: "the leader may loan that table"
    assert "Loan: table 4 borrows 1 flag (automatic)" in sheet.lines[6].note
    assert sheet.lines[6].cells[3].detail == "+1 at table 1 · -2 at home · holds 1, owes 1"
    assert sheet.lines[4].spec.kind is RoundKind.GIVEAWAY
    spruce = next(s for s in sheet.standings if s.name == "Spruce")
    assert (spruce.total, spruce.rank, spruce.detail) == (0, 4, "holds 2, owes 2")
    assert sheet.summary == "Birch wins with 17 flags"


def test_two_day_event_restarts_at_twelve_and_adds_the_days() -> None:
    # "each table commences Day 2 with 12 flags again ... the two totals are added together"
    sheet = score_record(TWO_DAYS)
    assert [c.total for c in sheet.lines[7].cells] == [18, 18, 0]  # day 1 closes
    assert "Day 1 closes: Lakeside 18, Hilltop 18, Riverbend 0" in sheet.lines[7].note
    assert [c.total for c in sheet.lines[8].cells] == [18 + 11, 18 + 13, 0 + 12]
    assert "Day 2: every table restarts with 12 flags" in sheet.lines[8].note
    assert [(s.name, s.total, s.detail) for s in sheet.standings] == [
        ("Lakeside", 32, "day 1: 18 · day 2: 14"),
        ("Hilltop", 28, "day 1: 18 · day 2: 10"),
        ("Riverbend", 12, "day 1: 0 (holds 1, owes 1) · day 2: 12"),
    ]
    rows = ledger(parse_record(TWO_DAYS).setup, TWO_DAYS["hands"])
    assert rows[8].start == (12, 12, 12) and rows[8].owed == (0, 0, 0)  # loans restart with the day
    assert (rows[7].held, rows[7].owed, rows[7].lent, rows[7].auto_lent) == (
        (18, 18, 1),
        (0, 0, 1),
        (0, 0, 1),
        (0, 0, 0),
    )


def test_a_correction_rescores_everything_after_it() -> None:
    setup = parse_record(CLUB_DAY).setup
    hands = [dict(h) for h in CLUB_DAY["hands"]]
    hands[0] = hand(5, 8, 6, 5)  # Cedar's visitors took 5 at Spruce, not 10: Spruce keeps 2 more
    sheet = VARIANT.score(setup, hands)
    assert [line.cells[3].total for line in sheet.lines] == [12, 10, 8, 7, 5, 3, 2, 1, 3, 2]
    assert [line.cells[2].total for line in sheet.lines] == [12, 12, 13, 12, 13, 13, 15, 14, 13, 13]
    assert not any("Loan" in line.note for line in sheet.lines)


# --------------------------------------------------------------------------- loans


def test_manual_loans_refuse_a_table_that_cannot_pay() -> None:
    record = {**CLUB_DAY, "options": {"days": [10], "loans": "manual"}}
    errors = errors_of(lambda: score_record(record))
    assert [(e.hand, e.field) for e in errors] == [(7, "results.3"), (8, "results.3")]
    assert (
        "table 4 (Spruce) holds 1 flag but the visitors from Cedar take 2: the director lends flags by "
        "hand here, so lend table 4 at least 1 flag first (under loans)"
    ) == errors[0].message


def test_manual_loans_accept_the_directors_loans() -> None:
    hands = [dict(h) for h in CLUB_DAY["hands"]]
    hands[6] = {**hands[6], "loans": [{"table": 4, "flags": 1}]}
    hands[7] = {**hands[7], "loans": [{"table": 4, "flags": 2}]}  # one more than needed
    sheet = score_record({**CLUB_DAY, "options": {"days": [10], "loans": "manual"}, "hands": hands})
    assert "Loan: table 4 borrows 1 flag" in sheet.lines[6].note and "automatic" not in sheet.lines[6].note
    assert {s.name: s.total for s in sheet.standings} == {"Maple": 16, "Birch": 17, "Cedar": 15, "Spruce": 0}
    spruce = next(s for s in sheet.standings if s.name == "Spruce")
    assert spruce.detail == "holds 3, owes 3"


def test_an_explicit_loan_in_auto_mode_is_added_before_the_automatic_one() -> None:
    setup = make_setup(2, days=(1,))
    rows = ledger(setup, [hand(10, 5, loans=[{"table": 1, "flags": 1}])])
    # table 1 holds 12 + 1 lent, gives 2: "A careful record of this must be kept"
    assert (rows[0].held, rows[0].owed, rows[0].lent, rows[0].auto_lent) == ((11, 14), (1, 0), (1, 0), (0, 0))
    assert totals(setup, [hand(10, 5, loans=[{"table": 1, "flags": 1}])]) == {"Birch": 14, "Maple": 10}


def test_a_host_pays_from_what_it_held_before_its_visitors_come_home() -> None:
    # "A person from the home team will hand out the flags" before its own visitors return
    setup = make_setup(2, days=(8,))
    hands = [flags_hand(1, 1, 0)] + [flags_hand(n, 2, 0) for n in range(2, 7)] + [flags_hand(7, 2, 2)]
    rows = ledger(setup, hands)
    assert rows[5].held == (1, 23)
    # hand 7: Maple holds 1, gives 2 (1 lent), and its visitors bring 2 home from Birch
    assert (rows[6].held, rows[6].owed, rows[6].auto_lent) == ((2, 23), (1, 0), (1, 0))


def test_auto_loan_when_a_table_at_zero_must_pay() -> None:
    setup = make_setup(2, days=(8,))
    hands = [flags_hand(n, 2, 0) for n in range(1, 7)] + [flags_hand(7, 1, 0)]  # Maple 0, then gives 1 more
    rows = ledger(setup, hands)
    assert rows[5].held == (0, 24)
    assert (rows[6].held, rows[6].owed, rows[6].auto_lent) == ((0, 25), (1, 0), (1, 0))
    sheet = VARIANT.score(setup, hands)
    assert sheet.lines[6].cells[0].total == -1 and "borrows 1 flag (automatic)" in sheet.lines[6].note


# --------------------------------------------------------------------------- moves chosen by the director


def test_director_moves_replace_the_schedule() -> None:
    setup = make_setup(4, days=(1,))
    # default hand 1 sends 1 -> 2; here 1 <-> 2 and 3 <-> 4
    sheet = VARIANT.score(setup, [hand(10, 7, 0, 0, moves=[2, 1, 4, 3])])
    spec = sheet.lines[0].spec
    assert isinstance(spec, MilitaryRound)
    assert spec.moves == (1, 0, 3, 2) and spec.arrivals == (1, 0, 3, 2)
    assert [c.points for c in sheet.lines[0].cells] == [1 - 2, 2 - 1, 0, 0]
    assert "Moves set by the director: 1→2, 2→1, 3→4, 4→3" in sheet.lines[0].note
    state = VARIANT.state(make_setup(4, days=(2,)), [], {"moves": [3, 4, 1, 2]})
    assert isinstance(state.next_round, MilitaryRound) and state.next_round.moves == (2, 3, 0, 1)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.permutations(list(range(n)))))
def test_any_permutation_without_a_pair_at_home_is_accepted(permutation: list[int]) -> None:
    setup = make_setup(len(permutation), days=(1,))
    entry = hand(*([5] * len(permutation)), moves=[p + 1 for p in permutation])
    if any(p == t for t, p in enumerate(permutation)):
        fields = {e.field for e in errors_of(lambda: VARIANT.check_hand(setup, [], entry))}
        assert fields == {f"moves.{t}" for t, p in enumerate(permutation) if p == t}
    else:
        VARIANT.check_hand(setup, [], entry)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "entry, field, words",
    [
        ({"results": [{"tricks": 5}] * 4, "bids": [1]}, "bids", "'bids' is not part of a Military Whist hand"),
        ({}, "results", "the results are missing: give one result per table, 4 in all"),
        ({"results": "7,8"}, "results", "one entry per table, 4 in all"),
        ({"results": [{"tricks": 5}] * 3}, "results", "4 in all (table 1 first), not 3"),
        ({"results": [{"tricks": 5}] * 5}, "results", "not 5"),
        (
            hand(5, 5, None, 5),
            "results.2",
            "no result from table 3 yet: give the tricks taken by the visitors from Birch",
        ),
        (hand(5, 5, 5, 7.0), "results.3.tricks", "table 4: the visitors' tricks must be a whole number from 0 to 13"),
        (hand(5, 14, 5, 5), "results.1.tricks", "table 2: the visitors' tricks must be a whole number from 0 to 13"),
        (hand(-1, 5, 5, 5), "results.0.tricks", "from 0 to 13"),
        (hand({"tricks": "7"}, 5, 5, 5), "results.0.tricks", "whole number"),
        (hand({"tricks": True}, 5, 5, 5), "results.0.tricks", "whole number"),
        (hand({}, 5, 5, 5), "results.0.tricks", "table 1: give the tricks taken by the visitors from Spruce"),
        ({"results": [7, 5, 5, 5]}, "results.0", 'table 1\'s result must be an object such as {"tricks": 7}'),
        (
            hand({"tricks": 7, "revoke": "both"}, 5, 5, 5),
            "results.0.revoke",
            'revoke is null, "visitors" or "home" (the side that revoked), not \'both\'',
        ),
        (hand({"tricks": 7, "revoke": 1}, 5, 5, 5), "results.0.revoke", "the side that revoked"),
        (hand({"tricks": 7, "flags": 1}, 5, 5, 5), "results.0.flags", "'flags' is not part of a table's result"),
        (hand(5, 5, 5, 5, moves=[2, 3, 4]), "moves", "a list of 4 table numbers"),
        (hand(5, 5, 5, 5, moves="2341"), "moves", "a list of 4 table numbers"),
        (hand(5, 5, 5, 5, moves=[1, 3, 4, 2]), "moves.0", "the visitors from table 1 cannot play at their own table"),
        (
            hand(5, 5, 5, 5, moves=[2, 1, 2, 3]),
            "moves.2",
            "table 2 would host two visiting pairs (from tables 1 and 3)",
        ),
        (
            hand(5, 5, 5, 5, moves=[2, 3, 4, 5]),
            "moves.3",
            "the destination of table 4's visitors must be a whole number from 1 to 4",
        ),
        (hand(5, 5, 5, 5, moves=[2, 3, "4", 1]), "moves.2", "whole number"),
        (hand(5, 5, 5, 5, loans={"table": 1}), "loans", "a list such as"),
        (hand(5, 5, 5, 5, loans=[3]), "loans.0", "each loan is an object"),
        (
            hand(5, 5, 5, 5, loans=[{"table": 0, "flags": 1}]),
            "loans.0.table",
            "the table lent flags must be a whole number from 1 to 4",
        ),
        (
            hand(5, 5, 5, 5, loans=[{"table": 2}]),
            "loans.0.flags",
            "the flags lent to table 2 must be a whole number from 1 to 12",
        ),
        (hand(5, 5, 5, 5, loans=[{"table": 2, "flags": 13}]), "loans.0.flags", "from 1 to 12"),
        (
            hand(5, 5, 5, 5, loans=[{"table": 2, "flags": 1}, {"table": 2, "flags": 1}]),
            "loans.1.table",
            "table 2 is lent flags twice in this hand",
        ),
        (hand(5, 5, 5, 5, loans=[{"table": 2, "flags": 1, "why": "x"}]), "loans.0.why", "'why' is not part of a loan"),
        (
            hand(5, 5, 5, 5, playoff={"teams": [1, 2], "winner": 1}),
            "playoff",
            "hand 1 is one of the 10 scheduled hands: playoff hands come only after the last one",
        ),
        ([1, 2], "hand", "a hand is an object"),
    ],
)
def test_bad_entries_name_their_field(entry: object, field: str, words: str) -> None:
    errors = errors_of(lambda: VARIANT.score(make_setup(4), [entry]))  # type: ignore[list-item]
    assert field in [e.field for e in errors], errors
    error = next(e for e in errors if e.field == field)
    assert words in error.message and error.hand == 1


def test_errors_of_every_hand_are_reported_together() -> None:
    hands = [hand(5, 5, 5, 14), hand(5, 5, 5, 5), hand(5, None, 5, 5, x=1)]
    errors = errors_of(lambda: VARIANT.score(make_setup(4), hands))
    assert [(e.hand, e.field) for e in errors] == [(1, "results.3.tricks"), (3, "x"), (3, "results.1")]


def test_check_hand_checks_the_next_hand_without_a_hand_number() -> None:
    setup = make_setup(4, days=(2,))
    VARIANT.check_hand(setup, [hand(5, 5, 5, 5)], hand(5, 5, 5, 5))
    [error] = errors_of(lambda: VARIANT.check_hand(setup, [hand(5, 5, 5, 5)], hand(5, 5, 5, 99)))
    assert (error.field, error.hand) == ("results.3.tricks", None)
    [error] = errors_of(lambda: VARIANT.check_hand(setup, [hand(7, 5, 5, 5), hand(5, 5, 5, 5)], hand(5, 5, 5, 5)))
    assert (error.field, error.message) == ("hand", "the game is over: Spruce wins with 13 flags")


def test_a_scheduled_hand_after_the_schedule_is_refused() -> None:
    errors = errors_of(lambda: VARIANT.score(make_setup(2, days=(1,)), [hand(5, 5), hand(5, 5)]))
    assert [(e.hand, e.field) for e in errors] == [(2, "results"), (2, "playoff")]
    assert 'only {"playoff": ...} may follow' in errors[0].message


# --------------------------------------------------------------------------- set-up and options


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"teams": ["Solo"]}, "teams", "needs 2 to 64 teams (one per table), not 1"),
        ({"teams": [f"T{i}" for i in range(65)]}, "teams", "not 65"),
        ({"players": ["Ann", "Bob"]}, "players", "give teams, not players"),
        (
            {"teams": ["Reds", {"name": "Blues", "players": ["Ann", "Bob", "Cat"]}]},
            "teams.1.players",
            "Blues lists 3 players: give all four in the order A, B, X, Y, or none",
        ),
        (
            {
                "teams": [
                    {"name": "Reds", "players": ["Ann", "Bob", "Cat", "Dan"]},
                    {"name": "Blues", "players": ["Eve", "ann", "Gus", "Hal"]},
                ]
            },
            "teams.1.players.1",
            "ann is listed in both Reds and Blues",
        ),
        ({"first_dealer": 2}, "first_dealer", "the dealer comes from the rotation"),
        ({"options": {"days": [10, 10, 10, 10, 10, 10]}}, "options.days", "at most 5 days, not 6"),
        ({"options": {"days": [0]}}, "options.days", "at least 1"),
        ({"options": {"days": [101]}}, "options.days", "at most 100"),
        ({"options": {"days": 30}}, "options.days", "non-empty list"),
        ({"options": {"revoke_tricks": 5}}, "options.revoke_tricks", "at most 4"),
        ({"options": {"loans": "never"}}, "options.loans", 'one of: "Lent automatically" or'),
    ],
)
def test_bad_set_ups_are_refused(change: dict[str, object], field: str, words: str) -> None:
    record = {"variant": "military", "teams": ["Reds", "Blues"], **change}
    errors = errors_of(lambda: parse_record(record))
    assert field in [e.field for e in errors], errors
    assert any(words in e.message for e in errors if e.field == field)


def test_defaults() -> None:
    specs = {s.key: s for s in get_variant("military").option_specs}
    assert {k: s.default for k, s in specs.items()} == {"days": (30,), "revoke_tricks": 2, "loans": "auto"}
    assert all(s.label and s.help for s in specs.values())
    setup = parse_record({"variant": "military", "teams": ["Reds", "Blues"]}).setup
    assert VARIANT.round_count(setup) == 30


# --------------------------------------------------------------------------- the playoff


def tied(tables: int) -> tuple[Setup, list[dict[str, object]]]:
    """A one-hand event in which no flag moves: every team ends on 12."""
    return make_setup(tables, days=(1,)), [hand(*([5] * tables))]


def test_two_tied_teams_play_one_hand() -> None:
    # "If 2-way tie exists after all hands played, one more hand will be played by A and B"
    setup, hands = tied(2)
    sheet = VARIANT.score(setup, hands)
    assert not sheet.finished and sheet.winners == ()
    assert sheet.summary == "Tie for first between Maple and Birch with 12 flags: playoff to come"
    state = VARIANT.state(setup, hands)
    assert state.step == "result" and state.missing == ("playoff hand between Maple and Birch",)
    assert state.next_round is not None and state.next_round.kind is RoundKind.PLAYOFF
    assert isinstance(state.next_round, MilitaryRound) and state.next_round.playoff_teams == (0, 1)
    done = hands + [{"playoff": {"teams": [1, 2], "winner": 2}}]
    sheet = VARIANT.score(setup, done)
    assert sheet.finished and sheet.winners == (1,)
    assert [(s.name, s.total, s.rank) for s in sheet.standings] == [("Birch", 12, 1), ("Maple", 12, 2)]
    assert sheet.lines[-1].note.startswith("Playoff: Birch beat Maple")
    assert VARIANT.state(setup, done).step == "over"


def test_three_tied_teams_have_a_bye_then_two_hands() -> None:
    # "player drawing lowest card to receive a bye ... the winners of this hand going on to play ...
    # against the team who received the bye"
    setup, hands = tied(3)
    state = VARIANT.state(setup, hands)
    assert state.missing == (
        "playoff hand between two of Maple, Birch and Cedar (the A player drawing the lowest card has a bye)",
    )
    first = {"playoff": {"teams": [1, 3], "winner": 3, "bye": 2}}
    sheet = VARIANT.score(setup, hands + [first])
    assert not sheet.finished
    assert [(s.name, s.rank) for s in sheet.standings] == [("Birch", 1), ("Cedar", 1), ("Maple", 3)]
    assert [c.detail for c in sheet.lines[-1].cells] == ["lost the playoff hand", "bye", "won the playoff hand"]
    state = VARIANT.state(setup, hands + [first])
    assert state.missing == ("playoff hand between Cedar and Birch",)
    second = {"playoff": {"teams": [2, 3], "winner": 2}}
    sheet = VARIANT.score(setup, hands + [first, second])
    assert sheet.finished and sheet.winners == (1,)
    assert [(s.name, s.rank) for s in sheet.standings] == [("Birch", 1), ("Cedar", 2), ("Maple", 3)]
    assert sheet.summary == "Birch wins with 12 flags after a playoff"


def test_four_tied_teams_play_a_ladder() -> None:
    setup, hands = tied(4)
    hands += [{"playoff": {"teams": [1, 2], "winner": 1, "bye": [3, 4]}}, {"playoff": {"teams": [1, 4], "winner": 4}}]
    state = VARIANT.state(setup, hands)
    assert state.missing == ("playoff hand between Spruce and Cedar",)
    sheet = VARIANT.score(setup, hands + [{"playoff": {"teams": [3, 4], "winner": 4}}])
    assert [(s.name, s.rank) for s in sheet.standings] == [("Spruce", 1), ("Cedar", 2), ("Maple", 3), ("Birch", 4)]


def test_ties_lower_down_stay_ties() -> None:
    setup = make_setup(4, days=(1,))
    sheet = VARIANT.score(setup, [hand(5, 7, 5, 5)])  # Maple's visitors take 1 flag at Birch
    assert sheet.finished and sheet.winners == (0,)
    assert [(s.name, s.total, s.rank) for s in sheet.standings] == [
        ("Maple", 13, 1),
        ("Cedar", 12, 2),
        ("Spruce", 12, 2),
        ("Birch", 11, 4),
    ]


@pytest.mark.parametrize(
    "tables, playoff, field, words",
    [
        (2, {"teams": [1, 2]}, "playoff.winner", "give the team that won the playoff hand"),
        (2, {"winner": 1}, "playoff.teams", "give the two teams that played"),
        (
            2,
            {"teams": [1, 2], "winner": 3},
            "playoff.winner",
            "a team number (its home table) must be a whole number from 1 to 2",
        ),
        (3, {"teams": [1, 1], "winner": 1, "bye": 2}, "playoff.teams.1", "Maple cannot play against itself"),
        (2, {"teams": [1], "winner": 1}, "playoff.teams", "a list of two team numbers"),
        (
            2,
            {"teams": [1, 2], "winner": 1, "bye": 2},
            "playoff.bye",
            "only the first playoff hand of a tie between three or more teams has a bye",
        ),
        (
            3,
            {"teams": [1, 2], "winner": 1},
            "playoff.bye",
            "the bye goes to the tied team that does not play this hand: Cedar (team 3)",
        ),
        (3, {"teams": [1, 2], "winner": 1, "bye": 1}, "playoff.bye", "Cedar (team 3)"),
        (2, {"teams": [1, 2], "winner": 1, "why": "cut"}, "playoff.why", "'why' is not part of a playoff hand"),
        (2, {"teams": "1-2", "winner": 1}, "playoff.teams", "a list of two team numbers"),
        (2, [1, 2], "playoff", "the playoff is an object"),
    ],
)
def test_bad_playoff_hands(tables: int, playoff: object, field: str, words: str) -> None:
    setup, hands = tied(tables)
    errors = errors_of(lambda: VARIANT.score(setup, hands + [{"playoff": playoff}]))
    assert field in [e.field for e in errors], errors
    error = next(e for e in errors if e.field == field)
    assert words in error.message and error.hand == 2


def test_playoff_teams_must_be_the_tied_ones() -> None:
    setup = make_setup(3, days=(1,))
    hands = [hand(5, 5, 7)]  # Birch's visitors take 1 at Cedar: Maple 12, Birch 13, Cedar 11 - no tie
    [error] = errors_of(lambda: VARIANT.score(setup, hands + [{"playoff": {"teams": [1, 2], "winner": 1}}]))
    assert (error.hand, error.field, error.message) == (
        2,
        "playoff",
        "there is no tie for first place, so there is no playoff hand",
    )
    setup4 = make_setup(4, days=(1,))
    hands4 = [hand(5, 7, 5, 7)]  # Maple +1 at Birch, Cedar +1 at Spruce: 13, 11, 13, 11
    errors = errors_of(lambda: VARIANT.score(setup4, hands4 + [{"playoff": {"teams": [1, 2], "winner": 1}}]))
    assert [e.field for e in errors] == ["playoff.teams.1"]
    assert errors[0].message == "Birch (team 2) is not tied for first: the playoff is between Maple and Cedar"


def test_later_playoff_hands_must_follow_the_ladder() -> None:
    setup, hands = tied(3)
    first = {"playoff": {"teams": [1, 3], "winner": 3, "bye": 2}}
    errors = errors_of(lambda: VARIANT.score(setup, hands + [first, {"playoff": {"teams": [1, 2], "winner": 2}}]))
    assert {(e.field, e.message) for e in errors} == {
        ("playoff.teams.0", "Maple already lost a playoff hand"),
        ("playoff.teams", "Cedar won the last playoff hand and plays this one"),
    }
    errors = errors_of(lambda: VARIANT.score(setup, hands + [first, {"playoff": {"teams": [2, 3], "winner": 1}}]))
    assert [(e.field, e.message) for e in errors] == [
        ("playoff.winner", "the winner must be one of the two teams that played: Birch and Cedar")
    ]
    decided = hands + [first, {"playoff": {"teams": [2, 3], "winner": 2}}]
    [error] = errors_of(lambda: VARIANT.score(setup, decided + [{"playoff": {"teams": [2, 3], "winner": 3}}]))
    assert (error.hand, error.message) == (4, "the playoff is over: Birch won it")


# --------------------------------------------------------------------------- state


def test_state_names_the_tables_still_to_report() -> None:
    setup = make_setup(4, days=(2,))
    state = VARIANT.state(setup, [])
    assert (state.step, state.over, state.hands_played) == ("result", False, 0)
    assert state.missing == ("table 1", "table 2", "table 3", "table 4")
    assert state.next_round is not None and state.next_round.number == 1
    state = VARIANT.state(setup, [], {"results": [None, {"tricks": 8}]})  # tables arrive one at a time
    assert state.missing == ("table 1", "table 3", "table 4")
    state = VARIANT.state(setup, [hand(5, 5, 5, 5)], hand(5, 5, 5, 5))
    assert state.missing == () and state.step == "result" and state.next_round is not None
    assert state.next_round.number == 2
    over = VARIANT.state(setup, [hand(5, 7, 5, 5), hand(5, 5, 5, 5)])
    assert (over.step, over.over, over.next_round, over.winners) == ("over", True, None, (0,))


@pytest.mark.parametrize(
    "pending, field",
    [
        ({"results": [None, {"tricks": 14}]}, "results.1.tricks"),
        ({"results": [None, None, None, None, None]}, "results"),
        ({"moves": [1, 2, 3, 4]}, "moves.0"),
        ({"results": [{"revoke": "home"}]}, "results.0.tricks"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_state_refuses_an_illegal_partial_entry(pending: dict[str, object], field: str) -> None:
    errors = errors_of(lambda: VARIANT.state(make_setup(4), [], pending))
    assert field in [e.field for e in errors] and all(e.hand is None for e in errors)


def test_state_refuses_a_partial_entry_that_needs_a_manual_loan() -> None:
    setup = make_setup(2, days=(8,), loans="manual")
    hands = [flags_hand(n, 2, 0) for n in range(1, 7)]  # Maple down to 0
    [error] = errors_of(lambda: VARIANT.state(setup, hands, {"results": [{"tricks": 7}]}))
    assert error.field == "results.0" and "lend table 1 at least 1 flag first" in error.message
    state = VARIANT.state(setup, hands, {"results": [{"tricks": 7}], "loans": [{"table": 1, "flags": 1}]})
    assert state.missing == ("table 2",)


def test_state_during_a_partly_entered_playoff() -> None:
    setup, hands = tied(3)
    state = VARIANT.state(setup, hands, {"playoff": {"teams": [1, 2]}})
    assert state.missing == ("winner of the playoff hand between Maple and Birch", "the team that had the bye")
    assert isinstance(state.next_round, MilitaryRound) and state.next_round.playoff_teams == (0, 1)
    assert "director cuts for trumps" in state.next_round.note
    with pytest.raises(RuleErrors, match="Spruce|a whole number from 1 to 3"):
        VARIANT.state(setup, hands, {"playoff": {"teams": [1, 4]}})
    with pytest.raises(RuleErrors, match="not part of a playoff hand"):
        VARIANT.state(setup, hands, hand(5, 5, 5))


def test_state_after_the_game_refuses_more() -> None:
    setup = make_setup(2, days=(1,))
    [error] = errors_of(lambda: VARIANT.state(setup, [hand(7, 5)], hand(5, 5)))
    assert (error.field, error.message) == ("hand", "the game is over: Birch wins with 13 flags")


# --------------------------------------------------------------------------- previews for the entry screen


def test_preview_shows_each_entered_table_before_it_is_confirmed() -> None:
    setup = parse_record(CLUB_DAY).setup
    before = CLUB_DAY["hands"][:6]
    pending = {"results": [None, None, None, {"tricks": 11}]}
    previews = preview(setup, before, pending)
    assert previews[:3] == (None, None, None)
    table4 = previews[3]
    assert table4 is not None
    assert (table4.outcome.visitor, table4.outcome.flags, table4.outcome.words) == (2, 2, "visitors take 2 flags")
    assert (table4.held, table4.loan, table4.refused) == (1, 1, False)
    manual = parse_record({**CLUB_DAY, "options": {"days": [10], "loans": "manual"}}).setup
    table4 = preview(manual, before, pending)[3]
    assert table4 is not None and table4.refused
    lent = preview(manual, before, {**pending, "loans": [{"table": 4, "flags": 1}]})[3]
    assert lent is not None and (lent.held, lent.loan, lent.refused) == (2, 0, False)
    assert preview(setup, CLUB_DAY["hands"], {}) == ()


# --------------------------------------------------------------------------- properties


result_strategy = st.builds(
    lambda tricks, revoke: {"tricks": tricks, "revoke": revoke},
    st.integers(0, 13),
    st.sampled_from([None] * 8 + ["visitors", "home"]),
)


@st.composite
def events(draw: st.DrawFn) -> tuple[Setup, list[dict[str, object]]]:
    tables = draw(st.integers(2, 7))
    days = draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))
    setup = make_setup(tables, days=days)
    count = draw(st.integers(0, sum(days)))
    hands: list[dict[str, object]] = []
    for _ in range(count):
        entry: dict[str, object] = {"results": draw(st.lists(result_strategy, min_size=tables, max_size=tables))}
        if draw(st.integers(0, 9)) == 0:
            entry["loans"] = [{"table": draw(st.integers(1, tables)), "flags": draw(st.integers(1, 3))}]
        hands.append(entry)
    return setup, hands


@settings(max_examples=150, deadline=None)
@given(events())
def test_flags_are_conserved_and_never_negative(event: tuple[Setup, list[dict[str, object]]]) -> None:
    setup, hands = event
    tables = len(setup.teams)
    rows = ledger(setup, hands)
    for row in rows:
        assert sum(row.held) - sum(row.owed) == 12 * tables
        assert min(row.held) >= 0 and min(row.owed) >= 0
        assert all(row.start[t] + row.lent[t] >= (o.flags if o else 0) for t, o in enumerate(row.outcomes))
    sheet = VARIANT.score(setup, hands)
    days_begun = rows[-1].day if rows else 0
    assert sum(s.total for s in sheet.standings) == 12 * tables * days_begun


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 16)
    | st.floats(allow_nan=False)
    | st.sampled_from(["home", "visitors", "7", ""]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "results",
                    "tricks",
                    "revoke",
                    "moves",
                    "loans",
                    "table",
                    "flags",
                    "playoff",
                    "teams",
                    "winner",
                    "bye",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(json_values, st.booleans())
def test_any_json_is_refused_only_with_rule_errors(raw: object, at_playoff: bool) -> None:
    # "Never raise anything but RuleError/RuleErrors for bad input"
    setup, hands = tied(3) if at_playoff else (make_setup(3, days=(2,)), [])
    for call in (
        lambda: VARIANT.score(setup, hands + [raw]),  # type: ignore[list-item]
        lambda: VARIANT.state(setup, hands, raw),  # type: ignore[arg-type]
        lambda: VARIANT.check_hand(setup, hands, raw),  # type: ignore[arg-type]
        lambda: preview(setup, hands, raw),
    ):  # type: ignore[arg-type]
        try:
            call()
        except (RuleError, RuleErrors):
            pass


# --------------------------------------------------------------------------- unchecked set-ups


ONE_TEAM = Setup("military", resolve_options(VARIANT.option_specs, {"days": [2]}), teams=(Team("Solo"),))
TWIN_TEAMS = Setup("military", resolve_options(VARIANT.option_specs, {"days": [2]}), teams=(Team("A"), Team("A")))


@pytest.mark.parametrize(
    "setup, field, words",
    [
        (ONE_TEAM, "teams", "needs 2 to 64 teams (one per table), not 1"),
        (TWIN_TEAMS, "teams.1", "two teams are called 'A'"),
    ],
    ids=["one team", "two teams called A"],
)
def test_direct_callers_get_the_set_up_checked(setup: Setup, field: str, words: str) -> None:
    # like the other variants: one team used to raise ZeroDivisionError, two "A"s were scored
    calls = {
        "score": lambda: VARIANT.score(setup, []),
        "state": lambda: VARIANT.state(setup, []),
        "round_spec": lambda: VARIANT.round_spec(setup, 1),
        "check_hand": lambda: VARIANT.check_hand(setup, [], hand(5, 5)),
        "ledger": lambda: ledger(setup, [hand(5, 5)]),
        "preview": lambda: preview(setup, [], hand(5, 5)),
        "settle_next": lambda: settle_next(setup, (), hand(5, 5)),
    }
    for name, call in calls.items():
        errors = errors_of(call)
        assert [(e.field, words in e.message) for e in errors] == [(field, True)], name


def test_the_nt_low_revoke_decision_is_documented_and_holds() -> None:
    # docs/game-record.md states the decision with the document's words and a worked row
    doc = " ".join((ROOT / "docs" / "game-record.md").read_text().split())
    military = doc[doc.index("### Military Whist") : doc.index("### Bid Whist")]
    assert "**Revoke in NT Low (a decision).**" in military
    assert '"penalty will be two tricks awarded to opponents at end of the hand"' in military
    assert '"NT Low is giveaway, count opponent\'s tricks"' in military
    assert "counts 13 − 3 − 2 = 8 (1 flag, not 2)" in military
    assert "a count of 13 − 3 + 2 = 12 (2 flags)" in military
    assert one_hand_flags(5, {"tricks": 3})[0] == 2
    assert one_hand_flags(5, {"tricks": 3, "revoke": "visitors"})[0] == 1
    assert one_hand_flags(5, {"tricks": 3, "revoke": "home"})[0] == 2
    assert "Decision: a revoke always costs the offender" in (visitors_count.__doc__ or "")
