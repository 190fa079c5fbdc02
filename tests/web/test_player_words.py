"""No internal name reaches a player (issue 14): a message names things as the screen does, never by
the record's keys ('direction', "options.bracket", first_dealer, bids.2).

Two sweeps. Every message a rule, service or view can raise is read from the source and checked;
and every home variant's forms are sent wrong in every way a phone can send them (empty, out of
range, half a renege, a correction that makes a later hand impossible), and what comes back on the
screen is checked.

The record format's own examples, such as {"bidder": 1, "books": 11}, are left alone in the source
sweep: they answer a record file sent to `scorepad score`, whose author writes those keys; the
screen sweep shows that no player meets them."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

from flask.testing import FlaskClient

from tests.web.test_games import FOUR, HX, hands_of, start

ROOT = Path(__file__).resolve().parents[2]

# 'direction', "options.bracket" (a quoted key); first_dealer (a key in its own words); bids.2 or
# options.target (a field's path); "hand 2, bids.1: ..." (a rule error printed whole).
QUOTED_KEY = re.compile(r"""(?<![A-Za-z])['"‘“][a-z][a-z0-9_.]*['"’”]""")
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
PATH = re.compile(r"\b[a-z_]{2,}\.[a-z0-9_]+\b")
WHOLE_ERROR = re.compile(r"\bhand \d+, [\w.]+:")


def internal_names(text: str, *, record_examples: bool = False) -> list[str]:
    """The internal names in a message. With `record_examples`, text in double quotes (the record
    format's examples) is left out of the unquoted checks, and only single-quoted keys count."""
    if record_examples:
        bare = re.sub(r'"[^"]*"', '""', text)
        quoted = [q for q in QUOTED_KEY.findall(text) if not q.startswith('"')]
    else:
        bare, quoted = text, QUOTED_KEY.findall(text)
    return quoted + SNAKE.findall(bare) + PATH.findall(bare) + WHOLE_ERROR.findall(text)


def test_the_check_itself() -> None:
    assert internal_names("the winner of a No bid declares uptown or downtown: give 'direction'")
    assert internal_names('choose the bracket: "options.bracket"')
    assert internal_names("leave first_dealer at 0")
    assert internal_names("this correction makes a later hand impossible (hand 2, hand: the game is over)")
    assert not internal_names("Cat's bid of 1 is recorded; your bid of 2 for Cat was not applied, e.g. Dan's.")
    assert not internal_names('give the hand as {"bidder": 1, "books": 11}', record_examples=True)


# --------------------------------------------------------------------------- every message in the source


