"""Formatting helpers for templates: seat names, trump words, the running-totals chart, QR codes.

They only present what the rules engine derived; none of them computes a score.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypeVar

import qrcode
from babel.support import NullTranslations
from markupsafe import Markup, escape
from qrcode.image.svg import SvgPathImage

from scorepad.games.entry import adapter_for
from scorepad.games.results import PlayerResults, game_players
from scorepad.games.sheets import describe_round
from scorepad.i18n import catalogue, format_number, ngettext, say
from scorepad.i18n import gettext as _
from scorepad.rules.base import (
    Line,
    OptionValue,
    RoundKind,
    ScoreSheet,
    Setup,
    Standing,
    Variant,
    describe_in_force,
)
from scorepad.rules.bid_whist import ALL_CALLS, SEATS
from scorepad.rules.cards import SUITS, Trump
from scorepad.rules.errors import M

if TYPE_CHECKING:
    from scorepad.games.service import GameView

# Colour-blind-safe palette (Okabe-Ito), readable on light and dark backgrounds.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F7F7F")


def seat_names_of(setup: Setup) -> list[str]:
    """Who sits in each seat: players, or for partnerships team 0, team 1, team 0, team 1."""
    if setup.players:
        return list(setup.players)
    names = []
    for seat in range(4):
        team = setup.teams[seat % 2]
        names.append(team.players[seat // 2] if len(team.players) > seat // 2 else f"{team.name} {seat // 2 + 1}")
    return names


def pairs_of(setup: Setup) -> list[str]:
    """Who plays for each side of a partnership game, as typed at the start ("Ann & Cat"): "" for
    a side whose players were not typed, and for each player of a game of players."""
    if not setup.teams:
        return ["" for _name in setup.columns]
    found = []
    for team in setup.teams:
        named = [p for p in team.players if p]
        found.append(
            _("%(first)s & %(second)s", first=named[0], second=named[1]) if len(named) == 2 else "".join(named)
        )
    return found


def pairs(view: GameView) -> list[str]:
    return pairs_of(view.setup)


def sides_of(setup: Setup) -> list[str]:
    """Each column's name with the pair playing for it when they were typed: "Us (Ann & Cat)"; the
    team's name alone when they were not (a family's "Us" and "Them" say nobody at the table)."""
    return [
        _("%(team)s (%(players)s)", team=name, players=pair) if pair else name
        for name, pair in zip(setup.columns, pairs_of(setup), strict=True)
    ]


def sides(view: GameView) -> list[str]:
    return sides_of(view.setup)


def seat_names(view: GameView) -> list[str]:
    return seat_names_of(view.setup)


def seat_team(view: GameView, seat: int | None) -> str:
    """The team a seat plays for (partnership games)."""
    return view.setup.teams[(seat or 0) % 2].name if view.setup.teams else ""


def trump_label(trump: Trump | str) -> str:
    trump = Trump(trump)
    return say(trump.label) if not trump.is_suit else f"{trump.symbol} {say(trump.label)}"


def one_liner(variant: Variant) -> str:
    """The first sentence of a variant's summary."""
    first, _dot, _rest = say(variant.summary).partition(". ")
    return first.rstrip(".") + "."


def options_summary(variant: Variant, options: Mapping[str, OptionValue | str]) -> str:
    """The set-up form's options line: each option set otherwise than a new game's form sets it, with
    its value. A new game's own settings (Bid Whist at home: to a points target) are the usual rules
    there, not a change, and a label alone ("changed: Play") would not say what was chosen."""
    usual: dict[str, OptionValue | str] = {s.key: s.default for s in variant.option_specs}
    usual.update(adapter_for(variant.key).home_defaults)
    changed = [
        _("%(option)s: %(value)s", option=say(s.label), value=say(s.describe(value)))
        for s in variant.option_specs
        if (value := options.get(s.key, usual[s.key])) != usual[s.key]
    ]
    if not changed:
        return _("the usual rules (tap to change)")
    return _("changed: %(options)s", options="; ".join(changed))


def options_in_force(view: GameView) -> list[tuple[str, str]]:
    """The options of the game that matter under the others, as (label, value in words): the rules the
    sheet was kept by (not a whist drive's scoring under a rubber, nor a custom list unused)."""
    return [
        (say(label), say(value)) for label, value in describe_in_force(view.variant.option_specs, view.setup.options)
    ]


