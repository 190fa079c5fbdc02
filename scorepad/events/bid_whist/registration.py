"""Registration for the tournament formats: entrants (teams or players) by number, until the start.

Bid Whist registers teams of two (and single players the director pairs); a whist drive
registers players. Numbers are given in order of registration and kept for the whole event
(the document: "teams/players will be assigned a number, which will be used during the
duration of the tournament"). Registration closes when the director starts the event.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Collection, Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorepad.events import core, roster
from scorepad.events.bid_whist import matches
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event, EventEntrant, utcnow
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M, Message

MAX_NAME = 60
MAX_PLAYER = 40
CHANGED = core.Signals(orders=True)  # every page of the event asks again (the control room's list)
# The most teams a tournament registers: twice the document's largest field (128 teams, a bracket of
# 64; bench/bid_whist_load.py plays it), 128 tables. Registering had no bound: every page of the
# event draws every team, and round 1 of 2,000 teams could not be drawn at all (too deep a search).
MAX_TEAMS = 256
NUMBERS_MAX = 10_000  # numbers given in one event (a withdrawn one is never given again): a backup's bound


def create(
    name: str,
    format_key: str,
    options: dict[str, object],
    pin: str = "",
    late_minutes: int = 20,
    time_zone: str | None = None,
) -> Event:
    """An event of a tournament format, open for registration; RuleErrors name the bad fields."""
    name = name.strip()
    errors = core.setup_errors(name, pin, M("give the event a name, e.g. 'Senior Olympics Bid Whist'"), time_zone)
    if not 1 <= late_minutes <= 120:
        errors.append(RuleError("late_minutes", M("a table counts as late after 1 to 120 minutes")))
    if errors:
        raise RuleErrors(errors)
    event = Event(
        name=name,
        format=format_key,
        options=dict(options),
        late_minutes=late_minutes,
        current_hand=0,
        time_zone=time_zone,
    )
    core.apply_pin(event, pin)
    db.session.add(event)
    db.session.commit()
    return event


def _open(event: Event) -> None:
    if event.started_at is not None:
        raise RuleErrors([RuleError("registration", M("registration closed when the director started the event"))])


def _clean(raw: str, field: str, what: str, limit: int) -> str:
    value = " ".join(raw.split())
    if not value:
        raise RuleErrors([RuleError(field, M("give %(what)s", what=what))])
    if len(value) > limit:
        raise RuleErrors(
            [RuleError(field, M("%(what)s is too long: at most %(limit)s characters", what=what, limit=limit))]
        )
    return value


ISSUED = "numbers_issued"  # in the event's options: the highest number ever given


def _next_number(event: Event) -> int:
    """The next number never given in this event: a paired single's or a withdrawn entrant's number
    is retired (it may be on a card or in the audit trail), so it is never handed out again."""
    issued = max(int(event.options.get(ISSUED, 0)), max((e.number for e in event.entrants), default=0))
    return issued + 1


def _room(event: Event, field: str, single: bool = False) -> None:
    """Refuse one more entrant past MAX_TEAMS teams (a single player waiting counts as half a team:
    two make one) or past the numbers an event gives."""
    waiting = len(singles(event)) + (1 if single else 0)
    teams = sum(1 for e in event.entrants if len(e.players) == 2) + (0 if single else 1)
    if teams + (waiting + 1) // 2 > MAX_TEAMS:
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M(
                        "registration is full: a tournament has at most %(most)s teams (two single players make one)",
                        most=MAX_TEAMS,
                    ),
                )
            ]
        )
    if _next_number(event) > NUMBERS_MAX:
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M(
                        "registration is full: an event gives at most %(most)s numbers, withdrawn ones included",
                        most=NUMBERS_MAX,
                    ),
                )
            ]
        )


def _issue(event: Event, number: int) -> None:
    event.options = {**event.options, ISSUED: number}


def _taken(event: Event, name: str, field: str, but: EventEntrant | None = None) -> None:
    if any(e.name.casefold() == name.casefold() and e is not but for e in event.entrants):
        raise RuleErrors([RuleError(field, M("'%(name)s' is already registered: give another name", name=name))])


def _playing(event: Event, player: str, field: str) -> list[RuleError]:
    """A player's name must be theirs alone in the event: a match's sheet names its four players, so
    two of one name could never meet at a table (the rules refuse such a game)."""
    found = next((e for e in event.entrants if player.casefold() in (p.casefold() for p in e.players)), None)
    if found is None:
        return []
    if len(found.players) == 1:
        return [
            RuleError(
                field,
                M(
                    "%(player)s is already registered, as a single player (number %(number)s): give "
                    "each player their own name, e.g. with an initial (%(player)s B.)",
                    player=player,
                    number=found.number,
                ),
            )
        ]
    return [
        RuleError(
            field,
            M(
                "%(player)s already plays for %(team)s (number %(number)s): give each player their "
                "own name, e.g. with an initial (%(player)s B.)",
                player=player,
                team=found.name,
                number=found.number,
            ),
        )
    ]


def duplicate_players(entrants: Sequence[EventEntrant]) -> list[tuple[str, list[EventEntrant]]]:
    """Each player's name that more than one entrant holds (in any case), with those entrants."""
    holders: dict[str, tuple[str, list[EventEntrant]]] = {}
    for entrant in entrants:
        for player in dict.fromkeys(entrant.players):
            holders.setdefault(player.casefold(), (player, []))[1].append(entrant)
    return [(name, found) for name, found in holders.values() if len(found) > 1]


