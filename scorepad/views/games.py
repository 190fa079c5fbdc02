"""Home games: start a game, enter hands by tapping, correct them, share a live read-only view.

Two links per game: the scorer's (`/g/<scorer_token>`, may write) and the spectators'
(`/w/<public_id>`, read-only, updated live by server-sent events). A home game's share page also
makes scorers' links (`/g/<token>` too, a token of their own): another phone enters, undoes and
corrects hands with one; only the game's own link shares, hands over, takes a link back or deletes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import date
from typing import TypeVar

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_htmx import make_response as htmx_response
from flask_wtf.csrf import generate_csrf
from jinja2 import pass_context
from jinja2.runtime import Context
from jinja2.utils import concat
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorepad import i18n, pushes
from scorepad.extensions import htmx
from scorepad.games import card as cards
from scorepad.games import groups, records, results, setup_form, sheets
from scorepad.games import service as games
from scorepad.games.entry import HOME_VARIANTS, Adapter, Complete, adapter_for
from scorepad.games.presenters import hand_facts
from scorepad.games.service import Game
from scorepad.i18n import say
from scorepad.kept import Kept
from scorepad.pushes import spectators
from scorepad.rules import get_variant
from scorepad.rules.base import M, RuleError, RuleErrors, ScoreSheet
from scorepad.rules.record import GAMES_MAX
from scorepad.views.common import device, errors_by_field, not_found, partial, share_url
from scorepad.views.director import directs

bp = Blueprint("games", __name__)
MY_GAMES = "my_games"  # scorer tokens of the games started on this device (signed cookie)
NO_GAME = lazy_gettext("There is no game at this link. It may have been deleted.")


@bp.app_template_global("undo_words")
def undo_words(game: Game) -> str:
    """What the Undo button takes back, in words."""
    said = games.next_undo(game)
    if said is not None:
        return said
    count = games.hand_count(game)
    return M("the bids of this hand") if game.pending else (M("hand %(number)s", number=count) if count else "")


@bp.app_template_global("redo_words")
def redo_words(game: Game) -> str | None:
    return games.next_redo(game)


@bp.app_template_global("hand_state")
def hand_state(game: Game) -> str:
    """The state a form is made from (sent back in its hidden `state` field)."""
    return games.fingerprint(game)


_CSRF = "\x00csrf\x00"  # stands for the request's CSRF token in a panel kept for every request
_PANELS: Kept[str] = Kept("scoring panels", size=2048)  # a few KB each
_BODIES: Kept[str] = Kept("scoring bodies", size=1024)  # 10-15 KB at hand 25 (the sheet's rows in them)


def _kept_part(context: Context, kept: Kept[str], template_name: str, keep: bool, *key: object) -> Markup:
    """`template_name` drawn with the page's context as {% include %} draws it; when `keep`, once per
    state of the game (`games.drawn_stamp`), its link, the language, whether the page's forms carry
    the CSRF token and `key`, and given again while the game's row and its hands are as they were,
    with this page's own token put in. An event's game (its bar, its signatures) is drawn each time."""
    template = context.environment.get_template(template_name)

    def draw() -> str:
        return concat(template.root_render_func(template.new_context(context.get_all(), True)))

    game = context["gv"].game
    if not keep or game.event_id is not None:
        return Markup(draw())
    token = "" if partial() else generate_csrf()  # a whole page's forms carry it (_macros.html, hx_csrf)
    found = (game.public_id, play_token(game), i18n.catalogue(), bool(token), *key)
    drawn = kept.get(found, games.drawn_stamp(game), lambda _: draw().replace(token, _CSRF) if token else draw())
    return Markup(drawn.replace(_CSRF, token) if token else drawn)


@bp.app_template_global("kept_panel")
@pass_context
def kept_panel(context: Context) -> Markup:
    """The hand's panel (games/_panel.html), kept (`_kept_part`): drawn on every opening of the page
    and every tap's answer, it was a fifth of the view at hand 1 (profiled). A refused tap's panel
    (its messages, the form sent) is drawn each time."""
    refused = bool(context.get("errors")) or context.get("form") is not None
    return _kept_part(context, _PANELS, "games/_panel.html", not refused, bool(context.get("keep_facts")))


@bp.app_template_global("kept_body")
@pass_context
def kept_body(context: Context) -> Markup:
    """The scorer's body (games/_play_body.html) of a page with nothing of its own to say (no notice,
    no refusal), kept (`_kept_part`): the page opened again, by a reload, another scorer's phone or
    its refresh after a hand saved elsewhere, draws none of its undo and redo forms and live part.
    Not once the game is over: its end says the group that keeps it, which is not the game's row."""
    own = ("notice", "errors", "form", "keep_live", "shown", "keep_facts", "keep_bar")
    keep = not context["gv"].state.over and not any(context.get(name) for name in own)
    return _kept_part(context, _BODIES, "games/_play_body.html", keep, context.get("can_edit"))


