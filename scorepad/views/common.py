"""What every blueprint shares: rule errors keyed by field, links another phone can open, and
whether a request wants a page or only the swapped part."""

from __future__ import annotations

import secrets
from typing import NoReturn
from urllib.parse import urlsplit

from flask import abort, make_response, render_template, request, session
from flask_babel import gettext, lazy_gettext

from scorepad import network
from scorepad.events import lifecycle
from scorepad.extensions import htmx
from scorepad.i18n import say
from scorepad.rules.base import RuleError, RuleErrors


def partial() -> bool:
    """An htmx request swapping part of a page (not a history restore, which needs the whole page)."""
    return bool(htmx) and not htmx.history_restore_request


def errors_by_field(error: RuleError | RuleErrors) -> dict[str, str]:
    """Rule errors keyed by field, in the reader's language, so each message is shown beside its control."""
    found = error.errors if isinstance(error, RuleErrors) else (error,)
    messages: dict[str, str] = {}
    for e in found:
        said = say(e.message)
        text = said[:1].upper() + said[1:]
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


def device() -> str:
    """A short name for this browser, kept in its session: which device did something (a team's
    signature), for the director to read; not proof of anything, as a cleared cookie makes a new one."""
    found = session.get("device")
    if not isinstance(found, str) or len(found) != 8:
        found = session["device"] = secrets.token_hex(4)
    return found


# The event formats' names as a list of events shows them: a format's `title` is its English name
# (what the exports and the command line say), marked here for the catalogues and said through
# gettext; Military Whist stays as players say it.
FORMAT_TITLES = (lazy_gettext("Whist drive"), lazy_gettext("Club night"), lazy_gettext("Bid Whist tournament"))


def format_name(title: str) -> str:
    """An event format's name (its English `title`) in the reader's language."""
    return gettext(title)


def not_found(link: str, description: str) -> NoReturn:
    """The refusal of an event's link that opens nothing: 410 with words saying so when the link was
    an event's its director deleted (`lifecycle.was_deleted`), else 404 with `description`."""
    gone_if_deleted(link)
    abort(404, description=description)


def gone_if_deleted(link: str) -> None:
    """The 410 page "this event was deleted" when `link` was one of an event its director deleted."""
    if lifecycle.was_deleted(link):
        page = render_template(
            "errors/error.html",
            code=410,
            title=gettext("This event was deleted"),
            message=gettext(
                "Its director deleted this event, with everything entered in it: its pages and links are "
                "gone for good. Ask the director if you need its results."
            ),
        )
        abort(make_response(page, 410))


def no_event() -> str:
    """The refusal of an event's link that opens nothing (the director's, the board's): a deleted
    event's links answer so, in words a player holding an old link understands."""
    return gettext(
        "There is no event at this link. Its director may have deleted it (a deleted event's pages and "
        "links are gone for good), or the link is mistyped: check it against its card or ask the director."
    )
