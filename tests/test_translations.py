"""Issue 15: every message a template or the Python code (views, services, the rules' M(...)
messages) marks for translation has a French and a Spanish translation, none fuzzy or empty, with
the same placeholders; no catalogue keeps a message nothing uses; each committed .mo file says what
its .po file says (they are committed so that an install needs no build step: docs/translations.md)."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from scorepad import catalogues

USED = catalogues.extract()


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def problems(used: Catalog, catalog: Catalog) -> list[str]:
    """What is wrong with `catalog` against the messages in use, one line each."""
    found = []
    for message in used:
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        where = ", ".join(sorted({path for path, _line in message.locations}))
        if translated is None:
            found.append(f"missing: {_key(message.id)!r} ({where})")
        elif translated.fuzzy:
            found.append(f"fuzzy: {_key(message.id)!r} ({where})")
        elif not translated.string or (isinstance(translated.string, tuple) and not all(translated.string)):
            found.append(f"empty: {_key(message.id)!r} ({where})")
    for message in catalog:
        if message.id and used.get(message.id, message.context) is None:
            found.append(f"unused: {_key(message.id)!r}")
    for message, errors in catalog.check():
        found += [f"placeholders: {_key(message.id)!r}: {error}" for error in errors]
    return found


def test_something_is_marked() -> None:
    assert len(USED) > 5 and USED.get("Large text") is not None


@pytest.mark.parametrize("language", catalogues.LANGUAGES)
def test_the_catalogue_holds_every_message_in_use(language: str) -> None:
    assert problems(USED, catalogues.read(language)) == []


@pytest.mark.parametrize("language", catalogues.LANGUAGES)
def test_the_compiled_catalogue_is_the_po_file(language: str) -> None:
    def plain(text: str | list[str] | tuple[str, ...]) -> str | tuple[str, ...]:
        return text if isinstance(text, str) else tuple(text)  # a plural's forms: a list once compiled

    source = {plain(m.id): plain(m.string) for m in catalogues.read(language) if m.id and not m.fuzzy}
    with catalogues.po_path(language).with_suffix(".mo").open("rb") as mo:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(mo) if m.id}
    assert compiled == source, "run: python -m scorepad.catalogues compile"


def test_the_check_finds_what_is_wrong() -> None:
    used = Catalog()
    for text in ("Hand", "Bid %(bid)s", "Trump", "Dealer"):
        used.add(text, locations=[("templates/x.html", 1)])
    catalog = Catalog(locale="fr")
    catalog.add("Bid %(bid)s", "Annonce %(annonce)s")
    catalog.add("Trump", "Atout", flags=["fuzzy"])
    catalog.add("Dealer", "")
    catalog.add("Gone", "Parti")
    assert problems(used, catalog) == [
        "missing: 'Hand' (templates/x.html)",
        "fuzzy: 'Trump' (templates/x.html)",
        "empty: 'Dealer' (templates/x.html)",
        "unused: 'Gone'",
        "placeholders: 'Bid %(bid)s': unknown named placeholder 'annonce'",
    ]
