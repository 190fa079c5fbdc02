"""Issue 15, "every page reads in three languages with no untranslated string": a crawl of the
pages a hall and a family reach, in play, read in French and in Spanish. From the home page (with
the demo games), a group with games, and the director's pages of an event of every format (the
backup tests' events, played part way: a bracket, a playoff, a drive with a correction, a club
night), every link is followed (a few of each kind of page), and each page is read in English
and in the other language. The other page must say its language in `<html lang>`, and must not
show an English word of the interface: a word of the English page found again on the other page
that the catalogue's English uses and its translations never do ("games", "add") is English left
over. Names, numbers and the game's own terms are in both languages' words, so they pass."""

from __future__ import annotations

import html
import re
from collections import Counter
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import catalogues
from scorepad.extensions import db
from scorepad.games import records
from scorepad.rules import all_variants
from tests.web.test_backup import EVENTS
from tests.web.test_games import _play_both_hands, start
from tests.web.test_groups import in_group, make_group
from tests.web.test_language import lang_of

WORD = re.compile(r"[^\W\d_]{3,}")
# pages that are files or streams, not pages to read; the language switch (a POST)
SKIP = re.compile(r"^/(static|settings)/|\.(csv|json|png|svg|pdf|webmanifest|js|css)$|/events$|/export")
SHAPES_KEPT = 8  # pages of one shape (/g/<token>/hands/<n>/edit ...) read
NAMES = {
    "ann",
    "bob",
    "cat",
    "dan",
    "eve",
    "fay",
    "gus",
    "hal",
    "ivy",
    "jon",
    "kim",
    "lou",
    "aces",
    "kings",
    "jacks",
    "queens",
    "zone",
    "final",
    "gran",
    "granny",
    "player",
    "hand",
    "was",
    "misdealt",
}  # the last: a dispute's reason typed in the fixture (tests/web/test_backup.py)


def vocabulary(language: str) -> tuple[set[str], set[str]]:
    """The catalogue's English words, and every word its `language` uses."""
    english: set[str] = set()
    others: set[str] = set()
    for message in catalogues.read(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)s|<[^>]+>", " ", text))}
        for text in strings:
            others |= {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)s|<[^>]+>", " ", text or ""))}
    return english, others


def stored_names(app: Flask) -> set[str]:
    """The words of what people named or typed (games, groups, events, teams, players), of the short
    codes made up for them, whole and in the fours they are shown in (a game's "SETS-3RJ8" once
    failed CI on the word "sets", and "JWNR RATE" on "rate") and of the variants' names: shown as
    they are in every language."""
    found = {w.lower() for v in all_variants() for w in WORD.findall(str(v.name))}
    with app.app_context():
        for table in db.metadata.sorted_tables:
            for column in table.c:
                if column.name in ("name", "title", "players", "teams", "team") or column.name.endswith("_code"):
                    for value in db.session.execute(db.select(column)).scalars():
                        found |= {w.lower() for w in WORD.findall(str(value))}
                        if column.name.endswith("_code") and value:  # shown in fours: "JWNR RATE"
                            found |= {
                                w.lower() for i in range(0, len(value), 4) for w in WORD.findall(value[i : i + 4])
                            }
        db.session.remove()
    return found


def visible(page: str) -> str:
    """What a reader sees of the page's body (and its title), scripts and data blocks left out."""
    body = page.split("<body", 1)[-1].split(">", 1)[-1]
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    part = re.sub(r"<(script|template|style)\b.*?</\1>", " ", body, flags=re.S)
    part = re.sub(r"<[^>]+>", " ", part)
    text = html.unescape(part + " " + (title.group(1) if title else ""))
    return " ".join(re.sub(r"https?://\S+", " ", text).split())  # a link's address is not words


def words(page: str) -> set[str]:
    return {w.lower() for w in WORD.findall(visible(page))}


def where(page: str, word: str) -> str:
    """The words around `word` on the page, to find what was left in English."""
    text = visible(page)
    found = re.search(rf"(?i)\b{word}\b", text)
    return f"{word} «{text[max(0, found.start() - 40) : found.end() + 40]}»" if found else word


def shape(path: str) -> str:
    """The kind of page: its path with tokens and numbers taken out."""
    return "/".join("#" if re.search(r"\d", part) or len(part) > 12 else part for part in path.split("/"))


def links(page: str) -> list[str]:
    found = []
    for href in re.findall(r'<a\b[^>]*\bhref="([^"#]+)', page):
        url = urlsplit(html.unescape(href))
        if url.scheme or url.netloc or not url.path.startswith("/") or SKIP.search(url.path) or "lang=" in url.query:
            continue
        found.append(url.path + (f"?{url.query}" if url.query else ""))
    return found


def read(client: FlaskClient, language: str, path: str) -> tuple[int, str, str]:
    client.set_cookie("lang", language)
    response = client.get(path)
    return response.status_code, response.mimetype, response.get_data(as_text=True)


@pytest.fixture
def starts(client: FlaskClient, app: Flask) -> list[str]:
    """The pages the crawl starts from: home (demo games), a group's page (two games played: its
    players' figures, head to head, records), each event's director's page."""
    with app.app_context():
        records.load_demo_games()
    group = make_group(client, "Sunday family")
    for names in (("Ann", "Bob", "Cat", "Gran"), ("Gran", "Ann", "Dan", "Bob")):  # a finished game each: figures
        _play_both_hands(client, start(client, "nomination", in_group(group, names)))
    starts = ["/", f"/group/{group}"]
    for build in EVENTS.values():
        starts.append(f"/d/{build(client, app)}")
    return starts


LANGUAGES = ("fr", "es")


def test_every_page_reads_in_each_language_with_no_english_left(
    app: Flask, client: FlaskClient, starts: list[str]
) -> None:
    """One crawl of the English pages, each page read again in every other language (one world built
    for both: the set-up was most of the time)."""
    interfaces = {}
    for language in LANGUAGES:
        english, others = vocabulary(language)
        interfaces[language] = english - others - NAMES - stored_names(app)
    queue, seen, shapes = list(starts), set(starts), Counter[str]()
    problems: dict[str, str] = {}
    read_pages = 0
    while queue:
        path = queue.pop(0)
        status, mimetype, page = read(client, "en", path)
        if status != 200 or mimetype != "text/html" or not page.startswith("<!doctype html>"):
            continue
        read_pages += 1
        for link in links(page):
            if link not in seen and shapes[shape(urlsplit(link).path)] < SHAPES_KEPT:
                seen.add(link)
                shapes[shape(urlsplit(link).path)] += 1
                queue.append(link)
        for language in LANGUAGES:
            status, _, other = read(client, language, path)
            assert status == 200, (path, language, status)
            left = (words(page) & words(other)) & interfaces[language]
            said = [f'<html lang="{lang_of(other)}">'] if lang_of(other) != language else []
            if left or said:
                problems[f"{path} ({language})"] = "; ".join(said + [where(other, word) for word in sorted(left)])
    assert read_pages > 80, f"the crawl read only {read_pages} pages"
    assert not problems, "\n".join(f"{path}: {what}" for path, what in sorted(problems.items()))
