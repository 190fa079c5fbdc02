"""Issue 15: the rules' words can be said in another language while the rules stay pure. A
`Message` is its English text (so records, the command line and every test read as before) and
carries the template and params the web layer translates. Nomination Whist says everything
through them: every rule error it raises, its options, its sheet's words."""

from __future__ import annotations

import pickle

import pytest

from scorepad.rules.base import RuleError, RuleErrors, Setup, resolve_options
from scorepad.rules.errors import M, Message, joined
from scorepad.rules.nomination import VARIANT
from scorepad.rules.record import parse_record

FOUR = ("Ann", "Bob", "Cat", "Dan")


def test_a_message_is_its_english_text_and_keeps_what_it_was_made_from() -> None:
    said = M("%(name)s bids %(bid)s", name="Ann", bid=3)
    assert said == "Ann bids 3" and str(said) == "Ann bids 3" and isinstance(said, str)
    assert said.template == "%(name)s bids %(bid)s" and said.params == {"name": "Ann", "bid": 3}
    assert M("Hearts") == "Hearts" and M("Hearts").params == {}
    assert M("50%% of %(n)s", n=4) == "50% of 4"
    copy = pickle.loads(pickle.dumps(said))
    assert copy == said and copy.template == said.template and copy.params == said.params


def test_joined_words_have_nothing_of_their_own_to_translate() -> None:
    words = joined([M("Hearts"), "Bob's 100%", M("Spades")])
    assert words == "Hearts, Bob's 100%, Spades" and words.template == "%(0)s, %(1)s, %(2)s"
    assert joined(["a", "b"], " % ") == "a % b" and joined([]) == ""


def setup(players: tuple[str, ...] = FOUR, first_dealer: int = 0, **options: object) -> Setup:
    return Setup("nomination", resolve_options(VARIANT.option_specs, options), players, first_dealer=first_dealer)


def errors_of(call: object) -> list[RuleError]:
    assert callable(call)
    with pytest.raises((RuleError, RuleErrors)) as caught:
        call()
    error = caught.value
    return list(error.errors) if isinstance(error, RuleErrors) else [error]


ONE_ROUND = dict(sequence="custom", custom_sequence=[4])
BAD_HANDS: list[object] = [
    "not a hand",
    {"trump": "X", "bids": [1, 1, 1, 1], "tricks": [1, 1, 1, 1]},
    {"trump": 7, "bids": [1, 1, 1], "tricks": [1, 1, 1, 1]},
    {"bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 1]},
    {"trump": "S", "bids": "many", "tricks": [2, 2, 2, 2], "extra": 1},
    {"trump": "NTH", "tricks": [1.5, -1, 9, 1]},
    {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [1, 1, 1, 1]},  # the hook: Ann may not bid 1
    {"trump": "S", "bids": [0, None, 1, 1], "tricks": [4, 0, 0, 0]},
]


@pytest.mark.parametrize("hand", BAD_HANDS)
def test_every_error_in_a_nomination_hand_is_a_message(hand: object) -> None:
    found = errors_of(lambda: VARIANT.check_hand(setup(**ONE_ROUND), [], hand))  # type: ignore[arg-type]
    assert found and all(isinstance(e.message, Message) for e in found), [(e.field, e.message) for e in found]


def test_every_error_in_a_nomination_set_up_is_a_message() -> None:
    found = errors_of(
        lambda: parse_record(
            {
                "variant": "nomination",
                "players": ["Ann", "ann", " ", "x" * 99],
                "first_dealer": 9,
                "options": {"cycles": 9, "hook": "never", "custom_sequence": [0], "nope": 1},
            }
        )
    )
    found += errors_of(
        lambda: VARIANT.check_setup(
            Setup("nomination", resolve_options(VARIANT.option_specs, {}), ("Ann", "Bob"), first_dealer=5)
        )
    )
    found += errors_of(
        lambda: VARIANT.check_hand(
            setup(**ONE_ROUND), [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 1]}], {}
        )
    )
    assert len(found) >= 6 and all(isinstance(e.message, Message) for e in found), [
        (e.field, e.message) for e in found if not isinstance(e.message, Message)
    ]


def test_the_options_and_the_sheet_speak_in_messages() -> None:
    for spec in VARIANT.option_specs:
        assert isinstance(spec.label, Message) and isinstance(spec.help, Message)
        assert all(isinstance(choice.label, Message) for choice in spec.choices)
    sheet = VARIANT.score(setup(**ONE_ROUND), [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 1]}])
    assert isinstance(sheet.summary, Message) and sheet.summary == "Tie: Ann, Bob and Cat with 11 each"
    assert all(isinstance(s.detail, Message) for s in sheet.standings)
    assert all(isinstance(c.detail, Message) for c in sheet.lines[0].cells)
    assert isinstance(VARIANT.summary, Message)


# --------------------------------------------------------------------------- Military Whist


MILITARY_BAD_HANDS: list[object] = [
    "not a hand",
    {
        "results": "all",
        "moves": [1, 1, 9],
        "loans": "x",
        "returns": [{"table": 9, "oops": 1}],
        "playoff": {},
        "extra": 1,
    },
    {"results": [{"tricks": 14, "revoke": "both", "x": 1}, None, [], {"revoke": "home"}]},
    {
        "results": [{"tricks": 13}, {"tricks": 13}, {"tricks": 13}, {"tricks": 13}],
        "moves": [2, 1, 3, 4],
        "loans": [{"table": 1, "flags": 1}, {"table": 1, "flags": 2}],
        "returns": [{"table": 2, "flags": 3}],
    },
]


