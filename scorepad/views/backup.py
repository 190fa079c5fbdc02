"""Restoring an event from a backup file (the download is the director's: views/director.py).

The upload is far larger than any form (`MAX_CONTENT_LENGTH`), so this blueprint raises the
request's limit to the backup's before anything reads the body: a URL value preprocessor runs
before every `before_request` (the CSRF check and the NUL check read the form). A file past the
limit is answered 413 on the form itself, with the limit, like every other refusal of the file.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext, ngettext
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import backup, club_history, roster
from scorepad.i18n import say
from scorepad.rules.base import RuleErrors
from scorepad.views.common import errors_by_field
from scorepad.views.director import unlock_for

bp = Blueprint("backup", __name__)
FORM_KB = 64  # the rest of the form (the CSRF token, the PIN), beside the file
NO_FILE = lazy_gettext(
    'Choose the backup file: the .json file downloaded from an event\'s control room ("Download backup").'
)


@bp.url_value_preprocessor
def _backup_sized(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if endpoint == "backup.restore" and request.method == "POST":
        request.max_content_length = backup.limit_bytes() + FORM_KB * 1024


def _form(status: int, errors: dict[str, str] | None = None, club: str = "") -> tuple[str, int]:
    """The restore form (`club`: the club's link as typed, kept when something else is refused; the
    form is not read here, as a request past the size limit must not be)."""
    return render_template(
        "backup/restore.html", errors=errors or {}, max_kb=backup.limit_bytes() // 1024, club=club
    ), status


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    return _form(413, {"backup": _words(backup.too_large(request.content_length or 0))})


def _words(error: backup.BackupError) -> str:
    problems = "; ".join(say(problem) for problem in error.problems)
    if error.too_large:
        return gettext("This file cannot be restored: %(problems)s. Nothing was saved.", problems=problems)
    return gettext("This backup cannot be restored: %(problems)s. Nothing was saved.", problems=problems)


@bp.route("/events/restore", methods=["GET", "POST"])
def restore() -> tuple[str, int] | BaseResponse:
    """Restore an event from a backup as a new event, then open its (new) director's link."""
    if request.method == "GET":
        return _form(200)
    upload = request.files.get("backup")
    club = request.form.get("club", "").strip()
    if upload is None or not upload.filename:
        return _form(422, {"backup": NO_FILE}, club[:300])
    raw = upload.stream.read(backup.limit_bytes() + 1)
    if club:  # checked before anything is restored: a mistyped link restores nothing
        try:
            roster.group_of_link(club)
        except RuleErrors as e:
            return _form(422, errors_by_field(e), club[:300])
    try:
        event = backup.restore_file(
            raw,
            pin=request.form.get("pin", "").strip(),
            copy=gettext("copy"),  # a copy's name says so in the restorer's words: "Zone 3 (copie)"
        )
    except backup.BackupError as e:
        message = _words(e) if e.field == "backup" else gettext("The PIN is 4 to 8 digits (or leave it empty).")
        return _form(413 if e.too_large else 422, {e.field: message}, club[:300])
    unlock_for(event)
    if club:
        group, added = roster.link(event, club, club_history.players_named(event))
        flash(
            ngettext(
                "Its players are linked to the roster of “%(club)s”: %(num)s name was new and joined the club.",
                "Its players are linked to the roster of “%(club)s”: %(num)s names were new and joined the club.",
                added,
                club=group.name,
            )
        )
    if event.copy_of is not None:
        flash(
            gettext(
                "This server already has “%(original)s”: the backup was restored as a separate copy, "
                "“%(copy)s”, with links of its own. Both are kept; archive or delete the one you do not need.",
                original=event.copy_of,
                copy=event.name,
            )
        )
    flash(
        gettext(
            "Event restored from the backup. This page is its new director's link: bookmark it and share it "
            "with nobody. Every link of the old server (director, tables' QR codes, team cards) is new here: "
            "print the QR cards again."
        )
    )
    return redirect(url_for("director.control", token=event.director_token), code=303)
