"""Blueprints: each view parses the request, calls a service, renders a template."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException

from scorepad import pushes
from scorepad.events import core
from scorepad.games import sheets
from scorepad.views.common import partial, share_url

_TITLES = {
    400: lazy_gettext("That request could not be read"),
    403: lazy_gettext("You are not allowed to do that"),
    404: lazy_gettext("Page not found"),
    405: lazy_gettext("That action is not available here"),
    413: lazy_gettext("That request is too large"),
    429: lazy_gettext("Too many at once"),
    422: lazy_gettext("Please check what you entered"),
    # Werkzeug's own names for the other codes, in its English
    409: lazy_gettext("Conflict"),
    410: lazy_gettext("Gone"),
    500: lazy_gettext("Internal Server Error"),
    503: lazy_gettext("Service Unavailable"),
}
# Werkzeug's words for an error raised without words of ours (an unknown address, a wrong method,
# a crash): the same English, said in the reader's language.
_WERKZEUG_WORDS = {
    400: lazy_gettext("The browser (or proxy) sent a request that this server could not understand."),
    403: lazy_gettext(
        "You don't have the permission to access the requested resource. It is either read-protected "
        "or not readable by the server."
    ),
    404: lazy_gettext(
        "The requested URL was not found on the server. If you entered the URL manually please check "
        "your spelling and try again."
    ),
    405: lazy_gettext("The method is not allowed for the requested URL."),
    409: lazy_gettext(
        "A conflict happened while processing the request. The resource might have been modified "
        "while the request was being processed."
    ),
    410: lazy_gettext(
        "The requested URL is no longer available on this server and there is no forwarding address. "
        "If you followed a link from a foreign page, please contact the author of this page."
    ),
    422: lazy_gettext("The request was well-formed but was unable to be followed due to semantic errors."),
    429: lazy_gettext("This user has exceeded an allotted request count. Try again later."),
    500: lazy_gettext(
        "The server encountered an internal error and was unable to complete your request. Either the "
        "server is overloaded or there is an error in the application."
    ),
    503: lazy_gettext(
        "The server is temporarily unable to service your request due to maintenance downtime or "
        "capacity problems. Please try again later."
    ),
}
AT_THE_SAME_MOMENT = lazy_gettext(
    "Another device saved a change to the same thing at the same moment, so what you sent was not saved. Reload "
    "the page to see what is recorded now, then try again if need be."
)
TOO_LARGE = lazy_gettext(
    "What was sent is larger than any form of Scorepad sends (at most %(kb)s KB), so it was refused; nothing was saved."
)
EXPIRED = lazy_gettext("This form has expired. Reload the page and try again; nothing was saved.")
SAME_MOMENT_TITLE = lazy_gettext("Changed at the same moment")


def register(app: Flask) -> None:
    """Attach every blueprint, template helpers, error pages and shared response headers."""
    from scorepad.formats.military import trump_words
    from scorepad.games.presenters import TEMPLATE_GLOBALS
    from scorepad.views import (
        backup,
        bid_whist,
        board,
        club,
        director,
        drive,
        games,
        group_stats,
        groups,
        home,
        imports,
        military,
        pwa,
        settings,
        tables,
    )

    for module in (
        home,
        games,
        groups,
        group_stats,
        pwa,
        director,
        tables,
        board,
        military,
        bid_whist,
        club,
        drive,
        backup,
        imports,
        settings,
    ):
        app.register_blueprint(module.bp)
    app.jinja_env.globals["trump_words"] = trump_words
    app.jinja_env.globals["share_url"] = share_url
    app.jinja_env.globals["fragment"] = partial
    app.jinja_env.globals["event_bar"] = bid_whist.event_bar
    app.jinja_env.globals["event_stream"] = bid_whist.event_stream
    app.jinja_env.globals["team_code"] = bid_whist.team_code

    app.jinja_env.globals["describe_round"] = sheets.describe_round
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    app.jinja_env.filters["with_prefix"] = lambda mapping, prefix: [k for k in mapping if k.startswith(prefix)]

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template("errors/error.html", code=400, title=_TITLES[400], message=EXPIRED), 400

    @app.errorhandler(pushes.TooManyStreams)
    def _too_many_streams(error: pushes.TooManyStreams) -> tuple[str, int, dict[str, str]]:
        page = render_template("errors/error.html", code=429, title=_TITLES[429], message=str(error))
        return page, 429, {"Retry-After": "30"}

    @app.errorhandler(IntegrityError)
    @app.errorhandler(StaleDataError)
    def _at_the_same_moment(error: IntegrityError | StaleDataError) -> tuple[str, int]:
        """A unique key the services do not answer themselves, or a row's revision moved since it
        was read (two devices writing the same row at once: the database keeps the first): a 409,
        never a 500."""
        core.end_session()  # the failed write's transaction is rolled back before anything is drawn
        return render_template("errors/error.html", code=409, title=SAME_MOMENT_TITLE, message=AT_THE_SAME_MOMENT), 409

    @app.errorhandler(413)
    def _too_large(error: HTTPException) -> tuple[str, int]:
        message = str(TOO_LARGE) % {"kb": (app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024}
        return render_template("errors/error.html", code=413, title=_TITLES[413], message=message), 413

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        title = _TITLES.get(code, error.name)
        message = error.description
        if code in _WERKZEUG_WORDS and message == type(error).description:
            message = _WERKZEUG_WORDS[code]
        return render_template("errors/error.html", code=code, title=title, message=message), code

    @app.after_request
    def _headers(response: Response) -> Response:
        # A URL that can answer with a fragment must say so, or Back shows a bare fragment.
        response.vary.add("HX-Request")  # the security headers are security.py's (Talisman)
        if request.endpoint != "static":  # a page is drawn in the language of the cookie or the browser
            response.vary.update(("Cookie", "Accept-Language"))
        return response
