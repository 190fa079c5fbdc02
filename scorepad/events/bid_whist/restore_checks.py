"""The checks a restored Bid Whist tournament's rows pass (`check_rows`, called through
`FORMAT.check` by events/backup.py): only rows the tournament's own play can leave become an event."""

from __future__ import annotations

from typing import Any

from scorepad.events import core
from scorepad.events.bid_whist import derived, matches, registration, tournament
from scorepad.models import Event, EventMatch
from scorepad.rules.base import RuleError, RuleErrors, key_field, quoted
from scorepad.rules.errors import M, Message


def _option_errors(options: dict[str, Any]) -> list[RuleError]:
    checks: dict[str, tuple[Any, Message]] = {
        "rounds": (
            lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 8,
            M("%(option)s must be %(least)s to %(most)s rounds", option="rounds", least=1, most=8),
        ),
        "bracket": (
            lambda v: v in dict(tournament.BRACKETS),
            M(
                "%(option)s must be one of %(choices)s",
                option="bracket",
                choices=", ".join(k for k, _ in tournament.BRACKETS),
            ),
        ),
        "made_scores": (
            lambda v: v in ("books", "bid"),
            M("%(option)s must be %(books)s or %(bid)s", option="made_scores", books='"books"', bid='"bid"'),
        ),
        "hidden": (lambda v: isinstance(v, bool), M("%(option)s must be true or false", option="hidden")),
        "seed": (
            lambda v: isinstance(v, str) and 0 < len(v) <= 64,
            M("%(option)s must be text of %(least)s to %(most)s characters", option="seed", least=1, most=64),
        ),
        registration.ISSUED: (
            lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= registration.NUMBERS_MAX,
            M(
                "%(option)s must be a whole number from %(least)s to %(most)s",
                option=registration.ISSUED,
                least=0,
                most=registration.NUMBERS_MAX,
            ),
        ),
    }
    errors = [
        RuleError(f"options.{key_field(k)}", M("%(option)s is not a Bid Whist tournament option", option=quoted(k)))
        for k in options
        if k not in checks
    ]
    for key, (ok, must_be) in checks.items():
        if key in options and not ok(options[key]):
            errors.append(RuleError(f"options.{key}", must_be))
        elif key not in options and key != registration.ISSUED:
            errors.append(RuleError(f"options.{key}", M("the option %(option)s is missing", option=key)))
    return errors


_DECISIONS: dict[str, tuple[str, ...]] = {
    "cut": ("winners",),
    "publish": ("round",),
    "walkover": ("match", "winner", "reason"),
    "swap": ("match", "out", "in", "reason"),
}


def _decision_errors(event: Event) -> list[RuleError]:
    errors = []
    for d in event.decisions:
        keys = _DECISIONS.get(d.kind)
        if keys is None:
            errors.append(
                RuleError("decisions", M("%(kind)s is not a decision of a Bid Whist tournament", kind=quoted(d.kind)))
            )
        elif sorted(d.data) != sorted(keys) or not all(
            isinstance(d.data[k], str)
            if k == "reason"
            else (
                isinstance(d.data[k], list) and all(isinstance(n, int) and not isinstance(n, bool) for n in d.data[k])
            )
            if k == "winners"
            else (isinstance(d.data[k], int) and not isinstance(d.data[k], bool))
            for k in keys
        ):
            errors.append(
                RuleError(
                    "decisions",
                    M(
                        "a %(kind)s decision holds %(keys)s (numbers; a reason as text), not %(data)s",
                        kind=d.kind,
                        keys=", ".join(keys),
                        data=quoted(d.data),
                    ),
                )
            )
    return errors