OWNER_ONLY = lazy_gettext(
    "This is a scorer's link: it enters, undoes and corrects hands. Sharing the game, handing it over "
    "and deleting it are for the phone that started it."
)


@bp.app_template_global("play_token")
def play_token(game: Game) -> str:
    """The link this scorer's page is served under: the game's own, or a scorer's link of it (whose
    pages never show the game's own)."""
    scoring: games.Scoring | None = g.get("scoring")
    return scoring.token if scoring is not None and scoring.game.id == game.id else game.scorer_token


@bp.app_template_global("scoring_helper")
def scoring_helper() -> bool:
    """Whether this page is served under a scorer's link (not the game's own)."""
    scoring: games.Scoring | None = g.get("scoring")
    return scoring is not None and scoring.scorer is not None


def _handed_back(game: Game) -> BaseResponse:
    """What a scorer's link taken back answers, to every request: a page that says so (a tap on its
    page, an htmx request, reloads the page to show it)."""
    response = Response(render_template("games/handed_back.html", game=game), status=410)
    if htmx:
        response.headers["HX-Refresh"] = "true"
    return response


T = TypeVar("T")


def _found(look_up: Callable[[str], T | None], token: str) -> T:
    """What a scorer's page link opens (`look_up`: its own link, or a scorer's link of it): 410 when
    its owner took the link back, or for a match of an event since deleted; 404 when no game has it."""
    try:
        found = look_up(token)
    except games.HandedBack as e:
        abort(_handed_back(e.game))
    if found is None:
        not_found(token, str(NO_GAME))
    return found


def _scoring(token: str) -> games.Scoring:
    """The game a scorer's page link opens."""
    scoring = g.scoring = _found(games.scoring_by_token, token)
    return scoring


def _opened(token: str) -> games.Opened:
    """`_scoring`, with what the scorer's page shows around the game, read with it."""
    opened = _found(games.opened_by_token, token)
    g.scoring = opened.scoring
    return opened


def _scorer_game(token: str) -> Game:
    """The game of its own scorer's link (a scorer's link of it is refused: 403)."""
    scoring = _scoring(token)
    if scoring.scorer is not None:
        abort(403, description=str(OWNER_ONLY))
    return scoring.game


def remember_game(game: Game) -> None:
    """List the game on this browser's home page as its own (its scorer's link, in the session)."""
    mine = [t for t in session.get(MY_GAMES, []) if t != game.scorer_token]
    session[MY_GAMES] = [game.scorer_token, *mine][:GAMES_MAX]  # so a file of all of them imports whole
    session.permanent = True


# --------------------------------------------------------------------------- starting a game


def _new_game_group() -> groups.Group | None:
    """The group a new game is started in (`group`: its link's token, in the address or the form)."""
    token = request.form.get("group") or request.args.get("group")
    if not token:
        return None
    group = groups.by_token(token)
    if group is None:
        abort(
            404,
            description=gettext(
                "There is no group at this link. Open the group's page again and start the game from there."
            ),
        )
    return group


@bp.get("/new")
def new() -> str:
    """Pick a variant (for a group's game: `?group=<token>`)."""
    return render_template("games/new.html", variants=[get_variant(k) for k in HOME_VARIANTS], group=_new_game_group())


