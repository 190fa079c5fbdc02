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


def said_by_scripts() -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """The messages the scripts say with tr(key, ...): single ones, and pairs for a count, by key."""
    single: dict[str, str] = {}
    plural: dict[str, tuple[str, str]] = {}
    calls = 0
    for path in JS.glob("*.js"):
        source = path.read_text()
        calls += len(re.findall(r"\btr\(\s*\"", source))
        for key, english in re.findall(rf"\btr\(\s*\"([a-z-]+)\",\s*({STRING})", source):
            assert single.setdefault(key, json.loads(english)) == json.loads(english), key  # one key, one message
        for key, one, other in re.findall(rf"\btr\(\s*\"([a-z-]+)\",\s*\[\s*({STRING}),\s*({STRING})\s*\]", source):
            plural[key] = (json.loads(one), json.loads(other))
    assert calls >= len(single) + len(plural)  # every call was read as one or the other
    return single, plural


def test_the_scripts_and_the_list_name_the_same_messages() -> None:
    single, plural = said_by_scripts()
    assert len(single) > 10 and len(plural) == 4
    assert single == script_words.MESSAGES
    assert plural == script_words.PLURALS


def test_the_words_in_french_and_spanish_keep_their_placeholders(app: Flask) -> None:
    for language, sample in (("fr", "Hors ligne depuis %(time)s."), ("es", "Sin conexión desde las %(time)s.")):
        with app.test_request_context(headers={"Accept-Language": language}):
            words = script_words.words()
        assert words["offline-since"] == sample
        one, other = words["sending"]
        assert "%(count)s" in one and "%(label)s" in other and one != other
        english = {**script_words.MESSAGES, **{key: forms[0] for key, forms in script_words.PLURALS.items()}}
        assert set(words) == set(english)
        for key, said in words.items():
            for form in said if isinstance(said, list) else [said]:
                assert form != english[key], (language, key)
                assert set(re.findall(r"%\(\w+\)s", form)) == set(re.findall(r"%\(\w+\)s", english[key])), form
