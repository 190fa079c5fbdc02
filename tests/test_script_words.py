"""Issue 15: the scripts' words (static/js: `tr("...")`) and scorepad/script_words.py name the same
messages, so a page in French carries the translation of every one and none that no script writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import Flask

from scorepad import script_words

JS = Path(__file__).resolve().parent.parent / "static" / "js"
STRING = r'"(?:[^"\\]|\\.)*"'  # a double-quoted JavaScript string, its escapes as JSON's


def said_by_scripts() -> tuple[set[str], set[tuple[str, str]]]:
    """The messages the scripts say with tr(...): single ones, and pairs for a count."""
    single, plural = set(), set()
    for path in JS.glob("*.js"):
        source = path.read_text()
        single |= {json.loads(s) for s in re.findall(rf"\btr\(\s*({STRING})", source)}
        plural |= {(json.loads(a), json.loads(b)) for a, b in re.findall(rf"\btr\(\s*\[\s*({STRING}),\s*({STRING})\s*\]", source)}
    return single, plural


def test_the_scripts_and_the_list_name_the_same_messages() -> None:
    single, plural = said_by_scripts()
    assert len(single) > 10 and len(plural) == 2
    assert single == set(script_words.MESSAGES)
    assert plural == set(script_words.PLURALS)


def test_the_words_in_french_and_spanish_keep_their_placeholders(app: Flask) -> None:
    for language, sample in (("fr", "Hors ligne depuis %(time)s."), ("es", "Sin conexión desde las %(time)s.")):
        with app.test_request_context(headers={"Accept-Language": language}):
            words = script_words.words()
        assert words["Offline since %(time)s."] == sample
        one, other = words[script_words.PLURALS[0][0]]  # type: ignore[misc]
        assert "%(count)s" in one and "%(label)s" in other and one != other
        for english, said in words.items():
            for form in said if isinstance(said, list) else [said]:
                assert form != english, (language, english)
                assert set(re.findall(r"%\(\w+\)s", form)) == set(re.findall(r"%\(\w+\)s", english)), form
