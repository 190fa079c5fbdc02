"""The shared vocabulary: options, ranking with ties, the hook rule helpers, record parsing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.rules import VARIANT_MODULES, get_variant, record
from scorepad.rules.base import (
    Choice,
    FactSpec,
    Options,
    OptionSpec,
    OptionValue,
    RuleError,
    RuleErrors,
    Setup,
    StatsFacts,
    Team,
    Variant,
    describe_in_force,
    describe_options,
    quoted,
    rank,
    resolve_options,
)
from scorepad.rules.bidding import check_bids, check_trick_total, hook_forbidden, legal_bids, parse_counts
from scorepad.rules.cards import SUITS, Trump, parse_trump
from scorepad.rules.record import HANDS_MAX, parse_record, score_record, to_json

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

SPECS = (
    OptionSpec("target", "Points for game", 5, minimum=1, maximum=99),
    OptionSpec("honours", "Score honours", False),
    OptionSpec(
        "hook", "Hook rule", "four_plus", choices=(Choice("four_plus", "4+ cards"), Choice("every", "Every round"))
    ),
    OptionSpec("custom", "Card sequence", (1, 2, 3), minimum=1, maximum=13, max_items=5),
)


def test_defaults_fill_missing_options() -> None:
    options = resolve_options(SPECS, {"target": 7})
    assert options.get_int("target") == 7
    assert options.get_bool("honours") is False
    assert options.get_ints("custom") == (1, 2, 3)
    assert options.as_json()["custom"] == [1, 2, 3]


@pytest.mark.parametrize(
    "raw, field, words",
    [
        ({"target": 0}, "options.target", "at least 1"),
        ({"target": "5"}, "options.target", "whole number"),
        ({"target": True}, "options.target", "whole number"),
        ({"honours": "yes"}, "options.honours", "true or false"),
        ({"hook": "sometimes"}, "options.hook", '"4+ cards" or "Every round"'),
        ({"custom": []}, "options.custom", "non-empty list"),
        ({"custom": [1, 14]}, "options.custom", "at most 13"),
        ({"custom": [1] * 6}, "options.custom", "Card sequence: at most 5 values, not 6"),
        (
            {"custom": ["x"] * 10_000},
            "options.custom",
            "at most 5 values, not 10000",
        ),  # counted before any item is read
        ({"colour": "red"}, "options.colour", "not an option"),
    ],
)
def test_bad_options_are_refused_with_the_field(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(SPECS, raw)
    [error] = caught.value.errors
    assert error.field == field and words in error.message


def test_all_bad_options_are_reported_together() -> None:
    with pytest.raises(RuleErrors) as caught:
        resolve_options(SPECS, {"target": 0, "honours": 1})
    assert [e.field for e in caught.value.errors] == ["options.target", "options.honours"]


def test_option_values_in_words() -> None:
    assert SPECS[1].describe(True) == "yes"
    assert SPECS[2].describe("every") == "Every round"
    assert SPECS[3].describe((7, 6)) == "7, 6"


@pytest.mark.parametrize(
    "key, raw, shown, left_out",
    [
        # Whist: a rubber says nothing of whist-drive scoring or the fifth deal's no trumps (turned-up trumps)
        (
            "whist",
            {},
            ["Points for game", "Score honours", "Play a rubber", "Trumps"],
            ["Fixed number of deals (whist drive)", "Whist drive scoring", "No trumps every fifth deal"],
        ),
        # ... and a whist drive nothing of game, rubber or honours
        (
            "whist",
            {"deals": 20, "trumps": "sequence", "no_trump_fifth": True},
            ["Trumps", "No trumps every fifth deal", "Fixed number of deals (whist drive)", "Whist drive scoring"],
            ["Points for game", "Score honours", "Play a rubber"],
        ),
        (
            "nomination",
            {},
            ["Cards per round", "Times through the sequence", "Hook rule", "Trumps"],
            ["Custom list of cards per round"],
        ),
        (
            "nomination",
            {"sequence": "custom", "custom_sequence": [3, 2, 1]},
            ["Cards per round", "Custom list of cards per round"],
            [],
        ),
        (
            "bid_whist",
            {"play_to": "points"},
            ["Play", "Points for game", "Boston (all 13 books)"],
            ["Rounds", "Boston bonus"],
        ),
        ("bid_whist", {"boston": "bonus"}, ["Rounds", "Boston bonus"], ["Points for game"]),
        ("australian", {}, ["Trumps after the suitless rounds", "Remote play with several packs"], []),
    ],
)
def test_the_options_in_force_leave_out_those_that_do_not_matter(
    key: str, raw: dict[str, object], shown: list[str], left_out: list[str]
) -> None:
    specs = get_variant(key).option_specs
    options = resolve_options(specs, raw)
    labels = [label for label, _ in describe_in_force(specs, options)]
    assert set(shown) <= set(labels) and not set(left_out) & set(labels), labels
    assert [label for label, _ in describe_options(specs, options)] == [s.label for s in specs]  # every one


def test_equal_totals_share_a_rank() -> None:
    standings = rank([10, 30, 10, 5], ["A", "B", "C", "D"])
    assert [(s.name, s.rank) for s in standings] == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]


def test_rank_lower_is_better() -> None:
    assert [s.name for s in rank([3, 1, 2], ["A", "B", "C"], higher_is_better=False)] == ["B", "C", "A"]


# Australian Whist document: "Player 1 bids 1 trick, Player 2 bids 1 trick and Player 3 bids 0 tricks.
# The total number of tricks bid so far is 2 thus preventing the fourth player bidding 2 tricks -
# but they could bid 0, 1, 3 or 4 tricks."
def test_hook_rule_worked_example_from_the_australian_document() -> None:
    assert hook_forbidden(4, [1, 1, 0]) == 2
    assert legal_bids(4, [1, 1, 0], seats=4, hook=True) == (0, 1, 3, 4)
    assert legal_bids(4, [1, 1], seats=4, hook=True) == (0, 1, 2, 3, 4)  # not the last bidder


def test_hook_rule_forbids_nothing_once_the_total_is_passed() -> None:
    assert hook_forbidden(3, [2, 2]) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 13), st.lists(st.integers(0, 13), min_size=1, max_size=6))
def test_hook_rule_always_leaves_a_legal_bid(cards: int, earlier: list[int]) -> None:
    earlier = [min(b, cards) for b in earlier]
    bids = legal_bids(cards, earlier, seats=len(earlier) + 1, hook=True)
    assert bids and all(sum(earlier) + b != cards for b in bids)


def test_check_bids_names_the_last_bidder() -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    # first bidder Bob (seat 1): Bob 1, Cat 1, Dan 0, Ann last may not bid 2
    with pytest.raises(RuleError) as caught:
        check_bids([2, 1, 1, 0], names, cards=4, first_bidder=1, hook=True)
    assert caught.value.field == "bids.0"
    assert "Ann bids last and may not bid 2" in caught.value.message
    check_bids([3, 1, 1, 0], names, cards=4, first_bidder=1, hook=True)


def test_check_bids_refuses_a_bid_out_of_turn() -> None:
    with pytest.raises(RuleError, match="Cat cannot bid before Bob"):
        check_bids([None, None, 1, None], ["Ann", "Bob", "Cat", "Dan"], cards=4, first_bidder=1, hook=True)


def test_trick_counts_must_add_up() -> None:
    with pytest.raises(RuleError, match="add up to 3 but there are 4 tricks"):
        check_trick_total([1, 1, 1, 0], 4)


@pytest.mark.parametrize(
    "raw, words",
    [
        ("3", "as a list"),
        ([1, 2], "for all 3 players"),
        ([1, "x", 0], "Bob's tricks must be a whole number"),
        ([1, 9, 0], "Bob's tricks must be between 0 and 5"),
    ],
)
def test_parse_counts_messages(raw: object, words: str) -> None:
    with pytest.raises((RuleError, RuleErrors), match=words):
        parse_counts(raw, "tricks", ["Ann", "Bob", "Cat"], maximum=5)


def test_trumps_parse_only_allowed_kinds() -> None:
    assert parse_trump("h", "trump") is Trump.HEARTS
    with pytest.raises(RuleError, match="not allowed"):
        parse_trump("NT", "trump", SUITS)
    with pytest.raises(RuleError, match="not a trump"):
        parse_trump("Z", "trump")


RECORD = {
    "scorepad": 1,
    "variant": "nomination",
    "title": "Sunday",
    "players": [" Ann ", "Bob", "Cat"],
    "first_dealer": 2,
    "hands": [],
}


def test_record_round_trips_through_json() -> None:
    record = parse_record(RECORD)
    assert record.setup.players == ("Ann", "Bob", "Cat")
    again = parse_record(to_json(record))
    assert again.setup == record.setup and again.title == "Sunday"


@pytest.mark.parametrize(
    "change, field",
    [
        ({"scorepad": 2}, "scorepad"),
        ({"players": ["Ann", "ann", "Cat"]}, "players.1"),
        ({"players": ["Ann", "", "Cat"]}, "players.1"),
        ({"players": ["Ann", "x" * 41, "Cat"]}, "players.1"),
        ({"first_dealer": "Ann"}, "first_dealer"),
        ({"hands": {}}, "hands"),
        ({"colour": 1}, "colour"),
        ({"options": []}, "options"),
    ],
)
def test_record_problems_name_their_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        parse_record({**RECORD, **change})
    assert field in [e.field for e in caught.value.errors]


def test_unknown_variant_is_named() -> None:
    with pytest.raises(RuleErrors, match="'bridge' is not a known variant"):
        parse_record({**RECORD, "variant": "bridge"})


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"title": 5}, "title", "the title is free text"),
        ({"title": None}, "title", "the title is free text"),
        ({"played": ["2026", "03", "08"]}, "played", 'when it was played ("played") is free text'),
        ({"played": {"day": 8}}, "played", "is free text"),
    ],
)
def test_title_and_played_must_be_text(change: dict[str, object], field: str, words: str) -> None:
    # str() used to turn 5 into "5" and null into "None" on the sheet
    with pytest.raises(RuleErrors) as caught:
        parse_record({**RECORD, **change})
    assert [(e.field, words in e.message) for e in caught.value.errors] == [(field, True)]


def test_a_team_object_refuses_unknown_keys() -> None:
    record = {"variant": "whist", "teams": [{"name": "Us", "players": ["Ann", "Cat"], "seed": 1}, "Them"]}
    with pytest.raises(RuleErrors) as caught:
        parse_record(record)
    [error] = caught.value.errors
    assert error.field == "teams.0.seed"
    assert error.message == '\'seed\' is not part of a team: give its "name" and "players"'


def test_a_variant_that_is_not_a_name_is_refused() -> None:
    with pytest.raises(RuleErrors, match="the variant is a name in quotes, one of: whist, military"):
        parse_record({**RECORD, "variant": ["nomination"]})


BAD = "tri\ncks"  # a key or value a hand-edited file could hold; printed raw it splits a problem in two
SHOWN = repr(BAD)  # 'tri\ncks' with a backslash, on one line


def _example(name: str, hands: list[object] | None = None, **change: object) -> dict[str, object]:
    record: dict[str, object] = json.loads((EXAMPLES / f"{name}.json").read_text())
    if hands is not None:
        record["hands"] = hands
    return {**record, **change}


BID_WHIST_HAND = {"bidder": 3, "bid": 5, "kind": "plain", "trump": "C", "books": 10}


@pytest.mark.parametrize(
    "record, field",
    [
        pytest.param({**RECORD, BAD: 1}, "tri\\ncks", id="record"),
        pytest.param({**RECORD, "variant": BAD}, "variant", id="variant name"),
        pytest.param({**RECORD, "options": {BAD: 1}}, "options.tri\\ncks", id="option"),
        pytest.param({"variant": "whist", "teams": [{"name": "Us", BAD: 1}, "Them"]}, "teams.0.tri\\ncks", id="team"),
        pytest.param(
            _example("nomination-family-four", [{"trump": "H", "bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0], BAD: 1}]),
            "tri\\ncks",
            id="nomination",
        ),
        pytest.param(
            _example("nomination-family-four", [{"trump": BAD, "bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}]),
            "trump",
            id="trump",
        ),
        pytest.param(
            _example("australian-family-four", [{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0], BAD: 1}]),
            "tri\\ncks",
            id="australian",
        ),
        pytest.param(_example("whist-american", [{"tricks": [7, 6], "trump": "S", BAD: 1}]), "tri\\ncks", id="whist"),
        pytest.param(_example("bid_whist-home-to-seven", [{**BID_WHIST_HAND, BAD: 1}]), "tri\\ncks", id="bid whist"),
        pytest.param(
            _example(
                "bid_whist-home-to-seven",
                [{**BID_WHIST_HAND, "auction": [{"bid": 5, "kind": "plain", BAD: 1}, None, None, None]}],
            ),
            "auction.0.tri\\ncks",
            id="bid whist call",
        ),
        pytest.param(
            _example("military-club-day", [{"results": [{"tricks": 5}] * 4, BAD: 1}]), "tri\\ncks", id="military hand"
        ),
        pytest.param(
            _example("military-club-day", [{"results": [{"tricks": 5, BAD: 1}] + [{"tricks": 5}] * 3}]),
            "results.0.tri\\ncks",
            id="military result",
        ),
        pytest.param(
            _example("military-club-day", [{"results": [{"tricks": 5, "revoke": BAD}] + [{"tricks": 5}] * 3}]),
            "results.0.revoke",
            id="military revoke",
        ),
        pytest.param(
            _example(
                "military-club-day", [{"results": [{"tricks": 5}] * 4, "loans": [{"table": 1, "flags": 1, BAD: 1}]}]
            ),
            "loans.0.tri\\ncks",
            id="military loan",
        ),
    ],
)
def test_unknown_keys_and_values_are_quoted_on_one_line(record: dict[str, object], field: str) -> None:
    with pytest.raises(RuleErrors) as caught:
        score_record(record)
    [error] = [e for e in caught.value.errors if e.field == field]
    assert SHOWN in error.message
    assert all("\n" not in str(e) for e in caught.value.errors)


def test_military_playoff_keys_are_quoted_on_one_line() -> None:
    record = json.loads((EXAMPLES / "military-playoff.json").read_text())
    hands = record["hands"]
    record["hands"] = hands[:-1] + [{**hands[-1], BAD: 1}]
    with pytest.raises(RuleErrors) as caught:
        score_record(record)
    [error] = caught.value.errors
    assert error.field == "tri\\ncks" and error.message.startswith(f"{SHOWN} is not part of a playoff hand")
    record["hands"] = hands[:-1] + [{"playoff": {**hands[-1]["playoff"], BAD: 1}}]
    with pytest.raises(RuleErrors) as caught:
        score_record(record)
    [error] = caught.value.errors
    assert error.field == "playoff.tri\\ncks" and error.message == f"{SHOWN} is not part of a playoff hand"


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("x" * 100, "'" + "x" * 56 + "..."),
        (10**5000, "a value too large to show"),
        ("tri\ncks", "'tri\\ncks'"),
    ],
    ids=["long", "5000 digits", "newline"],
)
def test_quoted_stays_short_and_never_raises(raw: object, shown: str) -> None:
    # repr of a 5000-digit int raises ValueError: a message must never do that
    assert quoted(raw) == shown


def test_the_largest_set_up_of_every_variant_plans_at_most_a_record_of_hands() -> None:
    """Every option at its largest (a list option as long as it may be): no variant plans more
    hands than a game record holds (issue 33: a form's counts are capped so that derivation stays
    cheap). Nomination's largest is its 52-round list played 4 times."""
    planned = {}
    for key in VARIANT_MODULES:
        variant = get_variant(key)
        values: dict[str, OptionValue] = {}
        for spec in variant.option_specs:
            if isinstance(spec.default, tuple):
                assert spec.max_items is not None and spec.maximum is not None, f"{key}: {spec.key} has no cap"
                values[spec.key] = (spec.maximum,) * spec.max_items
            elif isinstance(spec.default, int) and not isinstance(spec.default, bool):
                assert spec.maximum is not None, f"{key}: {spec.key} has no cap"
                values[spec.key] = spec.maximum
            else:
                values[spec.key] = "custom" if spec.key == "sequence" else spec.default
        partners = key in ("whist", "bid_whist", "military")
        setup = Setup(
            key,
            Options(values),
            () if partners else ("Ann", "Bob", "Cat"),
            (Team("Us"), Team("Them")) if partners else (),
        )
        planned[key] = variant.round_count(setup)
    assert planned == {"whist": 200, "military": 500, "bid_whist": 80, "nomination": 208, "australian": 23}
    assert all(count is None or count <= HANDS_MAX for count in planned.values())


