"""`FORMAT`: a Bid Whist tournament behind the event registry (`events.registry`), the entry points
the event core's pages use to draw it (its room, boards and table pages), export it and check a
restored backup of it."""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.events import core
from scorepad.events.bid_whist import boards, derived, matches, player_pages, restore_checks, tournament
from scorepad.events.bid_whist.export import export as export_event
from scorepad.events.core import OneView, TablePage
from scorepad.games.results import EventResults
from scorepad.models import Event, EventEntrant, EventTable, Game


class _BidWhist(OneView):
    """Bid Whist tournaments behind the registry (see `events.registry`)."""

    key, title, pages, view_name = tournament.KEY, "Bid Whist tournament", "bid_whist", "tournament_view"
    keeps_board = True  # `board` gives the same view object while nothing on it changed (pushes/boards.py)

    def view(self, event: Event) -> derived.TournamentView:
        return derived.view(event)

    def room(self, event: Event) -> dict[str, object]:
        """The view, and the teams locked out of their code on a sheet (by the clock: never kept)."""
        return {self.view_name: derived.view(event), "code_locks": matches.code_locks(event)}

    def board(self, event: Event) -> dict[str, object]:
        """The boards' view, kept while the rows it is derived from are unchanged (`boards`)."""
        return {self.view_name: derived.kept_view(event)}

    def table(self, table: EventTable) -> TablePage:
        """The match in play at the table (its game's scoring page), else what comes next there."""
        tournament_view = derived.view(table.event)
        match = tournament_view.match_at(table.number)
        game = match.match.game if match is not None and not match.final else None
        return TablePage({"tournament_view": tournament_view, "match": match}, game=game)

    def teams(self, event: Event) -> list[EventEntrant]:
        return tournament.teams(event)

    def game_signals(self, game: Game, orders: bool, ended: bool) -> core.Signals:
        """A change to a preliminary match's recorded hands, or the hand that ends it (its teams'
        pages then offer to sign), concerns only its own table's pages: its bar, its teams' pages."""
        match = core.match_of(game) if orders or ended else None
        if match is not None and match.stage == "round":
            return core.Signals(table=match.table, teams=(match.home, match.away))
        return core.Signals(orders=orders)

    def export(self, event: Event) -> dict[str, object]:
        return export_event(event)

    def check(self, event: Event) -> None:
        """As `OneView.check`, the board's view derived but not kept: the rows are not committed yet."""
        restore_checks.check_rows(event)
        boards.detached(self.room(event)[self.view_name])
        self.export(event)

    def forget(self, event_id: int, game_ids: Sequence[int]) -> None:
        matches.forget_outcomes(game_ids)

    def players(self, event: Event) -> EventResults:
        return player_pages.players(event)

    def status(self, event: Event) -> str:
        return derived.view(event).status_title


FORMAT = _BidWhist()
