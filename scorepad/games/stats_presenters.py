"""How the group's statistics pages show figures (issue 15): shared places, which of
a variant's facts to list, and the geometry of a player's results chart, drawn by a template as
SVG (`templates/group_stats/_results_chart.html`: no script, no inline style). Nothing is counted
here: the rules' `stats` counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorepad.rules.stats import Fact, PlayerStats, ResultPoint, SeasonRow


def places(rows: Sequence[SeasonRow]) -> dict[int, str]:
    """Each row's place as written on a table: "1", or "1=" when it is shared."""
    shared = {r.rank for r in rows if sum(1 for o in rows if o.rank == r.rank) > 1}
    return {r.player: f"{r.rank}=" if r.rank in shared else str(r.rank) for r in rows}


def shown_facts(figures: PlayerStats) -> tuple[Fact, ...]:
    """The variant's facts worth a line: a rate out of nothing (no misère round ever played) is left out."""
    return tuple(f for f in figures.facts() if f.out_of != 0)


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    result: ResultPoint


@dataclass(frozen=True)
class ResultsChart:
    """A player's final scores in one variant, game after game: the plot box, the points, the line
    through them, the lowest and highest score's heights (and 0's when the scores cross it)."""

    width: int
    height: int
    left: int
    right: int
    points: tuple[ChartPoint, ...]
    low: int
    high: int
    y_low: float
    y_high: float
    y_zero: float | None
    bottom: float

    @property
    def line(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def won(self) -> int:
        return sum(p.result.won for p in self.points)


def results_chart(results: Sequence[ResultPoint], width: int = 360, height: int = 170) -> ResultsChart:
    """The chart of `results` (oldest first), evenly spaced in the order played."""
    scores = [r.score for r in results] or [0]
    low, high = min(scores), max(scores)
    span = (high - low) or 1
    left, right, top, bottom = 40, 10, 10, height - 24
    plot_w, plot_h = width - left - right, bottom - top

    def y(v: int) -> float:
        return top + plot_h * (high - v) / span if high != low else top + plot_h / 2

    steps = len(results) - 1
    points = tuple(
        ChartPoint(left + plot_w * i / steps if steps else left + plot_w / 2, y(r.score), r)
        for i, r in enumerate(results)
    )
    return ResultsChart(
        width, height, left, width - right, points, low, high, y(low), y(high), y(0) if low < 0 < high else None, bottom
    )