def _numbered(register: Callable[[], EventEntrant]) -> EventEntrant:
    """Register with the next number. Two desks registering at the same moment both read the same
    next number; the database's unique (event, number) keeps the first, and the second registers
    again with the number after it (or is refused: the other desk took its name)."""
    for _ in range(3):
        try:
            return register()
        except IntegrityError:
            db.session.rollback()
    return register()


def register_team(event: Event, name: str, players: Sequence[str], new_members: Collection[str] = ()) -> EventEntrant:
    """Register a team of two; its number is the next free one. At a club's event, a name new to the
    club becomes a member (`roster.enrol`: `new_members`, the fields whose near names are new people)."""
    entrant = _numbered(lambda: _register_team(event, name, players, new_members))
    core.announce(event, CHANGED)
    return entrant


def _register_team(event: Event, name: str, players: Sequence[str], new_members: Collection[str]) -> EventEntrant:
    _open(event)
    _room(event, "team")
    errors: list[RuleError] = []
    cleaned: list[str] = []
    for i, player in enumerate(players):
        try:
            cleaned.append(
                _clean(player, f"player{i + 1}", M("the name of player %(number)s", number=i + 1), MAX_PLAYER)
            )
        except RuleErrors as e:
            errors.extend(e.errors)
            continue
        errors += _playing(event, cleaned[-1], f"player{i + 1}")
    number = _next_number(event)
    try:
        team = _clean(name, "team", M("the team's name"), MAX_NAME) if name.strip() else f"Team {number}"
        _taken(event, team, "team")
    except RuleErrors as e:
        errors.extend(e.errors)
    if len(cleaned) == 2 and cleaned[0].casefold() == cleaned[1].casefold():
        errors.append(RuleError("player2", M("the two players have the same name: give each their own")))
    if errors:
        raise RuleErrors(errors)
    roster.enrol(event, [(f"player{i + 1}", player) for i, player in enumerate(cleaned)], new_members)
    entrant = EventEntrant(number=number, name=team, players=cleaned)
    event.entrants.append(entrant)
    _issue(event, number)
    _audit(
        event,
        "registered",
        M(
            "%(team)s (number %(number)s): %(first)s and %(second)s",
            team=team,
            number=number,
            first=cleaned[0],
            second=cleaned[1],
        )
        if len(cleaned) == 2
        else M("%(team)s (number %(number)s): %(first)s", team=team, number=number, first=cleaned[0]),
    )
    db.session.commit()
    return entrant


def register_single(event: Event, player: str, new_members: Collection[str] = ()) -> EventEntrant:
    """Register a player without a partner: the director pairs singles into teams before the start
    (a name new to a club's event's club becomes a member, as `register_team` says)."""
    entrant = _numbered(lambda: _register_single(event, player, new_members))
    core.announce(event, CHANGED)
    return entrant


def _register_single(event: Event, player: str, new_members: Collection[str]) -> EventEntrant:
    _open(event)
    _room(event, "single", single=True)
    name = _clean(player, "single", M("the player's name"), MAX_PLAYER)
    _taken(event, name, "single")
    if errors := _playing(event, name, "single"):
        raise RuleErrors(errors)
    roster.enrol(event, [("single", name)], new_members)
    number = _next_number(event)
    entrant = EventEntrant(number=number, name=name, players=[name])
    event.entrants.append(entrant)
    _issue(event, number)
    _audit(event, "registered", M("%(name)s (number %(number)s), a single player to pair", name=name, number=number))
    db.session.commit()
    return entrant


