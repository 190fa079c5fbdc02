"""Groups: the players a family or a club comes back to, and the games it keeps (issue 15).

A group is reached by its secret link alone (no accounts). Each game kept in it links the columns
of its score sheet to the group's players (`GameSeat`), by name when the game comes in: a name the
group knows, in any case or as a spelling merged into a player (an alias), is that player; a new
name is a new player. The link, never a copy of the name, is the history: renaming a player
renames them in every game of the group; merging two spellings moves every link of one onto the
other and keeps the merged-away spelling as an alias. What was typed in a game stays as typed:
its own sheet is not rewritten.

Who a column is, for a family:
- an individual variant's column (Nomination, Australian) is its player;
- a partnership's column (Whist, Bid Whist) is its named players; a team with no player names is
  one "player" under the team's name ("Boys", "Gran & Grandad": the side the family keeps score
  of), except the names the set-up form makes up when nothing is typed ("Player 3", "Us",
  "Them"), which name nobody and link to no one;
- a name that would make one person sit in two columns of a game (a spelling merged into a player
  who is also in that game) links the first column only.

`games_of(group)` gives the group's games as statistics read them: variant, dates, set-up, hands,
the rules' derived sheet, and each column's player ids. Nothing here scores: the rules do.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import defer, selectinload

from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.games.derived import derived_all
from scorepad.models import (
    CARD_CODE_LENGTH,
    GROUP_NAME_MAX,
    Game,
    GameSeat,
    Group,
    GroupPlayer,
    Hand,
    KeptGame,
    typed_code,
)
from scorepad.rules.base import RawHand, RuleError, RuleErrors, ScoreSheet, Setup
from scorepad.rules.errors import M
from scorepad.rules.record import NAME_MAX

__all__ = ["GROUP_NAME_MAX", "NAME_MAX", "Group", "GroupGame", "GroupPlayer"]

TOKEN_MAX = 64  # a group's token is 32 characters: anything longer is not one
DEFAULT_NAME = "Our games"  # a new group's name when nothing better is known
MADE_UP = re.compile(r"player \d+|us|them")  # names the set-up form gives when none is typed (case-folded)


def key_of(name: str) -> str:
    """What makes two names the same person's in a group: spaces squeezed, case folded."""
    return " ".join(name.split()).casefold()


def clean_name(raw: str, field: str, what: str, limit: int) -> str:
    """A name as stored (spaces squeezed), or a RuleError for `field` when empty or too long. `what`:
    "group" or "player" (whose name it is: two wordings, each whole, for translation)."""
    name = " ".join(raw.split())
    group = what == "group"
    if not name:
        raise RuleErrors([RuleError(field, M("The group needs a name.") if group else M("The player needs a name."))])
    if len(name) > limit:
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M("The group's name is too long: at most %(most)s characters.", most=limit)
                    if group
                    else M("The player's name is too long: at most %(most)s characters.", most=limit),
                )
            ]
        )
    return name


def _names_nobody(name: str) -> bool:
    return MADE_UP.fullmatch(key_of(name)) is not None


def column_names(game: Game) -> list[list[str]]:
    """The names of the people in each column of the game's sheet, as typed (see the module's notes)."""
    if game.players:
        return [[] if _names_nobody(n) else [n] for n in game.players]
    found: list[list[str]] = []
    for team in game.teams:
        named = [p for p in team.get("players", []) if p and p.strip()]
        found.append(named or ([] if _names_nobody(team.get("name", "")) else [team["name"]]))
    return found


# --------------------------------------------------------------------------- look-ups


def by_token(token: str) -> Group | None:
    if not token or len(token) > TOKEN_MAX:
        return None
    return db.session.scalars(select(Group).where(Group.token == token)).first()


def by_short_code(raw: str) -> Group | None:
    """The group whose code (typed under "Watch a game") is `raw` as typed: any case, spaces and
    dashes left out; nothing is looked up for what cannot be a group's code."""
    code = typed_code(raw, CARD_CODE_LENGTH)
    if code is None:
        return None
    return db.session.scalars(select(Group).where(Group.short_code == code)).first()


