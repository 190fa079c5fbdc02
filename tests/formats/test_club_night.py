"""A club night where each table chooses its variant: ranked within each variant, or by place score.

The place score (formats/club_night.py) is the share of the other players (or teams) of one's own
variant one is ahead of, a tie counting half. Worked example: table 1 plays Nomination (Ann 31,
Bob 24, Cat 24, Dan 9), table 2 Whist in partnerships (Us 2 games, Them 1), table 3 Nomination
(Eve 40, Fay 12, Gus 9, Hal 5). Nomination's field is 8 players, so 7 others each:
  Eve 40 beats 7 -> 7/7 = 100%;  Ann 31 beats 6 -> 6/7;  Bob and Cat 24 beat 4, level with 1 ->
  4.5/7;  Fay 12 beats 3 -> 3/7;  Dan 9 and Gus 9 beat 1, level with 1 -> 1.5/7;  Hal 5 -> 0.
Whist's field is the two teams: Us 1/1 = 100%, Them 0.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.formats.club_night import TableStandings, by_place, by_variant, place_share, ranking


def table(number: int, variant: str, **totals: int) -> TableStandings:
    return TableStandings(number, tuple(totals), tuple(totals.values()), 3, 13, False, variant=variant)


NIGHT = (
    table(1, "nomination", Ann=31, Bob=24, Cat=24, Dan=9),
    table(2, "whist", Us=2, Them=1),
    table(3, "nomination", Eve=40, Fay=12, Gus=9, Hal=5),
)


def test_place_scores_rank_every_variant_together() -> None:
    rows = [(r.rank, r.tied, r.name, r.share) for r in by_place(NIGHT)]
    assert rows == [
        (1, True, "Us", Fraction(1)),
        (1, True, "Eve", Fraction(1)),
        (3, False, "Ann", Fraction(6, 7)),
        (4, True, "Bob", Fraction(9, 14)),
        (4, True, "Cat", Fraction(9, 14)),
        (6, False, "Fay", Fraction(3, 7)),
        (7, True, "Dan", Fraction(3, 14)),
        (7, True, "Gus", Fraction(3, 14)),
        (9, True, "Them", Fraction(0)),
        (9, True, "Hal", Fraction(0)),
    ]
    assert [r.total for r in by_place(NIGHT)][:3] == [2, 40, 31]  # each keeps its variant's own total


def test_within_each_variant_each_has_its_own_ranking() -> None:
    sections = by_variant(NIGHT)
    assert [s.variant for s in sections] == ["nomination", "whist"]
    assert [(r.rank, r.name, r.total) for r in sections[0].rows][:4] == [
        (1, "Eve", 40),
        (2, "Ann", 31),
        (3, "Bob", 24),
        (3, "Cat", 24),
    ]
    assert [(r.rank, r.name) for r in sections[1].rows] == [(1, "Us"), (2, "Them")]


def test_a_player_alone_in_a_variant_is_half_way() -> None:
    assert place_share(7, [7]) == Fraction(1, 2)
    assert place_share(3, [3, 3, 3]) == Fraction(1, 2)


tables_st = st.lists(
    st.tuples(
        st.sampled_from(["nomination", "whist", "bid_whist"]), st.lists(st.integers(-30, 60), min_size=2, max_size=6)
    ),
    min_size=1,
    max_size=8,
).map(
    lambda ts: tuple(
        TableStandings(n, tuple(f"p{n}-{i}" for i in range(len(totals))), tuple(totals), 1, None, False, variant=v)
        for n, (v, totals) in enumerate(ts, start=1)
    )
)


@settings(max_examples=80, deadline=None)
@given(tables_st, st.randoms(use_true_random=False))
def test_the_order_tables_are_listed_in_changes_nothing(tables: tuple[TableStandings, ...], rnd: random.Random) -> None:
    shuffled = list(tables)
    rnd.shuffle(shuffled)
    assert by_place(shuffled) == by_place(tables)
    assert by_variant(shuffled) == by_variant(tables)


@settings(max_examples=80, deadline=None)
@given(tables_st)
def test_a_night_of_one_variant_ranks_as_before(tables: tuple[TableStandings, ...]) -> None:
    one = tuple(TableStandings(t.table, t.names, t.totals, 1, None, False, variant="whist") for t in tables)
    before = [(r.rank, r.tied, r.name, r.table, r.total) for r in ranking(one)]
    assert [(r.rank, r.tied, r.name, r.table, r.total) for r in by_place(one)] == before
    (section,) = by_variant(one)
    assert section.rows == ranking(one)
    assert all(0 <= r.share <= 1 for r in by_place(tables) if r.share is not None)
