"""Bid Whist, read like score sheets: each row cites the rule of rules/bid-whist.txt or RULES-NOTES it checks.

Teams are Us (Ann, Cat) and Them (Bob, Dan), so the seats round the table are Ann 0, Bob 1, Cat 2,
Dan 3; seats 0 and 2 bid for Us. Expected scores are worked out by hand in the rows, never by calling
the code under test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorepad.rules import get_variant
from scorepad.rules.base import RoundKind, RuleError, RuleErrors, ScoreSheet, Setup, Team, resolve_options
from scorepad.rules.bid_whist import VARIANT, Call, Kind
from scorepad.rules.cards import Trump
from scorepad.rules.record import score_record

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
US_THEM = (Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan")))
HOME = {"play_to": "points", "target": 99}  # one hand's points without ending the game

Hand = dict[str, object]


def make_setup(
    options: Mapping[str, object] | None = None,
    teams: tuple[Team, ...] = US_THEM,
    first_dealer: int = 0,
    players: tuple[str, ...] = (),
) -> Setup:
    return Setup("bid_whist", resolve_options(VARIANT.option_specs, options), players, teams, first_dealer)


def hand(bidder: int, bid: int, books: int, kind: str = "plain", **extra: object) -> Hand:
    entry: Hand = {"bidder": bidder, "bid": bid, "kind": kind, "books": books}
    if kind == "no" and "direction" not in extra:
        entry["direction"] = "uptown"
    entry.update(extra)
    return entry


def call(bid: int, kind: str = "plain") -> dict[str, object]:
    return {"bid": bid, "kind": kind}


def one_hand(entry: Hand, **options: object) -> tuple[int, int]:
    """The points of each team for a single hand of a home game to 99."""
    sheet = VARIANT.score(make_setup({**HOME, **options}), [entry])
    [line] = sheet.lines
    return line.cells[0].points, line.cells[1].points


def totals(sheet: ScoreSheet) -> list[tuple[int, int]]:
    return [(line.cells[0].total, line.cells[1].total) for line in sheet.lines]


def errors_of(caught: pytest.ExceptionInfo[RuleErrors]) -> list[tuple[str, str]]:
    return [(e.field, e.message) for e in caught.value.errors]


def refused(entry: object, options: Mapping[str, object] | None = None, first_dealer: int = 0) -> list[tuple[str, str]]:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(make_setup(options, first_dealer=first_dealer), [], entry)  # type: ignore[arg-type]
    return errors_of(caught)


# --------------------------------------------------------------------------- the variant itself


def test_registered_under_its_key() -> None:
    assert get_variant("bid_whist") is VARIANT
    assert VARIANT.key == "bid_whist" and VARIANT.name == "Bid Whist"
    assert "double" in VARIANT.summary and "set" in VARIANT.summary


def test_option_defaults_follow_rules_notes() -> None:
    # RULES-NOTES: made scores "the books it actually took above six ... the document's rule and the default";
    # "Tournament: rounds of 4 hands"; the Boston is an option (off unless chosen).
    defaults = {s.key: s.default for s in VARIANT.option_specs}
    assert defaults == {
        "play_to": "rounds",
        "rounds": 1,
        "target": 7,
        "made_scores": "books",
        "boston": "off",
        "boston_bonus": 7,
        "all_pass": "dealer",
    }
    assert all(s.label and s.help for s in VARIANT.option_specs)


@pytest.mark.parametrize(
    "raw, field, words",
    [
        ({"rounds": 0}, "options.rounds", "at least 1"),
        ({"rounds": 21}, "options.rounds", "at most 20"),
        ({"target": 0}, "options.target", "at least 1"),
        ({"play_to": "games"}, "options.play_to", 'one of: "Rounds of 4 hands (tournament)" or'),
        ({"made_scores": "odd"}, "options.made_scores", 'one of: "Every book above six'),
        ({"boston": True}, "options.boston", 'one of: "Nothing extra", "Scores a bonus" or'),
        ({"boston_bonus": "7"}, "options.boston_bonus", "whole number"),
        ({"all_pass": "shuffle"}, "options.all_pass", 'one of: "The dealer must bid" or'),
    ],
)
def test_option_values_are_bounded(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(VARIANT.option_specs, raw)
    [(got_field, message)] = errors_of(caught)
    assert got_field == field and words in message


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    "teams, players, first_dealer, field, words",
    [
        (US_THEM[:1], (), 0, "teams", "exactly two teams, not 1"),
        (US_THEM + (Team("Others"),), (), 0, "teams", "exactly two teams, not 3"),
        ((Team("Us", ("Ann",)), US_THEM[1]), (), 0, "teams.0.players", "Us needs two player names (or none), not 1"),
        ((US_THEM[0], Team("Them", ("Bob", "Dan", "Eve"))), (), 0, "teams.1.players", "Them needs two player names"),
        (US_THEM, ("Ann", "Bob", "Cat", "Dan"), 0, "players", "give two teams, not players"),
        (US_THEM, (), 4, "first_dealer", "seat from 0 to 3"),
        (US_THEM, (), -1, "first_dealer", "seat from 0 to 3"),
        ((Team("Us", ("Ann", "Cat")), Team("Them", ("ann", "Dan"))), (), 0, "teams", "same name"),
    ],
)
def test_bad_setups_are_refused(
    teams: tuple[Team, ...], players: tuple[str, ...], first_dealer: int, field: str, words: str
) -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_setup(make_setup(teams=teams, players=players, first_dealer=first_dealer))
    assert any(f == field and words in m for f, m in errors_of(caught)), errors_of(caught)


def test_teams_without_player_names_get_numbered_seats() -> None:
    # Seat s belongs to team s % 2; unnamed players are "<team> 1" and "<team> 2".
    setup = make_setup(teams=(Team("Aces"), Team("Jokers")), first_dealer=3)
    state = VARIANT.state(setup, [])
    assert state.to_act == 0 and "Aces 1's call" in state.missing[0]
    entry = hand(1, 4, 10, renege={"offender": 1, "called_by": 3, "upheld": True})
    with pytest.raises(RuleErrors) as caught:
        VARIANT.check_hand(setup, [], entry)
    assert errors_of(caught) == [
        (
            "renege.called_by",
            "Jokers 2 plays for Jokers: a team cannot call a renege on themselves, only the opposing team can",
        )
    ]


# --------------------------------------------------------------------------- scoring one hand


@pytest.mark.parametrize(
    "entry, options, expected",
    [
        # IX "the bidding team wins the points they actually made, which made exceed their bid amount"
        (hand(1, 5, 11), {}, (0, 5)),
        (hand(1, 5, 12), {}, (0, 6)),
        (hand(0, 4, 10), {}, (4, 0)),
        (hand(2, 7, 13), {}, (7, 0)),
        # IX "If the bid is set, the opposing team will be awarded the points of their bid"
        (hand(1, 5, 10), {}, (5, 0)),
        (hand(0, 4, 1), {}, (0, 4)),
        (hand(3, 7, 12, kind="special"), {}, (7, 0)),
        # IX "If the bidding team makes the No Trump bid double points are earned ... the opposing team earns double"
        (hand(0, 4, 12, kind="no"), {}, (12, 0)),
        (hand(0, 4, 9, kind="no", direction="downtown"), {}, (0, 8)),
        (hand(3, 7, 12, kind="no"), {}, (14, 0)),
        # RULES-NOTES option: "you get what you bid, not what you make"
        (hand(0, 4, 12), {"made_scores": "bid"}, (4, 0)),
        (hand(0, 4, 12, kind="no"), {"made_scores": "bid"}, (8, 0)),
        (hand(0, 4, 9), {"made_scores": "bid"}, (0, 4)),
        # RULES-NOTES "a Boston (all 13 books) scores a set bonus": not doubled on No
        (hand(0, 6, 13), {"boston": "bonus"}, (14, 0)),
        (hand(0, 6, 13), {"boston": "bonus", "boston_bonus": 3}, (10, 0)),
        (hand(0, 4, 13, kind="no"), {"boston": "bonus"}, (21, 0)),
        (hand(0, 4, 13), {"boston": "bonus", "made_scores": "bid"}, (11, 0)),
        (hand(0, 6, 12), {"boston": "bonus"}, (6, 0)),
        (hand(0, 6, 13), {"boston": "off"}, (7, 0)),
    ],
)
def test_one_hand(entry: Hand, options: dict[str, object], expected: tuple[int, int]) -> None:
    assert one_hand(entry, **options) == expected


US_CALL = {"called_by": 0}  # Ann calls on Them
THEM_CALL = {"called_by": 1}  # Bob calls on Us


@pytest.mark.parametrize(
    "entry, options, expected",
    [
        # RULES-NOTES "if the defenders reneged the bidders score their bid (or what they had made, if more)"
        (hand(0, 5, 9, renege={"offender": 1, **US_CALL, "upheld": True}), {}, (5, 0)),
        (hand(0, 5, 12, renege={"offender": 1, **US_CALL, "upheld": True}), {}, (6, 0)),
        (hand(0, 4, 8, kind="no", renege={"offender": 1, **US_CALL, "upheld": True}), {}, (8, 0)),
        (hand(0, 4, 12, kind="no", renege={"offender": 1, **US_CALL, "upheld": True}), {}, (12, 0)),
        (hand(0, 5, 12, renege={"offender": 1, **US_CALL, "upheld": True}), {"made_scores": "bid"}, (5, 0)),
        # RULES-NOTES "if the bidders reneged they are set", whatever their books
        (hand(0, 5, 12, renege={"offender": 0, **THEM_CALL, "upheld": True}), {}, (0, 5)),
        (hand(0, 5, 13, kind="no", renege={"offender": 0, **THEM_CALL, "upheld": True}), {}, (0, 10)),
        # not upheld: "Record who called it; the director can review it" -- scored as played
        (hand(0, 5, 10, renege={"offender": 1, **US_CALL, "upheld": False}), {}, (0, 5)),
        (hand(0, 5, 11, renege={"offender": 0, **THEM_CALL, "upheld": False}), {}, (5, 0)),
    ],
)
def test_reneges(entry: Hand, options: dict[str, object], expected: tuple[int, int]) -> None:
    assert one_hand(entry, **options) == expected


def test_renege_is_written_on_the_sheet() -> None:
    sheet = VARIANT.score(
        make_setup(HOME),
        [
            hand(0, 5, 9, renege={"offender": 1, "called_by": 2, "upheld": True}),
            hand(1, 4, 10, renege={"offender": 0, "called_by": 3, "upheld": False}),
        ],
    )
    assert sheet.lines[0].note == "Renege by Them, called by Cat and upheld: Us score 5 on 5"
    assert sheet.lines[1].note.startswith("Renege called by Dan on Us, not upheld: scored as played. Them made 4")


def test_sheet_cells_read_like_paper() -> None:
    sheet = VARIANT.score(
        make_setup(HOME), [hand(1, 5, 10, trump="S"), hand(2, 4, 12, kind="no", direction="downtown")]
    )
    first, second = sheet.lines
    assert (first.cells[1].detail, first.cells[1].bid, first.cells[1].tricks, first.cells[1].made) == (
        "bid 5 ♠ · took 10",
        5,
        10,
        False,
    )
    assert (first.cells[0].detail, first.cells[0].tricks, first.cells[0].points) == ("set", 3, 5)
    assert first.note == "Set: Them took 10 of the 11 books 5 ♠ needs; Us score 5"
    assert first.spec.trump is Trump.SPADES and second.spec.trump is Trump.NO_TRUMPS
    assert second.cells[0].detail == "bid 4 No downtown · took 12"
    assert second.note == "Us made 4 No downtown with 12 books: Us score 12 (No bid, doubled)"
    assert totals(sheet) == [(5, 0), (17, 0)]


# --------------------------------------------------------------------------- the auction


@pytest.mark.parametrize(
    "calls, ok",
    [
        # VIII / VI: "a 4 'Special' does not supersede, however a 4 NO or any number higher ... does"
        ([call(4), call(4, "special")], False),
        ([call(4), call(4, "no")], True),
        ([call(4, "special"), call(4)], False),
        ([call(4, "special"), call(4, "no")], True),
        ([call(4, "no"), call(4, "no")], False),
        ([call(4, "no"), call(5, "special")], True),
        ([call(5), call(4, "no")], False),
        ([call(7), call(7, "no")], True),
        ([call(7, "no"), call(7, "no")], False),
        ([call(4), call(5), call(6), call(7)], True),
    ],
)
def test_each_bid_must_outrank_the_last(calls: list[object], ok: bool) -> None:
    auction = (calls + [None] * 4)[:4]
    last = max(i for i, c in enumerate(auction) if c is not None)
    winner = auction[last]
    assert isinstance(winner, dict)
    # first_dealer 0: Bob (1) calls first, so call i is made by seat (1 + i) % 4
    entry = hand((1 + last) % 4, winner["bid"], 10, kind=winner["kind"], auction=auction)
    if ok:
        VARIANT.check_hand(make_setup(), [], entry)
    else:
        fields = [f for f, _ in refused(entry)]
        assert fields == [f"auction.{len(calls) - 1}"]


@pytest.mark.parametrize(
    "auction, words",
    [
        (
            [call(4), call(4, "special"), None, None],
            "Cat may not bid 4 Special after Bob's 4: a 4 Special does not take out a 4 (only a No bid takes out a trump "
            "bid of the same number); Cat may pass or bid 4 No, or 5 or more",
        ),
        (
            [call(5, "no"), None, call(5), None],
            "Dan may not bid 5 after Bob's 5 No: a bid must outrank the one before it; Dan may pass or bid 6 or more",
        ),
        (
            [call(7, "no"), call(7, "no"), None, None],
            "Cat may not bid 7 No after Bob's 7 No: nothing outranks 7 No, so Cat must pass",
        ),
        (
            [call(7), None, call(6, "no"), None],
            "Dan may not bid 6 No after Bob's 7: a bid must outrank the one before it; Dan may pass or bid 7 No",
        ),
    ],
)
def test_refused_bids_say_why_and_what_is_open(auction: list[object], words: str) -> None:
    [(field, message)] = refused(hand(1, 4, 10, auction=auction))
    assert field.startswith("auction.") and message == words


def test_the_worked_example_of_the_record_documentation() -> None:
    # docs/game-record.md, Bid Whist, "Example hand": hand 2, Bob deals, Cat calls first;
    # Ann's 4 No downtown with 11 books = 10
    before = [hand(1, 4, 10)]
    entry = {
        "bidder": 0,
        "bid": 4,
        "kind": "no",
        "direction": "downtown",
        "books": 11,
        "auction": [call(4), None, call(4, "no"), None],
    }
    VARIANT.check_hand(make_setup(HOME), before, entry)
    sheet = VARIANT.score(make_setup(HOME), before + [entry])
    assert totals(sheet)[-1] == (10, 4)


def test_all_passing_makes_the_dealer_bid_by_default() -> None:
    # The document is silent; option all_pass "dealer": the dealer (Ann, calling last) may not pass too.
    assert refused(hand(1, 4, 10, auction=[None, None, None, None])) == [
        ("auction.3", "Ann deals and must bid when the other three pass")
    ]
    VARIANT.check_hand(make_setup(), [], hand(0, 4, 10, auction=[None, None, None, call(4)]))


def test_all_passing_throws_the_cards_in_with_redeal() -> None:
    assert refused(hand(1, 4, 10, auction=[None, None, None, None]), {"all_pass": "redeal"}) == [
        (
            "auction",
            "all four passed: the cards are thrown in and Ann deals again; enter the hand played after the redeal",
        )
    ]


@pytest.mark.parametrize(
    "entry, field, words",
    [
        # first_dealer 0: Bob, Cat, Dan, Ann call in that order, so Dan's 5 wins
        (
            hand(2, 5, 11, auction=[call(4), None, call(5), None]),
            "bidder",
            "the auction was won by Dan (seat 3), not Cat",
        ),
        (hand(3, 4, 11, auction=[call(4), None, call(5), None]), "bid", "Dan won the auction with 5, not a bid of 4"),
        (
            hand(3, 5, 11, kind="special", auction=[call(4), None, call(5), None]),
            "kind",
            "Dan won the auction with 5, not 5 Special",
        ),
    ],
)
def test_the_auction_must_agree_with_the_contract(entry: Hand, field: str, words: str) -> None:
    assert refused(entry) == [(field, words)]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "entry, field, words",
    [
        (["bidder", 1], "hand", "a Bid Whist hand is an object"),
        ({**hand(1, 5, 11), "tricks": [11, 2]}, "tricks", "'tricks' is not part of a Bid Whist hand"),
        ({"bid": 5, "kind": "plain", "books": 11}, "bidder", "say who won the bid"),
        ({"bidder": 1, "kind": "plain", "books": 11}, "bid", "give the winning bid, 4 to 7"),
        ({"bidder": 1, "bid": 5, "books": 11}, "kind", "give the kind of the winning bid"),
        ({"bidder": 1, "bid": 5, "kind": "plain"}, "books", "kitty counting as one"),
        (hand("1", 5, 11), "bidder", "seat from 0 to 3 (0 Ann, 1 Bob, 2 Cat, 3 Dan)"),  # type: ignore[arg-type]
        (hand(4, 5, 11), "bidder", "seat from 0 to 3"),
        (hand(True, 5, 11), "bidder", "seat from 0 to 3"),
        (hand(1, 3, 11), "bid", "the bid must be from 4 to 7, not 3"),
        (hand(1, 8, 11), "bid", "the bid must be from 4 to 7, not 8"),
        (hand(1, 4.5, 11), "bid", "the bid must be a whole number from 4 to 7"),  # type: ignore[arg-type]
        (hand(1, 5, 11, kind="high"), "kind", "plain (uptown with trumps), Special"),
        (hand(1, 5, 0), "books", "books (kitty included) must be from 1 to 13, not 0"),
        (hand(1, 5, 14), "books", "from 1 to 13, not 14"),
        (hand(1, 5, "ten"), "books", "whole number from 1 to 13"),  # type: ignore[arg-type]
        (hand(1, 5, 11, direction="sideways"), "direction", "uptown (high cards win) or downtown"),
        (
            hand(1, 5, 11, direction="downtown"),
            "direction",
            "a plain bid is played uptown; downtown with trumps is a Special bid",
        ),
        (
            hand(1, 5, 11, kind="special", direction="uptown"),
            "direction",
            "a special bid is played downtown; uptown with trumps is a plain bid",
        ),
        (
            {"bidder": 1, "bid": 5, "kind": "no", "books": 11},
            "direction",
            "declares uptown (high cards win) or downtown",
        ),
        (hand(1, 5, 11, kind="no", trump="NT"), "trump", "a No bid is played without trumps: name no trump suit"),
        (hand(1, 5, 11, trump="X"), "trump", "'X' is not a trump"),
        (hand(1, 5, 11, trump="NT"), "trump", "No trumps is not allowed here"),
        (hand(1, 5, 11, renege="yes"), "renege", "give the renege as"),
        (
            hand(1, 5, 11, renege={"offender": 2, "called_by": 0, "upheld": True}),
            "renege.offender",
            "0 (Us) or 1 (Them)",
        ),
        (
            hand(1, 5, 11, renege={"offender": 1, "called_by": 7, "upheld": True}),
            "renege.called_by",
            "the player who called the renege must be a seat from 0 to 3",
        ),
        (
            hand(1, 5, 11, renege={"offender": 1, "called_by": 3, "upheld": True}),
            "renege.called_by",
            "Dan plays for Them: a team cannot call a renege on themselves",
        ),
        (hand(1, 5, 11, renege={"offender": 1, "called_by": 0}), "renege.upheld", "true or false"),
        (
            hand(1, 5, 11, renege={"offender": 1, "called_by": 0, "upheld": True, "book": 3}),
            "renege.book",
            "'book' is not part of a renege",
        ),
        (hand(1, 5, 11, auction="Bob 5"), "auction", "give the auction as a list"),
        (
            hand(1, 5, 11, auction=[call(5), None, None]),
            "auction",
            "give all 4 calls (the calls in bidding order, null for a pass, starting with Bob), not 3",
        ),
        (hand(1, 5, 11, auction=[call(5), None, None, None, None]), "auction", "not 5"),
        (hand(1, 5, 11, auction=["5", None, None, None]), "auction.0", "Bob's call must be null (a pass) or"),
        (
            hand(1, 5, 11, auction=[{"bid": 8, "kind": "plain"}, None, None, None]),
            "auction.0.bid",
            "Bob's bid must be from 4 to 7, not 8",
        ),
        (hand(1, 5, 11, auction=[{"bid": 5}, None, None, None]), "auction.0.kind", "the kind of bid must be"),
        (
            hand(1, 5, 11, auction=[{"bid": 5, "kind": "plain", "trump": "H"}, None, None, None]),
            "auction.0.trump",
            "'trump' is not part of a call",
        ),
    ],
)
def test_bad_entries_name_the_field(entry: object, field: str, words: str) -> None:
    errors = refused(entry)
    assert any(f == field and words in m for f, m in errors), errors


def test_every_bad_field_is_reported_together() -> None:
    errors = refused({"bidder": 9, "bid": 5, "kind": "no", "trump": "H", "books": 20})
    assert [f for f, _ in errors] == ["bidder", "trump", "books", "direction"]


def test_score_reports_every_bad_hand_with_its_number() -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(make_setup(HOME), [hand(1, 5, 11), hand(1, 9, 11), hand(0, 5, 11), {"books": 3}])
    assert [(e.hand, e.field) for e in caught.value.errors] == [(2, "bid"), (4, "bidder"), (4, "bid"), (4, "kind")]
    assert str(caught.value.errors[0]).startswith("hand 2, bid: the bid must be from 4 to 7")


def test_no_hand_after_the_game_is_over() -> None:
    setup = make_setup({"play_to": "points"})
    with pytest.raises(RuleErrors) as caught:
        VARIANT.score(setup, [hand(0, 7, 13), hand(1, 4, 10)])
    assert errors_of(caught) == [("hand", "the game is over after hand 1; no more hands are played")]
    assert caught.value.errors[0].hand == 2
    with pytest.raises(RuleErrors) as again:
        VARIANT.check_hand(setup, [hand(0, 7, 13)], hand(1, 4, 10))
    assert errors_of(again) == [("hand", "the game is over; no more hands are played")]


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=4),
        lambda inner: (
            st.lists(inner, max_size=5)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "bidder",
                        "bid",
                        "kind",
                        "direction",
                        "trump",
                        "books",
                        "renege",
                        "auction",
                        "offender",
                        "called_by",
                        "upheld",
                        "x",
                    ]
                ),
                inner,
                max_size=6,
            )
        ),
        max_leaves=12,
    )
)
@settings(max_examples=150, deadline=None)
def test_any_json_is_refused_only_with_rule_errors(raw: object) -> None:
    # The contract: "Never raise anything but RuleError/RuleErrors for bad input".
    entry = raw if isinstance(raw, dict) else {"auction": raw}
    for pending in (entry, {"auction": [raw]}, {"renege": raw}):
        try:
            VARIANT.check_hand(make_setup(), [], pending)
        except RuleErrors:
            pass
        try:
            VARIANT.state(make_setup(), [], pending)
        except RuleErrors:
            pass


# --------------------------------------------------------------------------- play to rounds (default)


def test_a_round_of_four_hands_goes_to_the_side_with_more_points() -> None:
    # RULES-NOTES "Tournament: rounds of 4 hands; the side with more points wins the round"
    sheet = VARIANT.score(make_setup(), [hand(1, 5, 11), hand(2, 4, 9, kind="no"), hand(3, 4, 10), hand(0, 6, 12)])
    assert totals(sheet) == [(0, 5), (0, 13), (0, 17), (6, 17)]
    assert sheet.finished and sheet.winners == (1,)
    # one round: its points decide it, so they are the standings' number, the rounds won beside
    assert [(s.name, s.total, s.rank, s.detail) for s in sheet.standings] == [
        ("Them", 17, 1, "1 round won"),
        ("Us", 6, 2, "0 rounds won"),
    ]
    playing = VARIANT.score(make_setup(), [hand(1, 5, 11)])
    assert [(s.name, s.total, s.detail) for s in playing.standings] == [
        ("Them", 5, "0 rounds won"),
        ("Us", 0, "0 rounds won"),
    ]
    assert playing.standings_label == "" and sheet.standings_label == ""  # "Running totals", "Final totals"
    assert sheet.lines[-1].note.endswith("; the round to Them, 17-6")  # one round: not numbered
    assert sheet.summary == "Them win (Us v Them 0-1 in rounds, 6-17 in points)"


def test_a_tied_round_is_settled_by_an_extra_hand_worth_no_points() -> None:
    # RULES-NOTES "A tied round is settled by one extra hand worth no points."
    setup = make_setup()
    tied = [hand(0, 5, 11), hand(1, 5, 11), hand(2, 4, 10), hand(3, 4, 10)]
    state = VARIANT.state(setup, tied)
    assert state.next_round is not None and state.next_round.kind is RoundKind.PLAYOFF
    assert state.next_round.number == 5 and state.next_round.dealer == 0 and state.next_round.first_bidder == 1
    assert state.next_round.note.startswith("The round is tied 9-9: one extra hand, worth no points")
    # in a game of several rounds the round is named by its number
    several = VARIANT.state(make_setup({"rounds": 2}), tied).next_round
    assert several is not None and several.note.startswith("Round 1 is tied 9-9: one extra hand")
    assert not VARIANT.score(setup, tied).finished
    # the extra hand is set: the round goes to the defenders, and nobody's points change
    sheet = VARIANT.score(setup, tied + [hand(0, 6, 11)])
    assert totals(sheet)[-1] == (9, 9)
    assert sheet.finished and sheet.winners == (1,)
    assert sheet.lines[-1].spec.kind is RoundKind.PLAYOFF
    assert [(c.points, c.detail) for c in sheet.lines[-1].cells] == [(0, "extra hand · bid 6 · took 11"), (0, "")]
    assert sheet.lines[-1].note == "Extra hand, worth no points: Us lost 6 (11 books); the round to Them"
    # made, it goes to the bidders
    assert VARIANT.score(setup, tied + [hand(1, 4, 10)]).winners == (1,)
    assert VARIANT.score(setup, tied + [hand(2, 4, 10)]).winners == (0,)


def test_several_rounds_rank_by_rounds_won_then_points() -> None:
    # RULES-NOTES "Standings: rounds won, then total points"
    setup = make_setup({"rounds": 2})
    round_1 = [hand(0, 7, 13), hand(1, 4, 10), hand(0, 4, 10), hand(1, 4, 10)]  # Us 11, Them 8
    round_2 = [hand(1, 4, 10), hand(0, 4, 10), hand(1, 4, 10), hand(3, 4, 10)]  # Us 4, Them 12
    sheet = VARIANT.score(setup, round_1 + round_2)
    assert sheet.finished and sheet.winners == (1,)
    assert [(s.name, s.total, s.detail) for s in sheet.standings] == [
        ("Them", 1, "1 round won, 20 points"),
        ("Us", 1, "1 round won, 15 points"),
    ]
    assert [s.rank for s in sheet.standings] == [1, 2]
    assert VARIANT.state(setup, round_1).next_round is not None
    assert "Round 2, hand 1 of 4" in VARIANT.state(setup, round_1).next_round.note  # type: ignore[union-attr]


def test_equal_rounds_and_points_is_a_tie() -> None:
    # The game at one table reports the tie; the tournament's one-game playoff is the format's business.
    setup = make_setup({"rounds": 2})
    round_1 = [hand(0, 5, 11), hand(0, 4, 10), hand(1, 4, 10), hand(3, 4, 10)]  # Us 9, Them 8
    round_2 = [hand(1, 5, 11), hand(3, 4, 10), hand(0, 4, 10), hand(2, 4, 10)]  # Us 8, Them 9
    sheet = VARIANT.score(setup, round_1 + round_2)
    assert sheet.finished and sheet.winners == (0, 1)
    assert [(s.total, s.rank) for s in sheet.standings] == [(1, 1), (1, 1)]
    assert sheet.summary == "Tie: Us and Them, 1-1 in rounds, 17-17 in points"


def test_a_boston_can_win_the_round_outright() -> None:
    # RULES-NOTES option: "a Boston ... wins the round outright"; the round ends there.
    setup = make_setup({"rounds": 2, "boston": "wins"})
    hands = [hand(1, 6, 12, kind="no"), hand(0, 4, 13)]  # Them 12, then Us 7 with a Boston
    sheet = VARIANT.score(setup, hands)
    assert totals(sheet) == [(0, 12), (7, 12)]
    assert sheet.lines[-1].note.endswith("; round 1 to Us by a Boston, 7-12")
    state = VARIANT.state(setup, hands)
    assert state.next_round is not None and "Round 2, hand 1 of 4" in state.next_round.note
    assert state.next_round.dealer == 2  # the deal still passes left every hand
    finished = VARIANT.score(make_setup({"boston": "wins"}), hands)
    assert finished.finished and finished.winners == (0,)
    # the Boston's side is first with fewer points: the round it won says why
    assert [(s.name, s.total, s.detail) for s in finished.standings] == [
        ("Us", 7, "1 round won"),
        ("Them", 12, "0 rounds won"),
    ]


def test_without_the_option_a_boston_just_scores() -> None:
    sheet = VARIANT.score(make_setup(), [hand(0, 4, 13)])
    assert not sheet.finished and sheet.lines[0].note.endswith("; a Boston (all 13 books)")


# --------------------------------------------------------------------------- play to points (home game)


def test_home_game_to_seven() -> None:
    # Home play: "the first side to reach it wins"; only one side scores a hand, so no ties.
    setup = make_setup({"play_to": "points"})
    hands = [hand(1, 5, 10), hand(0, 4, 9), hand(1, 4, 11, kind="no")]  # Us 5; Them 4; Them 10
    sheet = VARIANT.score(setup, hands)
    assert totals(sheet) == [(5, 0), (5, 4), (5, 14)]
    assert sheet.finished and sheet.winners == (1,)
    assert [(s.name, s.total) for s in sheet.standings] == [("Them", 14), ("Us", 5)]
    assert sheet.lines[-1].note.endswith("; game to Them, 14-5")
    assert not VARIANT.score(setup, hands[:2]).finished
    assert VARIANT.round_count(setup) is None


def test_target_option() -> None:
    setup = make_setup({"play_to": "points", "target": 12})
    assert VARIANT.score(setup, [hand(0, 4, 11, kind="no")]).finished is False  # 10 < 12
    assert VARIANT.score(setup, [hand(0, 4, 11, kind="no"), hand(2, 4, 10)]).winners == (0,)  # 14


def test_a_boston_can_win_a_home_game_with_fewer_points() -> None:
    setup = make_setup({"play_to": "points", "boston": "wins", "made_scores": "bid"})
    sheet = VARIANT.score(setup, [hand(1, 6, 12), hand(0, 4, 13)])  # Them 6, Us 4 with a Boston
    assert sheet.finished and sheet.winners == (0,)
    assert [(s.name, s.total, s.rank, s.detail) for s in sheet.standings] == [
        ("Us", 4, 1, "won by a Boston"),
        ("Them", 6, 2, ""),
    ]
    assert sheet.lines[-1].note.endswith("; the Boston wins the game for Us")


# --------------------------------------------------------------------------- schedule


def test_the_deal_passes_left_and_bidding_starts_left_of_the_dealer() -> None:
    setup = make_setup(first_dealer=2)
    specs = [VARIANT.round_spec(setup, n) for n in (1, 2, 3, 4, 5)]
    assert [(s.dealer, s.first_bidder, s.cards) for s in specs] == [
        (2, 3, 12),
        (3, 0, 12),
        (0, 1, 12),
        (1, 2, 12),
        (2, 3, 12),
    ]
    assert (specs[0].dealer, specs[0].first_bidder, specs[0].note, specs[0].trump) == (2, 3, "", None)
    with pytest.raises(RuleError):
        VARIANT.round_spec(setup, 0)


def test_round_count() -> None:
    assert VARIANT.round_count(make_setup()) == 4
    assert VARIANT.round_count(make_setup({"rounds": 3})) == 12


# --------------------------------------------------------------------------- state


def test_state_before_anything_is_entered() -> None:
    state = VARIANT.state(make_setup(first_dealer=3), [])
    assert (state.step, state.to_act, state.legal_bids, state.over) == ("bids", 0, (4, 5, 6, 7), False)
    assert state.next_round is not None and state.next_round.note == ""  # one round: "Hand 1 of 4" says it
    several = VARIANT.state(make_setup({"rounds": 2}, first_dealer=3), []).next_round
    assert several is not None and several.note == "Round 1, hand 1 of 4."
    assert state.missing[0] == "Ann's call: pass, or bid 4 or more (plain, Special or No)"
    assert state.missing[1] == "the calls of Bob, Cat, Dan"


@pytest.mark.parametrize(
    "auction, to_act, legal, words",
    [
        ([call(4)], 2, (4, 5, 6, 7), "Cat's call: pass, or bid 4 No, or 5 or more"),
        ([call(4, "special"), None], 3, (4, 5, 6, 7), "Dan's call: pass, or bid 4 No, or 5 or more"),
        ([call(4, "no")], 2, (5, 6, 7), "Cat's call: pass, or bid 5 or more"),
        ([call(6), call(7)], 3, (7,), "Dan's call: pass, or bid 7 No"),
        ([call(7, "no")], 2, (), "Cat's call: pass (nothing outranks 7 No)"),
        (
            [None, None, None],
            0,
            (4, 5, 6, 7),
            "Ann's call: the other three passed, so Ann (dealer) must bid 4 or more (plain, Special or No)",
        ),
    ],
)
def test_state_during_the_auction(auction: list[object], to_act: int, legal: tuple[int, ...], words: str) -> None:
    state = VARIANT.state(make_setup(), [], {"auction": auction})
    assert (state.step, state.to_act, state.legal_bids) == ("bids", to_act, legal)
    assert state.missing[0] == words


def test_state_after_the_auction() -> None:
    auction = [call(4), None, call(5, "no"), None]
    state = VARIANT.state(make_setup(), [], {"auction": auction})
    assert (state.step, state.to_act) == ("result", None)
    assert state.missing == (
        "who won the bid",
        "the winning bid and its kind (plain, Special or No)",
        "the books taken by the bidding side, the kitty counting as one",
    )
    state = VARIANT.state(make_setup(), [], {"auction": auction, "bidder": 3, "bid": 5, "kind": "no"})
    assert state.missing == (
        "the direction the No bidder declares (uptown or downtown)",
        "the books taken by the bidding side, the kitty counting as one",
    )
    done = {"auction": auction, "bidder": 3, "bid": 5, "kind": "no", "direction": "uptown", "books": 11}
    assert VARIANT.state(make_setup(), [], done).missing == ()


def test_state_without_an_auction() -> None:
    state = VARIANT.state(make_setup(), [], {"bidder": 2, "bid": 4, "kind": "plain"})
    assert state.step == "result" and state.missing == (
        "the books taken by the bidding side, the kitty counting as one",
    )
    assert VARIANT.state(make_setup(), [], {"books": 10}).step == "bids"


@pytest.mark.parametrize(
    "pending, field",
    [
        ({"auction": [call(5), call(5, "special")]}, "auction.1"),
        ({"auction": [None, None, None, None]}, "auction.3"),
        ({"auction": [call(4), None, call(5), None], "bidder": 1}, "bidder"),
        ({"bidder": 1, "bid": 5, "kind": "no", "trump": "S"}, "trump"),
        ({"books": 14}, "books"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_illegal_partial_entries_are_refused(pending: Hand, field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        VARIANT.state(make_setup(), [], pending)
    assert [f for f, _ in errors_of(caught)] == [field]


def test_state_when_the_game_is_over() -> None:
    state = VARIANT.state(make_setup({"play_to": "points"}), [hand(1, 7, 13)])
    assert (state.step, state.over, state.winners, state.next_round) == ("over", True, (1,), None)


# --------------------------------------------------------------------------- properties

DOC_ORDER = [  # section VIII, lowest first; plain and Special of a number share a place
    {(4, "plain"), (4, "special")},
    {(4, "no")},
    {(5, "plain"), (5, "special")},
    {(5, "no")},
    {(6, "plain"), (6, "special")},
    {(6, "no")},
    {(7, "plain"), (7, "special")},
    {(7, "no")},
]


def doc_level(bid: int, kind: str) -> int:
    return next(i for i, place in enumerate(DOC_ORDER) if (bid, kind) in place)


bids = st.integers(4, 7)
kinds = st.sampled_from(["plain", "special", "no"])


@st.composite
def legal_hands(draw: st.DrawFn) -> Hand:
    kind = draw(kinds)
    entry = hand(draw(st.integers(0, 3)), draw(bids), draw(st.integers(1, 13)), kind=kind)
    if kind == "no":
        entry["direction"] = draw(st.sampled_from(["uptown", "downtown"]))
    elif draw(st.booleans()):
        entry["trump"] = draw(st.sampled_from(["H", "D", "C", "S"]))
    if draw(st.booleans()):
        offender = draw(st.integers(0, 1))
        entry["renege"] = {
            "offender": offender,
            "called_by": 1 - offender + 2 * draw(st.integers(0, 1)),
            "upheld": draw(st.booleans()),
        }
    return entry


@given(legal_hands(), st.sampled_from(["books", "bid"]), st.sampled_from(["off", "bonus"]))
@settings(max_examples=150, deadline=None)
def test_points_go_to_exactly_one_side(entry: Hand, made_scores: str, boston: str) -> None:
    points = one_hand(entry, made_scores=made_scores, boston=boston)
    assert sorted(points)[0] == 0 and sorted(points)[1] > 0


@given(legal_hands(), st.sampled_from(["books", "bid"]))
@settings(max_examples=150, deadline=None)
def test_no_trump_points_are_double(entry: Hand, made_scores: str) -> None:
    trumps = {k: v for k, v in entry.items() if k not in ("direction", "trump")}
    plain, no = dict(trumps, kind="plain"), dict(trumps, kind="no", direction="downtown")
    plain_points, no_points = one_hand(plain, made_scores=made_scores), one_hand(no, made_scores=made_scores)
    assert no_points == (2 * plain_points[0], 2 * plain_points[1])


@given(legal_hands())
@settings(max_examples=150, deadline=None)
def test_a_set_gives_the_bid_to_the_defenders(entry: Hand) -> None:
    bid, books, bidder = entry["bid"], entry["books"], entry["bidder"]
    assert isinstance(bid, int) and isinstance(books, int) and isinstance(bidder, int)
    renege = entry.get("renege")
    assume(not (isinstance(renege, dict) and renege["upheld"]))
    assume(books < 6 + bid)
    points = [0, 0]
    points[1 - bidder % 2] = bid * (2 if entry["kind"] == "no" else 1)
    assert one_hand(entry) == tuple(points)


calls = st.tuples(bids, kinds)


@given(calls, calls)
@settings(max_examples=150, deadline=None)
def test_rank_is_a_strict_order_but_plain_equals_special(a: tuple[int, str], b: tuple[int, str]) -> None:
    ca, cb = Call(a[0], Kind(a[1])), Call(b[0], Kind(b[1]))
    same_place = a[0] == b[0] and "no" not in (a[1], b[1]) or a == b
    assert [ca.outranks(cb), cb.outranks(ca), same_place].count(True) == 1
    assert ca.outranks(cb) == (doc_level(*a) > doc_level(*b))
    # and the auction [a, b] is accepted exactly when b outranks a by the document's list
    entry = hand(2, b[0], 10, kind=b[1], auction=[call(*a), call(*b), None, None])
    if doc_level(*b) > doc_level(*a):
        VARIANT.check_hand(make_setup(), [], entry)
    else:
        assert [f for f, _ in refused(entry)] == ["auction.1"]


@st.composite
def auctions(draw: st.DrawFn) -> list[tuple[int, str] | None]:
    """Four calls made by the document's rank alone: pass, or anything placed above the last bid."""
    made: list[tuple[int, str] | None] = []
    level = -1
    for position in range(4):
        higher = [c for c in [(b, k) for b in range(4, 8) for k in ("plain", "special", "no")] if doc_level(*c) > level]
        must_bid = position == 3 and level < 0
        if higher and (must_bid or draw(st.booleans())):
            choice = draw(st.sampled_from(higher))
            made.append(choice)
            level = doc_level(*choice)
        else:
            made.append(None)
    return made