def test_a_set_up_planning_more_hands_than_a_record_holds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past each option's own cap, the options together: with records of 12 hands, Nomination's 13
    rounds up are refused, in the record's words."""
    monkeypatch.setattr(record, "HANDS_MAX", 12)
    with pytest.raises(RuleErrors) as caught:
        parse_record({"variant": "nomination", "players": ["Ann", "Bob", "Cat"]})
    assert [(e.field, e.message) for e in caught.value.errors] == [
        ("options", "these options plan 13 hands; a game holds at most 12")
    ]


# --------------------------------------------------------------------------- what every variant supplies


def protocol_members(protocol: type) -> set[str]:
    """A protocol's members: its annotated attributes and its methods."""
    return set(protocol.__annotations__) | {
        name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")
    }


VARIANT_FACTS = protocol_members(Variant)


def test_the_protocol_names_the_facts_the_app_reads() -> None:
    """The Variant protocol is the checklist a sixth variant fills (docs/architecture.md, "Adding a
    sixth variant"): who plays, its club night's ranking and its statistics are among them."""
    assert {
        "key",
        "name",
        "summary",
        "option_specs",
        "partnerships",
        "players",
        "club_ranked_by_points",
        "stats",
        "check_setup",
        "round_count",
        "round_spec",
        "check_hand",
        "score",
        "state",
    } <= VARIANT_FACTS


