"""Each team's own page of a tournament (issue 30, item 3): every hand of every match it played,
at which table, against whom, what it scored, the match's running score, and its place in the
standings the players see, with its medal. While the director hides the standings, the pages
show the published rounds' matches and places only, as the boards do."""

from __future__ import annotations

from dataclasses import replace

from scorepad.events.bid_whist import derived
from scorepad.games import results
from scorepad.games import service as games
from scorepad.models import Event
from scorepad.rules.errors import M


def players(event: Event) -> results.EventResults:
    view = derived.view(event)
    finished = view.stage == "finished"
    rows = {row.number: row for row in view.public_standings}
    medals = {name: medal for medal, name in view.medals}
    played: dict[int, list[results.Played]] = {team.number: [] for team in view.teams}
    order = sorted(view.views.values(), key=lambda v: (v.match.stage != "round", v.match.number, v.match.table))
    for mv in order:
        game = mv.match.game
        if game is None or (view.hide_standings and mv.match.stage == "round" and mv.match.number > view.published):
            continue  # hidden standings: a round's sheets are told once the director publishes it
        sheet = games.view(game).sheet
        for side, number in enumerate((mv.match.home, mv.match.away)):
            if number not in played:
                continue
            page = results.game_players(
                sheet,
                event.public_id,
                where=M("Table %(table)s", table=mv.match.table),
                label_prefix=view.match_title(mv.match),
            )[side]
            played[number].extend(replace(hand, against=mv.names[1 - side]) for hand in page.hands)
    pages = []
    for team in view.teams:
        row = rows.get(team.number)
        medal = medals.get(view.names.get(team.number, ""))
        pages.append(
            results.PlayerResults(
                results.code(event.public_id, f"team-{team.number}"),
                team.name,
                tuple(team.players),
                row.rank if row is not None else None,
                row is not None and row.tied,
                len(rows),
                row.points if row is not None else 0,
                M("%(won)s rounds won, %(points)s points", won=row.rounds_won, points=row.points)
                if row is not None
                else "",
                tuple(played[team.number]),
                finished,
                derived.MEDALS.get(medal, medal) if medal else "",
            )
        )
    return results.EventResults(finished, tuple(pages))
