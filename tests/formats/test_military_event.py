"""The event format of Military Whist (scorepad/formats/military.py), pure: no app, no database.

Worked out by hand from the rules document, /work/shared/RULES-NOTES.md and docs/game-record.md:
with 4 tables the visitors of table t go to t + s with s = 1, 2, 3, 1, ... (hand 1: 1->2, 2->3,
3->4, 4->1; hand 2: 1->3, 2->4, 3->1, 4->2; hand 5 like hand 2). The rotation's hand 1 is "A&B go
out, trump H, dealer B"; hand 5 is "A&Y, NT Low, dealer A" (giveaway: count the opponents' tricks).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.formats import military as fmt
from scorepad.rules.base import RawHand, Setup
from scorepad.rules.record import parse_record

TEAMS = ("Aces", "Kings", "Queens", "Jacks")


def setup_of(teams: Sequence[str] = TEAMS, days: Sequence[int] = (30,)) -> Setup:
    return parse_record(
        {
            "variant": "military",
            "title": "t",
            "options": {"days": list(days)},
            "teams": [{"name": t, "players": []} for t in teams],
            "hands": [],
        }
    ).setup


def results(*tricks: int | None) -> RawHand:
    return {"results": [None if t is None else {"tricks": t} for t in tricks]}


# --------------------------------------------------------------------------- instructions


def test_hand_one_instructions_at_four_tables() -> None:
    setup = setup_of()
    spec = fmt.hand_spec(setup, 1)
    assert spec.moves == (1, 2, 3, 0)  # 1->2, 2->3, 3->4, 4->1 (from 0 here)
    orders = [fmt.instructions(setup, spec, t) for t in range(4)]
    assert [o.go_to + 1 for o in orders] == [2, 3, 4, 1]
    assert [o.arriving + 1 for o in orders] == [4, 1, 2, 3]  # the inverse: who arrives at each table
    first = orders[0]
    assert (first.hand, first.day, first.day_hand, first.table, first.team) == (1, 1, 1, 0, "Aces")
    assert (first.out_pair, first.home_pair) == ("A&B", "X&Y")
    assert first.trump == "Hearts" and not first.giveaway
    assert first.dealer == "B"
    assert first.arriving_team == "Jacks"
    assert first.dealer_words == "B of Jacks (a visitor)"
    assert orders[2].arriving_team == "Kings" and orders[2].team == "Queens"


def test_documented_moves_for_hands_two_to_four() -> None:
    setup = setup_of()
    moves = {n: [m + 1 for m in fmt.hand_spec(setup, n).moves] for n in (2, 3, 4)}
    assert moves == {2: [3, 4, 1, 2], 3: [4, 1, 2, 3], 4: [2, 3, 4, 1]}


def test_director_moves_replace_the_schedule() -> None:
    setup = setup_of()
    spec = fmt.hand_spec(setup, 1, [3, 2, 1, 0])  # 1<->4, 2<->3
    orders = fmt.instructions(setup, spec, 1)
    assert orders.go_to + 1 == 3 and orders.arriving + 1 == 3 and orders.arriving_team == "Queens"


def test_nt_low_hand_five_carries_the_giveaway_words() -> None:
    setup = setup_of()
    spec = fmt.hand_spec(setup, 5)
    orders = fmt.instructions(setup, spec, 0)
    assert orders.giveaway
    assert orders.trump == "NT Low: giveaway: count the opponents' tricks"
    assert (orders.out_pair, orders.home_pair, orders.dealer) == ("A&Y", "B&X", "A")
    assert orders.go_to + 1 == 3 and orders.arriving + 1 == 3  # shift 2: 1->3, 3->1
    high = fmt.instructions(setup, fmt.hand_spec(setup, 10), 0)
    assert high.trump == "NT High (no trumps)" and not high.giveaway


def test_trump_words_for_the_four_suits() -> None:
    setup = setup_of()
    assert [fmt.trump_words(fmt.hand_spec(setup, n)) for n in (1, 2, 3, 4)] == ["Hearts", "Spades", "Diamonds", "Clubs"]


# --------------------------------------------------------------------------- orders in plain words (issue 14)


def named_setup(players: dict[int, Sequence[str]]) -> Setup:
    return parse_record(
        {
            "variant": "military",
            "title": "t",
            "options": {"days": [30]},
            "teams": [{"name": t, "players": list(players.get(i, []))} for i, t in enumerate(TEAMS)],
            "hands": [],
        }
    ).setup


@pytest.mark.parametrize(
    ("pair", "players", "words"),
    [
        ("A&B", ("Ann", "Bob", "Xena", "Yuri"), "Ann and Bob"),
        ("X&Y", ("Ann", "Bob", "Xena", "Yuri"), "Xena and Yuri"),
        ("A&Y", ("Ann", "Bob", "Xena", "Yuri"), "Ann and Yuri"),  # hand 5's crossed pair
        ("B", ("Ann", "Bob", "Xena", "Yuri"), "Bob"),  # a dealer
        ("A&B", ("Ann", "", "Xena", "Yuri"), "Ann and B"),  # a player not named keeps the letter
        ("A&B", ("", "", "Xena", "Yuri"), "A&B"),  # nobody of the pair named: the label
        ("A&B", (), "A&B"),  # a team without names
        ("X&Y", ("  ", "Bob", " Xena ", ""), "Xena and Y"),
    ],
)
def test_a_pair_in_plain_words(pair: str, players: Sequence[str], words: str) -> None:
    assert fmt.pair_words(pair, players) == words


def test_hand_one_orders_in_plain_words_with_the_players_names() -> None:
    """Hand 1 at table 1 (Aces): A&B go to table 2, X&Y stay; Jacks' A&B arrive from table 4, B deals."""
    setup = named_setup({0: ("Ann", "Bob", "Xena", "Yuri"), 3: ("Jo", "Kim", "Lou", "Max")})
    plain = fmt.instructions(setup, fmt.hand_spec(setup, 1), 0).plain
    assert plain.go == "Ann and Bob go to table 2"
    assert plain.stay == "Xena and Yuri stay here at table 1"
    assert plain.arrive == "Jo and Kim of Jacks come from table 4"
    assert plain.deal == "Kim deals"


