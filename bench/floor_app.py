"""The app with three routes beside its own, for bench/floor.py (never served to players): what a tap
costs before any of Scorepad's work, through the same stack (session, CSRF, the security headers,
compression, the app's request hooks) as `scorepad run` serves."""

from __future__ import annotations

from flask import Blueprint, Flask, request
from sqlalchemy import text

from scorepad import create_app
from scorepad.extensions import db

_answer = {"html": ""}  # a real tap's answer, kept by POST /bench/floor/keep before anything is measured


def create() -> Flask:
    app = create_app()
    floor = Blueprint("bench_floor", __name__, url_prefix="/bench/floor")

    @floor.post("/keep")
    def keep() -> str:
        _answer["html"] = request.form["answer"]
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

    app.register_blueprint(floor)
    return app
