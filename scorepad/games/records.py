"""The glue between rows and rules: load games, call the rules engine, store entries.

Every write goes through here, so views never score and rules never touch the database.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import insert, select

from scorepad import offload
from scorepad.extensions import db
from scorepad.games.derived import keep_outline, setup_record
from scorepad.models import Game, Hand
from scorepad.rules.errors import M, Message
from scorepad.rules.record import Record, checked_games, parse_record, score_record, to_json

_PACKAGE = Path(__file__).resolve().parent.parent  # scorepad/
# Inside an installed wheel the examples ship as scorepad/examples; in a checkout they are docs/examples.
EXAMPLES_DIR = _PACKAGE / "examples" if (_PACKAGE / "examples").is_dir() else _PACKAGE.parent / "docs" / "examples"


def record_of(game: Game) -> dict[str, object]:
    """A stored game as a game-record JSON object (the export format)."""
    return {**setup_record(game), "hands": [h.entry for h in game.hands]}


def records_of(games: Sequence[Game]) -> list[dict[str, object]]:
    """Games as one list of game records (a phone's or a group's "Export all games"), in order."""
    return [record_of(game) for game in games]


def import_record(data: object, *, demo: bool = False) -> Game:
    """Check a game record completely and store it as a game with its hands."""
    score_record(data)  # refuses the record before anything is written
    return _store(parse_record(data), demo)


def import_games(raw: bytes) -> list[Game]:
    """Store a file of one game record or of a list of them ("Export all games") as new games, in
    the file's order: every game is read and checked off the worker's loop (`checked_games`, its
    limits counted first) before any is written, then all are stored in one transaction, so a
    refused file stores nothing. A RuleError or RuleErrors says why."""
    made = offload.run(checked_games, raw)
    # stored last to first: the file's first game is the newest, listed first as it was where it came from
    stored = [_store(record, commit=False) for record, _ in reversed(made)][::-1]
    db.session.commit()
    for game, (_, outline) in zip(stored, made):
        keep_outline(game, outline)
    return stored


def _store(record: Record, demo: bool = False, commit: bool = True) -> Game:
    """The checked record as a new game: its row, then its hands in one INSERT (a row object each
    cost the ORM some 0.2 ms a hand)."""
    exported = to_json(record)
    game = Game(
        variant=record.setup.variant,
        title=record.title,
        options=exported["options"],
        players=list(record.setup.players),
        teams=exported.get("teams", []),
        first_dealer=record.setup.first_dealer,
        is_demo=demo,
    )
    db.session.add(game)
    db.session.flush()
    if record.hands:
        db.session.execute(
            insert(Hand),
            [{"game_id": game.id, "number": i, "entry": dict(h)} for i, h in enumerate(record.hands, start=1)],
        )
    if commit:
        db.session.commit()
    return game


# The example records' titles: a demo game is the app's own, shown as a sample on the variant pages,
# so its title is said in the reader's language (a title people typed stays as typed).
DEMO_TITLES: dict[str, Message] = {
    str(title): title
    for title in (
        M("Club night: a tie at the top (round 6 played with spades by mistake)"),
        M("Boxing Day at Gran's"),
        M("Lockdown on video: Ann and Bob at home, Cat with her own pack"),
        M("Seven at the village hall (cycle pauses on suitless rounds)"),
        M("Kitchen table, first to 7"),
        M("Club night: three rounds, the second settled by an extra hand"),
        M("Preliminary round 1, table 7"),
        M("Two rounds, bid scoring with a Boston bonus: a dead heat"),
        M("Club day: ten hands at four tables (NT Low, two revokes, Spruce borrows flags)"),
        M("Three-way tie after six hands, settled by the playoff"),
        M("Two-day event at three tables: loans lent by hand, revokes cost three tricks"),
        M("Zone playdown: 30 hands at five tables, tie for first settled by one playoff hand"),
        M("Sunday at Gran's: one to thirteen"),
        M("Five at the cottage: a quick three rounds, trumps rotating"),
        M("Three-handed, three down to one twice, hook every round"),
        M("American game of seven, no honours"),
        M("Short drive counting all tricks, ending level"),
        M("Whist drive: 12 deals, fixed trumps, no trumps every fifth"),
        M("A rubber by the default rules"),
        M("A rubber with honours, British game of five"),
    )
}


def shown_title(game: Game) -> str:
    """The game's title as a page shows it: a demo game's in words to say in the reader's language."""
    return DEMO_TITLES.get(game.title, game.title) if game.is_demo else game.title


def has_demo_games() -> bool:
    """Whether the demo games are loaded (each variant's page shows one as a sample)."""
    return db.session.scalars(select(Game.id).where(Game.is_demo.is_(True)).limit(1)).first() is not None


def demo_game(variant: str) -> Game | None:
    """The first demo game of `variant`, shown as a sample on the variant page."""
    return db.session.scalars(
        select(Game).where(Game.variant == variant, Game.is_demo.is_(True)).order_by(Game.id)
    ).first()


def load_demo_games(folder: Path = EXAMPLES_DIR) -> int:
    """Store the example records as demo games once (an empty database gets a demo-ready state)."""
    if db.session.scalars(select(Game).where(Game.is_demo.is_(True))).first() is not None:
        return 0
    count = 0
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        import_record(json.loads(path.read_text()), demo=True)
        count += 1
    return count