def by_tokens(tokens: Sequence[str]) -> list[Group]:
    """The groups of these links that exist, in the order given (a browser's own list)."""
    wanted = [t for t in tokens if isinstance(t, str) and 0 < len(t) <= TOKEN_MAX]
    if not wanted:
        return []
    found = {g.token: g for g in db.session.scalars(select(Group).where(Group.token.in_(wanted)))}
    return [found[t] for t in wanted if t in found]


def group_of(game: Game) -> Group | None:
    """The group the game is kept in, if any."""
    return db.session.scalars(select(Group).join(KeptGame).where(KeptGame.game_id == game.id)).first()


def players(group: Group) -> list[GroupPlayer]:
    """The group's people (not the spellings merged into them), by name."""
    return list(
        db.session.scalars(
            select(GroupPlayer)
            .where(GroupPlayer.group_id == group.id, GroupPlayer.merged_into_id.is_(None))
            .order_by(GroupPlayer.key)
        )
    )


def player(group: Group, player_id: int) -> GroupPlayer | None:
    """One of the group's people (None: no such player in this group, or a spelling merged away)."""
    if not 0 < player_id < 2**31:  # past a database's integer: no row has it (PostgreSQL would refuse the query)
        return None
    found = db.session.get(GroupPlayer, player_id)
    if found is None or found.group_id != group.id or found.merged_into_id is not None:
        return None
    return found


def aliases(group: Group) -> dict[int, list[str]]:
    """Each player's other spellings (merged into them), by player id."""
    found: dict[int, list[str]] = defaultdict(list)
    for row in db.session.scalars(
        select(GroupPlayer)
        .where(GroupPlayer.group_id == group.id, GroupPlayer.merged_into_id.isnot(None))
        .order_by(GroupPlayer.key)
    ):
        found[row.merged_into_id].append(row.name)
    return dict(found)


def games_played(group: Group) -> dict[int, int]:
    """How many of the group's games each player played in, by player id."""
    rows = db.session.execute(
        select(GameSeat.player_id, func.count(GameSeat.game_id.distinct()))
        .join(GroupPlayer, GroupPlayer.id == GameSeat.player_id)
        .where(GroupPlayer.group_id == group.id)
        .group_by(GameSeat.player_id)
    ).all()
    return dict(rows)


def find(group: Group, name: str) -> GroupPlayer | None:
    """The player this name is in the group (see `_find`): a club's roster asks it of an event's names."""
    return _find(group, name)


def _find(group: Group, name: str) -> GroupPlayer | None:
    """The player this name is in the group: their name or a spelling merged into them, any case."""
    row = db.session.scalars(
        select(GroupPlayer).where(GroupPlayer.group_id == group.id, GroupPlayer.key == key_of(name))
    ).first()
    if row is not None and row.merged_into_id is not None:
        return db.session.get(GroupPlayer, row.merged_into_id)
    return row


# --------------------------------------------------------------------------- groups


def create(name: str, game: Game | None = None) -> Group:
    """A new group (`name` checked first); with `game`, the group keeps it and its players."""
    group = Group(name=clean_name(name, "name", "group", GROUP_NAME_MAX))
    if game is not None:
        _keepable(game)
    db.session.add(group)
    db.session.flush()
    if game is not None:
        _keep_rows(group, game)
    db.session.commit()
    return group


def rename(group: Group, name: str) -> None:
    group.name = clean_name(name, "name", "group", GROUP_NAME_MAX)
    db.session.commit()


# --------------------------------------------------------------------------- its games


def _keepable(game: Game) -> None:
    """A game can come into a group unless it is an event's (the event keeps it) or already in one."""
    if game.event_id is not None:
        raise RuleErrors([RuleError("group", M("This game is part of an event: it stays with the event."))])
    if game.is_demo:
        raise RuleErrors([RuleError("group", M("This is a demonstration game: start a game of your own to keep it."))])
    kept = group_of(game)
    if kept is not None:
        raise RuleErrors(
            [
                RuleError(
                    "group",
                    M("This game is already kept in “%(name)s”. Take it out of that group first.", name=kept.name),
                )
            ]
        )


