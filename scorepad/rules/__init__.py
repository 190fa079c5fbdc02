"""The rules engine: one module per variant, pure Python, standard library only.

`get_variant(key)` maps the key stored in the database and in game records to its module's
`VARIANT`, so callers never branch on the variant themselves.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from scorepad.rules.base import RuleError, RuleErrors, Variant, quoted

if TYPE_CHECKING:  # mypy proves every module's VARIANT fulfils the protocol
    from scorepad.rules import australian, bid_whist, military, nomination, whist

    _CONFORMING: tuple[Variant, ...] = (
        whist.VARIANT,
        military.VARIANT,
        bid_whist.VARIANT,
        nomination.VARIANT,
        australian.VARIANT,
    )

VARIANT_MODULES: dict[str, str] = {
    "whist": "scorepad.rules.whist",
    "military": "scorepad.rules.military",
    "bid_whist": "scorepad.rules.bid_whist",
    "nomination": "scorepad.rules.nomination",
    "australian": "scorepad.rules.australian",
}


def get_variant(key: str) -> Variant:
    """The variant stored under `key`; a RuleError names the known keys otherwise."""
    module = VARIANT_MODULES.get(key)
    if module is None:
        known = ", ".join(VARIANT_MODULES)
        raise RuleError("variant", f"{quoted(key)} is not a known variant; use one of: {known}")
    variant: Variant = import_module(module).VARIANT
    return variant


def all_variants() -> list[Variant]:
    """Every variant, in the order they are presented."""
    return [get_variant(key) for key in VARIANT_MODULES]


__all__ = ["RuleError", "RuleErrors", "Variant", "get_variant", "all_variants", "VARIANT_MODULES"]
