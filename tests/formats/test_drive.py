"""The whist drive format (/work/shared/rules/whist.txt, tournaments; RULES-NOTES.md Whist section).

The worked example: twelve players A-L, three tables, seated A B C D (N E S W) at table 1, E-H at
table 2, I-L at table 3. Deal 1 (hearts): N-S take 8 at table 1, 5 at table 2, 7 at table 3.
Odd tricks: A, C 2 each; F, H (E-W at table 2, 8 tricks) 2 each; I, K 1 each; the rest 0.
Progressive movement, the top table's winners stay: table 1's winners A, C stay and its losers
B, D go to table 3; table 2's winners F, H move up to table 1, its losers E, G stay; table 3's
winners I, K move up to table 2, J, L stay. Each table splits its pairs: stayers N and E,
arrivers S and W, so table 1 is N A, E C, S F, W H (A partners F, C partners H).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.formats import drive as f
from scorepad.rules.base import RuleErrors
from scorepad.rules.cards import Trump

TWELVE = tuple("ABCDEFGHIJKL")


def numbers(*names: str) -> tuple[int, ...]:
    return tuple(TWELVE.index(n) + 1 for n in names)


def test_deal_one_is_scored_and_everyone_moves_as_the_drive_does() -> None:
    drive = f.Drive(TWELVE, deals=6)
    s = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    assert s.deal == 2 and s.playing == (1, 2, 3)
    scores = dict(zip(TWELVE, s.scores))
    assert scores == {"A": 2, "B": 0, "C": 2, "D": 0, "E": 0, "F": 2, "G": 0, "H": 2, "I": 1, "J": 0, "K": 1, "L": 0}
    assert s.seating(2) == (numbers("A", "C", "F", "H"), numbers("E", "G", "I", "K"), numbers("J", "L", "B", "D"))
    words = f.where_words(drive, s.seating(1), s.seating(2))
    assert "F: move up to table 1, sit South" in words and "B: go to table 3, sit South" in words
    assert "A: stay at table 1, sit North" in words
    assert f.table_words(drive, 2, s.seating(2)[0]) == "Deal 2 · diamonds · N A, S F / E C, W H"


def test_all_tricks_scoring_and_the_top_table_wrapping() -> None:
    drive = f.Drive(TWELVE, deals=6, scoring="all", top="wrap")
    s = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    assert dict(zip(TWELVE, s.scores))["B"] == 5 and dict(zip(TWELVE, s.scores))["A"] == 8
    # wrap: table 1's winners A, C go to the bottom table; its losers B, D stay at the top
    assert s.seating(2)[0] == numbers("B", "D", "F", "H") and s.seating(2)[2] == numbers("J", "L", "A", "C")


def test_fixed_movement_moves_east_west_up_a_table() -> None:
    drive = f.Drive(TWELVE, deals=6, movement="fixed")
    s = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    assert s.seating(2) == (numbers("A", "F", "C", "H"), numbers("E", "J", "G", "L"), numbers("I", "B", "K", "D"))


def test_places_change_only_at_each_change_point_and_a_level_set_goes_to_the_last_deal() -> None:
    drive = f.Drive(TWELVE, deals=6, per_change=2)
    one = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    assert one.seating(2) == one.seating(1)
    # table 1 over deals 1-2: N-S 8 + 5 = 13 of 26: level; E-W won deal 2 (8 tricks), so E-W won the set
    two = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7, (2, 1): 5, (2, 2): 5, (2, 3): 7})
    assert two.seating(3)[0][:2] == numbers("B", "D")


def test_trumps_follow_the_fixed_sequence_with_no_trumps_every_fifth_as_an_option() -> None:
    plain, nt = f.Drive(TWELVE), f.Drive(TWELVE, nt_fifth=True)
    assert [f.trump(plain, d) for d in range(1, 6)] == [
        Trump.HEARTS,
        Trump.DIAMONDS,
        Trump.SPADES,
        Trump.CLUBS,
        Trump.HEARTS,
    ]
    assert f.trump(nt, 5) is Trump.NO_TRUMPS and f.trump(nt, 6) is Trump.HEARTS


def test_prizes_for_highest_and_lowest_share_ties() -> None:
    drive = f.Drive(TWELVE, deals=1)
    s = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    assert s.over
    (high, top), (low, bottom) = f.prizes(f.leaderboard(drive, s.scores))
    assert high == "Highest score" and [p.name for p in top] == ["A", "C", "F", "H"]
    assert low.startswith("Booby") and [p.name for p in bottom] == ["B", "D", "E", "G", "J", "L"]


def test_bad_set_ups_and_results_are_refused_with_words() -> None:
    with pytest.raises(RuleErrors) as e:
        f.check(f.Drive(tuple("ABCDEF"), per_change=5))
    messages = {x.field: x.message for x in e.value.errors}
    assert messages["players"].startswith("a whist drive seats four players to a table: give a multiple of four")
    assert messages["per_change"] == "places change after every 1, 2, 3 or 4 deals"
    drive = f.Drive(TWELVE, deals=2)
    for deal, table, ns, words in (
        (1, 4, 7, "there is no table 4"),
        (1, 1, 14, "0 to 13"),
        (2, 1, 7, "deal 2 is not in play"),
    ):
        with pytest.raises(RuleErrors) as e:
            f.check_result(drive, {}, deal, table, ns)
        assert words in e.value.errors[0].message


def test_a_seating_already_announced_is_kept_after_a_correction() -> None:
    drive = f.Drive(TWELVE, deals=3)
    first = f.state(drive, {(1, 1): 8, (1, 2): 5, (1, 3): 7})
    corrected = f.state(drive, {(1, 1): 4, (1, 2): 5, (1, 3): 7}, {2: first.seating(2)})
    assert corrected.seating(2) == first.seating(2) and corrected.scores != first.scores


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.data())
def test_every_table_keeps_four_and_partners_change(tables: int, data: st.DataObject) -> None:
    players = tuple(f"P{i}" for i in range(1, 4 * tables + 1))
    deals = data.draw(st.integers(min_value=1, max_value=8))
    drive = f.Drive(
        players,
        deals=deals,
        scoring=data.draw(st.sampled_from(["odd", "all"])),
        top=data.draw(st.sampled_from(["stay", "wrap"])),
    )
    results = {(d, t): data.draw(st.integers(0, 13)) for d in range(1, deals + 1) for t in range(1, tables + 1)}
    s = f.state(drive, results)
    assert s.over
    for d in range(1, deals + 1):
        seated = [p for four in s.seating(d) for p in four]
        assert sorted(seated) == list(range(1, 4 * tables + 1))  # everyone once, four at every table
    for d in range(2, deals + 1):
        before = {frozenset((four[0], four[2])) for four in s.seating(d - 1)} | {
            frozenset((four[1], four[3])) for four in s.seating(d - 1)
        }
        for four in s.seating(d):
            assert frozenset((four[0], four[2])) not in before and frozenset((four[1], four[3])) not in before
        # the winners of each table below the top moved up exactly one table
        for t in range(2, tables + 1):
            n, e, so, w = s.seating(d - 1)[t - 1]
            ns = results[(d - 1, t)]
            winners = {n, so} if ns > 6 else {e, w}
            assert winners <= set(s.seating(d)[t - 2])
    # the points given out each deal: 2 x the winning side's odd tricks, or 2 x 13 for all tricks
    total = sum(2 * (max(r, 13 - r) - 6) if drive.scoring == "odd" else 26 for r in results.values())
    assert sum(s.scores) == total