@pytest.mark.parametrize("key", VARIANT_MODULES)
def test_every_variant_supplies_every_fact(key: str) -> None:
    """Each registry entry gives each member of the protocol, of the kind the app reads."""
    variant = get_variant(key)
    missing = sorted(m for m in VARIANT_FACTS if not hasattr(variant, m))
    assert missing == [], f"{key} lacks {missing}"
    assert variant.key == key and variant.name and variant.summary
    assert all(isinstance(spec, OptionSpec) for spec in variant.option_specs)
    assert isinstance(variant.partnerships, bool) and isinstance(variant.club_ranked_by_points, bool)
    assert isinstance(variant.players, range) and variant.players.step == 1 and len(variant.players) >= 1
    assert variant.players[0] >= 2
    assert isinstance(variant.stats, StatsFacts)
    assert all(isinstance(f, FactSpec) for f in variant.stats.facts)
    assert len({f.key for f in variant.stats.facts}) == len(variant.stats.facts)
    assert callable(variant.stats.count) and callable(variant.stats.final_scores)
    for name in VARIANT_FACTS:
        if name not in Variant.__annotations__:
            assert callable(getattr(variant, name)), f"{key}.{name}"


def _names(count: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(count))


def _refused_on(variant: Variant, setup: Setup) -> set[str]:
    try:
        variant.check_setup(setup)
    except RuleErrors as e:
        return {error.field for error in e.errors}
    except RuleError as e:
        return {e.field}
    return set()


