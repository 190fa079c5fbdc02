"""Issue 15: a group's pages in French and Spanish: the season's table, the records (with dates in
the reader's language), a player's figures (the rules' facts said through `M`), head to head, the
refusals beside their fields and the notices. The same pages in English are tests/web/test_group_stats.py."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_games import start
from tests.web.test_group_stats import family, figures, flat  # noqa: F401 (family is a fixture)
from tests.web.test_groups import beside, in_group, make_group, people, text


def _nbsp(page: str) -> str:
    return page.replace("\u00a0", " ")


def test_the_group_page_in_french(client: FlaskClient, family: dict[str, object]) -> None:
    client.set_cookie("lang", "fr")
    page = _nbsp(text(client.get(f"/group/{family['token']}?season=all")))
    assert page.startswith('<!doctype html>\n<html lang="fr"')
    said = flat(page)
    for words in (
        "Le classement de la saison",
        "Nouvelle partie dans ce groupe",
        "Depuis le début",
        "4 parties finies.",
        "Meilleur score en Nomination Whist : 134 , Bob , 3 avr. 2026",
        "Plus de parties de Nomination Whist gagnées d’affilée : 2 , Bob , 3 mai 2026",
        "Meilleur score en Whist : 14 , Ann et Dan , 10 mai 2026",
        "Partager ce groupe",
        "Face à face",
    ):
        assert words in said, words
    assert "2 sur 4" in said and "The season" not in said and "Records" in said  # the French word is the same
    assert re.search(r'<td class="num">\d+\u00a0%</td>', text(client.get(f"/group/{family['token']}?season=all")))


def test_a_players_figures_in_spanish(client: FlaskClient, family: dict[str, object]) -> None:
    client.set_cookie("lang", "es")
    ann = family["ids"]["Ann"]  # type: ignore[index]
    page = text(client.get(f"/group/{family['token']}/player/{ann}"))
    assert "4 partidas terminadas en este grupo, desde el principio." in page
    shown = figures(page)
    assert shown["Whist"]["Bazas de más por mano"] == "1,17 (14 en 12 manos)"
    # percentages in the Spanish form, as in French (a no-break space before the sign, made plain here)
    assert shown["Australian Whist"]["Rondas de misère sin ninguna baza"] == "1 de 1 (100 %)"
    assert shown["Nomination Whist"]["Apuestas exactas"] == "13 de 19 (68 %)"
    assert "Partidas" in shown["Nomination Whist"] and "Exact bids" not in page
    assert shown["Whist"]["Torneos de whist ganados"] == "1 de 1 (100 %)"  # Whist's own units (issue 31)
    summary = flat(re.search(r'id="chart-nomination-sum">(.*?)</p>', page, re.S).group(1))  # type: ignore[union-attr]
    assert summary == "2 partidas del 3 abr 2026 al 3 may 2026: puntuaciones de 32 a 130; ninguna ganada."


def test_head_to_head_and_its_refusal_in_french(client: FlaskClient, family: dict[str, object]) -> None:
    client.set_cookie("lang", "fr")
    ids, token = family["ids"], family["token"]
    page = _nbsp(text(client.get(f"/group/{token}/versus?a={ids['Ann']}&b={ids['Bob']}")))  # type: ignore[index]
    assert "Ann contre Bob" in page and "parties finies dans des camps opposés" in page
    response = client.get(f"/group/{token}/versus?a={ids['Ann']}&b={ids['Ann']}")  # type: ignore[index]
    assert response.status_code == 422
    assert "Choisissez quelqu’un d’autre que Ann pour comparer." in text(response)


def test_a_name_refused_and_a_rename_said_in_french(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    start(client, form=in_group(token))
    gran = people(app, token)["Gran"]
    client.set_cookie("lang", "fr")
    response = client.post(f"/group/{token}/players/{gran}/name", data={"name": "ann"})
    assert response.status_code == 422
    assert _nbsp(beside(text(response), f"players-{gran}")) == (
        "« Ann » est déjà un joueur de ce groupe. Pour n’en faire qu’une personne, fusionnez-les."
    )
    response = client.post(f"/group/{token}/players/{gran}/name", data={"name": ""})
    assert beside(text(response), f"players-{gran}") == "Le joueur a besoin d’un nom."
    page = text(client.post(f"/group/{token}/players/{gran}/name", data={"name": "Granny"}, follow_redirects=True))
    assert "Gran s’appelle maintenant Granny dans toutes les parties du groupe." in page
    client.set_cookie("lang", "en")
    response = client.post(f"/group/{token}/players/{gran}/name", data={"name": ""})
    assert beside(text(response), f"players-{gran}") == "The player needs a name."  # the rules' English as before
