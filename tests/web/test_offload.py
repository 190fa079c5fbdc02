"""Issue 33, item 7: heavy pure work (a game record's check, a backup's, a backup download's encoding,
the result card's drawing) runs off the worker's loop, in a helper process of the worker's own
(scorepad/offload.py), at most SCOREPAD_HEAVY_JOBS at once, the next ones waiting in line with no
database connection held; inline where there is no gevent loop (these tests' client, the dev
server). Its answer, or its refusal, is the same either way. That the loop really serves others
meanwhile under gunicorn is tests/test_serve.py's; what it costs the tables, bench/heavy_neighbours.py."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import kept
from scorepad.events.backup import BackupError
from scorepad.extensions import db
from scorepad.models import Game
from scorepad.offload import EXTENSION, HelperFailed, Offloader
from scorepad.rules.errors import RuleError, RuleErrors
from tests import offload_jobs as jobs
from tests.web.test_backup import (
    beside_upload,
    download,
    military_playoff,
    token_of,
    upload,
)
from tests.web.test_home_import import (
    FAMILY,
    beside_field,
    game_count,
    scorer_token,
    send_file,
)

MODES = {"inline": False, "helper process": True}


@pytest.fixture(params=list(MODES))
def offloader(request: pytest.FixtureRequest) -> Iterator[Offloader]:
    made = Offloader(1, processes=MODES[request.param])
    yield made
    made.close()


def test_a_job_answers_with_its_result(offloader: Offloader) -> None:
    assert offloader.run(jobs.twice, 21) == 42
    assert offloader.run(jobs.twice, 4) == 8  # the same helper, its next job


def test_a_job_raises_its_own_exception_with_its_field_hand_and_words(offloader: Offloader) -> None:
    with pytest.raises(RuleError) as one:
        offloader.run(jobs.refuse, "tricks.2", 7)
    assert (one.value.field, one.value.hand, str(one.value)) == (
        "tricks.2",
        7,
        "hand 7, tricks.2: 14 tricks is too many",
    )
    assert one.value.message.template == "%(count)s tricks is too many"  # still said in the reader's language
    with pytest.raises(RuleErrors) as several:
        offloader.run(jobs.refuse_all)
    assert [str(e) for e in several.value.errors] == ["bids.1: no", "hand 2, tricks: 3"]
    assert offloader.run(jobs.twice, 1) == 2  # a refusal leaves the helper serving


def test_an_exception_that_cannot_come_back_is_said_as_words() -> None:
    offloader = Offloader(1, processes=True)
    try:
        with pytest.raises(RuntimeError, match="could not be sent back"):
            offloader.run(jobs.fail_unpicklably)
        assert offloader.run(jobs.twice, 3) == 6
    finally:
        offloader.close()


def test_a_helper_that_dies_fails_its_job_and_the_next_job_gets_a_new_one() -> None:
    offloader = Offloader(1, processes=True)
    try:
        first = offloader.run(jobs.pid)
        with pytest.raises(HelperFailed):
            offloader.run(jobs.die)
        assert offloader.run(jobs.pid) != first
    finally:
        offloader.close()


@pytest.mark.parametrize("limit", [1, 2])
@pytest.mark.parametrize("mode", list(MODES))
def test_heavy_jobs_never_overlap_beyond_the_limit(mode: str, limit: int) -> None:
    """Six requests at once: at most `limit` jobs run together (each job's own start and end, read
    on the machine's monotonic clock wherever it ran), the others waiting in line for a place."""
    offloader = Offloader(limit, processes=MODES[mode])
    spans: list[tuple[float, float]] = []
    try:
        threads = [threading.Thread(target=lambda: spans.append(offloader.run(jobs.when, 0.5))) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        offloader.close()
    assert len(spans) == 6
    running = most = 0
    for _, change in sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans]):
        running += change  # at the same instant an end counts before a start
        most = max(most, running)
    assert most == limit


# --------------------------------------------------------------------------- the app's heavy requests


@pytest.fixture
def helper(app: Flask) -> Iterator[Offloader]:
    """The app's heavy jobs in a helper process, as under gunicorn."""
    made = Offloader(1, processes=True)
    app.extensions[EXTENSION] = made
    yield made
    made.close()


