"""What a phone downloads (not a test): the scoring page's first load and one htmx reply of its play
area, as sent before compression (identity), gzipped (what a phone on plain HTTP asks for) and in
brotli (HTTPS); then how many of the first load's files a second page view must ask for again.

    .venv/bin/pip install -q -e . && .venv/bin/python bench/page_weight.py

Issue 13 measured about 105 KB (31 KB gzipped) for the first load and 9.5 KB (1.8 KB gzipped) per
hand, with every static file revalidated on each view.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_migrate import upgrade

from scorepad import create_app
from scorepad.extensions import db
from scorepad.games import records
from scorepad.models import Game

ENCODINGS = {"identity": "identity", "gzip (HTTP)": "gzip, deflate", "brotli (HTTPS)": "gzip, deflate, br"}


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="scorepad-weight-"))
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "SCOREPAD_DEMO": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'weight.db'}",
        }
    )
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        records.load_demo_games()
        game = db.session.scalars(db.select(Game).where(Game.variant == "nomination")).first()
        assert game is not None and game.hands, "the Nomination example game"
        token = game.scorer_token
    client = app.test_client()
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assets = sorted(set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page)))
    print(f"scoring page /g/… of a Nomination game with {len(assets)} static files linked")
    print(f"{'':16} {'first load':>12} {'page':>9} {'htmx reply':>11}")
    for label, accept in ENCODINGS.items():
        headers = {"Accept-Encoding": accept}
        page_bytes = len(client.get(f"/g/{token}", headers=headers).data)
        total = page_bytes
        for url in assets:
            with client.get(url, headers=headers) as response:
                total += len(response.data)
        # the undo reply is the play area an htmx hand entry swaps in (then put the hand back)
        with app.app_context():
            entry = dict(db.session.scalars(db.select(Game).where(Game.scorer_token == token)).one().hands[-1].entry)
        reply = client.post(f"/g/{token}/undo", headers={**headers, "HX-Request": "true"})
        with app.app_context():
            from scorepad.games import service as games

            again = games.by_scorer_token(token)
            assert again is not None
            games.enter_hand(again, len(again.hands) + 1, entry)
        print(f"{label:16} {total / 1024:9.1f} KB {page_bytes / 1024:6.1f} KB {len(reply.data) / 1024:8.1f} KB")
    again = 0
    for url in assets:
        with client.get(url) as response:
            if "immutable" not in response.headers.get("Cache-Control", ""):
                again += 1
    print(f"second page view: {again} of {len(assets)} static files asked for again (the rest cached a year)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