def hand_title(view: GameView) -> str:
    """The current hand's heading: "Hand 3 of 8". A tie-break, a hand beyond the schedule, is called
    one ("Hand 5 of 4" would be no count at all), and the hands after it count the tie-breaks played."""
    spec = view.state.next_round
    if spec is None:
        return ""
    if spec.kind is RoundKind.PLAYOFF:
        return _("Hand %(number)s: the tie-break", number=spec.number)
    scheduled = view.variant.round_count(view.setup)
    if scheduled is None:
        return _("Hand %(number)s", number=spec.number)
    played = sum(1 for line in view.sheet.lines if line.spec.kind is RoundKind.PLAYOFF)
    return _("Hand %(number)s of %(count)s", number=spec.number, count=scheduled + played)


def place(sheet: ScoreSheet, standing: Standing) -> str:
    """A place as players write it, the same wherever it is shown: "1", or "1=" when it is shared."""
    shared = sum(1 for s in sheet.standings if s.rank == standing.rank) > 1
    return f"{standing.rank}=" if shared else str(standing.rank)


Source = TypeVar("Source")
Drawn = TypeVar("Drawn")


class DrawnFrom(Generic[Source, Drawn]):
    """What was drawn from one object (a sheet, a line, a cell's words), kept for that very object:
    keyed by its id and the drawing's other inputs (the language, an Edit link), and served only
    while the object kept beside it is the one asked about, so an id reused by a new object is
    never taken for the old one. The objects are the rules' (a sheet kept per game under its hands'
    revision, games/derived.py): a new one comes only when the hands change. At `size` entries all
    are let go at once (a page drawn again draws its parts again)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._drawn: dict[tuple[int, Hashable], tuple[Source, Drawn]] = {}

    def get(self, source: Source, inputs: Hashable, draw: Callable[[], Drawn]) -> Drawn:
        key = (id(source), inputs)
        found = self._drawn.get(key)
        if found is not None and found[0] is source:
            return found[1]
        drawn = draw()
        if len(self._drawn) >= self.size:
            self._drawn.clear()
        self._drawn[key] = (source, drawn)
        return drawn


_charts: DrawnFrom[ScoreSheet, Markup] = DrawnFrom(1024)  # a few hundred games' sheets, in three languages


def chart_svg(sheet: ScoreSheet, width: int = 360, height: int = 180) -> Markup:
    """`draw_chart`, drawn once for the very same sheet object (the one a game keeps under its hands'
    revision, games/derived.py) and language: at hand 25 the chart was drawn anew on every opening
    of the page and every push to its spectators, though it changes only when the hands do, which
    gives a new sheet."""
    return _charts.get(sheet, (catalogue(), width, height), lambda: draw_chart(sheet, width, height))


def draw_chart(sheet: ScoreSheet, width: int = 360, height: int = 180) -> Markup:
    """Running totals as a line per column, with a legend: server-rendered, no script."""
    lines = sheet.lines
    totals = [[0] + [line.cells[c].total for line in lines] for c in range(len(sheet.columns))]
    low, high = min(min(t) for t in totals), max(max(t) for t in totals)
    span = (high - low) or 1
    # room on the left for the longest axis label at Large text's size (static/css/app.css, .chart .tick)
    pad_l, pad_r, pad_t, pad_b = max(36, 6 + 9 * max(len(str(high)), len(str(low)))), 8, 8, 20
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    steps = max(len(lines), 1)

    def x(i: int) -> float:
        return pad_l + plot_w * i / steps

    def y(v: int) -> float:
        return pad_t + plot_h * (high - v) / span

    label = escape(
        ngettext(
            "Running totals after %(num)s hand: %(totals)s",
            "Running totals after %(num)s hands: %(totals)s",
            len(lines),
            totals=", ".join(f"{s.name} {s.total}" for s in sheet.standings),
        )
    )
    last = escape(_("hand %(number)s", number=len(lines)))  # outside the f-string: the extractor reads no _() inside
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{label}" '
        f'preserveAspectRatio="xMidYMid meet">',
        f'<line x1="{pad_l}" y1="{y(low):.1f}" x2="{width - pad_r}" y2="{y(low):.1f}" class="axis"/>',
        f'<text x="{pad_l - 4}" y="{y(high) + 4:.1f}" text-anchor="end" class="tick">{high}</text>',
        f'<text x="{pad_l - 4}" y="{y(low) + 4:.1f}" text-anchor="end" class="tick">{low}</text>',
        f'<text x="{width - pad_r}" y="{height - 4}" text-anchor="end" class="tick">{last}</text>',
    ]
    if low < 0 < high:
        parts.append(f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" class="zero"/>')
    for c, series in enumerate(totals):
        colour = PALETTE[c % len(PALETTE)]
        # whole units: under half a pixel off on a phone's screen, and 4 bytes a point fewer to send
        points = " ".join(f"{x(i):.0f},{y(v):.0f}" for i, v in enumerate(series))
        # the class gives each line a lighter colour of its own in dark mode (static/css/app.css)
        parts.append(
            f'<polyline points="{points}" class="s{c % len(PALETTE)}" fill="none" stroke="{colour}" '
            'stroke-width="3" stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    # the swatch is drawn, not styled: the Content-Security-Policy allows no inline style attribute
    legend = "".join(
        f'<li><svg class="swatch" viewBox="0 0 16 6" aria-hidden="true"><rect width="16" height="6" '
        f'rx="2" class="s{c % len(PALETTE)}" fill="{PALETTE[c % len(PALETTE)]}"/></svg>{escape(name)}</li>'
        for c, name in enumerate(sheet.columns)
    )
    return Markup("".join(parts) + f'<ul class="legend" role="list">{legend}</ul>')


def qr_svg(url: str) -> Markup:
    """A QR code for `url` as inline SVG (no image library needed), labelled in the page's language."""
    label = escape(_("QR code for %(url)s", url=url))
    return Markup(_qr_drawing(url).replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1))


