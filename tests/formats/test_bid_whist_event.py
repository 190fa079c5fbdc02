"""The Bid Whist tournament format (/work/shared/rules/bid-whist.txt, "Preliminary Rounds",
"Playoff Determination", "Playoff Pairing"; RULES-NOTES.md's Bid Whist "Tournament" paragraph)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.formats import bid_whist_event as f
from scorepad.rules.base import RuleErrors


def result(home: int, away: int, winner: int, points: tuple[int, int] = (16, 0)) -> f.Result:
    return f.Result(home, away, points if winner == 0 else (points[1], points[0]), winner)


# --------------------------------------------------------------------------- the draw


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=8, max_value=129), st.text(min_size=1, max_size=8))
def test_three_rounds_never_repeat_an_opponent(teams: int, seed: str) -> None:
    """ "Each team will play 3 rounds" against teams "randomly drawn 2 at a time": never the same twice."""
    rounds = f.draws(list(range(1, teams + 1)), seed, 3)
    pairs = [frozenset((s.home, s.away)) for d in rounds for s in d.seats]
    assert len(pairs) == len(set(pairs))
    for d in rounds:
        seated = [n for s in d.seats for n in (s.home, s.away)]
        assert sorted(n for n in seated if n) == list(range(1, teams + 1))  # every team plays once a round
        assert seated.count(f.GHOST) == teams % 2  # the odd team plays the ghost
        assert sorted(s.table for s in d.seats) == list(range(1, (teams + 1) // 2 + 1))  # two teams a table
        assert sorted(d.order) == list(range(1, teams + 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=40).map(lambda n: 2 * n + 1), st.text(min_size=1, max_size=6))
def test_byes_rotate(teams: int, seed: str) -> None:
    """Nobody plays the ghost twice while another team has not played it."""
    rounds = f.draws(list(range(1, teams + 1)), seed, 3)
    byes = [next(s.home or s.away for s in d.seats if f.GHOST in (s.home, s.away)) for d in rounds]
    assert len(set(byes)) == 3


def test_the_draw_is_reproducible_from_its_seed_and_shown_in_drawing_order() -> None:
    one = f.draw_round(list(range(1, 9)), "club-2026", 1, [])
    assert one == f.draw_round(list(range(1, 9)), "club-2026", 1, [])
    assert one != f.draw_round(list(range(1, 9)), "club-2027", 1, [])
    # round 1 seats the pairs at tables 1, 2, ... in the order drawn, the first drawn at N/S
    assert [(s.table, s.home, s.away) for s in one.seats] == [
        (i + 1, one.order[2 * i], one.order[2 * i + 1]) for i in range(4)
    ]
    assert one.words() == "drawn in this order: " + ", ".join(str(n) for n in one.order)


def test_a_team_that_stays_keeps_its_table_and_seat_and_the_words_say_who_moves() -> None:
    last = f.Draw(1, (1, 2, 3, 4), (f.Seat(1, 1, 2), f.Seat(2, 3, 4)))
    # round 2 must pair 1-3 and 2-4 or 1-4 and 2-3; whichever, one team of each match stays
    nxt = f.draw_round([1, 2, 3, 4], "x", 2, [last])
    stayed = [
        n
        for s in nxt.seats
        for n, side in ((s.home, 0), (s.away, 1))
        if (last.seats[s.table - 1].home, last.seats[s.table - 1].away)[side] == n
    ]
    assert len(stayed) == 2
    words = f.moves(last, nxt, {1: "Aces", 2: "Kings", 3: "Queens", 4: "Jacks"})
    assert len(words) == 4 and sum("stay at table" in w for w in words) == 2
    assert all(w.split(":")[0] in ("Aces", "Kings", "Queens", "Jacks") for w in words)


def test_a_draw_that_cannot_avoid_a_repeat_is_refused_with_words() -> None:
    played = [f.Draw(1, (1, 2), (f.Seat(1, 1, 2),))]
    with pytest.raises(RuleErrors) as e:
        f.draw_round([1, 2], "x", 2, played)
    assert e.value.errors[0].field == "draw"
    assert "without a repeat opponent" in e.value.errors[0].message
    with pytest.raises(RuleErrors):
        f.draw_round([1], "x", 1, [])


# --------------------------------------------------------------------------- standings and the cut


def test_standings_are_rounds_won_then_points_and_equal_is_a_tie() -> None:
    """ "Most rounds won ... total points earned can only be used to break a tie"."""
    results = [result(1, 2, 0, (20, 8)), result(3, 4, 0, (12, 10)), result(1, 3, 1, (9, 6)), result(2, 4, 0, (14, 0))]
    rows = f.standings([1, 2, 3, 4], results)
    # 3: 2 wins, 21 points; 1: 1 win, 26; 2: 1 win, 22; 4: 0 wins, 10
    assert [(r.number, r.rounds_won, r.points, r.rank, r.tied) for r in rows] == [
        (3, 2, 21, 1, False),
        (1, 1, 26, 2, False),
        (2, 1, 22, 3, False),
        (4, 0, 10, 4, False),
    ]
    tied = f.standings([1, 2, 3], [result(1, 3, 0, (8, 0)), result(2, 3, 0, (8, 0))])
    assert [(r.number, r.rank, r.tied) for r in tied] == [(1, 1, True), (2, 1, True), (3, 3, False)]


def test_teams_tied_on_rounds_won_and_points_are_put_in_order_by_their_match_then_by_lot() -> None:
    """Issue 32, item 10: the document breaks no tie but the cut's; a tie is seeded by the rounds the
    tied teams won against each other, then by a lot drawn from the event's seed."""
    # 2 beat 1 8-4; then 1 beat 3 8-0 and 4 beat 2 8-4: 1 and 2 have 1 win and 12 points each
    results = [result(2, 1, 0, (8, 4)), result(1, 3, 0, (8, 0)), result(2, 4, 1, (8, 4))]
    rows = f.standings([1, 2, 3, 4], results, "seed-a")
    assert [(r.number, r.rank, r.tied, r.tie_break) for r in rows[:2]] == [(2, 1, True, "match"), (1, 1, True, "match")]
    assert rows[2].tie_break == "" and rows[2].number == 4
    # 1 and 2 never met: the lot, the same for one seed every time, not always the lower number first
    apart = [result(1, 3, 0, (8, 0)), result(2, 4, 0, (8, 0))]
    orders = {seed: [r.number for r in f.standings([1, 2, 3, 4], apart, seed)][:2] for seed in "abcdefgh"}
    assert all(f.standings([1, 2, 3, 4], apart, seed)[0].tie_break == "lot" for seed in orders)
    assert orders == {seed: [r.number for r in f.standings([1, 2, 3, 4], apart, seed)][:2] for seed in orders}
    assert {tuple(o) for o in orders.values()} == {(1, 2), (2, 1)}
    # three tied in a circle (1 beat 2, 2 beat 3, 3 beat 1; 16 points each): one win each between them, so lot
    circle = [result(1, 2, 0, (8, 8)), result(2, 3, 0, (8, 8)), result(3, 1, 0, (8, 8))]
    assert {r.tie_break for r in f.standings([1, 2, 3], circle, "x")} == {"lot"}