@bp.route("/new/<key>", methods=["GET", "POST"])
def setup(key: str) -> str | BaseResponse | tuple[str, int]:
    """Players (or teams), options and first dealer; add/remove players without losing what was typed.
    A group's game offers the group's players, and is kept in the group from the start."""
    if key not in HOME_VARIANTS:
        abort(404, description=gettext("There is no home game called '%(key)s'.", key=key))
    variant = get_variant(key)
    group = _new_game_group()
    form = setup_form.SetupForm.from_request(variant, request.form if request.method == "POST" else None)
    lineup = groups.last_lineup(group, variant.partnerships, variant.players) if group else None
    errors: dict[str, str] = {}
    if request.method == "POST" and request.form.get("action") == "start":
        try:
            game = groups.start_game(group, form.record()) if group else games.create(form.record())
        except (RuleError, RuleErrors) as e:
            errors = errors_by_field(e)
        else:
            remember_game(game)
            target = url_for("games.play", token=game.scorer_token)
            if htmx:  # a whole new page: let htmx navigate rather than swap it into the form
                return htmx_response("", redirect=target)
            return redirect(target, code=303)
    elif request.method == "POST" and request.form.get("action") == "lineup" and lineup:
        form.names, form.teams = list(lineup[0]), list(lineup[1]) or form.teams
        form.first_dealer = 0
    elif request.method == "POST":
        form.apply(request.form.get("action", ""))
    offered = [p.name for p in groups.players(group)] if group else []
    context = dict(
        variant=variant,
        form=form,
        errors=errors,
        recent=[] if group else games.recent_names(),
        group=group,
        offered=offered,
        lineup=lineup,
    )
    template = "games/_setup_form.html" if partial() else "games/setup.html"
    return render_template(template, **context), (422 if errors else 200)


# --------------------------------------------------------------------------- playing


@bp.get("/g/<token>")
def play(token: str) -> str | BaseResponse:
    """The scorer's page: the current hand, running totals, the sheet. Its live refresh (`sheet`:
    the hands' revision it shows) is answered 204 while that is still what is recorded."""
    opened = _opened(token)
    game = opened.scoring.game
    if partial() and request.args.get("sheet") == str(game.hands_revision):
        return Response(status=204)
    if opened.scoring.scorer is None:
        remember_game(game)
    notice = " ".join(get_flashed_messages())
    return render_template(
        "games/play.html",
        gv=games.view(game),
        can_edit=game.locked_at is None,
        errors={},
        notice=notice,
        shared=opened.shared,
        group=opened.group,
    )


@bp.get("/g/<token>/events")
def scorer_events(token: str) -> Response:
    """Server-sent events for a scorer's page of a game scored from several phones: `hands` when its
    recorded hands change (the page fetches its body), or a scorer's link is taken back."""
    game = _scoring(token).game
    return pushes.stream(
        spectators.scorers_channel(game.public_id), language=i18n.chosen(), heard_on=spectators.channel(game.public_id)
    )


def _adapter(game: Game) -> Adapter:
    """How this game's hands are tapped in; a game of a variant not played at home (a Military
    Whist record among the examples) is shown, never entered."""
    if game.variant not in HOME_VARIANTS:
        abort(
            409,
            description=gettext(
                "This %(game)s game is a record to read: its hands are not entered here.",
                game=get_variant(game.variant).name,
            ),
        )
    return adapter_for(game.variant)


def _hand_number(raw: str | None) -> int:
    try:
        return int(raw or "")
    except ValueError:
        raise RuleErrors([RuleError("number", M("This form is out of date: reload the page."))]) from None


