"""A leaderboard push sends its screens only the parts that changed (issue 17, item 5): the status
line and the rows whose place changed hands, put in place by id onto the version they were made
from. Applied to the board a screen shows, a patch gives exactly the board a fresh page would show;
a stream that does not ask for patches (a page drawn before them) still gets the whole board."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from scorepad.pushes import board_parts
from tests.slowness import scaled
from tests.web.test_events import HX, create, enter, snapshot, table_tokens

VERSION = re.compile(r' data-version="[0-9a-f]+"')


def apply(board: str, patch: str) -> str:
    """What static/js/app.js does with a patch: check its base, put each part in place by its id."""
    head, _, body = patch.partition("\n")
    base, version = head.split(" ")
    assert f'data-version="{base}"' in board, "a patch onto another version"
    for part in board_parts.PART.finditer(body):
        old = re.search(rf'<({part.group(1)})\b[^>]*?\bid="{re.escape(part.group(2))}"[^>]*>.*?</\1>', board, re.S)
        assert old is not None, part.group(2)
        board = board[: old.start()] + part.group(0) + board[old.end() :]
    return board.replace(f'data-version="{base}"', f'data-version="{version}"')


def test_a_board_is_cut_into_its_frame_and_parts() -> None:
    first = board_parts.read(
        '<div id="board"><p id="bp-status">3 in</p><table><tr id="bp-r1"><td>A 12</td></tr>'
        '<tr id="bp-r2"><td>B 10</td></tr></table></div>'
    )
    assert first.html.startswith(f'<div id="board" data-version="{first.version}"><p id="bp-status">')
    assert list(first.parts) == ["bp-status", "bp-r1", "bp-r2"]
    moved = board_parts.read(
        first.html.replace(f' data-version="{first.version}"', "").replace("3 in", "4 in").replace("B 10", "B 11")
    )
    assert board_parts.patch(first, moved) == (
        f'{first.version} {moved.version}\n<template><p id="bp-status">4 in</p>'
        f'</template>\n<template><tr id="bp-r2"><td>B 11</td></tr></template>'
    )
    assert board_parts.patch(first, first) is None  # nothing changed: nothing is sent
    grown = board_parts.read(
        first.frame.replace("\x00bp-r2\x00", '<tr id="bp-r2"><td>B</td></tr><tr id="bp-r3"><td>C</td></tr>').replace(
            "\x00", ""
        )
    )
    assert board_parts.patch(first, grown) is None  # another row: the whole board goes


def test_a_push_is_the_changed_rows_and_makes_the_board_a_fresh_page_shows(app: Flask, client: FlaskClient) -> None:
    director = create(client)
    public, tables = snapshot(app, director)["public_id"], table_tokens(app, director)
    with app.app_context():
        patches = live.broker().subscribe(f"event:{public}", frozenset({"board", "patch"}))
        wholes = live.broker().subscribe(f"event:{public}", frozenset({"board"}))
    assert enter(client, tables[0], 1, 10)[0] == 200
    first = patches.queue.get(timeout=scaled(3))
    assert first.event == "board" and wholes.queue.get(timeout=scaled(3)).event == "board"  # nothing was sent before
    shown = first.data
    for table, tricks in ((1, 3), (2, 7), (3, 9)):
        assert enter(client, tables[table], 1, tricks)[0] == 200
        message = patches.queue.get(timeout=scaled(3))
        whole = wholes.queue.get(timeout=scaled(3))
        assert whole.event == "board"
        if table < 3:  # a result of the hand in play: its status line and the rows it moved
            assert message.event == "patch" and len(message.data) < len(whole.data) / 2
            shown = apply(shown, message.data)
        else:  # the last one: the hall's next moves appear beside the board, which goes whole
            assert message.event == "board"
            shown = message.data
        assert shown == whole.data  # the patched board is the whole board, version and all
        fresh = client.get(f"/b/{public}", headers=HX).get_data(as_text=True)
        assert fresh == whole.data  # and a page drawn now can take the next patch
    assert 'data-waiting=""' in shown


def test_an_old_page_s_stream_asking_for_the_board_alone_gets_the_whole_board(app: Flask, client: FlaskClient) -> None:
    director = create(client)
    public, tables = snapshot(app, director)["public_id"], table_tokens(app, director)
    with app.app_context():
        everything = live.broker().subscribe(f"event:{public}")  # no names asked for: every kind, patches as wholes
    kinds: list[str] = []
    for table in range(2):  # each entry's push waited for: two pushes, the second one a patch elsewhere
        assert enter(client, tables[table], 1, 8)[0] == 200
        kinds.append(everything.queue.get(timeout=scaled(3)).event)
        while kinds[-1] != "board":
            kinds.append(everything.queue.get(timeout=scaled(3)).event)
    assert kinds.count("board") == 2 and "patch" not in kinds