@pytest.mark.parametrize("key", VARIANT_MODULES)
def test_who_plays_is_what_check_setup_accepts(key: str) -> None:
    """`partnerships` and `players` are what the rules accept, not a copy that may drift: a team
    game refuses players given one by one, a game of players refuses teams; a game of players
    accepts its fewest and most and refuses one fewer and one more; a team game's examples seat a
    number of named players it allows."""
    variant = get_variant(key)
    options = resolve_options(variant.option_specs, {})
    if variant.partnerships:
        assert "players" in _refused_on(variant, Setup(key, options, _names(variant.players[0])))
        seated = [sum(len(t.players) for t in r.setup.teams) for r in _examples(key)]
        assert any(seated) and all(n in variant.players for n in seated if n), seated
        return
    assert "teams" in _refused_on(variant, Setup(key, options, _names(3), (Team("Us"), Team("Them"))))
    fewest, most = variant.players[0], variant.players[-1]
    assert _refused_on(variant, Setup(key, options, _names(fewest))) == set()
    assert _refused_on(variant, Setup(key, options, _names(most))) == set()
    assert "players" in _refused_on(variant, Setup(key, options, _names(fewest - 1)))
    assert "players" in _refused_on(variant, Setup(key, options, _names(most + 1)))


def _examples(key: str) -> list[record.Record]:
    return [
        parse_record(json.loads(path.read_text()))
        for path in sorted(EXAMPLES.glob(f"{key}-*.json"))
        if not path.stem.endswith(".expected")
    ]