def _body(
    game: Game,
    errors: dict[str, str],
    notice: str,
    status: int,
    view: games.GameView | None = None,
    sheet_changed: bool = True,
    shown: int = 0,
    keep_facts: bool = False,
    keep_bar: bool = False,
) -> BaseResponse | tuple[str, int]:
    """After an action: the swapped body for htmx; for a plain form, the page (or a redirect on success).

    A tap that changed only the hand in hand (`sheet_changed` False) answers without the totals, chart
    and sheet: the page keeps its own (hx-preserve), and the answer stays small at hand 25. A saved
    hand whose page shows the first `shown` rows as they still are gets the totals, the chart and
    the new rows alone (out-of-band swaps), not the whole sheet again. A tap on a page that showed
    this very hand, leaving its facts (cards, trump, dealer) as they were, is answered without them
    too (`keep_facts`), and at an event without its event bar (`keep_bar`: a call or a bid changes
    nothing there; a signature reaches the bar by its own push)."""
    view = view or games.view(game)
    if htmx:
        # the post is shown again only when refused: a saved hand's values must not pre-fill the next one
        return render_template(
            "games/_play_body.html",
            gv=view,
            can_edit=game.locked_at is None,
            errors=errors,
            notice=notice,
            form=request.form if errors else None,
            shown=shown,
            keep_live=status == 200 and (not sheet_changed or shown > 0),
            keep_facts=status == 200 and keep_facts,
            keep_bar=status == 200 and keep_bar,
        ), status
    if status == 200:
        if notice:
            flash(notice)
        return redirect(url_for("games.play", token=play_token(game)), code=303)
    return render_template(
        "games/play.html",
        gv=view,
        can_edit=game.locked_at is None,
        errors=errors,
        notice=notice,
        form=request.form,
        shared=scoring_helper() or bool(games.scorers(game)),
        group=None if scoring_helper() else groups.group_of(game),
    ), status


def _page_sheet_is_current(game: Game) -> bool:
    """Whether the page that sent this form shows the recorded hands as they are now (its forms carry
    the hands' revision they were drawn with, `sheet`). A page drawn before a hand was corrected or
    saved elsewhere is not: its answer brings the whole live area, never only what the tap changed."""
    return request.form.get("sheet") == str(game.hands_revision)


def _rows_kept(before: ScoreSheet, after: ScoreSheet) -> int:
    """How many rows of the sheet shown before a hand was saved are still right after it (all of them,
    unless saving the hand changed an earlier row); 0 when the page must be given the whole sheet
    (it showed none, or the big score appears or goes)."""
    shown = len(before.lines)
    if not shown or after.lines[:shown] != before.lines or (before.scoreboard is None) != (after.scoreboard is None):
        return 0
    return shown


# A form made from an older state of the hand is refused: what the adapter can say of it (the bid it
# sent and the one recorded), else only what is true whatever happened in between.
_TOOK_NOTHING_BACK = lazy_gettext("That tap took nothing back.")
_REFUSED = {
    "unbid": _TOOK_NOTHING_BACK,
    "uncall": _TOOK_NOTHING_BACK,
    "undo": lazy_gettext("That tap undid nothing."),
    "redo": lazy_gettext("That tap redid nothing."),
}
_NOT_APPLIED = lazy_gettext("That tap was not applied.")
_STALE = lazy_gettext("This screen was out of date: check the hand below and tap again if needed.")


def _stale_notice(game: Game, adapter: Adapter, action: str) -> str:
    said = say(adapter.refused(games.view(game), action, request.form))
    return f"{said or _REFUSED.get(action, _NOT_APPLIED)} {_STALE}"


@bp.post("/g/<token>/entry")
def entry(token: str) -> BaseResponse | tuple[str, int]:
    """One action on the current hand: a trump, a bid, taking a bid back, or the result."""
    game = _scoring(token).game
    adapter = _adapter(game)
    errors: dict[str, str] = {}
    notice = ""
    status = 200
    action = request.form.get("action", "")
    try:
        if "number" in request.form:
            games.refuse_if_recorded(game, _hand_number(request.form["number"]))
        if "state" in request.form:
            games.refuse_if_stale(game, request.form["state"])
        before = games.view(game)
        fresh = _page_sheet_is_current(game)
        step = adapter.apply(before, action, request.form)
        shown = 0
        if isinstance(step, Complete):
            number = _hand_number(request.form.get("number"))
            after = games.enter_hand(game, number, step.entry, before)
            notice = gettext("Hand %(number)s saved.", number=number)
            shown = _rows_kept(before.sheet, after.sheet) if fresh else 0
        else:
            after = games.set_pending(game, step.data, before, what=step.what)
            notice = say(step.notice)
        saved = isinstance(step, Complete)
        # the page showed `before` only when its form carried the hand's state (checked above)
        same_hand = not saved and fresh and "state" in request.form
        return _body(
            game,
            errors,
            notice,
            status,
            after,
            sheet_changed=saved or not fresh,
            shown=shown,
            keep_facts=same_hand and hand_facts(before) == hand_facts(after),
            keep_bar=same_hand,
        )
    except games.AlreadyRecorded as e:
        if scoring_helper() or games.scorers(game):  # perhaps the other phone's: this one's hand was not counted
            notice = gettext(
                "Hand %(number)s was already saved, from another phone or by a second tap: this entry "
                "was not counted. Check the hand in the sheet below, and correct it if it is wrong.",
                number=e.number,
            )
        else:
            notice = gettext("Hand %(number)s was already saved; it was not counted twice.", number=e.number)
        status = 409
    except games.StaleForm:
        notice = _stale_notice(game, adapter, action)
        status = 409
    except (RuleError, RuleErrors) as e:
        errors = errors_by_field(e)
        status = 422
    return _body(game, errors, notice, status)