@lru_cache(maxsize=256)
def _qr_drawing(url: str) -> str:
    """The code's SVG, drawn once per link (256 kept, a few KB each): drawing one takes some
    10 ms, and a hall's QR sheets, projector and control room draw the same links on every visit."""
    image = qrcode.make(url, image_factory=SvgPathImage, box_size=10, border=2)
    return str(image.to_string(encoding="unicode"))


def entry_context(view: GameView) -> dict[str, object]:
    return adapter_for(view.game.variant).context(view)


def hand_facts(view: GameView, context: Mapping[str, object] | None = None) -> list[tuple[str, str]]:
    """The current hand's facts as the panel lists them (label, value). A tap that leaves them as
    they were is answered without them: the page keeps its own (views/games.py). `context`: the
    view's `entry_context`, when the caller has it already."""
    spec = view.state.next_round
    if spec is None:
        return []
    seats = seat_names(view)
    if spec.trump:
        trump = trump_label(spec.trump)
    else:
        trump = say((context if context is not None else entry_context(view)).get("trump_words")) or _("turned up")
    facts = [(_("Cards"), str(spec.cards)), (_("Trump"), trump), (_("Dealer"), seats[spec.dealer])]
    if spec.first_bidder is not None:
        facts.append((_("Bids first"), seats[spec.first_bidder]))
    return facts


def entry_template(view: GameView) -> str:
    return adapter_for(view.game.variant).template


def edit_template(view: GameView) -> str:
    return adapter_for(view.game.variant).edit_template


def player_pages(view: GameView) -> list[PlayerResults]:
    """Each column's own results page (its code and place), for the links under a game."""
    return game_players(view.sheet, view.game.public_id)


_rows: DrawnFrom[Line, Markup] = DrawnFrom(8192)  # 25 hands of a few hundred games, in three languages


def sheet_row(
    line: Line, colspan: int, says_result: bool, edit_url: str | None = None, edit_label: str = "", edit_word: str = ""
) -> Markup:
    """One hand's row of the score sheet, and its note's row: the hand's number, its cards and trump
    and, for a scorer, its Edit link under them (a column of its own was cut off on a 320 px phone);
    each cell the running total, and under it the hand's points and how they came, underlined when
    the bid was made. Drawn here, not by a template: at hand 25 Jinja's per-row machinery was a
    third of a first opening of the page (profiled). A note that is the game's result
    (`says_result`) is said under the totals on paper."""
    number = line.number
    head = f"{number}<br><small>{escape(say(describe_round(line.spec)))}</small>"
    if edit_url is not None:
        label = escape(edit_label % {"number": number})
        head += f'<br><a href="{escape(edit_url)}{number}" class="tap edit-hand" aria-label="{label}">{escape(edit_word)}</a>'
    language = catalogue()
    cells = []
    for cell in line.cells:
        cells.append(
            f'<td class="num{" made" if cell.made else ""}"><span class="total">{_number(language, cell.total)}'
            f'</span>\n    <small><span class="part points">{cell.points:+d}</span>'
            f"{_detail_parts(language, cell.detail)}</small></td>"
        )
    row = f'<tr id="hand-{number}">\n  <th scope="row">{head}</th>\n  ' + "\n  ".join(cells) + "\n</tr>\n"
    if line.note:
        mark = " says-result" if says_result else ""
        row += f'<tr class="note-row{mark}"><td colspan="{colspan}">{escape(say(line.note))}</td></tr>\n'
    return Markup(row)