def test_an_import_checked_in_a_helper_process_answers_as_inline(
    client: FlaskClient, app: Flask, helper: Offloader
) -> None:
    token = scorer_token(send_file(client, json.dumps(FAMILY).encode()))
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Sunday at Gran" in page and game_count(app) == 1
    bad = {**FAMILY, "hands": [*FAMILY["hands"][:2], {"bids": [1, 0, 1, 2], "tricks": [9, 9, 9, 9]}]}
    refused = send_file(client, json.dumps(bad).encode())
    helper_words = beside_field(refused)
    app.extensions[EXTENSION] = Offloader(1, processes=False)
    inline = send_file(client, json.dumps(bad).encode())
    assert refused.status_code == inline.status_code == 422
    assert helper_words == beside_field(inline) and "hand 3" in " ".join(helper_words)
    assert send_file(client, b"{not json").status_code == 422 and game_count(app) == 1


def test_a_restore_checked_in_a_helper_process_answers_as_inline(
    client: FlaskClient, app: Flask, helper: Offloader
) -> None:
    data = download(client, military_playoff(client, app))
    assert client.get(f"/d/{token_of(upload(client, data))}").status_code == 200
    bad = json.loads(data)
    bad["results"][0]["tricks"] = 14
    refused = upload(client, json.dumps(bad).encode())
    app.extensions[EXTENSION] = Offloader(1, processes=False)
    inline = upload(client, json.dumps(bad).encode())
    assert refused.status_code == inline.status_code == 422
    assert beside_upload(refused) == beside_upload(inline) and "results #1" in beside_upload(refused)