def _keep_rows(group: Group, game: Game) -> None:
    """The rows that put `game` in `group`: the game kept, each column linked to its players (new
    names become new players)."""
    db.session.add(KeptGame(group_id=group.id, game_id=game.id))
    seated: set[int] = set()
    for column, names in enumerate(column_names(game)):
        for name in names:
            person = _find(group, name)
            if person is None:
                person = GroupPlayer(group_id=group.id, name=" ".join(name.split())[:NAME_MAX], key=key_of(name))
                db.session.add(person)
                db.session.flush()
            if person.id in seated:  # a spelling of someone already in this game: the first column keeps them
                continue
            seated.add(person.id)
            db.session.add(GameSeat(game_id=game.id, sheet_column=column, player_id=person.id))


def keep(group: Group, game: Game) -> bool:
    """Move `game` into `group`, its columns matched to the group's players. False when it was
    already there (a form sent twice); refused when the game cannot come in."""
    kept = group_of(game)
    if kept is not None and kept.id == group.id:
        return False
    _keepable(game)
    _keep_rows(group, game)
    db.session.commit()
    return True


@dataclass(frozen=True)
class KeptMany:
    """What keeping several games at once did: how many came in, how many were in this group
    already, how many are another group's (left there, by group name), how many name nobody."""

    kept: int
    already: int
    elsewhere: dict[str, int]
    nobody: int


def keep_all(group: Group, played: Sequence[Game]) -> KeptMany:
    """Keep an event's games in `group` in one commit (the event's page decides which: see
    events/in_group.py). Each game's columns are matched to the group's players as for a home game.
    Idempotent: a game already here is counted, not kept twice; a game of another group stays
    there; a game whose columns name nobody ("Player 3") is left out. Only `group_game` and
    `game_seat` rows (and new players) are written: the games themselves are not touched."""
    ids = [g.id for g in played]
    where = dict(db.session.execute(select(KeptGame.game_id, KeptGame.group_id).where(KeptGame.game_id.in_(ids))).all())
    names = dict(db.session.execute(select(Group.id, Group.name).where(Group.id.in_(set(where.values())))).all())
    kept = already = nobody = 0
    elsewhere: dict[str, int] = defaultdict(int)
    for game in played:
        if game.id in where:
            if where[game.id] == group.id:
                already += 1
            else:
                elsewhere[names[where[game.id]]] += 1
        elif not any(column_names(game)):
            nobody += 1
        else:
            _keep_rows(group, game)
            kept += 1
    db.session.commit()
    return KeptMany(kept, already, dict(elsewhere), nobody)


def start_game(group: Group, record: Mapping[str, object]) -> Game:
    """Start a game (as games.create) kept in `group` from the start, in the same commit."""
    return games.create(record, also=lambda game: _keep_rows(group, game))


def suggested_name(game: Game) -> str:
    """A name for a group made from a game: the people in it ("Ann, Bob, Cat & Dan"), if it fits."""
    people = [n for names in column_names(game) for n in names]
    said = ", ".join(people[:-1]) + f" & {people[-1]}" if len(people) > 1 else "".join(people)
    return said if 0 < len(said) <= GROUP_NAME_MAX else DEFAULT_NAME