@given(auctions(), st.integers(0, 3), st.integers(1, 4), calls)
@settings(max_examples=150, deadline=None)
def test_random_legal_auctions_validate(
    made: list[tuple[int, str] | None], dealer: int, cut: int, extra: tuple[int, str]
) -> None:
    setup = make_setup(first_dealer=dealer)
    raw = [None if c is None else call(*c) for c in made]
    last = max(i for i, c in enumerate(made) if c is not None)
    winner = made[last]
    assert winner is not None
    VARIANT.check_hand(setup, [], hand((dealer + 1 + last) % 4, winner[0], 10, kind=winner[1], auction=raw))
    # part-way through, any call placed above the last bid is legal and among legal_bids
    prefix = raw[: cut - 1]
    top = max((doc_level(*c) for c in made[: cut - 1] if c is not None), default=-1)
    if doc_level(*extra) > top:
        assert extra[0] in VARIANT.state(setup, [], {"auction": prefix}).legal_bids
        VARIANT.state(setup, [], {"auction": prefix + [call(*extra)]})
    else:
        with pytest.raises(RuleErrors):
            VARIANT.state(setup, [], {"auction": prefix + [call(*extra)]})


@given(st.lists(legal_hands(), min_size=4, max_size=4))
@settings(max_examples=100, deadline=None)
def test_the_round_goes_to_the_side_with_more_points(round_: list[Hand]) -> None:
    setup = make_setup()
    sheet = VARIANT.score(setup, round_)
    us = sum(line.cells[0].points for line in sheet.lines)
    them = sum(line.cells[1].points for line in sheet.lines)
    if us == them:
        state = VARIANT.state(setup, round_)
        assert not sheet.finished and state.next_round is not None and state.next_round.kind is RoundKind.PLAYOFF
    else:
        assert sheet.finished and sheet.winners == ((0,) if us > them else (1,))


# --------------------------------------------------------------------------- examples


def _examples() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("bid_whist-*.json") if not p.name.endswith(".expected.json"))


def test_there_are_examples_covering_the_options() -> None:
    options = [json.loads(p.read_text())["options"] for p in _examples()]
    assert len(options) >= 3
    assert {} in options and any(o.get("play_to") == "points" for o in options)
    assert any(o.get("rounds", 1) > 1 for o in options)


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.stem)
def test_examples_match_their_hand_computed_sidecars(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    sheet = score_record(json.loads(path.read_text()))
    assert sheet.finished == expected["finished"]
    assert sorted(sheet.columns[w] for w in sheet.winners) == sorted(expected["winners"])
    assert {s.name: s.total for s in sheet.standings} == expected["totals"]


def test_the_tied_round_example_has_its_extra_hand() -> None:
    sheet = score_record(json.loads((EXAMPLES / "bid_whist-three-rounds-tied-round.json").read_text()))
    assert [line.number for line in sheet.lines if line.spec.kind is RoundKind.PLAYOFF] == [9]
    assert totals(sheet)[-1] == (38, 31)  # worked by hand in the record's hands
