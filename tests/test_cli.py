"""`scorepad score`: every example game replays to its hand-computed result; bad records exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.slowness import scaled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").glob("*.json") if not p.name.endswith(".expected.json"))
SCOREPAD = str(Path(sys.executable).with_name("scorepad"))


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCOREPAD, *args], capture_output=True, text=True, cwd=cwd, timeout=scaled(60))


def test_every_variant_has_examples() -> None:
    variants = {json.loads(p.read_text())["variant"] for p in EXAMPLES}
    assert variants == {"whist", "military", "bid_whist", "nomination", "australian"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_its_expected_result(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    result = run("score", "--json", str(path))
    assert result.returncode == 0, result.stderr
    sheet = json.loads(result.stdout)
    assert sheet["finished"] == expected["finished"]
    assert sheet["winner_names"] == expected["winners"]
    assert {s["name"]: s["total"] for s in sheet["standings"]} == expected["totals"]


@pytest.mark.parametrize("path", EXAMPLES[:1] + EXAMPLES[-1:], ids=lambda p: p.stem)
def test_text_sheet_lists_every_hand_and_the_standings(path: Path) -> None:
    record = json.loads(path.read_text())
    result = run("score", str(path))
    assert result.returncode == 0, result.stderr
    assert "Final standings" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) >= len(record["hands"])


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


def test_invalid_record_exits_2_with_one_line_per_problem(tmp_path: Path) -> None:
    record = {
        "variant": "nomination",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "hands": [
            {"trump": "H", "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
            {"trump": "X", "bids": [0, 0, 0, 0], "tricks": [1, 1, 1, 0]},
        ],
        "options": {"hook": "sometimes"},
    }
    result = run("score", str(_write(tmp_path, record)))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert any("options.hook" in line for line in lines)


def test_invalid_hand_names_the_hand_and_the_field(tmp_path: Path) -> None:
    record = {
        "variant": "nomination",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "hands": [
            {"trump": "H", "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
            {"trump": "S", "bids": [0, 0, 0, 0], "tricks": [1, 1, 1, 0]},
        ],
    }
    result = run("score", str(_write(tmp_path, record)))
    assert result.returncode == 2
    assert "hand 2, tricks" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"variant": "bridge"}', "not a known variant"),
        ('{"variant": "australian", "players": ["Ann"]}', "players"),
    ],
)
def test_malformed_files_exit_2_without_traceback(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("score", str(path))
    assert result.returncode == 2
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("score", str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_flask_cli_has_the_same_command() -> None:
    flask = str(Path(sys.executable).with_name("flask"))
    result = subprocess.run(
        [flask, "--app", "scorepad", "score", "--json", str(EXAMPLES[0])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=scaled(60),
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["finished"] is True


def _nomination_text(hand_field: str = "", first_dealer: str = "0") -> str:
    """A Nomination record as JSON text, with raw JSON spliced into its first hand or first dealer."""
    extra = f', "bids": {hand_field}' if hand_field else ""
    return (
        '{"variant": "nomination", "players": ["Ann", "Bob", "Cat", "Dan"], "first_dealer": '
        f'{first_dealer}, "hands": [{{"trump": "H", "tricks": [0, 1, 0, 0]{extra}}}]}}'
    )


@pytest.mark.parametrize(
    "content, words",
    [
        ("[" * 100_000 + "]" * 100_000, "lists or objects nested too deeply"),
        (_nomination_text(hand_field="[" * 3000 + "]" * 3000), "lists or objects nested too deeply"),
        (_nomination_text(first_dealer="9" * 5000), "a number longer than 4300 digits"),
        (_nomination_text(hand_field="[" + "9" * 5000 + ", 0, 0, 0]"), "a number longer than 4300 digits"),
    ],
    ids=["top level 100000 deep", "hand field 3000 deep", "first dealer 5000 digits", "bid 5000 digits"],
)
def test_records_python_cannot_read_exit_2_in_one_line(tmp_path: Path, content: str, words: str) -> None:
    # these used to print a RecursionError or ValueError traceback and exit 1
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("score", str(path))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"{path}: not a usable game record ({words})"]


def test_a_key_with_a_newline_is_one_problem_on_one_line(tmp_path: Path) -> None:
    record = json.loads(_nomination_text())
    record["hands"][0] = {"trump": "H", "bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0], "tri\ncks": 1}
    path = _write(tmp_path, record)
    result = run("score", str(path))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{path}: hand 1, tri\\ncks: 'tri\\ncks' is not part of a Nomination Whist hand"
    ]


def test_terminal_control_characters_are_printed_escaped(tmp_path: Path) -> None:
    # a name reaches a message as typed; an escape sequence must not reach the terminal
    record = {"variant": "nomination", "players": ["Ann\x1b[2J", "ann\x1b[2J", "Cat"]}
    result = run("score", str(_write(tmp_path, record)))
    assert result.returncode == 2
    assert "\x1b" not in result.stderr
    assert "two players are called 'ann\\x1b[2J'" in result.stderr