def check_rows(event: Event) -> None:
    """RuleErrors unless the rows are what the tournament's play leaves (a restored backup, see
    events/backup.py): its options, registration until the start, then a table per two teams,
    each round's matches exactly as the seed draws them, the bracket's as the standings seed it,
    every match with its Bid Whist game, and the director's decisions in the shape they are kept."""
    errors = _option_errors(event.options) + _decision_errors(event)
    errors += core.unused(event, "hands", "results", "loans", "playoffs", "days_closed")
    errors += [
        RuleError(
            "entrants",
            M(
                "%(name)s…: a single player's name is at most %(most)s characters",
                name=e.name[:40],
                most=registration.MAX_PLAYER,
            ),
        )
        for e in registration.singles(event)
        if len(e.name) > registration.MAX_PLAYER
    ]
    errors += [
        RuleError(
            "entrants",
            M(
                "%(player)s plays for %(first)s and for %(second)s: a player's name is theirs alone in a tournament",
                player=name,
                first=found[0].name,
                second=found[1].name,
            ),
        )
        for name, found in registration.duplicate_players(event.entrants)
    ]
    registered = len(tournament.teams(event)) + (len(registration.singles(event)) + 1) // 2
    if registered > registration.MAX_TEAMS:
        errors.append(
            RuleError(
                "entrants",
                M(
                    "a tournament has at most %(most)s teams (two single players make one), not %(count)s",
                    most=registration.MAX_TEAMS,
                    count=registered,
                ),
            )
        )
    if errors:
        raise RuleErrors(errors)
    count, last = len(tournament.teams(event)), min(event.current_hand, tournament.rounds(event))
    if event.started_at is None:
        if event.current_hand or event.tables or event.matches or event.decisions:
            errors.append(
                RuleError("started_at", M("a tournament still registering has no tables, rounds or decisions"))
            )
    elif registration.singles(event) or count < 2:
        errors.append(RuleError("entrants", M("a tournament starts with two teams or more, and no single player")))
    elif not 1 <= event.current_hand <= tournament.rounds(event) + 1:
        errors.append(RuleError("current_hand", _stage_beyond(event.current_hand, tournament.rounds(event))))
    elif len(event.tables) != (count + 1) // 2:
        errors.append(
            RuleError(
                "tables",
                M("2 teams play at 1 table, not %(found)s", found=len(event.tables))
                if count == 2
                else M(
                    "%(count)s teams play at %(tables)s tables, not %(found)s",
                    count=count,
                    tables=(count + 1) // 2,
                    found=len(event.tables),
                ),
            )
        )
    else:
        drawn = tournament.draws(event, last)
        for draw in drawn:
            played = sorted((m.table, m.home, m.away) for m in matches.of_stage(event, "round", draw.round))
            if played != sorted((s.table, s.home, s.away) for s in draw.seats):
                errors.append(
                    RuleError(
                        "matches", M("round %(round)s's matches are not the draw its seed gives", round=draw.round)
                    )
                )
        if any(m.number > last for m in matches.of_stage(event, "round")):
            errors.append(
                RuleError(
                    "matches",
                    M("a match of a round not drawn yet (round %(round)s is in play)", round=event.current_hand),
                )
            )
        if matches.of_stage(event, "bracket") and event.current_hand <= tournament.rounds(event):
            errors.append(RuleError("matches", M("bracket matches before the preliminary rounds are over")))
    for m in event.matches:
        if m.game is None or m.game.variant != matches.VARIANT_KEY or m.game.options != tournament.game_options(event):
            errors.append(
                RuleError(
                    "matches",
                    M(
                        "%(match)s has no Bid Whist game of the tournament's options (%(options)s)",
                        match=_stage_label(m),
                        options=quoted(tournament.game_options(event)),
                    ),
                )
            )
    if {g.id for g in core.games_of(event)} != {m.game_id for m in event.matches}:
        errors.append(RuleError("games", M("every game of a tournament is a match's")))
    if errors:
        raise RuleErrors(errors)
    state = derived.view(event).bracket_state
    if state is not None:
        known = {x.number: x for x in state.matches}
        for m in matches.of_stage(event, "bracket"):
            b = known.get(m.number)
            if b is None or (m.table, m.home, m.away) != (b.table, *b.teams):
                errors.append(
                    RuleError("matches", M("%(match)s is not the match the bracket sets there", match=_stage_label(m)))
                )
    if errors:
        raise RuleErrors(errors)


def _stage_beyond(stage: int, count: int) -> Message:
    """A stage past the tournament's rounds and its bracket, in words (a tournament of one round said apart)."""
    if count == 1:
        return M("stage %(stage)s: a tournament of 1 round is at round 1, or 2 (the bracket)", stage=stage)
    return M(
        "stage %(stage)s: a tournament of %(rounds)s rounds is at round 1 to %(rounds)s, or %(bracket)s (the bracket)",
        stage=stage,
        rounds=count,
        bracket=count + 1,
    )


def _stage_label(m: EventMatch) -> Message:
    if m.stage == "round":
        return M("round %(number)s, table %(table)s", number=m.number, table=m.table)
    return M("bracket match %(number)s, table %(table)s", number=m.number, table=m.table)
