"""Blueprints: each view parses the request, calls a service, renders a template."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorepad import network
from scorepad.games import sheets
from scorepad.rules.base import RuleError, RuleErrors

_TITLES = {
    400: "That request could not be read",
    403: "You are not allowed to do that",
    404: "Page not found",
    405: "That action is not available here",
    422: "Please check what you entered",
}


def errors_by_field(error: RuleError | RuleErrors) -> dict[str, str]:
    """Rule errors keyed by field, so each message is shown beside its control."""
    found = error.errors if isinstance(error, RuleErrors) else (error,)
    messages: dict[str, str] = {}
    for e in found:
        text = e.message[:1].upper() + e.message[1:]
        messages[e.field] = f"{messages[e.field]} {text}" if e.field in messages else text
    return messages


def share_url(path: str) -> str:
    """An absolute URL another phone can open: the LAN address when this page came via localhost."""
    host = urlsplit(request.host_url)
    if host.hostname in ("localhost", "127.0.0.1", "::1"):
        addresses = network.lan_addresses()
        if addresses:
            port = f":{host.port}" if host.port else ""
            return f"{host.scheme}://{addresses[0]}{port}{path}"
    return request.host_url.rstrip("/") + path


def register(app: Flask) -> None:
    """Attach every blueprint, template helpers, error pages and shared response headers."""
    from scorepad.formats.military import trump_words
    from scorepad.games.presenters import TEMPLATE_GLOBALS
    from scorepad.views import bid_whist as tournament, board, club, director, drive, games, home, pwa, tables

    for module in (home, games, pwa, director, tables, board, tournament, club, drive):
        app.register_blueprint(module.bp)
    app.jinja_env.globals["trump_words"] = trump_words
    app.jinja_env.globals["share_url"] = share_url
    app.jinja_env.globals["event_bar"] = tournament.event_bar
    app.jinja_env.globals["event_stream"] = tournament.event_stream

    app.jinja_env.globals["describe_round"] = sheets.describe_round
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    app.jinja_env.filters["with_prefix"] = lambda mapping, prefix: [k for k in mapping if k.startswith(prefix)]

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError) -> tuple[str, int]:
        message = "This form has expired. Reload the page and try again; nothing was saved."
        return render_template("errors/error.html", code=400, title=_TITLES[400], message=message), 400

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        title = _TITLES.get(code, error.name)
        return render_template("errors/error.html", code=code, title=title,
                               message=error.description), code

    @app.after_request
    def _headers(response: Response) -> Response:
        # A URL that can answer with a fragment must say so, or Back shows a bare fragment.
        response.vary.add("HX-Request")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
