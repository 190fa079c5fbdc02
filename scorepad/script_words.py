"""The words the page's scripts write (issue 15): the outbox bar and its notes, a refused request's
fallback, Whist's other side, the projector's page count.

The scripts (static/js) write each by a short key, with its English: `tr("offline-since", "Offline
since %(time)s.", {time: ...})` (app.js). A page in another language carries their translations by
key as a data block, `<script type="application/json" id="script-words">` (templates/base.html): the
browser never runs it, so the Content-Security-Policy (scripts from static/ only) allows it, and
nothing is fetched. Keys, not the English, so a French page holds no English sentence. An English
page carries none: the scripts say their own English. Placeholders are `%(name)s`, as in the
catalogues. tests/test_script_words.py checks that this list and the scripts' `tr(...)` calls name
the same keys with the same English.
"""

from __future__ import annotations

from flask_babel import get_translations


def N_(text: str) -> str:
    """Mark a message for the catalogues (a keyword of their extraction); it is said by `words`."""
    return text


def ngettext(one: str, other: str) -> tuple[str, str]:
    """Mark a message with a count for the catalogues (extracted as gettext's ngettext: its two
    English forms); said by `words`, not here."""
    return one, other


MESSAGES = {
    # app.js
    "server-error": N_(
        "The server could not do that (error %(status)s). Nothing was saved: reload the page and try again."
    ),
    "other-side": N_("%(team)s took %(count)s."),
    # outbox.js
    "sent-by-themselves": N_("They are sent by themselves when the connection is back."),
    "offline-since": N_("Offline since %(time)s."),
    "back-online-updating": N_("Back online: the page is being brought up to date."),
    "back-online-one": N_("Back online: your entry %(entry)s was sent and recorded once."),
    "back-online-many": N_("Back online: %(count)s entries %(entries)s were sent and recorded once."),  # 2 or more
    "not-recorded-yet": N_(
        'Back online: your entry "%(label)s" (tapped at %(time)s) was sent, but it is not recorded yet: '
        "check it below and confirm it."
    ),
    "nothing-recorded": N_(
        'Back online: your entry "%(label)s" (tapped at %(time)s) was sent, but nothing was recorded: tap it again.'
    ),
    "entry-tapped": N_('"%(label)s" (tapped at %(time)s)'),
    "and-more": N_("%(entries)s and more"),
    "copy-seen": N_("This page is as it was last seen, at %(time)s."),
    "copy-seen-until-back": N_(
        "This page is as it was last seen, at %(time)s: it is brought up to date when the connection is back."
    ),
    "your-entry": N_("your entry"),
    "refused": N_("the server refused it (error %(status)s)"),
    "not-applied": N_('Your entry "%(label)s" (tapped at %(time)s) was not applied: %(words)s'),
    "changed-since": N_('Your entry "%(label)s" (tapped at %(time)s): %(words)s'),
    "not-sent-yet": N_(
        'Not sent yet: your entry "%(label)s" is still waiting to be sent, and this one depends on '
        "it. Tap again once it has gone (it is sent as soon as the connection is back)."
    ),
    "waiting": N_("Waiting to send: %(label)s (tapped at %(time)s). It is sent by itself when the connection is back."),
    "waiting-mark": N_("waiting"),  # beside a bid or tricks kept on the phone
    "next-hand-after": N_("The next hand can be entered once this one has been sent."),
    "take-back-waiting": N_("Take back the last tap still waiting"),
    "hand-refused": N_('Not applied: your entry "%(label)s" (tapped at %(time)s): %(words)s'),
    "drop-held": N_("Drop these taps and go on from the hand as recorded"),
    "drop-refused": N_("Go on from the hand as recorded"),
    "drop-confirm": N_("Drop the taps kept on this phone? They were not recorded."),
    "undo-waiting": N_("Undo the last tap still waiting: %(label)s"),  # Undo while taps wait on the phone
    "taken-back": N_('Taken back: "%(label)s", which had not been sent.'),
    "redo-off": N_("Redo comes back once the taps waiting on this phone have been sent."),
    "not-sent-offline": N_(
        "Not sent: this phone is offline, so nothing was saved. What you entered is still here: "
        "send it again once the connection is back."
    ),
    # projector.js
    "page-of": N_("Page %(page)s of %(pages)s"),
}

# A message whose words follow a count of 1 or more (`tr(key, [one, other], {count: n})` in the scripts).
PLURALS = {
    "sending": ngettext(
        "Sending %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
        "Sending %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s).",
    ),
    "offline-waiting": ngettext(
        "Offline since %(since)s · %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
        "Offline since %(since)s · %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s).",
    ),
    "hand-kept": ngettext(  # a hand the phone goes on with, offline
        "Waiting to send: %(labels)s (tapped at %(time)s). It is sent by itself when the connection is back: "
        "go on with the hand.",
        "Waiting to send, in order: %(labels)s (the first tapped at %(time)s). They are sent by themselves when "
        "the connection is back: go on with the hand.",
    ),
    "held-taps": ngettext(
        "It is followed by %(count)s tap kept on this phone and not sent, as it depends on it: %(labels)s.",
        "It is followed by %(count)s taps kept on this phone and not sent, as they depend on it: %(labels)s.",
    ),
}


def words() -> dict[str, str | list[str]]:
    """Each message's key and its translation in the reader's language; a plural's, its two forms
    (for a count of 1, and of 2 or more: the scripts' counts never reach the forms past those)."""
    translations = get_translations()  # their own gettext: Flask-Babel's would fill the placeholders in
    said: dict[str, str | list[str]] = {key: translations.gettext(m) for key, m in MESSAGES.items()}
    for key, (one, other) in PLURALS.items():
        said[key] = [translations.ngettext(one, other, 1), translations.ngettext(one, other, 2)]
    return said
