"""A Bid Whist tournament as JSON (`export`): what was entered and what it gives."""

from __future__ import annotations

from typing import Any

from scorepad.events.bid_whist import derived, matches, tournament
from scorepad.games import records
from scorepad.models import Event


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def export(event: Event) -> dict[str, object]:
    """The whole tournament as JSON: the inputs (entrants, seed, draws, every match's game record,
    signatures, decisions) and what they give (standings, bracket, medals). While the standings
    are hidden, the sheets of rounds not yet published are left out, as on the boards."""
    tournament_view = derived.view(event)
    hidden_after = tournament_view.published if tournament_view.hide_standings else None
    out_matches: list[dict[str, object]] = []
    for v in sorted(
        tournament_view.views.values(), key=lambda v: (v.match.stage != "round", v.match.number, v.match.table)
    ):
        m = v.match
        row: dict[str, object] = {
            "stage": m.stage,
            "number": m.number,
            "label": tournament_view.match_title(m),
            "table": m.table,
            "home": m.home,
            "away": m.away,
        }
        if hidden_after is not None and m.stage == "round" and m.number > hidden_after:
            row["hidden"] = True
            out_matches.append(row)
            continue
        walk = tournament_view.walkovers.get(m.number) if m.closed_by == matches.WALKOVER else None
        winner = (
            walk[0]
            if walk
            else ((m.home, m.away)[v.outcome.winner] if v.final and v.outcome.winner is not None else None)
        )
        row.update(
            {
                "points": list(v.outcome.points),
                "hands": v.outcome.hands,
                "final": v.final,
                "winner": winner,
                "walkover": {"winner": walk[0], "reason": walk[1]} if walk else None,
                "signed_home_at": _iso(m.signed_home_at),
                "signed_away_at": _iso(m.signed_away_at),
                "closed_by": m.closed_by,
                "dispute": m.dispute or None,
                "game": records.record_of(m.game) if m.game is not None else None,
            }
        )
        out_matches.append(row)
    standings = tournament_view.public_standings if tournament_view.hide_standings else tournament_view.standings
    return {
        "scorepad_event": 1,
        "format": tournament.KEY,
        "name": event.name,
        "options": {k: v for k, v in event.options.items() if k != "seed"},
        "seed": tournament_view.seed,
        "stage": tournament_view.stage,
        "entrants": [{"number": e.number, "name": e.name, "players": list(e.players)} for e in event.entrants],
        "draws": [
            {
                "round": d.round,
                "order": list(d.order),
                "tables": [{"table": s.table, "home": s.home, "away": s.away} for s in d.seats],
            }
            for d in tournament_view.draws
        ],
        "matches": out_matches,
        "decisions": [
            {"kind": d.kind, "key": d.key, "data": d.data, "actor": d.actor, "at": _iso(d.at)} for d in event.decisions
        ],
        "standings": [
            {
                "rank": r.rank,
                "tied": r.tied,
                "number": r.number,
                "name": r.name,
                "rounds_won": r.rounds_won,
                "points": r.points,
                "note": r.note,
            }
            for r in standings
        ],
        "standings_hidden": tournament_view.hide_standings,
        "bracket": [
            {"number": m.number, "level": m.level, "teams": list(m.teams), "table": m.table, "winner": m.winner}
            for m in (tournament_view.bracket_state.matches if tournament_view.bracket_state else ())
        ],
        "medals": [{"medal": medal, "team": name} for medal, name in tournament_view.medals],
    }