def test_orders_without_names_keep_the_halls_labels() -> None:
    setup = setup_of()
    o = fmt.instructions(setup, fmt.hand_spec(setup, 5), 0)  # hand 5: A&Y go out, 1 -> 3, dealer A
    assert (o.plain.go, o.plain.stay) == ("A&Y go to table 3", "B&X stay here at table 1")
    assert (o.plain.arrive, o.plain.deal) == ("A&Y of Queens come from table 3", "A deals")


def test_presets_match_the_document() -> None:
    assert fmt.PRESETS["area"][1] == (30,) and fmt.PRESETS["area"][2] == (15, 15)
    assert fmt.PRESETS["provincial"][1] == (30, 20) and fmt.PRESETS["provincial"][2] == (15, 15, 20)


# --------------------------------------------------------------------------- the board


def test_board_before_any_result_has_everyone_level_on_twelve() -> None:
    b = fmt.board(setup_of(), [])
    assert [(r.rank, r.total, r.held, r.owed, r.playing) for r in b.rows] == [(1, 12, 12, 0, True)] * 4
    assert b.playing == (0, 1, 2, 3) and b.played == 0 and b.scheduled == 30 and b.days == 1
    assert b.hand is not None and b.hand.number == 1


# Hand 1 (1->2, 2->3, 3->4, 4->1), tricks at tables 1-4: 7, 10, 3, 5.
#   table 1: Jacks' visitors 7 -> 1 flag (Aces -1, Jacks +1)
#   table 2: Aces' visitors 10 -> 2 flags (Kings -2, Aces +2)
#   tables 3, 4: 3 and 5 tricks -> home pair keeps its flags
# Aces 13, Kings 10, Queens 12, Jacks 13.
HAND_1 = results(7, 10, 3, 5)


def test_board_ranks_with_ties_sharing_a_rank() -> None:
    b = fmt.board(setup_of(), [HAND_1])
    assert [(r.rank, r.name, r.total, r.held) for r in b.rows] == [
        (1, "Aces", 13, 13),
        (1, "Jacks", 13, 13),
        (3, "Queens", 12, 12),
        (4, "Kings", 10, 10),
    ]
    assert sum(r.held for r in b.rows) == 48
    assert b.played == 1 and b.hand is not None and b.hand.number == 2


