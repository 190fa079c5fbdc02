"""Club nights on the event core: tables each play their own game, one live ranking across them.

The director picks the variant and the number of tables; each table's QR code opens the
home-game set-up for that variant (players' names, options, first dealer), then that game's
scoring page. Or the director lets each table choose among several variants (options
`{"variants": [...], "ranking": "variant" | "place"}` instead of `{"variant": ...}`): the table's
first page asks which, and the ranking is per variant or by place score
(`formats/club_night.py`), as the director chose. Each game is an ordinary home game linked to
the event: its hands are what the table entered, and the club's ranking is derived from every
table's sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import select

from scorepad.events import core
from scorepad.events.core import OneView, TablePage
from scorepad.extensions import db
from scorepad.formats.club_night import (
    Row,
    Section,
    TableStandings,
    by_place,
    by_variant,
    progress,
    ranked_totals,
    ranking,
)
from scorepad.games import records, results
from scorepad.games import service as games
from scorepad.games.entry import HOME_VARIANTS
from scorepad.models import Event, EventTable, Game, utcnow
from scorepad.rules import get_variant
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M, joined

KEY = "club"
DEFAULT_VARIANT = "nomination"  # the set-up page's first choice, and the variant of an event that names none
CHOOSE = "choose"  # the set-up's choice "each table chooses", in place of a variant
RANKINGS = ("variant", "place")  # within each variant; by place score across variants


def create(
    name: str,
    variant: str,
    tables: int,
    pin: str = "",
    time_zone: str | None = None,
    variants: Sequence[str] = (),
    ranking: str = "variant",
) -> Event:
    """A club night of `variant` at `tables` tables, each with its own QR code; its times shown in
    `time_zone` (an IANA name; None: the server's). With `variant` CHOOSE, each table chooses one
    of `variants` (two or more), ranked as `ranking` says (one of RANKINGS)."""
    name = name.strip()
    errors = core.setup_errors(name, pin, M("give the evening a name, e.g. 'Tuesday Nomination'"), time_zone)
    options: dict[str, object] = {"variant": variant}
    if variant == CHOOSE:
        chosen = [k for k in HOME_VARIANTS if k in variants]
        options = {"variants": chosen, "ranking": ranking}
        if len(chosen) < 2 or len(chosen) != len(set(variants)):
            errors.append(RuleError("variants", M("tick two games or more for the tables to choose from")))
        if ranking not in RANKINGS:
            errors.append(RuleError("ranking", M("choose how the tables of different games are ranked")))
    elif variant not in HOME_VARIANTS:
        names = ", ".join(get_variant(k).name for k in HOME_VARIANTS)
        errors.append(RuleError("variant", M("choose the game the tables play: %(names)s", names=names)))
    if not 1 <= tables <= 64:
        errors.append(RuleError("tables", M("a club night has 1 to 64 tables")))
    if errors:
        raise RuleErrors(errors)
    event = Event(
        name=name,
        format=KEY,
        options=options,
        current_hand=1,
        started_at=utcnow(),
        time_zone=time_zone,
    )
    event.tables = [EventTable(number=n, team="") for n in range(1, tables + 1)]
    core.apply_pin(event, pin)
    db.session.add(event)
    db.session.commit()
    return event


def variant_of(event: Event) -> str:
    """The evening's variant (a night where each table chooses: the first it offers)."""
    return str(event.options.get("variant", variants_of(event)[0]))


def variants_of(event: Event) -> tuple[str, ...]:
    """The variants a table may play: the evening's one, or those each table chooses from."""
    chosen = event.options.get("variants")
    if isinstance(chosen, list) and chosen:
        return tuple(str(k) for k in chosen)
    return (str(event.options.get("variant", DEFAULT_VARIANT)),)


def tables_choose(event: Event) -> bool:
    return "variants" in event.options


def ranking_of(event: Event) -> str:
    """How the ranking reads: "one" (a single variant), "variant" or "place" (see RANKINGS)."""
    return str(event.options.get("ranking", "variant")) if tables_choose(event) else "one"


def start_game(table: EventTable, record: Mapping[str, object]) -> Game:
    """The table's game from the set-up form; a table already playing keeps its game."""
    if table.game_id is not None:
        raise RuleErrors(
            [RuleError("game", M("table %(table)s is already playing: open its game", table=table.number))]
        )
    event = table.event
    if record.get("variant") not in variants_of(event):
        raise RuleErrors([RuleError("variant", M("choose one of the evening's games"))])
    title = f"{event.name}: table {table.number}"
    title = title if len(title) <= 120 else f"{event.name[:100]}…: table {table.number}"  # Game.title's column
    game = games.create({**record, "title": title})
    game.event_id = event.id
    table.game_id = game.id
    who = (
        joined(game.players)
        if game.players
        else M("%(home)s v %(away)s", home=game.teams[0]["name"], away=game.teams[1]["name"])
        if len(game.teams) == 2
        else joined([t["name"] for t in game.teams], " v ")
    )
    event.audit.append(
        core.audit_entry(
            f"table {table.number}",
            "game started",
            table=table.number,
            note=M("table %(table)s: %(who)s", table=table.number, who=who),
        )
    )
    db.session.commit()
    core.announce(event, core.Signals(orders=True))
    return game


def clear_table(table: EventTable) -> None:
    """The director frees a table for a new game; its game stays out of the ranking, readable by
    its spectators' link but no longer written by its scorer's."""
    if table.game_id is None:
        raise RuleErrors([RuleError("table", M("table %(table)s has no game to clear", table=table.number))])
    table.event.audit.append(
        core.audit_entry(
            "director",
            "table cleared",
            table=table.number,
            note=M("table %(table)s's game set aside", table=table.number),
        )
    )
    game = table_game(table)
    if game is not None:  # set aside: its scorer's link must not write to it any more
        core.revoke_scorer_link(game)
    table.game_id = None
    db.session.commit()
    core.announce(table.event, core.Signals(orders=True))


@dataclass(frozen=True)
class ClubView:
    """The ranking across the tables and each table's progress."""

    event: Event
    variant_names: tuple[str, ...]  # the game every table plays, or those the tables choose from
    rows: tuple[Row, ...]
    tables: tuple[tuple[EventTable, Game | None, str], ...]  # table, its game, its progress words
    ranked_by_points: bool = False  # the variant's `club_ranked_by_points`: its caption says "most points"
    ranked: str = "one"  # `ranking_of`: one variant, within each variant, or by place score across them
    sections: tuple[tuple[Section, object, bool], ...] = ()  # "variant": each's ranking, name, by points

    @property
    def finished(self) -> bool:
        """Every table has played its game to the end: the ranking is final."""
        return bool(self.tables) and all(g is not None and words == "finished" for _, g, words in self.tables)

    @property
    def playing(self) -> int:
        return sum(1 for _, g, words in self.tables if g is not None and words != "finished")


def view(event: Event) -> ClubView:
    standings: list[TableStandings] = []
    shown: list[tuple[EventTable, Game | None, str]] = []
    for table in event.tables:
        game = db.session.get(Game, table.game_id) if table.game_id is not None else None
        if game is None:
            shown.append((table, None, M("no game yet")))
            continue
        gv = games.view(game)
        by_seat = {s.seat: s for s in gv.sheet.standings}
        names = tuple(gv.sheet.columns)
        last = gv.sheet.lines[-1].cells if gv.sheet.lines else ()
        points = tuple(int(last[i].total) if i < len(last) else 0 for i in range(len(names)))
        standing = tuple(by_seat[i].total if i in by_seat else 0 for i in range(len(names)))
        entry = TableStandings(
            table.number,
            names,
            ranked_totals(game.variant, standing, points),
            len(gv.hands),
            gv.variant.round_count(gv.setup),
            gv.sheet.finished,
            tuple(by_seat[i].detail if i in by_seat else "" for i in range(len(names))),
            game.variant,
        )
        standings.append(entry)
        shown.append((table, game, progress(entry)))
    ranked = ranking_of(event)
    if ranked == "one":
        variant = get_variant(variant_of(event))
        return ClubView(event, (variant.name,), ranking(standings), tuple(shown), variant.club_ranked_by_points)
    names = tuple(get_variant(k).name for k in variants_of(event))
    if ranked == "place":
        return ClubView(event, names, by_place(standings), tuple(shown), ranked=ranked)
    sections = tuple(
        (s, get_variant(s.variant).name, get_variant(s.variant).club_ranked_by_points) for s in by_variant(standings)
    )
    rows = tuple(r for s, _, _ in sections for r in s.rows)
    return ClubView(event, names, rows, tuple(shown), ranked=ranked, sections=sections)


def check_rows(event: Event) -> None:
    """RuleErrors unless the rows are what a club night's play leaves (a restored backup, see
    events/backup.py): its variant, one of the home games, played by every game of the evening."""
    offered = event.options.get("variants")
    chosen_well = (
        set(event.options) == {"variants", "ranking"}
        and isinstance(offered, list)
        and len(offered) >= 2
        and all(k in HOME_VARIANTS for k in offered)
        and len(set(offered)) == len(offered)
        and event.options.get("ranking") in RANKINGS
    )
    one_well = set(event.options) == {"variant"} and variant_of(event) in HOME_VARIANTS
    errors = (
        [
            RuleError(
                "options",
                M("a club night's only option is its variant, one of %(variants)s", variants=", ".join(HOME_VARIANTS)),
            )
        ]
        if not (one_well or chosen_well)
        else []
    )
    errors += core.unused(
        event, "hands", "results", "loans", "playoffs", "days_closed", "entrants", "matches", "decisions"
    )
    errors += [
        RuleError(
            "games",
            M(
                "game %(number)s is %(variant)s, but the evening plays %(evening)s",
                number=i,
                variant=g.variant,
                evening=joined(list(variants_of(event))),
            ),
        )
        for i, g in enumerate(core.games_of(event), start=1)
        if g.variant not in variants_of(event)
    ]
    if errors:
        raise RuleErrors(errors)


def export(event: Event) -> dict[str, object]:
    """The club night as JSON: each table's game record (and the games set aside when a table was
    freed), and the ranking they give."""
    club_view = view(event)
    at_tables = {t.game_id for t in event.tables if t.game_id is not None}
    every = db.session.scalars(select(Game).where(Game.event_id == event.id).order_by(Game.id)).all()
    chosen = {"variants": list(variants_of(event)), "ranked_by": club_view.ranked} if tables_choose(event) else {}
    return {
        "scorepad_event": 1,
        "format": KEY,
        "name": event.name,
        "variant": variant_of(event),
        **chosen,
        "tables": [
            {"number": t.number, "progress": words, "game": records.record_of(g) if g is not None else None}
            for t, g, words in club_view.tables
        ],
        "set_aside": [records.record_of(g) for g in every if g.id not in at_tables],
        "ranking": [
            {
                "rank": r.rank,
                "tied": r.tied,
                "name": r.name,
                "table": r.table,
                "total": r.total,
                "detail": r.detail,
                "progress": r.progress,
                **({"variant": r.variant} if chosen else {}),
                **({"place_score": float(r.share)} if r.share is not None else {}),
            }
            for r in club_view.rows
        ],
        "decisions": [
            {"kind": d.kind, "key": d.key, "data": d.data, "actor": d.actor, "at": d.at.isoformat()}
            for d in event.decisions
        ],
    }


def table_game(table: EventTable) -> Game | None:
    """The game the table is playing (None before it set one up, or after the director freed it)."""
    return db.session.get(Game, table.game_id) if table.game_id is not None else None


def players(event: Event) -> results.EventResults:
    """Each player's (or team's) own page: their table's game as the home-game page shows a column,
    placed in the evening's ranking."""
    club_view = view(event)
    pages = []
    for table, game, _ in club_view.tables:
        if game is None:
            continue
        ranked = [row for row in club_view.rows if row.table == table.number]
        for page in results.game_players(
            games.view(game).sheet,
            event.public_id,
            key=f"game-{game.id}",
            where=M("Table %(table)s", table=table.number),
        ):
            row = next((r for r in ranked if r.name == page.name), None)
            if row is not None:
                ranked.remove(row)
            pages.append(
                replace(
                    page,
                    rank=row.rank if row is not None else None,
                    tied=row is not None and row.tied,
                    of=sum(1 for r in club_view.rows if club_view.ranked != "variant" or r.variant == game.variant),
                    total=row.total if row is not None else page.total,
                    total_words=row.detail if row is not None else page.total_words,
                    finished=club_view.finished,
                )
            )
    return results.EventResults(club_view.finished, tuple(pages))


class _Club(OneView):
    """Club nights behind the registry (see `events.registry`)."""

    key, title, pages, view_name = KEY, "Club night", "club", "club_view"

    def view(self, event: Event) -> ClubView:
        return view(event)

    def table(self, table: EventTable) -> TablePage:
        """The table's game's scoring page, or the set-up of a new one."""
        game = table_game(table)
        return TablePage(game=game, set_up=game is None)

    def export(self, event: Event) -> dict[str, object]:
        return export(event)

    def check(self, event: Event) -> None:
        check_rows(event)
        super().check(event)

    def players(self, event: Event) -> results.EventResults:
        return players(event)

    def status(self, event: Event) -> str:
        club_view = view(event)
        started = sum(1 for _, game, _ in club_view.tables if game is not None)
        if not started:
            return M("No table has started a game yet")
        if club_view.playing:
            return (
                M("%(playing)s of 1 table playing", playing=club_view.playing)
                if len(club_view.tables) == 1
                else M(
                    "%(playing)s of %(tables)s tables playing", playing=club_view.playing, tables=len(club_view.tables)
                )
            )
        return M("Every table's game is finished")


FORMAT = _Club()
