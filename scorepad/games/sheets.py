"""Score sheets rendered for people and programs: a plain-text table and a JSON document.

Pure formatting of a `ScoreSheet` the rules engine derived; nothing here computes a score.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum

from scorepad.rules.base import M, Message, RoundKind, RoundSpec, ScoreSheet, joined

_KIND_WORDS = {
    RoundKind.BLIND: M("blind"),
    RoundKind.MISERE: M("misère"),  # the rules document's word, said as players say it in every language
    RoundKind.PLAYOFF: M("playoff"),
}


def describe_round(spec: RoundSpec) -> Message:
    """A short label for a hand: cards dealt, trump and anything special."""
    parts: list[str] = [M("1 card") if spec.cards == 1 else M("%(count)s cards", count=spec.cards)]
    if spec.trump is not None:
        parts.append(spec.trump.symbol)
    if spec.kind in _KIND_WORDS:
        parts.append(_KIND_WORDS[spec.kind])
    return joined(parts, " ")


def to_text(sheet: ScoreSheet, title: str = "") -> str:
    """The sheet as a fixed-width table: one row per hand (points and running total per column)."""
    header = ["Hand", "Round", *sheet.columns, "Notes"]
    rows = [
        [str(line.number), describe_round(line.spec), *(f"{c.points:+d} = {c.total}" for c in line.cells), line.note]
        for line in sheet.lines
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out: list[str] = []
    if title:
        out += [title, ""]

    def fmt(row: list[str]) -> str:
        first = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells = [v.rjust(w) for v, w in zip(row[2:-1], widths[2:-1])]
        return "  ".join(first + cells + [row[-1]]).rstrip()

    out.append(fmt(header))
    out.append("  ".join("-" * w for w in widths[:-1]))
    out += [fmt(r) for r in rows]
    out.append("")
    out.append("Final standings" if sheet.finished else "Standings so far (game not finished)")
    for s in sheet.standings:
        tied = sum(1 for o in sheet.standings if o.rank == s.rank) > 1
        place = f"{s.rank}{'=' if tied else '.'}"
        detail = f"  ({s.detail})" if s.detail else ""
        out.append(f"  {place:<4}{s.name}  {s.total}{detail}")
    if sheet.summary:
        out += ["", sheet.summary]
    return "\n".join(out) + "\n"


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def to_json(sheet: ScoreSheet) -> str:
    """The sheet as JSON: every line and cell, the standings, the winners by name."""
    data = _plain(dataclasses.asdict(sheet))
    assert isinstance(data, dict)
    data["winner_names"] = [sheet.columns[i] for i in sheet.winners]
    return json.dumps(data, ensure_ascii=False, indent=2)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: object) -> object:
    """Text a spreadsheet would run as a formula (a name typed as "=HYPERLINK(...)") gets a leading '.

    Numbers stay numbers: only text is guarded (a negative score is a number, not a formula)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_csv(sheet: ScoreSheet) -> str:
    """The sheet as CSV: one row per hand with each column's bid, tricks, points and running total
    (bid and tricks empty where the variant has none; Bid Whist's books are its tricks)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out)

    def row(values: list[object]) -> None:
        writer.writerow([_csv_text(v) for v in values])

    what = ("bid", "tricks", "points", "total")
    row(["Hand", "Round", *(f"{c} {w}" for c in sheet.columns for w in what), "Note"])
    for line in sheet.lines:
        cells = [
            v
            for c in line.cells
            for v in ("" if c.bid is None else c.bid, "" if c.tricks is None else c.tricks, c.points, c.total)
        ]
        row([line.number, describe_round(line.spec), *cells, line.note])
    row([])
    row(["Place", "Name", "Total", "Detail"])
    for s in sheet.standings:
        row([s.rank, s.name, s.total, s.detail])
    return out.getvalue()
