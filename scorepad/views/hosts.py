"""Which pages host an event of each format: the event core's views hand requests over by format.

Military Whist has its own views in `director`, `tables` and `board`; a tournament format
provides `control(event)`, `table_page(table)` and `board_folder`/`board_context(event)`, and its
service an `export(event)` for `/b/<id>/event.json`.
"""

from __future__ import annotations

from types import ModuleType

from scorepad.models import Event


def host(event: Event) -> ModuleType | None:
    """The views module of `event`'s format, or None for Military Whist (the core's own)."""
    from scorepad.views import bid_whist as tournament, club, drive

    return {"bid_whist": tournament, "club": club, "whist_drive": drive}.get(event.format)


def export(event: Event) -> dict[str, object]:
    """The event as JSON, by its format: Military Whist's game record, or the format's own export."""
    from scorepad.events import club
    from scorepad.events import drive as drive_event
    from scorepad.events import military as events
    from scorepad.events.bid_whist import tournament

    exporters = {"bid_whist": tournament.export, "club": club.export, "whist_drive": drive_event.export}
    return exporters.get(event.format, events.record_of)(event)
