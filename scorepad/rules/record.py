"""The public game-record format: one JSON document holding a whole game as entered.

A record names the variant, its options, the players or teams, the first dealer and the hands
exactly as entered. It is what the app exports and imports and what `scorepad score` reads;
`docs/game-record.md` documents it. Reading a record checks the set-up; scoring it checks
every hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorepad.rules import VARIANT_MODULES, get_variant
from scorepad.rules.base import (
    ErrorCollector,
    M,
    RawHand,
    RuleError,
    RuleErrors,
    ScoreSheet,
    Setup,
    Team,
    key_field,
    quoted,
    resolve_options,
)

FORMAT_VERSION = 1
NAME_MAX = 40
_KNOWN_KEYS = {"scorepad", "variant", "options", "players", "teams", "first_dealer", "hands", "title", "played"}
_TEAM_KEYS = ("name", "players")
_LABELS = {"title": M("the title"), "played": M('when it was played ("played")')}
TITLE_MAX = 120  # a game's title, as stored
HANDS_MAX = 1000  # far past any game (a provincial Military event is 100 hands): a record is read whole
RECORD_MAX_BYTES = 2 * 1024 * 1024  # a 1,000-hand record of seven players is about 300 KB
PROBLEMS_SHOWN = 20  # problems listed at once (a form, not a terminal): the first ones say enough
# A file of several games (a phone's or a group's "Export all games"): a JSON list of records.
GAMES_MAX = 30  # games one file brings in: as many as a phone lists as its own (views/games.remember_game)
# their hands together: a season of home games (30 of 23 hands), and at most two of the largest
# records' work (a 500-hand Military game of 64 tables: 3.4 s to check, two 9 s; docs/benchmarks.md)
GAMES_HANDS_MAX = HANDS_MAX
GAMES_MAX_BYTES = 2 * RECORD_MAX_BYTES
LISTED = "games"  # the field of a list's problem, whose message says itself which game it is about


@dataclass(frozen=True)
class Record:
    """A parsed record: the set-up, the hands as entered, and its free-text labels."""

    setup: Setup
    hands: tuple[RawHand, ...]
    title: str = ""
    played: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)


def _name(raw: object, field_name: str, what: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise RuleError(field_name, M("%(what)s needs a name", what=what))
    name = " ".join(raw.split())
    if len(name) > NAME_MAX:
        raise RuleError(field_name, M("%(what)s's name is longer than %(most)s characters", what=what, most=NAME_MAX))
    return name


def _unique(names: Sequence[str], field_name: str, what: str) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name.casefold() in seen:
            raise RuleError(
                f"{field_name}.{i}",
                M("two players are called '%(name)s'; give each their own name", name=name)
                if what == "players"
                else M("two teams are called '%(name)s'; give each their own name", name=name),
            )
        seen.add(name.casefold())


def parse_players(raw: object) -> tuple[str, ...]:
    """Player names, trimmed, non-empty and distinct."""
    if not isinstance(raw, list):
        raise RuleError("players", M("give the players as a list of names"))
    names = tuple(_name(p, f"players.{i}", M("player %(number)s", number=i + 1)) for i, p in enumerate(raw))
    _unique(names, "players", "players")
    return names


def parse_teams(raw: object) -> tuple[Team, ...]:
    """Teams as {"name": ..., "players": [...]}; a bare string is a team with no player names."""
    if not isinstance(raw, list):
        raise RuleError("teams", M("give the teams as a list"))
    teams: list[Team] = []
    for i, item in enumerate(raw):
        if isinstance(item, str):
            teams.append(Team(_name(item, f"teams.{i}", M("team %(number)s", number=i + 1))))
            continue
        if not isinstance(item, Mapping):
            raise RuleError(f"teams.{i}", M('each team is a name or {"name": ..., "players": [...]}'))
        for key in item:
            if key not in _TEAM_KEYS:
                raise RuleError(
                    f"teams.{i}.{key_field(key)}",
                    M('%(key)s is not part of a team: give its "name" and "players"', key=quoted(key)),
                )
        name = _name(item.get("name"), f"teams.{i}.name", M("team %(number)s", number=i + 1))
        players_raw = item.get("players", [])
        if not isinstance(players_raw, list):
            raise RuleError(f"teams.{i}.players", M("%(team)s's players must be a list of names", team=name))
        players = tuple(
            _name(p, f"teams.{i}.players.{j}", M("%(team)s's player %(number)s", team=name, number=j + 1))
            for j, p in enumerate(players_raw)
        )
        teams.append(Team(name, players))
    _unique([t.name for t in teams], "teams", "teams")
    return tuple(teams)


def parse_record(data: object) -> Record:
    """Check a record's shape and set-up (not yet its hands) and return it parsed."""
    if not isinstance(data, Mapping):
        raise RuleErrors([RuleError("record", M("a game record is a JSON object"))])
    errors = ErrorCollector()
    version = data.get("scorepad", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        errors.add(
            RuleError(
                "scorepad",
                M(
                    "this is format version %(version)s; only %(known)s is known",
                    version=quoted(version),
                    known=FORMAT_VERSION,
                ),
            )
        )
    for key in data:
        if key not in _KNOWN_KEYS:
            errors.add(RuleError(key_field(key), M("%(key)s is not part of a game record", key=quoted(key))))
    for key, words in _LABELS.items():
        if not isinstance(data.get(key, ""), str):
            errors.add(RuleError(key, M("%(what)s is free text: give it as a string in quotes", what=words)))
    raw_variant = data.get("variant", "")
    try:
        if not isinstance(raw_variant, str):
            raise RuleError(
                "variant", M("the variant is a name in quotes, one of: %(names)s", names=", ".join(VARIANT_MODULES))
            )
        variant = get_variant(raw_variant)
    except RuleError as e:
        errors.add(e)
        errors.raise_if_any()
        raise  # unreachable: raise_if_any raised
    options_raw = data.get("options", {})
    players: tuple[str, ...] = ()
    teams: tuple[Team, ...] = ()
    try:
        if not isinstance(options_raw, Mapping):
            raise RuleError("options", M("options must be an object of option names and values"))
        options = resolve_options(variant.option_specs, options_raw)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    if "players" in data:
        try:
            players = parse_players(data["players"])
        except RuleError as e:
            errors.add(e)
    if "teams" in data:
        try:
            teams = parse_teams(data["teams"])
        except RuleError as e:
            errors.add(e)
    first_dealer = data.get("first_dealer", 0)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        errors.add(RuleError("first_dealer", M("the first dealer is a seat number, counting from 0")))
    hands = data.get("hands", [])
    if isinstance(hands, list) and len(hands) > HANDS_MAX:
        errors.add(
            RuleError(
                "hands",
                M("a record holds at most %(most)s hands; this one has %(count)s", most=HANDS_MAX, count=len(hands)),
            )
        )
        hands = []
    if not isinstance(hands, list) or not all(isinstance(h, Mapping) for h in hands):
        errors.add(RuleError("hands", M("hands must be a list of objects, one per hand")))
    for key, limit in (("title", TITLE_MAX), ("played", TITLE_MAX)):
        value = data.get(key, "")
        if isinstance(value, str) and len(value) > limit:
            errors.add(RuleError(key, M("%(what)s is longer than %(most)s characters", what=_LABELS[key], most=limit)))
    errors.raise_if_any()
    assert isinstance(first_dealer, int) and isinstance(hands, list)
    setup = Setup(variant.key, options, players, teams, first_dealer)
    try:
        variant.check_setup(setup)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    errors.raise_if_any()
    planned = variant.round_count(setup)  # each option is capped; together they must still fit a record
    if planned is not None and planned > HANDS_MAX:
        raise RuleErrors(
            [
                RuleError(
                    "options",
                    M(
                        "these options plan %(count)s hands; a game holds at most %(most)s",
                        count=planned,
                        most=HANDS_MAX,
                    ),
                )
            ]
        )
    title, played = data.get("title", ""), data.get("played", "")
    assert isinstance(title, str) and isinstance(played, str)
    return Record(setup, tuple(hands), title, played)


def too_large(size: int, limit: int = RECORD_MAX_BYTES) -> RuleError:
    """The refusal of a record of `size` bytes, past RECORD_MAX_BYTES, or of a list of games past
    GAMES_MAX_BYTES (`limit`; checked before reading it)."""
    if limit == GAMES_MAX_BYTES:
        return RuleError(
            "record",
            M(
                "too large for a file of games (%(size)s KB; at most %(most)s KB)",
                size=size // 1024,
                most=GAMES_MAX_BYTES // 1024,
            ),
        )
    return RuleError(
        "record",
        M(
            "too large for a game record (%(size)s KB; at most %(most)s KB)",
            size=size // 1024,
            most=RECORD_MAX_BYTES // 1024,
        ),
    )


def read_json(raw: bytes) -> object:
    """A record file's JSON, its size checked first: every way it can fail is one RuleError on
    "record" whose message completes "<file>: ..." (never a traceback, whatever the bytes)."""
    if len(raw) > RECORD_MAX_BYTES:
        raise too_large(len(raw))
    return _decoded(raw)


def size_limit(raw: bytes) -> int:
    """The most bytes a file like `raw` may hold: a list of games (its first character a "["), or
    one record. Told before anything reads the file."""
    return GAMES_MAX_BYTES if raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[" else RECORD_MAX_BYTES


def _decoded(raw: bytes) -> object:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RuleError("record", M("not a UTF-8 text file")) from None
    except json.JSONDecodeError as e:
        raise RuleError(
            "record",
            M(
                "not valid JSON (line %(line)s, column %(column)s: %(error)s)",
                line=e.lineno,
                column=e.colno,
                error=e.msg,
            ),
        ) from None
    except RecursionError:
        raise RuleError("record", M("not a usable game record (lists or objects nested too deeply)")) from None
    except ValueError:  # int() past the digit limit; JSONDecodeError is caught above
        raise RuleError(
            "record",
            M("not a usable game record (a number longer than %(digits)s digits)", digits=sys.get_int_max_str_digits()),
        ) from None
    where = _nul_at(data)
    if where is not None:
        raise RuleError(
            "record",
            M(
                "not a usable game record: %(where)s holds a NUL character (\\u0000), which no name or field takes",
                where=key_field(where) or M("it"),
            ),
        )
    return data


def _nul_at(value: object, path: str = "") -> str | None:
    """Where a NUL character is in a JSON value ("players.0"; "" for the value itself), or None:
    no name or title may hold one (PostgreSQL's text cannot)."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    items: list[tuple[object, object]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, item in items:
        here = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and "\x00" in key:
            return here
        found = _nul_at(item, here)
        if found is not None:
            return found
    return None


def problems(error: RuleError | RuleErrors, limit: int | None = None) -> list[str]:
    """A refused record's problems, one line each as `scorepad score` prints them ("hand 2, tricks:
    ..."; a file that cannot be read: its message alone), at most `limit` and a line for the rest.
    Each line is a `Message`: the web layer says it in the reader's language."""
    if isinstance(error, RuleErrors):
        lines = [_line(e) for e in error.errors]
    else:
        lines = [error.message if error.field == "record" and error.hand is None else _line(error)]
    if limit is not None and len(lines) > limit:
        lines = [*lines[:limit], M("... and %(count)s more problems", count=len(lines) - limit)]
    return lines


def _line(error: RuleError) -> str:
    """`str(error)`, its message kept to be said in another language."""
    if error.field == LISTED:
        return error.message
    if error.hand is not None:
        return M("hand %(hand)s, %(field)s: %(problem)s", hand=error.hand, field=error.field, problem=error.message)
    return M("%(where)s: %(problem)s", where=error.field, problem=error.message)


def score_record(data: object) -> ScoreSheet:
    """Check a whole record and derive its score sheet (RuleErrors list every problem found)."""
    record = parse_record(data)
    return get_variant(record.setup.variant).score(record.setup, record.hands)


@dataclass(frozen=True)
class Outline:
    """What a list of games shows of one (the home page): its columns, the sheet's one-line summary,
    how many hands are recorded, and whether it is over."""

    columns: tuple[str, ...]
    summary: str
    hands: int
    over: bool


def outline_of(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, pending: RawHand | None = None) -> Outline:
    """The outline of a game whose complete `hands` gave `sheet` (`pending`: the hand in hand)."""
    over = get_variant(setup.variant).state(setup, hands, pending).over
    return Outline(tuple(sheet.columns), sheet.summary, len(sheet.lines), over)


def checked(raw: bytes) -> tuple[Record, Outline]:
    """A record file read as `read_json` reads it and checked completely (its set-up, then every hand
    by its variant's rules, as `score_record`): the record as parsed and its outline, or the
    RuleError / RuleErrors saying why not. The home page's import runs it off the worker's loop
    (scorepad/offload.py)."""
    record = parse_record(read_json(raw))
    sheet = get_variant(record.setup.variant).score(record.setup, record.hands)
    return record, outline_of(record.setup, record.hands, sheet)


def checked_games(raw: bytes) -> list[tuple[Record, Outline]]:
    """A file of one game record, or of a list of them (the format of "Export all games"), each
    checked completely as `checked` checks one. Its size, the number of games and their hands
    together are counted before any game is read. A list's problems say which game they are about
    ("game 2: hand 3, tricks: ..."); nothing is returned unless every game is sound."""
    limit = size_limit(raw)
    if len(raw) > limit:
        raise too_large(len(raw), limit)
    data = _decoded(raw)
    if not isinstance(data, list):
        return [checked(raw)]
    if not data:
        raise RuleError("record", M("the list holds no game records"))
    if len(data) > GAMES_MAX:
        raise RuleError(
            "record",
            M("a file holds at most %(most)s games; this one has %(count)s", most=GAMES_MAX, count=len(data)),
        )
    hands = sum(
        len(item["hands"]) for item in data if isinstance(item, Mapping) and isinstance(item.get("hands"), list)
    )
    if hands > GAMES_HANDS_MAX:
        raise RuleError(
            "record",
            M(
                "the games of a file hold at most %(most)s hands together; these hold %(count)s",
                most=GAMES_HANDS_MAX,
                count=hands,
            ),
        )
    found: list[tuple[Record, Outline]] = []
    errors: list[RuleError] = []
    for number, item in enumerate(data, start=1):
        try:
            record = parse_record(item)
            sheet = get_variant(record.setup.variant).score(record.setup, record.hands)
        except (RuleError, RuleErrors) as e:
            errors.extend(
                RuleError(LISTED, M("game %(number)s: %(problem)s", number=number, problem=line))
                for line in problems(e)
            )
            continue
        found.append((record, outline_of(record.setup, record.hands, sheet)))
    if errors:
        raise RuleErrors(errors)
    return found


def to_json(record: Record) -> dict[str, object]:
    """The record as a JSON object, the export format."""
    setup = record.setup
    out: dict[str, object] = {"scorepad": FORMAT_VERSION, "variant": setup.variant}
    if record.title:
        out["title"] = record.title
    if record.played:
        out["played"] = record.played
    out["options"] = setup.options.as_json()
    if setup.players:
        out["players"] = list(setup.players)
    if setup.teams:
        out["teams"] = [{"name": t.name, "players": list(t.players)} for t in setup.teams]
    out["first_dealer"] = setup.first_dealer
    out["hands"] = [dict(h) for h in record.hands]
    return out
