"""A home-game round, Scorepad beside a minimal peer scorer (not a test): issue 17's figures.

Serves Scorepad as it runs for real (`scorepad run`: gunicorn, one gevent worker, a SQLite file;
tests/serving.py) and, beside it in the same run, bench/peer_scorer.py (Flask, one JSON file per
game) under the same gunicorn + gevent settings. Then plays 4-player Nomination Whist rounds
(1 up to 13 cards, twice: 26 rounds) exactly as the browser does:

- Scorepad: the htmx POSTs to /g/<token>/entry, each built from the form in the fragment the
  previous answer swapped in (its hidden `state`, `seat`, `number`, `tricks.N`), with the page's
  CSRF token in the X-CSRFToken header as js/app.js sends it:
  the trump turned up, four bids, the players' tricks tapped one at a time until the last
  player's are filled in, then Save (`action=result`); with the session cookie, `HX-Request: true`
  and `Accept-Encoding: gzip, br`. Each answer is checked (200, and "Hand N saved." at the end).
- the peer: four POSTs of a bid and one of the round's tricks (its whole protocol), with the same
  headers.

A round is timed from its first POST sent to its last answer read (no think time). Each client
plays its rounds one after the other, each on a game of its own, with 1 and with 8 clients at once,
at hand 1 (a new game), at hand 12 and at hand 25 (games holding 11 and 24 hands, stored
beforehand through the app's own service, records.import_record; the peer's through its own JSON
files). Hand 25 deals 12 cards and hand 1 one: hand 12, also of 12 cards, tells what the 13 more
hands stored cost from what the bigger hand does (13 bid chips, not 2). Scorepad and the peer
take turns in ABBA order, and the hands are played in one order and then the other, so a drift in
the machine's load falls on all alike. Bytes are what the client
read off the socket: the bodies as sent (compressed when the server compressed them) and, apart,
the response headers. Each Scorepad game is scored from a fresh cookie, as by a phone that plays
that game (the session remembers the games a phone opened: one cookie for all would grow). Over
plain HTTP (a club's LAN) browsers offer gzip, not brotli: the bodies' gzip size at Flask-Compress's
level is printed beside what was sent.

Targets (issue 17): a round's p50 at most 2x the peer's with 1 and with 8 clients; the same cost
at hand 1 and hand 25 (within 10 %); at most 4 KB sent per round (compressed).

    .venv/bin/python bench/home_round.py [--rounds 30 --clients 8]
"""

from __future__ import annotations

import argparse
import gzip
import html
import http.client
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from urllib.parse import urlencode

import brotli

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.serving import ScorepadRun, free_port

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]
OPTIONS = {"sequence": "up", "cycles": 2}  # 26 rounds: hands 12 and 25 deal 12 cards, hand 1 one
HANDS = (1, 12, 25)  # the rounds played
HEADERS = {"HX-Request": "true", "Accept-Encoding": "gzip, br"}
FORM = re.compile(r"<form\b(.*?)</form>", re.S)
INPUT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
BUTTON = re.compile(r'<button type="submit" name="([^"]+)" value="([^"]*)"')
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def cards(hand: int) -> int:
    return (hand - 1) % 13 + 1


def filled_hand(hand: int) -> dict[str, object]:
    """A hand already played: everyone bid 0 (never the hook's total), the dealer's left took all."""
    return {"trump": "H", "bids": [0, 0, 0, 0], "tricks": [cards(hand), 0, 0, 0]}


def make_games(database: str, count: int) -> dict[int, list[str]]:
    """Scorepad games (scorer tokens), `count` for each hand of HANDS, each holding the hands before it."""
    record = {"scorepad": 1, "variant": "nomination", "options": OPTIONS, "players": PLAYERS, "first_dealer": 0}
    code = f"""
import json
from flask_migrate import upgrade
from scorepad import create_app
from scorepad.games import records, service
app = create_app()
with app.app_context():
    upgrade(directory=app.extensions["migrate"].directory)
    record = {record!r}
    hands = {[filled_hand(n) for n in range(1, max(HANDS))]!r}
    made = {{}}
    for hand in {HANDS!r}:
        made[hand] = [(records.import_record({{**record, "hands": hands[:hand - 1]}}) if hand > 1
                       else service.create(record)).scorer_token for _ in range({count})]
    print(json.dumps(made))
"""
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode:
        sys.exit(out.stderr)
    return {int(hand): tokens for hand, tokens in json.loads(out.stdout.strip().splitlines()[-1]).items()}


