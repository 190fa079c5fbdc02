"""A leaderboard's parts, so that a live push sends its screens only what changed (issue 17: the
whole board is 24 KB for 64 Military teams, and a push goes to each of 200 screens).

A board template gives the parts that change often an id starting `bp-`: the status line, each
standings row by its position (a row shows whoever holds that rank now), each match's line. `read`
cuts a rendered board into its frame (everything else, each part left as its id) and its parts.
Two renders with the same frame differ only in parts: `patch` is the changed parts alone, which
static/js/app.js puts in place by id. A board's version is the digest of its render; a screen
applies a patch only onto the version it was made from, and fetches the whole board otherwise (a
page drawn by another worker, a message lost)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

PART = re.compile(r'<(tr|p|li)\b[^>]*?\bid="(bp-[\w-]+)"[^>]*>.*?</\1>', re.S)
ROOT = '<div id="board"'  # every format's _board.html starts so: the version goes on it


@dataclass(frozen=True)
class Board:
    """A rendered board: its HTML (carrying its version), the version, its frame and its parts."""

    html: str
    version: str
    frame: str = field(repr=False)
    parts: dict[str, str] = field(repr=False)


def read(rendered: str) -> Board:
    """The board as rendered by its `_board.html`, its version put on its root element."""
    version = hashlib.sha256(rendered.encode()).hexdigest()[:16]
    parts: dict[str, str] = {}

    def keep(match: re.Match[str]) -> str:
        parts[match.group(2)] = match.group(0)
        return f"\x00{match.group(2)}\x00"

    frame = PART.sub(keep, rendered)
    return Board(rendered.replace(ROOT, f'{ROOT} data-version="{version}"', 1), version, frame, parts)


def patch(old: Board, new: Board) -> str | None:
    """The parts of `new` that differ from `old`'s, each in a <template> of its own (a row parsed
    beside a paragraph would be dropped: a <tr> stands only where a table's content may), after a
    first line "<old version> <new version>"; None when the board changed elsewhere too (its whole
    is sent), or did not change at all."""
    if old.frame != new.frame or old.parts.keys() != new.parts.keys() or old.version == new.version:
        return None
    changed = [f"<template>{html}</template>" for key, html in new.parts.items() if old.parts[key] != html]
    if not changed:
        return None
    return "\n".join([f"{old.version} {new.version}", *changed])