def test_off_the_loop_a_restore_is_derived_by_its_format_in_the_helper_alone(
    client: FlaskClient, app: Flask, helper: Offloader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The format's check of the rows (seconds for a big event, and inside the write transaction)
    runs in the helper's scratch database; the worker writes the rows and derives nothing. What that
    check refuses is refused with the same words as inline, and nothing is stored."""
    from scorepad.events import backup
    from tests.web.test_backup import tournament_bracket
    from tests.web.test_columns import dump

    data = download(client, tournament_bracket(client, app))
    bad = json.loads(data)
    bad["event"]["options"]["seed"] = "s2"  # a round not as its seed draws it: only the format's check sees it
    checked: list[int] = []
    real = backup._derive
    monkeypatch.setattr(backup, "_derive", lambda event: (checked.append(event.id), real(event))[1])
    assert client.get(f"/d/{token_of(upload(client, data))}").status_code == 200
    before = dump(app)
    refused = upload(client, json.dumps(bad).encode())
    assert refused.status_code == 422 and dump(app) == before
    assert checked == []  # derived in the helper, not on the worker
    app.extensions[EXTENSION] = Offloader(1, processes=False)
    inline = upload(client, json.dumps(bad).encode())
    assert inline.status_code == 422 and len(checked) == 1
    assert beside_upload(refused) == beside_upload(inline) and "round 1's matches are not the draw" in beside_upload(
        refused
    )


def test_a_backup_download_and_a_result_card_drawn_in_a_helper_process_are_as_inline(
    client: FlaskClient, app: Flask, helper: Offloader
) -> None:
    token = military_playoff(client, app)
    watch = public_id(app, scorer_token(send_file(client, json.dumps(FAMILY).encode())))
    drawn = client.get(f"/w/{watch}/result.png")
    assert drawn.status_code == 200 and drawn.get_data().startswith(b"\x89PNG")
    off_loop = json.loads(download(client, token))
    app.extensions[EXTENSION] = Offloader(1, processes=False)
    assert {**off_loop, "exported_at": ""} == {**json.loads(download(client, token)), "exported_at": ""}
    assert client.get(f"/w/{watch}/result.png").get_data() == drawn.get_data()


def public_id(app: Flask, scorer: str) -> str:
    with app.app_context():
        game = db.session.scalars(db.select(Game).where(Game.scorer_token == scorer)).one()
        return game.public_id


class Watching(Offloader):
    """Inline, noting how many database connections the request held when its job started."""

    def __init__(self) -> None:
        super().__init__(1, processes=False)
        self.held: list[int] = []

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.held.append(db.engine.pool.checkedout())  # type: ignore[attr-defined]
        return super().run(fn, *args)


@pytest.mark.postgresql
def test_a_request_waiting_for_its_heavy_job_holds_no_database_connection(client: FlaskClient, app: Flask) -> None:
    """Each heavy request offloads before its first query or ends its session first: one waiting in
    line (a fifth importer) holds no pooled connection, let alone SQLite's write lock."""
    token = military_playoff(client, app)
    data = download(client, token)
    watch = public_id(app, scorer_token(send_file(client, json.dumps(FAMILY).encode())))
    watching = Watching()
    app.extensions[EXTENSION] = watching
    assert send_file(client, json.dumps(FAMILY).encode()).status_code == 303
    assert send_file(client, b"[1, 2").status_code == 422
    assert upload(client, data).status_code == 303
    assert upload(client, data, pin="12").status_code == 422
    assert client.get(f"/d/{token}/backup").status_code == 200
    assert client.get(f"/w/{watch}/result.png").status_code == 200
    assert watching.held == [0, 0, 0, 0, 0], watching.held  # the bad PIN is refused before any job


def test_a_backup_error_comes_back_from_the_helper_with_all_its_problems(offloader: Offloader) -> None:
    with pytest.raises(BackupError) as refused:
        offloader.run(jobs.refuse_backup)
    with pytest.raises(BackupError) as inline:
        jobs.refuse_backup()
    assert (refused.value.problems, refused.value.too_large, refused.value.field, str(refused.value)) == (
        inline.value.problems,
        False,
        "backup",
        str(inline.value),
    )
    assert len(refused.value.problems) == 21 and refused.value.problems[-1].startswith("... and ")


def without_csrf(html: str) -> str:
    """The page without its CSRF token, which is signed with the second it was made."""
    return re.sub(r'(name="csrf[_-]token" (?:value|content))="[^"]*"', r"\1", html)


def test_the_home_page_lists_an_imported_game_from_its_check_without_replaying_it(
    client: FlaskClient, app: Flask, helper: Offloader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import's check (off the loop) outlines the game; the home page, which lists it next,
    shows that outline instead of replaying the game on the loop, exactly as derived."""
    app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False  # counts work: the fresh derivations of the check are not
    from scorepad.games import derived

    finished = {**FAMILY, "title": "All of it"}
    under_way = {**FAMILY, "title": "Half of it", "hands": FAMILY["hands"][:5]}
    for record in (finished, under_way):
        scorer_token(send_file(client, json.dumps(record).encode()))
    kept.drop(app, "game derivations")

    def no_replay(game: Any) -> Any:
        raise AssertionError(f"the home page replayed {game.title!r}")

    with monkeypatch.context() as patched:
        patched.setattr(derived, "derived", no_replay)
        outlined = without_csrf(client.get("/").get_data(as_text=True))
    kept.drop(app, "game outlines")  # as after a restart: derived again
    assert without_csrf(client.get("/").get_data(as_text=True)) == outlined
    assert "Half of it" in outlined.split('id="progress-h"', 1)[1].split("</section>", 1)[0]
    assert "All of it" in outlined.split('id="recent-h"', 1)[1].split("</section>", 1)[0]


def test_a_restore_keeps_nothing_it_derived_to_check_the_rows(client: FlaskClient, app: Flask) -> None:
    """What a restore derives to check its rows is dropped after the commit, the rules' kept replays
    of those very hands too: restores in a loop must not grow the worker's heap, whose every full
    garbage-collector pass walks all of it (bench/heavy_neighbours.py: passes of 1-2 s)."""
    app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False  # counts work: the fresh derivations of the check are not
    from scorepad.rules.base import _KEPT_DERIVATIONS

    data = download(client, military_playoff(client, app))
    before = sum(len(kept) for kept in _KEPT_DERIVATIONS)
    assert upload(client, data).status_code == 303
    assert sum(len(kept) for kept in _KEPT_DERIVATIONS) == before
