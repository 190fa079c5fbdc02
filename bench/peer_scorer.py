"""A minimal peer scorer for bench/home_round.py (not part of Scorepad): Flask, one JSON file per game.

The least a Nomination Whist scorer can do and still derive its totals from the facts: each POST
reads the game's file, appends the fact, writes the file back (whole, then renamed over the old
one) and answers with JSON; the round's tricks also score every hand so far (a trick is 1 point,
an exact bid 10 more) to answer with the totals. No templates, no session, no CSRF, no database.

    PEER_DIR=/tmp/games python -m gunicorn --worker-class gevent ... --chdir bench "peer_scorer:create_app()"

Routes: POST /p/<game>/bid (seat, bid), POST /p/<game>/tricks (tricks.0 .. tricks.N-1).
A game's file is {"players": [...], "hands": [{"bids": [...], "tricks": [...]}], "bids": [...]}.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from flask import Flask, abort, jsonify, request
from flask_compress import Compress


def create_app() -> Flask:
    app = Flask(__name__)
    folder = Path(os.environ["PEER_DIR"])
    # the same compression as Scorepad's (config.py): brotli or gzip, above 500 bytes
    app.config.update(COMPRESS_ALGORITHM=["br", "gzip"], COMPRESS_STREAMS=False)
    Compress(app)

    def load(game: str) -> tuple[Path, dict[str, Any]]:
        path = folder / f"{game}.json"
        if not game.isalnum() or not path.exists():
            abort(404)
        return path, json.loads(path.read_text())

    def save(path: Path, data: dict[str, Any]) -> None:
        part = path.with_suffix(".part")
        part.write_text(json.dumps(data))
        os.replace(part, path)

    def number(name: str) -> int:
        try:
            return int(request.form[name])
        except (KeyError, ValueError):
            abort(422)

    @app.post("/p/<game>/bid")
    def bid(game: str) -> Any:
        path, data = load(game)
        seat = number("seat")
        bids = data.get("bids") or [None] * len(data["players"])
        bids[seat] = number("bid")
        data["bids"] = bids
        save(path, data)
        return jsonify(hand=len(data["hands"]) + 1, bids=bids)

    @app.post("/p/<game>/tricks")
    def tricks(game: str) -> Any:
        path, data = load(game)
        took = [number(f"tricks.{i}") for i in range(len(data["players"]))]
        data["hands"].append({"bids": data.pop("bids", None), "tricks": took})
        save(path, data)
        totals = [0] * len(data["players"])
        for hand in data["hands"]:
            for seat, (b, t) in enumerate(zip(hand["bids"] or [], hand["tricks"])):
                totals[seat] += t + (10 if b == t else 0)
        return jsonify(hand=len(data["hands"]), totals=totals)

    return app
