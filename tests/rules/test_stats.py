"""A group's statistics (scorepad/rules/stats.py), from the real example records of docs/examples.

Each worked example's numbers were counted by hand from the record's entries, by the rules
documents (/work/shared/rules), not read back from the code; the comments show the counting.
The properties check what must hold for any list of games: counts within bounds, head-to-head
symmetric, two lists' figures adding up, outsiders and renamed ids changing nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.base import RawHand, Setup, resolve_options
from scorepad.rules.record import Record, parse_record
from scorepad.rules.stats import (
    Fact,
    PlayedGame,
    PlayerStats,
    head_to_head,
    player_stats,
    results_over_time,
    season_table,
    variant_records,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
ANN, BOB, CAT, DAN, EVE, FAY, GUS, HAL = range(1, 9)


@cache
def record(name: str) -> Record:
    return parse_record(json.loads((EXAMPLES / f"{name}.json").read_text()))


def played(
    name: str, seats: Sequence[Sequence[int]], when: date = date(2026, 3, 1), hands: int | None = None
) -> PlayedGame:
    """The example `name` as a game of the group; `hands` keeps only the first ones (unfinished)."""
    rec = record(name)
    return PlayedGame.scored(rec.setup, rec.hands[:hands], when, seats)


def solo(*ids: int) -> tuple[tuple[int, ...], ...]:
    """One player per column (an individual game)."""
    return tuple((i,) for i in ids)


def facts(stats: PlayerStats) -> dict[str, tuple[int, int | None]]:
    return {f.key: (f.count, f.out_of) for f in stats.facts()}


# --------------------------------------------------------------------------- worked examples


def test_nomination_family_four() -> None:
    """rules/nomination-whist.txt: "a player has won the exact number of tricks he or she nominated,
    that player scores ten extra points". Exact bids, counted hand by hand from the record:
    Ann misses rounds 4, 5, 11 (10 of 13); Bob misses 6, 7 (11); Cat makes 1, 3, 4, 5, 6, 9, 13 (7);
    Dan makes 1, 3, 4, 5, 6, 8, 10, 12 (8). Bob wins with 134."""
    game = played("nomination-family-four", solo(ANN, BOB, CAT, DAN))
    stats = player_stats([game])
    assert {p: facts(s["nomination"])["exact_bids"] for p, s in stats.items()} == {
        ANN: (10, 13),
        BOB: (11, 13),
        CAT: (7, 13),
        DAN: (8, 13),
    }
    bob = stats[BOB]["nomination"]
    assert (bob.games, bob.won, bob.win_rate, bob.best_score, bob.average_score) == (1, 1, 1.0, 134, 134.0)
    assert [(p, s["nomination"].won, s["nomination"].best_score) for p, s in stats.items()] == [
        (ANN, 0, 130),
        (BOB, 1, 134),
        (CAT, 0, 94),
        (DAN, 0, 93),
    ]
    (point,) = results_over_time([game], DAN)["nomination"]
    assert (point.finished, point.score, point.rank, point.of, point.won) == (date(2026, 3, 1), 93, 4, 4, False)


def test_australian_family_four_special_rounds() -> None:
    """Four players: 23 rounds, 22 with bids (the misère round, 13, has none). Round 12 is the blind
    round: bids 3, 3, 2, 3 and tricks 3, 4, 2, 1, so Gran and Mum made it. Round 13 is misère:
    tricks 2, 1, 2, 5, nobody won it clean (rules/australian-whist.txt: 10 for no tricks, -2 a trick).
    Exact bids: Gran 12, Dad 13, Mum 13, Sophie 14 (the sheet's "bids made" agrees)."""
    gran, dad, mum, sophie = ANN, BOB, CAT, DAN
    stats = player_stats([played("australian-family-four", solo(gran, dad, mum, sophie))])
    assert facts(stats[gran]["australian"]) == {"exact_bids": (12, 22), "misere": (0, 1), "blind": (1, 1)}
    assert facts(stats[dad]["australian"]) == {"exact_bids": (13, 22), "misere": (0, 1), "blind": (0, 1)}
    assert facts(stats[mum]["australian"]) == {"exact_bids": (13, 22), "misere": (0, 1), "blind": (1, 1)}
    assert facts(stats[sophie]["australian"])["exact_bids"] == (14, 22)
    assert stats[mum]["australian"].won == 1 and stats[mum]["australian"].best_score == 162


def test_australian_remote_misere_made() -> None:
    """The lockdown game: Ann takes no trick in the misère round and scores 10 for it."""
    stats = player_stats([played("australian-lockdown-remote", solo(ANN, BOB, CAT))])
    assert facts(stats[ANN]["australian"])["misere"] == (1, 1)
    assert facts(stats[BOB]["australian"])["misere"] == (0, 1)


def test_head_to_head_of_a_shared_second_place() -> None:
    """Dad and Sophie both finish on 160, second equal: a tie between them; Mum (162) is ahead of both."""
    game = played("australian-family-four", solo(ANN, BOB, CAT, DAN))
    h2h = head_to_head([game], BOB, DAN)
    assert (h2h.games, h2h.a_ahead, h2h.b_ahead, h2h.ties) == (1, 0, 0, 1)
    h2h = head_to_head([game], CAT, DAN)
    assert (h2h.games, h2h.a_ahead, h2h.b_ahead, h2h.ties) == (1, 1, 0, 0)


def test_bid_whist_contracts_bostons_and_reneges() -> None:
    """Three rounds, seats 0 and 2 for Aces, 1 and 3 for Jokers. Aces bid hands 1, 4, 6, 7, 8, 11,
    13 (7): set on 7 (9 of 10 books) and 13 (8 of 10); hand 6 took 9 of 11 books but Jokers' renege
    was upheld, so Aces keep it (rules/bid-whist.txt XI, RULES-NOTES). Jokers bid 2, 3, 5, 9 (the tied
    round's extra hand, made), 10, 12 (6): set on 2 and 10; hand 12 is 7 with 13 books, a Boston."""
    aces, jokers = (ANN, CAT), (BOB, DAN)
    stats = player_stats([played("bid_whist-three-rounds-tied-round", (aces, jokers))])
    for player in aces:
        assert facts(stats[player]["bid_whist"]) == {
            "contracts_made": (5, 7),
            "contracts_set": (2, 7),
            "bostons": (0, None),
            "reneges": (0, None),
        }
    for player in jokers:
        assert facts(stats[player]["bid_whist"]) == {
            "contracts_made": (4, 6),
            "contracts_set": (2, 6),
            "bostons": (1, None),
            "reneges": (1, None),
        }
    # The final score is the points, not the rounds the standings count: 38 to 31.
    assert stats[ANN]["bid_whist"].best_score == 38 and stats[BOB]["bid_whist"].best_score == 31
    assert stats[ANN]["bid_whist"].won == 1 and stats[BOB]["bid_whist"].won == 0


def test_a_renege_not_upheld_is_no_renege() -> None:
    """The same game with the director ruling against the renege call of hand 6: the hand is
    scored as played, Aces' 9 books of the 11 they needed set them (rules/bid-whist.txt IX), and
    Jokers have no renege against them. Round 2 then goes to Jokers 15-5 with no extra hand, so the
    game ends after hand 12: Aces bid hands 1, 4, 6, 7, 8, 11 and make 1, 4, 8, 11."""
    rec = record("bid_whist-three-rounds-tied-round")
    hands = list(rec.hands[:12])
    hands[5] = {**hands[5], "renege": {"offender": 1, "called_by": 0, "upheld": False}}
    game = PlayedGame.scored(rec.setup, hands, date(2026, 3, 1), ((ANN, CAT), (BOB, DAN)))
    stats = player_stats([game])
    assert game.sheet.finished and game.sheet.winners == (0,)
    assert facts(stats[ANN]["bid_whist"])["contracts_made"] == (4, 6)
    assert stats[BOB]["bid_whist"].reneges == 0


def test_a_dead_heat_is_drawn_not_won() -> None:
    """Two rounds, one each, 26-26 in points: a tie. Neither side won; both drew. North-South's
    first hand is 4 with 13 books, a Boston."""
    stats = player_stats([played("bid_whist-two-rounds-tie", ((ANN, CAT), (BOB, DAN)))])
    for player in (ANN, BOB, CAT, DAN):
        s = stats[player]["bid_whist"]
        assert (s.games, s.won, s.drawn, s.win_rate, s.best_score) == (1, 0, 1, 0.0, 26)
    assert stats[ANN]["bid_whist"].bostons == 1 and stats[BOB]["bid_whist"].bostons == 0
    assert season_table([played("bid_whist-two-rounds-tie", ((ANN, CAT), (BOB, DAN)))])[0].rank == 1


def test_a_shared_first_place_is_a_win_for_each() -> None:
    """Nomination, three players: Bob and Cat tie on 45, Ann 32. Bob and Cat both won, shared."""
    stats = player_stats([played("nomination-three-hook-every-tie", solo(ANN, BOB, CAT))])
    assert [(s["nomination"].won, s["nomination"].shared_wins) for s in stats.values()] == [(0, 0), (1, 1), (1, 1)]
    h2h = head_to_head([played("nomination-three-hook-every-tie", solo(ANN, BOB, CAT))], BOB, CAT)
    assert (h2h.games, h2h.ties) == (1, 1)


def test_whist_rubber_odd_tricks_games_and_score() -> None:
    """North-South's tricks over 11 deals: 8 6 9 5 7 6 9 5 6 7 8, odd tricks (above six, rules/whist.txt)
    2+0+3+0+1+0+3+0+0+1+2 = 12; East-West's 5 7 4 8 6 7 4 8 7 6 5 give 0+1+0+2+0+1+0+2+1+0+0 = 7.
    Games: North-South on deals 3 and 11, East-West on deal 5; the rubber to North-South. Their points
    over the rubber: 12 (no honours counted for them); East-West 7 odd tricks + honours 2 (deal 2)
    + 4 (deal 5) = 13: the rubber's winners scored fewer points."""
    ns, ew = (ANN, CAT), (BOB, DAN)
    stats = player_stats([played("whist-rubber-honours", (ns, ew))])
    assert facts(stats[ANN]["whist"]) == {
        "odd_tricks": (12, 11),
        "rubbers": (1, 1),
        "whist_games": (2, 3),
        "drives": (0, 0),
    }
    assert facts(stats[BOB]["whist"]) == {
        "odd_tricks": (7, 11),
        "rubbers": (0, 1),
        "whist_games": (1, 3),
        "drives": (0, 0),
    }
    assert stats[ANN]["whist"].facts()[0].rate == pytest.approx(12 / 11)
    # issue 31, item 7: 12 and 13 points added up over the rubber are no score (the winners had
    # fewer): no average, best score, record or chart is made of them; the facts count the rubber
    # and its games apart, and the page lists them instead of a count of sheets
    for player in ns + ew:
        assert (stats[player]["whist"].best_score, stats[player]["whist"].average_score) == (None, None)
        assert stats[player]["whist"].own_results
    assert variant_records([played("whist-rubber-honours", (ns, ew))])["whist"].highest_score is None
    assert results_over_time([played("whist-rubber-honours", (ns, ew))], ANN) == {}


def test_whist_drive_odd_tricks() -> None:
    """Twelve deals: Pair 7 takes 8 6 9 7 5 10 4 7 6 8 3 7 (odd 2+0+3+1+0+4+0+1+0+2+0+1 = 14),
    Pair 12 the rest (odd 1+2+3+1+4 = 11); the drive scores odd tricks, so 14-11. No game is played
    to a target, so no games or rubbers are won."""
    stats = player_stats([played("whist-drive", ((ANN, BOB), (CAT, DAN)))])
    assert facts(stats[ANN]["whist"]) == {
        "odd_tricks": (14, 12),
        "rubbers": (0, 0),
        "whist_games": (0, 0),
        "drives": (1, 1),
    }
    assert facts(stats[CAT]["whist"])["odd_tricks"] == (11, 12) and facts(stats[CAT]["whist"])["drives"] == (0, 1)
    assert (stats[ANN]["whist"].best_score, stats[CAT]["whist"].best_score) == (14, 11)  # a drive's score is one


def test_whist_single_game() -> None:
    """American whist to 7, no rubber: one game, Boston's, 7-6; no rubber is played."""
    stats = player_stats([played("whist-american", ((ANN, CAT), (BOB, DAN)))])
    assert facts(stats[BOB]["whist"])["whist_games"] == (1, 1) and facts(stats[ANN]["whist"])["whist_games"] == (0, 1)
    assert facts(stats[BOB]["whist"])["rubbers"] == (0, 0)
    assert (stats[BOB]["whist"].won, stats[BOB]["whist"].best_score) == (1, None)  # a game's points restart


def test_military_flags_won_and_the_playoff() -> None:
    """Flags won by each team's visitors (7-9 tricks 1 flag, 10-13 two; NT Low, hand 5, counts the
    home pair's tricks: rules/military-whist.txt). From the moves on the sheet and the tricks:
    Aces visit tables 2, 3, 4, 2, 3, 2 taking 8, 3, 4, 10, (13-4=)9, 9 tricks: 1+0+0+2+1+1 = 5;
    Kings 9, 8, 11, 5, (13-6=)7, 7: 1+1+2+0+1+1 = 6; Queens 10, 7, 6, 7, (13-8=)5, 7: 2+1+0+1+0+1 = 5;
    Jacks 5, 6, 7, 6, (13-5=)8, 8: 0+0+1+0+1+1 = 3. Aces, Kings and Queens end on 13 flags; the
    playoff puts Aces first, Queens second, Kings third."""
    teams = [(ANN,), (BOB,), (CAT,), (DAN,)]
    game = played("military-playoff", teams)
    stats = player_stats([game])
    assert [s["military"].flags_won for s in stats.values()] == [5, 6, 5, 3]
    assert [s["military"].best_score for s in stats.values()] == [13, 13, 13, 9]
    assert stats[ANN]["military"].won == 1 and stats[BOB]["military"].won == 0
    h2h = head_to_head([game], BOB, CAT)  # level on flags, apart by the playoff
    assert (h2h.games, h2h.a_ahead, h2h.b_ahead, h2h.ties) == (1, 0, 1, 0)


def test_military_flags_won_agree_with_the_sheet_words() -> None:
    """Each cell says "+N at table T": the flags won, written by the sheet. Over every military
    example the figure agrees with the sum of those words, for four players per team."""
    for name in ("military-club-day", "military-two-days", "military-zone-full", "military-playoff"):
        rec = record(name)
        ids = iter(range(100))
        seats = [tuple(next(ids) for _ in range(4)) for _ in rec.setup.teams]
        game = played(name, seats)
        stats = player_stats([game])
        for column, players in enumerate(seats):
            words = sum(
                int(line.cells[column].detail.split(" ")[0])
                for line in game.sheet.lines
                if line.cells[column].detail.startswith("+")
            )
            assert {stats[p]["military"].flags_won for p in players} == {words}, name


def test_a_season_of_the_four_cousins() -> None:
    """Ann, Bob, Cat and Dan play four games in March: Nomination (Bob wins), Bid Whist with Ann
    and Cat against Bob and Dan (Eastside, Bob and Dan, win), Whist with Ann and Bob against Cat and
    Dan (the rubber to Ann and Bob), and a three-player Nomination without Dan that Bob and Cat tie.
    Bob: 4 games, 4 won (one shared). Cat: 4 games, 1 won (the shared one). Ann: 4 games, 1 won.
    Dan: 3 games, 1 won. Ann, Cat and Dan have one win each; Dan's rate (1/3) puts him second, Ann
    and Cat (1/4) share third place."""
    games = [
        played("nomination-family-four", solo(ANN, BOB, CAT, DAN), date(2026, 3, 1)),
        played("bid_whist-tournament-round", ((ANN, CAT), (BOB, DAN)), date(2026, 3, 8)),
        played("whist-rubber-honours", ((ANN, BOB), (CAT, DAN)), date(2026, 3, 15)),
        played("nomination-three-hook-every-tie", solo(ANN, BOB, CAT), date(2026, 3, 22)),
    ]
    table = season_table(games)
    assert [(r.player, r.games, r.won, r.rank) for r in table] == [
        (BOB, 4, 4, 1),
        (DAN, 3, 1, 2),
        (ANN, 4, 1, 3),
        (CAT, 4, 1, 3),
    ]
    assert table[1].win_rate == pytest.approx(1 / 3)
    h2h = head_to_head(games, ANN, BOB)  # partners in the Whist game: three games against each other
    assert (h2h.games, h2h.a_ahead, h2h.b_ahead, h2h.ties) == (3, 0, 3, 0)
    assert head_to_head(games, ANN, BOB, variant="nomination").games == 2
    over_time = results_over_time(games, BOB)
    # the app's order of variants; a Whist rubber ends on games won, not a score: it has no point on a chart
    assert list(over_time) == ["bid_whist", "nomination"]
    assert [(p.finished, p.score, p.rank, p.won) for p in over_time["nomination"]] == [
        (date(2026, 3, 1), 134, 1, True),
        (date(2026, 3, 22), 45, 1, True),
    ]
    stats = player_stats(games)[BOB]["nomination"]
    assert (stats.games, stats.won, stats.shared_wins, stats.best_score, stats.average_score) == (
        2,
        2,
        1,
        134,
        (134 + 45) / 2,
    )


def test_records_highest_score_run_and_exact_rate() -> None:
    """The family Nomination game (Bob 134 in seat 1, Ann 130 in seat 0), and the same game a week
    later with Ann and Bob swapping chairs (Ann 134: equal, later, so Bob keeps the record he set
    first). Bob wins the first and loses the second, Ann the other way round: runs of 1, Bob's
    first. Exact bids: seat 0 makes 10 of 13, seat 1 makes 11 (see the family game above), so Ann
    and Bob both make 21 of 26 and share the best rate; Cat 14, Dan 16."""
    games = [
        played("nomination-family-four", solo(ANN, BOB, CAT, DAN), date(2026, 3, 1)),
        played("nomination-family-four", solo(BOB, ANN, CAT, DAN), date(2026, 3, 8)),
    ]
    records = variant_records(games, min_bid_hands=26)["nomination"]
    assert records.highest_score is not None
    assert (records.highest_score.value, records.highest_score.players, records.highest_score.finished) == (
        134,
        (BOB,),
        date(2026, 3, 1),
    )
    assert records.longest_winning_run is not None
    assert (records.longest_winning_run.value, records.longest_winning_run.players) == (1, (BOB,))
    rate = records.best_exact_bid_rate
    assert rate is not None and (rate.value, rate.out_of, rate.players) == (21, 26, (ANN, BOB))
    assert variant_records(games, min_bid_hands=27)["nomination"].best_exact_bid_rate is None


def test_the_longest_winning_run_and_who_reached_it_first() -> None:
    """Whist rubbers: Ann and Bob (partners) win on the 1st, 2nd and 3rd; Cat and Dan win the 4th.
    Then Cat wins the 5th and 6th with Eve: three in a row, equal to Ann and Bob's run but reached
    later, so the record stays with Ann and Bob, dated the 3rd."""

    def rubber(day: int, winners: tuple[int, int], losers: tuple[int, int]) -> PlayedGame:
        return played("whist-rubber-honours", (winners, losers), date(2026, 4, day))  # column 0 wins

    games = [
        rubber(1, (ANN, BOB), (CAT, DAN)),
        rubber(2, (ANN, BOB), (CAT, DAN)),
        rubber(3, (ANN, BOB), (CAT, DAN)),
        rubber(4, (CAT, DAN), (ANN, BOB)),
        rubber(5, (CAT, EVE), (ANN, BOB)),
        rubber(6, (CAT, EVE), (DAN, BOB)),
    ]
    run = variant_records(games)["whist"].longest_winning_run
    assert run is not None and (run.value, run.players, run.finished) == (3, (ANN, BOB), date(2026, 4, 3))
    # Given in any order, the games are taken by date.
    assert variant_records(list(reversed(games)))["whist"].longest_winning_run == run
    # One more win for Cat makes four.
    more = variant_records([*games, rubber(7, (CAT, FAY), (ANN, BOB))])["whist"].longest_winning_run
    assert more is not None and (more.value, more.players, more.finished) == (4, (CAT,), date(2026, 4, 7))


def test_an_unfinished_game_counts_for_nothing() -> None:
    """The first 10 rounds of the family Australian game: no winner yet, so nothing is counted."""
    unfinished = played("australian-family-four", solo(ANN, BOB, CAT, DAN), hands=10)
    assert not unfinished.sheet.finished
    assert player_stats([unfinished]) == {}
    assert season_table([unfinished]) == ()
    assert head_to_head([unfinished], ANN, BOB).games == 0
    assert variant_records([unfinished]) == {}


def test_dates_and_times_order_the_games() -> None:
    """Two games on the same day at different times: the later one is last in the chart."""
    late = played("nomination-family-four", solo(ANN, BOB, CAT, DAN), datetime(2026, 3, 1, 21, 0))
    early = played("nomination-family-four", solo(BOB, ANN, CAT, DAN), datetime(2026, 3, 1, 15, 0))
    assert [p.score for p in results_over_time([late, early], ANN)["nomination"]] == [134, 130]


def test_a_played_game_refuses_seats_that_do_not_fit() -> None:
    rec = record("nomination-family-four")
    sheet = get_variant("nomination").score(rec.setup, rec.hands)
    with pytest.raises(ValueError, match="columns"):
        PlayedGame("nomination", date(2026, 3, 1), rec.setup, rec.hands, sheet, solo(ANN, BOB, CAT))
    with pytest.raises(ValueError, match="once"):
        PlayedGame("nomination", date(2026, 3, 1), rec.setup, rec.hands, sheet, solo(ANN, BOB, CAT, ANN))
    with pytest.raises(ValueError, match="variant"):
        PlayedGame("australian", date(2026, 3, 1), rec.setup, rec.hands, sheet, solo(ANN, BOB, CAT, DAN))


def test_figures_of_two_variants_do_not_add() -> None:
    with pytest.raises(ValueError):
        PlayerStats("whist", games=1) + PlayerStats("nomination", games=1)


def test_a_fact_without_hands_has_no_rate() -> None:
    assert Fact("exact_bids", "Exact bids", 0, 0).rate is None
    assert Fact("bostons", "Bostons", 2).rate is None


# --------------------------------------------------------------------------- properties

ALL_EXAMPLES = sorted(p.stem for p in EXAMPLES.glob("*.json") if not p.stem.endswith(".expected"))
IDS = st.sampled_from(range(1, 9))


def nomination_game(
    players: int, cards: Sequence[int], draw: Callable[[st.SearchStrategy[int]], int]
) -> tuple[Setup, tuple[RawHand, ...]]:
    """A random short Nomination game (rounds under 4 cards: no hook), ties and all."""
    names = ("Ann", "Bob", "Cat", "Dan")[:players]
    options = resolve_options(
        get_variant("nomination").option_specs, {"sequence": "custom", "custom_sequence": list(cards)}
    )
    setup = Setup("nomination", options, names)
    hands: list[RawHand] = []
    for n in cards:
        bids = [draw(st.integers(0, n)) for _ in names]
        tricks = [0] * players
        for _ in range(n):
            tricks[draw(st.integers(0, players - 1))] += 1
        hands.append({"trump": "H", "bids": bids, "tricks": tricks})
    return setup, tuple(hands)


@st.composite
def games_of(draw: st.DrawFn, outsiders: bool = False) -> PlayedGame:
    """A finished example or a random short Nomination game (sometimes cut short: unfinished), played
    by some of the group's players (ids 1-8) in some columns; `outsiders`: by nobody of the group."""
    if draw(st.booleans()):
        rec = record(draw(st.sampled_from(ALL_EXAMPLES)))
        setup, hands = rec.setup, rec.hands
    else:
        cards = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        setup, hands = nomination_game(draw(st.integers(3, 4)), cards, draw)
    if draw(st.integers(0, 5)) == 0:
        hands = hands[: draw(st.integers(0, len(hands) - 1))]
    width = 4 if setup.variant == "military" else 2 if setup.teams else 1
    pool = draw(st.permutations(range(1, 9)))
    seats: list[tuple[int, ...]] = []
    for _ in setup.columns:
        take = 0 if outsiders else draw(st.integers(0, min(width, len(pool))))
        seats.append(tuple(pool[:take]))
        pool = pool[take:]
    day = draw(st.dates(date(2025, 1, 1), date(2026, 12, 31)))
    return PlayedGame.scored(setup, hands, day, seats)


GAMES = st.lists(games_of(), max_size=6)


def every_figure(games: Sequence[PlayedGame]) -> tuple[object, ...]:
    ids = range(1, 9)
    return (
        player_stats(games),
        season_table(games),
        variant_records(games, min_bid_hands=10),
        tuple(head_to_head(games, a, b) for a in ids for b in ids if a < b),
        tuple(results_over_time(games, p) for p in ids),
    )


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_counts_stay_within_bounds(games: list[PlayedGame]) -> None:
    for by_variant in player_stats(games).values():
        for s in by_variant.values():
            assert 0 <= s.shared_wins <= s.won <= s.games and s.won + s.drawn <= s.games
            assert 0.0 <= s.win_rate <= 1.0
            assert 0 <= s.scored_games <= s.games
            assert (s.best_score is None) == (s.average_score is None) == (s.scored_games == 0)
            assert s.best_score is None or s.average_score is None or s.best_score >= s.average_score
            for fact in s.facts():
                assert fact.count >= 0
                if fact.out_of is not None and fact.key != "odd_tricks":
                    assert fact.count <= fact.out_of
    rows = season_table(games)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert all(r.rank == i + 1 or r.rank == rows[i - 1].rank for i, r in enumerate(rows))


@settings(max_examples=60, deadline=None)
@given(GAMES, IDS, IDS)
def test_head_to_head_is_symmetric(games: list[PlayedGame], a: int, b: int) -> None:
    one, other = head_to_head(games, a, b), head_to_head(games, b, a)
    assert (one.games, one.a_ahead, one.b_ahead, one.ties) == (other.games, other.b_ahead, other.a_ahead, other.ties)
    assert one.a_ahead + one.b_ahead + one.ties == one.games
    if a == b:
        assert one.games == 0


@settings(max_examples=60, deadline=None)
@given(GAMES, GAMES)
def test_two_lists_of_games_add_up(first: list[PlayedGame], second: list[PlayedGame]) -> None:
    merged = player_stats(first + second)
    one, two = player_stats(first), player_stats(second)
    for player in {*one, *two}:
        for variant in {*one.get(player, {}), *two.get(player, {})}:
            parts = [d[player][variant] for d in (one, two) if variant in d.get(player, {})]
            total = parts[0] + parts[1] if len(parts) == 2 else parts[0]
            assert merged[player][variant] == total
    assert set(merged) == {*one, *two}
    season = {r.player: (r.games, r.won) for r in season_table(first + second)}
    assert sum(g for g, _ in season.values()) == sum(s.games for v in merged.values() for s in v.values())


@settings(max_examples=40, deadline=None)
@given(GAMES, games_of(outsiders=True))
def test_a_game_of_outsiders_changes_nothing(games: list[PlayedGame], outsiders: PlayedGame) -> None:
    assert every_figure([*games, outsiders]) == every_figure(games)


@settings(max_examples=40, deadline=None)
@given(GAMES, st.permutations(range(1, 9)))
def test_renaming_the_players_changes_nothing(games: list[PlayedGame], new: list[int]) -> None:
    """Ids 1-8 become 101-108 in another order: every figure follows the player, not the id."""
    rename = {old: 100 + n for old, n in zip(range(1, 9), new)}
    renamed = [
        PlayedGame(
            g.variant,
            g.finished,
            g.setup,
            g.hands,
            g.sheet,
            tuple(tuple(rename[p] for p in column) for column in g.seats),
        )
        for g in games
    ]
    stats, again = player_stats(games), player_stats(renamed)
    assert {rename[p]: v for p, v in stats.items()} == again
    assert {rename[r.player]: (r.games, r.won, r.rank) for r in season_table(games)} == {
        r.player: (r.games, r.won, r.rank) for r in season_table(renamed)
    }
    for a in range(1, 9):
        assert results_over_time(games, a) == results_over_time(renamed, rename[a])
        for b in range(a + 1, 9):
            h, h2 = head_to_head(games, a, b), head_to_head(renamed, rename[a], rename[b])
            assert (h.games, h.a_ahead, h.b_ahead, h.ties) == (h2.games, h2.a_ahead, h2.b_ahead, h2.ties)
    records, records2 = variant_records(games, 10), variant_records(renamed, 10)
    assert records.keys() == records2.keys()
    for variant, found in records.items():
        for name in ("highest_score", "longest_winning_run", "best_exact_bid_rate"):
            mine, theirs = getattr(found, name), getattr(records2[variant], name)
            assert (mine is None) == (theirs is None)
            if mine is not None:
                assert (mine.value, mine.out_of, mine.finished) == (theirs.value, theirs.out_of, theirs.finished)
                assert sorted(rename[p] for p in mine.players) == list(theirs.players)


@settings(max_examples=40, deadline=None)
@given(GAMES, IDS)
def test_the_chart_holds_each_game_once(games: list[PlayedGame], player: int) -> None:
    points = results_over_time(games, player)
    stats = player_stats(games).get(player, {})
    # the games that end on a score (not a Whist rubber's points added up), each once
    assert {v: len(p) for v, p in points.items()} == {v: s.scored_games for v, s in stats.items() if s.scored_games}
    if all(get_variant(g.variant).stats.scored(g.setup) for g in games):
        assert {v: sum(p.won for p in ps) for v, ps in points.items()} == {v: s.won for v, s in stats.items()}
    for series in points.values():
        assert [p.finished for p in series] == sorted(p.finished for p in series)
        assert all(1 <= p.rank <= p.of for p in series)
