"""The home page and the variant pages: what each variant is and how it is scored."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, session

from scorepad.events import core
from scorepad.events.registry import get_format
from scorepad.games import records
from scorepad.games import service as games
from scorepad.rules import VARIANT_MODULES, RuleError, all_variants, get_variant
from scorepad.rules.base import describe_options, resolve_options

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Games in progress and recent games, a way to start one, and the variants' scoring."""
    mine = set(session.get("my_games", []))
    listed = [(games.view(g), g.scorer_token in mine) for g in games.recent_games()]
    return render_template("home/index.html", variants=all_variants(),
                           in_progress=[(v, m) for v, m in listed if not v.state.over],
                           finished=[(v, m) for v, m in listed if v.state.over],
                           recent_events=[(e, get_format(e.format).title) for e in core.recent_events()])


@bp.get("/variants/<key>")
def variant(key: str) -> str:
    """Show one variant: its scoring, its options with their defaults, and a sample sheet."""
    if key not in VARIANT_MODULES:
        abort(404, description=f"There is no variant called '{key}'.")
    try:
        rules = get_variant(key)
    except RuleError:
        abort(404)
    defaults = describe_options(rules.option_specs, resolve_options(rules.option_specs, {}))
    demo = records.demo_game(key)
    sample = games.view(demo) if demo else None
    return render_template("home/variant.html", variant=rules, defaults=defaults, sample=sample)


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict[str, str]]:
    """A trivial answer (load balancers, and the benchmark's baseline)."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
