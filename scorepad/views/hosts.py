"""Which pages host an event of each format: the event core's views hand requests over by format.

Military Whist has its own views in `director`, `tables` and `board`; a tournament format
provides `control(event)`, `table_page(table)` and `board_folder`/`board_context(event)`.
"""

from __future__ import annotations

from types import ModuleType

from scorepad.models import Event


def host(event: Event) -> ModuleType | None:
    """The views module of `event`'s format, or None for Military Whist (the core's own)."""
    from scorepad.views import club, drive, tournament

    return {"bid_whist": tournament, "club": club, "whist_drive": drive}.get(event.format)
