"""The result card (issue 15): a finished game's final standings as one picture for the family chat.

One layout, two drawings. `card_of` lays the card out once from the derived sheet (nothing is
scored here): where each box and line of text goes, at which size, each text already cut to its
room with an ellipsis. The SVG template (templates/games/card.svg) and `png` draw that same layout,
so the two never disagree. The room a text takes is measured with the font the PNG is drawn in,
DejaVu Sans (bundled in fonts/: Pillow's own default font has no accented letters); it is among the
widest sans-serif faces, so the SVG's generic sans-serif fits in the same room.

Its words are in the language the card is drawn in (the asking page's: views/games.py), the game's
own words (the summary, a player's detail) said through `say`, its date through Babel.
"""

from __future__ import annotations

import functools
import hashlib
import io
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from flask_babel import format_date, gettext
from PIL import Image, ImageDraw, ImageFont

from scorepad import i18n, offload
from scorepad.extensions import db
from scorepad.games.presenters import place, sides_of

if TYPE_CHECKING:
    from scorepad.games.service import GameView

WIDTH = HEIGHT = 1080  # square: a chat shows it whole, as large as a phone's width allows
MARGIN = 60
ROWS_SHOWN = 10  # places listed; past that the card says how many more
FONTS = Path(__file__).parent / "fonts"
ELLIPSIS = "…"

PAPER, INK, MUTED = "#fffdf7", "#1a1a1a", "#4b5563"
GREEN, ON_GREEN, ON_GREEN_MUTED = "#14532d", "#ffffff", "#d1fae5"
ROW, WIN, WIN_EDGE = "#eef3ee", "#fde68a", "#b45309"


class NotFinished(Exception):
    """The game has no final standings yet: no card."""


@dataclass(frozen=True)
class Box:
    """A filled rectangle with rounded corners (`edge`: an outline colour, or none)."""

    x: int
    y: int
    width: int
    height: int
    fill: str
    radius: int = 0
    edge: str = ""


@dataclass(frozen=True)
class Text:
    """One line of text: `y` is its baseline; `anchor` start, middle or end (as in SVG)."""

    x: int
    y: int
    size: int
    text: str
    fill: str = INK
    bold: bool = False
    anchor: str = "start"


@dataclass(frozen=True)
class Card:
    width: int
    height: int
    boxes: tuple[Box, ...]
    texts: tuple[Text, ...]
    label: str  # the whole card in one sentence, for the SVG's accessible name


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    # the basic layout: the same pixels wherever Pillow runs (with or without libraqm)
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