def singles(event: Event) -> list[EventEntrant]:
    """Registered players still waiting for a partner."""
    return [e for e in event.entrants if len(e.players) == 1]


def pair(event: Event, first: int, second: int, name: str = "") -> EventEntrant:
    """Make a team of two single players: it keeps the first one's number; the second's is retired."""
    _open(event)
    if first == second:
        raise RuleErrors([RuleError("pair", M("choose two different players to pair"))])
    waiting = {e.number: e for e in singles(event)}
    missing = [n for n in (first, second) if n not in waiting]
    if missing:
        raise RuleErrors(
            [RuleError("pair", M("number %(number)s is not a single player waiting for a partner", number=missing[0]))]
        )
    a, b = waiting[first], waiting[second]
    team = " ".join(name.split()) or f"{a.name} & {b.name}"
    if not name.strip() and len(team) > MAX_NAME:  # two long names: the default must still fit
        team = f"Team {first}"
    if len(team) > MAX_NAME:
        raise RuleErrors(
            [
                RuleError(
                    "pair",
                    M("%(what)s is too long: at most %(limit)s characters", what=M("the team's name"), limit=MAX_NAME),
                )
            ]
        )
    _taken(event, team, "pair", but=a)
    a.players = [a.players[0], b.players[0]]
    a.name = team
    event.entrants.remove(b)
    db.session.delete(b)
    _audit(
        event,
        "paired",
        M(
            "%(first_name)s (number %(first)s) and %(second_name)s (number %(second)s) are team %(first)s, %(team)s",
            first_name=a.players[0],
            first=first,
            second_name=a.players[1],
            second=second,
            team=team,
        ),
    )
    db.session.commit()
    core.announce(event, CHANGED)
    return a


def withdraw(event: Event, number: int) -> None:
    """Remove a registration before the start (after it, the director swaps or plays a bye)."""
    _open(event)
    entrant = next((e for e in event.entrants if e.number == number), None)
    if entrant is None:
        raise RuleErrors([RuleError("withdraw", M("there is no entrant number %(number)s", number=number))])
    event.entrants.remove(entrant)
    db.session.delete(entrant)
    _audit(
        event,
        "withdrawn",
        M("%(name)s (number %(number)s) withdrew before the start", name=entrant.name, number=number),
    )
    db.session.commit()
    core.announce(event, CHANGED)


RENAMED = "renamed"


def rename(event: Event, number: int, name: str, actor: str = "director") -> EventEntrant:
    """Give entrant `number` a new name, at any stage: a team its team name, a single player waiting
    for a partner their own name. The number, the draws and every score stay as they are; the
    sheets of its matches show the new name; audited "old → new"."""
    entrant = next((e for e in event.entrants if e.number == number), None)
    if entrant is None:
        raise RuleErrors([RuleError("rename", M("there is no entrant number %(number)s", number=number))])
    single = entrant.players == [entrant.name]
    field = "rename"
    new = _clean(
        name, field, M("the player's name") if single else M("the team's name"), MAX_PLAYER if single else MAX_NAME
    )
    old = entrant.name
    if new == old:
        raise RuleErrors([RuleError(field, M("that is already its name: type the new one"))])
    _taken(event, new, field, but=entrant)
    if single and new.casefold() != old.casefold() and (errors := _playing(event, new, field)):
        raise RuleErrors(errors)
    entrant.name = new
    if single:
        entrant.players = [new]
    renamed = []
    for match in event.matches:
        if match.game is not None and number in (match.home, match.away):
            side = 0 if match.home == number else 1
            games.rename_side(match.game, side, str(matches.team_record(entrant, number)["name"]))
            renamed.append(match.game)
    event.audit.append(
        core.audit_entry(
            actor,
            RENAMED,
            old={"name": old},
            new={"name": new},
            note=M("number %(number)s", number=number),
        )
    )
    event.revision += 1
    db.session.commit()
    core.announce(event, CHANGED)
    for game in renamed:
        games.renamed(game)
    return entrant


def entrant_by_token(token: str) -> EventEntrant | None:
    """The entrant whose own link carries `token` (compared in constant time)."""
    found = db.session.scalars(select(EventEntrant).where(EventEntrant.token == token)).first()
    return found if found is not None and hmac.compare_digest(found.token, token) else None


def close(event: Event) -> None:
    """Close registration (the caller commits with whatever the start sets up)."""
    _open(event)
    event.started_at = utcnow()


def _audit(event: Event, action: str, note: Message) -> None:
    event.audit.append(core.audit_entry("director", action, note=note))