def _undo_or_redo(token: str, action: str) -> BaseResponse | tuple[str, int]:
    game = _scoring(token).game
    adapter = _adapter(game)
    try:
        if "state" in request.form:
            games.refuse_if_stale(game, request.form["state"])
        revision = game.hands_revision
        fresh = _page_sheet_is_current(game)
        notice = say(games.undo(game, _editor(game)) if action == "undo" else games.redo(game, _editor(game)))
    except games.StaleForm:
        return _body(game, {}, _stale_notice(game, adapter, action), 409)
    except RuleErrors as e:
        return _body(game, errors_by_field(e), "", 422)
    changed = game.hands_revision != revision  # a hand saved, taken back or corrected
    return _body(game, {}, notice, 200, sheet_changed=changed or not fresh)


def _editor(game: Game) -> games.Editor:
    """Who changes an event game's recorded hands, for its audit trail: its director or its table's phone."""
    return games.Editor(director=directs(game), device=device()) if game.event_id is not None else games.Editor()


@bp.post("/g/<token>/undo")
def undo(token: str) -> BaseResponse | tuple[str, int]:
    """Take back exactly the last tap, and offer to redo it."""
    return _undo_or_redo(token, "undo")


@bp.post("/g/<token>/redo")
def redo(token: str) -> BaseResponse | tuple[str, int]:
    """Make again the tap that Undo took back last."""
    return _undo_or_redo(token, "redo")


@bp.route("/g/<token>/hands/<int:number>", methods=["GET", "POST"])
def edit_hand(token: str, number: int) -> str | BaseResponse | tuple[str, int]:
    """Correct a recorded hand; every later hand is re-scored."""
    game = _scoring(token).game
    view = games.view(game)
    if not 1 <= number <= len(game.hands):
        abort(404, description=gettext("There is no hand %(number)s in this game.", number=number))
    adapter = _adapter(game)
    entry = game.hands[number - 1].entry
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            games.correct_hand(game, number, adapter.parse_edit(view, number, request.form), _editor(game))
        except (RuleError, RuleErrors) as e:
            errors = errors_by_field(e)
        else:
            return redirect(url_for("games.play", token=token, _anchor=f"hand-{number}"), code=303)
    return render_template(
        "games/edit_hand.html", gv=view, number=number, entry=entry, errors=errors, form=request.form
    ), (422 if errors else 200)


@bp.route("/g/<token>/delete", methods=["GET", "POST"])
def delete(token: str) -> str | BaseResponse:
    """Ask first; delete only on the confirming POST."""
    game = _scorer_game(token)
    if game.event_id is not None:
        abort(409, description=gettext("This game is part of an event: deleting it is up to the director."))
    if request.method == "POST":
        view = games.view(game)
        said = gettext(
            "The game “%(game)s” with %(players)s is deleted.",
            game=game.title or view.variant.name,
            players=", ".join(view.setup.columns),
        )
        games.delete(game)
        session[MY_GAMES] = [t for t in session.get(MY_GAMES, []) if t != token]
        flash(said)  # said once on the home page: a refresh does not say it again
        return redirect(url_for("home.index"), code=303)
    return render_template("games/delete.html", gv=games.view(game))


