"""The translation catalogues (issue 15): extract every message, update the French and Spanish .po
files, compile the .mo files that are committed beside them.

    python -m scorepad.catalogues update    # after changing a message: new ones come in empty
    python -m scorepad.catalogues compile   # after translating: writes the .mo files

tests/test_translations.py uses the same extraction, so a message no catalogue holds fails a test.
Fuzzy matching is off: a changed English message comes in empty, never with an old translation
that no longer says the same thing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent  # the checkout: babel.cfg, templates/, scorepad/
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGUAGES = ("fr", "es")  # English is the source language
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "M": None,
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
}  # M(...): a rule's message (scorepad/rules/errors.py)


def extract() -> Catalog:
    """Every message the templates and the Python code mark, with where each is used."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project="Scorepad", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as po:
        return read_po(po, locale=language)


def update(languages: Iterable[str] = LANGUAGES) -> None:
    """Bring each catalogue in line with the code: new messages empty, gone ones dropped."""
    template = extract()
    for language in languages:
        path = po_path(language)
        if path.exists():
            catalog = read(language)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="Scorepad", fuzzy=False)
            catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False)


def compile_all(languages: Iterable[str] = LANGUAGES) -> None:
    """Write each language's .mo file from its .po file (fuzzy entries left out)."""
    for language in languages:
        with po_path(language).with_suffix(".mo").open("wb") as mo:
            write_mo(mo, read(language))


if __name__ == "__main__":
    commands = {"update": update, "compile": compile_all}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit("usage: python -m scorepad.catalogues update|compile")
    commands[sys.argv[1]]()