def last_lineup(group: Group, partnerships: bool, fits: range) -> tuple[list[str], list[str]] | None:
    """Who played the group's newest game of this kind (partnerships or not, `fits` players), as the
    group calls them now (through the game's links: renamed and merged players as they are now), for
    a new game's form: (names in seat order, team names). None: no such game."""
    for game in db.session.scalars(
        select(Game)
        .join(KeptGame)
        .where(KeptGame.group_id == group.id)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(50)
    ):
        if partnerships != bool(game.teams) or not (partnerships or len(game.players) in fits):
            continue
        now = _linked_names(game)
        if not partnerships:
            return [now[c][0] if now[c] else "" for c in range(len(game.players))], []
        teams, seats = [], ["", "", "", ""]
        for t, team in enumerate(game.teams[:2]):
            named = [p for p in team.get("players", []) if p and p.strip()]
            if named:  # its players are linked, in their seats' order
                teams.append(team["name"])
                for i, name in enumerate(now[t][:2]):
                    seats[t + 2 * i] = name
            else:  # the team itself is linked (a side the family keeps), or nobody ("Us")
                teams.append(now[t][0] if now[t] else team["name"])
        return seats, teams
    return None


def _linked_names(game: Game) -> dict[int, list[str]]:
    """The names of the players linked to each column of the game, as the group calls them now."""
    found: dict[int, list[str]] = defaultdict(list)
    for column, name in db.session.execute(
        select(GameSeat.sheet_column, GroupPlayer.name)
        .join(GroupPlayer, GroupPlayer.id == GameSeat.player_id)
        .where(GameSeat.game_id == game.id)
        .order_by(GameSeat.id)
    ):
        found[column].append(name)
    return found


def rematch(game: Game) -> Game:
    """games.rematch, kept in the game's group when it is in one (the same family plays on)."""
    group = group_of(game)
    return games.rematch(game, also=None if group is None else lambda new: _keep_rows(group, new))


def take_out(game: Game) -> Group | None:
    """Take the game out of its group (its players stay in the group); the group it was in, if any."""
    group = group_of(game)
    if group is None:
        return None
    db.session.execute(delete(GameSeat).where(GameSeat.game_id == game.id))
    db.session.execute(delete(KeptGame).where(KeptGame.game_id == game.id))
    db.session.commit()
    return group


@dataclass(frozen=True)
class GroupGame:
    """A game of the group as statistics read it: everything derived by the rules, nothing stored twice.

    `players[c]` are the ids of the group's players in column `c` of `sheet` (empty: nobody of the
    group, e.g. "Player 3"); `finished_at` is when the last hand was entered, once the game is over
    (None while it is in progress)."""

    game: Game  # the row, for pages (its links, its title); statistics need not read it
    variant: str
    started_at: datetime
    finished_at: datetime | None
    setup: Setup
    hands: tuple[RawHand, ...]
    sheet: ScoreSheet
    players: tuple[tuple[int, ...], ...]


def games_of(group: Group) -> list[GroupGame]:
    """The group's games, newest first, each derived by the rules (games.service's kept derivation)."""
    rows = list(
        db.session.scalars(
            select(Game)
            .join(KeptGame)
            .where(KeptGame.group_id == group.id)
            .options(defer(Game.undo_log), defer(Game.redo_log))  # up to 40 taps each
            .order_by(Game.created_at.desc(), Game.id.desc())
        )
    )
    if not rows:
        return []
    ids = [g.id for g in rows]
    seats: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for seat in db.session.scalars(select(GameSeat).where(GameSeat.game_id.in_(ids)).order_by(GameSeat.id)):
        seats[seat.game_id][seat.sheet_column].append(seat.player_id)
    last_hand = dict(
        db.session.execute(
            select(Hand.game_id, func.max(Hand.entered_at)).where(Hand.game_id.in_(ids)).group_by(Hand.game_id)
        ).all()
    )
    found = []
    for game, kept in zip(rows, derived_all(rows)):
        sheet = kept.sheet
        columns = tuple(tuple(seats[game.id].get(c, ())) for c in range(len(sheet.columns)))
        found.append(
            GroupGame(
                game,
                game.variant,
                game.created_at,
                last_hand.get(game.id) if sheet.finished else None,
                kept.setup,
                kept.hands,
                sheet,
                columns,
            )
        )
    return found