def _text(node: ast.expr) -> str | None:
    """A message as written: f-string values become X (names and numbers come from the game)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "M" and node.args:
        template = _text(node.args[0])  # a message said through M (rules/errors.py): its placeholders are X
        return None if template is None else re.sub(r"%\(\w+\)s", "X", template).replace("%%", "%")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None and right is None else (left or "X") + (right or "X")
    return None


def source_messages() -> list[tuple[str, str]]:
    """(where, message) of every RuleError, Conflict and abort description written in scorepad/."""
    found: list[tuple[str, str]] = []
    for path in sorted((ROOT / "scorepad").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "RuleError":
                candidates = node.args[1:2] + [k.value for k in node.keywords if k.arg == "message"]
            elif name == "Conflict":
                candidates = node.args[:1]
            elif name == "abort":
                candidates = [k.value for k in node.keywords if k.arg == "description"]
            else:
                continue
            for candidate in candidates:
                text = _text(candidate)
                if text is not None:
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", text))
    return found


def test_no_message_in_the_source_names_an_internal_key() -> None:
    messages = source_messages()
    assert len(messages) > 250  # the sweep finds them (a broken walk would pass on nothing)
    bad = [
        f"{where}: {internal_names(text, record_examples=True)} in {text!r}"
        for where, text in messages
        if internal_names(text, record_examples=True)
    ]
    assert bad == [], "\n".join(bad)


# --------------------------------------------------------------------------- every form, sent wrong


def shown(page: str) -> list[str]:
    """The messages a player reads: field errors, notices and alerts."""
    found = re.findall(r'class="(?:field-error|notice)[^"]*"[^>]*>(.*?)</p>', page, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in found]


JUNK = ("", "x", "-1", "99", "4-nope")


class Sweep:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.seen: dict[str, str] = {}  # message -> what was sent

    def send(self, url: str, data: dict[str, str]) -> str:
        response = self.client.post(url, data=data, headers=HX)
        assert response.status_code < 500, (url, data)
        page = response.get_data(as_text=True)
        for message in shown(page):
            self.seen.setdefault(message, f"{url} {data}")
        return page

    def entry(self, token: str, **data: str) -> str:
        return self.send(f"/g/{token}/entry", data)

    def every_way(self, url: str, base: dict[str, str], fields: list[str]) -> None:
        self.send(url, base)
        for name in fields:
            for value in JUNK:
                self.send(url, {**base, name: value})

    def leaks(self) -> list[str]:
        return [f"{m!r} (after {sent})" for m, sent in self.seen.items() if internal_names(m)]


def test_no_message_on_the_screen_names_an_internal_key(client: FlaskClient) -> None:
    sweep = Sweep(client)
    # every set-up form, each option sent wrong, names repeated, the dealer out of range
    for key, people in (
        ("whist", {"team.0": "Us", "team.1": "Us"}),
        ("bid_whist", {"team.0": "A", "team.1": "B"}),
        ("nomination", {}),
        ("australian", {}),
    ):
        form = {**FOUR, **people, "action": "start"}
        sweep.every_way(
            f"/new/{key}",
            form,
            [
                "first_dealer",
                "name.1",
                "title",
                "opt.sequence",
                "opt.custom_sequence",
                "opt.cycles",
                "opt.hook",
                "opt.trumps",
                "opt.play_to",
                "opt.rounds",
                "opt.target",
                "opt.boston",
                "opt.points",
                "opt.honours",
                "opt.remote",
            ],
        )
        sweep.send(f"/new/{key}", {**form, "name.2": "Ann", "title": "t" * 200})
    sweep.send("/new/nomination", {**FOUR, "action": "start", "opt.sequence": "up", "opt.custom_sequence": "7, 6"})

    # Nomination: the trump, the bids, the tricks, a correction
    token = start(client)
    sweep.every_way(f"/g/{token}/entry", {"action": "trump"}, ["trump"])
    sweep.entry(token, action="trump", trump="S")
    sweep.every_way(f"/g/{token}/entry", {"action": "bid"}, ["bid"])
    sweep.entry(token, action="unbid")
    sweep.entry(token, action="fly")
    for bid in ("1", "1", "1", "0"):
        sweep.entry(token, action="bid", bid=bid)
    tricks = {"action": "result", "number": "1", "tricks.0": "1", "tricks.1": "1", "tricks.2": "1", "tricks.3": "1"}
    sweep.every_way(f"/g/{token}/entry", tricks, ["tricks.0", "number"])
    sweep.entry(token, **{**tricks, "tricks.0": "0"})
    sweep.entry(token, **tricks)
    correction = {
        "trump": "S",
        "bids.0": "1",
        "bids.1": "1",
        "bids.2": "1",
        "bids.3": "0",
        **{f"tricks.{i}": "1" for i in range(4)},
    }
    sweep.every_way(f"/g/{token}/hands/1", correction, ["trump", "bids.0", "tricks.0"])
    sweep.send(f"/g/{token}/undo", {})
    sweep.send(f"/g/{token}/undo", {})
    sweep.send(f"/g/{token}/undo", {})

    # Australian played remotely: tricks won jointly
    remote = start(client, "australian", {**FOUR, "opt.remote": "on", "action": "start"})
    for bid in ("0", "0", "0", "0"):
        sweep.entry(remote, action="bid", bid=bid)
    shared = {
        "action": "result",
        "number": "1",
        **{f"tricks.{i}": "0" for i in range(4)},
        **{f"shared.{i}": "0" for i in range(4)},
    }
    sweep.every_way(f"/g/{remote}/entry", shared, ["tricks.0", "shared.0", "shared.1"])

    # Whist: the tricks, the trump, the honours, a correction
    whist = start(client, "whist", {**FOUR, "team.0": "Us", "team.1": "Them", "action": "start"})
    result = {"action": "result", "number": "1", "tricks": "7"}
    sweep.every_way(f"/g/{whist}/entry", result, ["tricks", "trump", "honours"])
    sweep.entry(whist, **result)
    sweep.every_way(f"/g/{whist}/hands/1", {"tricks": "7"}, ["tricks", "trump", "honours"])

    # Bid Whist to 7: the auction, the declaration, the books, a renege, corrections
    bid_whist = start(
        client, "bid_whist", {**FOUR, "team.0": "Us", "team.1": "Them", "opt.play_to": "points", "action": "start"}
    )
    sweep.every_way(f"/g/{bid_whist}/entry", {"action": "call"}, ["call"])
    sweep.entry(bid_whist, action="uncall")
    for call in ("4-no", "pass", "pass", "pass"):
        sweep.entry(bid_whist, action="call", call=call)
    books = {"action": "result", "number": "1", "books": "10"}
    sweep.every_way(
        f"/g/{bid_whist}/entry", books, ["books", "direction", "trump", "renege", "renege.offender", "renege.called_by"]
    )
    sweep.entry(bid_whist, **{**books, "renege": "upheld"})
    sweep.entry(bid_whist, **{**books, "renege.offender": "1"})
    sweep.entry(bid_whist, **{**books, "direction": "uptown"})  # Bob's 4 No made: Them 8, game over at 7
    assert len(hands_of(client.application, bid_whist)) == 1
    played = start(
        client, "bid_whist", {**FOUR, "team.0": "Us", "team.1": "Them", "opt.play_to": "points", "action": "start"}
    )
    for number, calls in ((1, ("4-plain", "pass", "pass", "pass")), (2, ("4-plain", "pass", "pass", "pass"))):
        for call in calls:
            sweep.entry(played, action="call", call=call)
        sweep.entry(played, action="result", number=str(number), books="10", trump="S")
    hand_1 = {"bidder": "1", "bid": "4", "kind": "plain", "trump": "S", "books": "10"}
    sweep.every_way(f"/g/{played}/hands/1", hand_1, ["bidder", "bid", "kind", "direction", "books", "renege"])
    sweep.send(f"/g/{played}/hands/1", {**hand_1, "kind": "no"})
    page = sweep.send(f"/g/{played}/hands/1", {**hand_1, "books": "13"})  # 7 + 4 No doubled: over after hand 1
    assert "makes" in page and "impossible" in page

    assert len(sweep.seen) > 40  # the sweep met the messages (a broken sweep would pass on nothing)
    assert sweep.leaks() == [], "\n".join(sweep.leaks())