@bp.post("/g/<token>/rematch")
def rematch(token: str) -> BaseResponse:
    """Same players and options, the next dealer."""
    game = _scorer_game(token)
    _adapter(game)
    if game.event_id is not None:
        abort(409, description=gettext("This game is part of an event: the director starts its next match."))
    new_game = groups.rematch(game)
    remember_game(new_game)
    return redirect(url_for("games.play", token=new_game.scorer_token), code=303)


@bp.app_template_global("shares_scoring")
def _shares_scoring(game: Game) -> bool:
    """Whether the game can be scored from other phones: a home game, of a variant entered here."""
    return game.event_id is None and not game.is_demo and game.variant in HOME_VARIANTS


def _share_page(game: Game, errors: dict[str, str] | None = None, status: int = 200) -> tuple[str, int]:
    code = games.short_code(game)
    url = share_url(url_for("games.short_link", code=code))
    links = (
        [(s, share_url(url_for("games.play", token=s.link_token))) for s in games.scorers(game)]
        if _shares_scoring(game)
        else []
    )
    return render_template(
        "games/share.html",
        gv=games.view(game),
        url=url,
        code=code,
        links=links,
        most=games.SCORERS_MAX,
        errors=errors or {},
        notice=" ".join(get_flashed_messages()),
    ), status


@bp.get("/g/<token>/share")
def share(token: str) -> tuple[str, int]:
    """A QR code and short link to the read-only live view, for the other phones; for a home game,
    the scorers' links that let another phone enter hands, and making or taking back one."""
    return _share_page(_scorer_game(token))


@bp.post("/g/<token>/scorers")
def add_scorer(token: str) -> BaseResponse | tuple[str, int]:
    """Make a scorer's link for another phone (at most `games.SCORERS_MAX` open at once)."""
    game = _scorer_game(token)
    if not _shares_scoring(game):
        abort(409, description=gettext("This game's hands are entered from its own page only."))
    try:
        scorer = games.add_scorer(game)
    except RuleErrors as e:
        return _share_page(game, errors_by_field(e), 422)
    return redirect(url_for("games.share", token=token, _anchor=f"scorer-{scorer.number}"), code=303)


@bp.route("/g/<token>/scorers/<int:number>/revoke", methods=["GET", "POST"])
def revoke_scorer(token: str, number: int) -> str | BaseResponse:
    """Ask first; take the scorer's link back only on the confirming POST."""
    game = _scorer_game(token)
    scorer = games.scorer_of(game, number)
    if scorer is None:
        abort(404, description=gettext("There is no open scorer's link %(number)s in this game.", number=number))
    if request.method == "POST":
        games.revoke_scorer(game, scorer)
        flash(gettext("Scorer's link %(number)s was taken back: it can no longer enter hands.", number=number))
        return redirect(url_for("games.share", token=token), code=303)
    return render_template("games/revoke_scorer.html", gv=games.view(game), scorer=scorer)


@bp.get("/s/<code>")
def short_link(code: str) -> BaseResponse:
    """The short link of the share screen: on to the spectators' page, or with `?player=<code>` to
    that player's results (the share screen shows no other address of the game)."""
    game = games.by_short_code(code)
    if game is None:
        abort(
            404, description=gettext("There is no game at this link. It may have been deleted, or the code mistyped.")
        )
    player = request.args.get("player")
    if player is None:
        return redirect(url_for("games.watch", public_id=game.public_id), code=302)
    if results.game_player(games.view(game).sheet, game.public_id, player) is None:
        abort(404, description=gettext("There is no player at this link. Open the game and choose a name."))
    return redirect(url_for("games.player_results", public_id=game.public_id, player=player.lower()), code=302)


# --------------------------------------------------------------------------- watching and exports


def _public_game(public_id: str) -> Game:
    game = games.by_public_id(public_id)
    if game is None:
        not_found(public_id, str(NO_GAME))
    return game