# Hand 2 (1->3, 2->4, 3->1, 4->2): table 2 hosts the Jacks' visitors, who take 8 -> 1 flag.
#   Kings 10 -> 9, Jacks 13 -> 14.


def test_playing_tables_are_listed_until_their_result_is_in() -> None:
    setup = setup_of()
    b = fmt.board(setup, [HAND_1], results(None, 8, None, None))
    assert b.playing == (0, 2, 3)
    assert [(r.rank, r.name, r.total, r.playing) for r in b.rows] == [
        (1, "Jacks", 14, True),
        (2, "Aces", 13, True),
        (3, "Queens", 12, True),
        (4, "Kings", 9, False),
    ]
    done = fmt.board(setup, [HAND_1], results(6, 8, 6, 6))
    assert done.playing == () and not any(r.playing for r in done.rows)
    assert [r.total for r in sorted(done.rows, key=lambda r: r.team)] == [13, 9, 12, 14]


def test_board_has_a_column_per_day_and_restarts_each_day_at_twelve() -> None:
    setup = setup_of(days=(1, 1))
    # Day 1 is hand 1 alone: Aces 13, Kings 10, Queens 12, Jacks 13 (see HAND_1).
    b = fmt.board(setup, [HAND_1])
    assert b.days == 1  # day 2 not begun: no result in yet
    assert [r.held for r in b.rows] == [12, 12, 12, 12]  # the new day starts level
    # Hand 2 (day 2, 1->3, 2->4, 3->1, 4->2): tables 1-4 tricks 10, 0, 0, 0 -> Queens' visitors
    # take 2 flags from table 1. Day 2: Aces 10, Kings 12, Queens 14, Jacks 12.
    later = fmt.board(setup, [HAND_1, results(10, 0, 0, 0)])
    assert later.days == 2 and later.finished
    by_team = {r.name: (r.days, r.total) for r in later.rows}
    assert by_team == {
        "Aces": ((13, 10), 23),
        "Kings": ((10, 12), 22),
        "Queens": ((12, 14), 26),
        "Jacks": ((13, 12), 25),
    }
    assert [r.name for r in later.rows] == ["Queens", "Jacks", "Aces", "Kings"]
    assert later.hand is None and later.playing == ()


def test_an_nt_low_result_counts_the_home_pairs_tricks() -> None:
    setup = setup_of(days=(5,))
    quiet = results(6, 6, 6, 6)  # hands 1-4: 6 tricks everywhere, nobody moves a flag
    # Hand 5 (NT Low, 1->3, 2->4, 3->1, 4->2), the document's example without loans: visitors
    # took 2, 8, 5, 3 -> counts 11, 5, 8, 10 -> flags 2, 0, 1, 2 (table 1 to Queens, table 3 to
    # Aces, table 4 to Kings). Aces 12-2+1 = 11, Kings 12+2 = 14, Queens 12+2-1 = 13, Jacks 10.
    b = fmt.board(setup, [quiet] * 4 + [results(2, 8, 5, 3)])
    assert {r.name: r.total for r in b.rows} == {"Aces": 11, "Kings": 14, "Queens": 13, "Jacks": 10}


def test_a_table_that_runs_out_owes_its_loan() -> None:
    setup = setup_of(("Aces", "Kings"), days=(30,))
    # Two tables: the visitors of each go to the other (table 1 hosts the Kings' visitors).
    # Hands 1-4: the Aces' visitors take 10 at table 2 (2 flags from Kings each): Kings 4.
    # Hand 5 is NT Low: the Aces' visitors take 0, so they count the home pair's 13: 2 flags; the
    # Kings' visitors take 13, count 0: nothing. Kings 2. Hand 6 as hands 1-4: Kings 0, Aces 24.
    hands = [results(0, 10)] * 4 + [results(13, 0), results(0, 10)]
    b = fmt.board(setup, hands)
    assert {r.name: (r.held, r.owed, r.total) for r in b.rows} == {"Aces": (24, 0, 24), "Kings": (0, 0, 0)}
    # Hand 7: the Aces' visitors take 7 (1 flag) from a table with none: lent automatically.
    later = fmt.board(setup, [*hands, results(0, 7)])
    assert {r.name: (r.held, r.owed, r.total) for r in later.rows} == {"Aces": (25, 0, 25), "Kings": (0, 1, -1)}