# A cell's words and total as drawn, per language: a sheet at hand 25 has a hundred cells, and
# saying each anew (the catalogue found again, the words split and escaped) was half of drawing
# its rows (profiled). Words by object (the rules give one object per bid and tricks, e.g.
# rules/nomination.py), kept with it so that an id is never taken for another's.
_CELLS_KEPT = 4096
_parts: DrawnFrom[str, str] = DrawnFrom(_CELLS_KEPT)
_numbers: dict[tuple[int, object], str] = {}


def _detail_parts(language: NullTranslations, detail: str) -> str:
    if not detail:
        return ""
    return _parts.get(
        detail,
        language,
        lambda: "".join(
            f'<span class="sep"> · </span><span class="part">{escape(part)}</span>' for part in say(detail).split(" · ")
        ),
    )


def _number(language: NullTranslations, number: int) -> str:
    if type(number) is not int:  # a float would share an int's key
        return str(escape(format_number(number)))
    found = _numbers.get((number, language))
    if found is None:
        if len(_numbers) >= _CELLS_KEPT:
            _numbers.clear()
        found = _numbers[(number, language)] = str(escape(format_number(number)))
    return found


def kept_row(
    line: Line, colspan: int, says_result: bool, edit_url: str | None = None, edit_label: str = "", edit_word: str = ""
) -> Markup:
    """`sheet_row`, drawn once for the very same line object (the sheet a game keeps under its hands'
    revision, games/derived.py), language, Edit link and result mark: the rows of a sheet at hand 25
    were half of opening its page (profiled), and they change only when the hands do, which gives a
    new sheet. The Edit link's words are the language's, which the key holds."""
    return _rows.get(
        line,
        (catalogue(), edit_url, says_result),
        lambda: sheet_row(line, colspan, says_result, edit_url, edit_label, edit_word),
    )


_sheets: DrawnFrom[ScoreSheet, Markup] = DrawnFrom(1024)  # a few hundred games' sheets, in three languages


def kept_rows(sheet: ScoreSheet, edit_url: str | None = None, edit_label: str = "", edit_word: str = "") -> Markup:
    """All the sheet's rows (`kept_row` each), kept whole for the very same sheet object, language and
    Edit link: a page opened again at hand 25 went through the template's loop and a call per row
    (profiled), for rows that change only when the hands do, which gives a new sheet."""
    colspan = len(sheet.columns) + 1
    return _sheets.get(
        sheet,
        (catalogue(), edit_url),
        lambda: Markup("").join(
            kept_row(line, colspan, bool(line.note) and line.note == sheet.summary, edit_url, edit_label, edit_word)
            for line in sheet.lines
        ),
    )


def any_made(sheet: ScoreSheet) -> bool:
    """Whether a cell of the sheet is underlined as a bid made (the legend under the sheet says so)."""
    return any(cell.made for line in sheet.lines for cell in line.cells)