@bp.get("/w/<public_id>")
def watch(public_id: str) -> str:
    """The spectators' read-only page, kept up to date live (the live fragment alone for htmx: a
    page catching up after a lost stream)."""
    template = "games/_live.html" if partial() else "games/watch.html"
    return render_template(template, gv=games.view(_public_game(public_id)), can_edit=False, watching=True)


@bp.get("/w/<public_id>/p/<player>")
def player_results(public_id: str, player: str) -> str:
    """One player's or team's results in the game: every hand, what it scored, the running total, the place."""
    game = _public_game(public_id)
    page = results.game_player(games.view(game).sheet, game.public_id, player)
    if page is None:
        abort(404, description=gettext("There is no player at this link. Open the game and choose a name."))
    return render_template(
        "results/player.html",
        page=page,
        title=game.title or games.view(game).variant.name,
        index_url=url_for("games.watch", public_id=game.public_id),
        standings_url=None,
        game_page=True,
    )


@bp.get("/w/<public_id>/events")
def events(public_id: str) -> Response:
    """Server-sent events: the live fragment after every change to the game."""
    game = _public_game(public_id)
    return pushes.stream(
        spectators.channel(game.public_id), language=i18n.chosen()
    )  # the page's, from this request itself


@bp.get("/w/<public_id>/game.json")
def export_json(public_id: str) -> ResponseReturnValue:
    """The game record (the format `scorepad score` reads)."""
    game = _public_game(public_id)
    response = current_app.json.response(games.record_of(game))
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(game)}.json"'
    return response


@bp.get("/games/export.json")
def export_mine() -> ResponseReturnValue:
    """This browser's games (the home page's own) as one file: a list of game records, which the
    home page's import takes back on another phone."""
    mine = games.by_scorer_tokens(session.get(MY_GAMES, []))
    if not mine:
        abort(404, description=gettext("This browser has no games of its own to export yet."))
    response = current_app.json.response(records.records_of(mine))
    response.headers["Content-Disposition"] = f'attachment; filename="scorepad-games-{date.today():%Y-%m-%d}.json"'
    response.headers["Cache-Control"] = "no-store"  # each game's record, listed by this browser's secret links
    return response


@bp.get("/w/<public_id>/sheet.csv")
def export_csv(public_id: str) -> Response:
    """The score sheet as CSV, one row per hand."""
    game = _public_game(public_id)
    response = Response(sheets.to_csv(games.view(game).sheet), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(game)}.csv"'
    return response


def _filename(game: Game) -> str:
    return f"scorepad-{game.variant}-{game.created_at:%Y-%m-%d}-{game.public_id[:6]}"


# --------------------------------------------------------------------------- the result card

NOT_OVER = lazy_gettext("This game is not over yet: its result card is drawn once the last hand is saved.")


def _card_response(public_id: str, kind: str) -> BaseResponse:
    """The result card of a finished game as `kind` (png or svg). It can still change (an undo or a
    correction after the end): browsers ask again each time, and an unchanged card is a 304."""
    game = _public_game(public_id)
    asked = request.args.get("lang", "")  # the page's language, which its links carry; else the request's
    try:
        with i18n.speaking(asked) if asked in i18n.LANGUAGES else contextlib.nullcontext():
            card = cards.card_of(games.view(game))
    except cards.NotFinished:
        abort(409, description=str(NOT_OVER))
    etag = f"{kind}-{cards.fingerprint(card)}"
    if request.if_none_match.contains(etag):
        response: BaseResponse = Response(status=304)
    elif kind == "png":
        response = Response(cards.png_file(card), mimetype="image/png")
    else:
        response = Response(render_template("games/card.svg", card=card, paper=cards.PAPER), mimetype="image/svg+xml")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Disposition"] = f'inline; filename="{_filename(game)}-result.{kind}"'
    return response


@bp.get("/w/<public_id>/result.png")
def result_png(public_id: str) -> BaseResponse:
    """The final standings as a picture for a family chat (409 until the game is over)."""
    return _card_response(public_id, "png")


@bp.get("/w/<public_id>/result.svg")
def result_svg(public_id: str) -> BaseResponse:
    """The same card as SVG."""
    return _card_response(public_id, "svg")
