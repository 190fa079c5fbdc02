"""This browser's own settings, each kept in a cookie: large text (for seniors' clubs) and the language.

The cookie is read here to put `large-text` on the page's <html>, so a page is drawn at its size
from the first paint, with no script and no flash. The header's toggle is a form that works
without script (it sets the cookie and comes back); static/js/app.js does the same at once on the
page, writing the same cookie. The cookie is not HttpOnly: the script writes it too.

The language switch is a form of three buttons in the header; the chosen language is a cookie that
`scorepad.i18n` reads before the browser's Accept-Language.
"""

from __future__ import annotations

from flask import Blueprint, has_request_context, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from scorepad import i18n

bp = Blueprint("settings", __name__)
TEXT_SIZE = "text_size"  # the cookie's name; static/js/app.js writes the same
LARGE = "large"
KEEP_SECONDS = 400 * 24 * 3600  # as long as browsers keep a cookie (400 days)
NEXT_MAX = 2000


@bp.app_context_processor
def _text_size() -> dict[str, bool]:
    """Whether this browser asked for large text; False for what is drawn outside a request (the live
    fragments pushed to every screen, which are never whole pages)."""
    return {"large_text": has_request_context() and request.cookies.get(TEXT_SIZE) == LARGE}


def _back(raw: str) -> str:
    """Where to go back to: a path of this app only (never another site's address); the home page
    for a page drawn in answer to a form (its address takes no GET), which sends none."""
    if (
        not raw.startswith("/")
        or raw.startswith("//")
        or "\\" in raw
        or len(raw) > NEXT_MAX
        or any(ch.isspace() or not ch.isprintable() for ch in raw)
    ):
        return url_for("home.index")
    return raw


@bp.post("/settings/text-size")
def text_size() -> BaseResponse:
    """Turn large text on or off on this browser, then go back to the page it was asked from."""
    large = request.form.get("large") == "1"
    response = redirect(_back(request.form.get("next", "")), code=303)
    if large:
        response.set_cookie(
            TEXT_SIZE, LARGE, max_age=KEEP_SECONDS, path="/", samesite="Lax", secure=request.is_secure, httponly=False
        )
    else:
        response.delete_cookie(TEXT_SIZE, path="/", samesite="Lax", secure=request.is_secure, httponly=False)
    return response


@bp.post("/settings/language")
def language() -> BaseResponse:
    """Draw this browser's pages in the language chosen (one of ours), then go back to the page."""
    response = redirect(_back(request.form.get("next", "")), code=303)
    chosen = request.form.get("lang", "")
    if chosen in i18n.LANGUAGES:
        response.set_cookie(
            i18n.COOKIE, chosen, max_age=KEEP_SECONDS, path="/", samesite="Lax", secure=request.is_secure, httponly=True
        )
    return response
