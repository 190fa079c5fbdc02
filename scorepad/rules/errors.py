"""Rule errors: a field and a message a player understands (the vocabulary every rules module
speaks, kept apart from `base` so that `cards` can use it without importing the whole contract)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self


class Message(str):
    """Words for a player that another language can say: the English text itself (what `str` gives,
    so the command line, records and tests read plain English), and the `template` it was made
    from, with `%(name)s` placeholders, and its `params`. The web layer says it in the reader's
    language: the template's translation, then each param (a Message param said in turn).

    Write `M("the tricks add up to %(total)s", total=7)`; `M` is the keyword the catalogues are
    extracted with (babel.cfg), so the template is the catalogue's message. The rules stay pure:
    nothing here knows a language but English. docs/translations.md, "Rule messages"."""

    template: str
    params: Mapping[str, object]

    def __new__(cls, template: str, /, **params: object) -> Self:
        # %(name)s already says each param as str() would: no copy of the params made for it (a
        # 64-table Military sheet makes some 180,000 messages; issue 33)
        message = super().__new__(cls, template % params if params else template)
        message.template = template
        message.params = params
        return message


M = Message  # the extraction keyword


def joined(words: Sequence[object], separator: str = ", ") -> Message:
    """Words one after another, each said in the reader's language; no words of its own to translate."""
    template = separator.replace("%", "%%").join(f"%({i})s" for i in range(len(words)))
    return Message(template, **{str(i): word for i, word in enumerate(words)})


def as_said(value: object) -> object:
    """A message as plain JSON, to store beside its English (an undo step, an audit entry): its
    template and its params, each a message in turn, a number or text."""
    if isinstance(value, Message):
        return {"template": value.template, "params": {key: as_said(v) for key, v in value.params.items()}}
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def from_said(raw: object) -> object:
    """The message `as_said` stored, or None when it is not one (the stored English is shown instead)."""
    if isinstance(raw, (str, int)) and not isinstance(raw, bool):
        return raw
    if (
        not isinstance(raw, Mapping)
        or not isinstance(raw.get("template"), str)
        or not isinstance(raw.get("params"), Mapping)
    ):
        return None
    params = {str(key): from_said(value) for key, value in raw["params"].items()}
    if any(value is None for value in params.values()) or (not params and "%(" in raw["template"]):
        return None
    try:
        return Message(raw["template"], **params)
    except (KeyError, ValueError, TypeError):  # a template that does not fit its params: not ours
        return None


class RuleError(ValueError):
    """One broken rule: the field it concerns and a message a player understands.

    `field` is a dotted path inside the hand or record (``bids.2``, ``tricks``, ``options.target``);
    `hand` is the 1-based hand number when the error belongs to one hand.
    """

    def __init__(self, field: str, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.hand = hand

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str, int | None], dict[str, object]]:
        """Pickled as made, with its notes (a check run in another process raises the same error here)."""
        return type(self), (self.field, self.message, self.hand), self.__dict__

    def at_hand(self, hand: int) -> RuleError:
        """Return this error located at `hand` (used when checking a whole record)."""
        return RuleError(self.field, self.message, hand)

    def __str__(self) -> str:
        where = f"hand {self.hand}, " if self.hand is not None else ""
        return f"{where}{self.field}: {self.message}"


class RuleErrors(ValueError):
    """Several rule errors found together, so a record is reported in one go."""

    def __init__(self, errors: Sequence[RuleError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(str(e) for e in self.errors))

    def __reduce__(self) -> tuple[type[RuleErrors], tuple[tuple[RuleError, ...]], dict[str, object]]:
        return type(self), (self.errors,), self.__dict__


class ErrorCollector:
    """Gather `RuleError`s from several checks, then raise them all at once."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def add(self, error: RuleError | RuleErrors) -> None:
        if isinstance(error, RuleErrors):
            self.errors.extend(error.errors)
        else:
            self.errors.append(error)

    def raise_if_any(self) -> None:
        if self.errors:
            raise RuleErrors(self.errors)


QUOTE_MAX = 60


def quoted(raw: object) -> str:
    """A value from a record, quoted for a message: repr keeps it on one line, and it is cut when
    long, so a key such as "tri\\ncks" cannot split one problem over several lines."""
    try:
        text = repr(raw)
    except (ValueError, RecursionError):  # an int past the digit limit, a deeply nested list
        text = "a value too large to show"
    return text if len(text) <= QUOTE_MAX else f"{text[: QUOTE_MAX - 3]}..."
