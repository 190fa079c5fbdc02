"""The new-game form: what was typed, kept across add/remove taps, turned into a game record.

Option values arrive as text from the form (checkboxes, selects, number fields); they are turned
into JSON values here and then validated, with their messages, by the rules engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorepad.form_input import signed_number, whole_number
from scorepad.games.entry import adapter_for
from scorepad.i18n import say
from scorepad.rules.base import M, OptionSpec, OptionValue, RuleError, RuleErrors, Variant

DEFAULT_NAMES = ("", "", "", "")
DEFAULT_TEAMS = (M("Us"), M("Them"))


def default_teams() -> list[str]:
    """The two team names offered before any is typed, in the reader's language (stored as shown)."""
    return [say(team) for team in DEFAULT_TEAMS]


def default_player(index: int) -> str:
    """The name given to a seat left empty, in the reader's language (stored as shown)."""
    return say(M("Player %(number)s", number=index + 1))


def _option_from_form(spec: OptionSpec, form: Mapping[str, str]) -> OptionValue | str:
    key = f"opt.{spec.key}"
    if isinstance(spec.default, bool):
        return form.get(key) == "on"  # an unticked checkbox is simply not sent
    if key not in form:
        return spec.default
    raw = (form.get(key) or "").strip()
    if isinstance(spec.default, str):
        return raw or spec.default
    if isinstance(spec.default, int):
        number = signed_number(raw)
        return raw if number is None else number
    parts = [p.strip() for p in raw.replace(";", ",").split(",") if p.strip()]
    numbers = [whole_number(p) for p in parts]
    return tuple(n for n in numbers if n is not None) if parts and None not in numbers else raw


@dataclass
class SetupForm:
    variant: Variant
    names: list[str] = field(default_factory=list)  # players, or the four seats of a partnership game
    teams: list[str] = field(default_factory=list)
    first_dealer: int | None = 0  # None: what was sent is not a seat number
    title: str = ""
    options: dict[str, OptionValue | str] = field(default_factory=dict)

    @property
    def partnerships(self) -> bool:
        return self.variant.partnerships

    @property
    def player_range(self) -> tuple[int, int]:
        """The fewest and the most players the variant seats (`Variant.players`)."""
        return self.variant.players[0], self.variant.players[-1]

    @classmethod
    def from_request(cls, variant: Variant, form: Mapping[str, str] | None) -> SetupForm:
        """The form as posted, or the defaults for a first visit."""
        partnerships = variant.partnerships
        if form is None:
            names = list(DEFAULT_NAMES)
            options: dict[str, OptionValue | str] = {s.key: s.default for s in variant.option_specs}
            options.update(adapter_for(variant.key).home_defaults)  # e.g. Bid Whist to 7 points
            return cls(variant, names, default_teams() if partnerships else [], 0, "", options)
        # a partnership game always has its four seats, however few fields were sent; an individual
        # game reads at most one row more than the variant seats (the page never offers it; the rules
        # refuse it): a form of thousands of names is not drawn back thousands of rows long
        most = variant.players[-1] + 1
        count = 4 if partnerships else min(most, len([k for k in form if k.startswith("name.")]))
        names = [form.get(f"name.{i}", "") for i in range(count)]
        teams = [form.get(f"team.{i}", "") for i in range(2)] if partnerships else []
        dealer = (form.get("first_dealer") or "0").strip()
        options = {s.key: _option_from_form(s, form) for s in variant.option_specs}
        return cls(variant, names, teams, signed_number(dealer), form.get("title", "").strip(), options)

    def apply(self, action: str) -> None:
        """Add or remove a player row (individual variants only)."""
        low, high = self.player_range
        if action == "add" and len(self.names) < high:
            self.names.append("")
        elif action.startswith("remove-") and len(self.names) > low:
            raw = action.removeprefix("remove-")
            index = whole_number(raw)  # None: a tampered button removes nobody
            if index is not None and index < len(self.names):
                del self.names[index]
                if self.first_dealer is not None and self.first_dealer >= len(self.names):
                    self.first_dealer = 0

    def shown_error_keys(self) -> set[str]:
        """The error keys the form shows beside a field; any other is listed above the form."""
        keys = {"first_dealer", "title", *(f"options.{s.key}" for s in self.variant.option_specs)}
        if self.partnerships:
            keys.add("teams")
            for t in range(2):
                keys |= {
                    f"teams.{t}",
                    f"teams.{t}.name",
                    f"teams.{t}.players",
                    f"teams.{t}.players.0",
                    f"teams.{t}.players.1",
                }
        else:
            keys |= {"players", *(f"players.{i}" for i in range(len(self.names)))}
        return keys

    def seat_labels(self) -> list[str]:
        """What to call each seat in the first-dealer choice."""
        if not self.partnerships:
            return [n.strip() or default_player(i) for i, n in enumerate(self.names)]
        teams = [t.strip() or d for t, d in zip(self.teams, default_teams())]
        return [self.names[s].strip() or f"{teams[s % 2]} {s // 2 + 1}" for s in range(4)]

    def record(self) -> dict[str, object]:
        """The set-up as a game record with no hands, for the rules engine to check."""
        errors: list[RuleError] = []
        if self.first_dealer is None:
            errors.append(RuleError("first_dealer", M("choose who deals first")))
        options: dict[str, object] = {}
        for spec in self.variant.option_specs:
            value = self.options.get(spec.key, spec.default)
            if isinstance(value, str) and not isinstance(spec.default, str):
                errors.append(
                    RuleError(
                        f"options.{spec.key}",
                        M("%(option)s must be a whole number or a list of them", option=spec.label)
                        if isinstance(spec.default, tuple)
                        else M("%(option)s must be a whole number", option=spec.label),
                    )
                )
                continue
            options[spec.key] = list(value) if isinstance(value, tuple) else value
        if errors:
            raise RuleErrors(errors)
        record: dict[str, object] = {"variant": self.variant.key, "options": options, "first_dealer": self.first_dealer}
        if self.title:
            record["title"] = self.title
        if self.partnerships:
            teams = [t.strip() or d for t, d in zip(self.teams, default_teams())]
            named = [n.strip() for n in self.names[:4]]
            record["teams"] = [
                {"name": teams[t], "players": [named[t], named[t + 2]] if named[t] or named[t + 2] else []}
                for t in range(2)
            ]
        else:
            record["players"] = [n.strip() or default_player(i) for i, n in enumerate(self.names)]
        return record
