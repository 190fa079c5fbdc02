"""Importing game records from the home page: a file, or the record pasted in a box; one record, or
a list of them (a phone's or a group's "Export all games"), each opened as a new game of this phone.

The records are read and checked by the code `scorepad score` uses (`rules.record.checked_games`,
through `games.records.import_games`), so the page says what the command says. A file may be up to
GAMES_MAX_BYTES (a list; one record, RECORD_MAX_BYTES), past the app's request limit
(`MAX_CONTENT_LENGTH`): as for a backup (views/backup.py), the limits of this one request are raised
before anything reads its body, and a request past them is answered 413 on the form's own page,
beside the field, before anything is parsed.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import lazy_gettext, ngettext
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from scorepad import security
from scorepad.games import records
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.record import GAMES_MAX_BYTES, PROBLEMS_SHOWN, problems, size_limit, too_large
from scorepad.views.games import remember_game
from scorepad.views.home import form_page

bp = Blueprint("imports", __name__)
FORM_KB = 64  # the rest of the form beside the record (the CSRF token, multipart's headers)
FIELD = "record"  # the messages' field: the file and the box are one choice
NO_RECORD = lazy_gettext("Choose a game record file (.json), or paste a record in the box.")
BOTH = lazy_gettext("Choose a file or paste a record, not both: which one should be imported?")
REFUSED = lazy_gettext("This record cannot be imported; nothing was saved:")
HOLDS_NUL = lazy_gettext(
    "The pasted record holds a NUL character (\\0, shown as \ufffd below), which no game "
    "record takes: remove it and import again. Nothing was saved."
)


@bp.url_value_preprocessor
def _record_sized(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if endpoint == "imports.import_game" and request.method == "POST":
        request.max_content_length = GAMES_MAX_BYTES + FORM_KB * 1024
        request.max_form_memory_size = GAMES_MAX_BYTES + FORM_KB * 1024  # the pasted record(s)
        security.leave_nul_to_the_view()  # a NUL pasted is said beside the box, not on the app's 400 page


def _refused(status: int, lines: list[str], pasted: str = "") -> tuple[str, int]:
    """The form's own page, the record's problems beside the field (one line each, as `scorepad score`
    prints them), what was pasted kept to be corrected (not a record past the limit)."""
    return form_page("import", status, {FIELD: REFUSED}, problems=lines, pasted=pasted)


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    return _refused(413, problems(too_large(request.content_length or 0, GAMES_MAX_BYTES)))


@bp.route("/games/import", methods=["GET", "POST"])
def import_game() -> BaseResponse | tuple[str, int]:
    """Store a game record (a file, or pasted) as a new game of this browser, and open it on its
    scorer's page: its hands as recorded, to be continued when it is not over. A list of records
    makes as many games, all listed on the home page, which says how many came. A refused file is
    shown again on the form's own page, its problems beside the field, nothing stored (GET: the form
    alone)."""
    if request.method == "GET":
        return form_page("import")
    upload = request.files.get("file")
    pasted = request.form.get("text", "")
    if security.holds_nul():  # the box (or, sent by hand, any other field): no record holds one
        return form_page("import", 422, {FIELD: HOLDS_NUL}, pasted=pasted.replace("\x00", "\ufffd"))
    chosen = upload is not None and bool(upload.filename)
    if chosen and pasted.strip():
        return form_page("import", 422, {FIELD: BOTH}, pasted=pasted)
    if not chosen and not pasted.strip():
        return form_page("import", 422, {FIELD: NO_RECORD})
    raw = (
        upload.stream.read() if chosen and upload is not None else pasted.encode("utf-8")
    )  # bounded by the limits above
    try:
        made = records.import_games(raw)
    except (RuleError, RuleErrors) as e:
        status = 413 if len(raw) > size_limit(raw) else 422
        return _refused(status, problems(e, PROBLEMS_SHOWN), "" if status == 413 else pasted)
    for game in reversed(made):  # the file's first game first on the home page
        remember_game(game)
    if len(made) == 1:
        return redirect(url_for("games.play", token=made[0].scorer_token), code=303)
    flash(ngettext("%(num)s game imported.", "%(num)s games imported: they are listed below.", len(made)))
    return redirect(url_for("home.index"), code=303)
