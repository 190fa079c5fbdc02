"""The in-process broker: fan-out per channel, SSE wire format, slow listeners never block."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scorepad import live
from scorepad.live import QUEUE_SIZE, Broker, Message
from tests.slowness import scaled


def test_message_wire_format_has_one_data_line_per_html_line() -> None:
    assert Message("sheet", "<p>a</p>\n<p>b</p>").encode() == b"event: sheet\ndata: <p>a</p>\ndata: <p>b</p>\n\n"


def test_publish_reaches_only_the_channel_subscribers() -> None:
    broker = Broker()
    a, b = broker.subscribe("game-1"), broker.subscribe("game-2")
    assert broker.publish("game-1", "sheet", "x") == 1
    assert a.queue.get_nowait().data == "x"
    assert b.queue.empty()


def test_stream_starts_with_a_comment_heartbeats_and_unsubscribes_on_close() -> None:
    broker = Broker()
    sub = broker.subscribe("c")
    stream = sub.stream(heartbeat=0.01)
    assert next(stream) == b": connected\n\n"
    assert next(stream) == b": ping\n\n"
    broker.publish("c", "sheet", "hello")
    assert next(stream) == b"event: sheet\ndata: hello\n\n"
    stream.close()
    assert broker.count("c") == 0


def test_a_stalled_listener_keeps_the_newest_updates() -> None:
    broker = Broker()
    sub = broker.subscribe("c")
    for i in range(QUEUE_SIZE + 5):
        broker.publish("c", "sheet", str(i))
    kept = [sub.queue.get_nowait().data for _ in range(sub.queue.qsize())]
    assert len(kept) == QUEUE_SIZE and kept[-1] == str(QUEUE_SIZE + 4)


def test_a_page_hearing_every_tables_signals_keeps_each_when_the_hall_signs_at_once() -> None:
    """A team's page drawn with `table-*` hears every table's signature; with 16 places, its own table's
    signal was dropped in a burst of 64 and the page never asked again (bench/bid_whist_load.py)."""
    broker = Broker()
    team_page = broker.subscribe("e", frozenset({"orders", "table-*"}))
    for table in range(1, 65):
        broker.publish("e", "changed", "1")  # not asked for: takes no place
        broker.publish("e", f"table-{table}", "1")
    kept = [team_page.queue.get_nowait().event for _ in range(team_page.queue.qsize())]
    assert kept == [f"table-{n}" for n in range(1, 65)]


def test_a_listener_for_some_names_gets_only_those() -> None:
    broker = Broker()
    board, everything = broker.subscribe("e", frozenset({"board"})), broker.subscribe("e")
    broker.publish("e", "changed", "1")
    broker.publish("e", "board", "<table></table>")
    assert [board.queue.get_nowait().event for _ in range(board.queue.qsize())] == ["board"]
    assert [everything.queue.get_nowait().event for _ in range(everything.queue.qsize())] == ["changed", "board"]


def test_a_background_push_wakes_listeners_a_batch_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under gevent a push made off any request pauses between batches so requests can run."""
    pauses: list[int] = []
    broker = Broker(most_per_client=100)  # 51 listeners of one client: past the default cap
    subs = [broker.subscribe("board") for _ in range(2 * live.FAN_OUT_BATCH + 1)]
    monkeypatch.setattr(live, "_fan_out_pause", lambda: lambda: pauses.append(sum(not s.queue.empty() for s in subs)))
    assert broker.publish("board", "board", "<p>x</p>", background=True) == len(subs)
    assert pauses == [live.FAN_OUT_BATCH, 2 * live.FAN_OUT_BATCH]  # after each full batch
    assert all(s.queue.get_nowait().data == "<p>x</p>" for s in subs)
    broker.publish("board", "changed", "1")  # from a request: no pause, whatever the server
    assert len(pauses) == 2


def test_without_gevent_there_is_nothing_to_pause_for() -> None:
    assert live._fan_out_pause() is None  # the test process is not monkey-patched


BUSY_LOOP = """
from gevent import monkey; monkey.patch_all()
import time, gevent
from scorepad import live
def request_after_request():
    while True:
        gevent.sleep(0)  # always one ready to run: the loop is never idle, as under a steady load
gevent.spawn(request_after_request)
gevent.sleep(0)
start = time.monotonic()
live.let_requests_run()  # before a push is derived
pause = live._fan_out_pause()
for _ in range(8):  # between the batches of a fan-out to 200 streams
    pause()
print(time.monotonic() - start)
"""


def test_a_push_under_gevent_never_waits_for_an_idle_loop() -> None:
    """A push waited for gevent.idle() before it was derived and between its batches: under a steady
    load the loop is never idle, and half a push's screens got it 1.7 s after the others
    (bench/bid_whist_load.py). Now it waits IDLE_WAIT at most, and a batch lets each ready greenlet
    run once. (The old code never returns here.)"""
    out = subprocess.run(
        [sys.executable, "-c", BUSY_LOOP],
        capture_output=True,
        text=True,
        timeout=scaled(30),
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) < live.IDLE_WAIT + 0.5


def test_a_listener_for_table_star_gets_every_tables_own_changes_and_nothing_else() -> None:
    broker = Broker()
    team = broker.subscribe("e", frozenset({"orders", "table-*"}))
    bar = broker.subscribe("e", frozenset({"orders", "table-3"}))
    for name in ("changed", "table-3", "table-12", "orders", "tables", "board"):
        broker.publish("e", name, "1")
    assert [team.queue.get_nowait().event for _ in range(team.queue.qsize())] == ["table-3", "table-12", "orders"]
    assert [bar.queue.get_nowait().event for _ in range(bar.queue.qsize())] == ["table-3", "orders"]


def test_a_stream_is_told_it_missed_what_came_since_its_page_or_while_the_relay_was_deaf() -> None:
    broker = Broker()
    drawn = broker.deaf_until + 1.0  # a page drawn after this process began hearing
    assert not broker.missed("event:a", drawn)
    assert broker.missed("event:a", broker.deaf_until)  # drawn before then: perhaps
    broker._heard["event:a"] = drawn + 0.5  # a change heard after the page's request began
    assert broker.missed("event:a", drawn) and not broker.missed("event:b", drawn)
    assert not broker.missed("event:a", drawn + 1.0)
    broker.deaf_until = drawn + 2.0  # the relay lost touch with the other workers until then
    assert broker.missed("event:b", drawn + 1.0)