@pytest.mark.parametrize("key", VARIANT_MODULES)
def test_a_variants_statistics_count_what_its_facts_name(key: str) -> None:
    """Every count a fact names (and what it is out of) is counted by the variant's `stats.count`
    over its example games, a whole number for each column; its final scores are one per column."""
    variant = get_variant(key)
    counted: set[str] = set()
    examples = _examples(key)
    assert examples, f"no docs/examples/{key}-*.json"
    for example in examples:
        sheet = variant.score(example.setup, example.hands)
        assert len(variant.stats.final_scores(example.setup, sheet)) == len(sheet.columns)
        for column in range(len(sheet.columns)):
            counts = variant.stats.count(example.setup, example.hands, sheet, column)
            assert all(isinstance(v, int) and v >= 0 for v in counts.values())
            counted |= set(counts)
    named = {f.count for f in variant.stats.facts} | {f.out_of for f in variant.stats.facts if f.out_of}
    assert named <= counted, f"{key} never counts {sorted(named - counted)}"


def test_a_set_up_is_read_once_per_object_and_never_kept_when_refused() -> None:
    """`per_setup` hands back what it read for the very same set-up object; another object, even an
    equal one, is read anew, and a set-up refused is refused again (nothing kept)."""
    from scorepad.rules.base import M, Options, Setup, per_setup

    reads: list[Setup] = []

    @per_setup
    def read(setup: Setup) -> tuple[str, ...]:
        reads.append(setup)
        if not setup.players:
            raise RuleErrors([RuleError("players", M("no players"))])
        return tuple(setup.players)

    one = Setup("nomination", Options({}), ("Ann", "Bob", "Cat"))
    assert read(one) is read(one) and len(reads) == 1
    equal = Setup("nomination", Options({}), ("Ann", "Bob", "Cat"))
    assert read(equal) == read(one) and len(reads) == 2
    empty = Setup("nomination", Options({}))
    for _ in range(2):
        with pytest.raises(RuleErrors):
            read(empty)
    assert len(reads) == 4
