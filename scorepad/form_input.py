"""Reading numbers and PINs typed into forms, strictly.

str.isdigit() and int() accept "²", "٧" or "1_0", and int() fails on thousands of digits: a form
value is a number only when it is plain ASCII digits of a sensible length, else it is bad input.
"""

from __future__ import annotations

import re


def whole_number(raw: object, digits: int = 3) -> int | None:
    """A form's number: ASCII digits only, at most `digits` of them, else None."""
    if isinstance(raw, str) and re.fullmatch(f"[0-9]{{1,{digits}}}", raw):
        return int(raw)
    return None


def signed_number(raw: object, digits: int = 3) -> int | None:
    """Like `whole_number`, with an optional leading minus sign."""
    if isinstance(raw, str) and re.fullmatch(f"-?[0-9]{{1,{digits}}}", raw):
        return int(raw)
    return None


def valid_pin(pin: str) -> bool:
    """A director's PIN: 4 to 8 digits."""
    return re.fullmatch("[0-9]{4,8}", pin) is not None
