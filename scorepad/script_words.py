"""The words the page's scripts write (issue 15): the outbox bar and its notes, a refused request's
fallback, Whist's other side, the projector's page count.

The scripts (static/js) write each in English, and that English is its key: `tr("Offline since
%(time)s.", {time: ...})` in app.js. A page in another language carries their translations as a data
block, `<script type="application/json" id="script-words">` (templates/base.html): the browser never
runs it, so the Content-Security-Policy (scripts from static/ only) allows it, and nothing is fetched.
An English page carries none: the scripts' own words are the English. Placeholders are `%(name)s`,
as in the catalogues. tests/test_script_words.py checks that this list and the scripts' `tr(...)`
calls name the same messages.
"""

from __future__ import annotations

from flask_babel import get_translations


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for a message marked, not said, here)
    """Mark a message for the catalogues (a keyword of their extraction); it is said by `words`."""
    return text


def ngettext(one: str, other: str) -> tuple[str, str]:
    """Mark a message with a count for the catalogues (extracted as gettext's ngettext: its two
    English forms); said by `words`, not here."""
    return one, other


MESSAGES = (
    # app.js
    N_("The server could not do that (error %(status)s). Nothing was saved: reload the page and try again."),
    N_("%(team)s took %(count)s."),
    # outbox.js
    N_("They are sent by themselves when the connection is back."),
    N_("Offline since %(time)s."),
    N_("Back online: the page is being brought up to date."),
    N_("Back online: your entry %(entry)s was sent and recorded once."),
    N_("Back online: %(count)s entries %(entries)s were sent and recorded once."),  # always 2 or more
    N_("\"%(label)s\" (tapped at %(time)s)"),
    N_("%(entries)s and more"),
    N_("This page is as it was last seen, at %(time)s."),
    N_("This page is as it was last seen, at %(time)s: it is brought up to date when the connection is back."),
    N_("your entry"),
    N_("the server refused it (error %(status)s)"),
    N_("Your entry \"%(label)s\" (tapped at %(time)s) was not applied: %(words)s"),
    N_("Not sent yet: your entry \"%(label)s\" is still waiting to be sent, and this one depends on it. Tap again "
       "once it has gone (it is sent as soon as the connection is back)."),
    N_("Waiting to send: %(label)s (tapped at %(time)s). It is sent by itself when the connection is back."),
    N_("Not sent: this phone is offline, so nothing was saved. What you entered is still here: send it again once "
       "the connection is back."),
    # projector.js
    N_("Page %(page)s of %(pages)s"),
)

# A message whose words follow a count of 1 or more (`tr([one, other], {count: n})` in the scripts).
PLURALS = (
    ngettext("Sending %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
             "Sending %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s)."),
    ngettext("Offline since %(since)s · %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
             "Offline since %(since)s · %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s)."),
)


def words() -> dict[str, str | list[str]]:
    """Each message's English and its translation in the reader's language; a plural's, its two forms
    (for a count of 1, and of 2 or more: the scripts' counts never reach the forms past those)."""
    translations = get_translations()  # their own gettext: Flask-Babel's would fill the placeholders in
    said: dict[str, str | list[str]] = {m: translations.gettext(m) for m in MESSAGES}
    for one, other in PLURALS:
        said[one] = [translations.ngettext(one, other, 1), translations.ngettext(one, other, 2)]
    return said