def make_peer_games(folder: Path, count: int, hands: int) -> list[str]:
    ids = []
    for _ in range(count):
        game = secrets.token_hex(8)
        data = {
            "players": PLAYERS,
            "hands": [
                {"bids": h["bids"], "tricks": h["tricks"]} for h in (filled_hand(n) for n in range(1, hands + 1))
            ],
        }
        (folder / f"{game}.json").write_text(json.dumps(data))
        ids.append(game)
    return ids


def serve_peer(folder: Path, data: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The peer under the settings serve.py gives Scorepad's gunicorn (gevent, 1 worker)."""
    port = free_port()
    env = {**os.environ, "PEER_DIR": str(data)}
    argv = [
        sys.executable,
        "-m",
        "gunicorn",
        "--worker-class",
        "gevent",
        "--workers",
        "1",
        "--worker-connections",
        "1000",
        "--bind",
        f"127.0.0.1:{port}",
        "--graceful-timeout",
        "3",
        "--log-level",
        "warning",
        "--chdir",
        str(ROOT / "bench"),
        "peer_scorer:create_app()",
    ]
    with (folder / "peer.log").open("w") as log:
        server = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(200):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/")
            conn.getresponse().read()
            return server, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the peer did not start: {(folder / 'peer.log').read_text()}")


class Phone:
    """One scoring phone: a keep-alive connection, its cookie; counts what it reads."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.body_bytes = self.header_bytes = self.raw_bytes = self.gzip_bytes = 0
        self.encodings: set[str] = set()

    def send(
        self, method: str, path: str, form: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        sent = dict(HEADERS if headers is None else headers)
        if self.cookie:
            sent["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=sent)
        response = self.conn.getresponse()
        raw = response.read()
        self.body_bytes += len(raw)
        self.header_bytes += (
            len(f"HTTP/1.1 {response.status} {response.reason}\r\n")
            + 2
            + sum(len(k) + len(v) + 4 for k, v in response.getheaders())
        )
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        encoding = response.getheader("Content-Encoding", "")
        self.encodings.add(encoding or "identity")
        if encoding == "br":
            raw = brotli.decompress(raw)
        elif encoding == "gzip":
            raw = zlib.decompress(raw, 16 + zlib.MAX_WBITS)
        self.raw_bytes += len(raw)
        self.gzip_bytes += len(gzip.compress(raw, compresslevel=6))  # Flask-Compress's gzip level
        return response.status, raw.decode()


def forms(page: str) -> dict[str, tuple[dict[str, str], list[tuple[str, str]]]]:
    """The page's forms by their `action` field: (hidden fields, submit buttons' name and value)."""
    found = {}
    for body in FORM.findall(page):
        hidden = {k: html.unescape(v) for k, v in INPUT.findall(body)}
        if "action" in hidden:
            found[hidden["action"]] = (hidden, BUTTON.findall(body))
    return found


class RoundError(Exception):
    pass


def scorepad_round(phone: Phone, token: str, hand: int) -> None:
    """Open the scoring page (not timed), then play round `hand` through its htmx forms (timed by
    the caller from the first POST: the page is read first, as a phone already shows it)."""
    phone.cookie = ""  # a phone scoring this one game (one phone's cookie would list all its games)
    status, page = phone.send("GET", f"/g/{token}", headers={"Accept-Encoding": "gzip, br"})
    if status != 200:
        raise RoundError(f"GET /g/{token}: HTTP {status}")
    found = CSRF.search(page)
    if not found:
        raise RoundError(f"GET /g/{token}: no CSRF token in the page")
    phone.csrf = found.group(1)  # type: ignore[attr-defined]
    phone.body_bytes = phone.header_bytes = phone.raw_bytes = phone.gzip_bytes = 0
    phone.page = page  # type: ignore[attr-defined]


def scorepad_play(phone: Phone, token: str, hand: int) -> int:
    page: str = phone.page  # type: ignore[attr-defined]
    posts = 0
    share = max(0, cards(hand) // 4)

    def tap(action: str, extra: dict[str, str]) -> str:
        nonlocal posts
        found = forms(page).get(action)
        if found is None:
            raise RoundError(f"hand {hand}: no {action} form on the page")
        status, answer = phone.send(
            "POST", f"/g/{token}/entry", {**found[0], **extra}, {**HEADERS, "X-CSRFToken": phone.csrf}
        )  # type: ignore[attr-defined]
        posts += 1
        if status != 200:
            raise RoundError(f"hand {hand} {action}: HTTP {status}")
        return answer

    page = tap("trump", {"trump": "S"})
    for _ in PLAYERS:
        page = tap("bid", {"bid": "0"})
    while "tricks" in forms(page):
        buttons = [int(v) for n, v in forms(page)["tricks"][1] if n == "tricks"]
        page = tap("tricks", {"tricks": str(min(share, max(buttons)))})
    page = tap("result", {})
    if f"Hand {hand} saved." not in page:
        raise RoundError(f"hand {hand}: the answer to Save does not say it was saved")
    return posts


def peer_play(phone: Phone, game: str, hand: int) -> int:
    share = cards(hand) // 4
    for seat in (1, 2, 3, 0):  # the dealer's left bids first
        status, _ = phone.send("POST", f"/p/{game}/bid", {"seat": str(seat), "bid": "0"})
        if status != 200:
            raise RoundError(f"peer bid: HTTP {status}")
    took = [share, share, share, cards(hand) - 3 * share]
    status, answer = phone.send("POST", f"/p/{game}/tricks", {f"tricks.{i}": str(t) for i, t in enumerate(took)})
    if status != 200 or json.loads(answer)["hand"] != hand:
        raise RoundError(f"peer tricks: HTTP {status} {answer[:80]}")
    return 5


class Result:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.bodies: list[int] = []
        self.headers: list[int] = []
        self.raw: list[int] = []
        self.gzip: list[int] = []
        self.encodings: set[str] = set()
        self.posts: list[int] = []
        self.errors: list[str] = []


def run_block(kind: str, port: int, games: list[list[str]], hand: int, result: Result) -> None:
    """Each client (a thread, its own connection) plays its games' round `hand` one after the other."""
    barrier = threading.Barrier(len(games))
    lock = threading.Lock()

    def client(mine: list[str]) -> None:
        phone = Phone(port)
        barrier.wait()
        for game in mine:
            try:
                if kind == "scorepad":
                    scorepad_round(phone, game, hand)
                    start = time.perf_counter()
                    posts = scorepad_play(phone, game, hand)
                else:
                    phone.body_bytes = phone.header_bytes = phone.raw_bytes = phone.gzip_bytes = 0
                    start = time.perf_counter()
                    posts = peer_play(phone, game, hand)
                elapsed = time.perf_counter() - start
            except (RoundError, OSError, http.client.HTTPException) as e:
                with lock:
                    result.errors.append(f"{kind}: {e}")
                phone = Phone(port)
                continue
            with lock:
                result.times.append(elapsed * 1000)
                result.bodies.append(phone.body_bytes)
                result.headers.append(phone.header_bytes)
                result.raw.append(phone.raw_bytes)
                result.gzip.append(phone.gzip_bytes)
                result.encodings |= phone.encodings
                result.posts.append(posts)

    threads = [threading.Thread(target=client, args=(mine,)) for mine in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds each client plays per configuration")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    if args.rounds < 2:
        parser.error("--rounds: at least 2 (each configuration is played in two halves)")

    folder = Path(tempfile.mkdtemp(prefix="scorepad-round-"))
    peer_data = folder / "peer"
    peer_data.mkdir()
    per_hand = args.rounds * (1 + args.clients) + 2  # 2 warm-up rounds
    scorepad_games = make_games(f"sqlite:///{folder / 'run.db'}", per_hand)
    peer_games = {hand: make_peer_games(peer_data, per_hand, hand - 1) for hand in HANDS}

    server = ScorepadRun(folder, SCOREPAD_DEMO="0")
    server.start()
    peer, peer_port = serve_peer(folder, peer_data)
    ports = {"scorepad": server.port, "peer": peer_port}
    games = {"scorepad": scorepad_games, "peer": peer_games}
    try:
        for kind in ("scorepad", "peer"):  # warm-up: the first requests load templates and code
            for hand in HANDS:
                run_block(kind, ports[kind], [games[kind][hand][-2:]], hand, Result())
        results: dict[tuple[str, int, int], Result] = {}
        half = args.rounds // 2
        for clients in (1, args.clients):
            queues = {}
            for hand in HANDS:
                queues[hand] = {kind: games[kind][hand][: clients * args.rounds] for kind in games}
                for kind in games:
                    games[kind][hand] = games[kind][hand][clients * args.rounds :]
            # ABBA twice over: Scorepad and the peer take turns, and the hands are played 1, 12, 25 in the
            # first half and 25, 12, 1 in the second, so a drift in the machine's load (or in the server
            # as it stores more) falls on every hand alike rather than on the later ones
            for part, hands in ((0, HANDS), (1, HANDS[::-1])):
                for hand in hands:
                    for kind in ("scorepad", "peer") if part == 0 else ("peer", "scorepad"):
                        mine = [queues[hand][kind][c * args.rounds : (c + 1) * args.rounds] for c in range(clients)]
                        mine = [m[:half] if part == 0 else m[half:] for m in mine]
                        run_block(kind, ports[kind], mine, hand, results.setdefault((kind, clients, hand), Result()))
        return report(results, args)
    finally:
        server.stop()
        os.killpg(peer.pid, 9)
        peer.wait(10)


def report(results: dict[tuple[str, int, int], Result], args: argparse.Namespace) -> int:
    print(
        f"Nomination Whist, 4 players; {args.rounds} rounds per client per configuration; gunicorn + gevent, "
        f"1 worker each; Scorepad on SQLite, the peer on JSON files"
    )
    print(
        f"{'':24} {'posts':>5} {'p50 ms':>8} {'p99 ms':>8} {'ms/post':>7} {'body B':>7} {'+hdrs B':>8} {'rounds':>6} "
        f"{'errors':>6}"
    )
    for (kind, clients, hand), r in sorted(
        results.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0] != "scorepad")
    ):
        print(
            f"{kind:8} {clients} client{'s' if clients > 1 else ' '} hand {hand:2}  "
            f"{statistics.median(r.posts) if r.posts else 0:5.0f} {percentile(r.times, 50):8.1f} "
            f"{percentile(r.times, 99):8.1f} {percentile(r.times, 50) / max(1, statistics.median(r.posts or [1])):7.1f} "
            f"{statistics.median(r.bodies) if r.bodies else 0:7.0f} "
            f"{statistics.median([b + h for b, h in zip(r.bodies, r.headers)]) if r.bodies else 0:8.0f} "
            f"{len(r.times):6} {len(r.errors):6}"
        )
    print("targets:")
    ok = True
    p50 = {key: percentile(r.times, 50) for key, r in results.items()}
    for clients in (1, args.clients):
        for hand in HANDS:
            ratio = p50[("scorepad", clients, hand)] / p50[("peer", clients, hand)]
            ok &= ratio <= 2
            print(
                f"  round p50 vs the peer's, {clients} client{'s' if clients > 1 else ''}, hand {hand:2}: "
                f"x{ratio:.2f} (at most x2) {verdict(ratio <= 2)}"
            )
    for kind in ("scorepad", "peer"):
        for clients in (1, args.clients):
            change = p50[(kind, clients, 25)] / p50[(kind, clients, 1)] - 1
            if kind == "scorepad":
                ok &= abs(change) <= 0.10
            print(
                f"  {kind} round p50, hand 25 vs hand 1, {clients} client{'s' if clients > 1 else ''}: "
                f"{change:+.0%} (within 10 %) {verdict(abs(change) <= 0.10) if kind == 'scorepad' else '(peer, for scale)'}"
            )
            stored = p50[(kind, clients, 25)] / p50[(kind, clients, 12)] - 1
            print(f"    hand 25 vs hand 12, both of 12 cards (the 13 more hands stored alone): {stored:+.0%}")
    for hand in (1, 25):
        sent = max(statistics.median(results[("scorepad", c, hand)].bodies) for c in (1, args.clients))
        raw = max(statistics.median(results[("scorepad", c, hand)].raw) for c in (1, args.clients))
        gzipped = max(statistics.median(results[("scorepad", c, hand)].gzip) for c in (1, args.clients))
        with_headers = max(
            statistics.median(
                [b + h for b, h in zip(results[("scorepad", c, hand)].bodies, results[("scorepad", c, hand)].headers)]
            )
            for c in (1, args.clients)
        )
        ok &= sent <= 4096
        print(
            f"  bytes sent per round, hand {hand:2}: {sent / 1024:.2f} KB of bodies, compressed "
            f"({with_headers / 1024:.2f} KB with the headers, {raw / 1024:.1f} KB uncompressed; {gzipped / 1024:.2f} KB as gzip, what a phone asks for over plain "
            f"HTTP) (at most 4 KB) {verdict(sent <= 4096)}"
        )
    for kind in ("scorepad", "peer"):
        seen = set().union(*(r.encodings for (k, _, _), r in results.items() if k == kind))
        print(f"  ({kind}'s answers came as: {', '.join(sorted(seen))})")
    errors = [e for r in results.values() for e in r.errors]
    ok &= not errors
    print(f"errors: {len(errors)}" + "".join(f"\n  {e}" for e in errors[:10]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
