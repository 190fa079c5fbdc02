"""Languages (issue 15): English, French and Spanish through Flask-Babel.

A browser's language is the `lang` cookie, set by the header's switch (views/settings.py), else the
best match of its Accept-Language among ours, else English. What is drawn outside a request is in
English, unless drawn `speaking` a language (a home game's live push, once per language watching). The catalogues live in `scorepad/translations/` (inside the
package, so an installed wheel carries them); their compiled .mo files are committed beside the .po
files, so `pip install` and `scorepad run` need no build step (docs/translations.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import flask_babel
from babel.lists import format_list
from babel.support import NullTranslations
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale

from scorepad import script_words
from scorepad.rules.errors import Message

LANGUAGES = ("en", "fr", "es")
DEFAULT = "en"
NAMES = {"en": "English", "fr": "Français", "es": "Español"}  # each in its own language
COOKIE = "lang"  # the cookie's name; the header's switch sets it

babel = Babel()


def chosen() -> str:
    """This request's language: the switch's cookie, else the browser's best match, else English."""
    if not has_request_context():
        return DEFAULT
    cookie = request.cookies.get(COOKIE, "")
    if cookie in LANGUAGES:
        return cookie
    # By the browser's order of preference, a region ignored: "en-GB, fr;q=0.5" is English (Werkzeug's
    # best_match would take the exact "fr" over the "en-GB" it cannot match exactly).
    for tag, _quality in request.accept_languages:
        language = tag.split("-")[0].split("_")[0].lower()
        if language in LANGUAGES:
            return language
    return DEFAULT


def current() -> str:
    """The language pages are being drawn in now (its two-letter code)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Draw in `language` meanwhile, whatever the request (if any) asked: a live push, drawn once per
    language of the pages watching (an unknown code is English)."""
    with flask_babel.force_locale(language if language in LANGUAGES else DEFAULT):
        yield


_UNTRANSLATED = NullTranslations()  # one object: the key of what `say` remembers outside an app


def catalogue() -> NullTranslations:
    """Flask-Babel's catalogue for the language being drawn in, looked up once per request and
    language (`speaking` changes the language mid-request). Flask-Babel finds it anew on each
    gettext, through three lookups of its state on `g` and the locale's name: a tap says 20
    words or so, and that was 6 % of its CPU (profiled)."""
    try:
        state = g.get("_flask_babel")
    except RuntimeError:  # no app context: the untranslated words, as Flask-Babel says them then
        return _UNTRANSLATED
    if state is not None:
        kept = getattr(state, "scorepad_catalogue", None)
        if kept is not None and kept[0] is getattr(state, "babel_locale", None):
            return kept[1]
    found = flask_babel.get_translations()
    state = g.get("_flask_babel")
    locale = getattr(state, "babel_locale", None)
    if state is not None and locale is not None:
        state.scorepad_catalogue = (locale, found)
    return found


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's `gettext`, with the catalogue found by `catalogue`."""
    said = catalogue().ugettext(string)
    return said % variables if variables else said


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's `ngettext` (`num` is among the variables), with the catalogue found by `catalogue`."""
    variables.setdefault("num", num)
    return catalogue().ungettext(singular, plural, num) % variables


def say(text: object) -> str:
    """Words from the rules or the services in the reader's language: a `Message` (rules/errors.py)
    by its template's translation, its params said in turn; any other text as it is."""
    if not isinstance(text, Message):
        return "" if text is None else str(text)
    return _said(catalogue(), _frozen(text))


def listed(words: Iterable[object]) -> str:
    """Words listed as the reader's language lists them, each said in turn: "Whist and Nomination
    Whist", "Whist et Nomination Whist", "Whist, Nomination Whist y Bid Whist" (Babel's patterns)."""
    return format_list([say(word) for word in words], locale=get_locale() or DEFAULT)


_Frozen = tuple[str, tuple[tuple[str, "_Frozen | str"], ...]]


def _frozen(message: Message) -> _Frozen:
    """A message as a key: its template and its params, each a message in turn or the text it says."""
    return message.template, tuple(
        (key, _frozen(value) if isinstance(value, Message) else str(value)) for key, value in message.params.items()
    )


@lru_cache(maxsize=16384)
def _said(language: NullTranslations, message: _Frozen) -> str:
    """A message said in the language being drawn in (its catalogue, `language`), remembered: a
    score sheet says the same few words ("bid 2 · took 2") in every row, and each saying is a
    catalogue lookup. The catalogue, not the locale's name, is the key: a sheet at hand 25 says 140
    words and 100 numbers, and naming the locale each time was a tenth of the page (profiled)."""
    template, params = message
    if not params:
        return language.ugettext(template)
    said = language.ugettext(template)
    return said % {key: _said(language, value) if isinstance(value, tuple) else value for key, value in params}


def format_number(number: int | float) -> str:
    """Flask-Babel's format_number, remembered per language and number: a score sheet shows a hundred
    numbers, each formatted by Babel's pattern machinery (a fifth of the page's time at hand 25)."""
    return _formatted(catalogue(), number) if isinstance(number, int) else flask_babel.format_number(number)


@lru_cache(maxsize=8192)
def _formatted(_language: NullTranslations, number: int) -> str:
    return flask_babel.format_number(number)  # in the locale being drawn in, whose catalogue `_language` is


def _template_values() -> dict[str, Any]:
    return {"language": current(), "languages": [(code, NAMES[code]) for code in LANGUAGES]}


def init_app(app: Flask) -> None:
    """Attach Flask-Babel (its gettext, format_number, format_date in every template)."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")  # beside this module
    babel.init_app(app, locale_selector=chosen)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # as Flask-Babel's, with the catalogue found once (`catalogue`)
        gettext=lambda s: catalogue().ugettext(s),
        ngettext=lambda s, p, n: catalogue().ungettext(s, p, n),
        pgettext=lambda c, s: catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: catalogue().unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts {% trans %} blocks
    app.jinja_env.filters["say"] = say  # {{ spec.label|say }}: an option's label, a rule's words
    app.jinja_env.filters["listed"] = listed  # {{ names|listed }}: "Whist and Nomination Whist"
    app.jinja_env.globals["script_words"] = script_words.words  # what the scripts write, for base.html
    for name in ("format_decimal", "format_date", "format_datetime", "format_time"):
        app.jinja_env.globals[name] = getattr(flask_babel, name)  # numbers and dates in the reader's form
    app.jinja_env.globals["format_number"] = format_number
    app.context_processor(_template_values)
