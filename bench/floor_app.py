"""The app with four routes beside its own, for bench/floor.py (never served to players): what a tap
costs before any of Scorepad's work, through the same stack (session, CSRF, the security headers,
compression, the app's request hooks) as `scorepad run` serves."""

from __future__ import annotations

from flask import Blueprint, Flask, request
from sqlalchemy import text

from scorepad import create_app
from scorepad.extensions import db

_answer = {"html": "", "page": ""}  # a real tap's answer and page, kept by POST /bench/floor/keep first


def create() -> Flask:
    app = create_app()
    floor = Blueprint("bench_floor", __name__, url_prefix="/bench/floor")

    @floor.post("/keep")
    def keep() -> str:
        _answer["html"], _answer["page"] = request.form["answer"], request.form["page"]
        return "kept"

    @floor.post("/empty")
    def empty() -> str:
        """The session opened and the CSRF token checked: what every htmx POST goes through."""
        return "ok"

    def write(token: str) -> None:
        """A tap's least work on the database: the game's row read by its token, one UPDATE, a commit."""
        row = db.session.execute(
            text("SELECT id, revision, pending FROM game WHERE scorer_token = :t"), {"t": token}
        ).one()
        db.session.execute(
            text("UPDATE game SET revision = :r, pending = :p WHERE id = :i"),
            {"r": row.revision + 1, "p": row.pending, "i": row.id},
        )
        db.session.commit()

    @floor.post("/write/<token>")
    def written(token: str) -> str:
        write(token)
        return "ok"

    @floor.post("/answer/<token>")
    def answered(token: str) -> str:
        """The write, and a tap's answer (its bytes, compressed as the app compresses them)."""
        write(token)
        return _answer["html"]

    @floor.get("/page/<token>")
    def page(token: str) -> str:
        """A page's least work: the game's row and its hands read, a real scoring page's bytes."""
        game = db.session.execute(text("SELECT id, revision FROM game WHERE scorer_token = :t"), {"t": token}).one()
        db.session.execute(text("SELECT * FROM hand WHERE game_id = :g"), {"g": game.id}).all()
        return _answer["page"]

    app.register_blueprint(floor)
    return app