@pytest.mark.parametrize(
    ("teams", "size"), [(8, 8), (9, 8), (16, 16), (40, 16), (63, 16), (64, 32), (127, 32), (128, 64), (200, 64), (3, 2)]
)
def test_the_playoff_size_follows_the_document(teams: int, size: int) -> None:
    """ "Maximum Sweet 16 ... from 64 to 127, top 32 ... 128 or more, top 64" (fewer when fewer teams)."""
    assert f.playoff_size(teams) == size


def test_the_directors_smaller_bracket_is_kept() -> None:
    assert f.playoff_size(40, "8") == 8 and f.playoff_size(6, "8") == 4


def test_a_tie_across_the_cut_needs_a_one_game_playoff() -> None:
    rows = f.standings([1, 2, 3, 4, 5], [result(1, 2, 0), result(3, 4, 0), result(1, 5, 0), result(2, 3, 0)])
    # 1: 2 wins; 2, 3: 1 win, 16 points each; 4, 5: 0 → a bracket of 2 takes 1 and one of 2, 3
    c = f.cut(rows, 2)
    assert c.seeds == (1,) and c.playoff == (2, 3) and c.places == 1
    with pytest.raises(RuleErrors) as e:
        f.check_playoff(c, [4])
    assert e.value.errors[0].message == "choose 1 of the tied teams (2, 3) as the playoff's winner"
    settled = f.cut(rows, 2, [3])
    assert settled.seeds == (1, 3) and settled.playoff == ()
    assert (f.cut(rows, 4).playoff, f.cut(rows, 4).places) == ((4, 5), 1)  # 4 and 5 tie at 0-0 for 4th
    big = f.standings(list(range(1, 7)), [result(1, 2, 0), result(3, 4, 0), result(5, 6, 0)])
    assert f.cut(big, 4) == f.Cut(4, (1, 3, 5), (2, 4, 6), 1)  # three tied losers for one place
    assert f.cut(big, 4, [4]) == f.Cut(4, (1, 3, 5, 4), (), 0)


# --------------------------------------------------------------------------- the bracket


