"""Issue 15: importing a game record from the home page, a file or pasted. It is read and checked by
the code of `scorepad score` (the same messages), every limit is checked before the record is
parsed, a refusal is a 4xx with its message beside the field, and the game opens on its scorer's
page, listed as this browser's own, to be continued when it is not over."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app
from scorepad.commands import score_command
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Game
from scorepad.rules.record import RECORD_MAX_BYTES
from tests.conftest import EXAMPLES, config_for, migrate, release
from tests.web.test_games import hands_of, post

FAMILY = json.loads((EXAMPLES / "nomination-family-four.json").read_text())


BOUNDARY = "----scorepad-test-boundary"


def multipart(file: tuple[str, bytes] | None = None, text: str = "") -> bytes:
    """The body a browser sends (built here: Werkzeug's test client spools a large one to a temporary
    file it never closes, which the warnings-as-errors setting turns into a failure)."""
    parts = []
    if file is not None:
        parts.append(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="{file[0]}"\r\n'
            f"Content-Type: application/json\r\n\r\n".encode()
            + file[1]
            + b"\r\n"
        )
    parts.append(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="text"\r\n\r\n'.encode() + text.encode() + b"\r\n"
    )
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def send(client: FlaskClient, body: bytes, **headers: str) -> Any:
    return client.post(
        "/games/import", data=body, content_type=f"multipart/form-data; boundary={BOUNDARY}", headers=headers
    )


def send_file(client: FlaskClient, data: bytes, name: str = "game.json", **headers: str) -> Any:
    return send(client, multipart((name, data)), **headers)


def paste(client: FlaskClient, text: str) -> Any:
    return send(client, multipart(text=text))


def scorer_token(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    found = re.fullmatch(r"/g/([\w-]+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def beside_field(response: Any) -> list[str]:
    """The message beside the import field, then each problem listed under it."""
    page = response.get_data(as_text=True)
    found = re.search(r'<div class="field-error" id="err-record" role="alert">(.*?)</div>', page, re.S)
    assert found, page[:3000]
    return [html.unescape(t).strip() for t in re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", found.group(1), re.S)]


def game_count(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(Game)).all())


def cli_lines(tmp_path: Path, content: bytes) -> list[str]:
    """What `scorepad score` says of the same file, without its "<file>: " prefix."""
    path = tmp_path / "record.json"
    path.write_bytes(content)
    result = CliRunner().invoke(score_command, [str(path)])
    assert result.exit_code == 2, result.output
    return [line.removeprefix(f"{path}: ") for line in result.output.splitlines()]


def test_the_home_page_offers_the_import_with_its_token_and_limit(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/games/import"[^>]*>(.*?)</form>', page, re.S)
    assert form, page
    assert 'enctype="multipart/form-data"' in page
    assert 'name="csrf_token"' in form.group(1)
    assert '<label for="record-file">' in form.group(1) and '<label for="record-text">' in form.group(1)
    assert "at most 2 MB" in page
    alone = client.get("/games/import")  # the form alone, as a refused record shows it again
    assert alone.status_code == 200 and '<h1 id="import-h">Import a game record</h1>' in alone.get_data(as_text=True)


def test_a_good_record_file_opens_on_its_scorer_page_as_this_browsers_game(app: Flask, client: FlaskClient) -> None:
    token = scorer_token(send_file(client, (EXAMPLES / "nomination-family-four.json").read_bytes()))
    assert hands_of(app, token) == FAMILY["hands"]
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None and game.title == FAMILY["title"] and game.players == FAMILY["players"]
        assert games.record_of(game)["hands"] == FAMILY["hands"]
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Sunday at Gran" in page
    with client.session_transaction() as session:
        assert session["my_games"][0] == token  # remembered like a new game
    home = client.get("/").get_data(as_text=True)
    assert f'href="/g/{token}"' in home  # listed as this browser's, with its scorer's link
    assert client.get("/").headers["Cache-Control"] == "no-store"


def test_a_pasted_record_is_imported_too(app: Flask, client: FlaskClient) -> None:
    token = scorer_token(paste(client, json.dumps(FAMILY)))
    assert hands_of(app, token) == FAMILY["hands"]


def test_an_unfinished_game_is_continued_where_the_record_stops(app: Flask, client: FlaskClient) -> None:
    record = {**FAMILY, "hands": FAMILY["hands"][:3]}
    token = scorer_token(paste(client, json.dumps(record)))
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Hand 4 of" in page
    assert post(client, token, action="trump", trump="C")[0] == 200
    for bid in (1, 1, 0, 1):  # Dan deals hand 4: Ann bids first
        assert post(client, token, action="bid", bid=str(bid))[0] == 200
    status, page = post(
        client,
        token,
        action="result",
        number="4",
        **{"tricks.0": "2", "tricks.1": "1", "tricks.2": "0", "tricks.3": "1"},
    )
    assert status == 200 and "Hand 4 saved." in page
    assert hands_of(app, token) == FAMILY["hands"][:4]


def test_bad_json_is_a_422_beside_the_field_with_the_pasted_text_kept(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    response = paste(client, '{"variant": "whist",\n  "players": [}')
    assert response.status_code == 422
    lines = beside_field(response)
    assert lines[0] == "This record cannot be imported; nothing was saved:"
    assert lines[1:] == cli_lines(tmp_path, b'{"variant": "whist",\n  "players": [}')
    assert lines[1].startswith("not valid JSON (line 2, column")
    page = response.get_data(as_text=True)
    assert "{&#34;variant&#34;: &#34;whist&#34;,\n  &#34;players&#34;: [}</textarea>" in page  # kept, to be corrected
    assert 'aria-describedby="record-hint err-record" aria-invalid="true"' in page
    assert game_count(app) == 0
    for content in (b"\xff\xfe{}", b"[" * 100_000):  # not UTF-8; nested too deeply: as the command says
        response = send_file(client, content)
        assert response.status_code == 422
        assert beside_field(response)[1:] == cli_lines(tmp_path, content)


def test_a_nul_pasted_is_said_beside_the_box_not_on_the_apps_400_page(app: Flask, client: FlaskClient) -> None:
    text = json.dumps(FAMILY).replace('"players"', '"pla\x00yers"', 1)  # a NUL itself, pasted
    assert "\x00" in text
    response = paste(client, text)
    assert response.status_code == 422
    assert beside_field(response) == [
        "The pasted record holds a NUL character (\\0, shown as \ufffd below), which "
        "no game record takes: remove it and import again. Nothing was saved."
    ]
    page = response.get_data(as_text=True)
    assert "\x00" not in page and "\ufffd" in page.split("<textarea", 1)[1]  # kept to be corrected, the NUL marked
    assert 'aria-invalid="true"' in page
    assert game_count(app) == 0
    # any other address still gets the app's own refusal
    assert client.post("/new/whist", data={"name.0": "A\x00n"}).status_code == 400


@pytest.mark.parametrize("where, path", [("title", "title"), ("players", "players.1"), ("key", "options.ho\\x00ok")])
def test_a_nul_written_as_u0000_in_a_record_is_refused_as_the_command_refuses_it(
    app: Flask, client: FlaskClient, tmp_path: Path, where: str, path: str
) -> None:
    record = dict(FAMILY)
    if where == "title":
        record["title"] = "Sunday\x00"
    elif where == "players":
        record["players"] = ["Ann", "B\x00b", *FAMILY["players"][2:]]
    else:
        record["options"] = {"ho\x00ok": "every"}
    content = json.dumps(record).encode()  # JSON writes the character as \u0000
    assert b"\\u0000" in content
    for response in (send_file(client, content), paste(client, content.decode())):
        assert response.status_code == 422
        lines = beside_field(response)
        assert lines[1:] == cli_lines(tmp_path, content)
        assert lines[1] == (
            f"not a usable game record: {path} holds a NUL character (\\u0000), which no name or field takes"
        )
    assert game_count(app) == 0


def test_a_rule_error_is_shown_with_the_commands_message(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    record = json.loads(json.dumps(FAMILY))
    record["hands"][1]["tricks"] = [1, 1, 1, 1]  # hand 2 has 2 cards
    record["options"] = {"hook": "sometimes"}
    content = json.dumps(record).encode()
    response = send_file(client, content)
    assert response.status_code == 422
    lines = beside_field(response)
    assert lines[1:] == cli_lines(tmp_path, content)
    assert any(line.startswith("options.hook: ") for line in lines)
    assert game_count(app) == 0
    record["options"] = {}
    response = send_file(client, json.dumps(record).encode())
    assert response.status_code == 422
    assert [line for line in beside_field(response) if line.startswith("hand 2, tricks: ")]
    assert game_count(app) == 0


def test_many_problems_are_listed_twenty_at_a_time(client: FlaskClient) -> None:
    record = {**FAMILY, "hands": [{"trump": "H", "bids": [0, 0, 0, 0], "tricks": [5, 5, 5, 5]}] * 1, "x": 1}
    record.update({f"unknown{i}": i for i in range(30)})
    lines = beside_field(send_file(client, json.dumps(record).encode()))
    assert len(lines) == 1 + 20 + 1 and lines[-1] == "... and 11 more problems"


def test_a_record_past_the_limit_is_refused_before_it_is_parsed(app: Flask, client: FlaskClient) -> None:
    # valid JSON, and a title far too long: the size is what is said, so the record was never read
    big = json.dumps({**FAMILY, "title": "x" * RECORD_MAX_BYTES}).encode()
    response = send_file(client, big)
    assert response.status_code == 413
    assert beside_field(response)[1:] == [f"too large for a game record ({len(big) // 1024} KB; at most 2048 KB)"]
    response = paste(client, big.decode())
    assert response.status_code == 413
    assert beside_field(response)[1].startswith("too large for a game record")
    assert "x" * 1000 not in response.get_data(as_text=True)  # a record past the limit is not sent back
    # a request far past it is refused by its length, before the form is read, on the same page
    response = send_file(client, b" " * (3 * RECORD_MAX_BYTES))
    assert response.status_code == 413
    assert beside_field(response)[1].startswith("too large for a file of games (6")  # the request limit: a list's
    assert game_count(app) == 0
    # just under the limit, the record is read (and here refused for its title, by the rules)
    fits = json.dumps({**FAMILY, "title": "x" * (RECORD_MAX_BYTES - 2000)}).encode()
    assert len(fits) <= RECORD_MAX_BYTES
    response = send_file(client, fits)
    assert response.status_code == 422 and "title: the title is longer than 120 characters" in beside_field(response)


def test_no_record_or_both_is_a_422(client: FlaskClient) -> None:
    response = paste(client, "  ")
    assert response.status_code == 422
    assert beside_field(response) == ["Choose a game record file (.json), or paste a record in the box."]
    response = send(client, multipart(("a.json", b"{}"), "{}"))
    assert response.status_code == 422 and beside_field(response)[0].startswith("Choose a file or paste a record")


def test_a_military_record_opens_as_a_record_to_read(client: FlaskClient) -> None:
    token = scorer_token(send_file(client, (EXAMPLES / "military-club-day.json").read_bytes()))
    assert client.get(f"/g/{token}").status_code == 200


def test_the_import_needs_its_csrf_token(tmp_path: Path) -> None:
    guarded = create_app(config_for(f"sqlite:///{tmp_path / 'csrf.sqlite3'}", WTF_CSRF_ENABLED=True))
    migrate(guarded)
    response = send_file(guarded.test_client(), json.dumps(FAMILY).encode())
    assert response.status_code == 400 and "This form has expired" in response.get_data(as_text=True)
    with guarded.app_context():
        assert db.session.scalars(db.select(Game)).first() is None
    release(guarded)


def test_the_same_upload_sent_twice_with_its_key_makes_one_game(app: Flask, client: FlaskClient) -> None:
    """The app's Idempotency-Key (sent by htmx requests, and by any client that retries) covers the
    upload: its file is part of the request's fingerprint."""
    content = (EXAMPLES / "nomination-family-four.json").read_bytes()
    first = send_file(client, content, **{"Idempotency-Key": "import-key-0001"})
    again = send_file(client, content, **{"Idempotency-Key": "import-key-0001"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert scorer_token(again) == scorer_token(first)
    assert game_count(app) == 1
    other = send_file(client, content.replace(b"Gran", b"Nan"), **{"Idempotency-Key": "import-key-0001"})
    assert other.status_code == 422 and game_count(app) == 1  # the same key for another file: refused


@pytest.mark.parametrize("name", ["game.json", "game.txt", ""])
def test_the_file_name_does_not_matter_only_its_content(client: FlaskClient, name: str) -> None:
    response = send_file(client, json.dumps(FAMILY).encode(), name=name)
    if name:
        scorer_token(response)
    else:  # a file input left empty sends no name: nothing was chosen
        assert response.status_code == 422