def printable(text: str) -> str:
    """Text without control characters (no XML may hold them, no font draws them)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cc")


def fit(text: str, size: int, room: float, bold: bool = False) -> str:
    """`text` whole if it fits `room` pixels at `size`, else cut with an ellipsis to fit."""
    face = font(size, bold)
    if face.getlength(text) <= room:
        return text
    cut = len(text)
    while cut and face.getlength(text[:cut].rstrip() + ELLIPSIS) > room:
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS


def sized(text: str, sizes: tuple[int, ...], room: float, bold: bool = False) -> tuple[int, str]:
    """The first of `sizes` at which `text` fits `room`, else the last, the text cut to fit."""
    size = next((s for s in sizes if font(s, bold).getlength(text) <= room), sizes[-1])
    return size, fit(text, size, room, bold)


def _date(view: GameView) -> str:
    """The day the game was played: 3 May 2026 in English (day first, not the locale's "May 3, 2026"),
    the locale's long form else (3 mai 2026, 3 de mayo de 2026)."""
    return str(format_date(view.game.created_at, "d MMMM y" if i18n.current() == "en" else "long"))


def card_of(view: GameView) -> Card:
    """Lay out the card of a finished game from its derived sheet; NotFinished before its end."""
    sheet = view.sheet
    if not sheet.finished:
        raise NotFinished()
    room = WIDTH - 2 * MARGIN
    title = printable(view.game.title) or view.variant.name
    under = f"{view.variant.name} · {_date(view)}" if view.game.title else _date(view)
    boxes = [Box(0, 0, WIDTH, 230, GREEN)]
    big, title_shown = sized(title, (60, 50, 42), room, True)  # a long title smaller, then cut
    texts = [
        Text(MARGIN, 105, big, title_shown, ON_GREEN, True),
        Text(MARGIN, 170, 34, fit(printable(under), 34, room), ON_GREEN_MUTED),
    ]
    summary_said = i18n.say(sheet.summary)
    if summary_said:
        size, summary = sized(printable(summary_said), (40, 34, 30), room, True)
        texts.append(Text(MARGIN, 305, size, summary, GREEN, True))

    standings = sheet.standings
    named = sides_of(view.setup)  # a partnership's players with its name: "Them (Bob & Dan)"
    shown = standings if len(standings) <= ROWS_SHOWN else standings[: ROWS_SHOWN - 1]
    lines = len(shown) + (len(shown) < len(standings))
    top, bottom = 350, HEIGHT - 100
    step = min(140, (bottom - top) // lines)
    high = step - 12
    size = min(48, int(high * 0.46))
    small = max(16, int(size * 0.6))
    for i, s in enumerate(shown):
        y = top + i * step
        won = s.seat in sheet.winners
        boxes.append(Box(MARGIN - 20, y, room + 40, high, WIN if won else ROW, 14, WIN_EDGE if won else ""))
        total = str(s.total)
        total_room = font(size, True).getlength(total)
        name_x, total_x = MARGIN + 110, WIDTH - MARGIN
        name_room = total_x - name_x - total_room - 30
        name = ("★ " if won else "") + printable(named[s.seat])
        detail = printable(i18n.say(s.detail))
        baseline = y + (high * 0.5 if detail else high * 0.5 + size * 0.36)
        texts.append(Text(MARGIN + 40, round(y + high * 0.5 + size * 0.36), size, place(sheet, s), INK, True, "middle"))
        texts.append(Text(name_x, round(baseline), size, fit(name, size, name_room, won), INK, won))
        if detail:
            texts.append(
                Text(name_x, round(y + high * 0.5 + small * 1.25), small, fit(detail, small, name_room), MUTED)
            )
        texts.append(Text(total_x, round(y + high * 0.5 + size * 0.36), size, total, INK, True, "end"))
    if len(shown) < len(standings):
        more = len(standings) - len(shown)
        texts.append(
            Text(
                WIDTH // 2,
                top + len(shown) * step + high // 2 + small // 2,
                small + 4,
                gettext("and %(count)s more", count=more),
                MUTED,
                False,
                "middle",
            )
        )
    texts.append(
        Text(WIDTH // 2, HEIGHT - 40, 30, gettext("Scorepad · score kept at the table"), MUTED, False, "middle")
    )

    places = ", ".join(f"{place(sheet, s)} {named[s.seat]} {s.total}" for s in standings)
    label = gettext(
        "Result card: %(title)s, %(under)s. %(summary)s. Places: %(places)s.",
        title=title,
        under=under,
        summary=summary_said,
        places=places,
    )
    return Card(WIDTH, HEIGHT, tuple(boxes), tuple(texts), printable(label))


def fingerprint(card: Card) -> str:
    """What the card shows, in a few characters: its ETag, known before anything is drawn."""
    return hashlib.sha256(repr(card).encode()).hexdigest()[:20]


_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


def png_file(card: Card) -> bytes:
    """`png(card)` drawn off the worker's loop (scorepad/offload.py: some 150 ms of Pillow for a big
    game's card), the request's database session ended first: a card needs nothing more from it."""
    db.session.remove()
    return offload.run(png, card)


def png(card: Card) -> bytes:
    """The card drawn as a PNG (what family chats take: most do not show SVG)."""
    image = Image.new("RGB", (card.width, card.height), PAPER)
    draw = ImageDraw.Draw(image)
    for b in card.boxes:
        draw.rounded_rectangle(
            (b.x, b.y, b.x + b.width, b.y + b.height),
            b.radius,
            fill=b.fill,
            outline=b.edge or None,
            width=3 if b.edge else 0,
        )
    for t in card.texts:
        draw.text((t.x, t.y), t.text, fill=t.fill, font=font(t.size, t.bold), anchor=_ANCHORS[t.anchor])
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
