"""The home page and the variant pages: what each variant is and how it is scored."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from scorepad import services
from scorepad.rules import VARIANT_MODULES, RuleError, all_variants, get_variant
from scorepad.rules.base import describe_options, resolve_options

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """List the variants with a summary of each one's scoring."""
    return render_template("home/index.html", variants=all_variants())


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
    sample = services.demo_sheet(key)
    return render_template("home/variant.html", variant=rules, defaults=defaults, sample=sample)