@pytest.mark.parametrize("raw", MILITARY_BAD_HANDS)
def test_every_error_in_a_military_hand_is_a_message(raw: object) -> None:
    from scorepad.rules.military import VARIANT as MILITARY
    from tests.rules.test_military import make_setup

    found = errors_of(lambda: MILITARY.check_hand(make_setup(loans="manual"), [], raw))  # type: ignore[arg-type]
    assert found and all(isinstance(e.message, Message) for e in found), [(e.field, e.message) for e in found]


def test_the_military_options_sheet_and_playoff_speak_in_messages() -> None:
    from scorepad.rules.military import VARIANT as MILITARY
    from tests.rules.test_military import hand, make_setup

    for spec in MILITARY.option_specs:
        assert isinstance(spec.label, Message) and isinstance(spec.help, Message)
        assert all(isinstance(choice.label, Message) for choice in spec.choices)
    setup = make_setup(tables=2, days=(1,))
    sheet = MILITARY.score(setup, [hand({"tricks": 10, "revoke": "home"}, 7)])
    assert isinstance(sheet.summary, Message) and isinstance(MILITARY.summary, Message)
    assert all(isinstance(c.detail, Message) for c in sheet.lines[0].cells)
    assert (
        isinstance(sheet.lines[0].note, Message)
        and "Revoke by the home pair at table 1: 2 tricks" in sheet.lines[0].note
    )
    tied = make_setup(tables=3, days=(1,))
    state = MILITARY.state(tied, [hand(0, 0, 0)])
    assert state.missing and all(isinstance(m, Message) for m in state.missing)
    found = errors_of(lambda: MILITARY.check_hand(tied, [hand(0, 0, 0)], {"playoff": {"teams": [1, 1], "bye": 2}}))
    found += errors_of(lambda: MILITARY.check_setup(Setup("military", tied.options, ("Ann",), first_dealer=2)))
    assert len(found) >= 3 and all(isinstance(e.message, Message) for e in found), [(e.field, e.message) for e in found]


# --------------------------------------------------------------------------- Bid Whist


def bid_whist_setup(**options: object) -> Setup:
    from scorepad.rules import bid_whist
    from scorepad.rules.base import Team

    teams = (Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan")))
    return Setup("bid_whist", resolve_options(bid_whist.VARIANT.option_specs, options), (), teams, 0)


BAD_BID_WHIST_HANDS: list[object] = [
    "not a hand",
    {"bidder": 9, "bid": 3, "kind": "plain", "books": 14, "extra": 1},
    {"bidder": 1, "bid": 5, "kind": "no", "books": 11, "trump": "H"},  # no trump named on a No bid, no direction
    {
        "bidder": 1,
        "bid": 5,
        "kind": "plain",
        "direction": "downtown",
        "books": 11,
        "renege": {"offender": 1, "called_by": 1, "upheld": True},
    },
    {
        "bidder": 1,
        "bid": 5,
        "kind": "special",
        "books": 11,
        "auction": [{"bid": 5, "kind": "plain"}, {"bid": 5, "kind": "special"}, None, None],
    },  # does not take out
    {"bidder": 2, "bid": 4, "kind": "plain", "books": 11, "auction": [None, None, None, None]},  # the dealer must bid
]


@pytest.mark.parametrize("hand", BAD_BID_WHIST_HANDS)
def test_every_error_in_a_bid_whist_hand_is_a_message(hand: object) -> None:
    from scorepad.rules.bid_whist import VARIANT as BID_WHIST

    found = errors_of(lambda: BID_WHIST.check_hand(bid_whist_setup(), [], hand))  # type: ignore[arg-type]
    assert found and all(isinstance(e.message, Message) for e in found), [(e.field, e.message) for e in found]


def test_a_bid_whist_sheet_speaks_in_messages_and_reads_as_before() -> None:
    from scorepad.rules.bid_whist import VARIANT as BID_WHIST

    hands = [
        {"bidder": 1, "bid": 4, "kind": "no", "direction": "downtown", "books": 11},
        {"bidder": 2, "bid": 5, "kind": "plain", "trump": "H", "books": 9},
    ]
    sheet = BID_WHIST.score(bid_whist_setup(play_to="points", target=20), hands)
    assert sheet.lines[0].note == "Them made 4 No downtown with 11 books: Them score 10 (No bid, doubled)"
    assert sheet.lines[1].note == "Set: Us took 9 of the 11 books 5 ♥ needs; Them score 5"
    assert all(isinstance(line.note, Message) for line in sheet.lines)
    defenders = sheet.lines[1].cells[1].detail
    assert defenders == "set" and isinstance(defenders, Message) and defenders.template == "set"
    assert sheet.lines[1].cells[0].detail == "bid 5 ♥ · took 9"
    assert sheet.summary == "In play after 2 hands: Us v Them 0-15" and isinstance(sheet.summary, Message)
    assert isinstance(sheet.scoreboard.heading, Message) and sheet.scoreboard.heading == "First to 20 points"