def offline_words(players: Sequence[str], cards: int, number: int) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The words a phone draws the rest of a hand with when it has no connection (static/js/outbox.js,
    which names these keys; templates/games/entry/_bids_tricks.html): each player's, with "{n}" for
    a number and "{b}" for a bid, and the hand's own. Said once per language, players and hand for
    all the hand's taps: drawn in the template on every tap they were a fifth of a tap's CPU."""
    return _offline_words(catalogue(), tuple(players), cards, number)


@lru_cache(maxsize=1024)
def _offline_words(
    language: NullTranslations, players: tuple[str, ...], cards: int, number: int
) -> tuple[list[dict[str, str]], dict[str, str]]:
    # in `language`, named so the catalogue finds the words: plain text for the phone to set as text
    # (a label, a hint), or, for the legends it sets as markup, as a template says them (values escaped)
    def _(template: str, **values: object) -> str:
        return language.ugettext(template) % values

    def markup(template: str, **values: object) -> str:
        return str(Markup(language.ugettext(template)) % values)

    seats = [
        {
            "n": name,
            "bl": markup("<strong>%(name)s</strong>’s bid", name=name),
            "tl": markup("<strong>%(name)s</strong>’s tricks", name=name),
            "tlb": markup("<strong>%(name)s</strong>’s tricks (bid %(bid)s)", name=name, bid="{b}"),
            "b": _("%(name)s bids %(bid)s", name=name, bid="{n}"),
            "t": _("%(name)s took %(tricks)s", name=name, tricks="{n}"),
            "f": _(
                "%(name)s bids last and may not bid %(bid)s: the bids would add up to %(cards)s, the number of tricks.",
                name=name,
                bid="{n}",
                cards=cards,
            ),
        }
        for name in players
    ]
    words = {
        "tr": markup("Which trump was turned up?"),
        "bd": _("Bids:"),
        "tk": _("Tricks:"),
        "sv": _("Save hand %(number)s", number=number),
        "na": _("%(bid)s (not allowed)", bid="{n}"),
        "lf": _(
            "%(left)s of %(cards)s tricks left to share out; the last player’s are filled in.", left="{n}", cards=cards
        ),
    }
    return seats, words


def offline_auction(view: GameView, seats: Sequence[str], post: str) -> dict[str, object] | None:
    """The rest of a Bid Whist hand as a phone with no connection enters it (static/js/outbox.js, which
    names these keys; templates/games/entry/_bid_whist.html): the auction so far, who calls first and
    deals, what four passes do, and the words. None when the hand has no auction to go on from."""
    spec = view.state.next_round
    if spec is None or spec.first_bidder is None:
        return None
    raw = (view.game.pending or {}).get("auction") or []
    auction = ["pass" if c is None else f"{c['bid']}-{c['kind']}" for c in raw]
    if view.state.step != "bids" and len(auction) != SEATS:
        return None
    teams = tuple(seat_team(view, seat) for seat in range(SEATS))
    return {
        "k": "bw",
        "id": f"{view.game.public_id}:{spec.number}",
        "no": spec.number,
        "u": post,
        "fb": spec.first_bidder,
        "dl": spec.dealer,
        "ap": view.setup.options.get_str("all_pass"),
        "au": auction,
        **_auction_words(catalogue(), tuple(seats), teams, spec.dealer, spec.number),
    }


@lru_cache(maxsize=256)
def _auction_words(
    _language: NullTranslations, seats: tuple[str, ...], teams: tuple[str, ...], dealer: int, number: int
) -> dict[str, object]:
    """`offline_auction`'s words in the language being drawn in (whose catalogue is `_language`): "h" keys
    are markup (names escaped), the others plain text; "{c}" stands for a call, "{n}" for a number."""
    return {
        "s": [
            {
                "n": name,
                "hcl": _("<strong>%(player)s</strong>’s call", player=escape(name)),
                "bd": say(M("%(player)s's bid of %(call)s", player=name, call="{c}")),
                "ps": say(M("%(player)s's pass", player=name)),
                "hwon": _(
                    "<strong>%(player)s</strong> won the bid: <strong>%(bid)s</strong>.", player=escape(name), bid="{c}"
                ),
                "hnd": escape(_("%(team)s need %(books)s books (the kitty counts as one).", team=team, books="{n}")),
                "hbk": escape(_("Books taken by %(team)s, kitty included", team=team)),
                "bk": _("%(team)s took %(books)s books", team=team, books="{n}"),
            }
            for name, team in zip(seats, teams, strict=True)
        ],
        "cl": [[f"{c.bid}-{c.kind.value}", say(c.said())] for c in ALL_CALLS],
        "w": {
            "ps": _("Pass"),
            "ca": _("Calls:"),
            "hi": _("Plain = uptown (high wins), Special = downtown (low wins), No = no trumps."),
            "fc": say(M("%(dealer)s deals and must bid when the other three pass", dealer=seats[dealer])),
            "rd": say(
                M(
                    "All four passed: the cards are thrown in and %(dealer)s deals again. "
                    "Enter the calls of the new deal.",
                    dealer=seats[dealer],
                )
            ),
            "dc": _("The bidder declares"),
            "dr": [["uptown", _("Uptown (high wins)")], ["downtown", _("Downtown (low wins)")]],
            "tn": _("Trumps named (optional)"),
            "tr": [[t.value, trump_label(t)] for t in SUITS],
            "nt": trump_label(Trump.NO_TRUMPS),
            "sv": _("Save hand %(number)s", number=number),
        },
    }


TEMPLATE_GLOBALS = {
    f.__name__: f
    for f in (
        seat_names,
        seat_team,
        pairs,
        sides,
        trump_label,
        one_liner,
        options_summary,
        options_in_force,
        hand_title,
        place,
        chart_svg,
        qr_svg,
        entry_context,
        entry_template,
        edit_template,
        hand_facts,
        player_pages,
        sheet_row,
        kept_row,
        kept_rows,
        any_made,
        offline_words,
        offline_auction,
    )
}