# --------------------------------------------------------------------------- late tables


T0 = datetime(2025, 5, 3, 9, 0, tzinfo=UTC)
LATE = timedelta(minutes=12)


def test_no_table_is_late_before_late_after() -> None:
    assert fmt.late_tables(T0, T0 + timedelta(minutes=11, seconds=59), {}, 4, LATE) == ()
    assert fmt.late_tables(T0, T0 + timedelta(minutes=5), {0: T0}, 4, LATE) == ()


def test_every_missing_table_is_late_after_late_after() -> None:
    assert fmt.late_tables(T0, T0 + LATE, {}, 4, LATE) == (0, 1, 2, 3)
    assert fmt.late_tables(T0, T0 + timedelta(minutes=30), {1: T0, 3: T0}, 4, LATE) == (0, 2)
    everyone = dict.fromkeys(range(4), T0)
    assert fmt.late_tables(T0, T0 + timedelta(hours=1), everyone, 4, LATE) == ()


def test_the_last_quarter_is_late_sooner_once_three_quarters_are_in() -> None:
    three = {0: T0, 1: T0, 2: T0}
    assert fmt.late_tables(T0, T0 + timedelta(minutes=6), three, 4, LATE) == (3,)  # half the time passed
    assert fmt.late_tables(T0, T0 + timedelta(minutes=5, seconds=59), three, 4, LATE) == ()
    two = {0: T0, 1: T0}
    assert fmt.late_tables(T0, T0 + timedelta(minutes=6), two, 4, LATE) == ()  # only half in
    six_of_eight = dict.fromkeys(range(6), T0)
    assert fmt.late_tables(T0, T0 + timedelta(minutes=7), six_of_eight, 8, LATE) == (6, 7)
    five_of_eight = dict.fromkeys(range(5), T0)
    assert fmt.late_tables(T0, T0 + timedelta(minutes=7), five_of_eight, 8, LATE) == ()


# --------------------------------------------------------------------------- the flags are conserved


@st.composite
def events(draw: st.DrawFn) -> tuple[Setup, list[RawHand]]:
    tables = draw(st.integers(2, 8))
    days = draw(st.sampled_from([(30,), (2, 2, 30), (1, 30), (3, 3)]))
    count = draw(st.integers(1, min(6, sum(days))))
    hands: list[RawHand] = []
    for _ in range(count):
        entries = [
            {
                "tricks": draw(st.integers(0, 13)),
                "revoke": draw(st.sampled_from([None, None, None, "visitors", "home"])),
            }
            for _ in range(tables)
        ]
        hand: dict[str, object] = {"results": entries}
        lent = draw(st.lists(st.integers(1, tables), max_size=2, unique=True))
        if lent:
            hand["loans"] = [{"table": t, "flags": draw(st.integers(1, 3))} for t in lent]
        hands.append(hand)
    return setup_of([f"Team {i + 1}" for i in range(tables)], days), hands


@settings(max_examples=60, deadline=None)
@given(events(), st.data())
def test_flags_held_minus_owed_is_twelve_per_table_on_every_board(
    drawn: tuple[Setup, list[RawHand]], data: st.DataObject
) -> None:
    setup, hands = drawn
    tables = len(setup.teams)
    for done in range(len(hands) + 1):
        pending = None
        if done < len(hands):
            # the next hand partly in: some of its tables have reported
            full = hands[done]["results"]
            assert isinstance(full, list)
            keep = data.draw(st.lists(st.booleans(), min_size=tables, max_size=tables))
            pending = {"results": [r if k else None for r, k in zip(full, keep)]}
        b = fmt.board(setup, hands[:done], pending)
        held = sum(r.held for r in b.rows)
        owed = sum(r.owed for r in b.rows)
        assert held - owed == 12 * tables, (done, b)
        assert all(r.owed >= 0 and r.held >= 0 for r in b.rows)
        if pending is not None:
            assert b.playing == tuple(t for t, r in enumerate(pending["results"]) if r is None)