def game_rows(group: Group, part: int = 1, size: int | None = None) -> list[Game]:
    """The group's games as stored, newest first, as `games_of` lists them (its export): the
    `part`-th run of `size` of them, counting from 1 (all of them without a size)."""
    query = (
        select(Game)
        .join(KeptGame)
        .where(KeptGame.group_id == group.id)
        .options(selectinload(Game.hands), defer(Game.undo_log), defer(Game.redo_log))
        .order_by(Game.created_at.desc(), Game.id.desc())
    )
    if size is not None:
        query = query.offset((part - 1) * size).limit(size)
    return list(db.session.scalars(query))


def labels(played: GroupGame, names: Mapping[int, str]) -> tuple[str, ...]:
    """Each column as the group calls it now: its players' names ("Ann & Bob"), else as typed."""
    return tuple(
        " & ".join(names[p] for p in ids) if ids else typed for ids, typed in zip(played.players, played.sheet.columns)
    )


# --------------------------------------------------------------------------- its players


def rename_player(group: Group, person: GroupPlayer, name: str) -> None:
    """Give a player another name, everywhere in the group's history at once. A name another player
    (or another's merged spelling) has is refused; one of the player's own merged spellings becomes
    their name."""
    name = clean_name(name, "name", "player", NAME_MAX)
    other = db.session.scalars(
        select(GroupPlayer).where(GroupPlayer.group_id == group.id, GroupPlayer.key == key_of(name))
    ).first()
    if other is not None and other.id != person.id:
        if other.merged_into_id != person.id:
            owner = db.session.get(GroupPlayer, other.merged_into_id) if other.merged_into_id else other
            said = (
                M("“%(name)s” is already a player of this group. To make them one person, merge them.", name=other.name)
                if owner is other
                else M(
                    "“%(name)s” is another name of %(owner)s in this group. To make them one person, merge them.",
                    name=other.name,
                    owner=owner.name,
                )
            )
            raise RuleErrors([RuleError("name", said)])
        db.session.delete(other)  # their own spelling becomes their name
        db.session.flush()
    person.name, person.key = name, key_of(name)
    db.session.commit()


def shared_games(away: GroupPlayer, into: GroupPlayer) -> list[Game]:
    """The games both played in: they are two people, and cannot be merged."""
    both = (
        select(GameSeat.game_id)
        .where(GameSeat.player_id == away.id)
        .intersect(select(GameSeat.game_id).where(GameSeat.player_id == into.id))
    )
    return list(db.session.scalars(select(Game).where(Game.id.in_(both)).order_by(Game.created_at)))


def check_merge(group: Group, away: GroupPlayer, into: GroupPlayer) -> None:
    """Refuse a merge that cannot be (before it is confirmed, and again when it is)."""
    if away.id == into.id:
        raise RuleErrors(
            [RuleError("into", M("Choose another player: %(name)s cannot be merged into themselves.", name=away.name))]
        )
    if away.group_id != group.id or into.group_id != group.id:
        raise RuleErrors([RuleError("into", M("Both players must be of this group."))])
    both = shared_games(away, into)
    if both:
        day = f"{both[0].created_at.day} {both[0].created_at:%b %Y}"
        raise RuleErrors(
            [
                RuleError(
                    "into",
                    M(
                        "%(away)s and %(into)s played in the same game (%(day)s): they are two "
                        "people, so they cannot be merged.",
                        away=away.name,
                        into=into.name,
                        day=day,
                    ),
                )
            ]
        )


def merge(group: Group, away: GroupPlayer, into: GroupPlayer) -> None:
    """Make `away` and `into` one person: every game of `away` becomes `into`'s, and `away`'s name
    (and spellings) are kept as `into`'s other names, so a later game typing them links to `into`."""
    check_merge(group, away, into)
    db.session.execute(update(GameSeat).where(GameSeat.player_id == away.id).values(player_id=into.id))
    db.session.execute(update(GroupPlayer).where(GroupPlayer.merged_into_id == away.id).values(merged_into_id=into.id))
    away.merged_into_id = into.id
    db.session.commit()