def test_sweet_16_is_seeded_1_16_2_15_and_1_and_2_meet_only_in_the_final() -> None:
    """ "1st vs 16th, 2nd vs 15th, 3rd vs 14th, ... 8th vs 9th"."""
    order = f.seed_order(16)
    pairs = [(order[i], order[i + 1]) for i in range(0, 16, 2)]
    assert sorted(tuple(sorted(p)) for p in pairs) == [
        (1, 16),
        (2, 15),
        (3, 14),
        (4, 13),
        (5, 12),
        (6, 11),
        (7, 10),
        (8, 9),
    ]
    assert order.index(1) < 8 <= order.index(2)
    b = f.bracket(list(range(101, 117)), {})
    assert [lv for lv, _ in b.levels()] == ["Sweet 16", "Elite 8", "Final Four", "Final", "Third place"]
    assert b.matches[0].teams == (101, 116) and b.matches[8].teams == (None, None)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 4, 8, 16, 32, 64]), st.randoms(use_true_random=False))
def test_a_bracket_played_out_gives_one_gold_one_silver_one_bronze(size: int, rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    seeds = list(range(1, size + 1))
    winners: dict[int, int] = {}
    while True:
        b = f.bracket(seeds, winners)
        ready = [m for m in b.matches if m.ready]
        if not ready:
            break
        for m in ready:
            winners[m.number] = rnd.choice([t for t in m.teams if t is not None])
    medals = b.medals()
    assert [m for m, _ in medals] == (["Gold", "Silver", "Bronze"] if size >= 4 else ["Gold", "Silver"])
    assert len({n for _, n in medals}) == len(medals)
    assert len(b.matches) == size - 1 + (1 if size >= 4 else 0)


def test_winners_advance_and_the_semi_final_losers_play_for_third() -> None:
    assert [m.teams for m in f.bracket([1, 2, 3, 4], {1: 1}).matches] == [(1, 4), (2, 3), (1, None), (4, None)]
    b = f.bracket([1, 2, 3, 4], {1: 1, 2: 3})
    assert [m.teams for m in b.matches] == [(1, 4), (2, 3), (1, 3), (4, 2)]
    assert b.matches[3].level == "Third place" and b.matches[2].level == "Final"
    b = f.bracket([1, 2, 3, 4], {1: 1, 2: 3, 3: 3, 4: 2})
    assert b.medals() == (("Gold", 3), ("Silver", 1), ("Bronze", 2))


def test_a_swap_replaces_a_no_show_before_its_match_and_is_refused_after() -> None:
    b = f.bracket([1, 2, 3, 4], {})
    swap = f.Swap(1, 4, 9, "no-show")
    f.check_swap(b, swap)
    swapped = f.bracket([1, 2, 3, 4], {}, [swap])
    assert swapped.matches[0].teams == (1, 9)
    played = f.bracket([1, 2, 3, 4], {1: 1})
    for bad, words in (
        (f.Swap(1, 4, 9, ""), "match 1 has been played"),
        (f.Swap(2, 4, 9, ""), "team 4 is not in match 2"),
        (f.Swap(2, 2, 1, ""), "team 1 is already in the bracket"),
        (f.Swap(9, 1, 5, ""), "no bracket match 9"),
    ):
        with pytest.raises(RuleErrors) as e:
            f.check_swap(played, bad)
        assert words in e.value.errors[0].message


# --------------------------------------------------------------------------- the start and the director's decisions


@pytest.mark.parametrize(("teams", "rounds"), [(2, 2), (2, 3), (4, 4), (3, 4)])
def test_more_rounds_than_the_teams_can_play_are_refused_before_the_start(teams: int, rounds: int) -> None:
    """Each team meets a new opponent every round: 2 teams play 1 round, 4 teams at most 3."""
    with pytest.raises(RuleErrors) as e:
        f.check_rounds(list(range(1, teams + 1)), "s", rounds)
    assert e.value.errors[0].field == "rounds"
    assert e.value.errors[0].message.startswith(f"{teams} teams cannot play {rounds} preliminary rounds")


def test_the_rounds_checked_at_the_start_are_the_rounds_drawn_later() -> None:
    assert f.check_rounds(list(range(1, 10)), "s1", 3) == f.draws(list(range(1, 10)), "s1", 3)
    assert len(f.check_rounds([1, 2, 3, 4], "s", 3)) == 3


def test_a_walkover_is_for_a_match_whose_teams_are_known_and_not_yet_decided() -> None:
    b = f.bracket([11, 12, 13, 14], {1: 11})
    f.check_walkover(b, 2, 13)
    for match, winner, words in (
        (1, 11, "match 1 has been decided"),
        (3, 11, "match 3's teams are not known yet"),
        (2, 11, "team 11 is not in match 2"),
        (9, 11, "there is no bracket match 9"),
    ):
        with pytest.raises(RuleErrors) as e:
            f.check_walkover(b, match, winner)
        assert e.value.errors[0].message.startswith(words)
