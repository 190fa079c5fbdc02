"""A home game's spectators: the live fragment they see, drawn once per language their pages read.

`show` runs in every worker on hearing that a game's recorded hands changed (`games.service`
announces it when it commits an entry, an undo or a correction); the hand in hand (a bid) is not
shown to spectators, so a tap on it is announced to the game's event only.

The game's scorers' pages (its own link's and the scorers' links', when it has some: issue 30,
item 4) listen on a channel of their own (`scorers_channel`) for `hands`, a signal without a
page: each fetches its own body in its own request (its link, its language). A scorer's link
taken back is announced with `scorers`: only the signal goes, and the page of the link taken back
hears it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import render_template

from scorepad import i18n, live
from scorepad.games import service as games


def channel(public_id: str) -> str:
    return f"game:{public_id}"


def scorers_channel(public_id: str) -> str:
    """The scorers' pages' channel: a kind no relay handler shows again (`live.Relay.refresh`), as
    each page catches up by itself when its stream opens again (static/js/app.js)."""
    return f"game-scorers:{public_id}"


def show(public_id: str, data: Mapping[str, object], view: games.GameView | None = None) -> None:
    """Render the spectators' fragment for this worker's streams, once in each language their pages
    are in (`view`: the announcing request's own, which saves replaying the game). The push is drawn
    outside the spectators' requests (in the scorer's, or none): each stream's language is the one
    its page asked in when it subscribed."""
    name = channel(public_id)
    live.broker().publish(scorers_channel(public_id), "hands", "")  # each scorer's page fetches its own body
    if data.get("scorers"):  # a scorer's link taken back: nothing the spectators see changed
        return
    languages = live.broker().languages(name)
    if not languages:  # nobody watching here (most event tables): nothing to render
        return
    if view is None:
        game = games.by_public_id(public_id)
        if game is None:
            return
        view = games.view(game)
    for language in sorted(languages):
        with i18n.speaking(language):
            fragment = render_template("games/_live.html", gv=view, can_edit=False, watching=True)
        live.broker().publish(name, "update", fragment, language=language)
