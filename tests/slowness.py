"""How long a test waits before it calls something hung, on a busy machine (issue 29, item 7).

A wait that guards against a hang (a server that never starts, a process that never stops, a page
that never updates) is a bound, not a measurement: it costs nothing when the thing happens sooner.
Each is written as the time it takes on a quiet machine and scaled by SCOREPAD_TEST_SLOWNESS: 2 by
default, since the suite itself runs 4 processes on 2 cores (pytest-xdist), so anything may take
twice as long as alone; more on a machine other work shares (`SCOREPAD_TEST_SLOWNESS=4`), 1 to
fail sooner on a quiet one. What a test measures (a page updated "within a second") is asserted
against the same clock scaled the same way: the claim is about the app, not the machine's load.
"""

from __future__ import annotations

import os


def _factor() -> float:
    raw = os.environ.get("SCOREPAD_TEST_SLOWNESS", "").strip() or "2"
    try:
        factor = float(raw)
    except ValueError:
        raise ValueError(f"SCOREPAD_TEST_SLOWNESS must be a number (2 by default), not {raw!r}") from None
    if not factor > 0:
        raise ValueError(f"SCOREPAD_TEST_SLOWNESS must be above 0, not {raw!r}")
    return factor


SLOWNESS = _factor()


def scaled(seconds: float) -> float:
    """`seconds` on a quiet machine, as waited for on this one."""
    return seconds * SLOWNESS


def scaled_ms(milliseconds: float) -> float:
    """The same for Playwright, which counts in milliseconds."""
    return milliseconds * SLOWNESS
