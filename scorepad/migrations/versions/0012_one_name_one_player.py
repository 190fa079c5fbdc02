"""one name, one player: a Bid Whist tournament whose teams share a player's name (registered before
registration refused it) gets that player renamed in the later team, in its entrant and in the
sheets of its matches, so the tournament's pages open again (issue 33); the audit trail says so

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 01:00:00

"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from scorepad.rules.errors import M, as_said

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

PLAYER_MAX = 40  # registration's longest player name (events/bid_whist/registration.py MAX_PLAYER)
NOTE_MAX = 300

event = sa.table(
    "event", sa.column("id", sa.Integer), sa.column("format", sa.String), sa.column("revision", sa.Integer)
)
entrant = sa.table(
    "event_entrant",
    sa.column("id", sa.Integer),
    sa.column("event_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("name", sa.String),
    sa.column("players", sa.JSON),
)
match = sa.table(
    "event_match",
    sa.column("event_id", sa.Integer),
    sa.column("home", sa.Integer),
    sa.column("away", sa.Integer),
    sa.column("game_id", sa.Integer),
)
game = sa.table("game", sa.column("id", sa.Integer), sa.column("teams", sa.JSON))
audit = sa.table(
    "event_audit",
    sa.column("event_id", sa.Integer),
    sa.column("at", sa.DateTime),
    sa.column("actor", sa.String),
    sa.column("action", sa.String),
    sa.column("note", sa.String),
    sa.column("said", sa.JSON),
)


def new_name(player: str, team: str, number: int, taken: set[str]) -> str:
    """`player` told apart by their team: "John (Kings)", else "John (3)" (the name kept whole where it
    fits), never a name already taken."""
    for suffix in (f" ({team})", f" ({number})"):
        name = player + suffix
        if len(name) <= PLAYER_MAX and name.casefold() not in taken:
            return name
    count = len(taken)
    while True:  # a 40-character name: cut to fit its number
        suffix = f" ({number}-{count})" if count > len(taken) else f" ({number})"
        name = player[: PLAYER_MAX - len(suffix) - 1] + "…" + suffix
        if name.casefold() not in taken:
            return name
        count += 1


def upgrade():
    bind = op.get_bind()
    tournaments = bind.execute(sa.select(event.c.id).where(event.c.format == "bid_whist")).scalars().all()
    for event_id in tournaments:
        rows = bind.execute(
            sa.select(entrant.c.id, entrant.c.number, entrant.c.name, entrant.c.players)
            .where(entrant.c.event_id == event_id)
            .order_by(entrant.c.number)
        ).all()
        taken = {str(p).casefold() for row in rows for p in row.players or []}
        seen: set[str] = set()
        for row in rows:
            players, renamed = list(row.players or []), {}
            for i, player in enumerate(players):
                if player.casefold() in seen:
                    players[i] = renamed[player] = new_name(player, row.name, row.number, taken)
                    taken.add(players[i].casefold())
                seen.add(players[i].casefold())
            if renamed:
                _rename(bind, event_id, row, players, renamed)


def _rename(bind, event_id, row, players, renamed):
    bind.execute(entrant.update().where(entrant.c.id == row.id).values(players=players))
    for side, column in ((0, match.c.home), (1, match.c.away)):
        games = (
            bind.execute(
                sa.select(match.c.game_id).where(
                    match.c.event_id == event_id, column == row.number, match.c.game_id.is_not(None)
                )
            )
            .scalars()
            .all()
        )
        for game_id in games:
            teams = bind.execute(sa.select(game.c.teams).where(game.c.id == game_id)).scalar_one()
            teams = [dict(t) for t in teams]
            teams[side]["players"] = [renamed.get(p, p) for p in teams[side].get("players", [])]
            bind.execute(game.update().where(game.c.id == game_id).values(teams=teams))
    for old, new in renamed.items():
        note = M(
            "%(player)s of %(team)s is now %(name)s: another team has a player of that name, and a match's "
            "sheet needs four names of their own",
            player=old,
            team=row.name,
            name=new,
        )
        english = str(note) if len(str(note)) <= NOTE_MAX else str(note)[: NOTE_MAX - 1] + "…"
        bind.execute(
            audit.insert().values(
                event_id=event_id,
                at=datetime.now(UTC).replace(tzinfo=None),
                actor="automatic",
                action="renamed",
                note=english,
                said=as_said(note),
            )
        )
    bind.execute(event.update().where(event.c.id == event_id).values(revision=event.c.revision + 1))


def downgrade():
    pass  # the names stay told apart: putting the clash back would break the tournament's pages again
